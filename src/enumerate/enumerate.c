/*
 * enumerate/enumerate.c: candidate executions (see enumerate.h).
 *
 * Order of choices, outermost first: one trace per thread (values of reads
 * already guessed; enumerate/trace_filter.h), then an arrival order per
 * counted barrier (enumerate/barriers.h), then for every read a write of
 * the same location and value, then a coherence order per location.
 * Everything that depends only on the traces is computed once per
 * combination; the innermost loop only writes rf, co, fr and syncbar and
 * calls the model.
 *
 * Sets and relations are as wide as the test's largest combination needs
 * (cat/relation.h): every per-event or per-location array is sized once
 * per test, with a stride of rel_words(cap) words per set, and used with
 * the rel_words(n) words of the combination at hand.
 */
#include "enumerate/enumerate.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/diag.h"
#include "enumerate/barriers.h"
#include "enumerate/co_orders.h"
#include "enumerate/liveness.h"
#include "litmus/thread_paths.h"
#include "enumerate/trace_filter.h"
#include "litmus/cond.h"

#define MAX_THREADS 32
#define STOP_CHECK_MASK 255u   /* look at the clock and the heap every 256 steps */

typedef struct ev_info {
    int thread;            /* -1 for initial writes */
    int last_write;        /* reads: the latest earlier write of its thread to its location, or -1 */
    int phys;              /* physical location, memory events */
    int vloc;              /* location as addressed */
    int index;             /* position in its thread's trace */
    bool write, read;      /* both for herd's C read-modify-writes (EV_RMW) */
    lit_value value;       /* read, or written by a plain write */
    lit_value wvalue;      /* written (writes and EV_RMW) */
    const tp_event *ev;    /* NULL for initial writes */
} ev_info;

typedef struct loc_writes {
    int init;              /* event index of the initial write */
    int k;                 /* other writes */
    order_table *orders;   /* orders_for: every order of w[] to choose from */
    int w[MAX_TOTAL_K];
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

typedef struct enum_ctx {
    const litmus_test *t;
    const cat_model *model;
    cat_workspace *ws;
    check_result *r;
    FILE *errors;
    bool stop;             /* a limit was reached: stop everything */
    double deadline;       /* monotonic seconds, 0: none */
    size_t max_memory;
    unsigned ticks;
    const volatile sig_atomic_t *interrupt; /* the caller's stop flag (a signal), or NULL */
    enum_execution_fn on_execution;
    enum_execution_fn on_rejected;
    bool rejecting;       /* record_state walks a rejected execution's final states */
    void *execution_ctx;
    unsigned exec_flags;    /* flags of the execution being recorded */
    tp_result paths;
    int choice[MAX_THREADS];
    /* the traces whose static relations x holds and the model has prepared */
    bool has_prepared;
    const tp_trace *prepared[MAX_THREADS];
    int ninit;             /* initial writes: one per physical location */
    int cap;               /* most events of a combination (storage size) */
    int stride;            /* rel_words(cap): words between two sets of an array */
    int n;
    ev_info *ev;
    exec x;
    relation *scratch[3];  /* barrier deadlock check */
    thread_peers peers;
    /* sets, `stride` words apart: per location its memory events (physical,
     * as addressed) and the combination's writes to it; per thread its
     * events, the events of its CTA and GPU peers, and per scope the
     * events that sr relates it to */
    evword *loc_events, *vloc_events, *loc_writes_now;
    evword *thread_events, *cta_events, *gpu_events, *scope_events, *threads_events;
    evword *scoped;        /* per thread and scope: its events of that scope */
    /* reads-from */
    int nreads;
    int nrmw_reads;        /* reads that also write (C read-modify-writes): set_co drops their fr to themselves */
    int *read_ev;
    int *nopts, *opt_at;   /* per read: its options, at opts + opt_at */
    int *opts;
    int opts_cap;
    int *rf_choice;
    int *last_write;       /* per read: latest po-earlier write to its location in its thread, or -1 */
    int *latest;           /* per location: see add_thread_events */
    long *latest_at, stamp;
    bool thread_coherent;
    bool unsequenced;      /* some thread has unsequenced operands (litmus_has_unsequenced) */
    /* coherence */
    int nphys;
    loc_writes *locw;      /* per physical location (indexed by location) */
    int *phys_list;
    int *co_choice;
    int *co_applied;       /* per location: the order x's co rows hold, or -1 */
    int8_t *write_pos;     /* per write event: its index in its location's w[] */
    /* per location (phys_list index), for the current reads-from choice:
     * the indices in its table of the orders thread coherence allows
     * (list[p], nallowed[p]): all of them (identity), or some, at
     * allowed + allowed_at[p] */
    int *allowed;
    int *identity;         /* 0, 1, 2, ...: every order of a table */
    long allowed_cap;
    long *allowed_at;
    const int **list;
    int *nallowed;
    struct order_memo *memo; /* ORDER_MEMO lists already filtered, by (table, masks) */
    /* coherence orders, one table per (number of writes, program-order
     * pairs) met so far in the test */
    struct order_cache **orders; /* one by one: locations point into them */
    int norders, orders_cap;
    /* barriers */
    barrier_set *bars;
    int nbar_groups;       /* groups of the current combination */
    bar_event *bar_ev;
    int *bar_choice;
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
    /* the liveness pass (enumerate_liveness), else NULL; its barrier
     * groups (those with a blocked or unfinished sync) and their syncbar
     * alternatives (LIVE_ALTS per group, live_groups of them) */
    live_ctx *live;
    int nlive_groups;
    relation **live_alts;
    int *live_nalts;
    int *live_choice;
    int *live_thread;      /* per event: its thread, for live_set_events */
    lit_value *live_value;
} enum_ctx;

#define LIVE_GROUPS 16
#define LIVE_ALTS 64
#define LIVE_GROUP_EVENTS 64

/* The most coherence orders listed for one location: every partial order
 * of six writes from six threads fits (130,023), and two threads' chains of
 * four (1,764); more writes are skipped, and the result says so. */
#define MAX_CO_ORDERS 131072

typedef struct order_cache {
    int k;
    uint8_t must[MAX_TOTAL_K];
    bool too_many;
    order_table tab;
} order_cache;

/* The orders on a location's writes that keep each thread's writes in
 * program order (with thread coherence; all orders without), built once
 * per pattern; NULL when there are more than MAX_CO_ORDERS. */
static order_table *orders_for(enum_ctx *c, const loc_writes *lw)
{
    for (int i = 0; i < c->norders; i++) {
        order_cache *oc = c->orders[i];
        if (oc->k == lw->k && memcmp(oc->must, lw->must, sizeof oc->must) == 0)
            return oc->too_many ? NULL : &oc->tab;
    }
    if (c->norders == c->orders_cap) {
        c->orders_cap = c->orders_cap ? 2 * c->orders_cap : 8;
        order_cache **grown = GC_MALLOC(sizeof *grown * (size_t)c->orders_cap);
        if (c->norders)
            memcpy(grown, c->orders, sizeof *grown * (size_t)c->norders);
        c->orders = grown;
    }
    order_cache *oc = c->orders[c->norders++] = GC_MALLOC(sizeof *oc);
    oc->k = lw->k;
    memcpy(oc->must, lw->must, sizeof oc->must);
    bool partial = cat_model_co_mode(c->model) == CAT_CO_PARTIAL;
    oc->too_many = !order_table_build_containing(&oc->tab, lw->k, partial, lw->must, MAX_CO_ORDERS);
    return oc->too_many ? NULL : &oc->tab;
}

#define INLINE static inline __attribute__((always_inline))

static evword *set_at(evword *base, const enum_ctx *c, int i) { return base + (size_t)i * (size_t)c->stride; }
INLINE evword *at_(evword *base, int stride, int i) { return base + (size_t)i * (size_t)stride; }

/* ---- limits ----------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Bytes of the collected heap in use (as of the collector's last count). */
static size_t heap_in_use(void)
{
    size_t heap = GC_get_heap_size(), free_bytes = GC_get_free_bytes();
    return heap > free_bytes ? heap - free_bytes : 0;
}

/* Whether a time or memory limit has been reached (checked every
 * STOP_CHECK_MASK + 1 calls); once it has, everything stops. */
static bool budget_exhausted(enum_ctx *c);

static inline bool out_of_budget(enum_ctx *c)
{
    if (c->stop)
        return true;
    if ((++c->ticks & STOP_CHECK_MASK) != 0)
        return false;
    return budget_exhausted(c);
}

static bool budget_exhausted(enum_ctx *c)
{
    if (c->interrupt && *c->interrupt) {
        c->r->interrupted = true;
        c->stop = true;
    } else if (c->deadline > 0 && now_seconds() >= c->deadline) {
        c->r->timed_out = true;
        c->stop = true;
    } else if (c->max_memory > 0 && heap_in_use() > c->max_memory) {
        c->r->out_of_memory = true;
        c->stop = true;
    }
    return c->stop;
}

static bool paths_should_stop(void *ctx)
{
    enum_ctx *c = ctx;
    c->ticks |= STOP_CHECK_MASK; /* the walk asks rarely: look now */
    return out_of_budget(c);
}

static bool filter_should_stop(void *ctx)
{
    enum_ctx *c = ctx;
    c->ticks |= STOP_CHECK_MASK; /* the filter asks rarely: look now */
    return out_of_budget(c);
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
        e->value = e->wvalue = t->locs[l].init;
        c->locw[l].init = c->n;
        c->locw[l].k = 0;
        c->n++;
    }
}

static const tp_trace *chosen_trace(const enum_ctx *c, int th)
{
    return &c->paths.threads[th].traces[c->choice[th]];
}

/* Appends the chosen traces' events (the caller checked that they fit),
 * noting for each read its thread's latest earlier write to its location
 * (latest[l]: that write, valid when latest_at[l] is the stamp of this
 * thread in this combination). */
static void add_thread_events(enum_ctx *c, int *first)
{
    c->stamp += MAX_THREADS;
    for (int th = 0; th < c->t->nthreads; th++) {
        const tp_trace *tr = chosen_trace(c, th);
        long stamp = c->stamp + th;
        first[th] = c->n;
        for (int i = 0; i < tr->nevents; i++) {
            const tp_event *te = &tr->events[i];
            ev_info *e = &c->ev[c->n];
            e->thread = th;
            e->ev = te;
            e->index = i;
            e->vloc = te->loc;
            /* bit 0: reads, bit 1: writes (a C read-modify-write both) */
            static const uint8_t access[] = {[EV_READ] = 1, [EV_WRITE] = 2, [EV_FENCE] = 0, [EV_BARRIER] = 0,
                                             [EV_RMW] = 3};
            unsigned rw = access[te->kind];
            e->read = rw & 1;
            e->write = rw >> 1;
            e->phys = rw ? c->t->locs[te->loc].physical : -1;
            e->value = te->value;
            e->wvalue = rw == 3 ? te->wvalue : te->value;
            e->last_write = -1;
            if (e->phys >= 0) {
                if (e->read && c->latest_at[e->phys] == stamp)
                    e->last_write = c->latest[e->phys];
                if (e->write) {
                    c->latest[e->phys] = c->n;
                    c->latest_at[e->phys] = stamp;
                }
            }
            c->n++;
        }
    }
}

static void add_to(exec *x, int set, int e) { set_add(exec_set(x, set), e); }

static void tag_region(exec *x, uint8_t regions, int i)
{
    if (regions & REGION_GLOBAL)
        add_to(x, XS_GLOBAL, i);
    if (regions & REGION_LOCAL)
        add_to(x, XS_LOCAL, i);
}

/* What an access (or initial write) of location loc is, by its location:
 * its region (global unless said otherwise) and whether the location is
 * declared non-atomic. */
static void tag_location(exec *x, const litmus_test *t, int loc, int i)
{
    const lit_location *l = &t->locs[t->locs[loc].physical];
    tag_region(x, l->region ? l->region : REGION_GLOBAL, i);
    if (!l->atomic_type)
        add_to(x, XS_NAL, i);
}

static void tag_access(exec *x, const tp_event *te, int i)
{
    switch (te->order) {
    case ORD_WEAK: add_to(x, XS_WEAK, i); break;
    case ORD_RELAXED: add_to(x, XS_RLX, i); break;
    case ORD_ACQUIRE: add_to(x, XS_ACQ, i); break;
    case ORD_RELEASE: add_to(x, XS_REL, i); break;
    case ORD_ACQ_REL: add_to(x, XS_ACQ_REL, i); break; /* herd's OpenCL: an acq_rel load or store; C RMWs */
    case ORD_SC: add_to(x, XS_SC, i); break;
    case ORD_CONSUME: add_to(x, XS_CON, i); break;      /* herd names it CON */
    default: break;
    }
    add_to(x, te->order == ORD_WEAK ? XS_NA : XS_ATOMIC, i);
    if (te->remote)
        add_to(x, XS_REMOTE, i);
    static const int proxy_set[] = {[PROXY_GENERIC] = XS_GEN, [PROXY_SURFACE] = XS_SUR,
                                    [PROXY_TEXTURE] = XS_TEX, [PROXY_CONSTANT] = XS_CON,
                                    [PROXY_ALIAS] = XS_GEN};
    add_to(x, proxy_set[te->proxy], i);
}

static void tag_fence(exec *x, const tp_event *te, int i)
{
    static const int order_set[] = {[ORD_WEAK] = -1, [ORD_RELAXED] = XS_RLX, [ORD_ACQUIRE] = XS_ACQ,
                                    [ORD_RELEASE] = XS_REL, [ORD_ACQ_REL] = XS_ACQ_REL, [ORD_SC] = XS_SC,
                                    [ORD_CONSUME] = XS_CON};
    if (order_set[te->order] >= 0)
        add_to(x, order_set[te->order], i);
    if (te->proxy != PROXY_GENERIC) {
        add_to(x, XS_PROXY, i);
        static const int proxy_set[] = {[PROXY_GENERIC] = XS_GEN, [PROXY_SURFACE] = XS_SUR,
                                        [PROXY_TEXTURE] = XS_TEX, [PROXY_CONSTANT] = XS_CON,
                                        [PROXY_ALIAS] = XS_ALIAS};
        add_to(x, proxy_set[te->proxy], i);
    }
}

static void tag_event(exec *x, const tp_event *te, int i)
{
    switch (te->kind) {
    case EV_READ:
    case EV_WRITE:
    case EV_RMW:
        if (te->kind != EV_WRITE)
            add_to(x, XS_R, i);
        if (te->kind != EV_READ)
            add_to(x, XS_W, i);
        tag_access(x, te, i);
        break;
    case EV_FENCE:
        if (te->implicit_sc) {
            add_to(x, XS_SCF, i); /* only that, and its scope */
            break;
        }
        add_to(x, XS_F, i);
        tag_fence(x, te, i);
        tag_region(x, te->regions, i);
        break;
    case EV_BARRIER:
        add_to(x, XS_B, i);
        if (te->waits)
            add_to(x, XS_BSYNC, i);
        tag_region(x, te->regions, i);
        break;
    }
    if (te->in_rmw)
        add_to(x, XS_RMW_EV, i);
    static const int scope_set[] = {[SCOPE_NONE] = -1, [SCOPE_CTA] = XS_CTA, [SCOPE_GPU] = XS_GPU,
                                    [SCOPE_SYS] = XS_SYS, [SCOPE_WI] = XS_WI};
    if (scope_set[te->scope] >= 0)
        add_to(x, scope_set[te->scope], i);
}

static void fill_sets(enum_ctx *c)
{
    exec *x = &c->x;
    memset(x->sets, 0, sizeof *x->sets * (size_t)XS_COUNT * (size_t)rel_words(c->n));
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        const tp_event *te = e->ev;
        if (!te) {
            add_to(x, XS_W, i);
            add_to(x, XS_IW, i);
            add_to(x, XS_GEN, i);
            tag_location(x, c->t, e->vloc, i);
            continue;
        }
        tag_event(x, te, i);
        if (te->kind == EV_READ || te->kind == EV_WRITE || te->kind == EV_RMW)
            tag_location(x, c->t, te->loc, i);
    }
    set_union(exec_set(x, XS_M), exec_set(x, XS_R), exec_set(x, XS_W), c->n);
    if (c->t->c_event_sets) { /* herd's C: NA is every event that is not atomic */
        evword *na = exec_set(x, XS_NA);
        set_universe(na, c->n);
        set_diff(na, na, exec_set(x, XS_ATOMIC), c->n);
    }
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

/* out = the events of the threads in `threads`. */
INLINE void events_of(const enum_ctx *c, uint32_t threads, evword *out, int n, int stride)
{
    set_clear(out, n);
    for (; threads; threads &= threads - 1)
        set_union(out, out, at_(c->thread_events, stride, __builtin_ctz(threads)), n);
}

/* Events grouped by location, thread and scope, from which each row of a
 * static relation is a copy: O(n) words instead of a test per pair. */
INLINE void group_events(enum_ctx *c, int n, int stride)
{
    int nthreads = c->t->nthreads;
    for (int l = 0; l < c->t->nlocs; l++) {
        set_clear(at_(c->loc_events, stride, l), n);
        set_clear(at_(c->vloc_events, stride, l), n);
    }
    for (int th = 0; th < nthreads; th++) {
        set_clear(at_(c->thread_events, stride, th), n);
        for (int s = 0; s < NSCOPES; s++)
            set_clear(at_(c->scoped, stride, th * NSCOPES + s), n);
    }
    for (int i = 0; i < n; i++) {
        const ev_info *e = &c->ev[i];
        if (e->phys >= 0) {
            set_add(at_(c->loc_events, stride, e->phys), i);
            set_add(at_(c->vloc_events, stride, e->vloc), i);
        }
        if (e->thread < 0)
            continue;
        set_add(at_(c->thread_events, stride, e->thread), i);
        if (e->ev->scope != SCOPE_NONE)
            set_add(at_(c->scoped, stride, e->thread * NSCOPES + e->ev->scope), i);
    }
    set_clear(c->threads_events, n);
    for (int th = 0; th < nthreads; th++)
        set_union(c->threads_events, c->threads_events, at_(c->thread_events, stride, th), n);
}

/* sr from an event of thread a with scope s: the scoped events of threads
 * inside its scope instance whose own scope instance holds thread a. */
INLINE void scope_partners(const enum_ctx *c, int a, int s, evword *out, int n, int stride)
{
    set_clear(out, n);
    for (uint32_t bs = c->peers.scope[a][s]; bs; bs &= bs - 1) {
        int b = __builtin_ctz(bs);
        for (int sb = SCOPE_NONE + 1; sb < NSCOPES; sb++)
            if (c->peers.scope[b][sb] & ((uint32_t)1 << a))
                set_union(out, out, at_(c->scoped, stride, b * NSCOPES + sb), n);
    }
}

/* Per thread: its CTA's and GPU's events, and what sr relates each of its
 * scopes to. */
INLINE void group_peers(enum_ctx *c, int n, int stride)
{
    for (int th = 0; th < c->t->nthreads; th++) {
        events_of(c, c->peers.cta[th], at_(c->cta_events, stride, th), n, stride);
        events_of(c, c->peers.gpu[th], at_(c->gpu_events, stride, th), n, stride);
        for (int s = SCOPE_NONE + 1; s < NSCOPES; s++)
            scope_partners(c, th, s, at_(c->scope_events, stride, th * NSCOPES + s), n, stride);
    }
}

/* loc, vloc, int, ext, po, scta, sgpu and sr, one row per event. */
INLINE void fill_pair_relations(enum_ctx *c, int n, int stride)
{
    exec *x = &c->x;
    group_events(c, n, stride);
    group_peers(c, n, stride);
    static const int thread_rels[] = {XR_INT, XR_EXT, XR_PO, XR_SCTA, XR_SGPU, XR_SR};
    for (int i = 0; i < n; i++) {
        const ev_info *e = &c->ev[i];
        if (e->phys >= 0) {
            set_copy(rel_row(x->rel[XR_LOC], i, n), at_(c->loc_events, stride, e->phys), n);
            set_copy(rel_row(x->rel[XR_VLOC], i, n), at_(c->vloc_events, stride, e->vloc), n);
        } else {
            set_clear(rel_row(x->rel[XR_LOC], i, n), n);
            set_clear(rel_row(x->rel[XR_VLOC], i, n), n);
        }
        if (e->thread < 0) {
            for (size_t r = 0; r < sizeof thread_rels / sizeof *thread_rels; r++)
                set_clear(rel_row(x->rel[thread_rels[r]], i, n), n);
            continue;
        }
        const evword *own = at_(c->thread_events, stride, e->thread);
        set_copy(rel_row(x->rel[XR_INT], i, n), own, n);
        set_diff(rel_row(x->rel[XR_EXT], i, n), c->threads_events, own, n);
        evword *po = rel_row(x->rel[XR_PO], i, n);
        set_first(po, i + 1, n);
        set_diff(po, own, po, n);
        set_copy(rel_row(x->rel[XR_SCTA], i, n), at_(c->cta_events, stride, e->thread), n);
        set_copy(rel_row(x->rel[XR_SGPU], i, n), at_(c->gpu_events, stride, e->thread), n);
        if (e->ev->scope != SCOPE_NONE)
            set_copy(rel_row(x->rel[XR_SR], i, n), at_(c->scope_events, stride, e->thread * NSCOPES + e->ev->scope), n);
        else
            set_clear(rel_row(x->rel[XR_SR], i, n), n);
    }
}

INLINE void add_deps(relation *r, const uint64_t *deps, int words, int base, int to, int n)
{
    for (int k = 0; k < words; k++)
        for (uint64_t d = deps[k]; d; d &= d - 1)
            rel_add(r, base + k * 64 + __builtin_ctzll(d), to, n);
}

/* Program order without the pairs C leaves unsequenced (tp_unseq). */
INLINE void remove_unsequenced(relation *po, const uint64_t *unseq, int words, int base, int to, int n)
{
    for (int k = 0; k < words; k++)
        for (uint64_t d = unseq[k]; d; d &= d - 1)
            set_remove(rel_row(po, base + k * 64 + __builtin_ctzll(d), n), to);
}

INLINE void fill_dependencies(enum_ctx *c, const int *first, int n)
{
    exec *x = &c->x;
    for (int i = 0; i < n; i++) {
        const ev_info *e = &c->ev[i];
        if (!e->ev)
            continue;
        const tp_trace *tr = chosen_trace(c, e->thread);
        int base = first[e->thread], words = tr->dep_words;
        add_deps(x->rel[XR_DATA], tp_deps(tr, e->index, DEP_DATA), words, base, i, n);
        if (e->ev->kind == EV_RMW) /* herd: into a read-modify-write, also addr */
            add_deps(x->rel[XR_ADDR], tp_deps(tr, e->index, DEP_DATA), words, base, i, n);
        add_deps(x->rel[XR_CTRL], tp_deps(tr, e->index, DEP_CTRL), words, base, i, n);
        add_deps(x->rel[XR_ADDR], tp_deps(tr, e->index, DEP_ADDR), words, base, i, n);
        if (__builtin_expect(c->unsequenced, 0) && tr->unseq)
            remove_unsequenced(x->rel[XR_PO], tp_unseq(tr, e->index), words, base, i, n);
        if (e->ev->rmw_write)
            rel_add(x->rel[XR_RMW], i - 1, i, n);
    }
}

INLINE void fill_static_n(enum_ctx *c, const int *first, int n, int stride)
{
    exec *x = &c->x;
    x->n = n;
    /* the relations built by adding pairs; fill_pair_relations writes
     * whole rows of the others */
    static const int added[] = {XR_RF, XR_CO, XR_FR, XR_RMW, XR_SYNCBAR, XR_ADDR, XR_DATA, XR_CTRL};
    for (size_t r = 0; r < sizeof added / sizeof *added; r++)
        rel_clear(x->rel[added[r]], n);
    for (int p = 0; p < c->t->nlocs; p++)
        c->co_applied[p] = -1;
    fill_sets(c);
    fill_pair_relations(c, n, stride);
    fill_dependencies(c, first, n);
    rel_inter(x->rel[XR_PO_LOC], x->rel[XR_PO], x->rel[XR_LOC], n);
}

/* Two copies of the same code: one where the compiler knows every set is
 * one word (nearly every test), one for any width. */
static void fill_static_one_word(enum_ctx *c, const int *first)
{
    int n = c->n;
    if (n < 1 || n > 64)
        __builtin_unreachable();
    fill_static_n(c, first, n, 1);
}

static void fill_static_relations(enum_ctx *c, const int *first)
{
    if (c->n >= 1 && c->n <= 64 && c->stride == 1)
        fill_static_one_word(c, first);
    else
        fill_static_n(c, first, c->n, c->stride);
}

/* Adds write w as an option of read r (the r-th read, event i), unless
 * thread coherence rules it out: a write of its own thread after it, or,
 * when its thread wrote the location before it, any write of the thread
 * but the latest, and the initial write (each is coherence-before that
 * latest write, which the read follows: forbid_reading_back). */
static inline void consider_write(enum_ctx *c, int r, int i, int w, int *used)
{
    const ev_info *we = &c->ev[w];
    bool same_thread = we->thread == c->ev[i].thread;
    if (c->thread_coherent) {
        int last = c->last_write[r];
        if (same_thread && w > i)
            return;
        if (last >= 0 && w != last && (same_thread || we->thread < 0))
            return;
    }
    if (we->wvalue != c->ev[i].value)
        return;
    if (*used == c->opts_cap) {
        c->opts_cap = 2 * c->opts_cap;
        int *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)c->opts_cap);
        memcpy(grown, c->opts, sizeof *grown * (size_t)*used);
        c->opts = grown;
    }
    c->opts[(*used)++] = w;
    c->nopts[r]++;
}

/* Reads-from options: writes to the same location with the read's value. */
static bool collect_rf_options(enum_ctx *c)
{
    int n = c->n;
    if (c->stride == 1) {
        evword *writes = c->loc_writes_now;
        for (int l = 0; l < c->t->nlocs; l++)
            writes[l] = 0;
        for (int w = 0; w < n; w++)
            if (c->ev[w].write)
                writes[c->ev[w].phys] |= evword_bit(w);
    } else {
        for (int l = 0; l < c->t->nlocs; l++)
            set_clear(set_at(c->loc_writes_now, c, l), n);
        for (int w = 0; w < n; w++)
            if (c->ev[w].write)
                set_add(set_at(c->loc_writes_now, c, c->ev[w].phys), w);
    }
    c->nreads = c->nrmw_reads = 0;
    int used = 0;
    for (int i = 0; i < n; i++) {
        if (!c->ev[i].read)
            continue;
        c->nrmw_reads += c->ev[i].write;
        int r = c->nreads++;
        c->read_ev[r] = i;
        c->nopts[r] = 0;
        c->opt_at[r] = used;
        c->last_write[r] = c->ev[i].last_write;
        const evword *writes = set_at(c->loc_writes_now, c, c->ev[i].phys);
        /* never event i itself: a C read-modify-write does not read its own write */
        if (n <= 64)
            for (evword ws = writes[0] & ~evword_bit(i); ws; ws &= ws - 1)
                consider_write(c, r, i, __builtin_ctzll(ws), &used);
        else
            for (int w = set_next(writes, 0, n); w >= 0; w = set_next(writes, w + 1, n))
                if (w != i)
                    consider_write(c, r, i, w, &used);
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
        need += c->locw[c->phys_list[p]].orders->count;
    }
    if (need > c->allowed_cap) {
        c->allowed_cap = 2 * need;
        c->allowed = GC_MALLOC_ATOMIC(sizeof *c->allowed * (size_t)c->allowed_cap);
        c->identity = GC_MALLOC_ATOMIC(sizeof *c->identity * (size_t)c->allowed_cap);
        for (long i = 0; i < c->allowed_cap; i++)
            c->identity[i] = (int)i;
    }
}

/* Each location's writes, and their program-order constraints; false when
 * a location has more writes than coherence orders are listed for (the
 * combination is then skipped, and the result says so). */
static bool collect_writes(enum_ctx *c)
{
    c->nphys = 0;
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        if (!e->write || e->thread < 0)
            continue;
        loc_writes *lw = &c->locw[e->phys];
        if (lw->k == MAX_TOTAL_K) {
            c->r->writes_cut = true;
            return false;
        }
        c->write_pos[i] = (int8_t)lw->k;
        lw->w[lw->k++] = i;
    }
    for (int l = 0; l < c->t->nlocs; l++) {
        loc_writes *lw = &c->locw[l];
        if (c->t->locs[l].physical != l || lw->k == 0)
            continue;
        memset(lw->must, 0, sizeof lw->must);
        for (int i = 0; i < lw->k; i++)
            for (int j = i + 1; j < lw->k && c->thread_coherent; j++)
                if (c->ev[lw->w[i]].thread == c->ev[lw->w[j]].thread)
                    lw->must[i] |= (uint8_t)(1u << j);
        lw->orders = orders_for(c, lw);
        if (!lw->orders) {
            c->r->writes_cut = true;
            return false;
        }
        c->phys_list[c->nphys++] = l;
    }
    make_room_for_orders(c);
    return true;
}

static int cta_size(const litmus_test *t, int cta, int gpu)
{
    int n = 0;
    for (int th = 0; th < t->nthreads; th++)
        n += t->threads[th].cta == cta && t->threads[th].gpu == gpu;
    return n;
}

/* Storage for the checker's barrier alternatives: live_set_events refuses
 * combinations of more than 64 events, so each holds a relation of 64. */
static void make_live_alts(enum_ctx *c)
{
    c->live_alts = GC_MALLOC(sizeof *c->live_alts * LIVE_GROUPS * LIVE_ALTS);
    char *block = GC_MALLOC_ATOMIC(rel_bytes(64) * LIVE_GROUPS * LIVE_ALTS);
    for (int i = 0; i < LIVE_GROUPS * LIVE_ALTS; i++)
        c->live_alts[i] = (relation *)(block + (size_t)i * rel_bytes(64));
    c->live_nalts = GC_MALLOC_ATOMIC(sizeof *c->live_nalts * LIVE_GROUPS);
    c->live_choice = GC_MALLOC_ATOMIC(sizeof *c->live_choice * LIVE_GROUPS);
}

/* The liveness pass: the barrier groups (CTA, id) with a blocked or
 * unfinished sync go to the checker (live_barrier_group), which lists
 * their syncbar alternatives; their events leave c->bar_ev (*nbar shrinks)
 * so that the usual choices cover the other groups.  False when the
 * combination makes no stuck execution. */
static bool live_barrier_groups(enum_ctx *c, int *nbar)
{
    int kept = 0;
    for (int i = 0; i < *nbar; i++) {
        const bar_event *b = &c->bar_ev[i];
        bool special = false;
        for (int j = 0; j < *nbar && !special; j++) {
            const bar_event *o = &c->bar_ev[j];
            special = o->cta == b->cta && o->gpu == b->gpu && o->id == b->id && live_barrier_special(c->live, o->event);
        }
        if (!special) {
            c->bar_ev[kept++] = *b;
            continue;
        }
        bool first = true;    /* the group is handled at its first event */
        for (int j = 0; j < i && first; j++)
            first = !(c->bar_ev[j].cta == b->cta && c->bar_ev[j].gpu == b->gpu && c->bar_ev[j].id == b->id);
        if (!first)
            continue;
        if (c->nlive_groups == LIVE_GROUPS) {
            live_give_up(c->live, "a combination has too many barrier groups with a blocked sync");
            return false;
        }
        if (!c->live_alts)
            make_live_alts(c);
        int events[LIVE_GROUP_EVENTS], m = 0;
        lit_value count = b->count;
        for (int j = i; j < *nbar; j++) {
            const bar_event *o = &c->bar_ev[j];
            if (o->cta == b->cta && o->gpu == b->gpu && o->id == b->id) {
                if (m == LIVE_GROUP_EVENTS) {
                    live_give_up(c->live, "a barrier group with a blocked sync has too many events");
                    return false;
                }
                events[m++] = o->event;
            }
        }
        int g = c->nlive_groups++;
        relation *const *alts = &c->live_alts[g * LIVE_ALTS];
        int nalts = live_barrier_group(c->live, events, m, count, cta_size(c->t, b->cta, b->gpu), alts, LIVE_ALTS);
        if (nalts <= 0)
            return false;
        c->live_nalts[g] = nalts;
    }
    *nbar = kept;
    return true;
}

/* The combination's barrier events, grouped into syncbar choices; false
 * when they make no execution (a sync waits forever, or a counted barrier
 * has too many arrivals to order: the result says which). */
static bool collect_barriers(enum_ctx *c)
{
    int nbar = 0;
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
        if (!e->ev || e->ev->kind != EV_BARRIER)
            continue;
        const lit_thread *th = &c->t->threads[e->thread];
        c->bar_ev[nbar++] = (bar_event){i, e->thread, th->cta, th->gpu, e->ev->value, e->ev->count, e->ev->waits};
    }
    c->nbar_groups = 0;
    c->nlive_groups = 0;
    if (c->live && !live_barrier_groups(c, &nbar))
        return false;
    if (nbar == 0)
        return true;
    enum bar_status st = barriers_build(c->bars, c->bar_ev, nbar);
    c->nbar_groups = barriers_groups(c->bars);
    if (barriers_hang(c->bars) || st == BAR_HANG)
        c->r->hang = true;
    if (st == BAR_TOO_MANY)
        c->r->barriers_cut = true;
    return st == BAR_OK;
}

/* ---- the innermost loops -------------------------------------------------- */

static lit_value observed_value_reg(const enum_ctx *c, const lit_term *term)
{
    return chosen_trace(c, term->thread)->regs[term->reg];
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
static void notify_execution(enum_ctx *c, enum_execution_fn fn, bool holds)
{
    enum_event_info info[REL_MAX_EVENTS];
    for (int i = 0; i < c->n; i++) {
        const ev_info *e = &c->ev[i];
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
    fn(c->execution_ctx, &c->x, info, c->n, c->state, holds, c->rejecting ? 0 : c->exec_flags);
}

static void record_state(enum_ctx *c, int obs)
{
    const litmus_test *t = c->t;
    if (obs == t->nobserved + t->nhidden) {
        if (t->filter && !condition_holds(t, t->filter, c->state))
            return; /* herd's filter drops the execution */
        if (c->rejecting) {
            notify_execution(c, c->on_rejected, condition_holds(t, t->cond, c->state));
            return;
        }
        bool holds = proposition_holds(c, outcome_add(c->r->states, c->state));
        if (holds)
            c->r->positive++;
        else
            c->r->negative++;
        if (c->on_execution)
            notify_execution(c, c->on_execution, holds);
        return;
    }
    const lit_term *term = obs < t->nobserved ? &t->observed[obs] : &t->hidden[obs - t->nobserved];
    if (term->kind != TERM_LOC) {
        c->state[obs] = term->kind == TERM_REG ? observed_value_reg(c, term) : term->value;
        record_state(c, obs + 1);
        return;
    }
    /* any co-maximal write may give the final value */
    int phys = t->locs[term->loc].physical;
    const loc_writes *lw = &c->locw[phys];
    const relation *co = c->x.rel[XR_CO];
    if (lw->k == 0) {
        c->state[obs] = c->ev[lw->init].wvalue;
        record_state(c, obs + 1);
        return;
    }
    for (int i = 0; i < lw->k; i++) {
        int w = lw->w[i];
        if (!set_is_empty(rel_crow(co, w, c->n), c->n))
            continue;
        c->state[obs] = c->ev[w].wvalue;
        record_state(c, obs + 1);
    }
}

static void add_race(enum_ctx *c, int flag, int a, int b)
{
    const ev_info *ea = &c->ev[a], *eb = &c->ev[b];
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
    int n = c->n;
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

/* The final states of a rejected execution, each handed to on_rejected. */
static void notify_rejected(enum_ctx *c)
{
    c->rejecting = true;
    record_state(c, 0);
    c->rejecting = false;
}

static void evaluate(enum_ctx *c)
{
    if (out_of_budget(c))
        return;
    c->r->candidates++;
    cat_verdict v = cat_check_prepared(c->model, c->ws, &c->x);
    if (cat_undecided(c->ws))
        c->r->undecided = true;
    if (!v.consistent) {
        if (c->on_rejected && !cat_undecided(c->ws))
            notify_rejected(c);
        return;
    }
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
    int n = c->n;
    const evword *bars = exec_set(x, XS_B);
    relation *waits = c->scratch[0], *po_bar = c->scratch[1], *step = c->scratch[2];
    rel_star(waits, x->rel[XR_SYNCBAR], bars, n);
    rel_restrict(po_bar, x->rel[XR_PO], bars, bars, n);
    rel_seq(step, waits, po_bar, n);
    rel_plus(step, step, n);
    return !rel_is_irreflexive(step, n);
}

static void choose_rf(enum_ctx *c, int r);

/* The liveness pass: the alternatives of the checker's barrier groups,
 * after the usual groups' choices. */
static void choose_live_barriers(enum_ctx *c, int g)
{
    if (c->stop || live_combination_done(c->live))
        return;
    if (g == c->nlive_groups) {
        relation *sb = c->x.rel[XR_SYNCBAR];
        rel_clear(sb, c->n);
        for (int i = 0; i < c->nbar_groups; i++)
            barriers_apply(c->bars, i, c->bar_choice[i], sb, c->n);
        for (int i = 0; i < g; i++)
            rel_union(sb, sb, c->live_alts[i * LIVE_ALTS + c->live_choice[i]], c->n);
        if (barriers_deadlock(c))
            return;
        choose_rf(c, 0);
        return;
    }
    for (int a = 0; a < c->live_nalts[g]; a++) {
        c->live_choice[g] = a;
        choose_live_barriers(c, g + 1);
    }
}

static void choose_barriers(enum_ctx *c, int g)
{
    if (c->stop)
        return;
    if (g == c->nbar_groups && c->live && c->nlive_groups) {
        choose_live_barriers(c, 0);
        return;
    }
    if (g == c->nbar_groups) {
        relation *sb = c->x.rel[XR_SYNCBAR];
        rel_clear(sb, c->n);
        for (int i = 0; i < g; i++)
            barriers_apply(c->bars, i, c->bar_choice[i], sb, c->n);
        if (g && barriers_deadlock(c)) {
            c->r->hang = true;
            return;
        }
        choose_rf(c, 0);
        return;
    }
    for (int a = 0; a < barriers_choices(c->bars, g); a++) {
        c->bar_choice[g] = a;
        choose_barriers(c, g + 1);
    }
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

/* A location's allowed orders depend only on its table and the masks
 * (thread coherence's and liveness's), and the same masks come back for
 * many reads-from choices: a large table's filtered list is kept, by a
 * direct-mapped slot, instead of filtering its thousands of orders again
 * (PriorSem-bool's liveness pass: tens of millions of reads-from choices,
 * 80,000 orders of the lock, 99.9% of them masks seen before; litmus/ptx
 * under ptx6, 11% fewer instructions).  The memo is allocated at its first
 * use, so a test without a large table pays nothing.  A replaced list is
 * not reused: a location's list[p] may still point at it. */
#define ORDER_MEMO 256
#define ORDER_MEMO_MIN 64       /* smaller tables are filtered again: cheaper than a copy */

struct order_memo {
    const order_table *tab;
    uint64_t key;
    const int *list;
    int n;
};

static struct order_memo *memo_slot(enum_ctx *c, const order_table *tab, uint64_t key)
{
    if (!c->memo)
        c->memo = GC_MALLOC(sizeof *c->memo * ORDER_MEMO);
    uint64_t h = (key ^ (uint64_t)(uintptr_t)tab) * 0x9e3779b97f4a7c15ull;
    return &c->memo[h >> 56];
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
        order_table *tab = lw->orders;
        uint8_t mask[MAX_TOTAL_K], never = 0;
        memcpy(mask, lw->never, sizeof mask);
        if (c->live && !live_order_never(c->live, lw->w, lw->k, lw->init, mask))
            return false;
        for (int i = 0; i < lw->k; i++)
            never |= mask[i];
        int *list = c->allowed + c->allowed_at[p];
        int n = 0;
        if (!never) {
            c->list[p] = c->identity;
            n = tab->count;
        } else {
            uint64_t key = 0;
            for (int i = 0; i < lw->k; i++)
                key |= (uint64_t)mask[i] << (8 * i);
            struct order_memo *m = tab->count >= ORDER_MEMO_MIN ? memo_slot(c, tab, key) : NULL;
            if (m && m->list && m->tab == tab && m->key == key) {
                c->list[p] = m->list;
                n = m->n;
            } else {
                n = order_table_filter(tab, lw->k, mask, list);
                c->list[p] = list;
                if (m) {
                    int *kept = n ? GC_MALLOC_ATOMIC(sizeof *kept * (size_t)n) : c->identity;
                    if (n)
                        memcpy(kept, list, sizeof *kept * (size_t)n);
                    *m = (struct order_memo){tab, key, kept, n};
                }
            }
        }
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
static void set_co_narrow(enum_ctx *c)
{
    evword *co = rel_w(c->x.rel[XR_CO]);
    for (int p = 0; p < c->nphys; p++) {
        if (c->co_applied[p] == c->co_choice[p])
            continue;
        c->co_applied[p] = c->co_choice[p];
        const loc_writes *lw = &c->locw[c->phys_list[p]];
        const uint8_t *rows = lw->orders->rows[c->co_choice[p]];
        evword all = 0;
        for (int i = 0; i < lw->k; i++) {
            all |= evword_bit(lw->w[i]);
            evword after = 0;
            for (unsigned later = rows[i]; later; later &= later - 1)
                after |= evword_bit(lw->w[__builtin_ctz(later)]);
            co[lw->w[i]] = after;
        }
        co[lw->init] = all;
    }
    evword *fr = rel_w(c->x.rel[XR_FR]);
    for (int r = 0; r < c->nreads; r++)
        fr[c->read_ev[r]] = co[c->rf_choice[r]];
    if (c->nrmw_reads) /* a C read-modify-write is not fr-before itself */
        for (int r = 0; r < c->nreads; r++)
            fr[c->read_ev[r]] &= ~evword_bit(c->read_ev[r]);
}

static void set_co(enum_ctx *c)
{
    int n = c->n;
    if (n <= 64) {
        set_co_narrow(c);
        return;
    }
    relation *co = c->x.rel[XR_CO];
    for (int p = 0; p < c->nphys; p++) {
        if (c->co_applied[p] == c->co_choice[p])
            continue;
        c->co_applied[p] = c->co_choice[p];
        const loc_writes *lw = &c->locw[c->phys_list[p]];
        const uint8_t *rows = lw->orders->rows[c->co_choice[p]];
        evword *init_row = rel_row(co, lw->init, n);
        set_clear(init_row, n);
        for (int i = 0; i < lw->k; i++) {
            set_add(init_row, lw->w[i]);
            evword *row = rel_row(co, lw->w[i], n);
            set_clear(row, n);
            for (unsigned later = rows[i]; later; later &= later - 1)
                set_add(row, lw->w[__builtin_ctz(later)]);
        }
    }
    relation *fr = c->x.rel[XR_FR];
    for (int r = 0; r < c->nreads; r++)
        set_copy(rel_row(fr, c->read_ev[r], n), rel_crow(co, c->rf_choice[r], n), n);
    if (c->nrmw_reads) /* a C read-modify-write is not fr-before itself */
        for (int r = 0; r < c->nreads; r++)
            set_remove(rel_row(fr, c->read_ev[r], n), c->read_ev[r]);
}

static void choose_co(enum_ctx *c, int p)
{
    if (c->stop || (c->live && live_combination_done(c->live)))
        return;
    if (p == c->nphys) {
        set_co(c);
        evaluate(c);
        return;
    }
    for (int i = 0; i < c->nallowed[p]; i++) {
        c->co_choice[p] = c->list[p][i];
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

/* Below this many coherence choices for one reads-from choice, asking
 * the model first whether any can pass costs more than it saves. */
#define CO_PRECHECK_MIN 4

/* co and fr empty, for the model's prune check; the rows of co are
 * rewritten by the next set_co (co_applied forgotten). */
static void clear_co(void *ctx)
{
    enum_ctx *c = ctx;
    rel_clear(c->x.rel[XR_CO], c->n);
    rel_clear(c->x.rel[XR_FR], c->n);
    for (int p = 0; p < c->nphys; p++)
        c->co_applied[p] = -1;
}

/* The model's prune check rejected every choice: each is a candidate, as
 * if it had been applied (apply_co_choice's count). */
static void reject_all_co(void *ctx)
{
    enum_ctx *c = ctx;
    long count = 1;
    for (int p = 0; p < c->nphys; p++)
        count *= c->nallowed[p];
    for (long k = 0; k < count; k++)
        if (!bit_test_and_set(c->co_tried, k))
            c->r->candidates++;
}

/* Choice k, in mixed radix over the locations' allowed orders. */
static bool apply_co_choice(void *ctx, long k)
{
    enum_ctx *c = ctx;
    if (out_of_budget(c))
        return false;
    long rest = k;
    for (int p = 0; p < c->nphys; p++) {
        c->co_choice[p] = c->list[p][rest % c->nallowed[p]];
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
        return c->stop;
    c->r->consistent++;
    if (c->live) {
        live_record(c->live, &c->x);
        return c->stop || live_cut_reached(c->live) || live_combination_done(c->live);
    }
    c->r->flags |= flags;
    if (c->collect_races && flags)
        collect_races(c, flags);
    c->exec_flags = flags;
    record_state(c, 0);
    return c->stop;
}

/* How many coherence choices the locations make together, or -1 when too
 * many to hand to the model at once. */
static long co_choice_count(enum_ctx *c)
{
    long count = 1;
    for (int p = 0; p < c->nphys; p++) {
        count *= c->locw[c->phys_list[p]].orders->count;
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
    cat_co_source src = {count, apply_co_choice, accept_co_choice, c, NULL, NULL};
    if (count >= CO_PRECHECK_MIN) {
        src.clear = clear_co;
        src.rejected_all = reject_all_co;
    }
    cat_check_co(c->model, c->ws, &c->x, &src);
    if (cat_undecided(c->ws))
        c->r->undecided = true;
}

/* Whether some coherence choice may pass the model with the current
 * reads-from choice, asked of the model before the choices are listed one
 * by one (choose_co: more than MAX_STAGED_CO of them): the model's checks
 * that can only fail more as co grows are run once with co and fr empty
 * (cat_co_may_pass). */
static bool co_may_pass(enum_ctx *c)
{
    long choices = 1;
    for (int p = 0; p < c->nphys && choices < CO_PRECHECK_MIN; p++)
        choices *= c->nallowed[p];
    if (choices < CO_PRECHECK_MIN)
        return true;
    clear_co(c);
    bool co_reached;
    if (cat_co_may_pass(c->model, c->ws, &c->x, &co_reached))
        return true;
    if (!co_reached) /* rejected before any coherence choice would be tried */
        return false;
    /* every choice is a candidate the model rejects, as each would have been tried */
    uint64_t all = 1;
    for (int p = 0; p < c->nphys; p++)
        all = all > UINT64_MAX / (uint64_t)c->nallowed[p] ? UINT64_MAX : all * (uint64_t)c->nallowed[p];
    c->r->candidates = all > UINT64_MAX - c->r->candidates ? UINT64_MAX : c->r->candidates + all;
    return false;
}

/* Whether this combination's choices can stop: a limit, or (liveness
 * pass) nothing more to learn from it. */
static inline bool combination_over(const enum_ctx *c)
{
    return c->stop || (c->live && live_combination_done(c->live));
}

static void choose_rf(enum_ctx *c, int r)
{
    if (combination_over(c))
        return;
    if (r == c->nreads) {
        /* a limit is asked here too: where every choice fails
         * allow_orders (the liveness pass's final reads), no candidate
         * would ever ask it */
        if (out_of_budget(c))
            return;
        if (c->live)
            live_set_rf(c->live, c->nreads, c->read_ev, c->rf_choice);
        /* most choices of the liveness pass end here: rf is built after */
        if (!allow_orders(c))
            return;
        relation *rf = c->x.rel[XR_RF];
        rel_clear(rf, c->n);
        for (int i = 0; i < c->nreads; i++)
            rel_add(rf, c->rf_choice[i], c->read_ev[i], c->n);
        if (c->co_count > 0)
            evaluate_all_co(c);
        else if (!c->co_staged || co_may_pass(c))
            choose_co(c, 0);
        return;
    }
    for (int o = 0; o < c->nopts[r]; o++) {
        c->rf_choice[r] = c->opts[c->opt_at[r] + o];
        choose_rf(c, r + 1);
    }
}

/* ---- one combination ---------------------------------------------------------- */

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

static int combination_events(const enum_ctx *c)
{
    int n = c->ninit;
    for (int th = 0; th < c->t->nthreads; th++)
        n += chosen_trace(c, th)->nevents;
    return n;
}

/* The combination's events as the liveness checker numbers them. */
static bool live_events(enum_ctx *c, const int *first)
{
    if (!c->live_thread) {
        c->live_thread = GC_MALLOC_ATOMIC(sizeof *c->live_thread * (size_t)c->cap);
        c->live_value = GC_MALLOC_ATOMIC(sizeof *c->live_value * (size_t)c->cap);
    }
    for (int i = 0; i < c->n; i++) {
        c->live_thread[i] = c->ev[i].thread;
        c->live_value[i] = c->ev[i].value;
    }
    return live_set_events(c->live, &c->paths, c->choice, first, c->n, c->live_thread, c->live_value);
}

static void run_combination(enum_ctx *c)
{
    if (combination_events(c) > c->cap) {
        c->r->too_big = true;
        return;
    }
    int first[MAX_THREADS];
    c->n = 0;
    add_init_writes(c);
    add_thread_events(c, first);
    if (c->live && !live_events(c, first))
        return;
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

static bool visit_combination(void *ctx)
{
    enum_ctx *c = ctx;
    if (out_of_budget(c))
        return false;
    if (c->live && (!live_accept_combination(c->live, &c->paths, c->choice) || live_combination_done(c->live)))
        return true;
    run_combination(c);
    return !c->stop && !(c->live && live_cut_reached(c->live));
}

/* ---- the test ------------------------------------------------------------------- */

/* The most events a combination can have: the initial writes and the
 * longest trace of each thread; at most REL_MAX_EVENTS (a larger
 * combination is skipped). */
static int most_events(const enum_ctx *c)
{
    long n = c->ninit;
    for (int th = 0; th < c->t->nthreads; th++) {
        int longest = 0;
        for (int i = 0; i < c->paths.threads[th].ntraces; i++)
            if (c->paths.threads[th].traces[i].nevents > longest)
                longest = c->paths.threads[th].traces[i].nevents;
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

static void carve_storage(enum_ctx *c, arena *a)
{
    const litmus_test *t = c->t;
    int cap = c->cap, nlocs = t->nlocs ? t->nlocs : 1, nthreads = t->nthreads ? t->nthreads : 1;
    size_t set = sizeof(evword) * (size_t)c->stride, ints = sizeof(int) * (size_t)cap;
    for (int i = 0; i < 3; i++)
        c->scratch[i] = take(a, rel_bytes(cap));
    c->ev = take(a, sizeof *c->ev * (size_t)cap);
    c->loc_events = take(a, set * (size_t)nlocs);
    c->vloc_events = take(a, set * (size_t)nlocs);
    c->loc_writes_now = take(a, set * (size_t)nlocs);
    c->thread_events = take(a, set * (size_t)nthreads);
    c->cta_events = take(a, set * (size_t)nthreads);
    c->gpu_events = take(a, set * (size_t)nthreads);
    c->scope_events = take(a, set * (size_t)nthreads * NSCOPES);
    c->scoped = take(a, set * (size_t)nthreads * NSCOPES);
    c->threads_events = take(a, set);
    c->read_ev = take(a, ints);
    c->nopts = take(a, ints);
    c->opt_at = take(a, ints);
    c->rf_choice = take(a, ints);
    c->last_write = take(a, ints);
    c->opts_cap = 4 * cap;
    c->opts = take(a, sizeof(int) * (size_t)c->opts_cap);
    c->write_pos = take(a, sizeof(int8_t) * (size_t)cap);
    c->locw = take(a, sizeof(loc_writes) * (size_t)nlocs);
    c->latest = take(a, sizeof(int) * (size_t)nlocs);
    c->latest_at = take(a, sizeof(long) * (size_t)nlocs);
    c->phys_list = take(a, sizeof(int) * (size_t)nlocs);
    c->co_choice = take(a, sizeof(int) * (size_t)nlocs);
    c->co_applied = take(a, sizeof(int) * (size_t)nlocs);
    c->allowed_at = take(a, sizeof(long) * (size_t)nlocs);
    c->nallowed = take(a, sizeof(int) * (size_t)nlocs);
    c->bar_ev = take(a, sizeof(bar_event) * (size_t)cap);
    c->bar_choice = take(a, ints);
}

/* Storage for combinations of up to c->cap events; false (with the result
 * saying so) when it would exceed the memory limit. */
static bool size_storage(enum_ctx *c)
{
    int cap = c->cap, nlocs = c->t->nlocs ? c->t->nlocs : 1;
    c->stride = rel_words(cap);
    arena measure = {NULL, 0};
    carve_storage(c, &measure);
    size_t relations = (size_t)XR_COUNT * rel_bytes(cap) + cat_workspace_bytes(c->model, cap);
    if (c->max_memory > 0 && heap_in_use() + relations + measure.used > c->max_memory) {
        c->r->out_of_memory = true;
        return false;
    }
    exec_init(&c->x, cap);
    arena block = {GC_MALLOC_ATOMIC(measure.used), 0};
    memset(block.base, 0, measure.used);
    carve_storage(c, &block);
    for (int l = 0; l < nlocs; l++)
        c->latest_at[l] = -1;
    c->list = GC_MALLOC(sizeof *c->list * (size_t)nlocs);
    c->memo = NULL;             /* allocated at the first large table's filtering (memo_slot) */
    c->bars = barriers_new();
    return true;
}

static int condition_constants(const lit_cond *c, lit_value *out, int n, int max);

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

/* The values every atomic read may guess besides computed ones, by what
 * the model says of thin air (cat_model_thin_air): the condition's
 * constants when it allows it, the program's when it does not say. */
static void thin_air_seeds(const litmus_test *t, enum cat_thin_air thin_air, tp_limits *lim)
{
    bool condition = thin_air == CAT_THIN_AIR_ALLOWED;
    int count = condition ? condition_constants(t->cond, NULL, 0, 0) : program_constants(t, NULL, 0);
    lit_value *seeds = GC_MALLOC_ATOMIC(sizeof *seeds * (size_t)(count ? count : 1));
    lim->nseeds = condition ? condition_constants(t->cond, seeds, 0, count) : program_constants(t, seeds, 0);
    lim->seeds = seeds;
}

static enum_ctx *new_ctx(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *o,
                         check_result *r, FILE *errors)
{
    enum_ctx *c = GC_MALLOC(sizeof *c);
    c->t = t;
    c->model = m;
    c->ws = ws;
    c->r = r;
    c->errors = errors;
    c->deadline = o->timeout_s > 0 ? now_seconds() + o->timeout_s : 0;
    c->max_memory = o->max_memory;
    /* the shortcuts take the order of a thread's events as program order */
    c->unsequenced = litmus_has_unsequenced(t);
    c->thread_coherent = cat_model_thread_coherent(m) && !litmus_mixed_addressing(t) && !c->unsequenced;
    c->collect_races = o->races;
    c->interrupt = o->stop;
    c->on_execution = o->on_execution;
    c->on_rejected = o->on_rejected;
    c->execution_ctx = o->execution_ctx;
    c->co_staged = cat_model_co_staged(m) && !o->on_rejected;
    find_peers(t, &c->peers);
    c->state = GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(t->nobserved + t->nhidden + 1));
    return c;
}

static tp_limits path_limits(enum_ctx *c, const enum_options *o)
{
    tp_limits lim = {.unroll = o->unroll, .max_traces = o->max_traces, .stop = paths_should_stop, .stop_ctx = c};
    if (cat_model_thin_air(c->model) != CAT_THIN_AIR_FORBIDDEN)
        thin_air_seeds(c->t, cat_model_thin_air(c->model), &lim);
    return lim;
}

/* Below this many combinations of traces, building the trace filter costs
 * more than it saves: a combination it would leave out has a read with no
 * write to read from, which collect_rf_options finds as fast. */
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
    if (th == c->t->nthreads)
        return visit_combination(c);
    for (int i = 0; i < c->paths.threads[th].ntraces; i++) {
        c->choice[th] = i;
        if (!each_combination(c, th + 1))
            return false;
    }
    return true;
}

/* Every combination of the traces c->paths (built with `lim`). */
static void run_paths(enum_ctx *c, const tp_limits *lim)
{
    const litmus_test *t = c->t;
    check_result *r = c->r;
    thread_paths_build(t, lim, &c->paths);
    r->unroll_cut = c->paths.unroll_cut;
    r->values_cut = c->paths.values_cut;
    r->too_big = c->paths.too_long;
    r->paths_cut = c->paths.too_many;
    if (c->stop)
        return;
    for (int th = 0; th < t->nthreads; th++)
        if (c->paths.threads[th].ntraces == 0)
            return;
    for (int l = 0; l < t->nlocs; l++)
        c->ninit += t->locs[l].physical == l;
    c->cap = most_events(c);
    if (!size_storage(c))
        return;
    if (!c->live && c->cap < REL_MAX_EVENTS && combinations_at_most(&c->paths, t->nthreads, FEW_COMBINATIONS)) {
        each_combination(c, 0);
        return;
    }
    trace_filter *f = trace_filter_build(t, &c->paths, c->thread_coherent);
    /* the liveness pass keeps no order (its findings are sorted) */
    trace_filter_each(f, c->choice, c->live != NULL, visit_combination, filter_should_stop, c);
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
    lim->stop_ctx = c;
    run_paths(c, lim);
    const char *unknown = NULL;
    if (scratch.timed_out || scratch.out_of_memory || scratch.interrupted)
        unknown = enumerate_incomplete(&scratch);
    if (!unknown)
        unknown = c->paths.live_unknown;
    if (!unknown)
        unknown = enumerate_incomplete(&scratch);
    if (getenv("SCOPECHECK_LIVE_DEBUG")) {
        fprintf(stderr, "live pass: traces");
        for (int th = 0; th < t->nthreads; th++)
            fprintf(stderr, " %d", c->paths.threads[th].ntraces);
        fprintf(stderr, ", candidates %lu, cut %d\n", (unsigned long)scratch.candidates, c->paths.live_cut);
    }
    *cut = c->paths.live_cut;
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
    if (o->max_memory > 0 && heap_in_use() > o->max_memory)
        return "max-memory";
    if (deadline > 0) {
        left->timeout_s = deadline - now_seconds();
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
    double deadline = o->timeout_s > 0 ? now_seconds() + o->timeout_s : 0;
    size_t nbounds = sizeof live_repeat_bounds / sizeof *live_repeat_bounds;
    for (size_t b = 0; b < nbounds; b++) {
        enum_options left;
        const char *unknown = live_limit_reached(o, deadline, &left);
        if (unknown) {
            live_finish(lc, unknown);
            return;
        }
        tp_limits lim = path_limits(&(enum_ctx){.t = t, .model = m}, &left);
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

/* The limits of enumerate_value_range's walk, asked by thread_paths. */
typedef struct range_budget {
    const volatile sig_atomic_t *interrupt;
    double deadline;       /* 0: none */
    size_t max_memory;     /* 0: none */
    const char *stopped_by;
} range_budget;

static bool range_should_stop(void *ctx)
{
    range_budget *b = ctx;
    if (!b->stopped_by && b->interrupt && *b->interrupt)
        b->stopped_by = "interrupted";
    else if (!b->stopped_by && b->deadline > 0 && now_seconds() >= b->deadline)
        b->stopped_by = "timeout";
    else if (!b->stopped_by && b->max_memory > 0 && heap_in_use() > b->max_memory)
        b->stopped_by = "max-memory";
    return b->stopped_by != NULL;
}

bool enumerate_value_range(const litmus_test *t, const enum_options *o, lit_value *lo, lit_value *hi, bool *bounded,
                           const char **stopped_by, FILE *errors)
{
    range_budget budget = {o->stop, o->timeout_s > 0 ? now_seconds() + o->timeout_s : 0, o->max_memory, NULL};
    tp_limits lim = {.unroll = o->unroll, .max_traces = o->max_traces > 0 ? o->max_traces : 100000,
                     .track_values = true, .stop = range_should_stop, .stop_ctx = &budget};
    tp_result paths;
    *stopped_by = NULL;
    if (t->nthreads > MAX_THREADS) {
        diag_error(errors, t->file, 1, 1, "too many threads (at most %d)", MAX_THREADS);
        return false;
    }
    thread_paths_build(t, &lim, &paths);
    *lo = paths.vmin;
    *hi = paths.vmax;
    /* paths dropped (too many, too long) or not walked may hold values outside */
    *bounded = !paths.values_cut && !paths.too_many && !paths.too_long && !paths.stopped;
    *stopped_by = budget.stopped_by;
    return true;
}

/* ---- the condition --------------------------------------------------------- */

/* Collects the distinct constants of a condition into out[n..max), left
 * to right; with out NULL, counts the constants (with repeats: an upper
 * bound).  A chain of /\ or \/ is walked by a loop (litmus/cond.h). */
static int condition_constants(const lit_cond *c, lit_value *out, int n, int max)
{
    if (!c)
        return n;
    if (c->kind == COND_AND || c->kind == COND_OR) {
        const lit_cond *const *spine;
        int k = lit_cond_spine(c, &spine);
        n = condition_constants(spine[k - 1]->left, out, n, max);
        while (k-- > 0)
            n = condition_constants(spine[k]->right, out, n, max);
        return n;
    }
    if (c->kind == COND_EQ || c->kind == COND_NE) {
        const lit_term *terms[2] = {&c->lhs, &c->rhs};
        for (int k = 0; k < 2; k++) {
            if (terms[k]->kind != TERM_CONST)
                continue;
            if (!out) {
                n++;
                continue;
            }
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
    for (int i = 0; i < t->nobserved + t->nhidden; i++) {
        const lit_term *o = i < t->nobserved ? &t->observed[i] : &t->hidden[i - t->nobserved];
        if (o->kind != term->kind)
            continue;
        if (term->kind == TERM_LOC ? o->loc == term->loc : (o->thread == term->thread && o->reg == term->reg))
            return state[i];
    }
    return 0;
}

/* A chain of /\ or \/ nests to the left as deep as it is long: its right
 * operands are tested in a loop down the chain (right to left; the
 * operands have no side effects), and recursion goes only into them. */
bool condition_holds(const litmus_test *t, const lit_cond *c, const lit_value *state)
{
    for (; c && (c->kind == COND_AND || c->kind == COND_OR); c = c->left) {
        bool right = condition_holds(t, c->right, state);
        if (right != (c->kind == COND_AND))
            return right;   /* a false conjunct, a true disjunct */
    }
    if (!c)
        return true;
    switch (c->kind) {
    case COND_TRUE: return true;
    case COND_FALSE: return false;
    case COND_AND:
    case COND_OR: break;    /* taken by the loop */
    case COND_NOT: return !condition_holds(t, c->left, state);
    case COND_EQ: return term_value(t, &c->lhs, state) == term_value(t, &c->rhs, state);
    case COND_NE: return term_value(t, &c->lhs, state) != term_value(t, &c->rhs, state);
    }
    return false;
}
