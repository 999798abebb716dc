/*
 * test_ptx_model.c: the axioms of models/ptx6.cat and models/ptx75.cat
 * (docs/ptx-model.md) on hand-built candidate executions.
 *
 * For each axiom: an execution that violates it and is rejected with that
 * axiom's name, and close variants that are consistent.  Executions are
 * filled the way the enumerator fills them (src/enumerate.c): loc and vloc
 * reflexive on memory events (initial writes included), int/ext/po/sr/scta/
 * sgpu only between thread events, co closed transitively with the initial
 * write first, fr = rf^-1;co, syncbar from every barrier event of a (CTA, id)
 * group to every waiting one (no quorum).
 */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cat/cat.h"
#include "exec_build.h"
#include "unit_suites.h"

/* ---- Builder ---- */

/* Virtual addresses: X2 is a generic alias of x (an address of its own).  A
 * surface, texture or constant alias is a synonym of its target (the front
 * end resolves it), so a surface access "through s" is made at X or X2. */
enum { X, Y, X2, NLOC };
enum { MAXT = 4 };
#define NOSCOPE (-1)

typedef struct px {
    exec x;
    int cta[MAXT], gpu[MAXT];      /* placement of each thread */
    int phys_of[NLOC];             /* virtual location -> physical one */
    int thread[TX_EVENTS];    /* -1: initial write */
    int vloc[TX_EVENTS];      /* virtual location, -1: not an access */
    int scope[TX_EVENTS];     /* XS_CTA, XS_GPU, XS_SYS or NOSCOPE */
    int bar[TX_EVENTS];       /* barrier id, -1: not a barrier */
} px;

/* Every thread in CTA 0 of GPU 0 until px_place says otherwise. */
static void px_init(px *b)
{
    memset(b, 0, sizeof *b);
    tx_init(&b->x);
    for (int v = 0; v < NLOC; v++)
        b->phys_of[v] = v;
    b->phys_of[X2] = X;
}

static void px_place(px *b, int t, int cta, int gpu)
{
    b->cta[t] = cta;
    b->gpu[t] = gpu;
}

static void tag(px *b, int set, int e)
{
    *tx_set(&b->x, set) |= evword_bit(e);
}

static int new_event(px *b, int t, int v, int scope)
{
    int e = b->x.n++;
    CU_ASSERT_FATAL(e < TX_EVENTS);
    b->thread[e] = t;
    b->vloc[e] = v;
    b->scope[e] = scope;
    b->bar[e] = -1;
    if (scope != NOSCOPE)
        tag(b, scope, e);
    return e;
}

/* The initial write of physical location `loc` (generic, in no thread). */
static int iw(px *b, int loc)
{
    int e = new_event(b, -1, loc, NOSCOPE);
    tag(b, XS_W, e);
    tag(b, XS_IW, e);
    tag(b, XS_GEN, e);
    return e;
}

/* A read (kind XS_R) or write (XS_W) of thread t through virtual location v;
 * ord is XS_WEAK, XS_RLX, XS_ACQ or XS_REL; weak accesses carry no scope. */
static int access(px *b, int t, int kind, int v, int ord, int scope, int proxy)
{
    int e = new_event(b, t, v, ord == XS_WEAK ? NOSCOPE : scope);
    tag(b, kind, e);
    tag(b, ord, e);
    tag(b, proxy, e);
    tag(b, ord == XS_WEAK ? XS_NA : XS_ATOMIC, e);
    return e;
}

static int ld(px *b, int t, int v, int ord, int scope)
{
    return access(b, t, XS_R, v, ord, scope, XS_GEN);
}

static int st(px *b, int t, int v, int ord, int scope)
{
    return access(b, t, XS_W, v, ord, scope, XS_GEN);
}

/* atom.relaxed.S (or acquire/release halves as given): read then write. */
static void atom(px *b, int t, int v, int rord, int word, int scope, int *r, int *w)
{
    *r = ld(b, t, v, rord, scope);
    *w = st(b, t, v, word, scope);
    tag(b, XS_RMW_EV, *r);
    tag(b, XS_RMW_EV, *w);
    tx_add(&b->x, XR_RMW, *r, *w);
}

/* fence.sc.S (kind XS_SC) or fence.acq_rel.S (kind XS_ACQ_REL). */
static int fence(px *b, int t, int kind, int scope)
{
    int e = new_event(b, t, -1, scope);
    tag(b, XS_F, e);
    tag(b, kind, e);
    return e;
}

/* fence.proxy.P: proxy is XS_SUR, XS_TEX, XS_CON or XS_ALIAS. */
static int proxy_fence(px *b, int t, int proxy)
{
    int e = new_event(b, t, -1, NOSCOPE);
    tag(b, XS_F, e);
    tag(b, XS_PROXY, e);
    tag(b, proxy, e);
    return e;
}

/* bar.cta.sync id (waits) or bar.cta.arrive id. */
static int bar(px *b, int t, int id, bool waits)
{
    int e = new_event(b, t, -1, XS_CTA);
    tag(b, XS_B, e);
    if (waits)
        tag(b, XS_BSYNC, e);
    b->bar[e] = id;
    return e;
}

static void rf(px *b, int w, int r) { tx_add(&b->x, XR_RF, w, r); }
static void co(px *b, int w1, int w2) { tx_add(&b->x, XR_CO, w1, w2); }
static void dep(px *b, int kind, int from, int to) { tx_add(&b->x, kind, from, to); }

/* Is thread u inside the scope instance of an event of thread t? */
static bool in_scope(const px *b, int t, int u, int scope)
{
    switch (scope) {
    case XS_CTA: return b->cta[t] == b->cta[u] && b->gpu[t] == b->gpu[u];
    case XS_GPU: return b->gpu[t] == b->gpu[u];
    case XS_SYS: return true;
    default: return false;
    }
}

/* Derives the remaining sets and relations; events of a thread must have
 * been made in program order.  Checks that every read reads from one write
 * to its physical location. */
static const exec *px_done(px *b)
{
    exec *x = &b->x;
    int n = x->n;
    *tx_set(x, XS_M) = *tx_set(x, XS_R) | *tx_set(x, XS_W);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int ti = b->thread[i], tj = b->thread[j];
            bool mem = tx_has(*tx_set(x, XS_M), i) && tx_has(*tx_set(x, XS_M), j);
            bool same_phys = mem && b->phys_of[b->vloc[i]] == b->phys_of[b->vloc[j]];
            if (same_phys) {
                tx_add(x, XR_LOC, i, j);
                if (b->vloc[i] == b->vloc[j])
                    tx_add(x, XR_VLOC, i, j);
                if (tx_has(*tx_set(x, XS_IW), i) && tx_has(*tx_set(x, XS_W), j) && i != j)
                    co(b, i, j); /* the initial write comes first */
            }
            if (ti < 0 || tj < 0)
                continue;
            if (ti == tj) {
                tx_add(x, XR_INT, i, j);
                if (i < j)
                    tx_add(x, XR_PO, i, j);
            } else {
                tx_add(x, XR_EXT, i, j);
            }
            if (in_scope(b, ti, tj, XS_CTA))
                tx_add(x, XR_SCTA, i, j);
            if (in_scope(b, ti, tj, XS_GPU))
                tx_add(x, XR_SGPU, i, j);
            if (b->scope[i] != NOSCOPE && b->scope[j] != NOSCOPE && in_scope(b, ti, tj, b->scope[i]) &&
                in_scope(b, tj, ti, b->scope[j]))
                tx_add(x, XR_SR, i, j);
            if (b->bar[i] >= 0 && b->bar[i] == b->bar[j] && i != j && in_scope(b, ti, tj, XS_CTA) &&
                tx_has(*tx_set(x, XS_BSYNC), j))
                tx_add(x, XR_SYNCBAR, i, j);
        }
    rel_plus(x->rel[XR_CO], x->rel[XR_CO], n);
    rel_inter(x->rel[XR_PO_LOC], x->rel[XR_PO], x->rel[XR_LOC], n);
    relation *rf_inv = GC_MALLOC_ATOMIC(rel_bytes(TX_EVENTS));
    rel_inverse(rf_inv, x->rel[XR_RF], n);
    rel_seq(x->rel[XR_FR], rf_inv, x->rel[XR_CO], n);
    for (int r = 0; r < n; r++) {
        if (!tx_has(*tx_set(x, XS_R), r))
            continue;
        int sources = 0;
        for (int w = 0; w < n; w++)
            if (rel_has(x->rel[XR_RF], w, r, TX_EVENTS)) {
                sources++;
                CU_ASSERT(tx_has(*tx_set(x, XS_W), w) && rel_has(x->rel[XR_LOC], w, r, TX_EVENTS));
            }
        CU_ASSERT_EQUAL(sources, 1);
    }
    return x;
}

/* ---- Models and verdicts ---- */

static cat_model *ptx6, *ptx75;
static cat_workspace *ws6, *ws75;

static int load_models(void)
{
    ptx6 = cat_load("models/ptx6.cat", stderr);
    ptx75 = cat_load("models/ptx75.cat", stderr);
    if (!ptx6 || !ptx75)
        return 1;
    ws6 = cat_workspace_new(ptx6);
    ws75 = cat_workspace_new(ptx75);
    return 0;
}

/* Does the model give the verdict `want` (the failing check's name, or NULL
 * for consistent)?  On a mismatch, says what it gave. */
static bool verdict(bool v75, const exec *x, const char *want, const char *what, int line)
{
    cat_verdict v = v75 ? cat_check(ptx75, ws75, x) : cat_check(ptx6, ws6, x);
    bool ok = want ? !v.consistent && v.failed_check && strcmp(v.failed_check, want) == 0 : v.consistent;
    if (!ok)
        fprintf(stderr, "\n  line %d: %s on %s: got %s, want %s\n", line, v75 ? "ptx75" : "ptx6", what,
                v.consistent ? "consistent" : v.failed_check ? v.failed_check : "(null)",
                want ? want : "consistent");
    return ok;
}

#define OK6(e) CU_ASSERT(verdict(false, (e), NULL, #e, __LINE__))
#define OK75(e) CU_ASSERT(verdict(true, (e), NULL, #e, __LINE__))
#define FAIL6(e, ax) CU_ASSERT(verdict(false, (e), (ax), #e, __LINE__))
#define FAIL75(e, ax) CU_ASSERT(verdict(true, (e), (ax), #e, __LINE__))
/* Both models (without proxies or aliases, ptx75 agrees with ptx6). */
#define OK(e)                                                  \
    do {                                                       \
        const exec *x_ = (e);                                  \
        CU_ASSERT(verdict(false, x_, NULL, #e, __LINE__));     \
        CU_ASSERT(verdict(true, x_, NULL, #e, __LINE__));      \
    } while (0)
#define FAIL(e, ax)                                            \
    do {                                                       \
        const exec *x_ = (e);                                  \
        CU_ASSERT(verdict(false, x_, (ax), #e, __LINE__));     \
        CU_ASSERT(verdict(true, x_, (ax), #e, __LINE__));      \
    } while (0)

/* ---- Coherence ---- */

/* T0: st.weak x; st.WORD.S y / T1 (CTA cta1): ld.RORD.S y (reads T0's y);
 * st.weak x.  co_back: T1's write to x is coherence-before T0's. */
static const exec *mp_cow(px *b, int word, int rord, int scope, int cta1, bool co_back)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    iw(b, X);
    iw(b, Y);
    int a = st(b, 0, X, XS_WEAK, NOSCOPE);
    int wy = st(b, 0, Y, word, scope);
    int ry = ld(b, 1, Y, rord, scope);
    int d = st(b, 1, X, XS_WEAK, NOSCOPE);
    rf(b, wy, ry);
    if (co_back)
        co(b, d, a);
    else
        co(b, a, d);
    return px_done(b);
}

static void test_coherence(void)
{
    px b;
    /* release/acquire on y: T0's x write is causally before T1's, yet co-after it */
    FAIL(mp_cow(&b, XS_REL, XS_ACQ, XS_GPU, 0, true), "Coherence");
    /* same, with co following causality */
    OK(mp_cow(&b, XS_REL, XS_ACQ, XS_GPU, 0, false));
    /* weak flag accesses: no synchronisation, so no causality between the x writes */
    OK(mp_cow(&b, XS_WEAK, XS_WEAK, NOSCOPE, 0, true));
    /* relaxed flag: no release/acquire pattern, so no synchronisation */
    OK(mp_cow(&b, XS_RLX, XS_RLX, XS_GPU, 0, true));
    /* .cta release/acquire across two CTAs: sr is empty, not morally strong, no sync */
    OK(mp_cow(&b, XS_REL, XS_ACQ, XS_CTA, 1, true));
    /* .cta release/acquire inside one CTA: morally strong, synchronises */
    FAIL(mp_cow(&b, XS_REL, XS_ACQ, XS_CTA, 0, true), "Coherence");
    /* .gpu across two CTAs of one GPU still synchronises */
    FAIL(mp_cow(&b, XS_REL, XS_ACQ, XS_GPU, 1, true), "Coherence");
}

/* ---- Coherence-ms-ordered ---- */

/* T0: st.ORD.S x / T1 (CTA cta1): st.ORD.S x; co orders them only if `ordered`. */
static const exec *two_writes(px *b, int ord, int scope, int cta1, bool ordered)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    iw(b, X);
    int w0 = st(b, 0, X, ord, scope);
    int w1 = st(b, 1, X, ord, scope);
    if (ordered)
        co(b, w1, w0);
    return px_done(b);
}

static void test_coherence_ms_ordered(void)
{
    px b;
    /* two morally strong writes to x left unordered by co */
    FAIL(two_writes(&b, XS_RLX, XS_GPU, 0, false), "Coherence-ms-ordered");
    /* ordered either way: fine */
    OK(two_writes(&b, XS_RLX, XS_GPU, 0, true));
    /* weak writes need not be ordered (co is partial) */
    OK(two_writes(&b, XS_WEAK, NOSCOPE, 0, false));
    /* .cta writes from different CTAs are not morally strong */
    OK(two_writes(&b, XS_RLX, XS_CTA, 1, false));
    /* .cta writes in one CTA are */
    FAIL(two_writes(&b, XS_RLX, XS_CTA, 0, false), "Coherence-ms-ordered");
}

/* ---- Fence-SC ---- */

/* T0: bar 1; fence.sc.gpu F1; fence.sc.gpu F2; bar 2 / T1: bar 2; bar 1
 * (crossed) or bar 1; bar 2.  All bar.cta.sync without a count, one CTA. */
static const exec *bar_fences(px *b, bool crossed)
{
    px_init(b);
    bar(b, 0, 1, true);
    fence(b, 0, XS_SC, XS_GPU);
    fence(b, 0, XS_SC, XS_GPU);
    bar(b, 0, 2, true);
    bar(b, 1, crossed ? 2 : 1, true);
    bar(b, 1, crossed ? 1 : 2, true);
    return px_done(b);
}

/* T0 (CTA 0): fence.sc.S; st.release.gpu y / T1 (CTA cta1): ld.acquire.gpu y
 * (reads T0's y); fence.sc.S. */
static const exec *fenced_flag(px *b, int fscope, int cta1)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    iw(b, Y);
    fence(b, 0, XS_SC, fscope);
    int w = st(b, 0, Y, XS_REL, XS_GPU);
    int r = ld(b, 1, Y, XS_ACQ, XS_GPU);
    fence(b, 1, XS_SC, fscope);
    rf(b, w, r);
    return px_done(b);
}

static void test_fence_sc(void)
{
    px b;
    /* crossed barriers put F2 causally before F1, while po forces F1 before F2 in
     * the fence order (no memory access, so no other axiom can fail) */
    FAIL(bar_fences(&b, true), "Fence-SC");
    /* barriers met in the same order: causality F1 -> F2 agrees with the fence order */
    OK(bar_fences(&b, false));
    /* release/acquire makes F1 causally before F2; the fence order can agree */
    OK(fenced_flag(&b, XS_GPU, 1));
    OK(fenced_flag(&b, XS_CTA, 0));
    /* .cta fences in different CTAs are not morally strong: Fence-SC (PTX ISA
     * 8.10.2) constrains only morally strong pairs, so this plain message
     * passing stays allowed, as it is with the stronger .gpu fences. */
    OK(fenced_flag(&b, XS_CTA, 1));
}

/* ---- Atomicity ---- */

/* T0: atom.relaxed.gpu x (reads the initial write) / T1 (CTA cta1): st.ORD.S x,
 * coherence-between the RMW's read and write unless `after`. */
static const exec *rmw_split(px *b, int ord, int scope, int cta1, bool after)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    int ix = iw(b, X);
    int r, w;
    atom(b, 0, X, XS_RLX, XS_RLX, XS_GPU, &r, &w);
    int w1 = st(b, 1, X, ord, scope);
    rf(b, ix, r);
    if (after)
        co(b, w, w1);
    else
        co(b, w1, w);
    return px_done(b);
}

static void test_atomicity(void)
{
    px b;
    /* a morally strong write lands between the RMW's read and its write */
    FAIL(rmw_split(&b, XS_RLX, XS_GPU, 0, false), "Atomicity");
    /* the other write comes after the RMW */
    OK(rmw_split(&b, XS_RLX, XS_GPU, 0, true));
    /* a weak write in between is not morally strong with the RMW */
    OK(rmw_split(&b, XS_WEAK, NOSCOPE, 0, false));
    /* a .cta write in another CTA is not morally strong with the RMW */
    OK(rmw_split(&b, XS_RLX, XS_CTA, 1, false));
}

/* ---- No-Thin-Air ---- */

/* LB: T0: ld.weak x (reads T1's x); st.weak y / T1: ld.weak y (reads T0's y);
 * st.weak x; data dependencies from each read to the write after it if `deps`. */
static const exec *lb(px *b, bool dep0, bool dep1)
{
    px_init(b);
    iw(b, X);
    iw(b, Y);
    int rx = ld(b, 0, X, XS_WEAK, NOSCOPE);
    int wy = st(b, 0, Y, XS_WEAK, NOSCOPE);
    int ry = ld(b, 1, Y, XS_WEAK, NOSCOPE);
    int wx = st(b, 1, X, XS_WEAK, NOSCOPE);
    rf(b, wx, rx);
    rf(b, wy, ry);
    if (dep0)
        dep(b, XR_DATA, rx, wy);
    if (dep1)
        dep(b, XR_DATA, ry, wx);
    return px_done(b);
}

static void test_no_thin_air(void)
{
    px b;
    /* each value flows from the other thread's read: a cycle in rf | dep */
    FAIL(lb(&b, true, true), "No-Thin-Air");
    /* plain load buffering of weak accesses is allowed */
    OK(lb(&b, false, false));
    /* one dependency alone closes no cycle */
    OK(lb(&b, true, false));
    /* an address dependency closes it as well as a data one (events: ry = 4, wx = 5) */
    const exec *x = lb(&b, true, false);
    dep(&b, XR_ADDR, 4, 5);
    FAIL(x, "No-Thin-Air");
}

/* ---- SC-per-Location ---- */

/* CoRR: T0: st.WORD.S x / T1 (CTA cta1): ld.RORD.S x (reads T0's write);
 * ld.RORD.S x (reads the initial write). */
static const exec *corr(px *b, int ord, int scope, int cta1)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    int ix = iw(b, X);
    int w = st(b, 0, X, ord, scope);
    int r1 = ld(b, 1, X, ord, scope);
    int r2 = ld(b, 1, X, ord, scope);
    rf(b, w, r1);
    rf(b, ix, r2);
    return px_done(b);
}

/* One thread: st.weak x; ld.weak x reading the initial write. */
static const exec *stale_own_write(px *b)
{
    px_init(b);
    int ix = iw(b, X);
    st(b, 0, X, XS_WEAK, NOSCOPE);
    int r = ld(b, 0, X, XS_WEAK, NOSCOPE);
    rf(b, ix, r);
    return px_done(b);
}

static void test_sc_per_location(void)
{
    px b;
    /* relaxed reads see x's new value and then the old one: rf ; po-loc ; fr cycle */
    FAIL(corr(&b, XS_RLX, XS_GPU, 0), "SC-per-Location");
    /* weak accesses of different threads are not morally strong */
    OK(corr(&b, XS_WEAK, NOSCOPE, 0));
    /* .cta accesses in different CTAs are not morally strong */
    OK(corr(&b, XS_RLX, XS_CTA, 1));
    /* .cta accesses in one CTA are */
    FAIL(corr(&b, XS_RLX, XS_CTA, 0), "SC-per-Location");
    /* program order makes even weak accesses morally strong: no stale own read */
    FAIL(stale_own_write(&b), "SC-per-Location");
}

/* ---- Causality ---- */

/* MP: T0: st.weak x; st.WORD.S y / T1 (CTA cta1 of GPU gpu1): ld.RORD.S y
 * (reads T0's y); ld.weak x (reads the initial write). */
static const exec *mp_at(px *b, int word, int rord, int scope, int cta1, int gpu1)
{
    px_init(b);
    px_place(b, 1, cta1, gpu1);
    int ix = iw(b, X);
    iw(b, Y);
    st(b, 0, X, XS_WEAK, NOSCOPE);
    int wy = st(b, 0, Y, word, scope);
    int ry = ld(b, 1, Y, rord, scope);
    int rx = ld(b, 1, X, XS_WEAK, NOSCOPE);
    rf(b, wy, ry);
    rf(b, ix, rx);
    return px_done(b);
}

static const exec *mp(px *b, int word, int rord, int scope, int cta1)
{
    return mp_at(b, word, rord, scope, cta1, 0);
}

/* MP with fences: T0: st.weak x; [fence.KIND.S]; st.relaxed.S y / T1 (CTA cta1):
 * ld.relaxed.S y (reads T0's y); [fence.KIND.S]; ld.weak x (reads the initial write). */
static const exec *mp_fences(px *b, int kind, bool f0, bool f1, int scope, int cta1)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    int ix = iw(b, X);
    iw(b, Y);
    st(b, 0, X, XS_WEAK, NOSCOPE);
    if (f0)
        fence(b, 0, kind, scope);
    int wy = st(b, 0, Y, XS_RLX, scope);
    int ry = ld(b, 1, Y, XS_RLX, scope);
    if (f1)
        fence(b, 1, kind, scope);
    int rx = ld(b, 1, X, XS_WEAK, NOSCOPE);
    rf(b, wy, ry);
    rf(b, ix, rx);
    return px_done(b);
}

/* SB: T0: st.relaxed.gpu x; [fence.sc.gpu]; ld.relaxed.gpu y / T1: st.relaxed.gpu y;
 * [fence.sc.gpu]; ld.relaxed.gpu x; both reads read the initial writes. */
static const exec *sb(px *b, bool f0, bool f1)
{
    px_init(b);
    int ix = iw(b, X), iy = iw(b, Y);
    st(b, 0, X, XS_RLX, XS_GPU);
    if (f0)
        fence(b, 0, XS_SC, XS_GPU);
    int ry = ld(b, 0, Y, XS_RLX, XS_GPU);
    st(b, 1, Y, XS_RLX, XS_GPU);
    if (f1)
        fence(b, 1, XS_SC, XS_GPU);
    int rx = ld(b, 1, X, XS_RLX, XS_GPU);
    rf(b, iy, ry);
    rf(b, ix, rx);
    return px_done(b);
}

/* Release through an RMW: T0 (CTA 0): st.weak x; st.release.gpu y /
 * T1 (CTA cta1): atom.relaxed.S y (reads T0's y) / T2 (CTA 0): ld.acquire.gpu y
 * (reads the RMW's write); ld.weak x (reads the initial write). */
static const exec *rmw_chain(px *b, int scope, int cta1)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    int ix = iw(b, X);
    iw(b, Y);
    st(b, 0, X, XS_WEAK, NOSCOPE);
    int wy = st(b, 0, Y, XS_REL, XS_GPU);
    int r, w;
    atom(b, 1, Y, XS_RLX, XS_RLX, scope, &r, &w);
    int ry = ld(b, 2, Y, XS_ACQ, XS_GPU);
    int rx = ld(b, 2, X, XS_WEAK, NOSCOPE);
    rf(b, wy, r);
    rf(b, w, ry);
    rf(b, ix, rx);
    co(b, wy, w);
    return px_done(b);
}

/* Barrier MP: T0: st.weak x; bar.cta.{sync|arrive} 0 / T1 (CTA cta1):
 * bar.cta.{sync|arrive} 0; ld.weak x (reads the initial write). */
static px *bar_mp(px *b, bool wait0, bool wait1, int cta1)
{
    px_init(b);
    px_place(b, 1, cta1, 0);
    int ix = iw(b, X);
    st(b, 0, X, XS_WEAK, NOSCOPE);
    bar(b, 0, 0, wait0);
    bar(b, 1, 0, wait1);
    int rx = ld(b, 1, X, XS_WEAK, NOSCOPE);
    rf(b, ix, rx);
    return b;
}

static void test_causality_release_acquire(void)
{
    px b;
    /* release/acquire on y: the stale read of x is causally after the write it misses */
    FAIL(mp(&b, XS_REL, XS_ACQ, XS_GPU, 0), "Causality");
    /* weak flag: no synchronisation, stale read allowed */
    OK(mp(&b, XS_WEAK, XS_WEAK, NOSCOPE, 0));
    /* relaxed read of the flag: no acquire pattern */
    OK(mp(&b, XS_REL, XS_RLX, XS_GPU, 0));
    /* relaxed write of the flag: no release pattern */
    OK(mp(&b, XS_RLX, XS_ACQ, XS_GPU, 0));
    /* .cta release/acquire across CTAs: sr empty, no synchronisation */
    OK(mp(&b, XS_REL, XS_ACQ, XS_CTA, 1));
    /* .cta release/acquire in one CTA synchronises */
    FAIL(mp(&b, XS_REL, XS_ACQ, XS_CTA, 0), "Causality");
    /* .gpu release/acquire across GPUs: not morally strong */
    OK(mp_at(&b, XS_REL, XS_ACQ, XS_GPU, 0, 1));
    /* .sys across GPUs synchronises */
    FAIL(mp_at(&b, XS_REL, XS_ACQ, XS_SYS, 0, 1), "Causality");
}

static void test_causality_fences(void)
{
    px b;
    /* fence.acq_rel as release fence before the flag write and acquire fence after its read */
    FAIL(mp_fences(&b, XS_ACQ_REL, true, true, XS_GPU, 0), "Causality");
    /* without the acquire fence, no synchronisation */
    OK(mp_fences(&b, XS_ACQ_REL, true, false, XS_GPU, 0));
    /* without the release fence, no synchronisation */
    OK(mp_fences(&b, XS_ACQ_REL, false, true, XS_GPU, 0));
    /* .cta fences in different CTAs are not morally strong */
    OK(mp_fences(&b, XS_ACQ_REL, true, true, XS_CTA, 1));
    /* fence.sc acts as a release and an acquire fence too */
    FAIL(mp_fences(&b, XS_SC, true, true, XS_GPU, 0), "Causality");
    OK(mp_fences(&b, XS_SC, true, false, XS_GPU, 0));
    /* SB: with fence.sc on both sides, the fence order makes one read causally late */
    FAIL(sb(&b, true, true), "Causality");
    /* one fence alone orders nothing across threads */
    OK(sb(&b, true, false));
    OK(sb(&b, false, false));
}

static void test_causality_rmw_chain(void)
{
    px b;
    /* the release is observed through a strong RMW (obs ; rmw ; obs in ptx6, obs+ in ptx75) */
    FAIL(rmw_chain(&b, XS_GPU, 0), "Causality");
    /* a .cta RMW in the writer's CTA is morally strong with both ends */
    FAIL(rmw_chain(&b, XS_CTA, 0), "Causality");
    /* a .cta RMW in another CTA is not morally strong with either end: chain broken */
    OK(rmw_chain(&b, XS_CTA, 1));
}

static void test_causality_barriers(void)
{
    px b;
    /* bar.cta.sync in one CTA orders the weak write before the weak read */
    FAIL(px_done(bar_mp(&b, true, true, 0)), "Causality");
    /* an arrive orders what precedes it before a sync that waits for it */
    FAIL(px_done(bar_mp(&b, false, true, 0)), "Causality");
    /* a reader that only arrives does not wait: nothing is ordered before its read */
    OK(px_done(bar_mp(&b, true, false, 0)));
    /* barriers of different CTAs: even given syncbar edges, sync_barrier needs scta */
    bar_mp(&b, true, true, 1);
    tx_add(&b.x, XR_SYNCBAR, 2, 3);
    tx_add(&b.x, XR_SYNCBAR, 3, 2);
    OK(px_done(&b));
}

/* ---- ptx75: proxies and aliases ---- */

/* T0: sust.weak s (s a surface alias of x, so at x's address); [fence.proxy.P];
 * ld.weak x (generic, reads the initial write).  fproxy: -1 for no fence. */
static const exec *surface_then_generic(px *b, int fproxy)
{
    px_init(b);
    int ix = iw(b, X);
    access(b, 0, XS_W, X, XS_WEAK, NOSCOPE, XS_SUR);
    if (fproxy >= 0)
        proxy_fence(b, 0, fproxy);
    int r = ld(b, 0, X, XS_WEAK, NOSCOPE);
    rf(b, ix, r);
    return px_done(b);
}

/* T0: st.weak x; [fence.proxy.P]; ld.weak x2 (generic alias of x, reads the
 * initial write).  fproxy: -1 for no fence. */
static const exec *alias_write_read(px *b, int fproxy)
{
    px_init(b);
    int ix = iw(b, X);
    st(b, 0, X, XS_WEAK, NOSCOPE);
    if (fproxy >= 0)
        proxy_fence(b, 0, fproxy);
    int r = ld(b, 0, X2, XS_WEAK, NOSCOPE);
    rf(b, ix, r);
    return px_done(b);
}

/* T0: st.weak x; the fences `f` (XS_SUR, XS_ALIAS, ..., ending with -1);
 * suld.weak through a surface alias of x2 (so at x2's address), reading the
 * initial write. */
static const exec *generic_then_surface_alias(px *b, const int *f)
{
    px_init(b);
    int ix = iw(b, X);
    st(b, 0, X, XS_WEAK, NOSCOPE);
    for (; *f >= 0; f++)
        proxy_fence(b, 0, *f);
    int r = access(b, 0, XS_R, X2, XS_WEAK, NOSCOPE, XS_SUR);
    rf(b, ix, r);
    return px_done(b);
}

/* T0 (CTA 0): sust.weak x; st.release.gpu y / T1 (CTA 1): ld.acquire.gpu y
 * (reads T0's y); [fence.proxy.surface]; ld.weak x (reads the initial
 * write).  The reader's fence is in another CTA than the surface write. */
static const exec *surface_mp_reader_fence(px *b, bool fenced)
{
    px_init(b);
    px_place(b, 1, 1, 0);
    int ix = iw(b, X), iy = iw(b, Y);
    access(b, 0, XS_W, X, XS_WEAK, NOSCOPE, XS_SUR);
    int wy = st(b, 0, Y, XS_REL, XS_GPU);
    int ry = ld(b, 1, Y, XS_ACQ, XS_GPU);
    if (fenced)
        proxy_fence(b, 1, XS_SUR);
    int rx = ld(b, 1, X, XS_WEAK, NOSCOPE);
    rf(b, wy, ry);
    rf(b, ix, rx);
    (void)iy;
    return px_done(b);
}

static void test_ptx75_proxies(void)
{
    px b;
    /* fence.proxy.surface makes the surface write visible to the generic read */
    FAIL75(surface_then_generic(&b, XS_SUR), "Causality");
    /* without it, the generic read may miss the surface write */
    OK75(surface_then_generic(&b, -1));
    /* a fence of another proxy does not help */
    OK75(surface_then_generic(&b, XS_TEX));
    /* ptx6 knows no proxies: po-loc on one physical location forbids the stale read */
    FAIL6(surface_then_generic(&b, -1), "SC-per-Location");
    /* a proxy fence acts only in its own CTA: the reader's fence cannot
     * publish the writer's surface data ... */
    OK75(surface_mp_reader_fence(&b, true));
    /* ... while ptx6 synchronises release and acquire and forbids it */
    FAIL6(surface_mp_reader_fence(&b, false), "Causality");
}

static void test_ptx75_alias(void)
{
    px b;
    /* fence.proxy.alias orders the write through x before the read through its alias */
    FAIL75(alias_write_read(&b, XS_ALIAS), "Causality");
    /* without it, accesses through different virtual addresses are unordered */
    OK75(alias_write_read(&b, -1));
    /* a surface proxy fence is not an alias fence */
    OK75(alias_write_read(&b, XS_SUR));
    /* a surface read at the alias x2: the surface fence alone orders only
     * accesses at x2's address, so the write to x is not ordered before it */
    static const int sur_only[] = {XS_SUR, -1}, alias_sur[] = {XS_ALIAS, XS_SUR, -1},
                     sur_alias[] = {XS_SUR, XS_ALIAS, -1};
    OK75(generic_then_surface_alias(&b, sur_only));
    /* an alias fence and then a surface fence: ordered */
    FAIL75(generic_then_surface_alias(&b, alias_sur), "Causality");
    /* the other way round the surface fence comes before the alias step: not */
    OK75(generic_then_surface_alias(&b, sur_alias));
}

void register_ptx_model_tests(void)
{
    CU_pSuite s = CU_add_suite("ptx model", load_models, NULL);
    CU_add_test(s, "Coherence", test_coherence);
    CU_add_test(s, "Coherence-ms-ordered", test_coherence_ms_ordered);
    CU_add_test(s, "Fence-SC", test_fence_sc);
    CU_add_test(s, "Atomicity", test_atomicity);
    CU_add_test(s, "No-Thin-Air", test_no_thin_air);
    CU_add_test(s, "SC-per-Location", test_sc_per_location);
    CU_add_test(s, "Causality: release/acquire", test_causality_release_acquire);
    CU_add_test(s, "Causality: fences", test_causality_fences);
    CU_add_test(s, "Causality: RMW chain", test_causality_rmw_chain);
    CU_add_test(s, "Causality: barriers", test_causality_barriers);
    CU_add_test(s, "ptx75: proxy fence", test_ptx75_proxies);
    CU_add_test(s, "ptx75: alias fence", test_ptx75_alias);
}
