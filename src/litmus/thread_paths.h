/*
 * litmus/thread_paths.h: what each thread of a litmus test can do, as event traces.
 *
 * Contract: for every thread, thread_paths_build lists every path through
 * its program, given that each read may return any value that some write of
 * the test can produce (values found by a fixpoint over all threads, so no
 * value appears out of thin air).  A path that takes a backward branch more
 * than `unroll` times is dropped and the result says so.  The traces carry
 * everything a memory model needs about each event except the
 * communication relations (rf, co), which the execution enumerator chooses.
 * A seq_cst access (OpenCL's) is preceded in its trace by an implicit fence
 * event (implicit_sc) with its scope: the fence.sc that PTX models read as
 * CUDA's mapping of seq_cst; other models ignore it (docs/models.md).
 * Allocation: Boehm GC.
 *
 * Liveness mode (tp_limits.liveness; docs/liveness.md).  No loop bound:
 * a path that comes back to a loop head with the same live registers as on
 * an earlier visit has repeated an iteration.  When that iteration is pure
 * (its only writes are read-modify-writes that write back the value they
 * read: a failing CAS; no barrier) it can repeat forever, and the path
 * ends there as a TP_END_SPIN trace.  After an iteration that wrote, memory
 * has changed and the path goes on, up to `live_repeats` such iterations
 * at one loop head; a path that reaches that bound, LIVE_MAX_VISITS loop
 * visits, LIVE_MAX_STEPS instructions or TP_MAX_EVENTS events ends as a
 * TP_END_CUT trace (live_cut), and the enumerator decides whether any
 * consistent execution reaches it.  Each bar.cta.sync also ends a
 * TP_END_BLOCKED trace (the thread waits there forever) before the path goes
 * on past it; with `prefixes`, every prefix of a path is a TP_END_PREFIX
 * trace (the thread is starved there), and with `empty_prefix` the empty
 * one is (a thread never dispatched).  Too many paths (max_traces) or a stop
 * set live_unknown: the liveness answer is then unknown.
 */
#ifndef SCOPECHECK_LITMUS_THREAD_PATHS_H
#define SCOPECHECK_LITMUS_THREAD_PATHS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "litmus/litmus.h"

/* The most events one thread's trace may have: as many as one execution
 * may have (cat/relation.h).  A longer path is dropped and the result says
 * so (too_long): the executions it would have made are unknown. */
#define TP_MAX_EVENTS 4096

/* EV_RMW: herd's C read-modify-write, one event that reads `value` and
 * writes `wvalue`. */
enum tp_kind { EV_READ, EV_WRITE, EV_FENCE, EV_BARRIER, EV_RMW };

typedef struct tp_event {
    uint8_t kind;       /* enum tp_kind */
    uint8_t order;      /* enum lit_order */
    uint8_t scope;      /* enum lit_scope */
    uint8_t proxy;      /* enum lit_proxy */
    bool in_rmw;        /* part of an atom/red */
    bool rmw_write;     /* write half of an atom/red: the previous event is its read */
    bool waits;         /* barrier: sync (true) or arrive (false) */
    bool remote;        /* remote-scope-promotion access */
    bool implicit_sc;   /* fence: the implicit one just before a seq_cst access */
    uint8_t regions;    /* fences and barriers: enum lit_region bits */
    int loc;            /* location as addressed (virtual), memory events */
    lit_value value;    /* value read or written; barrier id for barriers */
    union {
        lit_value count;  /* barriers: thread count, or -1 when absent */
        lit_value wvalue; /* EV_RMW: value written */
    };
    int instr;          /* index of the instruction that made it */
} tp_event;

/* The dependencies of an event, as sets of earlier events of its trace
 * (bit i of word i / 64: event i). */
enum tp_dep { DEP_ADDR, DEP_DATA, DEP_CTRL, DEP_KINDS };

/* How a trace ends.  Outside liveness mode every trace is TP_END_DONE. */
enum tp_end {
    TP_END_DONE,        /* the thread ran to the end of its program */
    TP_END_SPIN,        /* events spin_from.. are one pure iteration of the loop
                         * headed at loop_pc, which comes back to the same state */
    TP_END_BLOCKED,     /* the last event is a bar.cta.sync (at loop_pc) never released */
    TP_END_PREFIX,      /* the thread stops here: starved, or never dispatched (empty) */
    TP_END_CUT,         /* a liveness-mode bound stopped the path here (loop_pc: where) */
};

typedef struct tp_trace {
    int nevents;
    tp_event *events;
    lit_value *regs;    /* final value of each register of the thread */
    int dep_words;      /* words per dependency set: as many as the thread's longest path needs */
    uint64_t *deps;     /* per event, per enum tp_dep: dep_words words (tp_deps) */
    uint64_t *unseq;    /* per event, dep_words words: the earlier events C leaves
                         * unsequenced with it (lit_unseq), which program order
                         * does not relate to it; NULL when the thread has no
                         * unsequenced operands (tp_unseq) */
    uint8_t end;        /* enum tp_end */
    int spin_from;      /* TP_END_SPIN: first event of the repeated iteration */
    int loop_pc;        /* TP_END_SPIN: the loop head; TP_END_BLOCKED: the barrier */
    bool progress;      /* TP_END_SPIN: the iteration passes a progress label: the
                         * thread runs forever by design, it is not stuck */
} tp_trace;

/* Which events of the trace event e's address (DEP_ADDR), written value
 * (DEP_DATA) or reaching (DEP_CTRL: a branch before it) depends on. */
static inline const uint64_t *tp_deps(const tp_trace *tr, int e, enum tp_dep kind)
{
    return tr->deps + ((size_t)e * DEP_KINDS + (size_t)kind) * (size_t)tr->dep_words;
}

/* The earlier events of the trace unsequenced with event e, or NULL. */
static inline const uint64_t *tp_unseq(const tp_trace *tr, int e)
{
    return tr->unseq ? tr->unseq + (size_t)e * (size_t)tr->dep_words : NULL;
}

typedef struct tp_thread {
    int ntraces;
    tp_trace *traces;
} tp_thread;

typedef struct tp_result {
    tp_thread *threads;   /* one per thread of the test */
    bool unroll_cut;      /* some path exceeded the loop bound and was dropped */
    bool values_cut;      /* the value fixpoint was stopped before it closed */
    bool too_long;        /* some path ran more than TP_MAX_EVENTS events and was dropped */
    bool too_many;        /* a thread had more than max_traces paths: the others were dropped
                           * and the value rounds stopped there */
    bool stopped;         /* tp_limits.stop said stop: the result is partial */
    /* liveness mode: some path was dropped without a verdict on it (why) */
    const char *live_unknown;
    bool live_cut;        /* liveness mode: some path ends TP_END_CUT */
    /* With tp_limits.track_values: the least and greatest value that the last round's paths (the
     * traces above, and the paths dropped at the loop bound up to the
     * bound) read, write or compute into a register, with the initial
     * values and every immediate operand of the program. */
    lit_value vmin, vmax;
} tp_result;

/* Liveness mode's bounds on one path (they replace the loop bound). */
#define LIVE_MAX_VISITS 64
#define LIVE_MAX_STEPS 20000

typedef struct tp_limits {
    int unroll;           /* backward branches taken per branch instruction and path */
    long max_traces;      /* per thread; beyond it the paths found are kept (too_many) */
    int nseeds;           /* values any read may also guess (thin-air values) */
    const lit_value *seeds;
    /* Called now and then during the walk; true to stop it (a time or
     * memory limit): the result is then partial and says so. */
    bool (*stop)(void *ctx);
    void *stop_ctx;
    bool liveness;        /* liveness mode (above): no loop bound */
    int live_repeats;     /* liveness mode: iterations that write, per loop head and path */
    bool prefixes;        /* liveness mode: every prefix is a trace too */
    bool empty_prefix;    /* liveness mode: the empty prefix is a trace */
    bool track_values;    /* fill tp_result.vmin and vmax (they cost a little per event) */
} tp_limits;

/* Every thread's traces.  A limit reached (too_long, too_many, stopped)
 * leaves a partial result that says so: the traces found are real, some
 * are missing. */
void thread_paths_build(const litmus_test *t, const tp_limits *lim, tp_result *out);

#endif
