/* verify/verdict.c: the verdict rules of verify/verify.h, written once. */
#include "verify/verify.h"

verify_outcome_class verify_classify_outcome(const verify_result *v, const lit_value *outcome)
{
    if (!v->model_outcomes || v->undefined)     /* --model none; herd's Undef: anything goes */
        return VERIFY_OUTCOME_ALLOWED;
    if (outcome_find(v->model_outcomes, outcome) >= 0)
        return VERIFY_OUTCOME_ALLOWED;
    return v->model_cut ? VERIFY_OUTCOME_UNKNOWN : VERIFY_OUTCOME_UNSOUND;
}

/* A deadlock in a search where a step was dropped for its value may come
 * from the dropped step: it is shown, but it is not an established
 * violation.  Likewise with --complete, a model outcome the protocol never
 * reaches is a violation only when the whole state space was explored
 * (and no step was dropped for its value): otherwise the protocol might
 * reach it beyond the cut. */
bool verify_missing_established(const verify_result *v)
{
    return v->settings->complete && v->model_outcomes && v->unobserved && !v->undefined && !v->model_cut &&
           v->cut == SC_CUT_NONE && !v->overflow;
}

const lit_value *verify_next_missing(const verify_result *v, int *at)
{
    if (!verify_missing_established(v))
        return NULL;
    const lit_value *allowed = outcome_values(v->model_outcomes);
    size_t width = (size_t)v->t->nobserved;
    for (; *at < outcome_count(v->model_outcomes); (*at)++) {
        const lit_value *state = &allowed[(size_t)*at * width];
        if (outcome_find(v->found.outcomes, state) < 0)
            return state;
    }
    return NULL;
}

enum sc_cut verify_cut_of(bfs_stop stop)
{
    switch (stop) {
    case BFS_EXHAUSTED: return SC_CUT_NONE;
    case BFS_VIOLATION: return SC_CUT_VIOLATION;
    case BFS_MAX_STATES: return SC_CUT_MAX_STATES;
    case BFS_MAX_MEMORY: return SC_CUT_MAX_MEMORY;
    case BFS_TIMEOUT: return SC_CUT_TIMEOUT;
    case BFS_INTERRUPTED: return SC_CUT_INTERRUPTED;
    case BFS_BAD_MODEL: return SC_CUT_MAX_MEMORY;
    }
    return SC_CUT_MAX_MEMORY;
}

void verify_compare_outcomes(verify_result *v)
{
    if (!v->model_outcomes || v->undefined)
        return;
    int width = v->t->nobserved;
    const lit_value *mine = outcome_values(v->found.outcomes);
    for (int i = 0; i < outcome_count(v->found.outcomes); i++) {
        verify_outcome_class c = verify_classify_outcome(v, &mine[(size_t)i * (size_t)width]);
        v->unsure += c == VERIFY_OUTCOME_UNKNOWN;
        v->unsound += c == VERIFY_OUTCOME_UNSOUND;
    }
    const lit_value *allowed = outcome_values(v->model_outcomes);
    for (int i = 0; i < outcome_count(v->model_outcomes); i++)
        if (outcome_find(v->found.outcomes, &allowed[(size_t)i * (size_t)width]) < 0)
            v->unobserved++;
}

bool verify_has_violation(const verify_result *v)
{
    return v->unsound || verify_missing_established(v) || v->nunhandled || (v->search.deadlocks && !v->overflow) ||
           v->search.stop == BFS_VIOLATION || verify_live_failed(&v->live) || (v->mca && v->mca->violations);
}

int verify_status(const verify_result *v)
{
    if (verify_has_violation(v))
        return SC_STATUS_VIOLATION;
    return v->cut != SC_CUT_NONE || v->model_cut || verify_live_unknown(&v->live) || (v->mca && v->mca->cut)
               ? SC_STATUS_INCOMPLETE
               : SC_STATUS_OK;
}

const char *verify_result_word(const verify_result *v)
{
    int s = verify_status(v);
    return s == SC_STATUS_VIOLATION ? "Fail" : s == SC_STATUS_INCOMPLETE ? "Incomplete" : "Pass";
}

/* An unsound outcome found is "no" whatever else happened; "yes" needs
 * every reachable state explored (or a test the model leaves undefined);
 * otherwise it is unknown. */
const char *verify_sound_json(const verify_result *v)
{
    if (!v->model_outcomes)
        return "null";
    if (v->unsound)
        return "false";
    return v->undefined || (v->cut == SC_CUT_NONE && !v->model_cut) ? "true" : "null";
}

/* A search cut by any limit (value range included) is not complete: the
 * record's status is verify_status's, 3 for a cut without a violation. */
void verify_record_of(const verify_result *v, int status, verify_record *r)
{
    *r = (verify_record){.test = v->t, .inst = v->inst, .model = v->settings->model_name,
                         .complete = v->cut == SC_CUT_NONE, .states = v->search.states,
                         .transitions = v->search.transitions, .status = status};
    r->checks[r->nchecks++] = (verify_check_result){"outcomes", v->unsound == 0};
    r->checks[r->nchecks++] = (verify_check_result){"deadlock", v->search.deadlocks == 0};
    r->checks[r->nchecks++] = (verify_check_result){"unhandled", v->nunhandled == 0};
    r->checks[r->nchecks++] = (verify_check_result){"invariants", v->search.stop != BFS_VIOLATION};
}
