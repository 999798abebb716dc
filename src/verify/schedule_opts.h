/*
 * verify/schedule_opts.h: the scheduling options `litmus` and `verify` share
 * (docs/liveness.md, "Scheduling"): --fairness weak|none, --occupancy N,
 * --preempt.  Parsing only: each command hands the values to its engine.
 */
#ifndef SCOPECHECK_VERIFY_SCHEDULE_OPTS_H
#define SCOPECHECK_VERIFY_SCHEDULE_OPTS_H

#include <stdbool.h>
#include <stdio.h>

typedef struct schedule_opts {
    bool liveness;       /* --liveness, or implied by the options below */
    bool fair_weak;      /* --fairness weak (default) or none */
    int occupancy;       /* --occupancy N: CTAs resident per GPU; 0: all */
    bool preempt;        /* --preempt: the protocol's context switch may run */
} schedule_opts;

#define SCHEDULE_MAX_OCCUPANCY 1024

void schedule_defaults(schedule_opts *o);

/* Each takes the option's argument; false after writing
 * "scopecheck CMD: error: ..." to `err` (the caller exits 2). */
bool schedule_fairness(schedule_opts *o, const char *cmd, const char *text, FILE *err);
bool schedule_occupancy(schedule_opts *o, const char *cmd, const char *text, FILE *err);

/* The lines of --help that describe them. */
void schedule_usage(FILE *to, bool with_preempt);

#endif
