/* schedule/sched.c: the occupancy bound and the partial context switch in
 * front of an nsi_model (see schedule/sched.h). */
#include "schedule/sched.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CTAS 64
#define MAX_STATE_BYTES 16384

enum { CTA_PENDING, CTA_RESIDENT, CTA_SWAPPED };

struct sched_model {
    const nsi_model *in;
    const nsi_fairness *isc;
    sched_gpu gpu;
    sched_options o;
    int nthreads, ncta;
    int *thread_cta;              /* per thread */
    int cta_gpu[MAX_CTAS];
    int cta_rank[MAX_CTAS];       /* its place among its GPU's CTAs (CTA order) */
    size_t inner_bytes;
    nsi_model model;
    nsi_fairness fairness;
};

/* ---- CTAs in a state ---------------------------------------------------------- */

typedef struct cta_view {
    bool finished[MAX_CTAS];      /* every thread done */
    bool waiting[MAX_CTAS];       /* unfinished, every unfinished thread waits */
    uint8_t status[MAX_CTAS];     /* CTA_*; finished CTAs keep the status they had */
} cta_view;

static void view_threads(const sched_model *s, const uint8_t *state, cta_view *v)
{
    for (int c = 0; c < s->ncta; c++)
        v->finished[c] = v->waiting[c] = true;
    for (int t = 0; t < s->nthreads; t++) {
        int c = s->thread_cta[t];
        if (s->isc->thread_done(s->in->ctx, state, t))
            continue;
        v->finished[c] = false;
        v->waiting[c] &= s->gpu.thread_waiting(s->gpu.ctx, state, t);
    }
    for (int c = 0; c < s->ncta; c++)
        v->waiting[c] &= !v->finished[c];
}

static int resident_count(const sched_model *s, const cta_view *v, int gpu)
{
    int n = 0;
    for (int c = 0; c < s->ncta; c++)
        n += s->cta_gpu[c] == gpu && v->status[c] == CTA_RESIDENT && !v->finished[c];
    return n;
}

/* Without preemption: per GPU the first N + F CTAs are dispatched (F: the
 * finished ones). */
static void derive_status(const sched_model *s, cta_view *v)
{
    int done[MAX_CTAS] = {0};
    for (int c = 0; c < s->ncta; c++)
        done[s->cta_gpu[c]] += v->finished[c];
    for (int c = 0; c < s->ncta; c++)
        v->status[c] = s->cta_rank[c] < s->o.occupancy + done[s->cta_gpu[c]] ? CTA_RESIDENT : CTA_PENDING;
}

/* Fills free slots: never-dispatched CTAs first, then swapped-out ones that
 * are ready, each in CTA order.  Returns a bit per CTA dispatched. */
static uint64_t dispatch(const sched_model *s, cta_view *v)
{
    uint64_t in = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < s->ncta; c++) {
            bool candidate = pass == 0 ? v->status[c] == CTA_PENDING
                                       : v->status[c] == CTA_SWAPPED && !v->waiting[c] && !v->finished[c];
            if (candidate && resident_count(s, v, s->cta_gpu[c]) < s->o.occupancy) {
                v->status[c] = CTA_RESIDENT;
                in |= (uint64_t)1 << c;
            }
        }
    return in;
}

static bool pending_on(const sched_model *s, const cta_view *v, int gpu)
{
    for (int c = 0; c < s->ncta; c++)
        if (s->cta_gpu[c] == gpu && !v->finished[c] &&
            (v->status[c] == CTA_PENDING || (v->status[c] == CTA_SWAPPED && !v->waiting[c])))
            return true;
    return false;
}

static void read_view(const sched_model *s, const uint8_t *state, cta_view *v)
{
    view_threads(s, state, v);
    if (s->o.preempt)
        memcpy(v->status, state + s->inner_bytes, (size_t)s->ncta);
    else
        derive_status(s, v);
}

/* ---- the wrapped model ----------------------------------------------------------- */

static void initial(void *ctx, uint8_t *state)
{
    sched_model *s = ctx;
    s->in->initial(s->in->ctx, state);
    if (!s->o.preempt)
        return;
    cta_view v;
    view_threads(s, state, &v);
    memset(v.status, CTA_PENDING, sizeof v.status);
    dispatch(s, &v);
    memcpy(state + s->inner_bytes, v.status, (size_t)s->ncta);
}

typedef struct emit_ctx {
    sched_model *s;
    const cta_view *before;
    nsi_emit emit;
    void *cb_ctx;
    int count;
    uint8_t *buf;
} emit_ctx;

/* An inner successor: kept when its rule is a resident CTA's thread's or
 * the hardware's; with preemption, the statuses follow (a finished CTA
 * frees its slot). */
static void on_inner(void *vctx, const uint8_t *next, int rule)
{
    emit_ctx *e = vctx;
    sched_model *s = e->s;
    int unit = s->isc->rule_unit(s->in->ctx, rule);
    if (unit >= 0 && unit < s->nthreads && e->before->status[s->thread_cta[unit]] != CTA_RESIDENT)
        return;
    if (!s->o.preempt) {
        e->emit(e->cb_ctx, next, rule);
        e->count++;
        return;
    }
    memcpy(e->buf, next, s->inner_bytes);
    cta_view v;
    view_threads(s, next, &v);
    memcpy(v.status, e->before->status, sizeof v.status);
    dispatch(s, &v);
    memcpy(e->buf + s->inner_bytes, v.status, (size_t)s->ncta);
    e->emit(e->cb_ctx, e->buf, rule);
    e->count++;
}

/* Preempt CTA c: it waits, its GPU has no free slot and a CTA pending. */
static void preempt_successors(sched_model *s, const uint8_t *state, const cta_view *v, emit_ctx *e)
{
    for (int c = 0; c < s->ncta; c++) {
        int gpu = s->cta_gpu[c];
        if (v->status[c] != CTA_RESIDENT || !v->waiting[c] || resident_count(s, v, gpu) < s->o.occupancy ||
            !pending_on(s, v, gpu))
            continue;
        cta_view w = *v;
        w.status[c] = CTA_SWAPPED;
        dispatch(s, &w);
        memcpy(e->buf, state, s->inner_bytes);
        memcpy(e->buf + s->inner_bytes, w.status, (size_t)s->ncta);
        e->emit(e->cb_ctx, e->buf, s->in->nrules + c);
        e->count++;
    }
}

static int successors(void *ctx, const uint8_t *state, nsi_emit emit, void *cb_ctx)
{
    sched_model *s = ctx;
    cta_view v;
    read_view(s, state, &v);
    uint8_t buf[MAX_STATE_BYTES];
    emit_ctx e = {s, &v, emit, cb_ctx, 0, buf};
    s->in->successors(s->in->ctx, state, on_inner, &e);
    if (s->o.preempt)
        preempt_successors(s, state, &v, &e);
    return e.count;
}

static bool is_final(void *ctx, const uint8_t *state)
{
    sched_model *s = ctx;
    return s->in->is_final && s->in->is_final(s->in->ctx, state);
}

static const char *violated(void *ctx, const uint8_t *state)
{
    sched_model *s = ctx;
    return s->in->violated ? s->in->violated(s->in->ctx, state) : NULL;
}

static void print_ctas(const sched_model *s, uint64_t set, FILE *out)
{
    bool first = true;
    for (int c = 0; c < s->ncta; c++) {
        if (!(set >> c & 1))
            continue;
        fprintf(out, "%s", first ? "" : ", ");
        first = false;
        for (int t = 0; t < s->nthreads; t++)
            if (s->thread_cta[t] == c) {
                fputs("CTA of ", out);
                s->isc->unit_name(s->in->ctx, t, out);
                break;
            }
    }
}

/* The inner step's line, then what the scheduler did with it. */
static void describe(void *ctx, const uint8_t *state, int rule, const uint8_t *next, FILE *out)
{
    sched_model *s = ctx;
    uint64_t in = 0;
    if (rule >= s->in->nrules) {
        fputs("scheduler: preempt ", out);
        print_ctas(s, (uint64_t)1 << (rule - s->in->nrules), out);
        fputs(" (all its threads wait)", out);
    } else {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = s->in->describe ? open_memstream(&text, &len) : NULL;
        if (mem) {
            s->in->describe(s->in->ctx, state, rule, next, mem);
            fclose(mem);
            while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
                text[--len] = '\0';
            fputs(text, out);
        } else {
            fprintf(out, "rule %d", rule);
        }
        free(text);
    }
    cta_view a, b;
    read_view(s, state, &a);
    read_view(s, next, &b);
    for (int c = 0; c < s->ncta; c++)
        if (a.status[c] != CTA_RESIDENT && b.status[c] == CTA_RESIDENT)
            in |= (uint64_t)1 << c;
    if (in) {
        fputs("; dispatch ", out);
        print_ctas(s, in, out);
    }
}

bool sched_step_of(const sched_model *s, int rule, sched_step *out)
{
    if (rule < s->in->nrules)
        return false;
    out->who = "scheduler";
    out->event = "preempt";
    out->note = "the partial context switch swaps out a CTA whose threads all wait";
    return true;
}

/* ---- units -------------------------------------------------------------------------- */

static int rule_unit(void *ctx, int rule)
{
    sched_model *s = ctx;
    if (rule >= s->in->nrules)
        return s->isc->nunits;
    return s->isc->rule_unit(s->in->ctx, rule);
}

static void unit_name(void *ctx, int unit, FILE *out)
{
    sched_model *s = ctx;
    if (unit == s->isc->nunits)
        fputs("scheduler", out);
    else
        s->isc->unit_name(s->in->ctx, unit, out);
}

static bool thread_done(void *ctx, const uint8_t *state, int t)
{
    sched_model *s = ctx;
    return s->isc->thread_done(s->in->ctx, state, t);
}

static bool thread_progress(void *ctx, const uint8_t *state, int t)
{
    sched_model *s = ctx;
    return s->isc->thread_progress && s->isc->thread_progress(s->in->ctx, state, t);
}

/* ---- building it ------------------------------------------------------------------ */

/* CTAs numbered densely in their order, ranked per GPU. */
static bool place_ctas(sched_model *s)
{
    int id_of[MAX_CTAS], gpu_id[MAX_CTAS], ngpu = 0;
    int ids = 0;
    for (int t = 0; t < s->nthreads; t++) {
        int gpu, c = s->gpu.thread_cta(s->gpu.ctx, t, &gpu);
        int k = 0;
        while (k < ids && id_of[k] != c)
            k++;
        if (k == ids) {
            if (ids == MAX_CTAS)
                return false;
            id_of[ids++] = c;
            int g = 0;
            while (g < ngpu && gpu_id[g] != gpu)
                g++;
            if (g == ngpu)
                gpu_id[ngpu++] = gpu;
            s->cta_gpu[k] = g;
        }
        s->thread_cta[t] = k;
    }
    /* CTA order is the inner model's numbering */
    for (int a = 0; a < ids; a++) {
        s->cta_rank[a] = 0;
        for (int b = 0; b < ids; b++)
            s->cta_rank[a] += s->cta_gpu[b] == s->cta_gpu[a] && id_of[b] < id_of[a];
    }
    s->ncta = ids;
    return true;
}

sched_model *sched_wrap(const nsi_model *inner, const sched_gpu *gpu, const sched_options *o)
{
    const nsi_fairness *isc = inner->fairness;
    if (!isc || !gpu->thread_cta || !gpu->thread_waiting || (o->preempt && !gpu->preempt) || o->occupancy < 1)
        return NULL;
    sched_model *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->in = inner;
    s->isc = isc;
    s->gpu = *gpu;
    s->o = *o;
    s->nthreads = isc->nthreads;
    s->thread_cta = calloc((size_t)(s->nthreads ? s->nthreads : 1), sizeof *s->thread_cta);
    s->inner_bytes = inner->state_bytes;
    if (!s->thread_cta || !place_ctas(s) ||
        inner->state_bytes + (size_t)s->ncta > MAX_STATE_BYTES ||
        inner->nrules + s->ncta > NSI_MAX_RULES) {
        sched_free(s);
        return NULL;
    }
    s->fairness = (nsi_fairness){s->nthreads, isc->nunits + (o->preempt ? 1 : 0), rule_unit, unit_name,
                                 thread_done, thread_progress};
    s->model = (nsi_model){s, inner->state_bytes + (o->preempt ? (size_t)s->ncta : 0),
                           inner->nrules + (o->preempt ? s->ncta : 0), initial, successors, is_final,
                           violated, describe, &s->fairness, NULL};
    return s;
}

const nsi_model *sched_nsi(const sched_model *s) { return &s->model; }

void sched_free(sched_model *s)
{
    if (!s)
        return;
    free(s->thread_cta);
    free(s);
}
