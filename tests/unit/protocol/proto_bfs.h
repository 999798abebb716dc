/*
 * proto_bfs.h: a tiny breadth-first search over the next-state interface,
 * for the protocol unit tests only (test_protocol.c, test_protocol_lang.c).
 * It has a plain hash set of its own so that those tests do not depend on
 * the search back end they help to check (search/bfs.c, search/state_store.c).
 *
 * Contract: explore every state reachable from the initial one, count
 * states, transitions, final states and deadlocks (non-final states with no
 * successor), record the first invariant a reached state breaks and the
 * distinct final outcomes (up to PROTO_BFS_MAX_OUTCOMES).  With the model's
 * canonicalize set (protocol/symmetry.h), every state is canonicalized
 * before it is stored and a final state gives the outcomes of its whole
 * orbit.  Heap memory is released by proto_bfs_free.
 */
#ifndef SCOPECHECK_PROTO_BFS_H
#define SCOPECHECK_PROTO_BFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "protocol/protocol.h"

#define PROTO_BFS_MAX_OUTCOMES 64
#define PROTO_BFS_MAX_OBS 8

typedef struct proto_bfs {
    size_t bytes, n, cap, room;
    uint8_t *states;            /* n * bytes, in BFS order */
    size_t *table;              /* index+1, 0 empty */
    long transitions, finals, deadlocks;
    const char *violated;       /* the first invariant a reached state breaks */
    const proto_instance *in;
    const nsi_model *m;
    uint8_t *scratch;           /* a successor being canonicalized */
    int noutcomes;
    lit_value outcome[PROTO_BFS_MAX_OUTCOMES][PROTO_BFS_MAX_OBS];   /* distinct final values */
} proto_bfs;

/* Explores the whole space of `in`; returns the number of states. */
size_t proto_bfs_explore(proto_bfs *b, proto_instance *in);

/* Whether a final state had these first `nobs` observed values. */
bool proto_bfs_saw(const proto_bfs *b, const lit_value *want, int nobs);

void proto_bfs_free(proto_bfs *b);

/* The successors of one state (the first PROTO_STEP_MAX, in the order the
 * model emits them; n counts them all). */
#define PROTO_STEP_MAX 32
#define PROTO_STEP_BYTES 512
typedef struct proto_succs {
    int n;
    int rule[PROTO_STEP_MAX];
    uint8_t state[PROTO_STEP_MAX][PROTO_STEP_BYTES];
} proto_succs;

void proto_successors(const nsi_model *m, const uint8_t *state, proto_succs *s);

/* Takes, from `state`, the step whose description starts with `prefix`;
 * asserts (CUnit) that the whole described line is `want`, and moves
 * `state` to that step's successor. */
void proto_step(const nsi_model *m, uint8_t *state, const char *prefix, const char *want);

/* The whole of a (small) text file, NUL-terminated; the caller frees it. */
char *proto_read_all(const char *path);

#endif
