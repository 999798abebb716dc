/* verify/model_outcomes.c: the memory model's outcomes of one test,
 * computed once per test (verify/verify.h, verify_prepare). */
#include "verify/model_outcomes.h"

#include <gc.h>

#include "verify/limit_args.h"

enum_options verify_model_enum_options(const verify_settings *s, const cat_model *m, double start)
{
    /* flagged undefined: the model's flags (flag ~empty) or its undefined_unless
     * checks; --racy undefined treats the model as if it said option flags = undefined */
    return (enum_options){.unroll = s->unroll, .max_traces = ENUM_MAX_TRACES,
                          .races = cat_model_flags_make_undefined(m, ~0u) || s->racy_undefined,
                          .stop = s->bfs.stop, .timeout_s = limit_seconds_left(s->bfs.timeout_s, start),
                          .max_memory = s->bfs.max_memory};
}

bool verify_model_outcomes(verify_result *v, cat_workspace *ws, FILE *err)
{
    const cat_model *m = v->m;
    if (!m) {                     /* --model none: deadlocks, invariants, liveness only */
        v->model_outcomes = NULL;
        return true;
    }
    enum_options eo = verify_model_enum_options(v->settings, m, v->start);
    if (v->settings->complete)    /* the same enumeration keeps an execution per outcome */
        v->missing_why = witness_hook(v->t, &eo);
    if (!enumerate_check(v->t, m, ws, &eo, &v->model, err))
        return false;
    v->model_outcomes = v->model.states;
    v->undefined = v->model.flags && (v->settings->racy_undefined || cat_model_flags_make_undefined(m, v->model.flags));
    v->model_cut = enumerate_incomplete(&v->model);
    if (v->model_cut && !v->model.interrupted)
        fprintf(err, "%s: warning: the model's outcomes are incomplete (%s): protocol outcomes outside them are "
                "not reported as violations\n", v->t->file, v->model_cut);
    return true;
}

/* x taken into lo..hi modulo its size. */
static lit_value wrap_value(lit_value x, long lo, long hi)
{
    long span = hi - lo + 1, r = ((long)x - lo) % span;
    return (lit_value)(lo + (r < 0 ? r + span : r));
}

/* The first value of `set` outside lo..hi (its index), or -1. */
static int first_outside(outcome_set *set, int width, long lo, long hi)
{
    int n = outcome_count(set);
    const lit_value *all = outcome_values(set);
    for (int i = 0; i < n * width; i++)
        if (all[i] < lo || all[i] > hi)
            return i;
    return -1;
}

static outcome_set *wrapped_outcomes(outcome_set *set, int width, long lo, long hi)
{
    int n = outcome_count(set);
    const lit_value *all = outcome_values(set);
    outcome_set *wrapped = outcome_set_new(width);
    lit_value *one = GC_MALLOC_ATOMIC(sizeof *one * (size_t)(width ? width : 1));
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < width; k++)
            one[k] = wrap_value(all[(size_t)i * (size_t)width + (size_t)k], lo, hi);
        outcome_add(wrapped, one);
    }
    return wrapped;
}

/* With a range set by --const, the model may allow values the protocol
 * cannot hold (x = 2 after two increments, with values 0..1).  A protocol
 * whose arithmetic wraps (the Rumur baseline) is compared modulo its
 * range, with a warning; one that does not wrap cannot run the test: an
 * error, since every comparison would be meaningless.  The derived range
 * (verify/value_range.h) holds every value a run can compute, so a model
 * value outside it (a thin-air value some models allow) is simply one the
 * protocol cannot produce. */
bool verify_fit_model_outcomes(verify_result *v, const char *path, FILE *err)
{
    if (!v->model_outcomes)       /* --model none */
        return true;
    long lo, hi;
    bool wraps = proto_value_range(v->inst, &lo, &hi);
    if (proto_values_derived(v->inst))
        return true;      /* the range holds every value a run computes: other model values are thin air */
    int width = v->t->nobserved;
    int bad = first_outside(v->model_outcomes, width, lo, hi);
    if (bad < 0)
        return true;
    fprintf(err, "%s: %s: the model allows the value %lld, outside protocol %s's value range %ld..%ld; %s (raise its constant, e.g. --const MAXV=N)\n",
            path, wraps ? "warning" : "error", (long long)outcome_values(v->model_outcomes)[bad], protocol_name(v->p),
            lo, hi,
            wraps ? "the protocol wraps values, so outcomes are compared modulo the range" : "the outcomes cannot be compared");
    if (!wraps)
        return false;
    v->model_outcomes = wrapped_outcomes(v->model_outcomes, width, lo, hi);
    return true;
}
