/* sim/queue.c: a calendar queue over a binary heap (see sim/queue.h). */
#include "sim/queue.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
#define MASK (SIM_QUEUE_WINDOW - 1)

bool queue_init(sim_queue *q)
{
    memset(q, 0, sizeof *q);
    for (uint32_t i = 0; i < SIM_QUEUE_WINDOW; i++)
        q->head[i] = q->tail[i] = NIL;
    q->free_head = NIL;
    heap_init(&q->far);
    return true;
}

void queue_free(sim_queue *q)
{
    free(q->nodes);
    heap_free(&q->far);
    q->nodes = NULL;
    q->cap = q->count = 0;
}

static bool grow(sim_queue *q)
{
    size_t cap = q->cap ? 2 * q->cap : 4096;
    if (cap > NIL)
        return false;
    sim_queue_node *nodes = realloc(q->nodes, cap * sizeof *nodes);
    if (!nodes)
        return false;
    q->nodes = nodes;
    for (size_t i = q->cap; i < cap; i++)
        q->nodes[i].next = i + 1 < cap ? (uint32_t)(i + 1) : q->free_head;
    q->free_head = (uint32_t)q->cap;
    q->cap = cap;
    return true;
}

/* Appends to the bucket of `time` (within the window). */
static bool append(sim_queue *q, uint64_t time, uint32_t kind, uint32_t id)
{
    if (q->free_head == NIL && !grow(q))
        return false;
    uint32_t n = q->free_head;
    q->free_head = q->nodes[n].next;
    q->nodes[n] = (sim_queue_node){.time = time, .next = NIL, .kind = kind, .id = id};
    uint32_t b = (uint32_t)(time & MASK);
    if (q->tail[b] == NIL)
        q->head[b] = n;
    else
        q->nodes[q->tail[b]].next = n;
    q->tail[b] = n;
    q->busy[b / 64] |= 1ull << (b % 64);
    return true;
}

bool queue_push(sim_queue *q, uint64_t time, uint32_t kind, uint32_t id)
{
    if (time < q->base)
        return false;
    bool ok = time - q->base < SIM_QUEUE_WINDOW ? append(q, time, kind, id) : heap_push(&q->far, time, kind, id);
    if (ok && ++q->count > q->peak)
        q->peak = q->count;
    return ok;
}

/* The first busy bucket at or after bucket `from`, going round; -1 when
 * every bucket is empty. */
static long next_busy(const sim_queue *q, uint32_t from)
{
    for (uint32_t k = 0; k <= SIM_QUEUE_WINDOW / 64; k++) {
        uint32_t word = (from / 64 + k) % (SIM_QUEUE_WINDOW / 64);
        uint64_t bits = q->busy[word];
        if (k == 0)
            bits &= ~0ull << (from % 64);
        if (bits)
            return (long)(word * 64 + (uint32_t)__builtin_ctzll(bits));
    }
    return -1;
}

/* Moves the far events that the window now covers into their buckets,
 * in time (then push) order: they were pushed before any event that
 * went straight to those buckets. */
static void migrate(sim_queue *q)
{
    sim_event e;
    while (heap_count(&q->far) && q->far.items[0].time - q->base < SIM_QUEUE_WINDOW) {
        heap_pop(&q->far, &e);
        if (!append(q, e.time, e.kind, e.id))
            q->failed = true;
    }
}

bool queue_pop(sim_queue *q, sim_event *out)
{
    if (q->count == 0)
        return false;
    long b = next_busy(q, (uint32_t)(q->base & MASK));
    if (b < 0) {                        /* only far events: jump to the first */
        q->base = q->far.items[0].time;
        migrate(q);
        b = (long)(q->base & MASK);
    } else {
        uint64_t t = q->base + (((uint64_t)b - (q->base & MASK)) & MASK);
        if (t != q->base) {
            q->base = t;
            migrate(q);
        }
    }
    uint32_t n = q->head[b];
    sim_queue_node *node = &q->nodes[n];
    q->head[b] = node->next;
    if (q->head[b] == NIL) {
        q->tail[b] = NIL;
        q->busy[b / 64] &= ~(1ull << (b % 64));
    }
    *out = (sim_event){node->time, 0, node->kind, node->id};
    node->next = q->free_head;
    q->free_head = n;
    q->count--;
    return true;
}
