/*
 * search/sched.h: a scheduler in front of an nsi_model: an occupancy bound
 * on resident CTAs, dispatch in CTA order, and the partial context switch
 * (docs/liveness.md, section 3).
 *
 * Contract.  sched_wrap returns an nsi_model over the same states (plus,
 * with preemption, one byte per CTA) whose successors are the inner
 * model's, except that a thread moves only while its CTA is resident.  Per
 * GPU at most `occupancy` CTAs are resident; the others wait and are
 * dispatched in CTA order (nsi_sched.thread_cta) each time a resident CTA
 * finishes (all its threads done): no preemption.  With `preempt` (the
 * inner model must declare it), a `preempt` transition swaps out a
 * resident CTA all of whose unfinished threads wait, when no slot is free
 * and a CTA is pending (not yet dispatched, or swapped out and ready: one
 * of its threads does not wait); the freed slot goes to the pending CTAs,
 * never-dispatched ones first, in CTA order.  Channels and internal events
 * are hardware and always move.  The preempt transitions form one more
 * fairness unit ("scheduler").
 *
 * Without preemption the resident set is a function of which CTAs have
 * finished, so the states are the inner model's and nothing is stored.
 * Memory: malloc'd, released by sched_free; the inner model must outlive
 * the wrapper.  No global state.
 */
#ifndef SCOPECHECK_SEARCH_SCHED_H
#define SCOPECHECK_SEARCH_SCHED_H

#include <stdbool.h>

#include "search/nsi.h"

typedef struct sched_options {
    int occupancy;       /* CTAs resident per GPU, >= 1 */
    bool preempt;        /* the partial context switch */
} sched_options;

typedef struct sched_model sched_model;

/* NULL when the inner model has no nsi_sched, when preemption is asked of
 * a model that does not declare it, or when out of memory. */
sched_model *sched_wrap(const nsi_model *inner, const sched_options *o);
const nsi_model *sched_nsi(const sched_model *s);
void sched_free(sched_model *s);

#endif
