/*
 * enumerate/enumerate.c: candidate executions (see enumerate.h).
 *
 * Order of choices, outermost first: one trace per thread (values of reads
 * already guessed), then for every read a write of the same location and
 * value, then a coherence order per location, then an arrival order per
 * counted barrier.  Everything that depends only on the traces is computed
 * once per combination; the innermost loop only writes rf, co, fr and
 * syncbar and calls the model.
 */
#include "enumerate/enumerate.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "enumerate/co_orders.h"
#include "base/diag.h"
#include "enumerate/liveness.h"
#include "enumerate/thread_paths.h"

#define MAX_THREADS 32
#define MAX_GROUPS 8
#define MAX_GROUP_EVENTS 8
#define MAX_ALTS 64

typedef struct ev_info {
    int thread;            /* -1 for initial writes */
    int phys;              /* physical location, memory events */
    int vloc;              /* location as addressed */
    bool write, read;
    lit_value value;
    const tp_event *ev;    /* NULL for initial writes */
} ev_info;

typedef struct loc_writes {
    int init;              /* event index of the initial write */
    int k;                 /* other writes */
    int w[REL_MAX_EVENTS];
    uint8_t must[MAX_TOTAL_K]; /* thread coherence: w[i] co-before these */
    uint8_t never[MAX_TOTAL_K]; /* ... and, for the current reads-from choice, not these */
} loc_writes;

#define NSCOPES (SCOPE_WI + 1)

/* Threads as bits: the CTA, GPU and scope instances each thread shares. */
typedef struct thread_peers {
    uint32_t cta[MAX_THREADS];
    uint32_t gpu[MAX_THREADS];
    uint32_t scope[MAX_THREADS][NSCOPES]; /* inside the instance of scope s of the thread */
} thread_peers;

/* The events of one combination by thread, and by thread and scope. */
typedef struct combo_masks {
    evset thread[MAX_THREADS];
    evset threads;                        /* every event of a thread */
    evset scoped[MAX_THREADS][NSCOPES];
} combo_masks;

typedef struct enum_ctx {
    const litmus_test *t;
    const cat_model *model;
    cat_workspace *ws;
    check_result *r;
    FILE *errors;
    bool failed;
    bool stopped;           /* the caller's stop flag was seen: unwind */
    const volatile sig_atomic_t *stop;
    enum_execution_fn on_execution;
    void *execution_ctx;
    unsigned exec_flags;    /* flags of the execution being recorded */
    tp_result paths;
    int choice[MAX_THREADS];
    /* the traces whose static relations x holds and the model has prepared */
    bool has_prepared;
    const tp_trace *prepared[MAX_THREADS];
    int n;
    ev_info ev[REL_MAX_EVENTS];
    exec x;
    thread_peers peers;
    evset *loc_events, *vloc_events; /* per location: its memory events (physical, as addressed) */
    evset *loc_writes_now;           /* per physical location: the combination's writes to it */
    /* reads-from */
    int nreads;
    int read_ev[REL_MAX_EVENTS];
    int nopts[REL_MAX_EVENTS];
    uint8_t opts[REL_MAX_EVENTS][REL_MAX_EVENTS]; /* event indices: below REL_MAX_EVENTS */
    int rf_choice[REL_MAX_EVENTS];
    int last_write[REL_MAX_EVENTS]; /* per read: latest po-earlier write to its location in its thread, or -1 */
    bool thread_coherent;
    /* coherence */
    int nphys;
    loc_writes *locw;      /* per physical location (indexed by location) */
    int phys_list[REL_MAX_EVENTS];
    int co_choice[REL_MAX_EVENTS];
    int co_applied[REL_MAX_EVENTS]; /* per location: the order x's co rows hold, or -1 */
    int8_t write_pos[REL_MAX_EVENTS]; /* per write event: its index in its location's w[] */
    /* per location (phys_list index), for the current reads-from choice:
     * the orders thread coherence allows, at allowed + allowed_at[p] */
    int *allowed;
    long allowed_cap;
    long allowed_at[REL_MAX_EVENTS];
    int nallowed[REL_MAX_EVENTS];
    order_table tables[MAX_TOTAL_K + 1];
    /* barriers */
    int ngroups;
    int nalts[MAX_GROUPS];
    relation *alts[MAX_GROUPS]; /* per group: MAX_ALTS relations, allocated on first use */
    int bar_choice[MAX_GROUPS];
    /* final states */
    lit_value *state;
    bool collect_races;
    int races_cap;
    /* per final state (outcome_add's index): whether the condition's
     * proposition holds, once known */
    bool *holds;
    int nholds, holds_cap;
    /* coherence choices handed to the model (cat_check_co) */
    bool co_staged;
    long co_count;      /* choices of the whole order tables; -1: too many to
                         * hand over, or not staged (then choose_co) */
    uint8_t *co_tried, *co_seen;   /* bitmaps over choices, per rf choice */
    size_t co_bytes;               /* their size, grown as tests need */
    live_ctx *live;     /* the liveness pass (enumerate_liveness), else NULL */
} enum_ctx;

static const order_table *table_for(enum_ctx *c, int k)
{
    order_table *tab = &c->tables[k];
    if (!tab->rows) {
        order_table_build(tab, k, cat_model_co_mode(c->model) == CAT_CO_PARTIAL);
    }
    return tab;
}

/* ---- one combination of thread traces ---------------------------------- */

static void add_init_writes(enum_ctx *c)
{
    const litmus_test *t = c->t;
    for (int l = 0; l < t->nlocs; l++) {
        if (t->locs[l].physical != l)
            continue;
        ev_info *e = &c->ev[c->n];
        memset(e, 0, sizeof *e);
        e->thread = -1;
        e->phys = l;
        e->vloc = l;
        e->write = true;
        e->value = t->locs[l].init;
        c->locw[l].init = c->n;
        c->locw[l].k = 0;
        c->n++;
    }
}

/* Appends the chosen traces' events; false when they do not fit. */
static bool add_thread_events(enum_ctx *c, int *first)
{
    for (int th = 0; th < c->t->nthreads; th++) {
        const tp_trace *tr = &c->paths.threads[th].traces[c->choice[th]];
        first[th] = c->n;
        if (c->n + tr->nevents > REL_MAX_EVENTS)
            return false;
        for (int i = 0; i < tr->nevents; i++) {
            const tp_event *te = &tr->events[i];
            ev_info *e = &c->ev[c->n++];
            e->thread = th;
            e->ev = te;
            e->vloc = te->loc;
            e->phys = (te->kind == EV_READ || te->kind == EV_WRITE) ? c->t->locs[te->loc].physical : -1;
            e->read = te->kind == EV_READ;
            e->write = te->kind == EV_WRITE;
            e->value = te->value;
        }
    }
    return true;
}

static void add_to(evset *s, int e) { *s |= evset_of(e); }

static void tag_region(exec *x, uint8_t regions, int i)
{
    if (regions & REGION_GLOBAL)
        add_to(&x->set[XS_GLOBAL], i);
    if (regions & REGION_LOCAL)
        add_to(&x->set[XS_LOCAL], i);
}

static uint8_t location_region(const litmus_test *t, int loc)
{
    uint8_t r = t->locs[t->locs[loc].physical].region;
    return r ? r : REGION_GLOBAL;
}

static void tag_access(exec *x, const tp_event *te, int i)
{
    switch (te->order) {
    case ORD_WEAK: add_to(&x->set[XS_WEAK], i); break;
    case ORD_RELAXED: add_to(&x->set[XS_RLX], i); break;
    case ORD_ACQUIRE: add_to(&x->set[XS_ACQ], i); break;
    case ORD_RELEASE: add_to(&x->set[XS_REL], i); break;
    case ORD_SC: add_to(&x->set[XS_SC], i); break;
    default: break;
    }
    add_to(&x->set[te->order == ORD_WEAK ? XS_NA : XS_ATOMIC], i);
    if (te->remote)
        add_to(&x->set[XS_REMOTE], i);
    static const int proxy_set[] = {[PROXY_GENERIC] = XS_GEN, [PROXY_SURFACE] = XS_SUR,
                                    [PROXY_TEXTURE] = XS_TEX, [PROXY_CONSTANT] = XS_CON,
                                    [PROXY_ALIAS] = XS_GEN};
    add_to(&x->set[proxy_set[te->proxy]], i);
}

static void tag_fence(exec *x, const tp_event *te, int i)
{
    static const int order_set[] = {[ORD_WEAK] = -1, [ORD_RELAXED] = XS_RLX, [ORD_ACQUIRE] = XS_ACQ,
                                    [ORD_RELEASE] = XS_REL, [ORD_ACQ_REL] = XS_ACQ_REL, [ORD_SC] = XS_SC};
    if (order_set[te->order] >= 0)
        add_to(&x->set[order_set[te->order]], i);
    if (te->proxy != PROXY_GENERIC) {
        add_to(&x->set[XS_PROXY], i);
        static const int proxy_set[] = {[PROXY_GENERIC] = XS_GEN, [PROXY_SURFACE] = XS_SUR,
                                        [PROXY_TEXTURE] = XS_TEX, [PROXY_CONSTANT] = XS_CON,
                                        [PROXY_ALIAS] = XS_ALIAS};
        add_to(&x->set[proxy_set[te->proxy]], i);
    }
}

static void fill_sets(enum_ctx *c)
{
    exec *x = &c->x;
    memset(x->set, 0, sizeof x->set);
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        const tp_event *te = e->ev;
        if (!te) {
            add_to(&x->set[XS_W], i);
            add_to(&x->set[XS_IW], i);
            add_to(&x->set[XS_GEN], i);
            tag_region(x, location_region(c->t, e->vloc), i);
            continue;
        }
        switch (te->kind) {
        case EV_READ:
        case EV_WRITE:
            add_to(&x->set[te->kind == EV_READ ? XS_R : XS_W], i);
            tag_access(x, te, i);
            tag_region(x, location_region(c->t, te->loc), i);
            break;
        case EV_FENCE:
            add_to(&x->set[XS_F], i);
            tag_fence(x, te, i);
            tag_region(x, te->regions, i);
            break;
        case EV_BARRIER:
            add_to(&x->set[XS_B], i);
            if (te->waits)
                add_to(&x->set[XS_BSYNC], i);
            tag_region(x, te->regions, i);
            break;
        }
        if (te->in_rmw)
            add_to(&x->set[XS_RMW_EV], i);
        if (te->scope == SCOPE_CTA)
            add_to(&x->set[XS_CTA], i);
        else if (te->scope == SCOPE_GPU)
            add_to(&x->set[XS_GPU], i);
        else if (te->scope == SCOPE_SYS)
            add_to(&x->set[XS_SYS], i);
        else if (te->scope == SCOPE_WI)
            add_to(&x->set[XS_WI], i);
    }
    x->set[XS_M] = x->set[XS_R] | x->set[XS_W];
}

/* Is thread b inside the scope instance of an event of thread a? */
static bool in_scope(const litmus_test *t, int a, int b, int scope)
{
    const lit_thread *ta = &t->threads[a], *tb = &t->threads[b];
    switch (scope) {
    case SCOPE_CTA: return ta->cta == tb->cta && ta->gpu == tb->gpu;
    case SCOPE_GPU: return ta->gpu == tb->gpu;
    case SCOPE_SYS: return true;
    case SCOPE_WI: return a == b;
    default: return false;
    }
}

/* Which threads each thread shares a CTA, a GPU or a scope instance with,
 * as bits over threads: fixed for the test, so computed once. */
static void find_peers(const litmus_test *t, thread_peers *p)
{
    memset(p, 0, sizeof *p);
    for (int a = 0; a < t->nthreads; a++)
        for (int b = 0; b < t->nthreads; b++) {
            uint32_t bit = (uint32_t)1 << b;
            if (in_scope(t, a, b, SCOPE_CTA))
                p->cta[a] |= bit;
            if (in_scope(t, a, b, SCOPE_GPU))
                p->gpu[a] |= bit;
            for (int s = SCOPE_NONE + 1; s < NSCOPES; s++)
                if (in_scope(t, a, b, s))
                    p->scope[a][s] |= bit;
        }
}

/* The events of the threads in `threads`. */
static evset events_of(const combo_masks *cm, uint32_t threads)
{
    evset e = 0;
    for (; threads; threads &= threads - 1)
        e |= cm->thread[__builtin_ctz(threads)];
    return e;
}

/* Events grouped by thread, location and scope, from which each row of a
 * static relation is one word: O(n) instead of a test per pair. */
static void group_events(enum_ctx *c, combo_masks *cm)
{
    memset(cm, 0, sizeof *cm);
    for (int l = 0; l < c->t->nlocs; l++)
        c->loc_events[l] = c->vloc_events[l] = 0;
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        if (e->phys >= 0) {
            c->loc_events[e->phys] |= evset_of(i);
            c->vloc_events[e->vloc] |= evset_of(i);
        }
        if (e->thread < 0)
            continue;
        cm->thread[e->thread] |= evset_of(i);
        if (e->ev->scope != SCOPE_NONE)
            cm->scoped[e->thread][e->ev->scope] |= evset_of(i);
    }
    for (int th = 0; th < c->t->nthreads; th++)
        cm->threads |= cm->thread[th];
}

/* sr from an event of thread a with scope s: the scoped events of threads
 * inside its scope instance whose own scope instance holds thread a. */
static evset scope_partners(const enum_ctx *c, const combo_masks *cm, int a, int s)
{
    evset partners = 0;
    for (uint32_t bs = c->peers.scope[a][s]; bs; bs &= bs - 1) {
        int b = __builtin_ctz(bs);
        for (int sb = SCOPE_NONE + 1; sb < NSCOPES; sb++)
            if (c->peers.scope[b][sb] & ((uint32_t)1 << a))
                partners |= cm->scoped[b][sb];
    }
    return partners;
}

/* loc, vloc, int, ext, po, scta, sgpu and sr, one row per event. */
static void fill_pair_relations(enum_ctx *c)
{
    exec *x = &c->x;
    combo_masks cm;
    group_events(c, &cm);
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        x->rel[XR_LOC].row[i] = e->phys >= 0 ? c->loc_events[e->phys] : 0;
        x->rel[XR_VLOC].row[i] = e->phys >= 0 ? c->vloc_events[e->vloc] : 0;
        if (e->thread < 0) {
            static const int thread_rels[] = {XR_INT, XR_EXT, XR_PO, XR_SCTA, XR_SGPU, XR_SR};
            for (size_t r = 0; r < sizeof thread_rels / sizeof *thread_rels; r++)
                x->rel[thread_rels[r]].row[i] = 0;
            continue;
        }
        evset own = cm.thread[e->thread];
        x->rel[XR_INT].row[i] = own;
        x->rel[XR_EXT].row[i] = cm.threads & ~own;
        x->rel[XR_PO].row[i] = own & ~evset_universe(i + 1);
        x->rel[XR_SCTA].row[i] = events_of(&cm, c->peers.cta[e->thread]);
        x->rel[XR_SGPU].row[i] = events_of(&cm, c->peers.gpu[e->thread]);
        x->rel[XR_SR].row[i] = e->ev->scope != SCOPE_NONE ? scope_partners(c, &cm, e->thread, e->ev->scope) : 0;
    }
}

static void fill_dependencies(enum_ctx *c, const int *first)
{
    exec *x = &c->x;
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        if (!e->ev)
            continue;
        int base = first[e->thread];
        for (uint64_t d = e->ev->data_deps; d; d &= d - 1)
            rel_add(&x->rel[XR_DATA], base + __builtin_ctzll(d), i);
        for (uint64_t d = e->ev->ctrl_deps; d; d &= d - 1)
            rel_add(&x->rel[XR_CTRL], base + __builtin_ctzll(d), i);
        for (uint64_t d = e->ev->addr_deps; d; d &= d - 1)
            rel_add(&x->rel[XR_ADDR], base + __builtin_ctzll(d), i);
        if (e->ev->rmw_write)
            rel_add(&x->rel[XR_RMW], i - 1, i);
    }
}

static void fill_static_relations(enum_ctx *c, const int *first)
{
    exec *x = &c->x;
    x->n = c->n;
    /* the relations built by adding pairs; fill_pair_relations writes
     * whole rows of the others */
    static const int added[] = {XR_RF, XR_CO, XR_FR, XR_RMW, XR_SYNCBAR, XR_ADDR, XR_DATA, XR_CTRL};
    for (size_t r = 0; r < sizeof added / sizeof *added; r++)
        rel_clear(&x->rel[added[r]], c->n);
    for (int p = 0; p < REL_MAX_EVENTS; p++)
        c->co_applied[p] = -1;
    fill_sets(c);
    fill_pair_relations(c);
    fill_dependencies(c, first);
    rel_inter(&x->rel[XR_PO_LOC], &x->rel[XR_PO], &x->rel[XR_LOC], c->n);
}

/* Reads-from options: writes to the same location with the read's value. */
static bool collect_rf_options(enum_ctx *c)
{
    evset *writes = c->loc_writes_now;
    for (int l = 0; l < c->t->nlocs; l++)
        writes[l] = 0;
    for (int w = 0; w < c->n; w++)
        if (c->ev[w].write)
            writes[c->ev[w].phys] |= evset_of(w);
    c->nreads = 0;
    for (int i = 0; i < c->n; i++) {
        if (!c->ev[i].read)
            continue;
        int r = c->nreads++;
        c->read_ev[r] = i;
        c->nopts[r] = 0;
        c->last_write[r] = -1;
        for (evset ws = writes[c->ev[i].phys]; ws; ws &= ws - 1) {
            int w = __builtin_ctzll(ws);
            const ev_info *we = &c->ev[w];
            bool same_thread = we->thread == c->ev[i].thread;
            if (same_thread && w < i)
                c->last_write[r] = w;
            if (same_thread && w > i && c->thread_coherent)
                continue; /* reading from its own future */
            if (we->value == c->ev[i].value)
                c->opts[r][c->nopts[r]++] = (uint8_t)w;
        }
        if (c->nopts[r] == 0)
            return false;
    }
    return true;
}

/* Room for every order of every location in the allowed lists. */
static void make_room_for_orders(enum_ctx *c)
{
    long need = 0;
    for (int p = 0; p < c->nphys; p++) {
        c->allowed_at[p] = need;
        need += table_for(c, c->locw[c->phys_list[p]].k)->count;
    }
    if (need > c->allowed_cap) {
        c->allowed_cap = 2 * need;
        c->allowed = GC_MALLOC_ATOMIC(sizeof *c->allowed * (size_t)c->allowed_cap);
    }
}

static bool collect_writes(enum_ctx *c)
{
    c->nphys = 0;
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        if (!e->write || e->thread < 0)
            continue;
        loc_writes *lw = &c->locw[e->phys];
        c->write_pos[i] = (int8_t)lw->k;
        lw->w[lw->k++] = i;
    }
    int limit = cat_model_co_mode(c->model) == CAT_CO_PARTIAL ? MAX_PARTIAL_K : MAX_TOTAL_K;
    for (int l = 0; l < c->t->nlocs; l++) {
        loc_writes *lw = &c->locw[l];
        if (c->t->locs[l].physical != l || lw->k > limit)
            continue;
        for (int i = 0; i < lw->k; i++) {
            lw->must[i] = 0;
            for (int j = i + 1; j < lw->k && c->thread_coherent; j++)
                if (c->ev[lw->w[i]].thread == c->ev[lw->w[j]].thread)
                    lw->must[i] |= (uint8_t)(1u << j);
        }
    }
    for (int l = 0; l < c->t->nlocs; l++) {
        if (c->t->locs[l].physical != l || c->locw[l].k == 0)
            continue;
        if (c->locw[l].k > limit) {
            diag_error(c->errors, c->t->file, 1, 1, "more than %d writes to location %s in one execution",
                       limit, c->t->locs[l].name);
            c->failed = true;
            return false;
        }
        c->phys_list[c->nphys++] = l;
    }
    make_room_for_orders(c);
    return true;
}

/* ---- barriers ------------------------------------------------------------ */

typedef struct bar_group {
    int cta, gpu;
    lit_value id;
    lit_value count;
    int m;
    int ev[MAX_GROUP_EVENTS];
} bar_group;

static void add_alt(enum_ctx *c, int g, const relation *rel)
{
    for (int a = 0; a < c->nalts[g]; a++)
        if (rel_equal(&c->alts[g][a], rel, c->n))
            return;
    if (c->nalts[g] < MAX_ALTS)
        rel_copy(&c->alts[g][c->nalts[g]++], rel, c->n);
}

/* syncbar for one arrival order: a -> b when a arrives no later than b
 * departs; a sync departs at its arrival or at the release, whichever is
 * later. */
static void arrival_relation(enum_ctx *c, const bar_group *bg, const int *order, relation *out)
{
    int release = bg->count > 0 ? (int)bg->count - 1 : 0;
    rel_clear(out, c->n);
    for (int pb = 0; pb < bg->m; pb++) {
        int b = bg->ev[order[pb]];
        if (!c->ev[b].ev->waits)
            continue;
        int depart = pb > release ? pb : release;
        for (int pa = 0; pa <= depart && pa < bg->m; pa++)
            if (pa != pb)
                rel_add(out, bg->ev[order[pa]], b);
    }
}

static void permute_arrivals(enum_ctx *c, int g, const bar_group *bg, int *order, int depth)
{
    if (depth == bg->m) {
        relation rel;
        arrival_relation(c, bg, order, &rel);
        add_alt(c, g, &rel);
        return;
    }
    for (int i = depth; i < bg->m; i++) {
        int tmp = order[depth]; order[depth] = order[i]; order[i] = tmp;
        permute_arrivals(c, g, bg, order, depth + 1);
        tmp = order[depth]; order[depth] = order[i]; order[i] = tmp;
    }
}

static int cta_size(const litmus_test *t, int cta, int gpu)
{
    int n = 0;
    for (int th = 0; th < t->nthreads; th++)
        n += t->threads[th].cta == cta && t->threads[th].gpu == gpu;
    return n;
}

static int find_group(bar_group *groups, int ngroups, const lit_thread *th, lit_value id)
{
    for (int g = 0; g < ngroups; g++)
        if (groups[g].cta == th->cta && groups[g].gpu == th->gpu && groups[g].id == id)
            return g;
    return -1;
}

/* Groups barrier events by (CTA, id); false when a group cannot release. */
static bool collect_barriers(enum_ctx *c)
{
    bar_group groups[MAX_GROUPS];
    c->ngroups = 0;
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        if (!e->ev || e->ev->kind != EV_BARRIER)
            continue;
        const lit_thread *th = &c->t->threads[e->thread];
        int g = find_group(groups, c->ngroups, th, e->ev->value);
        if (g < 0) {
            if (c->ngroups == MAX_GROUPS)
                goto too_many;
            g = c->ngroups++;
            groups[g] = (bar_group){.cta = th->cta, .gpu = th->gpu, .id = e->ev->value, .count = -1};
        }
        if (groups[g].m == MAX_GROUP_EVENTS)
            goto too_many;
        groups[g].ev[groups[g].m++] = i;
        if (groups[g].count < 0 && e->ev->count >= 0)
            groups[g].count = e->ev->count;
    }
    for (int g = 0; g < c->ngroups; g++) {
        bar_group *bg = &groups[g];
        c->nalts[g] = 0;
        if (!c->alts[g])
            c->alts[g] = GC_MALLOC_ATOMIC(sizeof(relation) * MAX_ALTS);
        if (c->live) {
            int alts = live_barrier_group(c->live, bg->ev, bg->m, bg->count, cta_size(c->t, bg->cta, bg->gpu),
                                          c->alts[g], MAX_ALTS);
            if (alts < 0)
                return false;
            if (alts > 0) {
                c->nalts[g] = alts;
                continue;
            }
        }
        if (bg->count > bg->m) {
            c->r->hang = true;
            return false;
        }
        int order[MAX_GROUP_EVENTS];
        for (int i = 0; i < bg->m; i++)
            order[i] = i;
        if (bg->count < 0) {
            /* no quorum: every event reaches every sync of the group */
            bg->count = bg->m;
            relation rel;
            arrival_relation(c, bg, order, &rel);
            add_alt(c, g, &rel);
        } else {
            permute_arrivals(c, g, bg, order, 0);
        }
    }
    return true;
too_many:
    diag_error(c->errors, c->t->file, 1, 1, "too many barrier groups or barrier events in one execution");
    c->failed = true;
    return false;
}

/* ---- the innermost loops -------------------------------------------------- */

static lit_value observed_value_reg(const enum_ctx *c, const lit_term *term)
{
    return c->paths.threads[term->thread].traces[c->choice[term->thread]].regs[term->reg];
}

/* The condition's proposition on the final state just added as outcome
 * `index`: evaluated once per distinct state, which repeats across many
 * executions. */
static bool proposition_holds(enum_ctx *c, int index)
{
    if (index < c->nholds)
        return c->holds[index];
    if (index == c->holds_cap) {
        c->holds_cap = c->holds_cap ? 2 * c->holds_cap : 16;
        bool *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)c->holds_cap);
        if (c->nholds)
            memcpy(grown, c->holds, sizeof *grown * (size_t)c->nholds);
        c->holds = grown;
    }
    c->holds[c->nholds++] = condition_holds(c->t, c->t->cond, c->state);
    return c->holds[index];
}

/* Hands the execution in x to the caller (drawing), with its events. */
static void notify_execution(enum_ctx *c, bool holds)
{
    enum_event_info info[REL_MAX_EVENTS];
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        const tp_event *te = e->ev;
        info[i].thread = e->thread;
        info[i].instr = te ? te->instr : -1;
        info[i].kind = !te ? 'W' : te->kind == EV_READ ? 'R' : te->kind == EV_WRITE ? 'W'
                     : te->kind == EV_FENCE ? 'F' : 'B';
        info[i].loc = te ? (te->kind == EV_READ || te->kind == EV_WRITE ? te->loc : -1) : e->vloc;
        info[i].value = e->value;
    }
    c->on_execution(c->execution_ctx, &c->x, info, c->n, c->state, holds, c->exec_flags);
}

static void record_state(enum_ctx *c, int obs)
{
    const litmus_test *t = c->t;
    if (obs == t->nobserved) {
        bool holds = proposition_holds(c, outcome_add(c->r->states, c->state));
        if (holds)
            c->r->positive++;
        else
            c->r->negative++;
        if (c->on_execution)
            notify_execution(c, holds);
        return;
    }
    const lit_term *term = &t->observed[obs];
    if (term->kind != TERM_LOC) {
        c->state[obs] = term->kind == TERM_REG ? observed_value_reg(c, term) : term->value;
        record_state(c, obs + 1);
        return;
    }
    /* any co-maximal write may give the final value */
    int phys = t->locs[term->loc].physical;
    const loc_writes *lw = &c->locw[phys];
    const relation *co = &c->x.rel[XR_CO];
    if (lw->k == 0) {
        c->state[obs] = c->ev[lw->init].value;
        record_state(c, obs + 1);
        return;
    }
    for (int i = 0; i < lw->k; i++) {
        int w = lw->w[i];
        if (co->row[w])
            continue;
        c->state[obs] = c->ev[w].value;
        record_state(c, obs + 1);
    }
}

static void add_race(enum_ctx *c, int flag, int a, int b)
{
    const ev_info *ea = &c->ev[a], *eb = &c->ev[b];
    if (!ea->ev || !eb->ev)
        return;
    race_report rr = {flag, ea->thread, ea->ev->instr, eb->thread, eb->ev->instr,
                      ea->phys >= 0 ? ea->vloc : eb->phys >= 0 ? eb->vloc : -1};
    if (rr.thread_a > rr.thread_b || (rr.thread_a == rr.thread_b && rr.instr_a > rr.instr_b)) {
        rr.thread_a = eb->thread, rr.instr_a = eb->ev->instr;
        rr.thread_b = ea->thread, rr.instr_b = ea->ev->instr;
    }
    check_result *r = c->r;
    for (int i = 0; i < r->nraces; i++)
        if (memcmp(&r->races[i], &rr, sizeof rr) == 0)
            return;
    if (r->nraces == c->races_cap) {
        c->races_cap = c->races_cap ? 2 * c->races_cap : 8;
        race_report *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)c->races_cap);
        if (r->nraces)
            memcpy(grown, r->races, sizeof *grown * (size_t)r->nraces);
        r->races = grown;
    }
    r->races[r->nraces++] = rr;
}

static void collect_races(enum_ctx *c, unsigned flags)
{
    for (int f = 0; flags; f++, flags >>= 1) {
        if (!(flags & 1u))
            continue;
        const relation *pairs = cat_flag_relation(c->model, c->ws, f);
        for (int i = 0; pairs && i < c->n; i++)
            for (evset s = pairs->row[i]; s; s &= s - 1)
                add_race(c, f, i, __builtin_ctzll(s));
    }
}

static void evaluate(enum_ctx *c)
{
    c->r->candidates++;
    cat_verdict v = cat_check_prepared(c->model, c->ws, &c->x);
    if (!v.consistent)
        return;
    c->r->consistent++;
    if (c->live) {
        live_record(c->live, &c->x);
        return;
    }
    c->r->flags |= v.flags;
    if (c->collect_races && v.flags)
        collect_races(c, v.flags);
    c->exec_flags = v.flags;
    record_state(c, 0);
}

/* A barrier choice deadlocks when some event must arrive after it departs:
 * a cycle through program order and "arrives no later than it departs". */
static bool barriers_deadlock(const enum_ctx *c)
{
    const exec *x = &c->x;
    evset bars = x->set[XS_B];
    relation waits, po_bar, step;
    rel_star(&waits, &x->rel[XR_SYNCBAR], bars, c->n);
    rel_restrict(&po_bar, &x->rel[XR_PO], bars, bars, c->n);
    rel_seq(&step, &waits, &po_bar, c->n);
    rel_plus(&step, &step, c->n);
    return !rel_is_irreflexive(&step, c->n);
}

static void choose_rf(enum_ctx *c, int r);

static void choose_barriers(enum_ctx *c, int g)
{
    if (g == c->ngroups) {
        relation *sb = &c->x.rel[XR_SYNCBAR];
        rel_clear(sb, c->n);
        for (int i = 0; i < c->ngroups; i++)
            rel_union(sb, sb, &c->alts[i][c->bar_choice[i]], c->n);
        if (c->ngroups && barriers_deadlock(c)) {
            c->r->hang = true;
            return;
        }
        choose_rf(c, 0);
        return;
    }
    for (int a = 0; a < c->nalts[g] && !c->stopped; a++) {
        c->bar_choice[g] = a;
        choose_barriers(c, g + 1);
    }
}

static bool respects_program_order(const uint8_t *rows, const loc_writes *lw)
{
    for (int i = 0; i < lw->k; i++)
        if ((rows[i] & lw->must[i]) != lw->must[i] || (rows[i] & lw->never[i]))
            return false;
    return true;
}

/* Thread coherence: no read may read from a write that is coherence-before
 * a write its own thread made earlier to the same location.  For the
 * current reads-from choice that forbids pairs of each location's order
 * (lw->never); false when a read reads the initial value after its own
 * thread wrote the location, which every order forbids. */
static bool forbid_reading_back(enum_ctx *c)
{
    for (int p = 0; p < c->nphys; p++) {
        loc_writes *lw = &c->locw[c->phys_list[p]];
        memset(lw->never, 0, sizeof lw->never);
    }
    for (int r = 0; r < c->nreads; r++) {
        int last = c->last_write[r], source = c->rf_choice[r];
        if (last < 0 || last == source)
            continue;
        loc_writes *lw = &c->locw[c->ev[last].phys];
        if (source == lw->init)
            return false;
        lw->never[c->write_pos[source]] |= (uint8_t)(1u << c->write_pos[last]);
    }
    return true;
}

/* The orders of each location that thread coherence allows with the
 * current reads-from choice; false when some location has none, so no
 * coherence choice is left.  Every choice is then one of these, so none is
 * built only to be thrown away (most were, on Ticketlock). */
static bool allow_orders(enum_ctx *c)
{
    if (c->thread_coherent && !forbid_reading_back(c))
        return false;
    for (int p = 0; p < c->nphys; p++) {
        const loc_writes *lw = &c->locw[c->phys_list[p]];
        const order_table *tab = table_for(c, lw->k);
        int *list = c->allowed + c->allowed_at[p];
        int n = 0;
        for (int o = 0; o < tab->count; o++)
            if ((!c->thread_coherent || respects_program_order(tab->rows[o], lw)) &&
                (!c->live || live_order_ok(c->live, lw->w, lw->k, lw->init, tab->rows[o])))
                list[n++] = o;
        c->nallowed[p] = n;
        if (n == 0)
            return false;
    }
    return true;
}

/* co from the chosen order of each location, and fr = rf^-1;co, which is,
 * since each read reads from one write, the co row of that write.  Only
 * the rows of writes and reads are written: the others were cleared with
 * the static relations, and a combination that keeps them keeps its
 * events in place, so a location's rows also stay right while its order
 * does (consecutive choices mostly change one location). */
static void set_co(enum_ctx *c)
{
    relation *co = &c->x.rel[XR_CO];
    for (int p = 0; p < c->nphys; p++) {
        if (c->co_applied[p] == c->co_choice[p])
            continue;
        c->co_applied[p] = c->co_choice[p];
        const loc_writes *lw = &c->locw[c->phys_list[p]];
        const uint8_t *rows = table_for(c, lw->k)->rows[c->co_choice[p]];
        co->row[lw->init] = 0;
        for (int i = 0; i < lw->k; i++) {
            co->row[lw->init] |= evset_of(lw->w[i]);
            evset after = 0;
            for (unsigned later = rows[i]; later; later &= later - 1)
                after |= evset_of(lw->w[__builtin_ctz(later)]);
            co->row[lw->w[i]] = after;
        }
    }
    relation *fr = &c->x.rel[XR_FR];
    for (int r = 0; r < c->nreads; r++)
        fr->row[c->read_ev[r]] = co->row[c->rf_choice[r]];
}

static void choose_co(enum_ctx *c, int p)
{
    if (p == c->nphys) {
        set_co(c);
        evaluate(c);
        return;
    }
    for (int i = 0; i < c->nallowed[p]; i++) {
        c->co_choice[p] = c->allowed[c->allowed_at[p] + i];
        choose_co(c, p + 1);
    }
}

/* ---- coherence choices evaluated by the model itself ------------------------- */

#define MAX_STAGED_CO 65536

static bool bit_test_and_set(uint8_t *bits, long k)
{
    bool was = bits[k >> 3] & (1u << (k & 7));
    bits[k >> 3] |= (uint8_t)(1u << (k & 7));
    return was;
}

/* Choice k, in mixed radix over the locations' allowed orders. */
static bool apply_co_choice(void *ctx, long k)
{
    enum_ctx *c = ctx;
    long rest = k;
    for (int p = 0; p < c->nphys; p++) {
        c->co_choice[p] = c->allowed[c->allowed_at[p] + rest % c->nallowed[p]];
        rest /= c->nallowed[p];
    }
    set_co(c);
    if (!bit_test_and_set(c->co_tried, k))
        c->r->candidates++;
    return true;
}

static bool accept_co_choice(void *ctx, long k, unsigned flags)
{
    enum_ctx *c = ctx;
    if (bit_test_and_set(c->co_seen, k))
        return false;
    c->r->consistent++;
    if (c->live) {
        live_record(c->live, &c->x);
        return false;
    }
    c->r->flags |= flags;
    if (c->collect_races && flags)
        collect_races(c, flags);
    c->exec_flags = flags;
    record_state(c, 0);
    return false;
}

/* How many coherence choices the locations make together, or -1 when too
 * many to hand to the model at once. */
static long co_choice_count(enum_ctx *c)
{
    long count = 1;
    for (int p = 0; p < c->nphys; p++) {
        count *= table_for(c, c->locw[c->phys_list[p]].k)->count;
        if (count > MAX_STAGED_CO)
            return -1;
    }
    return count;
}

static void evaluate_all_co(enum_ctx *c)
{
    long count = 1;
    for (int p = 0; p < c->nphys; p++)
        count *= c->nallowed[p];
    size_t bytes = (size_t)(count + 7) / 8;
    if (bytes > c->co_bytes) {
        c->co_bytes = bytes;
        c->co_tried = GC_MALLOC_ATOMIC(bytes);
        c->co_seen = GC_MALLOC_ATOMIC(bytes);
    }
    memset(c->co_tried, 0, bytes);
    memset(c->co_seen, 0, bytes);
    cat_co_source src = {count, apply_co_choice, accept_co_choice, c};
    cat_check_co(c->model, c->ws, &c->x, &src);
}

/* The caller's stop flag, seen once per candidate reads-from choice. */
static bool must_stop(enum_ctx *c)
{
    if (!c->stopped && c->stop && *c->stop) {
        c->stopped = true;
        c->r->interrupted = true;
    }
    return c->stopped;
}

static void choose_rf(enum_ctx *c, int r)
{
    if (r == c->nreads) {
        if (must_stop(c))
            return;
        relation *rf = &c->x.rel[XR_RF];
        rel_clear(rf, c->n);
        for (int i = 0; i < c->nreads; i++)
            rel_add(rf, c->rf_choice[i], c->read_ev[i]);
        if (c->live)
            live_set_rf(c->live, c->nreads, c->read_ev, c->rf_choice);
        if (!allow_orders(c))
            return;
        if (c->co_count > 0)
            evaluate_all_co(c);
        else
            choose_co(c, 0);
        return;
    }
    for (int o = 0; o < c->nopts[r] && !c->stopped; o++) {
        c->rf_choice[r] = c->opts[r][o];
        choose_rf(c, r + 1);
    }
}

/* ---- choosing one trace per thread ---------------------------------------- */

/* A (location, value) pair that a trace reads or writes, as a bit.  A read
 * needs its pair written by its own thread earlier in program order, by
 * another thread, or by the initial state (collect_rf_options); combinations
 * in which some read cannot be served are ruled out here, thread by thread,
 * before any relation is built. */
#define PAIR_WORDS 8
#define MAX_PAIRS (64 * PAIR_WORDS)

typedef struct pairset {
    uint64_t w[PAIR_WORDS];
} pairset;

typedef struct pair_index {
    int count;
    int phys[MAX_PAIRS];
    lit_value value[MAX_PAIRS];
} pair_index;

typedef struct trace_pairs {
    pairset reads, writes;
    pairset needs;         /* reads that no write of the trace itself may serve */
} trace_pairs;

static int pair_of(pair_index *px, int phys, lit_value v)
{
    for (int i = 0; i < px->count; i++)
        if (px->phys[i] == phys && px->value[i] == v)
            return i;
    if (px->count == MAX_PAIRS)
        return -1;
    px->phys[px->count] = phys;
    px->value[px->count] = v;
    return px->count++;
}

static void pairset_add(pairset *s, int i) { s->w[i / 64] |= (uint64_t)1 << (i % 64); }
static bool pairset_has(const pairset *s, int i) { return (s->w[i / 64] >> (i % 64)) & 1u; }

/* Set operations over the first `words` words: the pairs in use. */
static void pairset_or(pairset *out, const pairset *a, const pairset *b, int words)
{
    for (int i = 0; i < words; i++)
        out->w[i] = a->w[i] | b->w[i];
}

static bool pairset_within(const pairset *a, const pairset *b, int words)
{
    for (int i = 0; i < words; i++)
        if (a->w[i] & ~b->w[i])
            return false;
    return true;
}

/* The pairs one choice so far writes and reads, and the pairs some chosen
 * thread needs that no other chosen thread writes and the initial state
 * does not hold. */
typedef struct chosen_pairs {
    pairset written, read, unmet;
} chosen_pairs;

/* Traces of one thread with the same pairs extend a choice alike: each
 * class is tested once per choice of the threads before it (Ticketlock:
 * 189 traces per thread, a handful of classes). */
typedef struct trace_classes {
    int count;
    int *of;               /* per trace: its class */
    /* scratch of the recursion at this thread: per class, 0 untested,
     * 1 extends the current choice (to next[class]), 2 does not */
    uint8_t *state;
    chosen_pairs *next;
} trace_classes;

typedef struct trace_filter {
    int words;             /* pairset words in use */
    trace_pairs **pairs;   /* per thread, per trace */
    trace_classes *classes; /* per thread */
    pairset *later;        /* per thread: what threads from it on may write */
    pairset init;
    /* Some combination may exceed REL_MAX_EVENTS.  Such a combination is
     * reported (too_big) when every read's pair is written by some thread
     * or the initial state, as before this filter knew about threads; so
     * the recursion then prunes by that weaker test only. */
    bool may_overflow;
} trace_filter;

/* The pairs of trace tr of a thread: `needs` are the reads that no write of
 * the trace may serve (with thread coherence: none earlier in program order;
 * without: none at all). */
static bool trace_pairs_of(const litmus_test *t, pair_index *px, const tp_trace *tr, bool coherent,
                           trace_pairs *out)
{
    memset(out, 0, sizeof *out);
    int pair[TP_MAX_EVENTS];
    for (int e = 0; e < tr->nevents; e++) {
        const tp_event *te = &tr->events[e];
        pair[e] = -1;
        if (te->kind != EV_READ && te->kind != EV_WRITE)
            continue;
        pair[e] = pair_of(px, t->locs[te->loc].physical, te->value);
        if (pair[e] < 0)
            return false;
        pairset_add(te->kind == EV_READ ? &out->reads : &out->writes, pair[e]);
    }
    pairset own;
    memset(&own, 0, sizeof own);
    for (int e = 0; e < tr->nevents; e++) {
        const tp_event *te = &tr->events[e];
        if (te->kind == EV_WRITE)
            pairset_add(&own, pair[e]);
        else if (te->kind == EV_READ && !pairset_has(coherent ? &own : &out->writes, pair[e]))
            pairset_add(&out->needs, pair[e]);
    }
    return true;
}

static uint64_t pairs_hash(const trace_pairs *tp, int words)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < words; i++)
        h = (h ^ tp->reads.w[i] ^ (tp->writes.w[i] << 1) ^ (tp->needs.w[i] << 2)) * 0x100000001b3u;
    return h;
}

static bool same_pairs(const trace_pairs *a, const trace_pairs *b, int words)
{
    for (int i = 0; i < words; i++)
        if (a->reads.w[i] != b->reads.w[i] || a->writes.w[i] != b->writes.w[i] || a->needs.w[i] != b->needs.w[i])
            return false;
    return true;
}

/* Numbers the distinct trace_pairs of one thread (open addressing on a
 * hash of their words; slots hold a representative trace + 1). */
static void classify_traces(const trace_pairs *tp, int ntraces, int words, trace_classes *tc)
{
    size_t size = 16;
    while (size < 2 * (size_t)ntraces)
        size *= 2;
    int *slot = GC_MALLOC_ATOMIC(sizeof *slot * size);
    memset(slot, 0, sizeof *slot * size);
    int *class_of_rep = GC_MALLOC_ATOMIC(sizeof *class_of_rep * (size_t)(ntraces ? ntraces : 1));
    tc->of = GC_MALLOC_ATOMIC(sizeof *tc->of * (size_t)(ntraces ? ntraces : 1));
    tc->count = 0;
    for (int i = 0; i < ntraces; i++) {
        size_t at = (size_t)pairs_hash(&tp[i], words) & (size - 1);
        while (slot[at] && !same_pairs(&tp[slot[at] - 1], &tp[i], words))
            at = (at + 1) & (size - 1);
        if (!slot[at]) {
            slot[at] = i + 1;
            class_of_rep[i] = tc->count++;
        }
        tc->of[i] = class_of_rep[slot[at] - 1];
    }
    tc->state = GC_MALLOC_ATOMIC(tc->count ? (size_t)tc->count : 1);
    tc->next = GC_MALLOC_ATOMIC(sizeof *tc->next * (size_t)(tc->count ? tc->count : 1));
}

static int max_trace_events(const tp_thread *tt)
{
    int most = 0;
    for (int i = 0; i < tt->ntraces; i++)
        if (tt->traces[i].nevents > most)
            most = tt->traces[i].nevents;
    return most;
}

/* false when there are too many pairs to index: then nothing is filtered */
static bool build_filter(enum_ctx *c, trace_filter *f)
{
    const litmus_test *t = c->t;
    pair_index *px = GC_MALLOC_ATOMIC(sizeof *px);
    px->count = 0;
    memset(&f->init, 0, sizeof f->init);
    int events = 0;
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].physical == l) {
            pairset_add(&f->init, pair_of(px, l, t->locs[l].init));
            events++;
        }
    f->pairs = GC_MALLOC(sizeof *f->pairs * (size_t)t->nthreads);
    f->later = GC_MALLOC_ATOMIC(sizeof *f->later * (size_t)(t->nthreads + 1));
    for (int th = 0; th < t->nthreads; th++) {
        const tp_thread *tt = &c->paths.threads[th];
        f->pairs[th] = GC_MALLOC_ATOMIC(sizeof(trace_pairs) * (size_t)tt->ntraces);
        for (int i = 0; i < tt->ntraces; i++)
            if (!trace_pairs_of(t, px, &tt->traces[i], c->thread_coherent, &f->pairs[th][i]))
                return false;
        events += max_trace_events(tt);
    }
    f->words = (px->count + 63) / 64;
    f->may_overflow = events > REL_MAX_EVENTS;
    f->classes = GC_MALLOC(sizeof *f->classes * (size_t)t->nthreads);
    for (int th = 0; th < t->nthreads; th++)
        classify_traces(f->pairs[th], c->paths.threads[th].ntraces, f->words, &f->classes[th]);
    memset(&f->later[t->nthreads], 0, sizeof(pairset));
    for (int th = t->nthreads - 1; th >= 0; th--) {
        f->later[th] = f->later[th + 1];
        for (int i = 0; i < c->paths.threads[th].ntraces; i++)
            pairset_or(&f->later[th], &f->later[th], &f->pairs[th][i].writes, f->words);
    }
    return true;
}

/* Adds trace tp of thread th to the choice so far; false when the pairs
 * that must still be written exceed what the threads after th may write. */
static bool extend_choice(const trace_filter *f, int th, const trace_pairs *tp, const chosen_pairs *so_far,
                          chosen_pairs *out)
{
    const pairset *later = &f->later[th + 1];
    for (int i = 0; i < f->words; i++) {
        out->written.w[i] = so_far->written.w[i] | tp->writes.w[i];
        out->read.w[i] = so_far->read.w[i] | tp->reads.w[i];
        /* the threads chosen before th are other threads to th, and th is
         * another thread to each of them */
        out->unmet.w[i] = (so_far->unmet.w[i] & ~tp->writes.w[i]) |
                          (tp->needs.w[i] & ~(f->init.w[i] | so_far->written.w[i]));
    }
    if (f->may_overflow) {
        pairset reachable;
        pairset_or(&reachable, &out->written, later, f->words);
        pairset_or(&reachable, &reachable, &f->init, f->words);
        return pairset_within(&out->read, &reachable, f->words);
    }
    return pairset_within(&out->unmet, later, f->words);
}

static bool pairset_is_empty(const pairset *s, int words)
{
    for (int i = 0; i < words; i++)
        if (s->w[i])
            return false;
    return true;
}

static int combination_events(const enum_ctx *c)
{
    int n = 0;
    for (int l = 0; l < c->t->nlocs; l++)
        n += c->t->locs[l].physical == l;
    for (int th = 0; th < c->t->nthreads; th++)
        n += c->paths.threads[th].traces[c->choice[th]].nevents;
    return n;
}

static void run_combination(enum_ctx *c);

/* The liveness pass's cut phase needs one witness. */
static bool live_stops(const enum_ctx *c)
{
    return c->live && live_cut_reached(c->live);
}

static void choose_traces(enum_ctx *c, const trace_filter *f, int th, const chosen_pairs *so_far)
{
    if (th == c->t->nthreads) {
        if (c->live && !live_accept_combination(c->live, &c->paths, c->choice))
            return;
        if (f->may_overflow && combination_events(c) > REL_MAX_EVENTS)
            c->r->too_big = true;
        else if (pairset_is_empty(&so_far->unmet, f->words))
            run_combination(c);
        return;
    }
    const trace_classes *tc = &f->classes[th];
    memset(tc->state, 0, (size_t)tc->count);
    for (int i = 0; i < c->paths.threads[th].ntraces && !c->failed && !c->stopped && !live_stops(c); i++) {
        int k = tc->of[i];
        if (!tc->state[k])
            tc->state[k] = extend_choice(f, th, &f->pairs[th][i], so_far, &tc->next[k]) ? 1 : 2;
        if (tc->state[k] == 2)
            continue;
        c->choice[th] = i;
        choose_traces(c, f, th + 1, &tc->next[k]);
    }
}

/* Do two events make the same static relations and sets?  Everything but
 * the values (and the barrier count and source instruction, which only
 * the per-combination barrier groups and race reports read). */
static bool same_shape(const tp_event *a, const tp_event *b)
{
    return a->kind == b->kind && a->order == b->order && a->scope == b->scope && a->proxy == b->proxy &&
           a->in_rmw == b->in_rmw && a->rmw_write == b->rmw_write && a->waits == b->waits &&
           a->remote == b->remote && a->regions == b->regions && a->loc == b->loc &&
           a->addr_deps == b->addr_deps && a->data_deps == b->data_deps && a->ctrl_deps == b->ctrl_deps;
}

static bool same_trace_shape(const tp_trace *a, const tp_trace *b)
{
    if (a == b)
        return true;
    if (a->nevents != b->nevents)
        return false;
    for (int i = 0; i < a->nevents; i++)
        if (!same_shape(&a->events[i], &b->events[i]))
            return false;
    return true;
}

static const tp_trace *chosen_trace(const enum_ctx *c, int th)
{
    return &c->paths.threads[th].traces[c->choice[th]];
}

/* Combinations whose traces differ only in values read and written (the
 * usual case: a thread's traces differ mostly in guessed values) have the
 * same static relations and the same model results on them: those of the
 * combination prepared last stay in x and the workspace. */
static bool static_part_unchanged(const enum_ctx *c)
{
    if (!c->has_prepared)
        return false;
    for (int th = 0; th < c->t->nthreads; th++)
        if (!same_trace_shape(c->prepared[th], chosen_trace(c, th)))
            return false;
    return true;
}

static void remember_prepared(enum_ctx *c)
{
    c->has_prepared = true;
    for (int th = 0; th < c->t->nthreads; th++)
        c->prepared[th] = chosen_trace(c, th);
}

/* The combination's events as the liveness checker numbers them. */
static void live_events(enum_ctx *c, const int *first)
{
    int thread[REL_MAX_EVENTS];
    lit_value value[REL_MAX_EVENTS];
    for (int i = 0; i < c->n; i++) {
        thread[i] = c->ev[i].thread;
        value[i] = c->ev[i].value;
    }
    live_set_events(c->live, &c->paths, c->choice, first, c->n, thread, value);
}

static void run_combination(enum_ctx *c)
{
    int first[MAX_THREADS];
    c->n = 0;
    add_init_writes(c);
    if (!add_thread_events(c, first)) {
        c->r->too_big = true;
        return;
    }
    if (c->live)
        live_events(c, first);
    if (!collect_rf_options(c) || !collect_writes(c) || !collect_barriers(c))
        return;
    if (!static_part_unchanged(c)) {
        fill_static_relations(c, first);
        cat_prepare(c->model, c->ws, &c->x);
        remember_prepared(c);
    }
    c->co_count = c->co_staged ? co_choice_count(c) : -1;
    choose_barriers(c, 0);
}

/* Every combination, one trace per thread, when nothing can be filtered. */
static bool next_combination(enum_ctx *c)
{
    for (int th = c->t->nthreads - 1; th >= 0; th--) {
        if (++c->choice[th] < c->paths.threads[th].ntraces)
            return true;
        c->choice[th] = 0;
    }
    return false;
}

static void run_every_combination(enum_ctx *c)
{
    do
        if (!c->live || live_accept_combination(c->live, &c->paths, c->choice))
            run_combination(c);
    while (!c->failed && !must_stop(c) && !live_stops(c) && next_combination(c));
}

/* The enumeration of the combinations of c->paths: filtered by the pairs
 * each trace reads and writes when they can be indexed. */
static void run_combinations(enum_ctx *c)
{
    trace_filter *f = GC_MALLOC(sizeof *f);
    if (build_filter(c, f)) {
        chosen_pairs none;
        memset(&none, 0, sizeof none);
        choose_traces(c, f, 0, &none);
        return;
    }
    run_every_combination(c);
}

static int condition_constants(const lit_cond *c, lit_value *out, int n, int max);

static enum_ctx *new_ctx(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                         check_result *r, FILE *errors)
{
    enum_ctx *c = GC_MALLOC(sizeof *c);
    c->t = t;
    c->model = m;
    c->ws = ws;
    c->r = r;
    c->errors = errors;
    c->thread_coherent = cat_model_thread_coherent(m);
    c->collect_races = o->races;
    c->stop = o->stop;
    c->on_execution = o->on_execution;
    c->execution_ctx = o->execution_ctx;
    c->co_staged = cat_model_co_staged(m);
    c->locw = GC_MALLOC_ATOMIC(sizeof(loc_writes) * (size_t)(t->nlocs ? t->nlocs : 1));
    c->loc_events = GC_MALLOC_ATOMIC(sizeof(evset) * (size_t)(t->nlocs ? t->nlocs : 1));
    c->vloc_events = GC_MALLOC_ATOMIC(sizeof(evset) * (size_t)(t->nlocs ? t->nlocs : 1));
    c->loc_writes_now = GC_MALLOC_ATOMIC(sizeof(evset) * (size_t)(t->nlocs ? t->nlocs : 1));
    find_peers(t, &c->peers);
    c->state = GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(t->nobserved ? t->nobserved : 1));
    return c;
}

static tp_limits path_limits(const enum_ctx *c, const enum_options *o)
{
    tp_limits lim = {.unroll = o->unroll, .max_traces = o->max_traces};
    if (cat_model_thin_air(c->model)) {
        lit_value *seeds = GC_MALLOC_ATOMIC(sizeof *seeds * 64);
        lim.seeds = seeds;
        lim.nseeds = condition_constants(c->t->cond, seeds, 0, 64);
    }
    return lim;
}

/* "FILE:1:1: error: more than ...\n" -> "more than ..." */
static const char *bare_message(const char *diag)
{
    const char *at = strstr(diag, "error: ");
    char *m = GC_STRDUP(at ? at + 7 : diag);
    size_t n = strlen(m);
    while (n && m[n - 1] == '\n')
        m[--n] = '\0';
    return m;
}

/* Iterations that write, per loop head and path, before liveness mode cuts
 * a path: tried in turn while some cut is reachable. */
static const int live_repeat_bounds[] = {2, 4, 8};

/* One enumeration of the liveness pass over traces built with `lim`:
 * NULL, or why its answer is unknown (an error of the enumerator's limits,
 * which the safety pass would report as an error, becomes the reason). */
static const char *live_enumeration(live_ctx *lc, const litmus_test *t, const cat_model *m, cat_workspace *ws,
                                    const enum_options *o, const tp_limits *lim, tp_result *paths,
                                    uint64_t *candidates)
{
    check_result scratch;
    memset(&scratch, 0, sizeof scratch);
    scratch.states = outcome_set_new(t->nobserved);
    char *msg = NULL;
    size_t msg_len = 0;
    FILE *quiet = open_memstream(&msg, &msg_len);
    enum_ctx *c = new_ctx(t, m, ws, o, &scratch, quiet ? quiet : stderr);
    c->live = lc;
    bool built = thread_paths_build(t, lim, &c->paths, c->errors);
    if (built)
        run_combinations(c);
    if (quiet)
        fclose(quiet);
    const char *unknown = c->paths.live_unknown;
    if (!built || c->failed)
        unknown = msg && *msg ? bare_message(msg) : "the enumerator's limits";
    else if (scratch.interrupted)
        unknown = "interrupted";
    else if (scratch.too_big)
        unknown = "some executions have more than 64 events";
    else if (c->paths.values_cut)
        unknown = "the value search stopped before closing";
    free(msg);
    if (getenv("SCOPECHECK_LIVE_DEBUG")) {
        fprintf(stderr, "live pass: traces");
        for (int th = 0; th < t->nthreads; th++)
            fprintf(stderr, " %d", c->paths.threads[th].ntraces);
        fprintf(stderr, ", candidates %lu, cut %d\n", (unsigned long)scratch.candidates, c->paths.live_cut);
    }
    *paths = c->paths;
    *candidates += scratch.candidates;
    return unknown;
}

/* The liveness pass: the enumeration again over liveness mode's traces,
 * with the checker's hooks (enumerate/liveness.h).  First the stuck
 * executions; then, if a loop that writes was cut, whether any consistent
 * execution reaches the cut (if so, again with a higher bound). */
void enumerate_liveness(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                        const live_options *lo, live_result *lr)
{
    live_ctx *lc = live_ctx_new(t, lo, lr);
    if (!live_test_may_hang(t) || t->nthreads > MAX_THREADS) {
        live_finish(lc, t->nthreads > MAX_THREADS ? "too many threads" : NULL);
        return;
    }
    size_t nbounds = sizeof live_repeat_bounds / sizeof *live_repeat_bounds;
    for (size_t b = 0; b < nbounds; b++) {
        tp_limits lim = path_limits(&(enum_ctx){.t = t, .model = m}, o);
        live_path_limits(lc, &lim);
        lim.live_repeats = live_repeat_bounds[b];
        tp_result paths;
        live_set_phase(lc, false);
        const char *unknown = live_enumeration(lc, t, m, ws, o, &lim, &paths, &lr->candidates);
        if (lr->violations || unknown || !paths.live_cut) {
            live_finish(lc, unknown);
            return;
        }
        lim.prefixes = true;
        live_set_phase(lc, true);
        unknown = live_enumeration(lc, t, m, ws, o, &lim, &paths, &lr->candidates);
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
    tp_limits lim = path_limits(c, o);
    if (!thread_paths_build(t, &lim, &c->paths, errors))
        return false;
    r->unroll_cut = c->paths.unroll_cut;
    r->values_cut = c->paths.values_cut;
    for (int th = 0; th < t->nthreads; th++)
        if (c->paths.threads[th].ntraces == 0)
            return true;
    run_combinations(c);
    return !c->failed;
}

bool enumerate_value_range(const litmus_test *t, int unroll, lit_value *lo, lit_value *hi, bool *bounded,
                           FILE *errors)
{
    tp_limits lim = {.unroll = unroll, .max_traces = 100000, .track_values = true};
    tp_result paths;
    if (t->nthreads > MAX_THREADS) {
        diag_error(errors, t->file, 1, 1, "too many threads (at most %d)", MAX_THREADS);
        return false;
    }
    if (!thread_paths_build(t, &lim, &paths, errors))
        return false;
    *lo = paths.vmin;
    *hi = paths.vmax;
    *bounded = !paths.values_cut;
    return true;
}

/* ---- the condition --------------------------------------------------------- */

/* Collects the distinct constants of a condition into out[n..max). */
static int condition_constants(const lit_cond *c, lit_value *out, int n, int max)
{
    if (!c)
        return n;
    if (c->kind == COND_EQ || c->kind == COND_NE) {
        const lit_term *terms[2] = {&c->lhs, &c->rhs};
        for (int k = 0; k < 2; k++) {
            if (terms[k]->kind != TERM_CONST)
                continue;
            bool seen = false;
            for (int i = 0; i < n; i++)
                seen |= out[i] == terms[k]->value;
            if (!seen && n < max)
                out[n++] = terms[k]->value;
        }
        return n;
    }
    n = condition_constants(c->left, out, n, max);
    return condition_constants(c->right, out, n, max);
}

static lit_value term_value(const litmus_test *t, const lit_term *term, const lit_value *state)
{
    if (term->kind == TERM_CONST)
        return term->value;
    for (int i = 0; i < t->nobserved; i++) {
        const lit_term *o = &t->observed[i];
        if (o->kind != term->kind)
            continue;
        if (term->kind == TERM_LOC ? o->loc == term->loc : (o->thread == term->thread && o->reg == term->reg))
            return state[i];
    }
    return 0;
}

bool condition_holds(const litmus_test *t, const lit_cond *c, const lit_value *state)
{
    if (!c)
        return true;
    switch (c->kind) {
    case COND_TRUE: return true;
    case COND_FALSE: return false;
    case COND_AND: return condition_holds(t, c->left, state) && condition_holds(t, c->right, state);
    case COND_OR: return condition_holds(t, c->left, state) || condition_holds(t, c->right, state);
    case COND_NOT: return !condition_holds(t, c->left, state);
    case COND_EQ: return term_value(t, &c->lhs, state) == term_value(t, &c->rhs, state);
    case COND_NE: return term_value(t, &c->lhs, state) != term_value(t, &c->rhs, state);
    }
    return false;
}
