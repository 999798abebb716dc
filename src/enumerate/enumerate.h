/*
 * enumerate/enumerate.h: candidate executions of a litmus test, checked by a model.
 *
 * Folder src/enumerate/: the axiomatic back end of `litmus`, where a program
 * (litmus/) meets a model (cat/): thread paths, candidate executions,
 * coherence orders.  May include base/, litmus/, cat/.
 *
 * Contract: enumerate_check builds every candidate execution of the test
 * (one trace per thread from thread_paths, then every reads-from choice that
 * matches values, every coherence order the model asks for, every barrier
 * arrival order), evaluates the model on each, and collects the final states
 * of the consistent ones.  It allocates per test and per combination of
 * thread traces, never per candidate.  It knows litmus programs and
 * executions, not the memory model: the model is only called through cat.h.
 */
#ifndef SCOPECHECK_ENUMERATE_ENUMERATE_H
#define SCOPECHECK_ENUMERATE_ENUMERATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/barriers.h"
#include "enumerate/liveness.h"
#include "litmus/litmus.h"
#include "litmus/outcome.h"

/* An execution as enum_options.on_execution sees it: the model's view
 * (exec) and, per event, where it comes from. */
typedef struct enum_event_info {
    int thread;          /* -1: an initial write */
    int instr;           /* index of the instruction that made it (-1: initial write) */
    char kind;           /* 'R', 'W', 'U' (a C read-modify-write, one event), 'F' (fence), 'B' (barrier) */
    int loc;             /* location as addressed, memory events; else -1 */
    lit_value value;     /* value read or written */
    lit_value wvalue;    /* 'U': the value written (value is the one read) */
} enum_event_info;

/* Called for each consistent execution and final state: `holds` says
 * whether the condition's proposition holds on `state`; `flags` are the
 * model flags it raised.  Only when set: the enumeration's inner loop
 * does nothing more without it. */
typedef void (*enum_execution_fn)(void *ctx, const exec *x, const enum_event_info *events, int n,
                                  const lit_value *state, bool holds, unsigned flags);

/* The loop bound every command uses unless told otherwise (--unroll), and
 * the paths per thread beyond which the enumeration stops (its result
 * then says paths_cut): one place for each. */
#define ENUM_DEFAULT_UNROLL 2
#define ENUM_MAX_TRACES 100000
/* The most threads a test may have (the enumerator's per-thread arrays). */
#define ENUM_MAX_THREADS 32

typedef struct enum_options {
    int unroll;          /* backward branches taken per branch and path */
    long max_traces;     /* per thread */
    bool races;          /* collect the pairs of relation-valued flags */
    double timeout_s;    /* wall seconds for this test; 0: none */
    size_t max_memory;   /* bytes of collected heap in use; 0: none */
    /* Which arrivals a barrier waits for, in the safety and the liveness
     * half alike (enumerate/barriers.h); 0 is Dat3M's reading. */
    enum bar_reading barriers;
    /* Optional: polled before each candidate; when it reads non-zero the
     * enumeration stops and the result says so (check_result.interrupted).
     * The caller owns it (a signal handler sets it). */
    const volatile sig_atomic_t *stop;
    enum_execution_fn on_execution;   /* optional: every consistent execution (drawing) */
    /* Optional: every execution the model rejects (drawing forbidden
     * executions, `-through`), with flags 0; it changes no count or
     * state.  Setting it turns off the model's staged evaluation of
     * coherence choices (each choice is then checked on its own, so that
     * each rejected one can be handed over): slower, same verdicts. */
    enum_execution_fn on_rejected;
    void *execution_ctx;
} enum_options;

/* One pair of events that a model flag (a race kind) relates, by source
 * position: deduplicated over all consistent executions. */
typedef struct race_report {
    int flag;            /* model flag index: its name says why they race */
    int thread_a, instr_a;   /* -1, -1: the location's initial write */
    int thread_b, instr_b;
    int loc;             /* location both access, or -1 */
} race_report;

typedef struct check_result {
    outcome_set *states;     /* final states of consistent executions */
    uint64_t positive;       /* (execution, final state) pairs where the condition's proposition holds */
    uint64_t negative;       /* ... where it does not */
    uint64_t candidates;     /* candidate executions evaluated (or rejected together by cat_co_may_pass) */
    uint64_t consistent;     /* of which the model accepted */
    bool unroll_cut;         /* the loop bound dropped some paths (herd's convention: not a cut) */
    bool hang;               /* some combination cannot pass a barrier */
    /* Executions that were not checked, and why.  Any of these makes the
     * result incomplete (enumerate_incomplete). */
    bool values_cut;         /* the value fixpoint did not close */
    bool too_big;            /* an execution had more events than REL_MAX_EVENTS, or
                              * a thread path more than TP_MAX_EVENTS */
    bool barriers_cut;       /* a counted barrier had too many arrivals to order */
    bool writes_cut;         /* a location had more writes than coherence orders are listed for */
    bool paths_cut;          /* a thread had more paths than enum_options.max_traces */
    bool undecided;          /* the model could not decide a candidate (cat_undecided) */
    bool timed_out;          /* enum_options.timeout_s ran out */
    bool out_of_memory;      /* enum_options.max_memory was reached */
    bool interrupted;        /* enum_options.stop was set: the counts are partial */
    unsigned flags;          /* model flags raised by some consistent execution */
    int nraces;              /* with enum_options.races */
    race_report *races;
} check_result;

/* false (with a diagnostic on `errors`) when the test cannot be checked at
 * all (too many threads).  A limit that cuts
 * part of the work (time, memory, an execution too large) is not a
 * failure: the result holds what was found, and says what was cut. */
bool enumerate_check(const litmus_test *t, const cat_model *m, cat_workspace *ws,
                     const enum_options *o, check_result *r, FILE *errors);

/* Liveness (enumerate/liveness.h, docs/liveness.md): whether every thread
 * terminates in every execution the model allows, under `lo`'s scheduling.
 * Never fails: what stops the search makes the answer LIVE_UNKNOWN, with
 * the reason.  The loop bound `o->unroll` plays no part. */
void enumerate_liveness(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                        const live_options *lo, live_result *lr);

/* NULL when every execution was checked; else why not, in the words of
 * the JSON output: "timeout", "max-memory", "too-many-events",
 * "too-many-writes", "too-many-paths", "too-many-values", "interrupted". */
const char *enumerate_incomplete(const check_result *r);
/* The condition's proposition on a final state (values in t->observed order). */
bool condition_holds(const litmus_test *t, const lit_cond *c, const lit_value *state);

#endif
