/*
 * sim/heap.h: the simulator's event queue, a binary min-heap of
 * (time, sequence, payload).
 *
 * Contract.  Events come out in time order; events at the same time come
 * out in the order they were pushed (the sequence number), which makes a
 * run deterministic.  The heap grows by doubling when full and never
 * shrinks, so a run whose number of pending events is bounded allocates
 * only while that bound is first reached: nothing per event in steady
 * state.  heap_push returns false when memory runs out (the heap is then
 * unchanged).  No global state; one heap per run.
 */
#ifndef SCOPECHECK_SIM_HEAP_H
#define SCOPECHECK_SIM_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sim_event {
    uint64_t time;
    uint64_t seq;
    uint32_t kind;
    uint32_t id;
} sim_event;

typedef struct sim_heap {
    sim_event *items;
    size_t count, cap;
    uint64_t next_seq;
    size_t peak;            /* the most events pending at once */
} sim_heap;

void heap_init(sim_heap *h);
void heap_free(sim_heap *h);
bool heap_push(sim_heap *h, uint64_t time, uint32_t kind, uint32_t id);
/* The earliest event; false when empty. */
bool heap_pop(sim_heap *h, sim_event *out);
static inline size_t heap_count(const sim_heap *h) { return h->count; }

#endif
