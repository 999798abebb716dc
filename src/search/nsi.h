/*
 * search/nsi.h: the next-state interface between protocol front ends and
 * exploration back ends.
 *
 * Folder src/search/: the next-state interface and the exploration back ends
 * behind it (state store, breadth-first search); a new search algorithm is
 * a module here.  May include base/; knows no cache, test or table.
 *
 * Contract (after LTSmin's PINS, reduced to what we need now): a front end
 * (protocol tables + litmus program) describes a transition system over
 * fixed-size packed state vectors; a back end (breadth-first search now;
 * cycle detection, parallel and distributed search later) explores it.  The
 * back end never looks inside a state; the front end never stores states.
 * States are compared and hashed as raw bytes, so a front end must keep
 * them canonical (unused bits and fields zero).
 */
#ifndef SCOPECHECK_SEARCH_NSI_H
#define SCOPECHECK_SEARCH_NSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Called once per successor; `rule` identifies the transition taken (for
 * traces), `next` is only valid during the call. */
typedef void (*nsi_emit)(void *cb_ctx, const uint8_t *next, int rule);

/* What liveness (search/liveness.h) and scheduling (search/sched.h) need
 * to know of a front end, beyond states and rules.  Weak fairness is
 * stated over *units*: 0..nthreads-1 are the threads, nthreads..nunits-1
 * the channel instances.  A unit is enabled in a state when some rule of
 * it has a successor there. */
typedef struct nsi_sched {
    int nthreads;
    int nunits;
    /* The unit a rule belongs to, or -1 for a rule no fairness is assumed
     * for (an internal event such as an eviction). */
    int (*rule_unit)(void *ctx, int rule);
    /* The unit's name as traces write it ("P1", "req[0->1]"). */
    void (*unit_name)(void *ctx, int unit, FILE *out);
    /* Thread t has completed its program (nothing left, not waiting). */
    bool (*thread_done)(void *ctx, const uint8_t *state, int thread);
    /* Thread t is blocked waiting (for a response, a barrier, a wake-up):
     * it has no step of its own until something else moves. */
    bool (*thread_waiting)(void *ctx, const uint8_t *state, int thread);
    /* Optional: thread t is at a progress label (a cycle through such a
     * state is progress for t even if t never completes). */
    bool (*thread_progress)(void *ctx, const uint8_t *state, int thread);
    /* Thread t's CTA (numbered 0.. in CTA order, the order dispatch
     * follows) and the GPU it runs on. */
    int (*thread_cta)(void *ctx, int thread, int *gpu);
    /* The hardware can swap a CTA whose threads all wait out of residency
     * (seed 001's partial context switch; the protocol declares it). */
    bool preempt;
} nsi_sched;

/* The most rules a model may have: back ends keep a state's rule in 16 bits
 * (search/state_store.h).  A front end refuses a larger model itself, with
 * an error its user can act on. */
#define NSI_MAX_RULES 65535

/* One step of a trace as data (for JSON and for printers that lay steps
 * out themselves): who took which event in which state, which table row
 * fired, and what it did.  Every field is optional (NULL, 0 or -1 when the
 * front end has nothing to say); strings belong to the front end and live
 * as long as the model. */
#define NSI_STEP_MAX_ITEMS 16
typedef struct nsi_step {
    const char *thread;          /* litmus thread that issued the event ("P0") */
    int litmus_line;             /* its instruction's line in the litmus file (0: none) */
    const char *instruction;     /* the instruction as written */
    const char *controller;      /* the controller that took the event ("L1") */
    const char *instance_kind;   /* "CU", "GPU", "slice" (NULL: a single instance) */
    int instance;                /* which one (-1: none) */
    const char *address;         /* the line's location ("x") */
    const char *state;           /* the line's state before the step */
    const char *next_state;      /* and after it */
    const char *event;           /* "load.acquire.gpu", "recv req[1].Load(x)" */
    const char *row_file;        /* the table row that fired */
    int row_line;                /* its line (0: none) */
    int nactions;                /* every action as it ran, in order */
    const char *actions[NSI_STEP_MAX_ITEMS];
    int nsent;                   /* the messages sent ("req[0] Load(x)") */
    const char *sent[NSI_STEP_MAX_ITEMS];
    int nread;                   /* the values read into registers ("P1:r0=1") */
    const char *read[NSI_STEP_MAX_ITEMS];
    const char *note;            /* anything else ("no row", a barrier's arrival) */
} nsi_step;

typedef struct nsi_model {
    void *ctx;               /* the front end's own data */
    size_t state_bytes;      /* size of every packed state */
    int nrules;              /* rule ids are 0..nrules-1, nrules <= NSI_MAX_RULES */

    /* Writes the initial state. */
    void (*initial)(void *ctx, uint8_t *state);

    /* Emits every successor of `state`; returns how many it emitted.  A
     * state with none is a deadlock unless `is_final` says it is an
     * acceptable end. */
    int (*successors)(void *ctx, const uint8_t *state, nsi_emit emit, void *cb_ctx);

    /* Optional (NULL: never): the state is an acceptable end (every
     * thread done, nothing in flight). */
    bool (*is_final)(void *ctx, const uint8_t *state);

    /* Optional (NULL: none): the name of an invariant the state violates,
     * or NULL when it satisfies them all. */
    const char *(*violated)(void *ctx, const uint8_t *state);

    /* Optional: one line that says what rule `rule` did from `state` to
     * `next` (which controller took which event in which state, what it
     * sent, what was read), for counterexample traces. */
    void (*describe)(void *ctx, const uint8_t *state, int rule, const uint8_t *next, FILE *out);

    /* Optional: the same step as data (nsi_step above); false when the
     * rule describes nothing the front end knows. */
    bool (*step)(void *ctx, const uint8_t *state, int rule, const uint8_t *next, nsi_step *out);

    /* Optional (NULL: none): units, threads and CTAs, for liveness and
     * scheduling back ends. */
    const nsi_sched *sched;
} nsi_model;

#endif
