/* verify/value_range.c: see verify/value_range.h. */
#include "verify/value_range.h"

#include "enumerate/enumerate.h"
#include "litmus/value_range.h"

bool test_value_range(const litmus_test *t, const enum_options *limits, proto_options *po, FILE *err)
{
    lit_range_limits lim = {.unroll = limits->unroll,
                            .max_traces = limits->max_traces > 0 ? limits->max_traces : ENUM_MAX_TRACES,
                            .max_threads = ENUM_MAX_THREADS, .stop = limits->stop, .timeout_s = limits->timeout_s,
                            .max_memory = limits->max_memory};
    lit_range r;
    if (!lit_value_range(t, &lim, &r, err))
        return false;
    lit_value lo = r.lo, hi = r.hi;
    bool bounded = r.bounded;
    const char *stopped_by = r.stopped_by;
    if (lo > 0)
        lo = 0;
    if (hi < 0)
        hi = 0;
    if (stopped_by)
        fprintf(err, "%s: warning: the walk for the values this test can compute was stopped (%s); the range "
                "%lld..%lld of those found is used, and a step beyond it makes the result incomplete (a --const "
                "of the protocol's value constant sets the range instead)\n", t->file, stopped_by, (long long)lo,
                (long long)hi);
    else if (!bounded)
        fprintf(err, "%s: warning: the values this test can compute could not be bounded; the range %lld..%lld "
                "of those found is used, and a step beyond it makes the result incomplete\n", t->file,
                (long long)lo, (long long)hi);
    po->has_values = true;
    po->value_lo = (long)lo;
    po->value_hi = (long)hi;
    return true;
}
