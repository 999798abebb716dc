/* test_stores.c: unit tests of the compact visited-state stores
 * (search/tree_store.h, search/prob_store.h) on synthetic data, and of the
 * breadth-first search through each store (search/visited.h): identical
 * counts, traces and states to the plain store, limits refused gracefully,
 * the probabilistic bounds against their formulas computed here. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/bfs.h"
#include "search/prob_store.h"
#include "search/tree_store.h"
#include "search/visited.h"
#include "unit_suites.h"

/* A small deterministic generator (xorshift64*), so that runs repeat. */
static uint64_t next_random(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1DULL;
}

/* State v of a family of `bytes`-byte states: a few varying bytes (from v)
 * spread over a mostly constant vector, as protocol states are. */
static void family_state(uint8_t *s, size_t bytes, uint32_t v)
{
    memset(s, 0x5A, bytes);
    for (size_t i = 0; i < bytes && i < 4; i++)
        s[(i * 7) % bytes] = (uint8_t)(v >> (8 * i));
}

/* ---- tree store ---- */

/* Random vectors of several sizes (odd ones included: the tail word is
 * padded) with duplicates: indices in insertion order, every state read
 * back, parents and rules kept, lookups by value. */
static void round_trip(size_t bytes)
{
    enum { N = 5000 };
    tree_store *t = ts_create(bytes, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    uint8_t *all = calloc(N, bytes), *out = malloc(bytes);
    uint64_t x = 88172645463325252ULL + bytes;
    uint32_t distinct = 0, idx = 0;
    for (uint32_t i = 0; i < N; i++) {
        uint8_t *s = all + (size_t)distinct * bytes;
        for (size_t b = 0; b < bytes; b++)
            s[b] = (uint8_t)(next_random(&x) % 3);   /* few values: many shared sub-vectors */
        ss_status st = ts_insert(t, s, distinct ? distinct - 1 : SS_NO_PARENT, (int)(i % 7), &idx);
        CU_ASSERT(st == SS_NEW || st == SS_OLD);
        if (st == SS_NEW) {
            CU_ASSERT_EQUAL(idx, distinct);
            distinct++;
        } else {
            CU_ASSERT(idx < distinct && memcmp(all + (size_t)idx * bytes, s, bytes) == 0);
        }
    }
    CU_ASSERT_EQUAL(ts_count(t), distinct);
    bool same = true;
    for (uint32_t i = 0; i < distinct; i++) {
        ts_get(t, i, out);
        uint32_t found = UINT32_MAX;
        same = same && memcmp(out, all + (size_t)i * bytes, bytes) == 0 && ts_find(t, out, &found) && found == i &&
               ts_parent(t, i) == (i ? i - 1 : SS_NO_PARENT);
    }
    CU_ASSERT_TRUE(same);
    CU_ASSERT_EQUAL(ts_rule(t, 0), 0);
    memset(out, 7, bytes);   /* no stored state has a 7 */
    CU_ASSERT_FALSE(ts_find(t, out, &idx));
    free(all);
    free(out);
    ts_destroy(t);
}

static void test_tree_round_trip(void)
{
    static const size_t sizes[] = {1, 3, 4, 5, 13, 38, 64, 301};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        round_trip(sizes[i]);
}

/* Incremental inserts (ts_load then successors that change a word or
 * two) and batched ones (ts_roots, then ts_insert_root in order) give the
 * same indices as plain inserts. */
static void test_tree_incremental(void)
{
    enum { B = 24, N = 3000, K = 5 };
    tree_store *a = ts_create(B, NULL), *b = ts_create(B, NULL), *c = ts_create(B, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    uint8_t s[K][B] = {{0}}, cur[B];
    uint32_t ia, ib, ic;
    ts_insert(a, s[0], SS_NO_PARENT, SS_NO_RULE, &ia);
    ts_insert(b, s[0], SS_NO_PARENT, SS_NO_RULE, &ib);
    ts_insert(c, s[0], SS_NO_PARENT, SS_NO_RULE, &ic);
    uint64_t x = 12345, roots[K];
    bool same = true;
    for (uint32_t i = 0; i < N && i < ts_count(a); i++) {
        ts_load(a, i, cur);
        ts_load(c, i, cur);
        for (int k = 0; k < K; k++) {
            memcpy(s[k], cur, B);
            s[k][next_random(&x) % B] = (uint8_t)(next_random(&x) % 4);
            s[k][next_random(&x) % B] = (uint8_t)(next_random(&x) % 4);
        }
        same = same && ts_roots(c, &s[0][0], B, K, roots) == SS_NEW;
        for (int k = 0; k < K; k++) {
            ss_status sa = ts_insert(a, s[k], i, k, &ia), sb = ts_insert(b, s[k], i, k, &ib);
            ss_status sc = ts_insert_root(c, roots[k], i, k, &ic);
            same = same && sa == sb && ia == ib && sc == sa && ic == ia;
        }
    }
    CU_ASSERT_TRUE(same);
    CU_ASSERT_EQUAL(ts_count(a), ts_count(b));
    CU_ASSERT_EQUAL(ts_count(c), ts_count(b));
    ts_destroy(a);
    ts_destroy(b);
    ts_destroy(c);
}

/* Sharing.  States of 64 bytes (16 words, 15 inner nodes): the left half
 * one of K vectors, the right half one of K, all K*K combinations, so each
 * half-position holds at most K pairs per node and only the root grows
 * with the states.  Hand bound per state, n = K*K = 250,000: the root pair
 * 8 bytes; its table, 2^19 slots (the first power of two with n <= 3/4 of
 * it) of 4 bytes = 2,097,152 / n = 8.39; parent and rule 6; arena chunks
 * rounded up (8 K pairs, 16 K records) at most 65,536 + 98,304 bytes
 * (0.66 a state); the 14 inner nodes below the root's children: 2 * 7
 * sets of at most K pairs (8 bytes, 2 K-slot tables at 4 bytes: 16 KiB
 * each... a 1,024-slot table doubles twice for K = 500) and the 2 children
 * of the root: K^... at most K each too; per set at most one 64 KiB chunk,
 * a 8 KiB table and the 64 KiB memo: 15 * 136 KiB = 2,088,960 bytes
 * (8.36 a state).  Total below 8 + 8.39 + 6 + 0.66 + 8.36 = 31.4 bytes a
 * state, against 64 + 6 + 8.39 = 78.4 for the plain store. */
static void test_tree_sharing(void)
{
    enum { B = 64, K = 500 };
    tree_store *t = ts_create(B, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    uint8_t s[B];
    uint32_t idx;
    bool ok = true;
    for (uint32_t l = 0; l < K; l++) {
        for (uint32_t r = 0; r < K; r++) {
            family_state(s, B / 2, l);
            family_state(s + B / 2, B / 2, r + 1000);
            ok = ok && ts_insert(t, s, SS_NO_PARENT, 0, &idx) == SS_NEW && idx == l * K + r;
        }
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_EQUAL(ts_count(t), K * K);
    double per_state = (double)ts_bytes(t) / (K * K);
    CU_ASSERT(per_state < 31.4);
    /* Only the root grows with the states: K*K root pairs, the rest K each at most. */
    CU_ASSERT(ts_pairs(t) <= (uint64_t)K * K + 14 * K);
    ts_get(t, 7 * K + 9, s);
    uint8_t want[B];
    family_state(want, B / 2, 7);
    family_state(want + B / 2, B / 2, 9 + 1000);
    CU_ASSERT_EQUAL(memcmp(s, want, B), 0);
    ts_destroy(t);
}

/* Limits: the state limit and the memory budget refuse, the count stays,
 * and the store stays usable (finds and reads what it holds). */
static void test_tree_limits(void)
{
    uint8_t s[40], out[40];
    uint32_t idx;
    ss_limits few = {.max_states = 10};
    tree_store *t = ts_create(40, &few);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (uint32_t v = 0; v < 10; v++) {
        family_state(s, 40, v);
        CU_ASSERT_EQUAL(ts_insert(t, s, SS_NO_PARENT, 0, &idx), SS_NEW);
    }
    family_state(s, 40, 10);
    CU_ASSERT_EQUAL(ts_insert(t, s, SS_NO_PARENT, 0, &idx), SS_FULL_STATES);
    family_state(s, 40, 3);
    CU_ASSERT_EQUAL(ts_insert(t, s, SS_NO_PARENT, 0, &idx), SS_OLD);
    CU_ASSERT_EQUAL(idx, 3);
    ts_destroy(t);

    ss_limits budget = {.max_bytes = 3u << 20};
    t = ts_create(40, &budget);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    ss_status st = SS_NEW;
    uint64_t x = 99;
    for (uint32_t v = 0; st == SS_NEW || st == SS_OLD; v++) {
        for (size_t b = 0; b < 40; b++)
            s[b] = (uint8_t)next_random(&x);   /* no sharing: the budget fills */
        st = ts_insert(t, s, SS_NO_PARENT, 0, &idx);
    }
    CU_ASSERT_EQUAL(st, SS_FULL_MEMORY);
    CU_ASSERT(ts_count(t) > 1000);
    CU_ASSERT(ts_peak_bytes(t) <= budget.max_bytes);
    uint32_t before = ts_count(t);
    CU_ASSERT_EQUAL(ts_insert(t, s, SS_NO_PARENT, 0, &idx), SS_FULL_MEMORY);
    CU_ASSERT_EQUAL(ts_count(t), before);
    ts_get(t, before - 1, out);
    CU_ASSERT_TRUE(ts_find(t, out, &idx));
    CU_ASSERT_EQUAL(idx, before - 1);
    ts_destroy(t);
    ss_limits tiny = {.max_bytes = 100};
    CU_ASSERT_PTR_NULL(ts_create(40, &tiny));
    CU_ASSERT_PTR_NULL(ts_create(0, NULL));
}

/* ---- probabilistic stores ---- */

static void test_hash_compact_store(void)
{
    enum { B = 13, N = 20000 };
    prob_store *p = pb_create(PB_HASH_COMPACT, B, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    uint8_t s[B];
    uint32_t idx = 0;
    bool ok = true;
    for (uint32_t v = 0; v < N; v++) {
        family_state(s, B, v);
        ok = ok && pb_insert(p, s, ss_hash(s, B), v ? v - 1 : SS_NO_PARENT, (int)(v % 5), v % 3, &idx) == SS_NEW &&
             idx == v;
    }
    CU_ASSERT_TRUE(ok);
    family_state(s, B, 77);
    idx = 12345678;
    CU_ASSERT_EQUAL(pb_insert(p, s, ss_hash(s, B), 0, 0, 0, &idx), SS_OLD);
    CU_ASSERT_EQUAL(idx, 12345678);   /* no index for an old state */
    CU_ASSERT_EQUAL(pb_count(p), N);
    CU_ASSERT_EQUAL(pb_parent(p, 500), 499);
    CU_ASSERT_EQUAL(pb_rule(p, 500), 0);
    CU_ASSERT_EQUAL(pb_ordinal(p, 500), 2);
    /* The queue keeps every state until released. */
    family_state(s, B, 19999);
    CU_ASSERT_EQUAL(memcmp(pb_queued(p, 19999), s, B), 0);
    size_t before = pb_bytes(p);
    pb_release_below(p, N);
    CU_ASSERT(pb_bytes(p) < before);
    /* The bound: n(n-1)/2 pairs, each colliding with probability 2^-64. */
    double want = (double)N * (N - 1) / 2 / ldexp(1.0, 64);
    CU_ASSERT_DOUBLE_EQUAL(pb_omission(p), want, want * 1e-9);
    pb_destroy(p);

    ss_limits lim = {.max_states = 5};
    p = pb_create(PB_HASH_COMPACT, B, &lim);
    for (uint32_t v = 0; v < 5; v++) {
        family_state(s, B, v);
        CU_ASSERT_EQUAL(pb_insert(p, s, ss_hash(s, B), 0, 0, 0, &idx), SS_NEW);
    }
    family_state(s, B, 5);
    CU_ASSERT_EQUAL(pb_insert(p, s, ss_hash(s, B), 0, 0, 0, &idx), SS_FULL_STATES);
    CU_ASSERT_EQUAL(pb_count(p), 5);
    pb_destroy(p);
    ss_limits tight = {.max_bytes = 1u << 20};
    p = pb_create(PB_HASH_COMPACT, B, &tight);
    ss_status st = SS_NEW;
    for (uint32_t v = 0; st == SS_NEW; v++) {
        family_state(s, B, v);
        st = pb_insert(p, s, ss_hash(s, B), 0, 0, 0, &idx);
    }
    CU_ASSERT_EQUAL(st, SS_FULL_MEMORY);
    CU_ASSERT(pb_peak_bytes(p) <= tight.max_bytes);
    pb_destroy(p);
}

static void test_bitstate_store(void)
{
    enum { B = 16, N = 4000 };
    ss_limits lim = {.max_bytes = 1u << 20};   /* a 512 KiB array: 2^22 bits */
    prob_store *p = pb_create(PB_BITSTATE, B, &lim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(pb_bits(p), (uint64_t)1 << 22);
    uint8_t s[B];
    uint32_t idx, fresh = 0;
    for (uint32_t v = 0; v < N; v++) {
        family_state(s, B, v);
        fresh += pb_insert(p, s, ss_hash(s, B), 0, 0, 0, &idx) == SS_NEW;
    }
    /* 3 bits of 2^22 each, 4000 states: an omission is all but impossible
     * (expected about 4000^4 * 27 / (4 * 2^66) = 2.3e-5). */
    CU_ASSERT_EQUAL(fresh, N);
    family_state(s, B, 10);
    CU_ASSERT_EQUAL(pb_insert(p, s, ss_hash(s, B), 0, 0, 0, &idx), SS_OLD);
    /* The bound: sum over i < n of (1 - e^(-3i/m))^3, summed here. */
    double sum = 0, m = (double)pb_bits(p);
    for (uint32_t i = 0; i < N; i++)
        sum += pow(1 - exp(-3.0 * i / m), 3);
    CU_ASSERT_DOUBLE_EQUAL(pb_omission(p), sum, sum * 0.01);
    pb_destroy(p);

    /* A tiny array saturates: states are missed, never invented. */
    ss_limits small = {.max_bytes = 1024};   /* 512 bytes: 4096 bits */
    p = pb_create(PB_BITSTATE, B, &small);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    fresh = 0;
    for (uint32_t v = 0; v < 3000; v++) {
        family_state(s, B, v);
        ss_status st = pb_insert(p, s, ss_hash(s, B), 0, 0, 0, &idx);
        fresh += st == SS_NEW;
        if (st != SS_NEW && st != SS_OLD)
            break;
    }
    CU_ASSERT(fresh < 3000);
    pb_destroy(p);
}

/* ---- the search through every store ---- */

/* A grid: counters a, b, c in 0..n-1 (bytes 0, 9, 17 of 21); rule r
 * increments counter r; (bad, bad, bad) violates when bad >= 0. */
typedef struct cube {
    int n, bad;
} cube;

static const size_t cube_at[3] = {0, 9, 17};

static void cube_initial(void *ctx, uint8_t *s)
{
    (void)ctx;
    memset(s, 0, 21);
}

static int cube_successors(void *ctx, const uint8_t *s, nsi_emit emit, void *cb)
{
    cube *c = ctx;
    uint8_t next[21];
    int k = 0;
    for (int r = 0; r < 3; r++) {
        if (s[cube_at[r]] + 1 >= c->n)
            continue;
        memcpy(next, s, 21);
        next[cube_at[r]]++;
        emit(cb, next, r);
        k++;
    }
    return k;
}

static const char *cube_violated(void *ctx, const uint8_t *s)
{
    cube *c = ctx;
    return s[0] == c->bad && s[9] == c->bad && s[17] == c->bad ? "corner" : NULL;
}

static nsi_model cube_model(cube *c, int n, int bad)
{
    *c = (cube){n, bad};
    return (nsi_model){.ctx = c, .state_bytes = 21, .nrules = 3, .initial = cube_initial,
                       .successors = cube_successors, .violated = cube_violated};
}

static void test_bfs_every_store(void)
{
    cube c;
    nsi_model m = cube_model(&c, 12, -1);
    bfs_result plain_r;
    bfs_search *plain = bfs_run(&m, NULL, &plain_r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
    CU_ASSERT_EQUAL(plain_r.states, 12 * 12 * 12);
    uint8_t buf[21];
    for (visited_kind k = VISITED_TREE; k <= VISITED_BITSTATE; k++) {
        bfs_options o = {.store = k};
        bfs_result r;
        bfs_search *s = bfs_run(&m, &o, &r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(r.states, plain_r.states);
        CU_ASSERT_EQUAL(r.transitions, plain_r.transitions);
        CU_ASSERT_EQUAL(r.depth, plain_r.depth);
        CU_ASSERT_EQUAL(r.deadlocks, plain_r.deadlocks);
        CU_ASSERT_EQUAL(r.store, k);
        CU_ASSERT_EQUAL(r.probabilistic, vs_kind_probabilistic(k));
        CU_ASSERT_EQUAL(r.complete, !vs_kind_probabilistic(k));
        /* Every state, read back (the probabilistic stores by replay), is
         * the plain store's state of that index. */
        bool same = true;
        for (uint32_t i = 0; i < bfs_count(s); i += 97) {
            const uint8_t *st = bfs_state(s, i, buf);
            same = same && st && memcmp(st, ss_state(bfs_store(plain), i), 21) == 0;
        }
        CU_ASSERT_TRUE(same);
        CU_ASSERT_PTR_NULL(bfs_store(s));
        bfs_free(s);
    }
    bfs_free(plain);
}

/* A violation found through a probabilistic store is real: its trace is
 * the plain store's, and replaying it reaches a violating state. */
static void test_bfs_violation_replayed(void)
{
    cube c;
    nsi_model m = cube_model(&c, 10, 4);
    bfs_result pr;
    bfs_search *plain = bfs_run(&m, NULL, &pr);
    CU_ASSERT_EQUAL_FATAL(pr.stop, BFS_VIOLATION);
    size_t pn = 0;
    bfs_step *pt = bfs_trace(plain, pr.violation_index, &pn);
    for (visited_kind k = VISITED_TREE; k <= VISITED_BITSTATE; k++) {
        bfs_options o = {.store = k};
        bfs_result r;
        bfs_search *s = bfs_run(&m, &o, &r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(r.stop, BFS_VIOLATION);
        CU_ASSERT_EQUAL(r.violation_index, pr.violation_index);
        size_t n = 0;
        bfs_step *t = bfs_trace(s, r.violation_index, &n);
        CU_ASSERT_EQUAL_FATAL(n, pn);
        CU_ASSERT_EQUAL(n, 13);   /* 3 * 4 increments, and the initial state */
        uint8_t *states = bfs_trace_states(s, t, n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(states);
        bool same = true;
        for (size_t i = 0; i < n; i++)
            same = same && t[i].state == pt[i].state && t[i].rule == pt[i].rule;
        CU_ASSERT_TRUE(same);
        CU_ASSERT_STRING_EQUAL(cube_violated(&c, states + (n - 1) * 21), "corner");
        free(states);
        free(t);
        bfs_free(s);
    }
    free(pt);
    bfs_free(plain);
}

static void ignore_edge(void *ctx, uint32_t from, uint32_t to, int rule)
{
    (void)ctx, (void)from, (void)to, (void)rule;
}

/* Limits through the search; on_edge refused with a probabilistic store;
 * the statistics say what the store may have missed. */
static void test_bfs_store_limits_and_stats(void)
{
    cube c;
    nsi_model m = cube_model(&c, 12, -1);
    for (visited_kind k = VISITED_TREE; k <= VISITED_BITSTATE; k++) {
        bfs_options o = {.store = k, .max_states = 100};
        bfs_result r;
        bfs_search *s = bfs_run(&m, &o, &r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(r.stop, BFS_MAX_STATES);
        CU_ASSERT_FALSE(r.complete);
        CU_ASSERT_EQUAL(r.states, 100);
        bfs_free(s);
    }
    bfs_options edges = {.store = VISITED_HASH_COMPACT, .on_edge = ignore_edge};
    bfs_result r;
    CU_ASSERT_PTR_NULL(bfs_run(&m, &edges, &r));
    CU_ASSERT_EQUAL(r.stop, BFS_BAD_MODEL);

    bfs_options hc = {.store = VISITED_HASH_COMPACT};
    bfs_search *s = bfs_run(&m, &hc, &r);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bfs_print_stats(&r, f);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "search: probabilistic"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "probability that a state was missed at most"));
    CU_ASSERT_PTR_NULL(strstr(text, "complete"));
    free(text);
    bfs_free(s);

    visited_kind k;
    CU_ASSERT_TRUE(vs_kind_parse("hash-compact", &k));
    CU_ASSERT_EQUAL(k, VISITED_HASH_COMPACT);
    CU_ASSERT_STRING_EQUAL(vs_kind_name(VISITED_BITSTATE), "bitstate");
    CU_ASSERT_FALSE(vs_kind_parse("lossy", &k));
}

void register_store_tests(void)
{
    CU_pSuite s = CU_add_suite("search stores", NULL, NULL);
    CU_add_test(s, "tree store round trip of random vectors", test_tree_round_trip);
    CU_add_test(s, "tree store incremental inserts", test_tree_incremental);
    CU_add_test(s, "tree store shares sub-vectors (bytes/state bound)", test_tree_sharing);
    CU_add_test(s, "tree store limits refused gracefully", test_tree_limits);
    CU_add_test(s, "hash compaction store and its bound", test_hash_compact_store);
    CU_add_test(s, "bit-state store and its bound", test_bitstate_store);
    CU_add_test(s, "bfs through every store: same counts and states", test_bfs_every_store);
    CU_add_test(s, "bfs violation through every store: same trace, replayed", test_bfs_violation_replayed);
    CU_add_test(s, "bfs store limits, on_edge refusal, statistics", test_bfs_store_limits_and_stats);
}
