/*
 * enumerate/barrier_choice.c: the barriers of one combination of thread
 * traces (see enumerate/internal.h): their events grouped into syncbar
 * choices (enumerate/barriers.h), the liveness pass's groups handed to the
 * checker, syncbar from a choice, and whether a choice deadlocks.
 */
#include <gc.h>

#include "enumerate/internal.h"

static int cta_size(const litmus_test *t, int cta, int gpu)
{
    int n = 0;
    for (int th = 0; th < t->nthreads; th++)
        n += t->threads[th].cta == cta && t->threads[th].gpu == gpu;
    return n;
}

/* Storage for the checker's barrier alternatives: live_set_events refuses
 * combinations of more than 64 events, so each holds a relation of 64. */
static void make_live_alts(bar_state *bar)
{
    bar->live_alts = GC_MALLOC(sizeof *bar->live_alts * LIVE_GROUPS * LIVE_ALTS);
    char *block = GC_MALLOC_ATOMIC(rel_bytes(64) * LIVE_GROUPS * LIVE_ALTS);
    for (int i = 0; i < LIVE_GROUPS * LIVE_ALTS; i++)
        bar->live_alts[i] = (relation *)(block + (size_t)i * rel_bytes(64));
    bar->live_nalts = GC_MALLOC_ATOMIC(sizeof *bar->live_nalts * LIVE_GROUPS);
    bar->live_choice = GC_MALLOC_ATOMIC(sizeof *bar->live_choice * LIVE_GROUPS);
}

/* The liveness pass: the barrier groups (CTA, id) with a blocked or
 * unfinished sync go to the checker (live_barrier_group), which lists
 * their syncbar alternatives; their events leave bar->ev (*nbar shrinks)
 * so that the usual choices cover the other groups.  False when the
 * combination makes no stuck execution. */
static bool live_barrier_groups(bar_state *bar, const enum_exec *ex, live_ctx *live, int *nbar)
{
    int kept = 0;
    for (int i = 0; i < *nbar; i++) {
        const bar_event *b = &bar->ev[i];
        bool special = false;
        for (int j = 0; j < *nbar && !special; j++) {
            const bar_event *o = &bar->ev[j];
            special = o->cta == b->cta && o->gpu == b->gpu && o->id == b->id && live_barrier_special(live, o->event);
        }
        if (!special) {
            bar->ev[kept++] = *b;
            continue;
        }
        bool first = true;    /* the group is handled at its first event */
        for (int j = 0; j < i && first; j++)
            first = !(bar->ev[j].cta == b->cta && bar->ev[j].gpu == b->gpu && bar->ev[j].id == b->id);
        if (!first)
            continue;
        if (bar->nlive_groups == LIVE_GROUPS) {
            live_give_up(live, "a combination has too many barrier groups with a blocked sync");
            return false;
        }
        if (!bar->live_alts)
            make_live_alts(bar);
        int events[LIVE_GROUP_EVENTS], m = 0;
        lit_value count = b->count;
        for (int j = i; j < *nbar; j++) {
            const bar_event *o = &bar->ev[j];
            if (o->cta == b->cta && o->gpu == b->gpu && o->id == b->id) {
                if (m == LIVE_GROUP_EVENTS) {
                    live_give_up(live, "a barrier group with a blocked sync has too many events");
                    return false;
                }
                events[m++] = o->event;
            }
        }
        int g = bar->nlive_groups++;
        relation *const *alts = &bar->live_alts[g * LIVE_ALTS];
        int nalts = live_barrier_group(live, events, m, count, cta_size(ex->t, b->cta, b->gpu), alts, LIVE_ALTS);
        if (nalts <= 0)
            return false;
        bar->live_nalts[g] = nalts;
    }
    *nbar = kept;
    return true;
}

/* The combination's barrier events, grouped into syncbar choices; false
 * when they make no execution (a sync waits forever, or a counted barrier
 * has too many arrivals to order: the result says which). */
bool bar_collect(bar_state *bar, const enum_exec *ex, live_ctx *live, check_result *r)
{
    int nbar = 0, n = ex->n;
    const ev_info *ev = ex->ev;
    const lit_thread *threads = ex->t->threads;
    bar_event *out = bar->ev;
    for (int i = 0; i < n; i++) {
        const tp_event *te = ev[i].ev;
        if (!te || te->kind != EV_BARRIER)
            continue;
        const lit_thread *th = &threads[ev[i].thread];
        out[nbar++] = (bar_event){i, ev[i].thread, th->cta, th->gpu, te->value, te->count, te->waits};
    }
    bar->ngroups = 0;
    bar->nlive_groups = 0;
    if (live && !live_barrier_groups(bar, ex, live, &nbar))
        return false;
    if (nbar == 0)
        return true;
    enum bar_status st = barriers_build(bar->bars, bar->ev, nbar);
    bar->ngroups = barriers_groups(bar->bars);
    if (barriers_hang(bar->bars) || st == BAR_HANG)
        r->hang = true;
    if (st == BAR_TOO_MANY)
        r->barriers_cut = true;
    return st == BAR_OK;
}

/* A barrier choice deadlocks when some event must arrive after it departs:
 * a cycle through program order and "arrives no later than it departs". */
bool bar_deadlock(const bar_state *bar, const exec *x, int n)
{
    const evword *bars = exec_set(x, XS_B);
    relation *waits = bar->scratch[0], *po_bar = bar->scratch[1], *step = bar->scratch[2];
    rel_star(waits, x->rel[XR_SYNCBAR], bars, n);
    rel_restrict(po_bar, x->rel[XR_PO], bars, bars, n);
    rel_seq(step, waits, po_bar, n);
    rel_plus(step, step, n);
    return !rel_is_irreflexive(step, n);
}
