/*
 * enumerate/choices.c: the innermost loops of the enumeration (see
 * enumerate/internal.h).  For one combination of thread traces whose static
 * execution is built: every arrival order of the barrier groups (and the
 * liveness pass's alternatives), then for every read a write to read from,
 * then a coherence order per location (one by one here, or all at once
 * through the model: co_staged.c), each candidate checked by the model.
 * Only rf, co, fr and syncbar change here.
 */
#include "enumerate/internal.h"

static void evaluate(enum_ctx *c)
{
    if (out_of_budget(&c->budget))
        return;
    c->r->candidates++;
    cat_verdict v = cat_check_prepared(c->model, c->ws, &c->ex.x);
    if (cat_undecided(c->ws))
        c->r->undecided = true;
    if (!v.consistent) {
        if (c->res.on_rejected && !cat_undecided(c->ws))
            final_states_rejected(c);
        return;
    }
    c->r->consistent++;
    if (c->live) {
        live_record(c->live, &c->ex.x);
        return;
    }
    final_states_record(c, v.flags);
}

/* Whether this combination's choices can stop: a limit, or (liveness
 * pass) nothing more to learn from it. */
static inline bool combination_over(const enum_ctx *c)
{
    return c->budget.stop || (c->live && live_combination_done(c->live));
}

static void choose_co(enum_ctx *c, int p)
{
    if (combination_over(c))
        return;
    if (p == c->co.nphys) {
        co_apply(&c->co, &c->rf, &c->ex.x, c->ex.n);
        evaluate(c);
        return;
    }
    for (int i = 0; i < c->co.nallowed[p]; i++) {
        c->co.choice[p] = c->co.list[p][i];
        choose_co(c, p + 1);
    }
}

/* Every read has its write (rf_choice): the coherence choices.  Kept out
 * of choose_rf's recursion, which then saves few registers per level. */
static __attribute__((noinline)) void rf_chosen(enum_ctx *c)
{
    const rf_state *rf = &c->rf;
    /* a limit is asked here too: where every choice fails co_allow_orders
     * (the liveness pass's final reads), no candidate would ever ask it */
    if (out_of_budget(&c->budget))
        return;
    if (c->live)
        live_set_rf(c->live, rf->nreads, rf->read_ev, rf->rf_choice);
    /* most choices of the liveness pass end here: rf is built after */
    if (!co_allow_orders(&c->co, rf, &c->ex, c->live))
        return;
    relation *rel = c->ex.x.rel[XR_RF];
    rel_clear(rel, c->ex.n);
    for (int i = 0; i < rf->nreads; i++)
        rel_add(rel, rf->rf_choice[i], rf->read_ev[i], c->ex.n);
    if (c->co.count > 0)
        evaluate_all_co(c);
    else if (!c->co.staged || co_may_pass(c))
        choose_co(c, 0);
}

static void choose_rf(enum_ctx *c, int r)
{
    if (combination_over(c))
        return;
    if (r == c->rf.nreads) {
        rf_chosen(c);
        return;
    }
    for (int o = 0; o < c->rf.nopts[r]; o++) {
        c->rf.rf_choice[r] = c->rf.opts[c->rf.opt_at[r] + o];
        choose_rf(c, r + 1);
    }
}

/* The liveness pass: the alternatives of the checker's barrier groups,
 * after the usual groups' choices. */
static void choose_live_barriers(enum_ctx *c, int g)
{
    if (c->budget.stop || live_combination_done(c->live))
        return;
    if (g == c->bar.nlive_groups) {
        bar_set_syncbar(&c->bar, c->ex.x.rel[XR_SYNCBAR], c->ex.n, g);
        if (bar_deadlock(&c->bar, &c->ex.x, c->ex.n))
            return;
        choose_rf(c, 0);
        return;
    }
    for (int a = 0; a < c->bar.live_nalts[g]; a++) {
        c->bar.live_choice[g] = a;
        choose_live_barriers(c, g + 1);
    }
}

void choose_barriers(enum_ctx *c, int g)
{
    if (c->budget.stop)
        return;
    if (g == c->bar.ngroups && c->live && c->bar.nlive_groups) {
        choose_live_barriers(c, 0);
        return;
    }
    if (g == c->bar.ngroups) {
        bar_set_syncbar(&c->bar, c->ex.x.rel[XR_SYNCBAR], c->ex.n, 0);
        if (g && bar_deadlock(&c->bar, &c->ex.x, c->ex.n)) {
            c->r->hang = true;
            return;
        }
        choose_rf(c, 0);
        return;
    }
    for (int a = 0; a < barriers_choices(c->bar.bars, g); a++) {
        c->bar.choice[g] = a;
        choose_barriers(c, g + 1);
    }
}
