/*
 * schedule/sched.h: a GPU scheduler in front of an nsi_model: an occupancy
 * bound on resident CTAs, dispatch in CTA order, and the partial context
 * switch (docs/liveness.md, section 3).
 *
 * Folder src/schedule/: layers between a front end and the back ends that
 * know how hardware schedules the front end's threads (LTSmin's pins2pins
 * wrappers): each takes an nsi_model and gives one.  May include base/ and
 * search/nsi.h only; search/ never includes it.
 *
 * Contract.  sched_wrap returns an nsi_model over the same states (plus,
 * with preemption, one byte per CTA) whose successors are the inner
 * model's, except that a thread moves only while its CTA is resident.  The
 * threads are the inner model's thread units (nsi_fairness); where they
 * run comes from the caller's sched_gpu (from the protocol instance, say).
 * Per GPU at most `occupancy` CTAs are resident; the others wait and are
 * dispatched in CTA order (sched_gpu.thread_cta) each time a resident CTA
 * finishes (all its threads done): no preemption.  With `preempt` (the
 * sched_gpu must declare it), a `preempt` transition swaps out a resident
 * CTA all of whose unfinished threads wait, when no slot is free and a CTA
 * is pending (not yet dispatched, or swapped out and ready: one of its
 * threads does not wait); the freed slot goes to the pending CTAs,
 * never-dispatched ones first, in CTA order.  The preempt transitions are
 * rules nrules.. of the wrapped model (one per CTA) and form one more
 * fairness unit ("scheduler").  Other units (channels, internal events)
 * are hardware and always move.  The wrapped model's `describe` is the
 * inner one's line followed by "; dispatch CTA of P1" when the step
 * dispatched a CTA; a preempt step reads "scheduler: preempt CTA of P0
 * (all its threads wait)".
 *
 * Without preemption the resident set is a function of which CTAs have
 * finished, so the states are the inner model's and nothing is stored.
 * Memory: malloc'd, released by sched_free; the inner model and the
 * sched_gpu's ctx must outlive the wrapper.  No global state.
 */
#ifndef SCOPECHECK_SCHEDULE_SCHED_H
#define SCOPECHECK_SCHEDULE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "search/nsi.h"

typedef struct sched_options {
    int occupancy;       /* CTAs resident per GPU, >= 1 */
    bool preempt;        /* the partial context switch */
} sched_options;

/* Where the inner model's threads run. */
typedef struct sched_gpu {
    const void *ctx;
    /* Thread t's CTA (any numbering whose order is CTA order, the order
     * dispatch follows) and, in *gpu, the GPU it runs on. */
    int (*thread_cta)(const void *ctx, int thread, int *gpu);
    /* Thread t is blocked waiting in `state` (for a response, a barrier, a
     * wake-up): it has no step of its own until something else moves. */
    bool (*thread_waiting)(const void *ctx, const uint8_t *state, int thread);
    /* The hardware can swap a CTA whose threads all wait out of residency
     * (seed 001's partial context switch; the protocol declares it). */
    bool preempt;
} sched_gpu;

typedef struct sched_model sched_model;

/* NULL when the inner model has no fairness units, when `gpu` lacks a
 * callback, when preemption is asked of hardware that does not declare
 * it, when there are too many CTAs or too large a state, or when out of
 * memory. */
sched_model *sched_wrap(const nsi_model *inner, const sched_gpu *gpu, const sched_options *o);
const nsi_model *sched_nsi(const sched_model *s);
void sched_free(sched_model *s);

/* A step of the scheduler's own (a preemption) as data, for traces that
 * list steps as records: who took it ("scheduler"), the event ("preempt")
 * and a note saying what it does. */
typedef struct sched_step {
    const char *who, *event, *note;
} sched_step;

/* Fills *out and returns true when `rule` of the wrapped model is the
 * scheduler's own; false for a rule of the inner model. */
bool sched_step_of(const sched_model *s, int rule, sched_step *out);

#endif
