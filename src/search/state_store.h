/*
 * search/state_store.h: the visited-state set of a search back end.
 *
 * Contract.  A store holds fixed-size packed states (raw bytes, compared
 * and hashed as bytes).  Each stored state gets an index, 0, 1, 2, ... in
 * insertion order, and keeps the index of its parent state and the rule id
 * that reached it, so a path to the first state is recovered by walking
 * parents.  A stored state never moves: the pointer ss_state() returns stays
 * valid until ss_destroy(), whatever is inserted after.
 *
 * Layout (docs/search.md).  Records of `state_bytes + 6` bytes (the state,
 * a uint32 parent, a uint16 rule) lie back to back in arena chunks of a
 * power-of-two number of records; nothing is allocated per state.  The set
 * is an open-addressing, linear-probing table of 32-bit slots: the low
 * log2(capacity) bits hold index+1 (0: empty), the high bits hold a tag of
 * the state's hash, so most probes that do not match never touch the arena.
 * The table doubles at 3/4 load; where the memory budget forbids doubling it
 * fills up to 9/10 and then refuses.
 *
 * Memory is malloc'd (not the GC): the arena and the table are large and
 * hold no pointers, and ss_destroy() returns all of it.  Not thread-safe.
 */
#ifndef SCOPECHECK_SEARCH_STATE_STORE_H
#define SCOPECHECK_SEARCH_STATE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "search/nsi.h"

typedef struct state_store state_store;

/* The parent of a state stored without one (the initial state). */
#define SS_NO_PARENT UINT32_MAX
/* The rule of a state stored without one; rule ids are 0..SS_MAX_RULE. */
#define SS_NO_RULE (-1)
#define SS_MAX_RULE (NSI_MAX_RULES - 1)

typedef struct ss_limits {
    size_t max_bytes;      /* arena + table + bookkeeping; 0: no limit */
    uint64_t max_states;   /* 0: no limit (beyond the 32-bit indices) */
} ss_limits;

typedef enum ss_status {
    SS_OLD,          /* already present; *index is its index */
    SS_NEW,          /* inserted; *index is the new index */
    SS_FULL_STATES,  /* refused: max_states (or 2^31 slots) reached */
    SS_FULL_MEMORY,  /* refused: max_bytes would be exceeded, or malloc failed */
} ss_status;

/* A new, empty store for states of `state_bytes` (> 0) bytes; `limits` may
 * be NULL (none).  NULL when out of memory or when the first chunk and
 * table alone exceed the budget. */
state_store *ss_create(size_t state_bytes, const ss_limits *limits);

/* Frees every chunk, the table and the store.  NULL is accepted. */
void ss_destroy(state_store *s);

/* Inserts `state` unless an equal one is stored.  A new state records
 * `parent` (SS_NO_PARENT or a stored index) and `rule` (SS_NO_RULE or
 * 0..SS_MAX_RULE).  *index receives the index for SS_OLD and SS_NEW.  A
 * refusal leaves the store unchanged and usable (lookups still work). */
ss_status ss_insert(state_store *s, const uint8_t *state, uint32_t parent, int rule,
                    uint32_t *index);

/* ss_insert() with the state's ss_hash() already computed, so a caller can
 * compute hashes of several states, ss_prefetch() their slots, and insert
 * them while the cache lines arrive. */
ss_status ss_insert_hashed(state_store *s, const uint8_t *state, uint64_t hash, uint32_t parent,
                           int rule, uint32_t *index);

/* Asks the CPU to start loading the table slot of `hash` (a hint only). */
void ss_prefetch(const state_store *s, uint64_t hash);

/* The index of a stored state equal to `state`, or false. */
bool ss_find(const state_store *s, const uint8_t *state, uint32_t *index);

/* Accessors by index; `index` must be below ss_count(). */
const uint8_t *ss_state(const state_store *s, uint32_t index);
uint32_t ss_parent(const state_store *s, uint32_t index);
int ss_rule(const state_store *s, uint32_t index);

uint32_t ss_count(const state_store *s);
size_t ss_state_bytes(const state_store *s);

/* Bytes allocated now: arena chunks, table, chunk directory. */
size_t ss_bytes(const state_store *s);
/* The most ss_bytes() ever was, counting both tables while doubling. */
size_t ss_peak_bytes(const state_store *s);
/* ss_bytes() / ss_count() (0 when empty). */
double ss_bytes_per_state(const state_store *s);
/* Table slots and load (count / slots). */
size_t ss_table_slots(const state_store *s);

/* The hash of `len` bytes (64-bit multiply-xorshift over 8-byte words);
 * exposed for tests and for other back ends. */
uint64_t ss_hash(const uint8_t *bytes, size_t len);

#endif
