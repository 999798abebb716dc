/* verify/schedule_opts.c: the shared scheduling options (see verify/schedule_opts.h). */
#include "verify/schedule_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void schedule_defaults(schedule_opts *o)
{
    o->liveness = false;
    o->fair_weak = true;
    o->occupancy = 0;
    o->preempt = false;
}

bool schedule_fairness(schedule_opts *o, const char *cmd, const char *text, FILE *err)
{
    if (strcmp(text, "weak") == 0)
        o->fair_weak = true;
    else if (strcmp(text, "none") == 0)
        o->fair_weak = false;
    else {
        fprintf(err, "scopecheck %s: error: --fairness takes weak or none, not '%s'\n", cmd, text);
        return false;
    }
    o->liveness = true;
    return true;
}

bool schedule_occupancy(schedule_opts *o, const char *cmd, const char *text, FILE *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > SCHEDULE_MAX_OCCUPANCY) {
        fprintf(err, "scopecheck %s: error: --occupancy takes a number of CTAs from 1 to %d, not '%s'\n", cmd,
                SCHEDULE_MAX_OCCUPANCY, text);
        return false;
    }
    o->occupancy = (int)v;
    return true;
}

void schedule_usage(FILE *to, bool with_preempt)
{
    fputs("  --liveness     also check that every thread terminates (docs/liveness.md)\n"
          "  --fairness F   weak (default: a thread that can always move eventually does)\n"
          "                 or none (any thread may be starved forever); implies --liveness\n"
          "  --occupancy N  at most N CTAs resident per GPU, the others dispatched in CTA\n"
          "                 order as resident ones finish (non-preemptive)\n",
          to);
    if (with_preempt)
        fputs("  --preempt      the protocol's partial context switch may swap a waiting CTA\n"
              "                 out of residency (the protocol must declare `preempt`)\n",
              to);
}
