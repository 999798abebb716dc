/*
 * enumerate/barrier_choice.c: the barriers of one combination of thread
 * traces (see enumerate/internal.h): their events grouped into syncbar
 * choices (enumerate/barriers.h), the liveness pass's groups handed to the
 * checker, syncbar from a choice, and whether a choice deadlocks.
 */
#include <gc.h>
#include <string.h>

#include "enumerate/internal.h"

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

static bool same_group(const bar_event *a, const bar_event *b)
{
    return a->cta == b->cta && a->gpu == b->gpu && a->id == b->id;
}

/* Barrier ids below this have their mates in bar_state.mates. */
#define BAR_TABLE_IDS 64

static bool code_has_barrier(const lit_thread *th, lit_value id)
{
    for (int pc = 0; pc < th->ninstrs; pc++) {
        const lit_instr *in = &th->instrs[pc];
        if (in->op == OP_BARRIER && in->a.kind == OPND_IMM && in->a.imm == id)
            return true;
    }
    return false;
}

/* Bit per thread: the threads of th's CTA that a use of barrier `id`
 * waits for besides those that arrive (bar_event.mates): all of them (the
 * hardware's reading) or those whose code holds a barrier of that id
 * (Dat3M's). */
static uint32_t mates_of(const litmus_test *t, enum bar_reading reading, int th, lit_value id)
{
    uint32_t mates = 0;
    for (int u = 0; u < t->nthreads; u++)
        if (t->threads[u].cta == t->threads[th].cta && t->threads[u].gpu == t->threads[th].gpu &&
            (reading == BAR_READ_HARDWARE || code_has_barrier(&t->threads[u], id)))
            mates |= (uint32_t)1 << u;
    return mates;
}

/* mates_of, remembered per thread and id below BAR_TABLE_IDS for the test
 * (UINT32_MAX: not yet known, or all 32 threads, computed again). */
static uint32_t event_mates(bar_state *bar, const litmus_test *t, int th, lit_value id)
{
    if (id < 0 || id >= BAR_TABLE_IDS)
        return mates_of(t, bar->reading, th, id);
    if (!bar->mates) {
        size_t bytes = sizeof *bar->mates * BAR_TABLE_IDS * (size_t)(t->nthreads ? t->nthreads : 1);
        bar->mates = GC_MALLOC_ATOMIC(bytes);
        memset(bar->mates, 0xff, bytes);
    }
    uint32_t *known = &bar->mates[th * BAR_TABLE_IDS + id];
    if (*known == UINT32_MAX)
        *known = mates_of(t, bar->reading, th, id);
    return *known;
}

/* live_set_events takes combinations of at most this many events. */
#define LIVE_COMBINATION_EVENTS 64

/* Whether event i of bar->ev is its group's first. */
static bool first_of_group(const bar_state *bar, int i)
{
    for (int j = 0; j < i; j++)
        if (same_group(&bar->ev[j], &bar->ev[i]))
            return false;
    return true;
}

/* One group of the liveness pass, at its first event i: its syncbar
 * alternatives from the checker (live_barrier_group), or 0 when the usual
 * choices cover it; -1 when the combination makes no stuck execution. */
static int live_group(bar_state *bar, live_ctx *live, int i, int nbar)
{
    const bar_event *b = &bar->ev[i];
    bool special = false;
    for (int j = i; j < nbar && !special; j++)
        special = same_group(&bar->ev[j], b) && live_barrier_special(live, bar->ev[j].event);
    if (!special)
        return 0;
    if (bar->nlive_groups == LIVE_GROUPS) {
        live_give_up(live, "a combination has too many barrier groups with a blocked sync");
        return -1;
    }
    if (!bar->live_alts)
        make_live_alts(bar);
    int events[LIVE_GROUP_EVENTS], m = 0;
    uint32_t takers = 0;     /* the participants (enumerate/barriers.h) */
    for (int j = i; j < nbar; j++) {
        if (!same_group(&bar->ev[j], b))
            continue;
        takers |= bar->ev[j].mates | (uint32_t)1 << bar->ev[j].thread;
        if (m == LIVE_GROUP_EVENTS) {
            live_give_up(live, "a barrier group with a blocked sync has too many events");
            return -1;
        }
        events[m++] = bar->ev[j].event;
    }
    int g = bar->nlive_groups;
    relation *const *alts = &bar->live_alts[g * LIVE_ALTS];
    int nalts = live_barrier_group(live, events, m, b->count, __builtin_popcount(takers), bar->reading, alts,
                                   LIVE_ALTS);
    if (nalts > 0) {
        bar->live_nalts[g] = nalts;
        bar->nlive_groups++;
    }
    return nalts;
}

/* The liveness pass: the barrier groups (CTA, id) with a blocked or
 * unfinished sync go to the checker (live_group), which lists their
 * syncbar alternatives; their events leave bar->ev (*nbar shrinks) so that
 * the usual choices cover the other groups, and those the checker leaves
 * to them.  False when the combination makes no stuck execution. */
static bool live_barrier_groups(bar_state *bar, live_ctx *live, int *nbar)
{
    bool checker[LIVE_COMBINATION_EVENTS];   /* per event: its group goes to the checker */
    if (*nbar > LIVE_COMBINATION_EVENTS) {
        live_give_up(live, "an execution has more than 64 events");
        return false;
    }
    for (int i = 0; i < *nbar; i++) {
        if (!first_of_group(bar, i)) {
            for (int j = 0; j < i; j++)
                if (same_group(&bar->ev[j], &bar->ev[i]))
                    checker[i] = checker[j];
            continue;
        }
        int nalts = live_group(bar, live, i, *nbar);
        if (nalts < 0)
            return false;
        checker[i] = nalts > 0;
    }
    int kept = 0;
    for (int i = 0; i < *nbar; i++)
        if (!checker[i])
            bar->ev[kept++] = bar->ev[i];
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
        uint32_t mates = te->count > 0 ? 0 : event_mates(bar, ex->t, ev[i].thread, te->value);
        out[nbar++] = (bar_event){i, ev[i].thread, th->cta, th->gpu, mates, te->value, te->count, te->waits};
    }
    bar->ngroups = 0;
    bar->nlive_groups = 0;
    if (live && !live_barrier_groups(bar, live, &nbar))
        return false;
    if (nbar == 0)
        return true;
    enum bar_status st = barriers_build(bar->bars, bar->ev, nbar, bar->reading);
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
