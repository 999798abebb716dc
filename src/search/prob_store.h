/*
 * search/prob_store.h: the probabilistic visited-state stores, hash
 * compaction and bit-state hashing (SPIN's supertrace).
 *
 * Contract.  The store keeps no state whole: hash compaction keeps a
 * 64-bit fingerprint of each state (Wolper and Leroy 1993, Stern and Dill
 * 1995), bit-state hashing sets k bits per state in a bit array (Holzmann
 * 1987, 1998).  Two states with the same fingerprint, or a state whose k
 * bits are all set already, count as one: a new state may be taken for an
 * old one and left unexplored (an omission), never the other way round, so
 * everything a search finds is real and only "nothing found" is
 * probabilistic (pb_omission() bounds it).
 *
 * New states get indices 0, 1, 2, ... in insertion order and keep their
 * parent index, their rule and their ordinal (which successor of the
 * parent they were, in emission order), so a path to any state is replayed
 * from the initial state (search/bfs.c).  An old state's index is not known
 * (the store cannot tell which state a fingerprint or bits came from).
 * Since the store cannot give states back, it keeps the new states
 * themselves in a FIFO queue until the search has expanded them
 * (pb_queued, pb_release_below): the breadth-first frontier, the current
 * level and the next.  Every byte (table or bits, records, queue) counts
 * against the memory budget.  malloc'd memory; not thread-safe.
 */
#ifndef SCOPECHECK_SEARCH_PROB_STORE_H
#define SCOPECHECK_SEARCH_PROB_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/state_store.h"

typedef enum pb_kind {
    PB_HASH_COMPACT,    /* a 64-bit fingerprint per state, in an open-addressing table */
    PB_BITSTATE,        /* PB_BITSTATE_K bits per state in one bit array */
} pb_kind;

/* Bits set per state (SPIN's default, -k3). */
#define PB_BITSTATE_K 3
/* The bit array without a memory budget: 2^30 bits (128 MiB); with one,
 * the largest power of two of bytes at most half the budget. */
#define PB_BITSTATE_DEFAULT_LOG2_BITS 30
/* The most successors a state may have (ordinals are 16 bits). */
#define PB_MAX_ORDINAL 65535u

typedef struct prob_store prob_store;

/* NULL when out of memory or over the budget. */
prob_store *pb_create(pb_kind kind, size_t state_bytes, const ss_limits *limits);
void pb_destroy(prob_store *p);

/* Inserts `state` (its ss_hash() is `hash`) unless the store takes it for
 * one seen: SS_OLD (*index untouched), SS_NEW (*index the new index; the
 * state is queued), or a refusal (nothing changes). */
ss_status pb_insert(prob_store *p, const uint8_t *state, uint64_t hash, uint32_t parent, int rule,
                    unsigned ordinal, uint32_t *index);

/* The queued state `index` (not yet released). */
const uint8_t *pb_queued(const prob_store *p, uint32_t index);
/* Frees the queue's memory below `index` (the search expanded them). */
void pb_release_below(prob_store *p, uint32_t index);

uint32_t pb_parent(const prob_store *p, uint32_t index);
int pb_rule(const prob_store *p, uint32_t index);
unsigned pb_ordinal(const prob_store *p, uint32_t index);
uint32_t pb_count(const prob_store *p);
size_t pb_bytes(const prob_store *p);
size_t pb_peak_bytes(const prob_store *p);
/* Bit-state: bits in the array (0 for hash compaction). */
uint64_t pb_bits(const prob_store *p);

/* The bound on missed states for the states stored now (docs/search.md):
 * hash compaction, the probability that any was missed, at most
 * n(n-1)/2 / 2^64; bit-state, the expected number missed,
 * sum over i < n of (1 - e^(-k i / m))^k. */
double pb_omission(const prob_store *p);

#endif
