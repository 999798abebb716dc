/*
 * report/live.h: how a litmus test's liveness answer is printed
 * (enumerate/liveness.h; docs/liveness.md).
 *
 * Contract: in herd's block, the line "Liveness NAME Ok|No|Unknown", then
 * one "Stuck ..." line per stuck thread (its loop, the values it reads
 * forever, or the barrier it waits at), or for Unknown a "Warning" line
 * with the reason.  In JSON, the members "liveness", "stuck" and, when
 * unknown, "liveness_unknown", plus the scheduling assumed ("fairness",
 * "occupancy").  Printing never changes the result.
 */
#ifndef SCOPECHECK_REPORT_LIVE_H
#define SCOPECHECK_REPORT_LIVE_H

#include <stdio.h>

#include "enumerate/liveness.h"
#include "litmus/litmus.h"

/* A liveness answer with the scheduling it assumed. */
typedef struct report_live {
    live_result result;
    live_options options;
} report_live;

const char *report_live_verdict(const live_result *r);
/* report_info's extra_herd and extra_json, with `extra` a report_live. */
void report_live_herd(FILE *out, const litmus_test *t, const void *live);
void report_live_json(FILE *out, const litmus_test *t, const void *live);

#endif
