/*
 * search/visited.h: one interface over the visited-state stores the
 * breadth-first search can use.
 *
 * Contract.  A `visited` is one of: the plain store (state_store.h: every
 * state whole), tree compression (tree_store.h: lossless, states shared
 * as sub-vectors), hash compaction or bit-state hashing (prob_store.h:
 * probabilistic, states kept only until expanded).  All number new states
 * 0, 1, 2, ... in insertion order and keep a parent and a rule per state;
 * the search expands states in index order through vs_load().  What
 * differs: vs_get() gives back any stored state only for the lossless
 * stores; the probabilistic ones give no index for an old state (SS_OLD
 * leaves *index as it was) and can miss states (vs_omission()).  A switch
 * on the kind, not function pointers: four stores, one caller.  Not
 * thread-safe.
 */
#ifndef SCOPECHECK_SEARCH_VISITED_H
#define SCOPECHECK_SEARCH_VISITED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/state_store.h"

typedef enum visited_kind {
    VISITED_PLAIN,          /* state_store.h (the zero value: the default of bfs_options) */
    VISITED_TREE,           /* tree_store.h */
    VISITED_HASH_COMPACT,   /* prob_store.h, PB_HASH_COMPACT */
    VISITED_BITSTATE,       /* prob_store.h, PB_BITSTATE */
} visited_kind;

typedef struct visited visited;

/* "plain", "tree", "hash-compact", "bitstate". */
const char *vs_kind_name(visited_kind kind);
/* The kind named `name` (as vs_kind_name writes it); false if none. */
bool vs_kind_parse(const char *name, visited_kind *kind);
/* Hash compaction and bit-state: a search may miss states. */
bool vs_kind_probabilistic(visited_kind kind);

/* NULL when out of memory or over the budget. */
visited *vs_create(visited_kind kind, size_t state_bytes, const ss_limits *limits);
void vs_destroy(visited *v);
visited_kind vs_kind(const visited *v);

/* The state's key for vs_insert(): its ss_hash(), or for the tree store
 * its root pair (the inner nodes interned on the way: SS_NEW, or a
 * refusal when they found no memory).  Computed as a successor is
 * emitted, so that the search can prefetch (vs_prefetch) and insert
 * successors in batches. */
ss_status vs_key(visited *v, const uint8_t *state, uint64_t *key);
/* True when the store computes keys for a whole batch instead
 * (vs_keys: the tree store, whose lookups overlap best across states). */
bool vs_batch_keys(const visited *v);
/* The keys of n (<= VS_BATCH) states at states + i*stride, each
 * prefetched: SS_NEW, or a refusal. */
#define VS_BATCH 16
ss_status vs_keys(visited *v, const uint8_t *states, size_t stride, int n, uint64_t *keys);
/* A hint: start loading what inserting the state of this key will touch. */
void vs_prefetch(const visited *v, uint64_t key);
/* Inserts `state`, whose vs_key() is `key`: as ss_insert(), plus the
 * state's ordinal among its parent's successors (kept by the
 * probabilistic stores, which replay paths). */
ss_status vs_insert(visited *v, const uint8_t *state, uint64_t key, uint32_t parent, int rule,
                    unsigned ordinal, uint32_t *index);

/* The state `index` for expansion, indices asked in increasing order: a
 * pointer valid until the next vs_load() (the probabilistic stores free
 * the queue below it). */
const uint8_t *vs_load(visited *v, uint32_t index);
/* Lossless stores: stored state `index` into `out`; false (nothing
 * written) for the probabilistic ones. */
bool vs_get(visited *v, uint32_t index, uint8_t *out);
/* The plain store, for callers that read states in place; NULL for the
 * other kinds. */
const state_store *vs_plain(const visited *v);

uint32_t vs_parent(const visited *v, uint32_t index);
int vs_rule(const visited *v, uint32_t index);
/* Probabilistic stores only (0 otherwise). */
unsigned vs_ordinal(const visited *v, uint32_t index);
uint32_t vs_count(const visited *v);
size_t vs_bytes(const visited *v);
size_t vs_peak_bytes(const visited *v);

/* pb_omission() for the probabilistic stores, 0 for the others. */
double vs_omission(const visited *v);
/* Bit-state: bits in the array; 0 for the others. */
uint64_t vs_bits(const visited *v);

#endif
