/*
 * enumerate/liveness.c: stuck executions (see enumerate/liveness.h and
 * docs/liveness.md).
 *
 * The enumerator runs a second pass over the traces of liveness mode and
 * asks this module, at each level of its choices, whether the choice can
 * still be a stuck execution: which trace combinations (how each trace
 * ends, the scheduling), which barrier groups (blocked ones never
 * release), which rf/co choices (the reads of a stuck iteration read final
 * values).  A consistent execution that passes all three is a violation.
 */
#include "enumerate/liveness.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 32

/* The events of one execution the check follows: one word of bits.  A
 * combination with more is left undecided (live_set_events). */
#define LIVE_MAX_EVENTS 64

typedef uint64_t evset;
static inline evset evset_of(int e) { return (evset)1 << e; }
static inline bool evset_has(evset s, int e) { return (s >> e) & 1u; }

struct live_ctx {
    const litmus_test *t;
    live_options o;
    live_result *r;
    /* the CTAs: per thread its CTA, per CTA its GPU and rank on the GPU
     * (order of first thread), per GPU its number of CTAs */
    int ncta;
    int cta_of[MAX_THREADS];
    int cta_gpu[MAX_THREADS];
    int cta_rank[MAX_THREADS];
    int gpu_ctas[MAX_THREADS];
    int gpu_index[MAX_THREADS];   /* per CTA: a dense index of its GPU */
    int ngpu;
    /* the accepted combination */
    uint8_t end[MAX_THREADS];        /* enum tp_end per thread */
    bool progress[MAX_THREADS];      /* a spin that passes a progress label */
    int loop_pc[MAX_THREADS];
    bool undispatched[MAX_THREADS];  /* per thread */
    bool cta_finished[MAX_THREADS];  /* per CTA: all its threads finished */
    /* its events */
    int n;
    evset stuck_reads, stuck_writes, blocked;
    evset syncs;                     /* barrier events that wait */
    evset pending;                   /* ... that end a partial trace: maybe still waiting */
    int source[LIVE_MAX_EVENTS];      /* per stuck read: its write in the rf choice */
    const char *unknown;             /* a combination left undecided: why */
    bool cut_phase;                  /* looking for a reachable cut, not a stuck execution */
    bool cut_reached;
    bool combination_done;           /* every stuck thread of it is already reported */
    int ev_thread[LIVE_MAX_EVENTS];
    lit_value ev_value[LIVE_MAX_EVENTS];
    int ev_loc[LIVE_MAX_EVENTS];      /* location as addressed, -1 for others */
    relation *scratch;               /* LIVE_MAX_EVENTS events */
};

bool live_test_may_hang(const litmus_test *t)
{
    for (int th = 0; th < t->nthreads; th++)
        for (int pc = 0; pc < t->threads[th].ninstrs; pc++) {
            const lit_instr *in = &t->threads[th].instrs[pc];
            if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= pc)
                return true;
            if (in->op == OP_BARRIER && in->barrier_waits)
                return true;
        }
    return false;
}

static int find_cta(const live_ctx *lc, const lit_thread *th)
{
    for (int c = 0; c < lc->ncta; c++) {
        const lit_thread *first = NULL;
        for (int u = 0; u < lc->t->nthreads && !first; u++)
            if (lc->cta_of[u] == c)
                first = &lc->t->threads[u];
        if (first && first->cta == th->cta && first->gpu == th->gpu)
            return c;
    }
    return -1;
}

/* CTAs in the order of their first thread, ranked per GPU. */
static void find_ctas(live_ctx *lc)
{
    const litmus_test *t = lc->t;
    int gpu_id[MAX_THREADS];
    for (int th = 0; th < t->nthreads && th < MAX_THREADS; th++) {
        lc->cta_of[th] = -1;
        int c = find_cta(lc, &t->threads[th]);
        if (c >= 0) {
            lc->cta_of[th] = c;
            continue;
        }
        c = lc->ncta++;
        lc->cta_of[th] = c;
        int g = 0;
        while (g < lc->ngpu && gpu_id[g] != t->threads[th].gpu)
            g++;
        if (g == lc->ngpu) {
            gpu_id[lc->ngpu++] = t->threads[th].gpu;
            lc->gpu_ctas[g] = 0;
        }
        lc->gpu_index[c] = g;
        lc->cta_gpu[c] = t->threads[th].gpu;
        lc->cta_rank[c] = lc->gpu_ctas[g]++;
    }
}

live_ctx *live_ctx_new(const litmus_test *t, const live_options *o, live_result *r)
{
    live_ctx *lc = GC_MALLOC(sizeof *lc);
    lc->t = t;
    lc->o = *o;
    lc->r = r;
    memset(r, 0, sizeof *r);
    lc->scratch = GC_MALLOC_ATOMIC(rel_bytes(LIVE_MAX_EVENTS));
    find_ctas(lc);
    return lc;
}

void live_path_limits(const live_ctx *lc, tp_limits *lim)
{
    lim->liveness = true;
    lim->prefixes = lc->o.fairness == LIVE_FAIR_NONE;
    lim->empty_prefix = lc->o.occupancy > 0;
}

/* ---- trace combinations --------------------------------------------------- */

static bool is_stuck(const tp_trace *tr)
{
    return (tr->end == TP_END_SPIN && !tr->progress) || tr->end == TP_END_BLOCKED;
}

/* With an occupancy bound: per GPU, the CTAs dispatched are the first
 * N + F (F: those whose threads all finished); the others must not have
 * run.  Marks the threads of the others as never dispatched. */
static bool dispatch_consistent(live_ctx *lc, const tp_result *paths, const int *choice)
{
    const litmus_test *t = lc->t;
    bool finished[MAX_THREADS], idle[MAX_THREADS];
    int done_on_gpu[MAX_THREADS] = {0};
    for (int c = 0; c < lc->ncta; c++)
        finished[c] = idle[c] = true;
    for (int th = 0; th < t->nthreads; th++) {
        const tp_trace *tr = &paths->threads[th].traces[choice[th]];
        int c = lc->cta_of[th];
        finished[c] &= tr->end == TP_END_DONE;
        idle[c] &= tr->end == TP_END_PREFIX && tr->nevents == 0;
    }
    for (int c = 0; c < lc->ncta; c++) {
        done_on_gpu[lc->gpu_index[c]] += finished[c];
        lc->cta_finished[c] = finished[c];
    }
    for (int th = 0; th < t->nthreads; th++) {
        int c = lc->cta_of[th];
        const tp_trace *tr = &paths->threads[th].traces[choice[th]];
        bool dispatched = lc->cta_rank[c] < lc->o.occupancy + done_on_gpu[lc->gpu_index[c]];
        lc->undispatched[th] = !dispatched;
        if (!dispatched && !idle[c])
            return false;
        if (dispatched && lc->o.fairness == LIVE_FAIR_WEAK && tr->end == TP_END_PREFIX)
            return false;
    }
    return true;
}

void live_set_phase(live_ctx *lc, bool cut_phase)
{
    lc->cut_phase = cut_phase;
    lc->cut_reached = false;
}

bool live_cut_reached(const live_ctx *lc) { return lc->cut_reached; }

/* A partial trace that ends with reads (or fences, barriers) serves no
 * other thread more than its prefix up to its last write does, and a
 * consistent execution stays consistent without those last events: where
 * a thread may stop anywhere, only the traces that end with a write (or
 * hold nothing) need be tried. */
static bool ends_with_write(const tp_trace *tr)
{
    return tr->nevents == 0 || tr->events[tr->nevents - 1].kind == EV_WRITE;
}

/* A cut is reachable when some consistent partial execution holds a trace
 * that ends at it; every other thread may be anywhere on its paths. */
static bool accept_cut_combination(live_ctx *lc, const tp_result *paths, const int *choice)
{
    bool cut = false;
    for (int th = 0; th < lc->t->nthreads; th++) {
        const tp_trace *tr = &paths->threads[th].traces[choice[th]];
        lc->end[th] = tr->end;
        if (tr->end == TP_END_CUT)
            cut = true;
        else if (!ends_with_write(tr))
            return false;
    }
    return cut;
}

static bool known_stuck(const live_result *r, int thread, enum live_kind kind, int instr)
{
    for (int i = 0; i < r->nstuck; i++)
        if (r->stuck[i].thread == thread && r->stuck[i].kind == kind && r->stuck[i].instr == instr)
            return true;
    return false;
}

/* Whether a violation in the accepted combination could add nothing to
 * the result: a violation was found, and each of its stuck threads (at its
 * place) is already reported, or the list is full.  The verdict is No
 * already, and a thread's entry keeps the reads of the first violation
 * that reported it, so the combination's executions need not be built. */
static bool nothing_new(const live_ctx *lc)
{
    const live_result *r = lc->r;
    if (!r->violations)
        return false;
    if (r->nstuck == LIVE_MAX_STUCK)
        return true;
    for (int th = 0; th < lc->t->nthreads; th++) {
        if (lc->end[th] == TP_END_SPIN && !lc->progress[th] && !known_stuck(r, th, LIVE_SPIN, lc->loop_pc[th]))
            return false;
        if (lc->end[th] == TP_END_BLOCKED && !known_stuck(r, th, LIVE_BARRIER, lc->loop_pc[th]))
            return false;
        if (lc->undispatched[th] && !known_stuck(r, th, LIVE_UNDISPATCHED, -1))
            return false;
    }
    return true;
}

bool live_accept_combination(live_ctx *lc, const tp_result *paths, const int *choice)
{
    const litmus_test *t = lc->t;
    bool stuck = false;
    if (lc->cut_phase)
        return accept_cut_combination(lc, paths, choice);
    for (int th = 0; th < t->nthreads; th++) {
        const tp_trace *tr = &paths->threads[th].traces[choice[th]];
        lc->end[th] = tr->end;
        lc->progress[th] = tr->progress;
        lc->loop_pc[th] = tr->loop_pc;
        lc->undispatched[th] = false;
        stuck |= is_stuck(tr);
        if (tr->end == TP_END_CUT)
            return false;
        if (tr->end == TP_END_PREFIX && lc->o.fairness == LIVE_FAIR_WEAK && lc->o.occupancy == 0)
            return false;
        if (tr->end == TP_END_PREFIX && !ends_with_write(tr))
            return false;
    }
    if (!stuck)
        return false;
    if (lc->o.occupancy > 0 && !dispatch_consistent(lc, paths, choice))
        return false;
    lc->combination_done = nothing_new(lc);
    return true;
}

bool live_combination_done(const live_ctx *lc) { return lc->combination_done; }

static int undecided(live_ctx *lc, const char *why);

bool live_set_events(live_ctx *lc, const tp_result *paths, const int *choice, const int *first, int n,
                     const int *thread, const lit_value *value)
{
    if (n > LIVE_MAX_EVENTS) {
        undecided(lc, "an execution has more than 64 events");
        return false;
    }
    lc->n = n;
    lc->stuck_reads = lc->stuck_writes = lc->blocked = lc->syncs = lc->pending = 0;
    for (int i = 0; i < n; i++) {
        lc->ev_thread[i] = thread[i];
        lc->ev_value[i] = value[i];
        lc->ev_loc[i] = -1;
    }
    for (int th = 0; th < lc->t->nthreads; th++) {
        const tp_trace *tr = &paths->threads[th].traces[choice[th]];
        for (int k = 0; k < tr->nevents; k++) {
            const tp_event *e = &tr->events[k];
            int i = first[th] + k;
            if (e->kind == EV_RMW) { /* herd's C: one event that reads and writes */
                undecided(lc, "the liveness check does not know herd's C read-modify-write events");
                return false;
            }
            if (e->kind == EV_READ || e->kind == EV_WRITE)
                lc->ev_loc[i] = e->loc;
            if (tr->end == TP_END_SPIN && k >= tr->spin_from) {
                if (e->kind == EV_READ)
                    lc->stuck_reads |= evset_of(i);
                else if (e->kind == EV_WRITE)
                    lc->stuck_writes |= evset_of(i);
            }
            if (e->kind == EV_BARRIER && e->waits)
                lc->syncs |= evset_of(i);
            bool last = k == tr->nevents - 1 && e->kind == EV_BARRIER && e->waits;
            if (last && tr->end == TP_END_BLOCKED && !lc->cut_phase)
                lc->blocked |= evset_of(i);
            else if (last && tr->end != TP_END_DONE && tr->end != TP_END_SPIN)
                lc->pending |= evset_of(i);
        }
    }
    return true;
}

void live_give_up(live_ctx *lc, const char *why)
{
    undecided(lc, why);
}

bool live_barrier_special(const live_ctx *lc, int event)
{
    return evset_has(lc->blocked | lc->pending, event);
}

/* ---- barriers ---------------------------------------------------------------- */

/* The generation of each event of a barrier group: how many arrivals of
 * its own thread at the group come before it.  Exact when each thread
 * arrives once per use of the barrier, as with a whole-CTA barrier. */
static int generations(const live_ctx *lc, const int *events, int m, int *gen)
{
    int most = 0;
    for (int i = 0; i < m; i++) {
        gen[i] = 0;
        for (int j = 0; j < i; j++)
            gen[i] += lc->ev_thread[events[j]] == lc->ev_thread[events[i]];
        most = gen[i] > most ? gen[i] : most;
    }
    return most + 1;
}

static int undecided(live_ctx *lc, const char *why)
{
    if (!lc->unknown)
        lc->unknown = why;
    return -1;
}

/* A whole-CTA barrier (no count): uses told apart by generation. */
static int whole_cta_group(live_ctx *lc, const int *events, int m, lit_value expected, relation *syncbar)
{
    int gen[LIVE_MAX_EVENTS];
    int ngen = generations(lc, events, m, gen);
    evset departed = lc->syncs & ~lc->blocked & ~lc->pending;
    rel_clear(syncbar, lc->n);
    for (int g = 0; g < ngen; g++) {
        int arrivals = 0;
        bool blocked = false, passed = false;
        for (int i = 0; i < m; i++) {
            if (gen[i] != g)
                continue;
            arrivals++;
            blocked |= evset_has(lc->blocked, events[i]);
            passed |= evset_has(departed, events[i]);
        }
        /* a use that releases releases every waiter; one that cannot
         * release lets no one pass */
        if (blocked && (passed || arrivals >= expected))
            return -1;
        if (passed && arrivals < expected)
            return -1;
        /* a use that released: every arrival before every departure */
        for (int i = 0; i < m && passed; i++)
            for (int j = 0; j < m; j++)
                if (gen[i] == g && gen[j] == g && i != j && evset_has(departed, events[j]))
                    rel_add(syncbar, events[i], events[j], lc->n);
    }
    return 1;
}

/* A counted barrier: in arrival order, each `count` arrivals release one
 * use; the arrivals after the last full use wait forever.  Every arrival
 * order that keeps each thread's own arrivals in program order and puts
 * the blocked syncs (and only them, among the syncs that must depart)
 * after the last full use gives one syncbar alternative. */
typedef struct count_search {
    live_ctx *lc;
    const int *events;
    int m, count;
    int order[LIVE_MAX_EVENTS];
    bool used[LIVE_MAX_EVENTS];
    relation *const *alts;
    int nalts, max_alts;
} count_search;

static void count_order_done(count_search *cs)
{
    live_ctx *lc = cs->lc;
    int full = cs->m / cs->count * cs->count;   /* positions released */
    evset departed = lc->syncs & ~lc->blocked & ~lc->pending;
    relation *rel = lc->scratch;
    rel_clear(rel, lc->n);
    for (int p = 0; p < cs->m; p++) {
        int e = cs->events[cs->order[p]];
        if (p >= full && evset_has(departed, e))
            return;
        if (p < full && evset_has(lc->blocked, e))
            return;
        if (p >= full || !evset_has(departed, e))
            continue;
        int release = (p / cs->count + 1) * cs->count;
        for (int q = 0; q < release; q++)
            if (q != p)
                rel_add(rel, cs->events[cs->order[q]], e, lc->n);
    }
    for (int a = 0; a < cs->nalts; a++)
        if (rel_equal(cs->alts[a], rel, lc->n))
            return;
    if (cs->nalts < cs->max_alts)
        rel_copy(cs->alts[cs->nalts++], rel, lc->n);
}

static void count_orders(count_search *cs, int depth)
{
    if (depth == cs->m) {
        count_order_done(cs);
        return;
    }
    for (int i = 0; i < cs->m; i++) {
        if (cs->used[i])
            continue;
        /* a thread's earlier arrival comes first */
        bool ready = true;
        for (int j = 0; j < i && ready; j++)
            ready = cs->used[j] || cs->lc->ev_thread[cs->events[j]] != cs->lc->ev_thread[cs->events[i]];
        if (!ready)
            continue;
        cs->used[i] = true;
        cs->order[depth] = i;
        count_orders(cs, depth + 1);
        cs->used[i] = false;
    }
}

/* Dat3M's reading (enumerate/barriers.h), the safety half's phases: a
 * counted barrier that receives `count` arrivals holds no one forever, and
 * with fewer holds every sync; without a count, a thread's k-th event is
 * in phase k, and a phase that one of the `participants` never reaches
 * holds its syncs forever.  One syncbar alternative: every event of
 * a phase up to a released sync's arrives before it departs. */
static int dat3m_group(live_ctx *lc, const int *events, int m, lit_value count, int participants,
                       relation *syncbar)
{
    int gen[LIVE_MAX_EVENTS], size[LIVE_MAX_EVENTS] = {0};
    generations(lc, events, m, gen);
    for (int i = 0; i < m; i++)
        size[gen[i]]++;
    /* every thread that arrives has its first event in phase 0 */
    int threads = participants > size[0] ? participants : size[0];
    evset departed = lc->syncs & ~lc->blocked & ~lc->pending;
    bool holds = false;                      /* some sync waits forever */
    for (int i = 0; i < m; i++) {
        int e = events[i];
        bool forever = count > 0 ? m < count : size[gen[i]] < threads;
        if (!evset_has(lc->syncs, e))
            continue;
        if ((forever && evset_has(departed, e)) || (!forever && evset_has(lc->blocked, e)))
            return -1;
        holds |= forever;
    }
    if (!holds)
        return 0;
    rel_clear(syncbar, lc->n);
    if (count > 0)                           /* fewer than count: no one departs */
        return 1;
    for (int s = 0; s < m; s++) {
        if (!evset_has(lc->syncs, events[s]) || size[gen[s]] < threads)
            continue;
        for (int a = 0; a < m; a++)
            if (a != s && gen[a] <= gen[s])
                rel_add(syncbar, events[a], events[s], lc->n);
    }
    return 1;
}

int live_barrier_group(live_ctx *lc, const int *events, int m, lit_value count, int participants,
                       enum bar_reading reading, relation *const *alts, int max_alts)
{
    bool special = false;
    for (int i = 0; i < m; i++)
        special |= evset_has(lc->blocked | lc->pending, events[i]);
    if (!special)
        return 0;
    if (reading == BAR_READ_DAT3M)
        return dat3m_group(lc, events, m, count, participants, alts[0]);
    if (count < 0)
        return whole_cta_group(lc, events, m, participants, alts[0]);
    if (count < 1)
        return -1;
    count_search cs = {.lc = lc, .events = events, .m = m, .count = (int)count, .alts = alts,
                       .max_alts = max_alts};
    count_orders(&cs, 0);
    if (cs.nalts == max_alts)
        return undecided(lc, "a counted barrier has too many arrival orders");
    return cs.nalts ? cs.nalts : -1;
}

/* ---- final reads --------------------------------------------------------------- */

static int rf_source(const exec *x, int n, int read)
{
    for (int w = 0; w < n; w++)
        if (rel_has(x->rel[XR_RF], w, read, n))
            return w;
    return -1;
}

bool live_reads_final(const live_ctx *lc, const exec *x)
{
    const relation *co = x->rel[XR_CO];
    if (lc->cut_phase)
        return true;
    for (evset rs = lc->stuck_reads; rs; rs &= rs - 1) {
        int r = __builtin_ctzll(rs);
        int w = rf_source(x, lc->n, r);
        if (w < 0)
            return false;
        for (int later = 0; later < lc->n; later++)
            if (rel_has(co, w, later, lc->n) &&
                (!evset_has(lc->stuck_writes, later) || lc->ev_value[later] != lc->ev_value[r]))
                return false;
    }
    return true;
}

void live_set_rf(live_ctx *lc, int nreads, const int *read_ev, const int *source)
{
    for (int i = 0; i < nreads; i++)
        lc->source[read_ev[i]] = source[i];
}

/* Once per location and reads-from choice, not once per order: the
 * orders of a location with seven writes are thousands, and testing
 * each against every stuck read was nine tenths of the time of
 * PriorSem-bool's liveness pass. */
bool live_order_never(const live_ctx *lc, const int *writes, int k, int init, uint8_t *never)
{
    if (lc->cut_phase)
        return true;
    unsigned all = (1u << k) - 1;
    for (evset rs = lc->stuck_reads; rs; rs &= rs - 1) {
        int r = __builtin_ctzll(rs), src = lc->source[r];
        unsigned final = 0;     /* the writes that may come after src */
        int at = -1;
        for (int j = 0; j < k; j++) {
            if (evset_has(lc->stuck_writes, writes[j]) && lc->ev_value[writes[j]] == lc->ev_value[r])
                final |= 1u << j;
            if (writes[j] == src)
                at = j;
        }
        if (src == init) {
            if (final != all)
                return false;
        } else if (at >= 0) {
            never[at] |= (uint8_t)(all & ~final);
        }
    }
    return true;
}

/* ---- violations ------------------------------------------------------------------ */

static live_stuck *stuck_entry(live_result *r, int thread, enum live_kind kind, int instr)
{
    for (int i = 0; i < r->nstuck; i++)
        if (r->stuck[i].thread == thread && r->stuck[i].kind == kind && r->stuck[i].instr == instr)
            return NULL;
    if (r->nstuck == LIVE_MAX_STUCK)
        return NULL;
    live_stuck *s = &r->stuck[r->nstuck++];
    memset(s, 0, sizeof *s);
    s->thread = thread;
    s->kind = kind;
    s->instr = instr;
    return s;
}

/* The (location, value) pairs a stuck loop reads forever, each once. */
static void note_reads(const live_ctx *lc, live_stuck *s)
{
    for (evset rs = lc->stuck_reads; rs; rs &= rs - 1) {
        int i = __builtin_ctzll(rs);
        if (lc->ev_thread[i] != s->thread)
            continue;
        bool seen = false;
        for (int k = 0; k < s->nreads; k++)
            seen |= s->read_loc[k] == lc->ev_loc[i] && s->read_value[k] == lc->ev_value[i];
        if (!seen && s->nreads < LIVE_MAX_READS) {
            s->read_loc[s->nreads] = lc->ev_loc[i];
            s->read_value[s->nreads++] = lc->ev_value[i];
        }
    }
}

/* With an occupancy bound, CTA B of rank r >= N starts when the
 * (r - N + 1)-th CTA of its GPU finishes: a CTA that finished by then
 * cannot read what B writes.  Is there an order in which the finished
 * CTAs finish that respects every reads-from of the execution?  Each
 * finished CTA A must finish later than position d(B) = r - N + 1 for
 * every B it reads from, and B itself after its own d(B); such an order
 * exists when, for every k, at most f - k CTAs need a position beyond k. */
static bool dispatch_order_exists(const live_ctx *lc, const exec *x)
{
    int n = lc->o.occupancy;
    int after[MAX_THREADS];      /* per CTA: it must finish after this many */
    for (int c = 0; c < lc->ncta; c++)
        after[c] = lc->cta_rank[c] >= n ? lc->cta_rank[c] - n + 1 : 0;
    for (int w = 0; w < lc->n; w++) {
        if (lc->ev_thread[w] < 0)
            continue;
        int b = lc->cta_of[lc->ev_thread[w]];
        int d = lc->cta_rank[b] >= n ? lc->cta_rank[b] - n + 1 : 0;
        for (int r = 0; r < lc->n; r++) {
            if (!rel_has(x->rel[XR_RF], w, r, lc->n) || lc->ev_thread[r] < 0)
                continue;
            int a = lc->cta_of[lc->ev_thread[r]];
            if (a != b && lc->gpu_index[a] == lc->gpu_index[b] && d > after[a])
                after[a] = d;
        }
    }
    for (int g = 0; g < lc->ngpu; g++) {
        int f = 0, need[MAX_THREADS + 1] = {0};
        for (int c = 0; c < lc->ncta; c++)
            if (lc->gpu_index[c] == g && lc->cta_finished[c]) {
                f++;
                need[after[c] < MAX_THREADS ? after[c] : MAX_THREADS]++;
            }
        int beyond = 0;          /* CTAs that must finish after position k */
        for (int k = MAX_THREADS; k >= 0; k--) {
            beyond += need[k];
            if (beyond > 0 && beyond > f - k)
                return false;
        }
    }
    return true;
}

void live_record(live_ctx *lc, const exec *x)
{
    live_result *r = lc->r;
    if (lc->cut_phase) {
        lc->cut_reached = true;
        return;
    }
    /* the orders were filtered with live_order_ok: this is the same
     * condition on the whole of co, checked once more */
    if (!live_reads_final(lc, x))
        return;
    if (lc->o.occupancy > 0 && !dispatch_order_exists(lc, x))
        return;
    r->violations++;
    lc->combination_done = true; /* its stuck threads are all reported below */
    for (int th = 0; th < lc->t->nthreads; th++) {
        live_stuck *s = NULL;
        if (lc->end[th] == TP_END_SPIN && !lc->progress[th]) {
            s = stuck_entry(r, th, LIVE_SPIN, lc->loop_pc[th]);
            if (s)
                note_reads(lc, s);
        } else if (lc->end[th] == TP_END_BLOCKED) {
            stuck_entry(r, th, LIVE_BARRIER, lc->loop_pc[th]);
        } else if (lc->undispatched[th]) {
            stuck_entry(r, th, LIVE_UNDISPATCHED, -1);
        }
    }
}

static int compare_stuck(const void *a, const void *b)
{
    const live_stuck *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread - y->thread;
    if (x->kind != y->kind)
        return (int)x->kind - (int)y->kind;
    return x->instr - y->instr;
}

/* The word of the JSON convention for a reason the answer is unknown:
 * the enumerator's words stand for themselves. */
static const char *incomplete_word(const char *why)
{
    static const char *const words[] = {"timeout",        "max-memory",     "interrupted",    "too-many-events",
                                        "too-many-writes", "too-many-paths", "too-many-values"};
    static const struct {
        const char *reason, *word;
    } reasons[] = {
        {"a thread has too many paths", "too-many-paths"},
        {"the value search stopped before closing", "too-many-values"},
        {"the liveness check does not know herd's C read-modify-write events", "unsupported"},
        {"a loop that writes to memory may run more iterations", "loop-bound"},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(why, words[i]) == 0)
            return words[i];
    for (size_t i = 0; i < sizeof reasons / sizeof *reasons; i++)
        if (strncmp(why, reasons[i].reason, strlen(reasons[i].reason)) == 0)
            return reasons[i].word;
    return "too-many-events"; /* an execution, a barrier group or the threads beyond the check */
}

void live_finish(live_ctx *lc, const char *unknown)
{
    live_result *r = lc->r;
    qsort(r->stuck, (size_t)r->nstuck, sizeof *r->stuck, compare_stuck);
    if (!unknown)
        unknown = lc->unknown;
    if (r->violations)
        r->verdict = LIVE_NO;
    else if (unknown)
        r->verdict = LIVE_UNKNOWN, r->unknown = unknown, r->incomplete = incomplete_word(unknown);
    else
        r->verdict = LIVE_OK;
}
