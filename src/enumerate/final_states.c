/*
 * enumerate/final_states.c: what a consistent execution gives (see
 * enumerate/internal.h): its final states (one per choice of a co-maximal
 * write for each observed location) into the result, with whether the
 * condition holds on each; the pairs of its relation-valued flags (races);
 * and the caller's hooks on each execution, consistent or rejected.
 */
#include <gc.h>
#include <string.h>

#include "enumerate/internal.h"

static lit_value observed_value_reg(const enum_ctx *c, const lit_term *term)
{
    return chosen_trace(&c->ex, term->thread)->regs[term->reg];
}

/* The condition's proposition on the final state just added as outcome
 * `index`: evaluated once per distinct state, which repeats across many
 * executions. */
static bool proposition_holds(enum_ctx *c, int index)
{
    if (index < c->res.nholds)
        return c->res.holds[index];
    if (index == c->res.holds_cap) {
        c->res.holds_cap = c->res.holds_cap ? 2 * c->res.holds_cap : 16;
        bool *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)c->res.holds_cap);
        if (c->res.nholds)
            memcpy(grown, c->res.holds, sizeof *grown * (size_t)c->res.nholds);
        c->res.holds = grown;
    }
    c->res.holds[c->res.nholds++] = condition_holds(c->ex.t, c->ex.t->cond, c->res.state);
    return c->res.holds[index];
}

/* Hands the execution in x to the caller (drawing), with its events. */
static void notify_execution(enum_ctx *c, enum_execution_fn fn, bool holds)
{
    enum_event_info info[REL_MAX_EVENTS];
    for (int i = 0; i < c->ex.n; i++) {
        const ev_info *e = &c->ex.ev[i];
        const tp_event *te = e->ev;
        info[i].thread = e->thread;
        info[i].instr = te ? te->instr : -1;
        info[i].kind = !te ? 'W' : te->kind == EV_READ ? 'R' : te->kind == EV_WRITE ? 'W'
                     : te->kind == EV_RMW ? 'U' : te->kind == EV_FENCE ? 'F' : 'B';
        info[i].loc = te ? (te->kind == EV_READ || te->kind == EV_WRITE || te->kind == EV_RMW ? te->loc : -1)
                         : e->vloc;
        info[i].value = e->value;
        info[i].wvalue = e->wvalue;
    }
    fn(c->res.execution_ctx, &c->ex.x, info, c->ex.n, c->res.state, holds, c->res.rejecting ? 0 : c->res.exec_flags);
}

static void record_state(enum_ctx *c, int obs)
{
    const litmus_test *t = c->ex.t;
    if (obs == t->nobserved + t->nhidden) {
        if (t->filter && !condition_holds(t, t->filter, c->res.state))
            return; /* herd's filter drops the execution */
        if (c->res.rejecting) {
            notify_execution(c, c->res.on_rejected, condition_holds(t, t->cond, c->res.state));
            return;
        }
        bool holds = proposition_holds(c, outcome_add(c->r->states, c->res.state));
        if (holds)
            c->r->positive++;
        else
            c->r->negative++;
        if (c->res.on_execution)
            notify_execution(c, c->res.on_execution, holds);
        return;
    }
    const lit_term *term = obs < t->nobserved ? &t->observed[obs] : &t->hidden[obs - t->nobserved];
    if (term->kind != TERM_LOC) {
        c->res.state[obs] = term->kind == TERM_REG ? observed_value_reg(c, term) : term->value;
        record_state(c, obs + 1);
        return;
    }
    /* any co-maximal write may give the final value */
    int phys = t->locs[term->loc].physical;
    const loc_writes *lw = &c->co.locw[phys];
    const relation *co = c->ex.x.rel[XR_CO];
    if (lw->k == 0) {
        c->res.state[obs] = c->ex.ev[lw->init].wvalue;
        record_state(c, obs + 1);
        return;
    }
    for (int i = 0; i < lw->k; i++) {
        int w = lw->w[i];
        if (!set_is_empty(rel_crow(co, w, c->ex.n), c->ex.n))
            continue;
        c->res.state[obs] = c->ex.ev[w].wvalue;
        record_state(c, obs + 1);
    }
}

static void add_race(enum_ctx *c, int flag, int a, int b)
{
    const ev_info *ea = &c->ex.ev[a], *eb = &c->ex.ev[b];
    if (!ea->ev && !eb->ev)
        return;
    /* an initial write (no instruction) is thread -1, instruction -1 */
    race_report rr = {flag, ea->thread, ea->ev ? ea->ev->instr : -1, eb->thread, eb->ev ? eb->ev->instr : -1,
                      ea->phys >= 0 ? ea->vloc : eb->phys >= 0 ? eb->vloc : -1};
    if (rr.thread_a > rr.thread_b || (rr.thread_a == rr.thread_b && rr.instr_a > rr.instr_b)) {
        rr.thread_a = eb->thread, rr.instr_a = eb->ev ? eb->ev->instr : -1;
        rr.thread_b = ea->thread, rr.instr_b = ea->ev ? ea->ev->instr : -1;
    }
    check_result *r = c->r;
    for (int i = 0; i < r->nraces; i++)
        if (memcmp(&r->races[i], &rr, sizeof rr) == 0)
            return;
    if (r->nraces == c->res.races_cap) {
        c->res.races_cap = c->res.races_cap ? 2 * c->res.races_cap : 8;
        race_report *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)c->res.races_cap);
        if (r->nraces)
            memcpy(grown, r->races, sizeof *grown * (size_t)r->nraces);
        r->races = grown;
    }
    r->races[r->nraces++] = rr;
}

void final_states_races(enum_ctx *c, unsigned flags)
{
    int n = c->ex.n;
    for (int f = 0; flags; f++, flags >>= 1) {
        if (!(flags & 1u))
            continue;
        const relation *pairs = cat_flag_relation(c->model, c->ws, f);
        for (int i = 0; pairs && i < n; i++) {
            const evword *row = rel_crow(pairs, i, n);
            for (int j = set_next(row, 0, n); j >= 0; j = set_next(row, j + 1, n))
                add_race(c, f, i, j);
        }
    }
}

void final_states_rejected(enum_ctx *c)
{
    c->res.rejecting = true;
    record_state(c, 0);
    c->res.rejecting = false;
}

void final_states_walk(enum_ctx *c)
{
    record_state(c, 0);
}
