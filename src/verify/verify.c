/* verify/verify.c: the verification pipeline (see verify/verify.h). */
#include "verify/verify.h"

#include <gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "protocol/runnable.h"
#include "search/par_bfs.h"
#include "protocol/symmetry.h"
#include "verify/limit_args.h"
#include "verify/model_outcomes.h"
#include "verify/value_range.h"

void verify_settings_default(verify_settings *s)
{
    memset(s, 0, sizeof *s);
    schedule_defaults(&s->sched);
    s->model_name = "ptx6";
    s->unroll = ENUM_DEFAULT_UNROLL;
    s->progress_every_s = PROGRESS_DEFAULT_EVERY_S;
    s->bfs.threads = par_bfs_cores();
}

/* ---- collecting outcomes ----------------------------------------------- */

void verify_collector_init(verify_collector *c, const proto_instance *inst, int width)
{
    *c = (verify_collector){.inst = inst, .outcomes = outcome_set_new(width)};
    c->scratch = GC_MALLOC_ATOMIC(sizeof *c->scratch * (size_t)(width ? width : 1));
}

bool verify_symmetry_parse(const char *text, verify_symmetry *out)
{
    if (strcmp(text, "off") == 0)
        *out = VERIFY_SYMMETRY_OFF;
    else if (strcmp(text, "auto") == 0)
        *out = VERIFY_SYMMETRY_AUTO;
    else if (strcmp(text, "on") == 0)
        *out = VERIFY_SYMMETRY_ON;
    else
        return false;
    return true;
}

/* One final outcome; the first state that reaches it is its witness. */
static void collect(verify_collector *c, const lit_value *values, uint32_t index)
{
    int before = outcome_count(c->outcomes);
    int i = outcome_add(c->outcomes, values);
    if (i < before)
        return;
    if (i == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        uint32_t *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)c->cap);
        if (i)
            memcpy(grown, c->witness, sizeof *grown * (size_t)i);
        c->witness = grown;
    }
    c->witness[i] = index;
}

typedef struct orbit_ctx { verify_collector *c; uint32_t index; } orbit_ctx;

static void collect_orbit(void *ctx, int g, const lit_value *values)
{
    (void)g;
    orbit_ctx *o = ctx;
    collect(o->c, values, o->index);
}

/* With symmetry reduction a stored final state stands for its orbit: the
 * litmus condition names threads, and permuting identical threads
 * permutes which of them holds which values, so every state of the orbit
 * gives its own outcome. */
void verify_on_final(void *ctx, const uint8_t *state, uint32_t index)
{
    verify_collector *c = ctx;
    if (proto_symmetry_active(c->inst)) {
        orbit_ctx o = {c, index};
        proto_symmetry_orbit_values(c->inst, state, collect_orbit, &o);
        return;
    }
    proto_final_values(c->inst, state, c->scratch);
    collect(c, c->scratch, index);
}

/* ---- traces -------------------------------------------------------------------- */

typedef struct want_ctx { const lit_value *want; int width, g; } want_ctx;

static void find_values(void *ctx, int g, const lit_value *values)
{
    want_ctx *w = ctx;
    if (w->g < 0 && memcmp(values, w->want, sizeof *values * (size_t)w->width) == 0)
        w->g = g;
}

/* The group element that takes `last` to `stored` (want NULL) or to a
 * state with final values `want`; -1 when none does. */
static int element_for(const verify_result *v, const uint8_t *last, const uint8_t *stored, const lit_value *want,
                       uint8_t *tmp)
{
    if (want) {
        want_ctx w = {want, v->t->nobserved, -1};
        proto_symmetry_orbit_values(v->inst, last, find_values, &w);
        return w.g;
    }
    size_t sb = bfs_model(v->bfs)->state_bytes;
    for (int g = 0; g < proto_symmetry_order(v->inst); g++) {
        proto_symmetry_apply(v->inst, g, last, tmp);
        if (memcmp(tmp, stored, sb) == 0)
            return g;
    }
    return -1;
}

bfs_path *verify_trace_path(const verify_result *v, uint32_t index, const lit_value *want)
{
    bfs_path *p = bfs_path_to(v->bfs, index);
    if (!p || !v->symmetry_used)
        return p;
    uint8_t *tmp = malloc(2 * p->state_bytes);     /* scratch, then the stored state */
    const uint8_t *stored = tmp ? bfs_state(v->bfs, index, tmp + p->state_bytes) : NULL;
    int g = stored ? element_for(v, bfs_path_state(p, p->len - 1), stored, want, tmp) : -1;
    if (g > 0) {
        for (size_t k = 0; k < p->len; k++) {
            proto_symmetry_apply(v->inst, g, bfs_path_state(p, k), tmp);
            memcpy(p->states + k * p->state_bytes, tmp, p->state_bytes);
        }
        if (!bfs_path_rerule(bfs_model(v->bfs), p)) {
            bfs_path_free(p);
            p = NULL;
        }
    }
    free(tmp);
    return p;
}

/* ---- binding the test to the protocol -------------------------------------- */

/* The protocol bound to the test, with the value range the test needs
 * unless a --const of the value constant sets it (the test's own range
 * needs its paths up to --unroll, too many for some spin loops). */
static proto_instance *bind(verify_result *v, const char *path, FILE *err)
{
    const verify_settings *s = v->settings;
    if (!proto_test_runnable(v->t, path, err))
        return NULL;
    proto_options po = s->proto;
    enum_options range_limits = {.unroll = s->unroll, .stop = s->bfs.stop,
                                 .timeout_s = limit_seconds_left(s->bfs.timeout_s, v->start),
                                 .max_memory = s->bfs.max_memory};
    if (!proto_value_range_overridden(v->p, &po) && !test_value_range(v->t, &range_limits, &po, err))
        return NULL;
    v->bound = po;
    return proto_instantiate(v->p, v->t, &v->bound, err);
}

int verify_prepare(const verify_settings *s, const litmus_test *t, const char *path, const protocol *p,
                   const cat_model *m, cat_workspace *ws, verify_result *v, FILE *err)
{
    memset(v, 0, sizeof *v);
    *v = (verify_result){.settings = s, .t = t, .p = p, .m = m, .start = clock_now(), .mca = s->mca};
    proto_instance *inst = bind(v, path, err);
    if (!inst)
        return SC_STATUS_UNUSABLE;
    v->inst = inst;
    verify_collector_init(&v->found, inst, t->nobserved);
    if (!verify_model_outcomes(v, ws, err) || !verify_fit_model_outcomes(v, path, err))
        return SC_STATUS_UNUSABLE;
    if (v->model.interrupted) {
        fprintf(err, "%s: interrupted while the model's outcomes were computed; not checked\n", path);
        return SC_STATUS_INCOMPLETE;
    }
    return SC_STATUS_OK;
}

/* ---- where unhandled events happen ------------------------------------------ */

static void ignore_successor(void *ctx, const uint8_t *next, int rule)
{
    (void)ctx, (void)next, (void)rule;
}

/* The interpreter only lists the unhandled (state, event) pairs.  To give
 * each a shortest trace, a fresh instance of the protocol (with an empty
 * list) re-expands the stored states in BFS order until it has met them
 * all: the first state that meets a pair is one of the shallowest. */
static void locate_unhandled(verify_result *v, const proto_options *po)
{
    int n = v->nunhandled < VERIFY_MAX_UNHANDLED ? v->nunhandled : VERIFY_MAX_UNHANDLED;
    if (n == 0)
        return;
    proto_instance *fresh = proto_instantiate(v->p, v->t, po, stderr);
    if (!fresh)
        return;
    const nsi_model *m = proto_nsi(fresh);
    uint8_t *buf = malloc(bfs_model(v->bfs)->state_bytes);   /* the searched model's (maybe scheduled) states */
    if (!buf)
        return;
    int seen = 0;
    proto_unhandled_pair found[VERIFY_MAX_UNHANDLED];
    for (uint32_t i = 0; i < bfs_count(v->bfs) && seen < n; i++) {
        m->successors(m->ctx, bfs_state(v->bfs, i, buf), ignore_successor, NULL);
        int now = proto_unhandled(fresh, found, VERIFY_MAX_UNHANDLED);
        for (int k = seen; k < now && k < VERIFY_MAX_UNHANDLED; k++) {
            v->unhandled[k] = found[k];
            v->unhandled_at[k] = i;
        }
        seen = now;
    }
    free(buf);
    v->nunhandled = seen < n ? seen : n;
}

/* bfs on_expanded, with a probabilistic store (which cannot give states
 * back for locate_unhandled): the unhandled pairs the expansion of state
 * `index` added first appeared there, the shallowest such state (BFS). */
static void note_unhandled(void *ctx, uint32_t index)
{
    verify_result *v = ctx;
    int now = proto_unhandled(v->inst, NULL, 0);
    for (int k = v->unhandled_noted; k < now && k < VERIFY_MAX_UNHANDLED; k++)
        v->unhandled_at[k] = index;
    v->unhandled_noted = now;
}

/* ---- the search ---------------------------------------------------------------- */

/* The write-atomicity reference's outcomes (another model), when asked. */
static bool mca_outcomes(verify_result *v, FILE *err)
{
    if (!v->mca)
        return true;
    long lo, hi;
    bool wraps = proto_value_range(v->inst, &lo, &hi);
    enum_options limits = verify_model_enum_options(v->settings, v->m, v->start);
    return verify_mca_outcomes(v->mca, v->t, &limits, lo, hi, wraps, err);
}

static bfs_options search_options(verify_result *v, FILE *err)
{
    const verify_settings *s = v->settings;
    bfs_options bo = s->bfs;
    bo.timeout_s = limit_seconds_left(s->bfs.timeout_s, v->start);
    bo.on_final = verify_on_final;
    bo.final_ctx = &v->found;
    if (vs_kind_probabilistic(bo.store)) {
        bo.on_expanded = note_unhandled;
        bo.expanded_ctx = v;
    }
    v->sink = (progress_sink){err, v->t->name};
    if (progress_wanted(s->progress, err)) {
        bo.progress = progress_print;
        bo.progress_ctx = &v->sink;
        bo.progress_every_s = s->progress_every_s;
    }
    return bo;
}

static void search_failed(const verify_result *v, const char *path, FILE *err)
{
    if (v->search.stop == BFS_BAD_MODEL)
        fprintf(err, "%s: error: the search could not start (%s)\n", path, bfs_stop_name(v->search.stop));
    else if (v->settings->bfs.max_memory)
        fprintf(err, "scopecheck verify: error: --max-memory %zu bytes is too small for the search "
                "to store its first state\n", v->settings->bfs.max_memory);
    else
        fprintf(err, "scopecheck verify: error: out of memory before the search of %s could start\n", path);
}

/* Whether to reduce by symmetry, and the report's note on it: only where
 * every check of this run reads states up to a permutation of CUs
 * (liveness needs the concrete graph's cycles and fairness units, the
 * scheduler's wrapper has its own state, write atomicity prints witnesses
 * from the unreduced outcome set), and the analysis shows it sound. */
static void choose_symmetry(verify_result *v)
{
    const verify_settings *s = v->settings;
    const schedule_opts *so = &s->sched;
    const char *why = s->symmetry == VERIFY_SYMMETRY_OFF ? "--symmetry off"
                    : so->liveness ? "not with --liveness"
                    : so->occupancy > 0 || so->preempt ? "not with --occupancy or --preempt"
                    : s->mca ? "not with --write-atomicity" : NULL;
    const char *note = NULL;
    if (!why && proto_symmetry_find(v->inst, &note)) {
        proto_symmetry_enable(v->inst);
        v->symmetry_used = true;
        v->symmetry_note = note;
        return;
    }
    char *text = GC_MALLOC_ATOMIC(768);
    snprintf(text, 768, "off (%s)", why ? why : note ? note : "no symmetry found");
    v->symmetry_note = text;
}

static bool search(verify_result *v, const char *path, FILE *err)
{
    choose_symmetry(v);
    bfs_options bo = search_options(v, err);
    const nsi_model *model =
        verify_live_prepare(&v->live, &v->settings->sched, v->inst, protocol_name(v->p), &bo, err);
    if (!model)
        return false;
    v->bfs = bfs_run(model, &bo, &v->search);
    if (!v->bfs) {
        verify_live_free(&v->live);
        search_failed(v, path, err);
        return false;
    }
    v->searched = true;
    return true;
}

/* Everything the search found, judged. */
static void decide(verify_result *v)
{
    v->cut = verify_cut_of(v->search.stop);
    if (v->cut == SC_CUT_NONE && v->search.probabilistic)
        v->cut = SC_CUT_PROBABILISTIC;
    v->overflow = proto_value_overflow(v->inst, &v->overflow_value);
    if (v->overflow && v->cut == SC_CUT_NONE)
        v->cut = SC_CUT_VALUE_RANGE;
    verify_compare_outcomes(v);
    if (v->mca)
        verify_mca_compare(v->mca, v->found.outcomes, v->model_outcomes);
    if (v->overflow)
        verify_live_undecided(&v->live, "a step would have left the value range and was not taken");
    else
        verify_live_decide(&v->live, v->bfs, &v->search);
    v->nunhandled = proto_unhandled(v->inst, v->unhandled, VERIFY_MAX_UNHANDLED);
    if (!v->search.probabilistic)   /* else note_unhandled located them during the search */
        locate_unhandled(v, &v->bound);
}

int verify_test(const verify_settings *s, const litmus_test *t, const char *path, const protocol *p,
                const cat_model *m, cat_workspace *ws, verify_result *v, FILE *err)
{
    int status = verify_prepare(s, t, path, p, m, ws, v, err);
    if (status != SC_STATUS_OK)
        return status;
    if (!mca_outcomes(v, err) || !search(v, path, err))
        return SC_STATUS_UNUSABLE;
    decide(v);
    return verify_status(v);
}

void verify_result_release(verify_result *v)
{
    if (!v->searched)
        return;
    bfs_free(v->bfs);
    verify_live_free(&v->live);
    v->bfs = NULL;
    v->searched = false;
}
