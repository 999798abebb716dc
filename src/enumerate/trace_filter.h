/*
 * enumerate/trace_filter.h: the combinations of thread traces (one trace per
 * thread) in which every read can be served, before any relation is built.
 *
 * Contract: a read needs its (location, value) pair written by its own
 * thread earlier in program order (with thread coherence; without, anywhere
 * in its trace), by another thread's trace, or by the initial state.
 * trace_filter_each lists, thread by thread, every combination of traces
 * that meets that need, and no other; a combination it leaves out has no
 * candidate execution (no reads-from choice exists for it), so nothing is
 * lost.  Traces of one thread that read, write and need the same pairs are
 * tested once per choice of the threads before it.  Allocation: Boehm GC,
 * per test.
 */
#ifndef SCOPECHECK_ENUMERATE_TRACE_FILTER_H
#define SCOPECHECK_ENUMERATE_TRACE_FILTER_H

#include <stdbool.h>

#include "litmus/thread_paths.h"
#include "litmus/litmus.h"

typedef struct trace_filter trace_filter;

/* coherent: the model promises thread coherence (cat_model_thread_coherent). */
trace_filter *trace_filter_build(const litmus_test *t, const tp_result *paths, bool coherent);

/* Calls visit(ctx) once per combination that passes, with choice[th] the
 * trace of each thread th; stops as soon as visit returns false, or poll
 * (optional: asked every few thousand class tests, where no combination
 * may pass for a long time) returns true.  In order (any_order false): thread 0's
 * first trace first, the last thread varying fastest, at the cost of one
 * test per class of a thread and choice of the threads before it, and a
 * step per trace of the classes that pass (a bit set over the traces).  In
 * any order: the choice is made over classes of traces (those that read,
 * write and need the same pairs decide alike), and only a combination of
 * classes that passes is expanded into its traces; the cost is one test per
 * class, not per trace (the liveness pass, where a thread may have tens of
 * thousands of traces in a few thousand classes). */
void trace_filter_each(const trace_filter *f, int *choice, bool any_order, bool (*visit)(void *ctx),
                       bool (*poll)(void *ctx), void *ctx);

#endif
