/*
 * enumerate/combination.c: one combination of thread traces, end to end
 * (see enumerate/internal.h): its events, the reads-from, coherence and
 * barrier material of its choices, its static execution (built and
 * prepared by the model only when its shape differs from the last one's),
 * then every choice (choices.c).
 */
#include <gc.h>
#include <string.h>

#include "enumerate/internal.h"

/* Do two events make the same static relations and sets?  Everything but
 * the values (and the barrier count and source instruction, which only
 * the per-combination barrier groups and race reports read). */
static bool same_shape(const tp_event *a, const tp_event *b)
{
    return a->kind == b->kind && a->order == b->order && a->scope == b->scope && a->proxy == b->proxy &&
           a->in_rmw == b->in_rmw && a->rmw_write == b->rmw_write && a->waits == b->waits &&
           a->remote == b->remote && a->regions == b->regions && a->loc == b->loc &&
           a->implicit_sc == b->implicit_sc;
}

static bool same_trace_shape(const tp_trace *a, const tp_trace *b)
{
    if (a == b)
        return true;
    if (a->nevents != b->nevents || a->dep_words != b->dep_words)
        return false;
    for (int i = 0; i < a->nevents; i++)
        if (!same_shape(&a->events[i], &b->events[i]))
            return false;
    size_t dep_words = (size_t)a->nevents * DEP_KINDS * (size_t)a->dep_words;
    if (memcmp(a->deps, b->deps, sizeof *a->deps * dep_words) != 0)
        return false;
    if (!a->unseq || !b->unseq)
        return !a->unseq && !b->unseq;
    return memcmp(a->unseq, b->unseq, sizeof *a->unseq * (size_t)a->nevents * (size_t)a->dep_words) == 0;
}

/* Combinations whose traces differ only in values read and written (the
 * usual case: a thread's traces differ mostly in guessed values) have the
 * same static relations and the same model results on them: those of the
 * combination prepared last stay in x and the workspace. */
static bool static_part_unchanged(const enum_exec *ex)
{
    if (!ex->has_prepared)
        return false;
    for (int th = 0; th < ex->t->nthreads; th++)
        if (!same_trace_shape(ex->prepared[th], chosen_trace(ex, th)))
            return false;
    return true;
}

static void remember_prepared(enum_exec *ex)
{
    ex->has_prepared = true;
    for (int th = 0; th < ex->t->nthreads; th++)
        ex->prepared[th] = chosen_trace(ex, th);
}

/* The combination's events as the liveness checker numbers them. */
static bool live_events(enum_ctx *c, const int *first)
{
    const enum_exec *ex = &c->ex;
    if (!c->live_thread) {
        c->live_thread = GC_MALLOC_ATOMIC(sizeof *c->live_thread * (size_t)ex->cap);
        c->live_value = GC_MALLOC_ATOMIC(sizeof *c->live_value * (size_t)ex->cap);
    }
    for (int i = 0; i < ex->n; i++) {
        c->live_thread[i] = ex->ev[i].thread;
        c->live_value[i] = ex->ev[i].value;
    }
    return live_set_events(c->live, &ex->paths, ex->choice, first, ex->n, c->live_thread, c->live_value);
}

static void run_combination(enum_ctx *c)
{
    enum_exec *ex = &c->ex;
    if (exec_combination_events(ex) > ex->cap) {
        c->r->too_big = true;
        return;
    }
    int first[MAX_THREADS];
    exec_add_events(ex, first);
    if (c->live && !live_events(c, first))
        return;
    if (!rf_collect_options(&c->rf, ex) || !co_collect_writes(&c->co, ex, c->r) ||
        !bar_collect(&c->bar, ex, c->live, c->r))
        return;
    if (!static_part_unchanged(ex)) {
        exec_fill_static(ex, first);
        co_forget_applied(&c->co, ex->t->nlocs);
        cat_prepare(c->model, c->ws, &ex->x);
        remember_prepared(ex);
    }
    c->co.count = c->co.staged ? co_choice_count(&c->co) : -1;
    choose_barriers(c, 0);
}

bool visit_combination(void *ctx)
{
    enum_ctx *c = ctx;
    if (out_of_budget(&c->budget))
        return false;
    if (c->live && (!live_accept_combination(c->live, &c->ex.paths, c->ex.choice) || live_combination_done(c->live)))
        return true;
    run_combination(c);
    return !c->budget.stop && !(c->live && live_cut_reached(c->live));
}
