/* base/clock.c: see base/clock.h. */
#include "base/clock.h"

#include <gc.h>
#include <time.h>

double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

size_t gc_heap_in_use(void)
{
    size_t heap = GC_get_heap_size(), free_bytes = GC_get_free_bytes();
    return heap > free_bytes ? heap - free_bytes : 0;
}
