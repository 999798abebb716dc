/*
 * verify/progress.h: progress lines for long searches, as Rumur prints them.
 *
 * Contract.  The search (search/bfs.h) only calls a callback every few
 * seconds; this module decides whether a command reports at all
 * (progress_wanted: always when asked, never when told not to, otherwise
 * only when the stream is a terminal, so that logs and pipes stay clean)
 * and writes one line per report: states, rate, queue, depth, the store's
 * memory and the time so far.
 */
#ifndef SCOPECHECK_VERIFY_PROGRESS_H
#define SCOPECHECK_VERIFY_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "search/bfs.h"

#define PROGRESS_DEFAULT_EVERY_S 2.0

typedef enum progress_mode { PROGRESS_AUTO, PROGRESS_ON, PROGRESS_OFF } progress_mode;

/* What a report names and where it goes. */
typedef struct progress_sink {
    FILE *to;
    const char *what;        /* the test being searched */
} progress_sink;

bool progress_wanted(progress_mode mode, FILE *to);

/* A bfs_progress_fn; ctx is a progress_sink. */
void progress_print(void *ctx, const bfs_progress *p);

#endif
