/* verify/progress.c: progress lines (see verify/progress.h). */
#include "verify/progress.h"

#include <unistd.h>

bool progress_wanted(progress_mode mode, FILE *to)
{
    if (mode != PROGRESS_AUTO)
        return mode == PROGRESS_ON;
    int fd = fileno(to);
    return fd >= 0 && isatty(fd);
}

void progress_print(void *ctx, const bfs_progress *p)
{
    const progress_sink *sink = ctx;
    fprintf(sink->to,
            "progress %s: %llu states (%.0f/s), %llu in the queue, depth %u, %llu transitions, "
            "store %.1f MiB, %.1f s\n",
            sink->what, (unsigned long long)p->states, p->states_per_s, (unsigned long long)p->queue, p->depth,
            (unsigned long long)p->transitions, (double)p->store_bytes / 1048576.0, p->seconds);
    fflush(sink->to);
}
