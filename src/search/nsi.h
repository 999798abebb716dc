/*
 * search/nsi.h: the next-state interface between front ends and
 * exploration back ends.
 *
 * Folder src/search/: the next-state interface and the exploration back ends
 * behind it (state store, breadth-first search, fair-cycle search); a new
 * search algorithm is a module here.  May include base/; knows no cache,
 * test, table, GPU or CTA.
 *
 * Contract (after LTSmin's PINS, reduced to what we need now): a front end
 * (protocol tables + litmus program) describes a transition system over
 * fixed-size packed state vectors; a back end (breadth-first search and the
 * fair-cycle search now; parallel and distributed search later) explores
 * it.  A back end sees only this: the state size, the initial state, the
 * successors of a state, each with a transition label (the rule id),
 * whether a state is an acceptable end or violates an invariant, and the
 * fairness units below.  It never looks inside a state; the front end never
 * stores states.  States are compared and hashed as raw bytes, so a front
 * end must keep them canonical (unused bits and fields zero).
 *
 * Threads.  A back end may call `successors`, `is_final`, `violated` and
 * `canonicalize` from several threads at once (search/par_bfs.h), each
 * with its own state and callback context: they must be reentrant (their
 * scratch on the stack or in per-call memory, no unsynchronised writes to
 * ctx; a front end that records something during the search, as the
 * protocol's unhandled pairs, does it under its own lock) and must not
 * allocate GC memory (the search threads are not registered with the
 * collector).  `initial`, `describe` and the fairness callbacks are called
 * from one thread (the liveness pass runs on one).
 *
 * What a step means is the front end's business: a back end that prints a
 * trace asks for a rule's one-line text (`describe`) and prints it as it
 * is; whoever wants a step as data (JSON traces, charts) asks the front end
 * itself (protocol/step.h).  Layers between the two, as LTSmin's
 * pins2pins wrappers, take an nsi_model and give one (schedule/sched.h).
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

/* What the fair-cycle search (search/fair_cycle.h) needs to know of a
 * front end, beyond states and rules.  Weak fairness is stated over
 * *units*: 0..nthreads-1 are the threads (the units that can complete),
 * nthreads..nunits-1 the front end's other actors (channel instances,
 * internal events).  A unit is enabled in a state when some rule of it has
 * a successor there. */
typedef struct nsi_fairness {
    int nthreads;
    int nunits;
    /* The unit a rule belongs to, or -1 for a rule no fairness is assumed
     * for (an internal event such as an eviction). */
    int (*rule_unit)(void *ctx, int rule);
    /* The unit's name as traces write it ("P1", "req[0->1]"). */
    void (*unit_name)(void *ctx, int unit, FILE *out);
    /* Thread t has completed (nothing left to do, not waiting). */
    bool (*thread_done)(void *ctx, const uint8_t *state, int thread);
    /* Optional: thread t is at a progress label (a cycle through such a
     * state is progress for t even if t never completes). */
    bool (*thread_progress)(void *ctx, const uint8_t *state, int thread);
} nsi_fairness;

/* The most rules a model may have: back ends keep a state's rule in 16 bits
 * (search/state_store.h).  A front end refuses a larger model itself, with
 * an error its user can act on. */
#define NSI_MAX_RULES 65535

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

    /* Optional: one line of text that says what rule `rule` did from
     * `state` to `next`, for counterexample traces (NULL: traces print the
     * rule id).  Back ends print it and never read it. */
    void (*describe)(void *ctx, const uint8_t *state, int rule, const uint8_t *next, FILE *out);

    /* Optional (NULL: none): the fairness units, for liveness back ends. */
    const nsi_fairness *fairness;

    /* Optional (NULL: no symmetry reduction): rewrites `state` in place
     * into the canonical representative of its orbit under the front
     * end's symmetry group (interchangeable units permuted), so that two
     * states that differ only by such a permutation become equal bytes.
     * A back end that uses it calls it on the initial state and on every
     * successor before storing it, and stores only canonical states; it
     * must then map traces back to concrete states itself (replay: from
     * each concrete state, the successor whose canonical form is the next
     * stored state).  Must be reentrant (no writes to ctx). */
    void (*canonicalize)(void *ctx, uint8_t *state);
} nsi_model;

#endif
