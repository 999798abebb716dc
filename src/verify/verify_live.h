/*
 * verify/verify_live.h: the liveness half of `scopecheck verify` (docs/liveness.md,
 * section 2): the scheduler in front of the protocol, the graph recorded
 * during the search, the fair-cycle search after it, and the report.
 *
 * Contract: verify_live_prepare wraps the protocol's model in the scheduler
 * when the options ask for one (refusing --preempt for a protocol that
 * declares no context switch) and hooks the graph into the BFS options;
 * verify_live_decide runs the cycle search on a finished BFS; the print
 * functions add the Liveness line and a lasso trace per violation (text),
 * or "liveness", "cycles" and, when undecided, "liveness_unknown" (JSON).
 */
#ifndef SCOPECHECK_VERIFY_VERIFY_LIVE_H
#define SCOPECHECK_VERIFY_VERIFY_LIVE_H

#include <stdbool.h>
#include <stdio.h>

#include "protocol/protocol.h"
#include "schedule/sched.h"
#include "verify/schedule_opts.h"
#include "verify/trace_print.h"
#include "search/bfs.h"
#include "search/fair_cycle.h"
#include "search/nsi.h"

typedef struct verify_live {
    const schedule_opts *opts;
    sched_model *sched;          /* NULL: the protocol's model as it is */
    fc_graph *graph;             /* NULL without --liveness */
    fc_result result;
    bool decided;
    const char *unknown;         /* why no answer */
} verify_live;

/* Returns the model to explore (the protocol instance's, or the scheduler
 * around it), or NULL after writing an error (exit 2). */
const nsi_model *verify_live_prepare(verify_live *vl, const schedule_opts *o, proto_instance *in,
                                     const char *proto_label, bfs_options *bo, FILE *err);
void verify_live_decide(verify_live *vl, const bfs_search *s, const bfs_result *r);
/* No answer (why): the graph misses steps the search did not take. */
void verify_live_undecided(verify_live *vl, const char *why);
bool verify_live_failed(const verify_live *vl);
bool verify_live_unknown(const verify_live *vl);
/* The lasso traces in `detail` (verify/trace_print.h), through the protocol's
 * step descriptions. */
void verify_live_text(FILE *out, const verify_live *vl, const bfs_search *s, const proto_instance *in,
                      trace_detail detail);
void verify_live_json(FILE *out, const verify_live *vl, const bfs_search *s);
void verify_live_free(verify_live *vl);

#endif
