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

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/liveness.h"
#include "litmus/litmus.h"
#include "litmus/outcome.h"

typedef struct enum_options {
    int unroll;          /* backward branches taken per branch and path */
    long max_traces;     /* per thread */
    bool races;          /* collect the pairs of relation-valued flags */
} enum_options;

/* One pair of events that a model flag (a race kind) relates, by source
 * position: deduplicated over all consistent executions. */
typedef struct race_report {
    int flag;            /* model flag index: its name says why they race */
    int thread_a, instr_a;
    int thread_b, instr_b;
    int loc;             /* location both access, or -1 */
} race_report;

typedef struct check_result {
    outcome_set *states;     /* final states of consistent executions */
    uint64_t positive;       /* (execution, final state) pairs where the condition's proposition holds */
    uint64_t negative;       /* ... where it does not */
    uint64_t candidates;     /* candidate executions evaluated */
    uint64_t consistent;     /* of which the model accepted */
    bool unroll_cut;         /* the loop bound dropped some paths */
    bool values_cut;         /* the value fixpoint did not close */
    bool hang;               /* some combination cannot pass a barrier */
    bool too_big;            /* some combination had more events than fit */
    unsigned flags;          /* model flags raised by some consistent execution */
    int nraces;              /* with enum_options.races */
    race_report *races;
} check_result;

/* false (with a diagnostic on `errors`) when the test is beyond the limits. */
bool enumerate_check(const litmus_test *t, const cat_model *m, cat_workspace *ws,
                     const enum_options *o, check_result *r, FILE *errors);

/* Liveness (enumerate/liveness.h, docs/liveness.md): whether every thread
 * terminates in every execution the model allows, under `lo`'s scheduling.
 * Never fails: what stops the search makes the answer LIVE_UNKNOWN, with
 * the reason.  The loop bound `o->unroll` plays no part. */
void enumerate_liveness(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                        const live_options *lo, live_result *lr);

/* The condition's proposition on a final state (values in t->observed order). */
bool condition_holds(const litmus_test *t, const lit_cond *c, const lit_value *state);

#endif
