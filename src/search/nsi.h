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

    /* Optional: one line that says what rule `rule` did from `state` to
     * `next` (which controller took which event in which state, what it
     * sent, what was read), for counterexample traces. */
    void (*describe)(void *ctx, const uint8_t *state, int rule, const uint8_t *next, FILE *out);
} nsi_model;

#endif
