/*
 * search/tree_store.h: a lossless visited-state store by recursive tree
 * compression (Laarman, van de Pol and Weber, "Parallel Recursive State
 * Compression for Free", SPIN 2011; LTSmin's tree database).
 *
 * Contract.  As search/state_store.h: fixed-size states (raw bytes),
 * indices 0, 1, 2, ... in insertion order, a parent index and a rule per
 * state, a memory budget and a state limit that refuse gracefully (the
 * store stays usable).  Unlike state_store, states are not kept whole: a
 * state is read back into a caller's buffer (ts_get).
 *
 * Layout (docs/search.md).  A state is read as W = max(2, ceil(bytes/4))
 * 32-bit words (the tail zero-padded) and split recursively into halves: a
 * binary tree of W-1 inner nodes whose leaves are the words.  Each inner
 * node position has a set of the distinct (left, right) pairs met there,
 * each pair numbered in insertion order; a child reference is a word (a
 * leaf) or the number of the child's pair in the child position's set.  A
 * state is the number of its root pair, which is its index (the root set
 * numbers pairs in insertion order).  Equal sub-vectors of different
 * states are stored once; a state costs its root pair (8 bytes), a table
 * slot, its parent and rule (6 bytes), and whatever inner pairs are new.
 *
 * Inserting a successor of the state last read by ts_get() re-interns only
 * the nodes whose words changed (the others keep that state's
 * references), so a successor that changes one word costs about log2(W)
 * lookups.  Memory is malloc'd; ts_destroy() frees it all.  Not
 * thread-safe.
 */
#ifndef SCOPECHECK_SEARCH_TREE_STORE_H
#define SCOPECHECK_SEARCH_TREE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/state_store.h"

typedef struct tree_store tree_store;

/* A new, empty store for states of `state_bytes` (> 0) bytes; `limits`
 * may be NULL.  NULL when out of memory or over the budget. */
tree_store *ts_create(size_t state_bytes, const ss_limits *limits);
void ts_destroy(tree_store *t);

/* Inserts `state` unless an equal one is stored; as ss_insert() (status,
 * parent, rule, *index).  A refusal leaves the states stored unchanged
 * (some inner pairs may have been added; they are counted in the bytes). */
ss_status ts_insert(tree_store *t, const uint8_t *state, uint32_t parent, int rule, uint32_t *index);

/* ts_insert() in two halves, so that a caller can intern the inner nodes
 * of several states, prefetch their root slots, and then insert them
 * while the cache lines arrive: ts_root() interns every inner node but
 * the root and writes the root's pair (SS_NEW, or a refusal: the inner
 * pairs took the last memory); ts_insert_root() inserts the state of that
 * root pair (the status and *index of ts_insert()).  The root pair stays
 * valid whatever is inserted after. */
ss_status ts_root(tree_store *t, const uint8_t *state, uint64_t *root);
void ts_prefetch(const tree_store *t, uint64_t root);
ss_status ts_insert_root(tree_store *t, uint64_t root, uint32_t parent, int rule, uint32_t *index);

/* The most states ts_roots() takes at once. */
#define TS_BATCH 16
/* ts_root() for n (<= TS_BATCH) states at states + i*stride, node by node
 * across the states so that their lookups' cache misses overlap; each
 * root slot is prefetched.  SS_NEW, or the refusal of an inner pair (the
 * roots are then not all written). */
ss_status ts_roots(tree_store *t, const uint8_t *states, size_t stride, int n, uint64_t *roots);

/* The index of a stored state equal to `state`, or false. */
bool ts_find(tree_store *t, const uint8_t *state, uint32_t *index);

/* Writes stored state `index` (< ts_count) into `out` (state_bytes). */
void ts_get(tree_store *t, uint32_t index, uint8_t *out);
/* ts_get(), and remembers the state's references so that inserting its
 * successors re-interns only what they change (the search calls it on
 * the state it expands). */
void ts_load(tree_store *t, uint32_t index, uint8_t *out);

uint32_t ts_parent(const tree_store *t, uint32_t index);
int ts_rule(const tree_store *t, uint32_t index);
uint32_t ts_count(const tree_store *t);

/* Bytes allocated now (pair arenas, tables, parents, directories). */
size_t ts_bytes(const tree_store *t);
/* The most ts_bytes() ever was (both tables while one doubles). */
size_t ts_peak_bytes(const tree_store *t);
/* Inner pairs stored, all positions together (the root's included). */
uint64_t ts_pairs(const tree_store *t);

#endif
