/*
 * enumerate/budget.c: the enumerator's limits (see enumerate/internal.h):
 * the caller's stop flag, a deadline on the monotonic clock, a bound on the
 * collected heap.
 */
#include <gc.h>
#include <time.h>

#include "enumerate/internal.h"

bool budget_exhausted(enum_budget *b)
{
    if (b->interrupt && *b->interrupt) {
        b->r->interrupted = true;
        b->stop = true;
    } else if (b->deadline > 0 && clock_now() >= b->deadline) {
        b->r->timed_out = true;
        b->stop = true;
    } else if (b->max_memory > 0 && gc_heap_in_use() > b->max_memory) {
        b->r->out_of_memory = true;
        b->stop = true;
    }
    return b->stop;
}

bool budget_should_stop(void *ctx)
{
    enum_budget *b = ctx;
    b->ticks |= STOP_CHECK_MASK; /* the walk and the filter ask rarely: look now */
    return out_of_budget(b);
}
