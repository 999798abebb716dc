/*
 * enumerate/enumerate.c: the test (see enumerate.h): its traces, the
 * enumerator's per-test storage, the thin-air seeds, every combination of
 * traces; the entry points enumerate_check, enumerate_liveness,
 * and enumerate_incomplete.
 *
 * Order of choices, outermost first: one trace per thread (values of reads
 * already guessed; enumerate/trace_filter.h), then an arrival order per
 * counted barrier (enumerate/barriers.h), then for every read a write of
 * the same location and value, then a coherence order per location.
 * Everything that depends only on the traces is computed once per
 * combination (combination.c, static_exec.c); the innermost loop
 * (choices.c) only writes rf, co, fr and syncbar and calls the model.
 * The modules share the context through enumerate/internal.h.
 */
#include "enumerate/enumerate.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "enumerate/internal.h"
#include "enumerate/trace_filter.h"


/* The most events a combination can have: the initial writes and the
 * longest trace of each thread; at most REL_MAX_EVENTS (a larger
 * combination is skipped). */
static int most_events(const enum_exec *ex)
{
    long n = ex->ninit;
    for (int th = 0; th < ex->t->nthreads; th++) {
        int longest = 0;
        for (int i = 0; i < ex->paths.threads[th].ntraces; i++)
            if (ex->paths.threads[th].traces[i].nevents > longest)
                longest = ex->paths.threads[th].traces[i].nevents;
        n += longest;
    }
    return n < REL_MAX_EVENTS ? (int)(n ? n : 1) : REL_MAX_EVENTS;
}

/* The enumerator's per-test storage comes from one block: carve_storage
 * runs twice, first to measure (base NULL), then to hand out. */
typedef struct arena {
    char *base;
    size_t used;
} arena;

static void *take(arena *a, size_t bytes)
{
    size_t at = (a->used + 15) & ~(size_t)15;
    a->used = at + (bytes ? bytes : 1);
    return a->base ? a->base + at : NULL;
}

/* How large the per-test arrays are. */
typedef struct storage_size {
    int cap;               /* events of the largest combination */
    int nlocs, nthreads;   /* at least 1 */
    size_t set;            /* bytes of one set, stride words */
} storage_size;

static void carve_exec(enum_exec *ex, arena *a, const storage_size *z)
{
    ex->ev = take(a, sizeof *ex->ev * (size_t)z->cap);
    ex->loc_events = take(a, z->set * (size_t)z->nlocs);
    ex->vloc_events = take(a, z->set * (size_t)z->nlocs);
    ex->thread_events = take(a, z->set * (size_t)z->nthreads);
    ex->cta_events = take(a, z->set * (size_t)z->nthreads);
    ex->gpu_events = take(a, z->set * (size_t)z->nthreads);
    ex->scope_events = take(a, z->set * (size_t)z->nthreads * NSCOPES);
    ex->scoped = take(a, z->set * (size_t)z->nthreads * NSCOPES);
    ex->threads_events = take(a, z->set);
    ex->latest = take(a, sizeof(int) * (size_t)z->nlocs);
    ex->latest_at = take(a, sizeof(long) * (size_t)z->nlocs);
}

static void carve_rf(rf_state *rf, arena *a, const storage_size *z)
{
    size_t ints = sizeof(int) * (size_t)z->cap;
    rf->loc_writes_now = take(a, z->set * (size_t)z->nlocs);
    rf->read_ev = take(a, ints);
    rf->nopts = take(a, ints);
    rf->opt_at = take(a, ints);
    rf->rf_choice = take(a, ints);
    rf->last_write = take(a, ints);
    rf->opts_cap = 4 * z->cap;
    rf->opts = take(a, sizeof(int) * (size_t)rf->opts_cap);
}

static void carve_co(co_state *co, arena *a, const storage_size *z)
{
    size_t per_loc = (size_t)z->nlocs;
    co->write_pos = take(a, sizeof(int8_t) * (size_t)z->cap);
    co->locw = take(a, sizeof(loc_writes) * per_loc);
    co->phys_list = take(a, sizeof(int) * per_loc);
    co->choice = take(a, sizeof(int) * per_loc);
    co->applied = take(a, sizeof(int) * per_loc);
    co->allowed_at = take(a, sizeof(long) * per_loc);
    co->nallowed = take(a, sizeof(int) * per_loc);
}

static void carve_bar(bar_state *bar, arena *a, const storage_size *z)
{
    for (int i = 0; i < 3; i++)
        bar->scratch[i] = take(a, rel_bytes(z->cap));
    bar->ev = take(a, sizeof(bar_event) * (size_t)z->cap);
    bar->choice = take(a, sizeof(int) * (size_t)z->cap);
}

static void carve_storage(enum_ctx *c, arena *a)
{
    const litmus_test *t = c->ex.t;
    storage_size z = {c->ex.cap, t->nlocs ? t->nlocs : 1, t->nthreads ? t->nthreads : 1,
                      sizeof(evword) * (size_t)c->ex.stride};
    carve_exec(&c->ex, a, &z);
    carve_rf(&c->rf, a, &z);
    carve_co(&c->co, a, &z);
    carve_bar(&c->bar, a, &z);
}

/* Storage for combinations of up to c->ex.cap events; false (with the
 * result saying so) when it would exceed the memory limit. */
static bool size_storage(enum_ctx *c)
{
    int cap = c->ex.cap, nlocs = c->ex.t->nlocs ? c->ex.t->nlocs : 1;
    c->ex.stride = rel_words(cap);
    arena measure = {NULL, 0};
    carve_storage(c, &measure);
    size_t relations = (size_t)XR_COUNT * rel_bytes(cap) + cat_workspace_bytes(c->model, cap);
    if (c->budget.max_memory > 0 && gc_heap_in_use() + relations + measure.used > c->budget.max_memory) {
        c->r->out_of_memory = true;
        return false;
    }
    exec_init(&c->ex.x, cap);
    arena block = {GC_MALLOC_ATOMIC(measure.used), 0};
    memset(block.base, 0, measure.used);
    carve_storage(c, &block);
    for (int l = 0; l < nlocs; l++)
        c->ex.latest_at[l] = -1;
    c->co.list = GC_MALLOC(sizeof *c->co.list * (size_t)nlocs);
    c->co.memo = NULL;             /* allocated at the first large table's filtering (memo_slot) */
    c->bar.bars = barriers_new();
    return true;
}

/* The constants the program's writes take (stored values, operands and
 * expected values of read-modify-writes), added to out[0..n) without
 * repeats (out NULL: counted with repeats, an upper bound). */
static int program_constants(const litmus_test *t, lit_value *out, int n)
{
    for (int th = 0; th < t->nthreads; th++)
        for (int i = 0; i < t->threads[th].ninstrs; i++) {
            const lit_instr *in = &t->threads[th].instrs[i];
            if (in->op != OP_STORE && in->op != OP_RMW && in->op != OP_RED)
                continue;
            const lit_operand *ops[2] = {&in->a, &in->b};
            for (int k = 0; k < 2; k++) {
                if (ops[k]->kind != OPND_IMM)
                    continue;
                bool seen = false;
                for (int j = 0; out && j < n && !seen; j++)
                    seen = out[j] == ops[k]->imm;
                if (!seen) {
                    if (out)
                        out[n] = ops[k]->imm;
                    n++;
                }
            }
        }
    return n;
}

/* One value distinct from every constant of the test (its initial values,
 * the constants its writes take, the condition's): herd7's symbolic value
 * (`S13`), which stands for a value that flows only around a cycle and
 * equals none of the constants the test can tell apart.  Guessing it is
 * sound like any guess (the execution is kept only if the cycle's
 * equations hold with it), and it finds what the constants alone cannot:
 * `exists 0:r1 != 0` over a cycle of copies (herd's C13). */
static lit_value fresh_value(const litmus_test *t, const lit_value *known, int nknown)
{
    lit_value top = 0;
    for (int i = 0; i < nknown; i++)
        top = known[i] > top ? known[i] : top;
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].init != LIT_NO_VALUE && t->locs[l].init > top)
            top = t->locs[l].init;
    return top < INT64_MAX ? top + 1 : INT64_MIN + 1;
}

/* The values every atomic read may guess besides computed ones, by what
 * the model says of thin air (cat_model_thin_air): the condition's
 * constants when it allows it, the program's when it does not say; and,
 * either way, one value distinct from all of them (fresh_value). */
static void thin_air_seeds(const litmus_test *t, enum cat_thin_air thin_air, tp_limits *lim)
{
    bool condition = thin_air == CAT_THIN_AIR_ALLOWED;
    int count = condition ? condition_constants(t->cond, NULL, 0, 0) : program_constants(t, NULL, 0);
    int all = program_constants(t, NULL, 0) + condition_constants(t->cond, NULL, 0, 0);
    lit_value *seeds = GC_MALLOC_ATOMIC(sizeof *seeds * (size_t)(count + 1));
    lit_value *known = GC_MALLOC_ATOMIC(sizeof *known * (size_t)(all + 1));
    int n = condition ? condition_constants(t->cond, seeds, 0, count) : program_constants(t, seeds, 0);
    int nknown = condition_constants(t->cond, known, program_constants(t, known, 0), all);
    seeds[n++] = fresh_value(t, known, nknown);
    lim->nseeds = n;
    lim->seeds = seeds;
}

static enum_ctx *new_ctx(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                         check_result *r, FILE *errors)
{
    enum_ctx *c = GC_MALLOC(sizeof *c);
    c->ex.t = t;
    c->model = m;
    c->ws = ws;
    c->r = r;
    c->errors = errors;
    c->budget.r = r;
    c->budget.deadline = o->timeout_s > 0 ? clock_now() + o->timeout_s : 0;
    c->budget.max_memory = o->max_memory;
    c->budget.interrupt = o->stop;
    c->bar.reading = o->barriers;
    /* the shortcuts take the order of a thread's events as program order */
    c->ex.unsequenced = litmus_has_unsequenced(t);
    c->ex.thread_coherent = cat_model_thread_coherent(m) && !litmus_mixed_addressing(t) && !c->ex.unsequenced;
    c->res.collect_races = o->races;
    c->res.on_execution = o->on_execution;
    c->res.on_rejected = o->on_rejected;
    c->res.execution_ctx = o->execution_ctx;
    c->co.staged = cat_model_co_staged(m) && !o->on_rejected;
    c->co.partial = cat_model_co_mode(m) == CAT_CO_PARTIAL;
    exec_find_peers(t, &c->ex.peers);
    c->res.state = GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(t->nobserved + t->nhidden + 1));
    return c;
}

/* thread_paths' limits; stop_ctx: the enumeration's budget (NULL: set later). */
static tp_limits path_limits(const litmus_test *t, const cat_model *m, const enum_options *o, enum_budget *budget)
{
    tp_limits lim = {.unroll = o->unroll, .max_traces = o->max_traces, .stop = budget_should_stop, .stop_ctx = budget};
    if (cat_model_thin_air(m) != CAT_THIN_AIR_FORBIDDEN)
        thin_air_seeds(t, cat_model_thin_air(m), &lim);
    return lim;
}

/* Below this many combinations of traces, building the trace filter costs
 * more than it saves: a combination it would leave out has a read with no
 * write to read from, which rf_collect_options finds as fast. */
#define FEW_COMBINATIONS 64

static bool combinations_at_most(const tp_result *paths, int nthreads, long most)
{
    long product = 1;
    for (int th = 0; th < nthreads; th++) {
        product *= paths->threads[th].ntraces;
        if (product > most)
            return false;
    }
    return true;
}

/* Every combination in trace order (the last thread fastest), as
 * trace_filter_each would give them; false once visit_combination says stop. */
static bool each_combination(enum_ctx *c, int th)
{
    if (th == c->ex.t->nthreads)
        return visit_combination(c);
    for (int i = 0; i < c->ex.paths.threads[th].ntraces; i++) {
        c->ex.choice[th] = i;
        if (!each_combination(c, th + 1))
            return false;
    }
    return true;
}

/* The trace filter's stop hook: its context is the visit's (an enum_ctx). */
static bool filter_should_stop(void *ctx)
{
    enum_ctx *c = ctx;
    return budget_should_stop(&c->budget);
}

/* Every combination of the traces c->ex.paths (built with `lim`). */
static void run_paths(enum_ctx *c, const tp_limits *lim)
{
    const litmus_test *t = c->ex.t;
    check_result *r = c->r;
    thread_paths_build(t, lim, &c->ex.paths);
    r->unroll_cut = c->ex.paths.unroll_cut;
    r->values_cut = c->ex.paths.values_cut;
    r->too_big = c->ex.paths.too_long;
    r->paths_cut = c->ex.paths.too_many;
    if (c->budget.stop)
        return;
    for (int th = 0; th < t->nthreads; th++)
        if (c->ex.paths.threads[th].ntraces == 0)
            return;
    for (int l = 0; l < t->nlocs; l++)
        c->ex.ninit += t->locs[l].physical == l;
    c->ex.cap = most_events(&c->ex);
    if (!size_storage(c))
        return;
    if (!c->live && c->ex.cap < REL_MAX_EVENTS && combinations_at_most(&c->ex.paths, t->nthreads, FEW_COMBINATIONS)) {
        each_combination(c, 0);
        return;
    }
    trace_filter *f = trace_filter_build(t, &c->ex.paths, c->ex.thread_coherent);
    /* the liveness pass keeps no order (its findings are sorted) */
    trace_filter_each(f, c->ex.choice, c->live != NULL, visit_combination, filter_should_stop, c);
}

bool enumerate_check(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                     check_result *r, FILE *errors)
{
    memset(r, 0, sizeof *r);
    r->states = outcome_set_new(t->nobserved);
    if (t->nthreads > MAX_THREADS) {
        diag_error(errors, t->file, 1, 1, "too many threads (at most %d)", MAX_THREADS);
        return false;
    }
    enum_ctx *c = new_ctx(t, m, ws, o, r, errors);
    tp_limits lim = path_limits(t, m, o, &c->budget);
    run_paths(c, &lim);
    return true;
}

/* Iterations that write, per loop head and path, before liveness mode cuts
 * a path: tried in turn while some cut is reachable. */
static const int live_repeat_bounds[] = {2, 4, 8};

/* One enumeration of the liveness pass over traces built with `lim`
 * (lim->stop_ctx is set here): NULL, or why its answer is unknown (a limit
 * of the enumerator, in the words of enumerate_incomplete, or the paths'
 * own reason).  A limit (time, memory, a signal) is named before the
 * paths' reason, which it may have caused. */
static const char *live_enumeration(live_ctx *lc, const litmus_test *t, const cat_model *m, cat_workspace *ws,
                                    const enum_options *o, tp_limits *lim, bool *cut, uint64_t *candidates)
{
    check_result scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.states = outcome_set_new(t->nobserved);
    enum_ctx *c = new_ctx(t, m, ws, o, &scratch, stderr);
    c->live = lc;
    lim->stop_ctx = &c->budget;
    run_paths(c, lim);
    const char *unknown = NULL;
    if (scratch.timed_out || scratch.out_of_memory || scratch.interrupted)
        unknown = enumerate_incomplete(&scratch);
    if (!unknown)
        unknown = c->ex.paths.live_unknown;
    if (!unknown)
        unknown = enumerate_incomplete(&scratch);
    if (getenv("SCOPECHECK_LIVE_DEBUG")) {
        fprintf(stderr, "live pass: traces");
        for (int th = 0; th < t->nthreads; th++)
            fprintf(stderr, " %d", c->ex.paths.threads[th].ntraces);
        fprintf(stderr, ", candidates %lu, cut %d\n", (unsigned long)scratch.candidates, c->ex.paths.live_cut);
    }
    *cut = c->ex.paths.live_cut;
    *candidates += scratch.candidates;
    return unknown;
}

/* The limits the caller set, asked between the pass's enumerations: the
 * word of enumerate_incomplete for the one reached, or NULL.  Each
 * enumeration gets what is left of the one deadline. */
static const char *live_limit_reached(const enum_options *o, double deadline, enum_options *left)
{
    *left = *o;
    if (o->stop && *o->stop)
        return "interrupted";
    if (o->max_memory > 0 && gc_heap_in_use() > o->max_memory)
        return "max-memory";
    if (deadline > 0) {
        left->timeout_s = deadline - clock_now();
        if (left->timeout_s <= 0)
            return "timeout";
    }
    return NULL;
}

/* The liveness pass: the enumeration again over liveness mode's traces,
 * with the checker's hooks (enumerate/liveness.h).  First the stuck
 * executions; then, if a loop that writes was cut, whether any consistent
 * execution reaches the cut (if so, again with a higher bound).  The time
 * limit o->timeout_s is one budget for all of it. */
void enumerate_liveness(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                        const live_options *lo, live_result *lr)
{
    live_ctx *lc = live_ctx_new(t, lo, lr);
    if (!live_test_may_hang(t) || t->nthreads > MAX_THREADS) {
        live_finish(lc, t->nthreads > MAX_THREADS ? "too many threads" : NULL);
        return;
    }
    double deadline = o->timeout_s > 0 ? clock_now() + o->timeout_s : 0;
    size_t nbounds = sizeof live_repeat_bounds / sizeof *live_repeat_bounds;
    for (size_t b = 0; b < nbounds; b++) {
        enum_options left;
        const char *unknown = live_limit_reached(o, deadline, &left);
        if (unknown) {
            live_finish(lc, unknown);
            return;
        }
        tp_limits lim = path_limits(t, m, &left, NULL);
        live_path_limits(lc, &lim);
        lim.live_repeats = live_repeat_bounds[b];
        bool cut;
        live_set_phase(lc, false);
        unknown = live_enumeration(lc, t, m, ws, &left, &lim, &cut, &lr->candidates);
        if (lr->violations || unknown || !cut) {
            live_finish(lc, unknown);
            return;
        }
        unknown = live_limit_reached(o, deadline, &left);
        if (unknown) {
            live_finish(lc, unknown);
            return;
        }
        lim.prefixes = true;
        live_set_phase(lc, true);
        unknown = live_enumeration(lc, t, m, ws, &left, &lim, &cut, &lr->candidates);
        if (unknown) {
            live_finish(lc, unknown);
            return;
        }
        if (!live_cut_reached(lc)) {
            live_finish(lc, NULL);
            return;
        }
    }
    live_finish(lc, "a loop that writes to memory may run more iterations than the check follows "
                    "(side-effectful non-termination)");
}

const char *enumerate_incomplete(const check_result *r)
{
    if (r->timed_out)
        return "timeout";
    if (r->out_of_memory)
        return "max-memory";
    if (r->too_big || r->barriers_cut || r->undecided)
        return "too-many-events";
    if (r->writes_cut)
        return "too-many-writes";
    if (r->paths_cut)
        return "too-many-paths";
    if (r->values_cut)
        return "too-many-values";
    if (r->interrupted)
        return "interrupted";
    return NULL;
}
