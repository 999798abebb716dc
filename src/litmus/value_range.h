/*
 * litmus/value_range.h: the values a litmus program can compute, an
 * analysis of the program alone (over litmus/thread_paths.h).
 *
 * Contract: lit_value_range() sets out->lo and out->hi to the least and
 * greatest of the program's initial values and immediate operands and of
 * every value its paths read, write or compute into a register, where a
 * read may return any value some chain of writes computes (thread_paths'
 * fixpoint, without the thin-air seeds a model may add: a memory system
 * moves values, it does not invent them).  out->bounded is false when the
 * fixpoint did not close (values may lie outside); paths beyond the loop
 * bound are not followed.  The walk honours lim->stop, lim->timeout_s and
 * lim->max_memory (a spin loop's paths can be exponentially many): a limit
 * leaves out->bounded false and out->stopped_by its word ("interrupted",
 * "timeout", "max-memory"; else NULL).  False, with a located error on
 * `errors`, when the test has more threads than lim->max_threads.
 */
#ifndef SCOPECHECK_LITMUS_VALUE_RANGE_H
#define SCOPECHECK_LITMUS_VALUE_RANGE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "litmus/litmus.h"

typedef struct lit_range_limits {
    int unroll;                            /* backward branches per branch and path */
    long max_traces;                       /* paths per thread */
    int max_threads;                       /* more is refused (0: no limit) */
    const volatile sig_atomic_t *stop;     /* the caller's stop flag (a signal), or NULL */
    double timeout_s;                      /* 0: none */
    size_t max_memory;                     /* collector heap bytes, 0: none */
} lit_range_limits;

typedef struct lit_range {
    lit_value lo, hi;
    bool bounded;
    const char *stopped_by;
} lit_range;

bool lit_value_range(const litmus_test *t, const lit_range_limits *lim, lit_range *out, FILE *errors);

#endif
