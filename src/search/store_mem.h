/*
 * search/store_mem.h: a byte budget and chunked arrays, shared by the
 * compact visited-state stores (tree_store.h, prob_store.h).
 *
 * Contract.  A store_budget counts the bytes a store has allocated (now and
 * at its peak) against an optional limit; every allocation of a store goes
 * through it, so `--max-memory` covers the whole store.  A chunk_array is
 * a growable array of fixed-size elements kept in chunks of 2^shift
 * elements: elements never move (a pointer stays valid until the array is
 * freed), an index gives its chunk and offset directly, and growing never
 * copies elements (only the chunk directory is reallocated).  Chunks below
 * a given index can be released (a FIFO: the probabilistic stores' BFS
 * queue).  malloc'd memory (no GC: it holds no pointers the collector
 * must see).  Not thread-safe.
 */
#ifndef SCOPECHECK_SEARCH_STORE_MEM_H
#define SCOPECHECK_SEARCH_STORE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct store_budget {
    size_t bytes;       /* allocated now */
    size_t peak;        /* the most `bytes` ever was */
    size_t max;         /* 0: no limit */
} store_budget;

/* True when `extra` more bytes stay within the limit. */
bool sb_allows(const store_budget *b, size_t extra);
/* Adds `added`, updates the peak, then subtracts `removed`. */
void sb_account(store_budget *b, size_t added, size_t removed);

typedef struct chunk_array {
    size_t elem;            /* bytes per element */
    unsigned shift;         /* elements per chunk = 1 << shift */
    uint8_t **chunks;       /* directory; released chunks are NULL */
    size_t nchunks, cap;
    uint64_t count;         /* elements pushed (indices 0..count-1) */
} chunk_array;

void ca_init(chunk_array *a, size_t elem, unsigned shift);
/* Frees every chunk and the directory, returning their bytes to `b`. */
void ca_free(chunk_array *a, store_budget *b);

/* Makes room for element `count` (a chunk, maybe a larger directory);
 * false when the budget or malloc refuses (nothing changes). */
bool ca_reserve(chunk_array *a, store_budget *b);

/* The element at `i` (< count, its chunk not released). */
static inline uint8_t *ca_at(const chunk_array *a, uint64_t i)
{
    return a->chunks[i >> a->shift] + (size_t)(i & (((uint64_t)1 << a->shift) - 1)) * a->elem;
}

/* Appends one element (ca_reserve first); returns its storage. */
static inline uint8_t *ca_push(chunk_array *a)
{
    return ca_at(a, a->count++);
}

/* Releases every chunk all of whose elements are below `i`. */
void ca_release_below(chunk_array *a, uint64_t i, store_budget *b);

/* Bytes one chunk takes. */
size_t ca_chunk_bytes(const chunk_array *a);

#endif
