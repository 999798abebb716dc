/* sim/heap.c: a binary min-heap keyed on (time, seq) (see sim/heap.h). */
#include "sim/heap.h"

#include <stdlib.h>

void heap_init(sim_heap *h) { *h = (sim_heap){0}; }

void heap_free(sim_heap *h)
{
    free(h->items);
    *h = (sim_heap){0};
}

static bool before(const sim_event *a, const sim_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

bool heap_push(sim_heap *h, uint64_t time, uint32_t kind, uint32_t id)
{
    if (h->count == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 1024;
        sim_event *grown = realloc(h->items, cap * sizeof *grown);
        if (!grown)
            return false;
        h->items = grown;
        h->cap = cap;
    }
    sim_event e = {time, h->next_seq++, kind, id};
    size_t i = h->count++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&e, &h->items[parent]))
            break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = e;
    if (h->count > h->peak)
        h->peak = h->count;
    return true;
}

bool heap_pop(sim_heap *h, sim_event *out)
{
    if (h->count == 0)
        return false;
    *out = h->items[0];
    sim_event last = h->items[--h->count];
    size_t i = 0, n = h->count;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && before(&h->items[child + 1], &h->items[child]))
            child++;
        if (!before(&h->items[child], &last))
            break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (n)
        h->items[i] = last;
    return true;
}
