/* test_search.c: unit tests of state_store and search_bfs on synthetic
 * next-state models written here. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "search/bfs.h"
#include "search/state_store.h"
#include "unit_suites.h"

/* ---- A grid model: counters a, b in 0..n-1 (bytes 0 and 1 of a state of
 * `bytes` bytes, the rest zero); rule 0 increments a, rule 1 increments b.
 * Optional: a violating point, a final point (the deadlock corner when
 * neither is set). ---- */

typedef struct grid {
    int n;
    size_t bytes;
    int bad_a, bad_b;        /* violated at (bad_a, bad_b); -1: never */
    bool corner_final;       /* (n-1, n-1) is an acceptable end */
    int finals_seen;
} grid;

static void grid_initial(void *ctx, uint8_t *s)
{
    memset(s, 0, ((grid *)ctx)->bytes);
}

static int grid_successors(void *ctx, const uint8_t *s, nsi_emit emit, void *cb)
{
    grid *g = ctx;
    uint8_t next[64];
    int k = 0;
    for (int r = 0; r < 2; r++) {
        if (s[r] + 1 >= g->n)
            continue;
        memcpy(next, s, g->bytes);
        next[r]++;
        emit(cb, next, r);
        k++;
    }
    return k;
}

static bool grid_final(void *ctx, const uint8_t *s)
{
    grid *g = ctx;
    return g->corner_final && s[0] == g->n - 1 && s[1] == g->n - 1;
}

static const char *grid_violated(void *ctx, const uint8_t *s)
{
    grid *g = ctx;
    return s[0] == g->bad_a && s[1] == g->bad_b ? "no-bad-point" : NULL;
}

static void grid_describe(void *ctx, const uint8_t *s, int rule, const uint8_t *next, FILE *out)
{
    (void)ctx;
    fprintf(out, "inc %c: (%d,%d) -> (%d,%d)\n", rule ? 'b' : 'a', s[0], s[1], next[0], next[1]);
}

static nsi_model grid_model(grid *g, int n, size_t bytes)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->bytes = bytes;
    g->bad_a = g->bad_b = -1;
    nsi_model m = {.ctx = g, .state_bytes = bytes, .nrules = 2, .initial = grid_initial,
                   .successors = grid_successors, .is_final = grid_final,
                   .violated = grid_violated, .describe = grid_describe};
    return m;
}

static void count_final(void *ctx, const uint8_t *state, uint32_t index)
{
    (void)state;
    (void)index;
    ((grid *)ctx)->finals_seen++;
}

/* ---- state_store ---- */

static void put_u64(uint8_t *s, size_t bytes, uint64_t v)
{
    memset(s, 0, bytes);
    memcpy(s + bytes - 8, &v, 8);   /* the varying part at the end */
}

static void test_store_insert_lookup(void)
{
    state_store *s = ss_create(11, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint8_t a[11] = {1, 2, 3}, b[11] = {1, 2, 3};
    b[10] = 1;   /* differs only in the tail word */
    uint32_t ia, ib, ic;
    CU_ASSERT_EQUAL(ss_insert(s, a, SS_NO_PARENT, SS_NO_RULE, &ia), SS_NEW);
    CU_ASSERT_EQUAL(ss_insert(s, b, ia, 7, &ib), SS_NEW);
    CU_ASSERT_EQUAL(ss_insert(s, a, ib, 3, &ic), SS_OLD);
    CU_ASSERT_EQUAL(ia, 0);
    CU_ASSERT_EQUAL(ib, 1);
    CU_ASSERT_EQUAL(ic, 0);
    CU_ASSERT_EQUAL(ss_count(s), 2);
    CU_ASSERT_EQUAL(memcmp(ss_state(s, 1), b, 11), 0);
    CU_ASSERT_EQUAL(ss_parent(s, 0), SS_NO_PARENT);
    CU_ASSERT_EQUAL(ss_rule(s, 0), SS_NO_RULE);
    CU_ASSERT_EQUAL(ss_parent(s, 1), 0);
    CU_ASSERT_EQUAL(ss_rule(s, 1), 7);
    uint8_t c[11] = {9};
    CU_ASSERT_FALSE(ss_find(s, c, &ic));
    CU_ASSERT_TRUE(ss_find(s, b, &ic));
    CU_ASSERT_EQUAL(ic, 1);
    CU_ASSERT(ss_bytes_per_state(s) > 0);
    ss_destroy(s);
}

/* Many states through several doublings and chunks; states kept their
 * indices and bytes, and every re-insert finds the old one. */
static void test_store_many_states(void)
{
    enum { N = 300000, B = 13 };
    state_store *s = ss_create(B, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint8_t st[B];
    uint32_t idx;
    int bad = 0;
    for (uint64_t v = 0; v < N; v++) {
        put_u64(st, B, v * 0x100000001ULL);  /* low and high halves alike */
        bad += ss_insert(s, st, v ? (uint32_t)(v - 1) : SS_NO_PARENT, (int)(v % 5), &idx) != SS_NEW ||
               idx != v;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(ss_count(s), N);
    for (uint64_t v = 0; v < N; v++) {
        put_u64(st, B, v * 0x100000001ULL);
        bad += ss_insert(s, st, 0, 0, &idx) != SS_OLD || idx != v ||
               memcmp(ss_state(s, (uint32_t)v), st, B) != 0 || ss_rule(s, (uint32_t)v) != (int)(v % 5);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(ss_table_slots(s) * 3 >= (size_t)N * 4);
    CU_ASSERT(ss_peak_bytes(s) >= ss_bytes(s));
    ss_destroy(s);
}

/* States that share a hash tag and home slot region: the table is tiny at
 * first, so thousands of states collide in probing and are told apart by
 * their bytes. */
static void test_store_compares_bytes(void)
{
    state_store *s = ss_create(8, NULL);
    uint8_t st[8];
    uint32_t idx;
    int bad = 0;
    for (uint64_t v = 0; v < 700; v++) {   /* stays under 3/4 of 1024 slots */
        memcpy(st, &v, 8);
        bad += ss_insert(s, st, SS_NO_PARENT, 0, &idx) != SS_NEW;
    }
    CU_ASSERT_EQUAL(ss_table_slots(s), 1024);
    for (uint64_t v = 0; v < 700; v++) {
        memcpy(st, &v, 8);
        bad += !ss_find(s, st, &idx) || idx != v;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_NOT_EQUAL(ss_hash((const uint8_t *)"abcdefgh", 8), ss_hash((const uint8_t *)"abcdefgi", 8));
    CU_ASSERT_NOT_EQUAL(ss_hash((const uint8_t *)"\0\0", 1), ss_hash((const uint8_t *)"\0\0", 2));
    ss_destroy(s);
}

static void test_store_memory_refusal(void)
{
    ss_limits lim = {.max_bytes = 256 * 1024};
    state_store *s = ss_create(40, &lim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint8_t st[40];
    uint32_t idx;
    ss_status r = SS_NEW;
    uint64_t v = 0;
    for (; v < 1000000 && r == SS_NEW; v++) {
        put_u64(st, 40, v);
        r = ss_insert(s, st, SS_NO_PARENT, 0, &idx);
    }
    CU_ASSERT_EQUAL(r, SS_FULL_MEMORY);
    CU_ASSERT(ss_count(s) > 1000);
    CU_ASSERT(ss_peak_bytes(s) <= lim.max_bytes);
    uint32_t before = ss_count(s);
    CU_ASSERT_EQUAL(ss_insert(s, st, SS_NO_PARENT, 0, &idx), SS_FULL_MEMORY);
    CU_ASSERT_EQUAL(ss_count(s), before);
    put_u64(st, 40, 5);
    CU_ASSERT_TRUE(ss_find(s, st, &idx));   /* still usable */
    CU_ASSERT_EQUAL(idx, 5);
    ss_limits tiny = {.max_bytes = 100};
    CU_ASSERT_PTR_NULL(ss_create(40, &tiny));
    ss_destroy(s);
}

static void test_store_max_states(void)
{
    ss_limits lim = {.max_states = 3};
    state_store *s = ss_create(4, &lim);
    uint8_t st[4] = {0};
    uint32_t idx;
    for (uint8_t v = 0; v < 3; v++) {
        st[0] = v;
        CU_ASSERT_EQUAL(ss_insert(s, st, SS_NO_PARENT, 0, &idx), SS_NEW);
    }
    st[0] = 3;
    CU_ASSERT_EQUAL(ss_insert(s, st, SS_NO_PARENT, 0, &idx), SS_FULL_STATES);
    st[0] = 1;
    CU_ASSERT_EQUAL(ss_insert(s, st, SS_NO_PARENT, 0, &idx), SS_OLD);
    ss_destroy(s);
}

/* ---- search_bfs ---- */

static void test_bfs_grid_counts(void)
{
    grid g;
    nsi_model m = grid_model(&g, 20, 3);
    g.corner_final = true;
    bfs_options o = {.on_final = count_final, .final_ctx = &g};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_EXHAUSTED);
    CU_ASSERT_TRUE(r.complete);
    CU_ASSERT_EQUAL(r.states, 400);
    CU_ASSERT_EQUAL(r.expanded, 400);
    CU_ASSERT_EQUAL(r.transitions, 2 * 20 * 19);
    CU_ASSERT_EQUAL(r.depth, 38);
    CU_ASSERT_EQUAL(r.deadlocks, 0);
    CU_ASSERT_EQUAL(r.finals, 1);
    CU_ASSERT_EQUAL(g.finals_seen, 1);
    CU_ASSERT(r.bytes_per_state > 0);
    CU_ASSERT(r.peak_rss > 0);
    /* BFS numbering: levels in order, so the last state is the corner. */
    const uint8_t *last = ss_state(bfs_store(s), 399);
    CU_ASSERT(last[0] == 19 && last[1] == 19);
    bfs_free(s);
}

static void test_bfs_deadlock(void)
{
    grid g;
    nsi_model m = grid_model(&g, 4, 2);
    m.is_final = NULL;
    bfs_result r;
    bfs_search *s = bfs_run(&m, NULL, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_EXHAUSTED);
    CU_ASSERT_EQUAL(r.states, 16);
    CU_ASSERT_EQUAL(r.deadlocks, 1);
    CU_ASSERT_EQUAL_FATAL(r.deadlocks_kept, 1);
    const uint8_t *d = ss_state(bfs_store(s), r.deadlock_index[0]);
    CU_ASSERT(d[0] == 3 && d[1] == 3);
    size_t n = 0;
    bfs_step *t = bfs_trace(s, r.deadlock_index[0], &n);
    CU_ASSERT_EQUAL(n, 7);
    free(t);
    bfs_free(s);
}

static void test_bfs_violation_shortest_trace(void)
{
    grid g;
    nsi_model m = grid_model(&g, 10, 21);
    g.bad_a = 3;
    g.bad_b = 2;
    bfs_result r;
    bfs_search *s = bfs_run(&m, NULL, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_VIOLATION);
    CU_ASSERT_FALSE(r.complete);
    CU_ASSERT_STRING_EQUAL(r.violated, "no-bad-point");
    CU_ASSERT_EQUAL(r.depth, 5);
    CU_ASSERT(r.states < 100);
    size_t n = 0;
    bfs_step *t = bfs_trace(s, r.violation_index, &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(n, 6);
    CU_ASSERT_EQUAL(t[0].state, 0);
    CU_ASSERT_EQUAL(t[0].rule, SS_NO_RULE);
    int incs[2] = {0, 0};
    for (size_t k = 1; k < n; k++) {
        incs[t[k].rule]++;
        CU_ASSERT_EQUAL(ss_parent(bfs_store(s), t[k].state), t[k - 1].state);
    }
    CU_ASSERT(incs[0] == 3 && incs[1] == 2);
    CU_ASSERT_EQUAL(t[n - 1].state, r.violation_index);
    free(t);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bfs_print_trace(s, r.violation_index, f);
    bfs_print_stats(&r, f);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  0: initial state\n  1: inc "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  5: inc "));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "-> (3,2)\nsearch: stopped at a violation of no-bad-point"));
    free(buf);
    bfs_free(s);
}

static void test_bfs_initial_violation(void)
{
    grid g;
    nsi_model m = grid_model(&g, 5, 2);
    g.bad_a = g.bad_b = 0;
    bfs_result r;
    bfs_search *s = bfs_run(&m, NULL, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_VIOLATION);
    CU_ASSERT_EQUAL(r.violation_index, 0);
    CU_ASSERT_EQUAL(r.states, 1);
    CU_ASSERT_EQUAL(r.expanded, 0);
    bfs_free(s);
}

static void test_bfs_max_states(void)
{
    grid g;
    nsi_model m = grid_model(&g, 100, 2);
    bfs_options o = {.max_states = 500};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_MAX_STATES);
    CU_ASSERT_FALSE(r.complete);
    CU_ASSERT_EQUAL(r.states, 500);
    CU_ASSERT(r.transitions > 0 && r.depth > 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bfs_print_stats(&r, f);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "stopped by the max-states limit (partial statistics)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "states: 500\n"));
    free(buf);
    bfs_free(s);
}

static void test_bfs_max_memory_and_timeout(void)
{
    grid g;
    nsi_model m = grid_model(&g, 250, 60);
    bfs_options o = {.max_memory = 4 << 20};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_MAX_MEMORY);
    CU_ASSERT(r.states > 1000 && r.states < 250 * 250);
    CU_ASSERT(r.store_peak_bytes <= o.max_memory);
    bfs_free(s);

    bfs_options t = {.timeout_s = 1e-9};
    s = bfs_run(&m, &t, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_TIMEOUT);
    CU_ASSERT_STRING_EQUAL(bfs_stop_name(r.stop), "timeout");
    bfs_free(s);
}

/* Progress reports: with an interval shorter than any expansion, one at
 * every clock check (every 256 expansions, from the first); each sees the
 * queue as the stored states not yet expanded.  With an hour's interval,
 * none. */
typedef struct progress_log {
    int n;
    bool consistent;
    uint64_t last_states;
} progress_log;

static void log_progress(void *ctx, const bfs_progress *p)
{
    progress_log *l = ctx;
    l->consistent &= p->queue == p->states - p->expanded && p->expanded % 256 == 0 &&
                     p->states >= l->last_states && p->store_bytes > 0 && p->seconds >= 0;
    l->last_states = p->states;
    l->n++;
}

static void test_bfs_progress(void)
{
    grid g;
    nsi_model m = grid_model(&g, 200, 3);
    g.corner_final = true;
    progress_log log = {0, true, 0};
    bfs_options o = {.progress = log_progress, .progress_ctx = &log, .progress_every_s = 1e-12};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.states, 40000);
    CU_ASSERT_EQUAL(log.n, (40000 + 255) / 256);
    CU_ASSERT(log.consistent);
    bfs_free(s);
    progress_log quiet = {0, true, 0};
    o.progress_ctx = &quiet;
    o.progress_every_s = 3600;
    s = bfs_run(&m, &o, &r);
    CU_ASSERT_EQUAL(quiet.n, 0);
    bfs_free(s);
}

/* The caller's stop flag, already set: the search stores the initial
 * state and stops before expanding it, with partial statistics. */
static void test_bfs_stop_flag(void)
{
    grid g;
    nsi_model m = grid_model(&g, 100, 2);
    volatile sig_atomic_t flag = 1;
    bfs_options o = {.stop = &flag};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_INTERRUPTED);
    CU_ASSERT_FALSE(r.complete);
    CU_ASSERT_EQUAL(r.states, 1);
    CU_ASSERT_EQUAL(r.expanded, 0);
    CU_ASSERT_STRING_EQUAL(bfs_stop_name(r.stop), "interrupted");
    bfs_free(s);
    flag = 0;
    s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.stop, BFS_EXHAUSTED);
    bfs_free(s);
}

static void test_bfs_bad_model(void)
{
    grid g;
    nsi_model m = grid_model(&g, 5, 2);
    m.nrules = SS_MAX_RULE + 2;
    bfs_result r;
    CU_ASSERT_PTR_NULL(bfs_run(&m, NULL, &r));
    CU_ASSERT_EQUAL(r.stop, BFS_BAD_MODEL);
    m.nrules = 1;   /* the model emits rule 1 */
    bfs_search *s = bfs_run(&m, NULL, &r);
    CU_ASSERT_EQUAL(r.stop, BFS_BAD_MODEL);
    bfs_free(s);
}

/* ---- symmetry: the grid is symmetric in (a, b); its canonical form
 * sorts them (a <= b). ---- */

static void grid_sort(void *ctx, uint8_t *s)
{
    (void)ctx;
    if (s[0] > s[1]) {
        uint8_t t = s[0];
        s[0] = s[1];
        s[1] = t;
    }
}

/* Stored states are canonical, one per orbit: the pairs a <= b of
 * 0..n-1, n(n+1)/2 of them; the depth is unchanged (38 = 2 * 19). */
static void test_bfs_canonical_counts(void)
{
    grid g;
    nsi_model m = grid_model(&g, 20, 3);
    g.corner_final = true;
    m.canonicalize = grid_sort;
    bfs_options o = {.on_final = count_final, .final_ctx = &g};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(r.states, 20 * 21 / 2);
    CU_ASSERT_EQUAL(r.depth, 38);
    CU_ASSERT_EQUAL(r.finals, 1);
    CU_ASSERT_TRUE(r.canonical);
    for (uint32_t i = 0; i < r.states; i++)
        CU_ASSERT(ss_state(bfs_store(s), i)[0] <= ss_state(bfs_store(s), i)[1]);
    bfs_free(s);
}

/* A trace to a canonical state is replayed into concrete states: each a
 * successor of the one before by the rule given, each with the stored
 * state's canonical form, as long as the stored path (shortest). */
static void test_bfs_canonical_trace(void)
{
    grid g;
    nsi_model m = grid_model(&g, 10, 3);
    g.bad_a = g.bad_b = 4;
    m.canonicalize = grid_sort;
    bfs_result r;
    bfs_search *s = bfs_run(&m, NULL, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL_FATAL(r.stop, BFS_VIOLATION);
    size_t n = 0;
    bfs_step *t = bfs_trace(s, r.violation_index, &n);
    bfs_path *p = bfs_path_to(s, r.violation_index);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->len, n);
    CU_ASSERT_EQUAL(n, 9);
    int rules[2] = {0, 0};
    for (size_t k = 0; k < n; k++) {
        uint8_t c[3];
        memcpy(c, bfs_path_state(p, k), 3);
        grid_sort(NULL, c);
        CU_ASSERT_EQUAL(memcmp(c, ss_state(bfs_store(s), t[k].state), 3), 0);
        if (k == 0)
            continue;
        const uint8_t *a = bfs_path_state(p, k - 1), *b = bfs_path_state(p, k);
        int rule = p->rules[k];
        CU_ASSERT(rule == 0 || rule == 1);
        CU_ASSERT(b[rule] == a[rule] + 1 && b[1 - rule] == a[1 - rule]);
        rules[rule]++;
    }
    CU_ASSERT(rules[0] == 4 && rules[1] == 4);
    bfs_path_free(p);
    free(t);
    bfs_free(s);
}

/* bfs_path_rerule: the rules of the path mirrored (a and b swapped) are
 * the mirrored rules; a path that jumps is refused. */
static void test_bfs_path_rerule(void)
{
    grid g;
    nsi_model m = grid_model(&g, 10, 3);
    bfs_result r;
    bfs_search *s = bfs_run(&m, NULL, &r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    uint32_t target = 0;
    for (uint32_t i = 0; i < r.states; i++)
        if (ss_state(bfs_store(s), i)[0] == 3 && ss_state(bfs_store(s), i)[1] == 1)
            target = i;
    bfs_path *p = bfs_path_to(s, target);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(p->len, 5);
    int before[5];
    for (size_t k = 0; k < p->len; k++) {
        before[k] = p->rules[k];
        uint8_t *x = p->states + k * p->state_bytes, tmp = x[0];
        x[0] = x[1];
        x[1] = tmp;
    }
    CU_ASSERT_TRUE(bfs_path_rerule(&m, p));
    for (size_t k = 1; k < p->len; k++)
        CU_ASSERT_EQUAL(p->rules[k], 1 - before[k]);
    p->states[4 * p->state_bytes] = 9;     /* a jump: no successor of step 3 is it */
    CU_ASSERT_FALSE(bfs_path_rerule(&m, p));
    bfs_path_free(p);
    bfs_free(s);
}

void register_search_tests(void)
{
    CU_pSuite s = CU_add_suite("search", NULL, NULL);
    CU_add_test(s, "store insert/lookup/parent/rule", test_store_insert_lookup);
    CU_add_test(s, "store many states through doublings", test_store_many_states);
    CU_add_test(s, "store compares bytes in crowded probes", test_store_compares_bytes);
    CU_add_test(s, "store memory budget refusal", test_store_memory_refusal);
    CU_add_test(s, "store max states", test_store_max_states);
    CU_add_test(s, "bfs grid counts, depth, finals", test_bfs_grid_counts);
    CU_add_test(s, "bfs deadlock", test_bfs_deadlock);
    CU_add_test(s, "bfs violation and shortest trace", test_bfs_violation_shortest_trace);
    CU_add_test(s, "bfs violation in the initial state", test_bfs_initial_violation);
    CU_add_test(s, "bfs max-states partial statistics", test_bfs_max_states);
    CU_add_test(s, "bfs max-memory and timeout", test_bfs_max_memory_and_timeout);
    CU_add_test(s, "bfs bad model", test_bfs_bad_model);
    CU_add_test(s, "bfs progress callback", test_bfs_progress);
    CU_add_test(s, "bfs stop flag", test_bfs_stop_flag);
    CU_add_test(s, "bfs canonical states: one per orbit", test_bfs_canonical_counts);
    CU_add_test(s, "bfs canonical trace replayed to concrete states", test_bfs_canonical_trace);
    CU_add_test(s, "bfs path rerule after a symmetry", test_bfs_path_rerule);
}
