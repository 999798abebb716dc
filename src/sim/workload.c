/* sim/workload.c: workload files and their generators (see sim/workload.h;
 * docs/simulator.md says which seed benchmark each kind stands for). */
#include "sim/workload.h"

#include <gc.h>
#include <string.h>

#include "base/arith.h"
#include "base/diag.h"
#include "sim/interp.h"
#include "sim/words.h"

/* ---- parameters ------------------------------------------------------------------- */

enum { PT_INT, PT_SCOPE };
typedef struct param_desc { const char *name; long dflt, lo, hi; int type; } param_desc;

#define MAXN (1L << 30)
static const param_desc stream_params[] = {
    {"lines", 256, 1, MAXN, PT_INT}, {"kernels", 1, 1, 1 << 20, PT_INT}, {"compute", 0, 0, 1 << 20, PT_INT},
    {"write", 1, 0, 1, PT_INT}, {"boundary", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {NULL, 0, 0, 0, 0}};
static const param_desc reuse_params[] = {
    {"lines", 64, 1, MAXN, PT_INT}, {"writes", 16, 0, MAXN, PT_INT}, {"kernels", 10, 1, 1 << 20, PT_INT},
    {"compute", 0, 0, 1 << 20, PT_INT}, {"boundary", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE},
    {NULL, 0, 0, 0, 0}};
static const param_desc prodcons_params[] = {
    {"scope", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {"lines", 8, 1, MAXN, PT_INT},
    {"rounds", 16, 1, 1 << 24, PT_INT}, {"compute", 0, 0, 1 << 20, PT_INT}, {NULL, 0, 0, 0, 0}};
static const param_desc histogram_params[] = {
    {"bins", 256, 1, MAXN, PT_INT}, {"updates", 1024, 1, MAXN, PT_INT},
    {"scope", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {"hot", 0, 0, 100, PT_INT},
    {"compute", 0, 0, 1 << 20, PT_INT}, {NULL, 0, 0, 0, 0}};
static const param_desc reduction_params[] = {
    {"chunk", 16, 1, 1 << 20, PT_INT}, {"chunks", 64, 1, MAXN, PT_INT},
    {"scope", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {"compute", 0, 0, 1 << 20, PT_INT},
    {NULL, 0, 0, 0, 0}};
static const param_desc lock_params[] = {
    {"locks", 1, 1, MAXN, PT_INT}, {"iterations", 8, 1, 1 << 24, PT_INT}, {"cs_lines", 4, 0, 1 << 16, PT_INT},
    {"scope", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {"backoff", 32, 0, 1 << 20, PT_INT},
    {"owned", 0, 0, 1, PT_INT}, {"owner_scope", SCOPE_CTA, SCOPE_CTA, SCOPE_SYS, PT_SCOPE},
    {"foreign", 10, 0, 100, PT_INT}, {"remote", 0, 0, 1, PT_INT}, {NULL, 0, 0, 0, 0}};
static const param_desc barrier_params[] = {
    {"episodes", 8, 1, 1 << 24, PT_INT}, {"work", 16, 0, 1 << 20, PT_INT},
    {"scope", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {"compute", 0, 0, 1 << 20, PT_INT},
    {NULL, 0, 0, 0, 0}};
static const param_desc worksteal_params[] = {
    {"tasks", 32, 0, 1 << 24, PT_INT}, {"task_lines", 4, 0, 1 << 16, PT_INT},
    {"owner_scope", SCOPE_CTA, SCOPE_CTA, SCOPE_SYS, PT_SCOPE},
    {"steal_scope", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {"imbalance", 100, 0, 10000, PT_INT},
    {"steal_tries", 4, 0, 1 << 16, PT_INT}, {"steal_remote", 0, 0, 1, PT_INT}, {"reads", 0, 0, 1 << 16, PT_INT},
    {"window", 64, 1, MAXN, PT_INT}, {"compute", 0, 0, 1 << 20, PT_INT}, {NULL, 0, 0, 0, 0}};
static const param_desc sharing_params[] = {
    {"kernels", 8, 1, 1 << 20, PT_INT}, {"window", 64, 1, MAXN, PT_INT}, {"reuse", 4, 1, 1 << 16, PT_INT},
    {"remote", 50, 0, 100, PT_INT}, {"writes", 8, 0, MAXN, PT_INT}, {"compute", 0, 0, 1 << 20, PT_INT},
    {"boundary", SCOPE_SYS, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {NULL, 0, 0, 0, 0}};
static const param_desc litmus_params[] = {
    {"iterations", 100, 1, 1 << 24, PT_INT}, {"copies", 1, 1, 4096, PT_INT},
    {"boundary", SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, PT_SCOPE}, {NULL, 0, 0, 0, 0}};

static const char *const kind_names[WL_KIND_COUNT] = {"stream", "reuse", "prodcons", "histogram", "reduction",
                                                      "lock", "barrier", "worksteal", "sharing", "litmus"};
static const param_desc *const kind_params[WL_KIND_COUNT] = {
    stream_params, reuse_params, prodcons_params, histogram_params, reduction_params,
    lock_params, barrier_params, worksteal_params, sharing_params, litmus_params};

const char *workload_kind_name(enum sim_wl_kind k) { return kind_names[k]; }

static int param_index(enum sim_wl_kind k, const char *name)
{
    for (int i = 0; kind_params[k][i].name; i++)
        if (!strcmp(kind_params[k][i].name, name))
            return i;
    return -1;
}

long workload_kernels(const sim_workload *w)
{
    if (w->kind == WL_LITMUS)
        return w->param[param_index(w->kind, "iterations")];
    int i = param_index(w->kind, "kernels");
    return i >= 0 ? w->param[i] : 1;
}

/* Every parameter name of every kind has a slot in w->by_name, filled
 * from the kind's table when the workload is read, so that the generators
 * (P(w, name), several per operation) read a value instead of searching
 * the table by name. */
#define PARAM_NAMES(X) X(backoff) X(bins) X(boundary) X(chunk) X(chunks) X(compute) X(copies) X(cs_lines) X(episodes) X(foreign) X(hot) X(imbalance) X(iterations) X(kernels) X(lines) X(locks) X(owned) X(owner_scope) X(reads) X(remote) X(reuse) X(rounds) X(scope) X(steal_remote) X(steal_scope) X(steal_tries) X(task_lines) X(tasks) X(updates) X(window) X(work) X(write) X(writes)
enum {
#define PN_ENUM(n) PN_##n,
    PARAM_NAMES(PN_ENUM) PN_COUNT
};
static const char *const param_name_text[] = {
#define PN_TEXT(n) #n,
    PARAM_NAMES(PN_TEXT)
};
_Static_assert(PN_COUNT <= WL_PARAM_NAMES, "WL_PARAM_NAMES is too small for the parameter names");

#define P(w, name) ((w)->by_name[PN_##name])

static void fill_by_name(sim_workload *w)
{
    for (int i = 0; kind_params[w->kind][i].name; i++)
        for (int j = 0; j < PN_COUNT; j++)
            if (!strcmp(param_name_text[j], kind_params[w->kind][i].name))
                w->by_name[j] = w->param[i];
}

/* ---- reading ------------------------------------------------------------------------ */

typedef struct wparse { sim_workload *w; const char *file; FILE *errors; bool have_kind; } wparse;

static bool werr(wparse *p, const sim_word *at, const char *fmt, const char *arg)
{
    diag_error(p->errors, p->file, at->line, at->col, fmt, arg);
    return false;
}

static bool set_kind(wparse *p, const sim_line *l)
{
    if (l->nwords != 2)
        return werr(p, &l->words[0], "expected: kind %s", "stream|reuse|prodcons|histogram|reduction|lock|barrier|worksteal|sharing|litmus");
    for (int k = 0; k < WL_KIND_COUNT; k++)
        if (!strcmp(l->words[1].text, kind_names[k])) {
            if (p->have_kind && p->w->kind != (enum sim_wl_kind)k)
                return werr(p, &l->words[1], "the kind was already set; a file has one kind ('%s')", kind_names[p->w->kind]);
            p->w->kind = (enum sim_wl_kind)k;
            p->have_kind = true;
            for (int i = 0; kind_params[k][i].name; i++)
                p->w->param[i] = kind_params[k][i].dflt;
            return true;
        }
    return werr(p, &l->words[1], "unknown workload kind '%s' (stream, reuse, prodcons, histogram, reduction, lock, "
                                 "barrier, worksteal, sharing, litmus)", l->words[1].text);
}

static bool set_param(wparse *p, const sim_line *l)
{
    const sim_word *key = &l->words[0];
    if (!p->have_kind)
        return werr(p, key, "'%s' before the workload's kind (a 'kind' line comes first)", key->text);
    if (p->w->kind == WL_LITMUS && !strcmp(key->text, "test")) {
        if (l->nwords != 2)
            return werr(p, key, "expected: test NAME%s", "");
        p->w->test = l->words[1].text;
        return true;
    }
    int i = param_index(p->w->kind, key->text);
    if (i < 0)
        return werr(p, key, "unknown parameter '%s' for this kind of workload (docs/simulator.md lists them)", key->text);
    if (l->nwords != 2)
        return werr(p, key, "expected one value after '%s'", key->text);
    const param_desc *d = &kind_params[p->w->kind][i];
    if (d->type == PT_SCOPE) {
        for (int s = SCOPE_CTA; s <= SCOPE_SYS; s++)
            if (!strcmp(l->words[1].text, vocab_scopes[s])) {
                p->w->param[i] = s;
                return true;
            }
        return werr(p, &l->words[1], "a scope is cta, gpu or sys, not '%s'", l->words[1].text);
    }
    return words_int(p->file, &l->words[1], d->lo, d->hi, &p->w->param[i], p->errors);
}

static bool parse_lines(wparse *p, const sim_text *t)
{
    p->file = t->file;
    for (int i = 0; i < t->nlines; i++) {
        const sim_line *l = &t->lines[i];
        bool ok;
        if (!strcmp(l->words[0].text, "workload"))
            ok = l->nwords == 2 ? (p->w->name = l->words[1].text, true) : werr(p, &l->words[0], "expected: workload NAME%s", "");
        else if (!strcmp(l->words[0].text, "kind"))
            ok = set_kind(p, l);
        else
            ok = set_param(p, l);
        if (!ok)
            return false;
    }
    return true;
}

sim_workload *workload_read(const char *path, const char *const *extra, int nextra, FILE *errors)
{
    sim_workload *w = GC_MALLOC(sizeof *w);
    w->path = path;
    w->name = "unnamed";
    wparse p = {w, path, errors, false};
    sim_text *t = words_read(path, errors);
    if (!t || !parse_lines(&p, t))
        return NULL;
    for (int i = 0; i < nextra; i++) {
        sim_text *x = words_text("--work", extra[i]);
        if (x->overflow) {
            p.file = x->file;
            werr(&p, x->overflow, "too many words on a line%s", "");
            return NULL;
        }
        if (!parse_lines(&p, x))
            return NULL;
    }
    if (!p.have_kind) {
        fprintf(errors, "%s: kind: missing (a workload needs a 'kind' line)\n", path);
        return NULL;
    }
    if (w->kind == WL_LITMUS && !w->test) {
        fprintf(errors, "%s: test: missing (a litmus workload names one of the tables' checked tests)\n", path);
        return NULL;
    }
    fill_by_name(w);
    return w;
}

/* ---- layout ------------------------------------------------------------------------------ */

static int cus_per_gpu_of(const sim_workload *w) { return w->ncu / w->ngpu; }

/* The line address of element i of GPU g's partition of region r (P
 * elements per partition): placed at its home when the memory is homed
 * by address modulo the GPU count (first touch), else contiguous. */
static uint64_t owned(const sim_workload *w, int r, int g, long i, long P)
{
    if (w->owner_period)
        return w->region[r] + (uint64_t)i * (uint64_t)w->owner_period + (uint64_t)g;
    return w->region[r] + (uint64_t)g * (uint64_t)P + (uint64_t)i;
}

/* Lays regions out one after another; sizes in lines. */
static void layout(sim_workload *w, const long *sizes, int n)
{
    uint64_t base = 0, align = 64 * (uint64_t)(w->owner_period ? w->owner_period : 1);
    for (int r = 0; r < n; r++) {
        w->region[r] = base;
        uint64_t span = (uint64_t)sizes[r] * (w->owner_period ? (uint64_t)w->owner_period : 1);
        base += (span + align - 1) / align * align;
    }
    w->footprint = base;
}

static void detect_owner_period(sim_workload *w, const sim_tables *t)
{
    w->owner_period = 0;
    if (t->mem_home < 0 || w->ngpu < 2)
        return;
    for (uint64_t a = 0; a < 256; a++)
        if (sim_home_of(t, t->mem_home, a) != (int64_t)(a % (uint64_t)w->ngpu))
            return;
    w->owner_period = w->ngpu;
}

static bool bind_fail(const sim_workload *w, FILE *errors, const char *param, const char *msg)
{
    fprintf(errors, "%s: %s: %s\n", w->path, param, msg);
    return false;
}

static bool bind_layout(sim_workload *w, FILE *errors)
{
    long W = w->nwarps, G = w->ngpu, C = w->ncu;
    switch (w->kind) {
    case WL_STREAM: {
        long n = P(w, lines) * W * P(w, kernels);
        layout(w, (long[]){n, n}, 2);
        break;
    }
    case WL_REUSE: layout(w, (long[]){P(w, lines) * W, P(w, writes) * W + 1}, 2); break;
    case WL_PRODCONS:
        if (P(w, scope) == SCOPE_CTA && w->warps_per_cu < 2)
            return bind_fail(w, errors, "scope", "cta-scoped pairs need 2 warps per CU");
        if (P(w, scope) == SCOPE_GPU && cus_per_gpu_of(w) < 2)
            return bind_fail(w, errors, "scope", "gpu-scoped pairs need 2 CUs per GPU");
        if (P(w, scope) == SCOPE_SYS && G < 2)
            return bind_fail(w, errors, "scope", "sys-scoped pairs need 2 GPUs");
        w->uses_values = true;
        layout(w, (long[]){P(w, lines) * W, W, W}, 3);
        break;
    case WL_HISTOGRAM: layout(w, (long[]){P(w, bins)}, 1); break;
    case WL_REDUCTION: layout(w, (long[]){P(w, chunk) * P(w, chunks) * W, 1}, 2); break;
    case WL_LOCK: {
        long locks = P(w, owned) ? C : P(w, locks);
        if (P(w, owned) && P(w, foreign) && C < 2)
            return bind_fail(w, errors, "foreign", "locks of other CUs need 2 CUs");
        w->uses_values = true;
        layout(w, (long[]){locks, locks * (P(w, cs_lines) + 1)}, 2);
        break;
    }
    case WL_BARRIER:
        w->uses_values = true;
        layout(w, (long[]){2, P(w, work) * W + 1}, 2);
        break;
    case WL_WORKSTEAL:
        w->uses_values = true;
        layout(w, (long[]){C, C * (P(w, tasks) * (1 + P(w, imbalance) / 100) + 1) * (P(w, task_lines) + 1),
                           P(w, reads) ? C * P(w, window) : 0}, 3);
        break;
    case WL_SHARING: {
        long part = P(w, window) * (W / G + 1) + P(w, writes) * P(w, kernels) + 1;
        layout(w, (long[]){part * (w->owner_period ? 1 : G)}, 1);
        break;
    }
    case WL_LITMUS: layout(w, (long[]){(long)w->program->nlocs * w->copies}, 1); break;
    case WL_KIND_COUNT: break;
    }
    return true;
}

/* A litmus program's threads on this machine: program GPU g on table GPU
 * g, the j-th CTA of a GPU (copy c) on that GPU's CU j + c * CTAs, threads
 * of one CTA on successive warps. */
typedef struct litmus_map { int *warp_of; } litmus_map;

static bool bind_litmus(sim_workload *w, const sim_tables *t, FILE *errors)
{
    w->program = sim_tables_program(t, w->test);
    if (!w->program) {
        char msg[512];
        snprintf(msg, sizeof msg, "no test '%s' among the tables' checked tests (run a litmus workload on a test "
                                  "that `scopecheck export` checked)", w->test);
        return bind_fail(w, errors, "test", msg);
    }
    w->copies = (int)P(w, copies);
    const sim_program *p = w->program;
    for (int k = 0; k < p->nthreads; k++) {
        if (p->threads[k].gpu >= w->ngpu)
            return bind_fail(w, errors, "test", "the test places a thread on a GPU this system does not have");
        if (p->threads[k].nregs > WL_MAX_REGS)
            return bind_fail(w, errors, "test", "a thread has more than 32 registers");
    }
    return true;
}

/* The CU and warp of litmus thread k of copy c, or false when they do not fit. */
static bool litmus_place(const sim_workload *w, int c, int k, int *cu, int *warp_in_cu)
{
    const sim_program *p = w->program;
    const sim_lthread *th = &p->threads[k];
    int cta_rank = 0, nctas = 0, rank_in_cta = 0;
    for (int j = 0; j < p->nthreads; j++) {     /* CTAs of th's GPU, in order of first appearance */
        const sim_lthread *u = &p->threads[j];
        bool first = u->gpu == th->gpu;
        for (int i = 0; i < j && first; i++)
            first = !(p->threads[i].gpu == u->gpu && p->threads[i].cta == u->cta);
        if (first && u->cta == th->cta)
            cta_rank = nctas;
        nctas += first;
        rank_in_cta += j < k && u->gpu == th->gpu && u->cta == th->cta;
    }
    int per_gpu = cus_per_gpu_of(w), local = cta_rank + c * nctas;
    if (local >= per_gpu || rank_in_cta >= w->warps_per_cu)
        return false;
    int found = 0;
    for (int x = 0; x < w->ncu; x++)
        if (w->cu_gpu[x] == th->gpu && found++ == local) {
            *cu = x;
            *warp_in_cu = rank_in_cta;
            return true;
        }
    return false;
}

bool workload_bind(sim_workload *w, const sim_tables *t, int ncu, int ngpu, const int *cu_gpu, int warps_per_cu,
                   FILE *errors)
{
    w->ncu = ncu;
    w->ngpu = ngpu;
    w->cu_gpu = cu_gpu;
    w->warps_per_cu = warps_per_cu;
    w->nwarps = ncu * warps_per_cu;
    w->cus_per_gpu = ncu / ngpu;
    detect_owner_period(w, t);
    if (w->kind == WL_LITMUS) {
        if (!bind_litmus(w, t, errors))
            return false;
        int cu, wi;
        for (int c = 0; c < w->copies; c++)
            for (int k = 0; k < w->program->nthreads; k++)
                if (!litmus_place(w, c, k, &cu, &wi))
                    return bind_fail(w, errors, "copies", "the copies of the test do not fit this system's CUs "
                                                          "and warps");
        w->uses_values = true;
    }
    return bind_layout(w, errors);
}

/* ---- generators --------------------------------------------------------------------------- */

static uint64_t next_random(sim_wstate *s)
{
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return s->rng * 0x2545f4914f6cdd1dull;
}

static void op_mem(sim_op *op, int kind, int order, int scope, uint64_t addr, int64_t a, bool needs)
{
    *op = (sim_op){.kind = (uint8_t)kind, .order = (uint8_t)order, .scope = (uint8_t)(order == ORD_WEAK ? 0 : scope),
                   .addr = addr, .a = a, .needs_result = needs, .rmw_has_a = true};
}

static void op_rmw(sim_op *op, int order, int scope, uint64_t addr, int rmw, int64_t a, int64_t b, bool needs)
{
    op_mem(op, OPK_RMW, order, scope, addr, a, needs);
    op->rmw = (uint8_t)rmw;
    op->b = b;
}

static void op_fence(sim_op *op, int scope) { *op = (sim_op){.kind = OPK_FENCE, .order = ORD_ACQ_REL, .scope = (uint8_t)scope}; }

static void op_compute(sim_op *op, long cycles)
{
    *op = (sim_op){.kind = OPK_COMPUTE, .cycles = (uint32_t)(cycles > 0 ? cycles : 1)};
}

static void op_simple(sim_op *op, int kind) { *op = (sim_op){.kind = (uint8_t)kind}; }

#define KERNEL_BARRIER_ID 15

static void op_cu_barrier(const sim_workload *w, sim_op *op)
{
    *op = (sim_op){.kind = OPK_CTA_BARRIER, .barrier_id = KERNEL_BARRIER_ID, .barrier_count = w->warps_per_cu};
}

/* Between kernels, as a GPU does it: the CU's warps meet, one of them
 * releases (its fence waits for every write of the CU), the kernel ends
 * for every warp of the machine, the next one starts with one acquire
 * per CU (invalidating what the scope asks), and the CU's warps meet
 * again before running.  After the last kernel, the release only.
 * Phases -1 ... -6 walk through it; false when no boundary is under
 * way.  `per_thread`: every warp fences for itself and no CU barrier is
 * used (litmus programs, whose threads occupy some warps only). */
static bool kernel_boundary_of(const sim_workload *w, sim_wstate *s, sim_op *op, long kernels, int scope,
                               bool per_thread)
{
    bool leader = per_thread || s->warp % w->warps_per_cu == 0;
    bool last = s->kernel + 1 >= kernels;
    switch (s->phase) {
    case -1:
        s->phase = -2;
        if (!per_thread) {
            op_cu_barrier(w, op);
            return true;
        }
        /* fall through */
    case -2:
        s->phase = last ? -6 : -3;
        if (leader) {
            op_fence(op, scope);
            return true;
        }
        return kernel_boundary_of(w, s, op, kernels, scope, per_thread);
    case -3:
        op_simple(op, OPK_KERNEL_END);
        s->phase = -4;
        return true;
    case -4:
        s->phase = -5;
        if (leader) {
            op_fence(op, scope);
            return true;
        }
        /* fall through */
    case -5:
        s->kernel++;
        s->phase = 0;
        s->i = s->j = 0;
        if (!per_thread) {
            op_cu_barrier(w, op);
            return true;
        }
        return false;
    case -6:
        op_simple(op, OPK_END);
        return true;
    }
    return false;
}

static bool kernel_boundary(const sim_workload *w, sim_wstate *s, sim_op *op, long kernels, int scope)
{
    return kernel_boundary_of(w, s, op, kernels, scope, false);
}

static void gen_stream(const sim_workload *w, sim_wstate *s, sim_op *op)
{
    long n = P(w, lines), k = P(w, kernels);
    if (kernel_boundary(w, s, op, k, (int)P(w, boundary)))
        return;
    uint64_t i = (uint64_t)((s->kernel * w->nwarps + s->warp) * n + s->i);
    if (s->phase == 0) {
        op_mem(op, OPK_LOAD, ORD_WEAK, 0, w->region[0] + i, 0, false);
        s->phase = P(w, compute) ? 1 : 2;
    } else if (s->phase == 1) {
        op_compute(op, P(w, compute));
        s->phase = 2;
    } else {
        if (P(w, write))
            op_mem(op, OPK_STORE, ORD_WEAK, 0, w->region[1] + i, s->i + 1, false);
        else
            op_compute(op, 1);
        s->phase = ++s->i < n ? 0 : -1;
    }
}

static void gen_reuse(const sim_workload *w, sim_wstate *s, sim_op *op)
{
    long n = P(w, lines), nw = P(w, writes);
    if (kernel_boundary(w, s, op, P(w, kernels), (int)P(w, boundary)))
        return;
    if (s->phase == 1) {
        op_compute(op, P(w, compute));
        s->phase = 0;
    } else if (s->i < n) {
        op_mem(op, OPK_LOAD, ORD_WEAK, 0, w->region[0] + (uint64_t)(s->warp * n + s->i), 0, false);
        s->i++;
        s->phase = P(w, compute) && s->i % 4 == 0 ? 1 : 0;
    } else if (s->j < nw) {
        op_mem(op, OPK_STORE, ORD_WEAK, 0, w->region[1] + (uint64_t)(s->warp * nw + s->j), s->kernel + 1, false);
        s->j++;
    } else {
        s->phase = -1;
        kernel_boundary(w, s, op, P(w, kernels), (int)P(w, boundary));
    }
}

/* Producer and consumer pairs: producers write `lines` lines, then
 * release a flag; consumers acquire the flag (spinning), read the lines,
 * then release an acknowledgement the producer acquires before its next
 * round.  The pair's placement follows the scope. */
static void prodcons_roles(const sim_workload *w, sim_wstate *s)
{
    int wpc = w->warps_per_cu, cu = s->cu, wi = s->warp % wpc, scope = (int)P(w, scope);
    int per_gpu = cus_per_gpu_of(w), lc = cu % per_gpu;
    s->role = -1;
    if (scope == SCOPE_CTA) {
        if (wi + 1 < wpc || wi % 2 == 1) {
            s->role = wi % 2;
            s->partner = s->warp + (wi % 2 ? -1 : 1);
        }
    } else if (scope == SCOPE_GPU) {
        int half = per_gpu / 2;
        if (lc < 2 * half) {
            s->role = lc >= half;
            s->partner = s->warp + (lc >= half ? -half : half) * wpc;
        }
    } else {
        int half = w->ngpu / 2;
        if (s->gpu < 2 * half) {
            s->role = s->gpu >= half;
            s->partner = s->warp + (s->gpu >= half ? -half : half) * per_gpu * wpc;
        }
    }
}

static void gen_prodcons(const sim_workload *w, sim_wstate *s, int64_t last, sim_op *op)
{
    long n = P(w, lines), rounds = P(w, rounds);
    int scope = (int)P(w, scope);
    int pair = s->role == 0 ? s->warp : s->partner;
    uint64_t data = w->region[0] + (uint64_t)(pair * n), flag = w->region[1] + (uint64_t)pair,
             ack = w->region[2] + (uint64_t)pair;
    if (s->role < 0 || s->round >= rounds) {
        op_simple(op, OPK_END);
        return;
    }
    if (s->role == 0) {                 /* producer */
        if (s->phase == 0) {            /* wait for the last round's acknowledgement */
            if (s->round > 0 && s->i > 0 && last == s->round) {
                s->phase = 1, s->i = 0;
            } else if (s->round == 0) {
                s->phase = 1;
            } else {
                op_mem(op, OPK_LOAD, ORD_ACQUIRE, scope, ack, 0, true);
                s->i = 1;
                return;
            }
        }
        if (s->phase == 1 && s->i < n) {
            op_mem(op, OPK_STORE, ORD_WEAK, 0, data + (uint64_t)s->i++, s->round + 1, false);
            return;
        }
        op_mem(op, OPK_STORE, ORD_RELEASE, scope, flag, s->round + 1, false);
        s->round++, s->phase = 0, s->i = 0;
        return;
    }
    if (s->phase == 0) {                /* consumer: spin on the flag */
        if (s->i > 0 && last == s->round + 1) {
            s->phase = 1, s->i = 0;
        } else {
            if (s->i > 0 && P(w, compute)) {
                s->i = 0;
                op_compute(op, P(w, compute));
                return;
            }
            op_mem(op, OPK_LOAD, ORD_ACQUIRE, scope, flag, 0, true);
            s->i = 1;
            return;
        }
    }
    if (s->i < n) {
        op_mem(op, OPK_LOAD, ORD_WEAK, 0, data + (uint64_t)s->i++, 0, false);
        return;
    }
    op_mem(op, OPK_STORE, ORD_RELEASE, scope, ack, s->round + 1, false);
    s->round++, s->phase = 0, s->i = 0;
}

static void gen_histogram(const sim_workload *w, sim_wstate *s, sim_op *op)
{
    long bins = P(w, bins), hot = P(w, hot);
    if (s->i >= P(w, updates)) {
        op_simple(op, OPK_END);
        return;
    }
    if (P(w, compute) && s->phase == 1) {
        op_compute(op, P(w, compute));
        s->phase = 0;
        return;
    }
    uint64_t r = next_random(s);
    long bin = (long)(r % 100) < hot ? 0 : (long)((r >> 8) % (uint64_t)bins);
    op_rmw(op, ORD_RELAXED, (int)P(w, scope), w->region[0] + (uint64_t)bin, RMW_ADD, 1, 0, false);
    s->i++;
    s->phase = 1;
}

static void gen_reduction(const sim_workload *w, sim_wstate *s, sim_op *op)
{
    long chunk = P(w, chunk), chunks = P(w, chunks);
    if (s->round >= chunks) {
        op_simple(op, OPK_END);
        return;
    }
    if (s->i < chunk) {
        op_mem(op, OPK_LOAD, ORD_WEAK, 0, w->region[0] + (uint64_t)((s->warp * chunks + s->round) * chunk + s->i), 0,
               false);
        s->i++;
        return;
    }
    if (P(w, compute) && s->phase == 0) {
        op_compute(op, P(w, compute));
        s->phase = 1;
        return;
    }
    op_rmw(op, ORD_RELAXED, (int)P(w, scope), w->region[1], RMW_ADD, 1, 0, false);
    s->i = 0, s->phase = 0, s->round++;
}

/* Spin lock: CAS acquire until it succeeds (exponential backoff), a
 * critical section of loads and stores, a release store. */
static void gen_lock(const sim_workload *w, sim_wstate *s, int64_t last, sim_op *op)
{
    bool owned = P(w, owned);
    long locks = owned ? w->ncu : P(w, locks), cs = P(w, cs_lines), backoff = P(w, backoff);
    if (owned && s->round == 0 && s->phase == 0 && s->j == 0 && s->i == 0)
        s->k = s->cu;                   /* an owned lock: start with the CU's own */
    bool own = owned && s->k == s->cu;  /* the owner's side of an asymmetric lock */
    int scope = own ? (int)P(w, owner_scope) : (int)P(w, scope);
    bool remote = owned && !own && P(w, remote);
    uint64_t lock = w->region[0] + (uint64_t)(s->k % locks), data = w->region[1] + (uint64_t)(s->k % locks * (cs + 1));
    if (s->round >= P(w, iterations)) {
        op_simple(op, OPK_END);
        return;
    }
    switch (s->phase) {
    case 0:                             /* try to take the lock */
        op_rmw(op, ORD_ACQUIRE, scope, lock, RMW_CAS, 0, 1, true);
        op->remote = remote;
        s->phase = 1;
        return;
    case 1:
        if (last != 0) {                /* taken by another: back off, try again */
            s->j = s->j ? (s->j < 1024 ? 2 * s->j : s->j) : 1;
            op_compute(op, backoff * s->j);
            s->phase = 0;
            return;
        }
        s->j = 0, s->i = 0, s->phase = 2;
        /* fall through */
    case 2:
        if (s->i < 2 * cs) {
            if (s->i % 2 == 0)
                op_mem(op, OPK_LOAD, ORD_WEAK, 0, data + (uint64_t)(s->i / 2), 0, true);
            else
                op_mem(op, OPK_STORE, ORD_WEAK, 0, data + (uint64_t)(s->i / 2), last + 1, false);
            s->i++;
            return;
        }
        op_mem(op, OPK_STORE, ORD_RELEASE, scope, lock, 0, false);
        op->remote = remote;
        s->phase = 0, s->round++;
        if (!owned)
            s->k = (long)(next_random(s) % (uint64_t)locks);
        else if ((long)(next_random(s) % 100) < P(w, foreign))   /* another CU's lock, rarely */
            s->k = (long)((uint64_t)(s->cu + 1) + next_random(s) % (uint64_t)(w->ncu - 1)) % w->ncu;
        else
            s->k = s->cu;
        return;
    }
}

/* Sense-reversing barrier: each episode some work, then an acq_rel
 * increment of the count; the last arrival resets it and releases the
 * sense, the others spin on the sense with acquire loads. */
static void gen_barrier(const sim_workload *w, sim_wstate *s, int64_t last, sim_op *op)
{
    long work = P(w, work);
    int scope = (int)P(w, scope);
    uint64_t count = w->region[0], sense = w->region[0] + 1;
    if (s->round >= P(w, episodes)) {
        op_simple(op, OPK_END);
        return;
    }
    switch (s->phase) {
    case 0:
        if (s->i < work) {
            op_mem(op, s->i % 2 ? OPK_STORE : OPK_LOAD, ORD_WEAK, 0,
                   w->region[1] + (uint64_t)(s->warp * work + s->i), s->round, false);
            s->i++;
            return;
        }
        if (P(w, compute) && s->j == 0) {
            s->j = 1;
            op_compute(op, P(w, compute));
            return;
        }
        op_rmw(op, ORD_ACQ_REL, scope, count, RMW_ADD, 1, 0, true);
        s->phase = 1;
        return;
    case 1:
        if (last == w->nwarps - 1) {    /* the last to arrive */
            op_mem(op, OPK_STORE, ORD_RELAXED, scope, count, 0, false);
            s->phase = 2;
            return;
        }
        s->phase = 3;
        /* fall through */
    case 3:
        if (s->phase == 3 && s->j == 2 && last == s->round + 1) {
            s->round++, s->phase = 0, s->i = 0, s->j = 0;
            gen_barrier(w, s, 0, op);
            return;
        }
        s->j = 2;
        op_mem(op, OPK_LOAD, ORD_ACQUIRE, scope, sense, 0, true);
        return;
    case 2:
        op_mem(op, OPK_STORE, ORD_RELEASE, scope, sense, s->round + 1, false);
        s->round++, s->phase = 0, s->i = 0, s->j = 0;
        return;
    }
}

/* Work stealing: each CU owns a queue (a head counter, its tasks' data);
 * warps take tasks from their CU's queue with owner-scoped acq_rel
 * increments and, when it runs dry, from random other queues with
 * steal-scoped ones; a task reads and writes its lines. */
static long queue_tasks(const sim_workload *w, int q)
{
    return P(w, tasks) * (1 + (q % 2) * P(w, imbalance) / 100);
}

static void gen_worksteal(const sim_workload *w, sim_wstate *s, int64_t last, sim_op *op)
{
    long tl = P(w, task_lines), maxq = P(w, tasks) * (1 + P(w, imbalance) / 100) + 1;
    int q = (int)s->k;
    switch (s->phase) {
    case 0:                             /* take the next task of queue k */
        op_rmw(op, ORD_ACQ_REL, q == s->cu ? (int)P(w, owner_scope) : (int)P(w, steal_scope),
               w->region[0] + (uint64_t)q, RMW_ADD, 1, 0, true);
        op->remote = q != s->cu && P(w, steal_remote);
        s->phase = 1;
        return;
    case 1:
        if (last < queue_tasks(w, q)) {
            s->value = last, s->i = 0, s->phase = 2;
        } else {                        /* empty: steal elsewhere, or stop */
            if (s->j >= P(w, steal_tries) || w->ncu < 2) {
                op_simple(op, OPK_END);
                return;
            }
            s->j++;
            s->k = (long)((uint64_t)(s->cu + 1) + next_random(s) % (uint64_t)(w->ncu - 1)) % w->ncu;
            s->phase = 0;
            gen_worksteal(w, s, 0, op);
            return;
        }
        /* fall through */
    case 2: {
        /* the task: `reads` lines of the queue's read-mostly window (a
         * graph partition, which an L1 keeps across tasks unless an
         * acquire invalidates it), its own lines read and written, then
         * its computation */
        long reads = P(w, reads), win = P(w, window);
        uint64_t base = w->region[1] + (uint64_t)((q * maxq + s->value) * (tl + 1));
        if (s->i < reads) {
            uint64_t line = (uint64_t)((s->value * reads + s->i) % win);
            op_mem(op, OPK_LOAD, ORD_WEAK, 0, w->region[2] + (uint64_t)q * (uint64_t)win + line, 0, false);
            s->i++;
            return;
        }
        if (s->i < reads + 2 * tl) {
            long k = s->i - reads;
            op_mem(op, k % 2 ? OPK_STORE : OPK_LOAD, ORD_WEAK, 0, base + (uint64_t)(k / 2), s->value, false);
            s->i++;
            return;
        }
        if (P(w, compute) && s->i == reads + 2 * tl) {
            s->i++;
            op_compute(op, P(w, compute));
            return;
        }
        s->phase = 0;
        gen_worksteal(w, s, 0, op);
        return;
    }
    }
}

/* Multi-GPU sharing across kernels (seed 004's inter-kernel
 * communication): each kernel, a warp reads a fixed window of lines,
 * `remote` percent of them in another GPU's partition, each `reuse`
 * times, then writes `writes` lines of its own GPU's partition that
 * other GPUs' windows cover in the next kernel. */
static void gen_sharing(const sim_workload *w, sim_wstate *s, sim_op *op)
{
    long win = P(w, window), reuse = P(w, reuse), nw = P(w, writes);
    long remote_n = win * P(w, remote) / 100, per_gpu_warps = w->nwarps / w->ngpu;
    long part = win * (per_gpu_warps + 1) + nw * P(w, kernels) + 1;
    if (kernel_boundary(w, s, op, P(w, kernels), (int)P(w, boundary)))
        return;
    if (s->i < win * reuse) {
        long e = s->i % win;
        int g = s->gpu;
        if (e < remote_n && w->ngpu > 1)
            g = (s->gpu + 1 + (int)(s->lwarp % (w->ngpu - 1))) % w->ngpu;
        op_mem(op, OPK_LOAD, ORD_WEAK, 0, owned(w, 0, g, s->lwarp * win + e, part), 0, false);
        s->i++;
        if (P(w, compute) && s->i % win == 0)
            s->phase = 1;
        return;
    }
    if (s->phase == 1) {
        op_compute(op, P(w, compute));
        s->phase = 0;
        return;
    }
    long k = s->i - win * reuse;
    if (k < nw) {
        long e = (s->lwarp * win + s->kernel * nw + k) % (win * per_gpu_warps);
        op_mem(op, OPK_STORE, ORD_WEAK, 0, owned(w, 0, s->gpu, e, part), s->kernel + 1, false);
        s->i++;
        return;
    }
    op_compute(op, 1);
    s->phase = -1;
}

/* ---- litmus programs ----------------------------------------------------------------------------- */

static int64_t operand(const sim_wstate *s, sim_operand o) { return o.kind == 1 ? s->regs[o.reg] : o.kind == 2 ? o.imm : 0; }

static uint64_t litmus_addr(const sim_workload *w, const sim_wstate *s, int loc)
{
    return w->region[0] + (uint64_t)(s->copy * w->program->nlocs + loc);
}

/* Between iterations the copy's first thread writes the initial values
 * back (phase 1), then every thread ends the kernel (phases -1..-3). */
static bool litmus_epilogue(const sim_workload *w, sim_wstate *s, sim_op *op)
{
    const sim_program *p = w->program;
    if (s->phase == 1) {
        bool again = s->kernel + 1 < P(w, iterations);
        if (again && s->lthread == 0 && s->i < p->nlocs) {
            op_mem(op, OPK_STORE, ORD_WEAK, 0, litmus_addr(w, s, (int)s->i), p->loc_init[s->i], false);
            s->i++;
            return true;
        }
        s->phase = -1;
    }
    if (s->phase < 0) {
        long kernel = s->kernel;
        bool busy = kernel_boundary_of(w, s, op, P(w, iterations), (int)P(w, boundary), true);
        if (s->kernel != kernel) {      /* a new iteration: registers as the test starts them */
            const sim_lthread *th = &p->threads[s->lthread];
            for (int r = 0; r < th->nregs; r++)
                s->regs[r] = th->reg_init[r];
            s->pc = 0;
        }
        return busy;
    }
    return false;
}

static void gen_litmus(const sim_workload *w, sim_wstate *s, int64_t last, sim_op *op)
{
    if (s->lthread < 0) {
        op_simple(op, OPK_END);
        return;
    }
    const sim_lthread *th = &w->program->threads[s->lthread];
    if (s->phase == 2) {                /* the last load or atomic's value */
        const sim_linstr *prev = &th->instrs[s->pc - 1];
        if (prev->dst >= 0)
            s->regs[prev->dst] = last;
        s->phase = 0;
    }
    if (litmus_epilogue(w, s, op))
        return;
    for (int steps = 0; steps < 256; steps++) {
        if (s->pc >= th->ninstrs) {
            s->phase = 1, s->i = 0;
            if (!litmus_epilogue(w, s, op))
                op_compute(op, 1);
            return;
        }
        const sim_linstr *in = &th->instrs[s->pc++];
        int64_t a = operand(s, in->a), b = operand(s, in->b);
        switch (in->op) {
        case OP_LOAD:
            op_mem(op, OPK_LOAD, in->order, in->scope, litmus_addr(w, s, in->loc), 0, true);
            op->remote = in->remote;
            s->phase = 2;
            return;
        case OP_STORE:
            op_mem(op, OPK_STORE, in->order, in->scope, litmus_addr(w, s, in->loc), a, false);
            op->remote = in->remote;
            return;
        case OP_RMW:
        case OP_RED:
            op_rmw(op, in->order, in->scope, litmus_addr(w, s, in->loc), in->rmw, a, b, in->dst >= 0);
            op->remote = in->remote;
            op->rmw_has_a = in->a.kind != 0;
            s->phase = in->dst >= 0 ? 2 : 0;
            return;
        case OP_FENCE:
            *op = (sim_op){.kind = OPK_FENCE, .order = (uint8_t)in->order, .scope = (uint8_t)in->scope,
                           .remote = in->remote};
            return;
        case OP_BARRIER: {
            int n = 0;
            for (int k = 0; k < w->program->nthreads; k++)
                n += w->program->threads[k].gpu == th->gpu && w->program->threads[k].cta == th->cta;
            *op = (sim_op){.kind = OPK_CTA_BARRIER, .barrier_id = (int)a, .barrier_count = in->b.kind ? (int)b : n};
            return;
        }
        case OP_MOV: s->regs[in->dst] = a; break;
        case OP_ALU: s->regs[in->dst] = arith_alu((enum lit_alu_op)in->alu, a, b); break;
        case OP_BRANCH: if (arith_cmp((enum lit_cmp)in->cmp, a, b)) s->pc = in->target; break;
        case OP_GOTO: s->pc = in->target; break;
        }
    }
    op_compute(op, 1);                  /* a long register-only loop: let time pass */
}

/* ---- the interface ---------------------------------------------------------------------------- */

void workload_start(const sim_workload *w, sim_wstate *s, int warp, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->warp = warp;
    s->cu = warp / w->warps_per_cu;
    s->gpu = w->cu_gpu[s->cu];
    s->lwarp = (s->cu % w->cus_per_gpu) * w->warps_per_cu + warp % w->warps_per_cu;
    uint64_t x = seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(warp + 1));
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    s->rng = (x ^ (x >> 27)) | 1;
    s->k = s->cu;
    s->lthread = -1;
    if (w->kind == WL_PRODCONS)
        prodcons_roles(w, s);
    if (w->kind == WL_LITMUS)
        for (int c = 0; c < w->copies; c++)
            for (int k = 0; k < w->program->nthreads; k++) {
                int cu, wi;
                if (litmus_place(w, c, k, &cu, &wi) && cu == s->cu && wi == warp % w->warps_per_cu) {
                    s->lthread = k, s->copy = c;
                    for (int r = 0; r < w->program->threads[k].nregs; r++)
                        s->regs[r] = w->program->threads[k].reg_init[r];
                }
            }
}

void workload_next(const sim_workload *w, sim_wstate *s, int64_t last, sim_op *op)
{
    switch (w->kind) {
    case WL_STREAM: gen_stream(w, s, op); break;
    case WL_REUSE: gen_reuse(w, s, op); break;
    case WL_PRODCONS: gen_prodcons(w, s, last, op); break;
    case WL_HISTOGRAM: gen_histogram(w, s, op); break;
    case WL_REDUCTION: gen_reduction(w, s, op); break;
    case WL_LOCK: gen_lock(w, s, last, op); break;
    case WL_BARRIER: gen_barrier(w, s, last, op); break;
    case WL_WORKSTEAL: gen_worksteal(w, s, last, op); break;
    case WL_SHARING: gen_sharing(w, s, op); break;
    case WL_LITMUS: gen_litmus(w, s, last, op); break;
    case WL_KIND_COUNT: op_simple(op, OPK_END); break;
    }
}

int64_t workload_init_value(const sim_workload *w, uint64_t addr)
{
    if (w->kind != WL_LITMUS || addr < w->region[0])
        return 0;
    uint64_t k = addr - w->region[0];
    if (k >= (uint64_t)w->program->nlocs * (uint64_t)w->copies)
        return 0;
    return w->program->loc_init[k % (uint64_t)w->program->nlocs];
}

/* ---- which events a workload uses ------------------------------------------------------------- */

static bool has_row(const sim_tables *t, int kind, int order, int scope, bool remote)
{
    const sim_ctrl *c = &t->ctrls[t->proc_ctrl];
    for (int r = 0; r < c->nrows; r++)
        if (sim_row_matches(&c->rows[r], kind, order, scope, remote))
            return true;
    return false;
}

static bool need_form(const sim_workload *w, const sim_tables *t, int kind, int order, int scope, bool remote,
                      FILE *errors)
{
    if (order == ORD_WEAK)
        scope = 0;
    if (has_row(t, kind, order, scope, remote))
        return true;
    fprintf(errors, "%s: kind: this workload issues %s.%s%s%s, which protocol %s's tables have no row for\n", w->path,
            vocab_event_kinds[kind], vocab_orders[order], vocab_scope_suffixes[scope % SIM_NSCOPES], remote ? ".remote" : "", t->protocol);
    return false;
}

static bool need(const sim_workload *w, const sim_tables *t, int kind, int order, int scope, FILE *errors)
{
    return need_form(w, t, kind, order, scope, false, errors);
}

bool workload_fits_tables(const sim_workload *w, const sim_tables *t, bool ideal, FILE *errors)
{
    bool ok = need(w, t, SE_LOAD, ORD_WEAK, 0, errors) && need(w, t, SE_STORE, ORD_WEAK, 0, errors);
    int sc = w->kind == WL_LITMUS ? 0 : (int)w->param[0];
    switch (w->kind) {
    case WL_STREAM:
    case WL_REUSE:
    case WL_SHARING:
        if (!ideal)
            ok = ok && need(w, t, SE_FENCE, ORD_ACQ_REL, (int)P(w, boundary), errors);
        break;
    case WL_PRODCONS:
        ok = ok && need(w, t, SE_LOAD, ideal ? ORD_WEAK : ORD_ACQUIRE, sc, errors) &&
             need(w, t, SE_STORE, ideal ? ORD_WEAK : ORD_RELEASE, sc, errors);
        break;
    case WL_HISTOGRAM:
    case WL_REDUCTION: ok = ok && need(w, t, SE_RMW, ORD_RELAXED, (int)P(w, scope), errors); break;
    case WL_LOCK: {
        bool remote = P(w, owned) && P(w, remote);
        if (P(w, owned))
            ok = ok && need(w, t, SE_RMW, ORD_ACQUIRE, (int)P(w, owner_scope), errors) &&
                 need(w, t, SE_STORE, ORD_RELEASE, (int)P(w, owner_scope), errors);
        if (!P(w, owned) || P(w, foreign))
            ok = ok && need_form(w, t, SE_RMW, ORD_ACQUIRE, (int)P(w, scope), remote, errors) &&
                 need_form(w, t, SE_STORE, ORD_RELEASE, (int)P(w, scope), remote, errors);
        break;
    }
    case WL_BARRIER:
        sc = (int)P(w, scope);
        ok = ok && need(w, t, SE_RMW, ORD_ACQ_REL, sc, errors) && need(w, t, SE_STORE, ORD_RELAXED, sc, errors) &&
             need(w, t, SE_STORE, ORD_RELEASE, sc, errors) && need(w, t, SE_LOAD, ORD_ACQUIRE, sc, errors);
        break;
    case WL_WORKSTEAL:
        ok = ok && need(w, t, SE_RMW, ORD_ACQ_REL, (int)P(w, owner_scope), errors) &&
             need_form(w, t, SE_RMW, ORD_ACQ_REL, (int)P(w, steal_scope), P(w, steal_remote), errors);
        break;
    case WL_LITMUS:
        for (int k = 0; k < w->program->nthreads && ok; k++)
            for (int i = 0; i < w->program->threads[k].ninstrs && ok; i++) {
                const sim_linstr *in = &w->program->threads[k].instrs[i];
                if (in->op <= OP_FENCE)
                    ok = need_form(w, t, in->op == OP_RED ? SE_RMW : in->op == OP_FENCE ? SE_FENCE : (int)in->op,
                                   in->order, in->scope, in->remote, errors);
            }
        ok = ok && need(w, t, SE_FENCE, ORD_ACQ_REL, (int)P(w, boundary), errors);
        break;
    case WL_KIND_COUNT: break;
    }
    return ok;
}
