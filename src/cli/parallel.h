/*
 * cli/parallel.h: independent work items in several processes, results in
 * order (`litmus -j N`).
 *
 * Contract.  parallel_run() calls work(ctx, i, out_i, err_i) for every item
 * i in 0..n-1, spread over `jobs` child processes (fork; item i goes to
 * child i mod jobs), each with its own memory streams for the item's
 * output and messages.  The parent writes every item's output to `out` and
 * its messages to `err` in item order, as soon as the items before it are
 * done, so the output is the same as a run in one process.  Each item's
 * output is written whole (cli/output.h, output_whole), in one process as
 * in several: a signal never leaves a line cut.  The status is
 * the merge (report/status.h) of the items' statuses; an item whose child
 * died before reporting it counts as unusable (2, with a message), and an
 * item not started because `stop` was set is counted in *skipped.  With
 * jobs <= 1 or n <= 1 it simply runs the items in this process.
 *
 * Children inherit the caller's signal handlers, so a SIGINT to the
 * process group stops every child after its current item (each polls
 * `stop`, its own copy of the caller's flag).  When the parent sees `stop`
 * set it sends SIGTERM to every worker still running, so a signal sent to
 * the parent alone (kill PID) stops them all as well; a worker that a
 * second signal ends leaves its current item unchecked (counted in
 * *skipped), never half reported.  Children leave with
 * _exit(), so no buffered output is written twice.
 */
#ifndef SCOPECHECK_CLI_PARALLEL_H
#define SCOPECHECK_CLI_PARALLEL_H

#include <signal.h>
#include <stdio.h>

typedef int (*parallel_work_fn)(void *ctx, int index, FILE *out, FILE *err);

int parallel_run(int n, int jobs, parallel_work_fn work, void *ctx, const volatile sig_atomic_t *stop,
                 FILE *out, FILE *err, int *skipped);

#endif
