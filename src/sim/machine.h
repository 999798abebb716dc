/*
 * sim/machine.h: one timed run of exported tables on a system with a
 * workload (docs/simulator.md, "Timing").
 *
 * The machine is event driven: warps issue operations to their CU's
 * processor controller; every controller instance serves its events (a
 * processor operation, the head of a FIFO channel, any message of an
 * unordered one) at its rate, firing the tables' rows (sim/interp.h); a
 * row's sends leave after the controller's latency and cross a link
 * (local, between GPMs, between GPUs) with its latency and bandwidth; a
 * row's `done` completes the operation after the same latency.  Events
 * that cannot fire wait and are tried again when their controller's state
 * changes.  Caches are tag arrays: a line that leaves its controller's
 * initial state needs a frame, and a full set gives one up by firing the
 * tables' `evict` row on a victim; a memory-backed controller's accesses
 * go through an optional memory-side cache to DRAM.
 *
 * Contract.  machine_run binds the tables and the workload to the system
 * (checking that the system fits what was verified, and recording every
 * assumption beyond the check in the results), runs to the end of the
 * workload, and fills `r`.  Returns 0 when the run completed; 1 when the
 * tables met an event they have no row for, an eviction that does not
 * free its frame, a deadlock (with "Why stuck": who waits where, and
 * for which guard), or no progress for SIM_NO_PROGRESS cycles (every
 * unfinished warp spins on a value no write changes); 2 when the
 * system, the tables and the workload do not fit together ("FILE: FIELD:
 * ..."); 3 when --max-cycles or a signal (o->stop) cut the run (the
 * results are partial and say so: "max-cycles", "interrupted").  Memory for a run is allocated while it is set up and while
 * queues first reach their size; it does not grow with simulated time.
 */
#ifndef SCOPECHECK_SIM_MACHINE_H
#define SCOPECHECK_SIM_MACHINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/config.h"
#include "sim/results.h"
#include "sim/tables.h"
#include "sim/workload.h"

/* The largest system simulated: larger ones are refused before any
 * allocation ("FILE: system: ..."), not left to run out of memory. */
#define SIM_MAX_CUS 65536
#define SIM_MAX_THREADS (1 << 23)
#define SIM_MAX_CACHE_LINES (1 << 22)   /* frames of one cache instance */
#define SIM_MAX_CACHE_TOTAL (1 << 25)   /* frames of every cache together */

/* Cycles without progress (sim_warps.progress_at) after which a run
 * stops as stuck rather than spin to --max-cycles or forever. */
#define SIM_NO_PROGRESS 1000000

typedef struct sim_run_opts {
    uint64_t seed;
    bool ideal;             /* every access weak, fences dropped: caching with no coherence cost */
    bool unverified;        /* accept a system larger than what was verified */
    uint64_t max_cycles;    /* 0: no limit */
    bool progress;          /* a progress line on standard error */
    const volatile sig_atomic_t *stop;  /* set by SIGINT/SIGTERM (sim/main.c): stop, results partial; or NULL */
} sim_run_opts;

int machine_run(sim_tables *t, const sim_system *s, sim_workload *wl, const sim_run_opts *o, sim_results *r,
                FILE *errors);

#endif
