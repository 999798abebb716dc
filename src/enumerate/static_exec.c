/*
 * enumerate/static_exec.c: the static execution of one combination of
 * thread traces (see enumerate/internal.h): its events, the event sets and
 * every relation that depends only on the traces (loc, po, int, ext, the
 * scope relations, dependencies, rmw), built once per combination.
 *
 * Sets and relations are as wide as the test's largest combination needs
 * (cat/relation.h): every per-event or per-location array is sized once
 * per test, with a stride of rel_words(cap) words per set, and used with
 * the rel_words(n) words of the combination at hand.
 */
#include <string.h>

#include "enumerate/internal.h"

#define INLINE static inline __attribute__((always_inline))

INLINE evword *at_(evword *base, int stride, int i) { return base + (size_t)i * (size_t)stride; }

static void add_init_writes(enum_exec *ex)
{
    const litmus_test *t = ex->t;
    for (int l = 0; l < t->nlocs; l++) {
        if (t->locs[l].physical != l)
            continue;
        ev_info *e = &ex->ev[ex->n];
        memset(e, 0, sizeof *e);
        e->thread = -1;
        e->phys = l;
        e->vloc = l;
        e->write = true;
        e->value = e->wvalue = t->locs[l].init;
        ex->n++;
    }
}

/* Appends the chosen traces' events (the caller checked that they fit),
 * noting for each read its thread's latest earlier write to its location
 * (latest[l]: that write, valid when latest_at[l] is the stamp of this
 * thread in this combination). */
static void add_thread_events(enum_exec *ex, int *first)
{
    ex->stamp += MAX_THREADS;
    for (int th = 0; th < ex->t->nthreads; th++) {
        const tp_trace *tr = chosen_trace(ex, th);
        long stamp = ex->stamp + th;
        first[th] = ex->n;
        for (int i = 0; i < tr->nevents; i++) {
            const tp_event *te = &tr->events[i];
            ev_info *e = &ex->ev[ex->n];
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
            e->phys = rw ? ex->t->locs[te->loc].physical : -1;
            e->value = te->value;
            e->wvalue = rw == 3 ? te->wvalue : te->value;
            e->last_write = -1;
            if (e->phys >= 0) {
                if (e->read && ex->latest_at[e->phys] == stamp)
                    e->last_write = ex->latest[e->phys];
                if (e->write) {
                    ex->latest[e->phys] = ex->n;
                    ex->latest_at[e->phys] = stamp;
                }
            }
            ex->n++;
        }
    }
}

void exec_add_events(enum_exec *ex, int *first)
{
    ex->n = 0;
    add_init_writes(ex);
    add_thread_events(ex, first);
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

static void fill_sets(enum_exec *ex)
{
    exec *x = &ex->x;
    memset(x->sets, 0, sizeof *x->sets * (size_t)XS_COUNT * (size_t)rel_words(ex->n));
    for (int i = 0; i < ex->n; i++) {
        const ev_info *e = &ex->ev[i];
        const tp_event *te = e->ev;
        if (!te) {
            add_to(x, XS_W, i);
            add_to(x, XS_IW, i);
            add_to(x, XS_GEN, i);
            tag_location(x, ex->t, e->vloc, i);
            continue;
        }
        tag_event(x, te, i);
        if (te->kind == EV_READ || te->kind == EV_WRITE || te->kind == EV_RMW)
            tag_location(x, ex->t, te->loc, i);
    }
    set_union(exec_set(x, XS_M), exec_set(x, XS_R), exec_set(x, XS_W), ex->n);
    if (ex->t->c_event_sets) { /* herd's C: NA is every event that is not atomic */
        evword *na = exec_set(x, XS_NA);
        set_universe(na, ex->n);
        set_diff(na, na, exec_set(x, XS_ATOMIC), ex->n);
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
void exec_find_peers(const litmus_test *t, thread_peers *p)
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
INLINE void events_of(const enum_exec *ex, uint32_t threads, evword *out, int n, int stride)
{
    set_clear(out, n);
    for (; threads; threads &= threads - 1)
        set_union(out, out, at_(ex->thread_events, stride, __builtin_ctz(threads)), n);
}

/* Events grouped by location, thread and scope, from which each row of a
 * static relation is a copy: O(n) words instead of a test per pair. */
INLINE void group_events(enum_exec *ex, int n, int stride)
{
    int nthreads = ex->t->nthreads;
    for (int l = 0; l < ex->t->nlocs; l++) {
        set_clear(at_(ex->loc_events, stride, l), n);
        set_clear(at_(ex->vloc_events, stride, l), n);
    }
    for (int th = 0; th < nthreads; th++) {
        set_clear(at_(ex->thread_events, stride, th), n);
        for (int s = 0; s < NSCOPES; s++)
            set_clear(at_(ex->scoped, stride, th * NSCOPES + s), n);
    }
    for (int i = 0; i < n; i++) {
        const ev_info *e = &ex->ev[i];
        if (e->phys >= 0) {
            set_add(at_(ex->loc_events, stride, e->phys), i);
            set_add(at_(ex->vloc_events, stride, e->vloc), i);
        }
        if (e->thread < 0)
            continue;
        set_add(at_(ex->thread_events, stride, e->thread), i);
        if (e->ev->scope != SCOPE_NONE)
            set_add(at_(ex->scoped, stride, e->thread * NSCOPES + e->ev->scope), i);
    }
    set_clear(ex->threads_events, n);
    for (int th = 0; th < nthreads; th++)
        set_union(ex->threads_events, ex->threads_events, at_(ex->thread_events, stride, th), n);
}

/* sr from an event of thread a with scope s: the scoped events of threads
 * inside its scope instance whose own scope instance holds thread a. */
INLINE void scope_partners(const enum_exec *ex, int a, int s, evword *out, int n, int stride)
{
    set_clear(out, n);
    for (uint32_t bs = ex->peers.scope[a][s]; bs; bs &= bs - 1) {
        int b = __builtin_ctz(bs);
        for (int sb = SCOPE_NONE + 1; sb < NSCOPES; sb++)
            if (ex->peers.scope[b][sb] & ((uint32_t)1 << a))
                set_union(out, out, at_(ex->scoped, stride, b * NSCOPES + sb), n);
    }
}

/* Per thread: its CTA's and GPU's events, and what sr relates each of its
 * scopes to. */
INLINE void group_peers(enum_exec *ex, int n, int stride)
{
    for (int th = 0; th < ex->t->nthreads; th++) {
        events_of(ex, ex->peers.cta[th], at_(ex->cta_events, stride, th), n, stride);
        events_of(ex, ex->peers.gpu[th], at_(ex->gpu_events, stride, th), n, stride);
        for (int s = SCOPE_NONE + 1; s < NSCOPES; s++)
            scope_partners(ex, th, s, at_(ex->scope_events, stride, th * NSCOPES + s), n, stride);
    }
}

/* loc, vloc, int, ext, po, scta, sgpu and sr, one row per event. */
INLINE void fill_pair_relations(enum_exec *ex, int n, int stride)
{
    exec *x = &ex->x;
    group_events(ex, n, stride);
    group_peers(ex, n, stride);
    static const int thread_rels[] = {XR_INT, XR_EXT, XR_PO, XR_SCTA, XR_SGPU, XR_SR};
    for (int i = 0; i < n; i++) {
        const ev_info *e = &ex->ev[i];
        if (e->phys >= 0) {
            set_copy(rel_row(x->rel[XR_LOC], i, n), at_(ex->loc_events, stride, e->phys), n);
            set_copy(rel_row(x->rel[XR_VLOC], i, n), at_(ex->vloc_events, stride, e->vloc), n);
        } else {
            set_clear(rel_row(x->rel[XR_LOC], i, n), n);
            set_clear(rel_row(x->rel[XR_VLOC], i, n), n);
        }
        if (e->thread < 0) {
            for (size_t r = 0; r < sizeof thread_rels / sizeof *thread_rels; r++)
                set_clear(rel_row(x->rel[thread_rels[r]], i, n), n);
            continue;
        }
        const evword *own = at_(ex->thread_events, stride, e->thread);
        set_copy(rel_row(x->rel[XR_INT], i, n), own, n);
        set_diff(rel_row(x->rel[XR_EXT], i, n), ex->threads_events, own, n);
        evword *po = rel_row(x->rel[XR_PO], i, n);
        set_first(po, i + 1, n);
        set_diff(po, own, po, n);
        set_copy(rel_row(x->rel[XR_SCTA], i, n), at_(ex->cta_events, stride, e->thread), n);
        set_copy(rel_row(x->rel[XR_SGPU], i, n), at_(ex->gpu_events, stride, e->thread), n);
        if (e->ev->scope != SCOPE_NONE)
            set_copy(rel_row(x->rel[XR_SR], i, n), at_(ex->scope_events, stride, e->thread * NSCOPES + e->ev->scope), n);
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

INLINE void fill_dependencies(enum_exec *ex, const int *first, int n)
{
    exec *x = &ex->x;
    for (int i = 0; i < n; i++) {
        const ev_info *e = &ex->ev[i];
        if (!e->ev)
            continue;
        const tp_trace *tr = chosen_trace(ex, e->thread);
        int base = first[e->thread], words = tr->dep_words;
        add_deps(x->rel[XR_DATA], tp_deps(tr, e->index, DEP_DATA), words, base, i, n);
        if (e->ev->kind == EV_RMW) /* herd: into a read-modify-write, also addr */
            add_deps(x->rel[XR_ADDR], tp_deps(tr, e->index, DEP_DATA), words, base, i, n);
        add_deps(x->rel[XR_CTRL], tp_deps(tr, e->index, DEP_CTRL), words, base, i, n);
        add_deps(x->rel[XR_ADDR], tp_deps(tr, e->index, DEP_ADDR), words, base, i, n);
        if (__builtin_expect(ex->unsequenced, 0) && tr->unseq)
            remove_unsequenced(x->rel[XR_PO], tp_unseq(tr, e->index), words, base, i, n);
        if (e->ev->rmw_write)
            rel_add(x->rel[XR_RMW], i - 1, i, n);
    }
}

INLINE void fill_static_n(enum_exec *ex, const int *first, int n, int stride)
{
    exec *x = &ex->x;
    x->n = n;
    /* the relations built by adding pairs; fill_pair_relations writes
     * whole rows of the others */
    static const int added[] = {XR_RF, XR_CO, XR_FR, XR_RMW, XR_SYNCBAR, XR_ADDR, XR_DATA, XR_CTRL};
    for (size_t r = 0; r < sizeof added / sizeof *added; r++)
        rel_clear(x->rel[added[r]], n);
    fill_sets(ex);
    fill_pair_relations(ex, n, stride);
    fill_dependencies(ex, first, n);
    rel_inter(x->rel[XR_PO_LOC], x->rel[XR_PO], x->rel[XR_LOC], n);
}

/* Two copies of the same code: one where the compiler knows every set is
 * one word (nearly every test), one for any width. */
static void fill_static_one_word(enum_exec *ex, const int *first)
{
    int n = ex->n;
    if (n < 1 || n > 64)
        __builtin_unreachable();
    fill_static_n(ex, first, n, 1);
}

void exec_fill_static(enum_exec *ex, const int *first)
{
    if (ex->n >= 1 && ex->n <= 64 && ex->stride == 1)
        fill_static_one_word(ex, first);
    else
        fill_static_n(ex, first, ex->n, ex->stride);
}
