/* verify/print_text.c: verify's herd-like text report (see verify/verify.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "search/state_store.h"
#include "verify/verify.h"

static void print_outcomes(FILE *out, const litmus_test *t, outcome_set *set, const char *title)
{
    int count = outcome_count(set);
    const lit_value *sorted = outcome_sorted(set);
    const char *paren = strchr(title, '(');
    if (paren)    /* "Protocol outcomes (why)": the count goes before the reason */
        fprintf(out, "%.*s%d %s\n", (int)(paren - title), title, count, paren);
    else
        fprintf(out, "%s %d\n", title, count);
    for (int i = 0; i < count; i++) {
        report_state(out, t, &sorted[(size_t)i * (size_t)t->nobserved]);
        fputc('\n', out);
    }
}

/* Why the deadlock state `index` is stuck (the state read back from any
 * store). */
static void print_stuck(FILE *out, const verify_result *v, uint32_t index)
{
    uint8_t *buf = malloc(bfs_model(v->bfs)->state_bytes);
    const uint8_t *state = buf ? bfs_state(v->bfs, index, buf) : NULL;
    if (state)
        trace_print_stuck(out, v->inst, state);
    free(buf);
}

/* The trace to stored state `index` (to a state with final values `want`,
 * when given: an outcome's witness). */
static void print_trace_to(FILE *out, const verify_result *v, uint32_t index, const lit_value *want)
{
    fputs("Trace\n", out);
    bfs_path *p = verify_trace_path(v, index, want);
    trace_print_path(out, bfs_model(v->bfs), v->inst, p, v->settings->trace);
    bfs_path_free(p);
}

static void print_trace(FILE *out, const verify_result *v, uint32_t index)
{
    print_trace_to(out, v, index, NULL);
}

static void print_unsound(FILE *out, const verify_result *v)
{
    int width = v->t->nobserved;
    const lit_value *mine = outcome_values(v->found.outcomes);
    for (int i = 0; i < outcome_count(v->found.outcomes); i++) {
        const lit_value *state = &mine[(size_t)i * (size_t)width];
        verify_outcome_class c = verify_classify_outcome(v, state);
        if (c == VERIFY_OUTCOME_UNKNOWN) {
            fputs("Unknown outcome: ", out);
            report_state(out, v->t, state);
            fprintf(out, " (not among the model's outcomes found; they are incomplete: %s)\n", v->model_cut);
        } else if (c == VERIFY_OUTCOME_UNSOUND) {
            fputs("Violation unsound outcome: ", out);
            report_state(out, v->t, state);
            fputs(" (the model forbids it)\n", out);
            print_trace_to(out, v, v->found.witness[i], state);
        }
    }
}

/* --complete: each model outcome the protocol never reached, with an
 * execution of the model that produces it. */
static void print_missing(FILE *out, const verify_result *v)
{
    const lit_value *state;
    for (int i = 0; (state = verify_next_missing(v, &i)); i++) {
        fputs("Violation missing outcome: ", out);
        report_state(out, v->t, state);
        fputs(" (the model allows it; the protocol never produces it)\n", out);
        const char *why = witness_text(v->missing_why, state);
        if (why)
            fprintf(out, "Execution\n%s", why);
        else
            fputs("Execution not kept (the values were wrapped into the protocol's range)\n", out);
    }
}

/* What may be said about soundness: an unsound outcome found is "no"
 * whatever else happened; "yes" needs every reachable state explored (or
 * a test the model leaves undefined); otherwise it is unknown. */
static void print_sound(FILE *out, const verify_result *v)
{
    if (!v->model_outcomes) {
        fputs("Model outcomes unchecked (--model none)\n", out);
        return;
    }
    if (v->unsound)
        fputs("Sound no\n", out);
    else if (v->model_cut && !v->undefined)
        fprintf(out, "Sound unknown (the model's outcomes are incomplete: %s; %d protocol outcome%s outside them)\n",
                v->model_cut, v->unsure, v->unsure == 1 ? "" : "s");
    else if (v->undefined)
        fputs("Sound yes (the model leaves the test undefined: every outcome is allowed)\n", out);
    else if (v->cut == SC_CUT_NONE)
        fputs("Sound yes\n", out);
    else
        fprintf(out, "Sound unknown (no unsound outcome among the %" PRIu64 " states explored; %s)\n",
                v->search.states, sc_cut_phrase(v->cut));
    if (v->cut != SC_CUT_NONE)
        fprintf(out, "Unobserved unknown (the search was cut: %s)\n", sc_cut_phrase(v->cut));
    else if (!v->undefined)
        fprintf(out, "Unobserved %d (allowed by the model, never produced by the protocol)\n", v->unobserved);
}

/* herd's Undef: the flags the model raised and the racing pairs. */
static void print_undefined(FILE *out, const verify_result *v)
{
    const cat_model *m = v->m;
    if (!v->undefined)
        return;
    fputs("Undefined: the model flags", out);
    for (int f = 0; f < cat_model_flag_count(m); f++)
        if (v->model.flags & (1u << f))
            fprintf(out, " %s", cat_model_flag_name(m, f));
    fputs(" (herd's Undef: a racy program has no defined behaviour, so every protocol outcome is allowed)\n", out);
    report_flags_text(out, v->t, &v->model, m, true);
}

/* Values are never wrapped or dropped silently. */
static void print_value_notes(FILE *out, const verify_result *v)
{
    long lo, hi;
    proto_value_range(v->inst, &lo, &hi);
    if (v->overflow)
        fprintf(out, "Warning value range: a step would have made the value %ld, outside %ld..%ld, and was not "
                "taken; the states beyond it are unexplored and deadlocks may come from it (a loop beyond "
                "--unroll computes values the range does not hold: raise --unroll)\n", v->overflow_value, lo, hi);
    if (proto_value_wrapped(v->inst))
        fprintf(out, "Warning value range: values were wrapped into %ld..%ld (the protocol declares `value ... "
                "wrap` and --const set its range)\n", lo, hi);
}

static void print_result(FILE *out, const verify_result *v)
{
    fprintf(out, "Result %s", verify_result_word(v));
    if (v->cut == SC_CUT_VIOLATION)
        fputs(" (the search stopped at the invariant violation; states beyond it were not explored)", out);
    else if (v->cut != SC_CUT_NONE && verify_has_violation(v))
        fprintf(out, " (the search was cut: %s; the violations above stand)", sc_cut_phrase(v->cut));
    else if (v->cut != SC_CUT_NONE)
        fprintf(out, " (%s: no violation among the %" PRIu64 " states explored; the rest is unknown)",
                sc_cut_phrase(v->cut), v->search.states);
    else if (v->model_cut && !verify_has_violation(v))
        fprintf(out, " (the model's outcomes are incomplete: %s)", v->model_cut);
    fputs("\n\n", out);
}

void verify_print_text(FILE *out, const verify_result *v)
{
    fprintf(out, "Verify %s protocol %s model %s\n", v->t->name, protocol_name(v->p), v->settings->model_name);
    print_outcomes(out, v->t, v->found.outcomes,
                   v->cut == SC_CUT_NONE ? "Protocol outcomes" : "Protocol outcomes (found before the search was cut)");
    if (v->model_outcomes)
        print_outcomes(out, v->t, v->model_outcomes, "Model outcomes");
    print_undefined(out, v);
    print_sound(out, v);
    print_unsound(out, v);
    if (v->mca)
        verify_mca_text(out, v->mca, v->t, v->found.outcomes, v->model_outcomes, v->found.witness, v->bfs);
    print_missing(out, v);
    if (v->search.stop == BFS_VIOLATION) {
        fprintf(out, "Violation invariant %s\n", v->search.violated);
        print_trace(out, v, v->search.violation_index);
    }
    for (int i = 0; i < v->search.deadlocks_kept; i++) {
        fprintf(out, "Violation deadlock (%" PRIu64 " deadlock states in all)\n", v->search.deadlocks);
        print_trace(out, v, v->search.deadlock_index[i]);
        print_stuck(out, v, v->search.deadlock_index[i]);
    }
    for (int i = 0; i < v->nunhandled && i < VERIFY_MAX_UNHANDLED; i++) {
        fprintf(out, "Violation unhandled: controller %s in state %s has no row for %s\n",
                v->unhandled[i].controller, v->unhandled[i].state, v->unhandled[i].event);
        print_trace(out, v, v->unhandled_at[i]);
    }
    print_value_notes(out, v);
    verify_live_text(out, &v->live, v->bfs, v->inst, v->settings->trace);
    fprintf(out, "symmetry: %s\n", v->symmetry_note ? v->symmetry_note : "off");
    bfs_print_stats(&v->search, out);
    fprintf(out, "state bits: %d (%d bytes)\n", proto_state_bits(v->inst), (proto_state_bits(v->inst) + 7) / 8);
    print_result(out, v);
}

