/* search/store_mem.c: the byte budget and chunked arrays of
 * search/store_mem.h. */
#include "search/store_mem.h"

#include <stdlib.h>
#include <string.h>

bool sb_allows(const store_budget *b, size_t extra)
{
    return b->max == 0 || b->bytes + extra <= b->max;
}

void sb_account(store_budget *b, size_t added, size_t removed)
{
    b->bytes += added;
    if (b->bytes > b->peak)
        b->peak = b->bytes;
    b->bytes -= removed;
}

void ca_init(chunk_array *a, size_t elem, unsigned shift)
{
    memset(a, 0, sizeof *a);
    a->elem = elem;
    a->shift = shift;
}

size_t ca_chunk_bytes(const chunk_array *a)
{
    return a->elem << a->shift;
}

void ca_free(chunk_array *a, store_budget *b)
{
    for (size_t i = 0; i < a->nchunks; i++) {
        if (a->chunks[i]) {
            free(a->chunks[i]);
            sb_account(b, 0, ca_chunk_bytes(a));
        }
    }
    free(a->chunks);
    sb_account(b, 0, a->cap * sizeof *a->chunks);
    a->chunks = NULL;
    a->nchunks = a->cap = 0;
    a->count = 0;
}

bool ca_reserve(chunk_array *a, store_budget *b)
{
    if ((a->count >> a->shift) < a->nchunks)
        return true;
    size_t dir_extra = 0, cap = a->cap;
    if (a->nchunks == a->cap) {
        cap = a->cap ? 2 * a->cap : 8;
        dir_extra = (cap - a->cap) * sizeof *a->chunks;
    }
    if (!sb_allows(b, ca_chunk_bytes(a) + dir_extra))
        return false;
    if (dir_extra) {
        uint8_t **d = realloc(a->chunks, cap * sizeof *d);
        if (!d)
            return false;
        a->chunks = d;
        a->cap = cap;
        sb_account(b, dir_extra, 0);
    }
    uint8_t *c = malloc(ca_chunk_bytes(a));
    if (!c)
        return false;
    a->chunks[a->nchunks++] = c;
    sb_account(b, ca_chunk_bytes(a), 0);
    return true;
}

void ca_release_below(chunk_array *a, uint64_t i, store_budget *b)
{
    uint64_t whole = i >> a->shift;   /* chunks 0..whole-1 lie below i */
    for (uint64_t c = whole; c-- > 0;) {
        if (!a->chunks[c])
            break;                    /* released earlier, and all below it */
        free(a->chunks[c]);
        a->chunks[c] = NULL;
        sb_account(b, 0, ca_chunk_bytes(a));
    }
}
