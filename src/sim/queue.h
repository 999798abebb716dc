/*
 * sim/queue.h: the simulator's event queue, a calendar queue (a timing
 * wheel of one bucket per cycle over a window of SIM_QUEUE_WINDOW
 * cycles, with a binary heap, sim/heap.h, for events beyond the window).
 *
 * Contract.  Events come out in time order, and events at the same time
 * in the order they were pushed, which makes a run deterministic.  An
 * event may not be pushed before the time of the last event popped (the
 * simulation never schedules into the past; queue_push refuses it).
 * Pushing and popping cost O(1) within the window (a bitmap finds the
 * next busy bucket).  Nodes come from a pool that grows by doubling and
 * never shrinks, so a run whose number of pending events is bounded
 * allocates only while that bound is first reached.  queue_push returns
 * false when memory runs out (nothing is queued then).  No global state.
 */
#ifndef SCOPECHECK_SIM_QUEUE_H
#define SCOPECHECK_SIM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/heap.h"

#define SIM_QUEUE_WINDOW 4096u      /* a power of two */

/* One pending event; its fields together, so that a push or a pop
 * touches one cache line of the pool. */
typedef struct sim_queue_node {
    uint64_t time;
    uint32_t next, kind, id;
} sim_queue_node;

typedef struct sim_queue {
    uint64_t base;                  /* the time of the last event popped */
    uint32_t head[SIM_QUEUE_WINDOW], tail[SIM_QUEUE_WINDOW];
    uint64_t busy[SIM_QUEUE_WINDOW / 64];
    sim_queue_node *nodes;          /* node pool */
    uint32_t free_head;
    size_t cap, count, peak;
    sim_heap far;                   /* events at or beyond base + window */
    bool failed;                    /* memory ran out while moving far events in: events were lost */
} sim_queue;

bool queue_init(sim_queue *q);
void queue_free(sim_queue *q);
bool queue_push(sim_queue *q, uint64_t time, uint32_t kind, uint32_t id);
/* The earliest event; false when empty. */
bool queue_pop(sim_queue *q, sim_event *out);
static inline size_t queue_count(const sim_queue *q) { return q->count; }

#endif
