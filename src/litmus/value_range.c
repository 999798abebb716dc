/* litmus/value_range.c: see litmus/value_range.h. */
#include "litmus/value_range.h"

#include "base/clock.h"
#include "base/diag.h"
#include "litmus/thread_paths.h"

/* The limits of the walk, asked by thread_paths now and then. */
typedef struct range_budget {
    const volatile sig_atomic_t *interrupt;
    double deadline;       /* 0: none */
    size_t max_memory;     /* 0: none */
    const char *stopped_by;
} range_budget;

static bool range_should_stop(void *ctx)
{
    range_budget *b = ctx;
    if (!b->stopped_by && b->interrupt && *b->interrupt)
        b->stopped_by = "interrupted";
    else if (!b->stopped_by && b->deadline > 0 && clock_now() >= b->deadline)
        b->stopped_by = "timeout";
    else if (!b->stopped_by && b->max_memory > 0 && gc_heap_in_use() > b->max_memory)
        b->stopped_by = "max-memory";
    return b->stopped_by != NULL;
}

bool lit_value_range(const litmus_test *t, const lit_range_limits *lim, lit_range *out, FILE *errors)
{
    range_budget budget = {lim->stop, lim->timeout_s > 0 ? clock_now() + lim->timeout_s : 0, lim->max_memory, NULL};
    tp_limits tl = {.unroll = lim->unroll, .max_traces = lim->max_traces, .track_values = true,
                    .stop = range_should_stop, .stop_ctx = &budget};
    tp_result paths;
    *out = (lit_range){0, 0, false, NULL};
    if (lim->max_threads > 0 && t->nthreads > lim->max_threads) {
        diag_error(errors, t->file, 1, 1, "too many threads (at most %d)", lim->max_threads);
        return false;
    }
    thread_paths_build(t, &tl, &paths);
    out->lo = paths.vmin;
    out->hi = paths.vmax;
    /* paths dropped (too many, too long) or not walked may hold values outside */
    out->bounded = !paths.values_cut && !paths.too_many && !paths.too_long && !paths.stopped;
    out->stopped_by = budget.stopped_by;
    return true;
}
