/* verify/print_json.c: verify's report as one JSON object per test (see
 * verify/verify.h). */
#include <inttypes.h>
#include <string.h>

#include "protocol/symmetry.h"
#include "report/report.h"
#include "verify/trace_json.h"
#include "search/prob_store.h"
#include "verify/verify.h"

static void json_outcomes(FILE *out, const litmus_test *t, outcome_set *set)
{
    int count = outcome_count(set);
    const lit_value *sorted = outcome_sorted(set);
    fputc('[', out);
    for (int i = 0; i < count; i++) {
        if (i)
            fputc(',', out);
        report_json_state(out, t, &sorted[(size_t)i * (size_t)t->nobserved]);
    }
    fputc(']', out);
}

/* The trace as a JSON list of step objects (verify/trace_json.h). */
static void json_trace_to(FILE *out, const verify_result *v, uint32_t index, const lit_value *want)
{
    fputs("\"trace\":", out);
    bfs_path *p = verify_trace_path(v, index, want);
    trace_json_path(out, bfs_model(v->bfs), v->inst, v->live.sched, p);    /* the scheduler's text, with --occupancy */
    bfs_path_free(p);
}

static void json_trace(FILE *out, const verify_result *v, uint32_t index)
{
    json_trace_to(out, v, index, NULL);
}

static void json_item(FILE *out, bool *first, const char *kind, const char *key)
{
    fprintf(out, "%s{\"kind\":\"%s\",\"%s\":", *first ? "" : ",", kind, key);
    *first = false;
}

static void json_unsound(FILE *out, const verify_result *v, bool *first)
{
    int width = v->t->nobserved;
    const lit_value *mine = outcome_values(v->found.outcomes);
    for (int i = 0; i < outcome_count(v->found.outcomes); i++) {
        const lit_value *state = &mine[(size_t)i * (size_t)width];
        if (verify_classify_outcome(v, state) != VERIFY_OUTCOME_UNSOUND)
            continue;
        json_item(out, first, "unsound", "outcome");
        report_json_state(out, v->t, state);
        fputc(',', out);
        json_trace_to(out, v, v->found.witness[i], state);
        fputc('}', out);
    }
}

static void json_missing(FILE *out, const verify_result *v, bool *first)
{
    const lit_value *state;
    for (int i = 0; (state = verify_next_missing(v, &i)); i++) {
        json_item(out, first, "missing", "outcome");
        report_json_state(out, v->t, state);
        fputs(",\"execution\":", out);
        const char *why = witness_text(v->missing_why, state);
        if (why)
            report_json_string(out, why);
        else
            fputs("null", out);
        fputc('}', out);
    }
}

static void json_unhandled(FILE *out, const verify_result *v, bool *first)
{
    for (int i = 0; i < v->nunhandled && i < VERIFY_MAX_UNHANDLED; i++) {
        json_item(out, first, "unhandled", "controller");
        report_json_string(out, v->unhandled[i].controller);
        fputs(",\"state\":", out);
        report_json_string(out, v->unhandled[i].state);
        fputs(",\"event\":", out);
        report_json_string(out, v->unhandled[i].event);
        fputc(',', out);
        json_trace(out, v, v->unhandled_at[i]);
        fputc('}', out);
    }
}

static void json_violations(FILE *out, const verify_result *v)
{
    bool first = true;
    fputs(",\"violations\":[", out);
    json_unsound(out, v, &first);
    json_missing(out, v, &first);
    if (v->search.stop == BFS_VIOLATION) {
        json_item(out, &first, "invariant", "name");
        report_json_string(out, v->search.violated);
        fputc(',', out);
        json_trace(out, v, v->search.violation_index);
        fputc('}', out);
    }
    json_unhandled(out, v, &first);
    fputc(']', out);
}

/* Every option that changes a result, so that a JSON line says how it
 * was obtained. */
static void json_options(FILE *out, const verify_result *v)
{
    const verify_settings *s = v->settings;
    fputs(",\"options\":{\"model\":", out);
    report_json_string(out, v->settings->model_name);
    fprintf(out, ",\"unroll\":%d,\"net\":\"%s\",\"const\":{", s->unroll,
            s->proto.net == PROTO_NET_FIFO ? "fifo" : s->proto.net == PROTO_NET_UNORDERED ? "unordered" : "as-declared");
    for (int i = 0; i < s->proto.noverrides; i++) {
        if (i)
            fputc(',', out);
        report_json_string(out, s->proto.override_name[i]);
        fprintf(out, ":%ld", s->proto.override_value[i]);
    }
    long lo, hi;
    proto_value_range(v->inst, &lo, &hi);
    fprintf(out, "},\"value_range\":[%ld,%ld],\"value_range_from\":\"%s\"", lo, hi,
            proto_values_derived(v->inst) ? "test" : "protocol");
    fprintf(out, ",\"complete_outcomes\":%s,\"store\":\"%s\"", s->complete ? "true" : "false",
            vs_kind_name(s->bfs.store));
    fputs(",\"max_states\":", out);
    if (s->bfs.max_states)
        fprintf(out, "%" PRIu64, s->bfs.max_states);
    else
        fputs("null", out);
    fputs(",\"max_memory\":", out);
    if (s->bfs.max_memory)
        fprintf(out, "%zu", s->bfs.max_memory);
    else
        fputs("null", out);
    fputs(",\"timeout\":", out);
    if (s->bfs.timeout_s > 0)
        fprintf(out, "%g", s->bfs.timeout_s);
    else
        fputs("null", out);
    static const char *const sym_words[] = {"off", "auto", "on"};
    fprintf(out, ",\"symmetry\":\"%s\"}", sym_words[s->symmetry]);
}

/* Whether the search stored one state per symmetry orbit (its counts are
 * then of orbits), the group or why none was used. */
static void json_symmetry(FILE *out, const verify_result *v)
{
    fprintf(out, ",\"symmetry\":{\"used\":%s,\"permutations\":%d,\"note\":", v->symmetry_used ? "true" : "false",
            v->symmetry_used ? proto_symmetry_order(v->inst) : 1);
    report_json_string(out, v->symmetry_note ? v->symmetry_note : "off");
    fputc('}', out);
}

/* Which test, and the verdict's words. */
static void json_verdict(FILE *out, const verify_result *v)
{
    fputs("{\"test\":", out);
    report_json_string(out, v->t->name);
    fputs(",\"file\":", out);
    report_json_string(out, v->t->file);
    fputs(",\"protocol\":", out);
    report_json_string(out, protocol_name(v->p));
    fputs(",\"model\":", out);
    report_json_string(out, v->settings->model_name);
    fprintf(out, ",\"result\":\"%s\",\"sound\":%s,\"complete\":%s", verify_result_word(v), verify_sound_json(v),
            v->cut == SC_CUT_NONE && !v->model_cut ? "true" : "false");
    if (v->cut != SC_CUT_NONE)
        fprintf(out, ",\"incomplete\":\"%s\"", sc_cut_name(v->cut));
    else if (v->model_cut)
        fprintf(out, ",\"incomplete\":\"%s\"", v->model_cut);
    if (v->model_cut)
        fprintf(out, ",\"model_incomplete\":\"%s\"", v->model_cut);
    fprintf(out, ",\"undefined\":%s,\"value_overflow\":%s,\"value_wrapped\":%s", v->undefined ? "true" : "false",
            v->overflow ? "true" : "false", proto_value_wrapped(v->inst) ? "true" : "false");
    if (v->m)
        report_flags_json(out, v->t, &v->model, v->m, v->undefined);
    else
        fputs(",\"flags\":[]", out);
}

static void json_stats(FILE *out, const verify_result *v)
{
    const bfs_result *s = &v->search;
    fprintf(out,
            ",\"stats\":{\"stop\":\"%s\",\"states\":%" PRIu64 ",\"transitions\":%" PRIu64
            ",\"depth\":%u,\"seconds\":%.4f,\"states_per_s\":%.0f,\"bytes_per_state\":%.1f"
            ",\"peak_rss\":%zu,\"deadlock_states\":%" PRIu64 ",\"state_bits\":%d",
            bfs_stop_name(s->stop), s->states, s->transitions, s->depth, s->seconds, s->states_per_s,
            s->bytes_per_state, s->peak_rss, s->deadlocks, proto_state_bits(v->inst));
    fprintf(out, ",\"threads\":%d,\"store\":\"%s\",\"store_peak_bytes\":%zu", s->threads, vs_kind_name(s->store),
            s->store_peak_bytes);
    if (s->store == VISITED_BITSTATE)
        fprintf(out, ",\"probabilistic\":{\"expected_missed_states\":%.6g,\"bits\":%" PRIu64 ",\"bits_per_state\":%d}",
                s->omission, s->bitstate_bits, PB_BITSTATE_K);
    else if (s->probabilistic)
        fprintf(out, ",\"probabilistic\":{\"miss_probability_bound\":%.6g}", s->omission);
    fputs("}}\n", out);
}

void verify_print_json(FILE *out, const verify_result *v)
{
    json_verdict(out, v);
    json_options(out, v);
    json_symmetry(out, v);
    fputs(",\"protocol_outcomes\":", out);
    json_outcomes(out, v->t, v->found.outcomes);
    fputs(",\"model_outcomes\":", out);
    if (v->model_outcomes)
        json_outcomes(out, v->t, v->model_outcomes);
    else
        fputs("null", out);
    fputs(",\"deadlocks\":[", out);
    for (int i = 0; i < v->search.deadlocks_kept; i++) {
        fputs(i ? ",{" : "{", out);
        json_trace(out, v, v->search.deadlock_index[i]);
        fputc('}', out);
    }
    fputc(']', out);
    json_violations(out, v);
    verify_live_json(out, &v->live, v->bfs);
    if (v->mca)
        verify_mca_json(out, v->mca, v->t, v->found.outcomes, v->model_outcomes, v->found.witness, v->bfs);
    if (v->cut == SC_CUT_NONE && !v->undefined && v->model_outcomes)
        fprintf(out, ",\"unobserved\":%d", v->unobserved);
    else
        fputs(",\"unobserved\":null", out);
    json_stats(out, v);
}
