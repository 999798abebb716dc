/* test_par_search.c: unit tests of the multi-threaded search (search/par_bfs.h)
 * and its lock-free store (search/par_store.h) on synthetic next-state models
 * written here.  Expected counts are derived by hand next to each value; the
 * rest is an identity with the one-thread search (bfs.c) run on the same
 * model: the same counts, indices, traces, kept deadlocks and order of final
 * states with 1, 2 and 4 threads. */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "search/bfs.h"
#include "search/par_bfs.h"
#include "search/par_store.h"
#include "unit_suites.h"

/* ---- a counter grid: counters c[0..dims-1] in 0..n-1 (state bytes 0..dims-1
 * of 8), rule r increments c[r].  Options: a line of violating states
 * (sum == bad_sum), deadlocks on the far face (c[0] == n-1 and no move),
 * the corner final. ---- */

typedef struct cgrid {
    int n, dims;
    int bad_sum;             /* violated where the counters sum to this; -1: never */
    bool face_deadlocks;     /* states with c[0] == n-1 have no successor (deadlocks but the corner) */
    bool corner_final;       /* every counter at n-1: an acceptable end */
    bool symmetric;          /* canonicalize sorts the counters */
} cgrid;

#define GRID_BYTES 8

static int cg_sum(const cgrid *g, const uint8_t *s)
{
    int sum = 0;
    for (int d = 0; d < g->dims; d++)
        sum += s[d];
    return sum;
}

static void cg_initial(void *ctx, uint8_t *s)
{
    (void)ctx;
    memset(s, 0, GRID_BYTES);
}

static bool cg_corner(const cgrid *g, const uint8_t *s)
{
    for (int d = 0; d < g->dims; d++)
        if (s[d] != g->n - 1)
            return false;
    return true;
}

static int cg_successors(void *ctx, const uint8_t *s, nsi_emit emit, void *cb)
{
    cgrid *g = ctx;
    if (g->face_deadlocks && s[0] == g->n - 1)
        return 0;
    uint8_t next[GRID_BYTES];
    int k = 0;
    for (int r = 0; r < g->dims; r++) {
        if (s[r] + 1 >= g->n)
            continue;
        memcpy(next, s, GRID_BYTES);
        next[r]++;
        emit(cb, next, r);
        k++;
    }
    return k;
}

static bool cg_final(void *ctx, const uint8_t *s)
{
    cgrid *g = ctx;
    return g->corner_final && cg_corner(g, s);
}

static const char *cg_violated(void *ctx, const uint8_t *s)
{
    cgrid *g = ctx;
    return cg_sum(g, s) == g->bad_sum ? "sum-limit" : NULL;
}

static void cg_canonicalize(void *ctx, uint8_t *s)
{
    cgrid *g = ctx;
    for (int i = 1; i < g->dims; i++)        /* insertion sort: few counters */
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            uint8_t x = s[j];
            s[j] = s[j - 1];
            s[j - 1] = x;
        }
}

static nsi_model cg_model(cgrid *g, int n, int dims)
{
    *g = (cgrid){.n = n, .dims = dims, .bad_sum = -1};
    return (nsi_model){.ctx = g, .state_bytes = GRID_BYTES, .nrules = dims, .initial = cg_initial,
                       .successors = cg_successors, .is_final = cg_final, .violated = cg_violated};
}

/* ---- a fan: state x (uint32); 0 -> 1..N (rule x % 2) in one level, then
 * x -> x + N (rule 1), final there.  One wide level: the table (4 Ki slots
 * at first) fills up in the middle of it, several times. ---- */

static int fan_width(void *ctx) { return *(int *)ctx; }

static void fan_initial(void *ctx, uint8_t *s)
{
    (void)ctx;
    memset(s, 0, 4);
}

static int fan_successors(void *ctx, const uint8_t *s, nsi_emit emit, void *cb)
{
    uint32_t x, n = (uint32_t)fan_width(ctx), y;
    memcpy(&x, s, 4);
    if (x == 0) {
        for (y = 1; y <= n; y++)
            emit(cb, (const uint8_t *)&y, (int)(y % 2));
        return (int)n;
    }
    if (x > n)
        return 0;
    y = x + n;
    emit(cb, (const uint8_t *)&y, 1);
    return 1;
}

static bool fan_final(void *ctx, const uint8_t *s)
{
    uint32_t x;
    memcpy(&x, s, 4);
    return x > (uint32_t)fan_width(ctx);
}

static nsi_model fan_model(int *width)
{
    return (nsi_model){.ctx = width, .state_bytes = 4, .nrules = 2, .initial = fan_initial,
                       .successors = fan_successors, .is_final = fan_final};
}

/* ---- running both searches ---- */

/* The order on_final met the final states, as indices. */
typedef struct final_log {
    uint32_t idx[64];
    int n;
} final_log;

static void log_final(void *ctx, const uint8_t *state, uint32_t index)
{
    (void)state;
    final_log *f = ctx;
    if (f->n < 64)
        f->idx[f->n] = index;
    f->n++;
}

static bfs_search *run(const nsi_model *m, int threads, bfs_options o, bfs_result *r, final_log *f)
{
    o.threads = threads;
    memset(f, 0, sizeof *f);
    o.on_final = log_final;
    o.final_ctx = f;
    return bfs_run(m, &o, r);
}

/* Two traces are the same steps. */
static bool same_trace(const bfs_search *a, const bfs_search *b, uint32_t index)
{
    size_t na = 0, nb = 0;
    bfs_step *sa = bfs_trace(a, index, &na), *sb = bfs_trace(b, index, &nb);
    bool same = sa && sb && na == nb;
    for (size_t k = 0; same && k < na; k++)
        same = sa[k].state == sb[k].state && sa[k].rule == sb[k].rule;
    free(sa);
    free(sb);
    return same;
}

/* The search of `m` on 1, 2 and 4 threads gives what bfs.c gives: counts,
 * indices (every stored state), kept deadlocks, the violation, traces and
 * the order of final states. */
static void check_identical(const nsi_model *m, bfs_options o)
{
    bfs_result ref, r;
    final_log fref, f;
    bfs_search *one = run(m, 0, o, &ref, &fref);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one);
    CU_ASSERT_EQUAL(ref.threads, 1);
    static const int counts[] = {1, 2, 4};
    for (int c = 0; c < 3; c++) {
        bfs_search *s = c == 0 ? NULL : run(m, counts[c], o, &r, &f);
        if (c == 0) {       /* par_bfs itself on one thread (bfs_run keeps 1 for bfs.c) */
            o.threads = 1;
            memset(&f, 0, sizeof f);
            o.on_final = log_final;
            o.final_ctx = &f;
            par_bfs *p = par_bfs_run(m, &o, 1, &r);
            CU_ASSERT_PTR_NOT_NULL_FATAL(p);
            if (ref.stop == BFS_EXHAUSTED)
                CU_ASSERT_EQUAL(par_bfs_count(p), ref.states);
            for (uint32_t i = 0; i < par_bfs_count(p) && r.stop == BFS_EXHAUSTED; i++)
                CU_ASSERT_EQUAL(memcmp(par_bfs_state(p, i), bfs_state(one, i, NULL), m->state_bytes), 0);
            par_bfs_free(p);
        } else {
            CU_ASSERT_PTR_NOT_NULL_FATAL(s);
            CU_ASSERT_EQUAL(r.threads, counts[c]);
        }
        CU_ASSERT_EQUAL(r.stop, ref.stop);
        CU_ASSERT_EQUAL(r.complete, ref.complete);
        if (ref.stop == BFS_EXHAUSTED) {
            CU_ASSERT_EQUAL(r.deadlocks, ref.deadlocks);
            CU_ASSERT_EQUAL(r.deadlocks_kept, ref.deadlocks_kept);
            for (int k = 0; k < r.deadlocks_kept && k < ref.deadlocks_kept; k++)
                CU_ASSERT_EQUAL(r.deadlock_index[k], ref.deadlock_index[k]);
        }
        if (ref.stop == BFS_VIOLATION) {
            CU_ASSERT_EQUAL(r.violation_index, ref.violation_index);
            CU_ASSERT_STRING_EQUAL(r.violated, ref.violated);
            CU_ASSERT_EQUAL(r.depth, ref.depth);
        } else {
            CU_ASSERT_EQUAL(r.states, ref.states);
            CU_ASSERT_EQUAL(r.transitions, ref.transitions);
            CU_ASSERT_EQUAL(r.expanded, ref.expanded);
            CU_ASSERT_EQUAL(r.finals, ref.finals);
            CU_ASSERT_EQUAL(r.depth, ref.depth);
            CU_ASSERT_EQUAL(f.n, fref.n);
            for (int k = 0; k < f.n && k < 64; k++)
                CU_ASSERT_EQUAL(f.idx[k], fref.idx[k]);
        }
        if (s) {
            for (uint32_t i = 0; i < bfs_count(s) && ref.stop == BFS_EXHAUSTED; i++)
                CU_ASSERT_EQUAL(memcmp(bfs_state(s, i, NULL), bfs_state(one, i, NULL), m->state_bytes), 0);
            if (ref.stop == BFS_VIOLATION)
                CU_ASSERT_TRUE(same_trace(one, s, r.violation_index));
            if (ref.stop == BFS_EXHAUSTED) {
                for (int k = 0; k < r.deadlocks_kept; k++)
                    CU_ASSERT_TRUE(same_trace(one, s, r.deadlock_index[k]));
                CU_ASSERT_TRUE(same_trace(one, s, bfs_count(s) - 1));
            }
            bfs_free(s);
        }
    }
    bfs_free(one);
}

/* ---- the tests ---- */

static void test_par_grid_counts(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 12, 3);
    g.corner_final = true;
    bfs_options o = {0};
    bfs_result r;
    final_log f;
    bfs_search *s = run(&m, 2, o, &r, &f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_EXHAUSTED);
    CU_ASSERT_TRUE(r.complete);
    CU_ASSERT_EQUAL(r.threads, 2);
    CU_ASSERT_EQUAL(r.states, 1728);             /* 12^3 */
    CU_ASSERT_EQUAL(r.transitions, 4752);        /* 3 rules x 12^2 x 11 steps each */
    CU_ASSERT_EQUAL(r.depth, 33);                /* 3 x 11 */
    CU_ASSERT_EQUAL(r.finals, 1);                /* the corner */
    CU_ASSERT_EQUAL(r.deadlocks, 0);             /* the corner is final */
    CU_ASSERT_EQUAL(f.n, 1);
    size_t len = 0;
    bfs_step *t = bfs_trace(s, f.idx[0], &len);
    CU_ASSERT_EQUAL(len, 34);                    /* 33 steps and the initial state */
    free(t);
    bfs_free(s);
    check_identical(&m, o);
}

/* 64,000 states through table growth: between levels and in one. */
static void test_par_grid_growth(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 40, 3);
    bfs_options o = {0};
    bfs_result r;
    final_log f;
    bfs_search *s = run(&m, 4, o, &r, &f);
    CU_ASSERT_EQUAL(r.states, 64000);            /* 40^3 */
    CU_ASSERT_EQUAL(r.transitions, 187200);      /* 3 x 40^2 x 39 */
    CU_ASSERT_EQUAL(r.deadlocks, 1);             /* the corner, not final here */
    CU_ASSERT_EQUAL(r.depth, 117);               /* 3 x 39 */
    bfs_free(s);
    check_identical(&m, o);
}

static void test_par_wide_level(void)
{
    int width = 60000;                           /* far over 9/10 of the first 4 Ki slots */
    nsi_model m = fan_model(&width);
    bfs_options o = {0};
    bfs_result r;
    final_log f;
    bfs_search *s = run(&m, 2, o, &r, &f);
    CU_ASSERT_EQUAL(r.stop, BFS_EXHAUSTED);
    CU_ASSERT_EQUAL(r.states, 120001);           /* 0, 1..N, N+1..2N */
    CU_ASSERT_EQUAL(r.transitions, 120000);      /* N from 0, one from each of 1..N */
    CU_ASSERT_EQUAL(r.finals, 60000);            /* N+1..2N */
    CU_ASSERT_EQUAL(r.depth, 2);
    CU_ASSERT_EQUAL(r.deadlocks, 0);
    /* discovery order: state i (1..N) is x = i, emitted i-th by state 0 */
    uint32_t x;
    memcpy(&x, bfs_state(s, 777, NULL), 4);
    CU_ASSERT_EQUAL(x, 777);
    memcpy(&x, bfs_state(s, 60001, NULL), 4);
    CU_ASSERT_EQUAL(x, 60001);
    bfs_free(s);
    check_identical(&m, o);
}

static void test_par_deadlocks_kept(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 10, 2);
    g.face_deadlocks = true;
    bfs_options o = {0};
    bfs_result r;
    final_log f;
    bfs_search *s = run(&m, 4, o, &r, &f);
    CU_ASSERT_EQUAL(r.states, 100);              /* 10^2: every point is reached */
    CU_ASSERT_EQUAL(r.deadlocks, 10);            /* the face a = 9, b = 0..9 */
    CU_ASSERT_EQUAL(r.deadlocks_kept, BFS_KEEP_DEADLOCKS);
    /* the first kept is (9, 0), at depth 9: a trace of 10 states */
    CU_ASSERT_EQUAL(bfs_state(s, r.deadlock_index[0], NULL)[0], 9);
    CU_ASSERT_EQUAL(bfs_state(s, r.deadlock_index[0], NULL)[1], 0);
    size_t len = 0;
    free(bfs_trace(s, r.deadlock_index[0], &len));
    CU_ASSERT_EQUAL(len, 10);
    bfs_free(s);
    check_identical(&m, o);
}

/* Many violating states in one level: the one a single thread reports. */
static void test_par_violation_deterministic(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 8, 3);
    g.bad_sum = 5;                               /* the 21 points of the level a + b + c = 5 */
    bfs_options o = {0};
    for (int rep = 0; rep < 5; rep++) {
        bfs_result r;
        final_log f;
        bfs_search *s = run(&m, 4, o, &r, &f);
        CU_ASSERT_EQUAL(r.stop, BFS_VIOLATION);
        CU_ASSERT_FALSE(r.complete);
        CU_ASSERT_STRING_EQUAL(r.violated, "sum-limit");
        CU_ASSERT_EQUAL(r.depth, 5);
        /* the first of the level in discovery order: (5, 0, 0) */
        CU_ASSERT_EQUAL(bfs_state(s, r.violation_index, NULL)[0], 5);
        size_t len = 0;
        free(bfs_trace(s, r.violation_index, &len));
        CU_ASSERT_EQUAL(len, 6);                 /* 5 steps: shortest */
        bfs_free(s);
    }
    check_identical(&m, o);
    g.bad_sum = 0;                               /* the initial state itself */
    check_identical(&m, o);
}

static void test_par_canonicalize(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 4, 2);
    g.symmetric = true;
    m.canonicalize = cg_canonicalize;
    for (int threads = 1; threads <= 4; threads *= 2) {
        bfs_result r;
        par_bfs *p = par_bfs_run(&m, NULL, threads, &r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_EQUAL(r.states, 10);           /* pairs a <= b in 0..3: 4 + 3 + 2 + 1 */
        CU_ASSERT_EQUAL(r.transitions, 15);      /* 9 with a < 3, 6 with b < 3 */
        CU_ASSERT_EQUAL(r.depth, 6);             /* (0,0) to (3,3) */
        for (uint32_t i = 0; i < par_bfs_count(p); i++)
            CU_ASSERT(par_bfs_state(p, i)[0] <= par_bfs_state(p, i)[1]);
        par_bfs_free(p);
    }
}

static void test_par_max_states_exact(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 40, 3);
    for (int threads = 2; threads <= 4; threads += 2) {
        bfs_options o = {.max_states = 5000, .threads = threads};
        bfs_result r;
        bfs_search *s = bfs_run(&m, &o, &r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(r.stop, BFS_MAX_STATES);
        CU_ASSERT_FALSE(r.complete);
        CU_ASSERT_EQUAL(r.states, 5000);         /* never one more */
        /* every stored state's trace leads back to the initial state */
        size_t len = 0;
        free(bfs_trace(s, 4999, &len));
        CU_ASSERT(len >= 1);
        bfs_free(s);
    }
}

static void test_par_limits(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 60, 3);
    bfs_result r;
    bfs_options o = {.max_memory = 600000, .threads = 2};
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_MAX_MEMORY);
    CU_ASSERT_FALSE(r.complete);
    CU_ASSERT(r.store_peak_bytes <= 600000);
    bfs_free(s);
    volatile sig_atomic_t flag = 1;
    o = (bfs_options){.stop = &flag, .threads = 2};
    s = bfs_run(&m, &o, &r);
    CU_ASSERT_EQUAL(r.stop, BFS_INTERRUPTED);
    CU_ASSERT_FALSE(r.complete);
    bfs_free(s);
    o = (bfs_options){.timeout_s = 1e-9, .threads = 2};
    s = bfs_run(&m, &o, &r);
    CU_ASSERT_EQUAL(r.stop, BFS_TIMEOUT);
    CU_ASSERT_FALSE(r.complete);
    bfs_free(s);
}

static void count_progress(void *ctx, const bfs_progress *p)
{
    (void)p;
    (*(int *)ctx)++;
}

static void note_edge(void *ctx, uint32_t from, uint32_t to, int rule)
{
    (void)from, (void)to, (void)rule;
    (*(int *)ctx)++;
}

static void test_par_progress_and_edges(void)
{
    cgrid g;
    nsi_model m = cg_model(&g, 40, 3);
    int reports = 0, edges = 0;
    bfs_options o = {.progress = count_progress, .progress_ctx = &reports, .progress_every_s = 1e-9,
                     .threads = 2};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT(reports > 0);
    bfs_free(s);
    /* on_edge: one thread, whatever was asked (the liveness pass) */
    o = (bfs_options){.on_edge = note_edge, .edge_ctx = &edges, .threads = 4};
    s = bfs_run(&m, &o, &r);
    CU_ASSERT_EQUAL(r.threads, 1);
    CU_ASSERT_EQUAL(edges, 187200);              /* every transition, as above */
    bfs_free(s);
}

/* ---- the store on its own: four threads insert overlapping ranges ---- */

typedef struct inserter {
    par_store *s;
    uint32_t from, to;
    int fresh;
} inserter;

static void *insert_range(void *arg)
{
    inserter *in = arg;
    for (uint32_t x = in->from; x < in->to; x++) {
        uint8_t st[12] = {0};
        memcpy(st, &x, 4);
        uint32_t idx;
        ps_status r;
        while ((r = ps_insert(in->s, st, ss_hash(st, 12), ps_key(0, x, 0), &idx)) == PS_TABLE_FULL)
            ;     /* cannot happen: the table was grown first */
        in->fresh += r == PS_NEW;
    }
    return NULL;
}

static void test_par_store_concurrent(void)
{
    par_store *s = ps_create(12, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint8_t root[12];
    memset(root, 0xFF, sizeof root);           /* unlike every x below */
    uint32_t idx;
    ps_begin_level(s);
    CU_ASSERT_EQUAL(ps_insert(s, root, ss_hash(root, 12), ps_key(SS_NO_PARENT, 0xFFFF, SS_NO_RULE), &idx), PS_NEW);
    uint32_t *moved;
    ps_end_level(s, &moved);
    free(moved);
    ps_begin_level(s);
    while (ps_table_slots(s) < 65536)           /* 50,000 states below 9/10 load */
        CU_ASSERT_TRUE_FATAL(ps_grow(s));
    inserter in[4];
    pthread_t t[4];
    for (int k = 0; k < 4; k++) {       /* [0, 20000), [10000, 30000), ...: 50,000 distinct */
        in[k] = (inserter){s, (uint32_t)k * 10000, (uint32_t)k * 10000 + 20000, 0};
        pthread_create(&t[k], NULL, insert_range, &in[k]);
    }
    int fresh = 0;
    for (int k = 0; k < 4; k++) {
        pthread_join(t[k], NULL);
        fresh += in[k].fresh;
    }
    CU_ASSERT_EQUAL(fresh, 50000);
    CU_ASSERT_EQUAL(ps_count(s), 50001);
    CU_ASSERT_TRUE(ps_end_level(s, &moved));
    free(moved);
    /* renumbered by key: x is at index x + 1, parent 0, position x */
    for (uint32_t x = 0; x < 50000; x += 997) {
        uint32_t got;
        memcpy(&got, ps_state(s, x + 1), 4);
        CU_ASSERT_EQUAL(got, x);
        CU_ASSERT_EQUAL(ps_parent(s, x + 1), 0);
    }
    /* and found again at its new index */
    uint8_t st[12] = {0};
    uint32_t x = 4242;
    memcpy(st, &x, 4);
    ps_begin_level(s);
    CU_ASSERT_EQUAL(ps_insert(s, st, ss_hash(st, 12), 0, &idx), PS_OLD);
    CU_ASSERT_EQUAL(idx, 4243);
    CU_ASSERT_TRUE(ps_grow(s));
    CU_ASSERT_EQUAL(ps_insert(s, st, ss_hash(st, 12), 0, &idx), PS_OLD);
    CU_ASSERT_EQUAL(idx, 4243);
    ps_destroy(s);
}

static void test_par_cores(void)
{
    CU_ASSERT(par_bfs_cores() >= 1);
}

void register_par_search_tests(void)
{
    CU_pSuite s = CU_add_suite("par_search", NULL, NULL);
    CU_add_test(s, "par grid counts and identity with one thread", test_par_grid_counts);
    CU_add_test(s, "par grid through table growth", test_par_grid_growth);
    CU_add_test(s, "par one level wider than the table", test_par_wide_level);
    CU_add_test(s, "par deadlocks kept as one thread keeps them", test_par_deadlocks_kept);
    CU_add_test(s, "par violation: the same state every run", test_par_violation_deterministic);
    CU_add_test(s, "par canonicalize hook", test_par_canonicalize);
    CU_add_test(s, "par max-states exact", test_par_max_states_exact);
    CU_add_test(s, "par max-memory, stop flag, timeout", test_par_limits);
    CU_add_test(s, "par progress; on_edge runs on one thread", test_par_progress_and_edges);
    CU_add_test(s, "par store: concurrent inserts and renumbering", test_par_store_concurrent);
    CU_add_test(s, "par cores available", test_par_cores);
}
