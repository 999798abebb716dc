/*
 * search/par_store.h: the visited-state set of the multi-threaded
 * breadth-first search (search/par_bfs.h), safe to insert into from several
 * threads at once without a lock.
 *
 * Contract.  As search/state_store.h (fixed-size states compared and hashed
 * as bytes; records of state, uint32 parent, uint16 rule in arena chunks;
 * an open-addressing table of 32-bit slots holding a hash tag and index+1),
 * with what a level-synchronous search needs on top:
 *
 * - ps_insert() may be called from any number of threads at once.  A slot
 *   is claimed with a compare-and-swap (to a BUSY marker carrying the
 *   state's tag, so a thread looking for the same state waits for it and
 *   others probe past), the index is reserved with a compare-and-swap on the
 *   count (never beyond max_states, and only once the arena chunk it needs
 *   exists, so a refusal never leaves a hole), the record is written, and
 *   the slot is published with a release store.  Arena chunks are
 *   allocated on demand, the first thread to install one wins.
 * - The states stored since ps_begin_level() form the level being built.
 *   Each carries a sort key, (parent index, emission position, rule), which
 *   every insertion of it lowers to the smallest seen (an atomic minimum).
 *   ps_end_level() then renumbers that level in key order and writes each
 *   record's parent and rule from its key.  If the previous levels were
 *   numbered in discovery order, so is this one: indices, parents and rules
 *   are then those a one-thread search in expansion order gives, whatever
 *   the thread timing.
 * - The table does not grow during concurrent inserts: ps_insert() answers
 *   PS_TABLE_FULL at 9/10 load, and the caller grows it (ps_grow) when no
 *   other thread is inside the store, then retries.
 *
 * Everything else (ps_create, ps_destroy, ps_begin_level, ps_end_level,
 * ps_grow, ps_should_grow) runs with no insert in flight.  Reads by index
 * (ps_state, ps_parent, ps_rule) of states stored before the last barrier
 * are safe from any thread; parents and rules are valid once their level
 * has ended.  Memory is malloc'd, no GC.
 */
#ifndef SCOPECHECK_SEARCH_PAR_STORE_H
#define SCOPECHECK_SEARCH_PAR_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/state_store.h"

typedef struct par_store par_store;

typedef enum ps_status {
    PS_OLD,          /* already stored; *index is its index */
    PS_NEW,          /* stored; *index is the new index */
    PS_FULL_STATES,  /* refused: max_states reached (or 2^31 slots) */
    PS_FULL_MEMORY,  /* refused: the memory budget, or malloc */
    PS_TABLE_FULL,   /* not stored: the table must grow first (ps_grow) */
} ps_status;

/* The sort key of an insertion: from state `parent`, its `position`-th
 * successor (clamped to 65535), by `rule`. */
uint64_t ps_key(uint32_t parent, uint32_t position, int rule);

/* A new empty store; `limits` may be NULL.  NULL when out of memory or
 * when the budget does not hold the first table. */
par_store *ps_create(size_t state_bytes, const ss_limits *limits);
void ps_destroy(par_store *s);

/* Thread-safe.  Inserts `state` (hash: ss_hash of it) unless stored; a
 * state of the level being built has its key lowered to `key`. */
ps_status ps_insert(par_store *s, const uint8_t *state, uint64_t hash, uint64_t key, uint32_t *index);
void ps_prefetch(const par_store *s, uint64_t hash);

/* Reads by index (below ps_count). */
const uint8_t *ps_state(const par_store *s, uint32_t index);
uint32_t ps_parent(const par_store *s, uint32_t index);
int ps_rule(const par_store *s, uint32_t index);
uint32_t ps_count(const par_store *s);

/* No insert in flight.  The states stored from now on form the new
 * level. */
void ps_begin_level(par_store *s);
/* No insert in flight.  Renumbers the level begun last in key order and
 * writes its parents and rules; *moved (malloc'd, the caller frees it;
 * NULL when the level is empty or on out-of-memory, then the order stays
 * as stored and the parents are still written) maps old index - level
 * start to new index.  False when out of memory. */
bool ps_end_level(par_store *s, uint32_t **moved);
uint32_t ps_level_start(const par_store *s);

/* No insert in flight.  True when storing `expected` more states would
 * pass 3/4 load; ps_grow doubles the table (false when the budget or the
 * slot limit forbids it or malloc fails: the store is unchanged). */
bool ps_should_grow(const par_store *s, uint64_t expected);
bool ps_grow(par_store *s);
/* ps_grow in three steps, so that several threads can rehash: begin
 * (false as ps_grow), then ps_grow_part over ranges that cover
 * 0..ps_count-1 (thread-safe, on disjoint ranges), then end. */
bool ps_grow_begin(par_store *s);
void ps_grow_part(par_store *s, uint32_t from, uint32_t to);
void ps_grow_end(par_store *s);
/* Why a full table cannot grow: PS_FULL_STATES at the slot limit, else
 * PS_FULL_MEMORY. */
ps_status ps_grow_refusal(const par_store *s);

size_t ps_bytes(const par_store *s);
size_t ps_peak_bytes(const par_store *s);
size_t ps_table_slots(const par_store *s);

#endif
