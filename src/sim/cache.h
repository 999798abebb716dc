/*
 * sim/cache.h: set-associative tag arrays: which lines a cache holds, and
 * which line it gives up when a set is full.
 *
 * Contract.  A cache of `size` bytes, `line` bytes per line and `assoc`
 * ways has size / (line * assoc) sets (at least one); a line address goes
 * to the set given by a fixed hash of the address (so that
 * address-interleaved slices and homes do not leave sets unused).  Each
 * frame holds a line address (or nothing) and a payload (the simulator's
 * line record).  Replacement: `lru` gives up the frame used least
 * recently (cache_touch marks a use), `fifo` the one filled first,
 * `random` a frame chosen by the cache's own generator (seeded).
 * cache_victims lists a full set's frames best victim first, so that a
 * caller can skip frames it cannot evict now (a line in a transient
 * state).  Arrays are allocated once by cache_init (false when memory
 * runs out or the geometry is impossible); nothing allocates afterwards.
 */
#ifndef SCOPECHECK_SIM_CACHE_H
#define SCOPECHECK_SIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_CACHE_EMPTY UINT64_MAX
#define SIM_MAX_ASSOC 64

enum sim_repl { REPL_LRU, REPL_FIFO, REPL_RANDOM };

typedef struct sim_cache {
    int nsets, assoc;
    enum sim_repl repl;
    uint64_t *tag;          /* nsets * assoc line addresses */
    int32_t *payload;
    uint64_t *stamp;        /* lru: last use; fifo: fill order */
    uint64_t clock;
    uint64_t rng;
} sim_cache;

bool cache_init(sim_cache *c, long size, int line, int assoc, enum sim_repl repl, uint64_t seed);
void cache_free(sim_cache *c);
int cache_set_of(const sim_cache *c, uint64_t addr);
/* The frame holding addr, or -1. */
long cache_find(const sim_cache *c, uint64_t addr);
/* A free frame of the set, or -1 when the set is full. */
long cache_free_frame(const sim_cache *c, int set);
void cache_fill(sim_cache *c, long frame, uint64_t addr, int32_t payload);
void cache_touch(sim_cache *c, long frame);
void cache_clear(sim_cache *c, long frame);
/* The set's frames, best victim first, into out[assoc]; returns assoc. */
int cache_victims(sim_cache *c, int set, long *out);
/* For a timing-only cache: looks addr up, fills it on a miss (giving up
 * the first victim); true on a hit. */
bool cache_access(sim_cache *c, uint64_t addr);

#endif
