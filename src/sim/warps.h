/*
 * sim/warps.h: the processors: warps that issue a workload's operations
 * in program order, each with a bound on its outstanding operations
 * (slots), and the accounting of the cycles they stall, by cause.
 *
 * Each slot is a thread in the tables' sense (messages carry its slot
 * within the CU).  A warp issues one operation at a time to its CU's
 * processor controller; the next one waits until that one was accepted
 * (its row fired), so operations reach the tables in program order.
 * Synchronising operations (acquire, release, acq_rel, sc, fences) first
 * wait for the warp's outstanding operations (a drain); an operation to a
 * line the warp has in flight waits for it; an acquire, a fence, and an
 * operation whose value the program needs block the warp until they
 * complete.  Ideal mode (a configuration, not a protocol) issues every
 * access as weak (atomics relaxed) and drops fences: no coherence action
 * is ever asked of the tables.
 *
 * Contract.  The machine (sim/machine.c) drives the warps and the warps
 * never call it: warps_advance says what a warp does next (issue a slot's
 * operation, sleep until a time, wait for the machine, reach a kernel
 * boundary, finish); warps_fired, warps_blocked and warps_completed report
 * what the tables did with an issued operation.  Arrays are allocated by
 * warps_init (false when memory runs out); nothing allocates afterwards.
 */
#ifndef SCOPECHECK_SIM_WARPS_H
#define SCOPECHECK_SIM_WARPS_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/workload.h"

enum sim_stall { STALL_SLOTS, STALL_DRAIN, STALL_LOAD, STALL_ATOMIC, STALL_ACQUIRE, STALL_PORT,
                 STALL_TABLE_ACQUIRE, STALL_TABLE_RELEASE, STALL_TABLE_FENCE, STALL_TABLE_ATOMIC,
                 STALL_TABLE_OTHER, STALL_SET_FULL, STALL_CHANNEL_FULL, STALL_KERNEL, STALL_BARRIER,
                 STALL_HOLD, STALL_COUNT, STALL_NONE = STALL_COUNT };

extern const char *const sim_stall_names[STALL_COUNT];

enum { TS_FREE, TS_QUEUED, TS_WAITING, TS_DONE };

#define SIM_LATENCY_BUCKETS 65536

typedef struct sim_thread {
    sim_op op;
    uint8_t state;
    uint64_t done_at;
    uint64_t issued_at;         /* when the warp issued it (load latency: done_at - issued_at) */
    int64_t result;
    int warp;
} sim_thread;

/* Buckets of the per-warp count of lines in flight: most issues find
 * their bucket empty and skip the scan of the warp's threads. */
#define WARP_FLIGHT_BUCKETS 32

typedef struct sim_warp {
    int cu, first;              /* its threads: first .. first + slots - 1 */
    sim_wstate ws;
    sim_op pending;
    bool has_pending;
    int64_t last;               /* the value of the last operation that needed one */
    int need_thread;            /* the thread whose completion the warp waits for, or -1 */
    int queued;                 /* the thread at the controller, not yet accepted, or -1 */
    uint64_t busy_mask;         /* bit s: thread first + s is not free (slots <= 64) */
    uint64_t done_mask;         /* bit s: thread first + s is done, to be freed at its done_at */
    uint8_t in_flight[WARP_FLIGHT_BUCKETS];    /* memory operations not yet freed, by line address modulo */
    uint8_t cause;
    uint64_t since;
    bool finished, at_kernel, at_barrier;
    int barrier_key;
    uint64_t ready_at;
    uint64_t wake_at;           /* the machine's pending wake-up, UINT64_MAX when none */
} sim_warp;

enum warp_decision { WD_ISSUE, WD_SLEEP, WD_WAIT, WD_KERNEL, WD_FINISHED };

typedef struct warp_step {
    enum warp_decision d;
    int thread;                 /* WD_ISSUE */
    uint64_t until;             /* WD_SLEEP */
    int nwake;                  /* other warps a CTA barrier released, to wake now */
    const int *wake;
} warp_step;

typedef struct sim_warps {
    const sim_workload *wl;
    int nwarps, slots, warps_per_cu, issue_interval;
    bool ideal;
    sim_warp *w;
    sim_thread *th;
    int *barrier_count;         /* per CU, 16 barrier ids */
    int *wake;
    uint64_t stall[STALL_COUNT];
    uint64_t ops[4];            /* issued loads, stores, rmws, fences */
    uint64_t compute_ops, compute_cycles;
    int finished, at_kernel;
    /* the last cycle a warp made progress: an operation completed that
     * was not a spin (a value waited for, equal to the warp's last one),
     * a warp finished or reached a kernel boundary */
    uint64_t progress_at;
    /* loads completed, by latency (issue to done) in cycles; the last
     * bucket counts every latency from SIM_LATENCY_BUCKETS - 1 on */
    uint64_t *load_latency, load_latency_sum;
} sim_warps;

bool warps_init(sim_warps *ws, const sim_workload *wl, int ncu, int warps_per_cu, int slots, int issue_interval,
                bool ideal, uint64_t seed);
void warps_free(sim_warps *ws);
warp_step warps_advance(sim_warps *ws, int warp, uint64_t now);
/* The tables accepted thread t's operation at `now`: completed (done) at
 * done_at with `result`, or waiting for a response. */
void warps_fired(sim_warps *ws, int t, uint64_t now, bool done, uint64_t done_at, int64_t result);
/* The tables could not accept it now, for `cause` (a STALL_TABLE_* kind,
 * STALL_SET_FULL or STALL_CHANNEL_FULL). */
void warps_blocked(sim_warps *ws, int t, enum sim_stall cause, uint64_t now);
/* A response completed thread t's operation at done_at. */
void warps_completed(sim_warps *ws, int t, uint64_t done_at, int64_t result);
/* Every unfinished warp is at the kernel boundary: let them go. */
void warps_release_kernel(sim_warps *ws, uint64_t now);
/* Closes every open stall interval at `now` (the end of a run). */
void warps_close(sim_warps *ws, uint64_t now);
/* The stall cause of an operation the tables refused. */
enum sim_stall warps_table_cause(const sim_op *op);

#endif
