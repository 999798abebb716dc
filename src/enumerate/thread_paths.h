/*
 * enumerate/thread_paths.h: what each thread of a litmus test can do, as event traces.
 *
 * Contract: for every thread, thread_paths_build lists every path through
 * its program, given that each read may return any value that some write of
 * the test can produce (values found by a fixpoint over all threads, so no
 * value appears out of thin air).  A path that takes a backward branch more
 * than `unroll` times is dropped and the result says so.  The traces carry
 * everything a memory model needs about each event except the
 * communication relations (rf, co), which the execution enumerator chooses.
 * Allocation: Boehm GC.
 */
#ifndef SCOPECHECK_ENUMERATE_THREAD_PATHS_H
#define SCOPECHECK_ENUMERATE_THREAD_PATHS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "litmus/litmus.h"

/* The most events one thread's trace may have. */
#define TP_MAX_EVENTS 63

enum tp_kind { EV_READ, EV_WRITE, EV_FENCE, EV_BARRIER };

typedef struct tp_event {
    uint8_t kind;       /* enum tp_kind */
    uint8_t order;      /* enum lit_order */
    uint8_t scope;      /* enum lit_scope */
    uint8_t proxy;      /* enum lit_proxy */
    bool in_rmw;        /* part of an atom/red */
    bool rmw_write;     /* write half of an atom/red: the previous event is its read */
    bool waits;         /* barrier: sync (true) or arrive (false) */
    bool remote;        /* remote-scope-promotion access */
    uint8_t regions;    /* fences and barriers: enum lit_region bits */
    int loc;            /* location as addressed (virtual), memory events */
    lit_value value;    /* value read or written; barrier id for barriers */
    lit_value count;    /* barrier thread count, or -1 when absent */
    uint64_t addr_deps; /* bit i: this event's address depends on event i of the trace */
    uint64_t data_deps; /* bit i: the value written depends on event i */
    uint64_t ctrl_deps; /* bit i: a branch before this event depended on event i */
    int instr;          /* index of the instruction that made it */
} tp_event;

typedef struct tp_trace {
    int nevents;
    tp_event *events;
    lit_value *regs;    /* final value of each register of the thread */
} tp_trace;

typedef struct tp_thread {
    int ntraces;
    tp_trace *traces;
} tp_thread;

typedef struct tp_result {
    tp_thread *threads;   /* one per thread of the test */
    bool unroll_cut;      /* some path exceeded the loop bound and was dropped */
    bool values_cut;      /* the value fixpoint was stopped before it closed */
    /* With tp_limits.track_values: the least and greatest value that the last round's paths (the
     * traces above, and the paths dropped at the loop bound up to the
     * bound) read, write or compute into a register, with the initial
     * values and every immediate operand of the program. */
    lit_value vmin, vmax;
} tp_result;

typedef struct tp_limits {
    int unroll;           /* backward branches taken per branch instruction and path */
    long max_traces;      /* per thread; beyond it the test is refused */
    int nseeds;           /* values any read may also guess (thin-air values) */
    const lit_value *seeds;
    bool track_values;    /* fill tp_result.vmin and vmax (they cost a little per event) */
} tp_limits;

/* Returns false (with "file:line:col: error: ..." on `errors`) when the test
 * is beyond the limits: too many traces, or a trace longer than
 * TP_MAX_EVENTS. */
bool thread_paths_build(const litmus_test *t, const tp_limits *lim, tp_result *out, FILE *errors);

#endif
