/*
 * test_relation.c: unit tests of the bit-matrix relation algebra.
 *
 * Every operation is checked against a second path: a plain matrix of
 * booleans with textbook loops (naive_*), on random relations and sets of
 * 1 to 300 events, which covers the one-word code (up to 64 events), the
 * wide code (65 and more), and the edges between words (63, 64, 65, 127,
 * 128, 129).  The wide code is also checked against the one-word code on
 * the same relation: a relation of up to 64 events embedded among more
 * events that touch nothing must give the same pairs.
 */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cat/relation.h"
#include "unit_suites.h"

/* ---- the second path: boolean matrices ---- */

typedef struct naive {
    int n;
    bool *m;   /* n*n: m[i*n+j] when (i, j) is in the relation */
} naive;

static naive naive_new(int n)
{
    naive r = {n, GC_MALLOC_ATOMIC((size_t)(n > 0 ? n * n : 1))};
    memset(r.m, 0, (size_t)(n * n));
    return r;
}

static bool nh(const naive *r, int i, int j) { return r->m[i * r->n + j]; }
static void nset(naive *r, int i, int j, bool v) { r->m[i * r->n + j] = v; }

static naive naive_seq(const naive *a, const naive *b)
{
    naive r = naive_new(a->n);
    for (int i = 0; i < a->n; i++)
        for (int k = 0; k < a->n; k++)
            if (nh(a, i, k))
                for (int j = 0; j < a->n; j++)
                    if (nh(b, k, j))
                        nset(&r, i, j, true);
    return r;
}

/* Transitive closure by a search from each event (the library uses
 * Warshall's algorithm on rows: a different way). */
static naive naive_plus(const naive *a)
{
    int n = a->n;
    naive r = naive_new(n);
    int *stack = GC_MALLOC_ATOMIC(sizeof *stack * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        int top = 0;
        for (int j = 0; j < n; j++)
            if (nh(a, i, j) && !nh(&r, i, j)) {
                nset(&r, i, j, true);
                stack[top++] = j;
            }
        while (top) {
            int k = stack[--top];
            for (int j = 0; j < n; j++)
                if (nh(a, k, j) && !nh(&r, i, j)) {
                    nset(&r, i, j, true);
                    stack[top++] = j;
                }
        }
    }
    return r;
}

static bool naive_acyclic(const naive *a)
{
    naive p = naive_plus(a);
    for (int i = 0; i < a->n; i++)
        if (nh(&p, i, i))
            return false;
    return true;
}

/* ---- random relations and sets ---- */

static uint64_t rnd_state = 0x2545f4914f6cdd1du;

static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

/* Each pair with probability 1/inv_density. */
static naive naive_random(int n, int inv_density)
{
    naive r = naive_new(n);
    for (int i = 0; i < n * n; i++)
        r.m[i] = rnd() % (uint64_t)inv_density == 0;
    return r;
}

static relation *rel_new(int n)
{
    relation *r = GC_MALLOC_ATOMIC(rel_bytes(n));
    memset(r, 0, rel_bytes(n));
    return r;
}

static relation *from_naive(const naive *a)
{
    relation *r = rel_new(a->n);
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < a->n; j++)
            if (nh(a, i, j))
                rel_add(r, i, j, a->n);
    return r;
}

static bool same(const relation *r, const naive *a)
{
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < a->n; j++)
            if (rel_has(r, i, j, a->n) != nh(a, i, j))
                return false;
    return true;
}

static evword *random_set(int n, bool *members)
{
    evword *s = GC_MALLOC_ATOMIC(sizeof *s * (size_t)rel_words(n));
    set_clear(s, n);
    for (int i = 0; i < n; i++) {
        members[i] = rnd() % 3 != 0;
        if (members[i])
            set_add(s, i);
    }
    return s;
}

/* ---- every operation on random input, against the second path ---- */

static void check_boolean_ops(int n, const naive *a, const naive *b)
{
    relation *ra = from_naive(a), *rb = from_naive(b), *out = rel_new(n);
    naive want = naive_new(n);
    rel_union(out, ra, rb, n);
    for (int i = 0; i < n * n; i++)
        want.m[i] = a->m[i] || b->m[i];
    CU_ASSERT(same(out, &want));
    rel_inter(out, ra, rb, n);
    for (int i = 0; i < n * n; i++)
        want.m[i] = a->m[i] && b->m[i];
    CU_ASSERT(same(out, &want));
    CU_ASSERT_EQUAL(rel_meet_is_empty(ra, rb, false, n), rel_is_empty(out, n));
    rel_diff(out, ra, rb, n);
    for (int i = 0; i < n * n; i++)
        want.m[i] = a->m[i] && !b->m[i];
    CU_ASSERT(same(out, &want));
    CU_ASSERT_EQUAL(rel_meet_is_empty(ra, rb, true, n), rel_is_empty(out, n));
    /* in place */
    rel_copy(out, ra, n);
    rel_diff(out, out, rb, n);
    CU_ASSERT(same(out, &want));
    CU_ASSERT(rel_equal(ra, ra, n));
    rel_copy(out, ra, n);
    CU_ASSERT(rel_equal(out, ra, n));
}

static void check_seq_inverse(int n, const naive *a, const naive *b)
{
    relation *ra = from_naive(a), *rb = from_naive(b), *out = rel_new(n);
    naive want = naive_seq(a, b);
    rel_seq(out, ra, rb, n);
    CU_ASSERT(same(out, &want));
    /* out may be a */
    relation *in_place = from_naive(a);
    rel_seq(in_place, in_place, rb, n);
    CU_ASSERT(same(in_place, &want));
    bool irreflexive = true;
    for (int i = 0; i < n; i++)
        irreflexive &= !nh(&want, i, i);
    CU_ASSERT_EQUAL(rel_seq_is_irreflexive(ra, rb, n), irreflexive);
    rel_inverse(out, ra, n);
    naive inv = naive_new(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            nset(&inv, i, j, nh(a, j, i));
    CU_ASSERT(same(out, &inv));
}

static void check_closures(int n, const naive *a)
{
    bool *members = GC_MALLOC_ATOMIC((size_t)n);
    evword *universe = random_set(n, members);
    relation *ra = from_naive(a), *out = rel_new(n);
    naive plus = naive_plus(a);
    rel_plus(out, ra, n);
    CU_ASSERT(same(out, &plus));
    rel_copy(out, ra, n);
    rel_plus(out, out, n);
    CU_ASSERT(same(out, &plus));
    rel_star(out, ra, universe, n);
    for (int i = 0; i < n; i++)
        if (members[i])
            nset(&plus, i, i, true);
    CU_ASSERT(same(out, &plus));
    rel_opt(out, ra, universe, n);
    naive opt = naive_new(n);
    memcpy(opt.m, a->m, (size_t)(n * n));
    for (int i = 0; i < n; i++)
        if (members[i])
            nset(&opt, i, i, true);
    CU_ASSERT(same(out, &opt));
    CU_ASSERT_EQUAL(rel_is_acyclic(ra, n), naive_acyclic(a));
    bool irreflexive = true;
    for (int i = 0; i < n; i++)
        irreflexive &= !nh(a, i, i);
    CU_ASSERT_EQUAL(rel_is_irreflexive(ra, n), irreflexive);
}

static void check_set_ops(int n, const naive *a)
{
    bool *in_s = GC_MALLOC_ATOMIC((size_t)n), *in_t = GC_MALLOC_ATOMIC((size_t)n);
    evword *s = random_set(n, in_s), *t = random_set(n, in_t);
    relation *ra = from_naive(a), *out = rel_new(n);
    naive want = naive_new(n);
    rel_identity(out, s, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            nset(&want, i, j, i == j && in_s[i]);
    CU_ASSERT(same(out, &want));
    rel_cartesian(out, s, t, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            nset(&want, i, j, in_s[i] && in_t[j]);
    CU_ASSERT(same(out, &want));
    rel_restrict(out, ra, s, t, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            nset(&want, i, j, in_s[i] && nh(a, i, j) && in_t[j]);
    CU_ASSERT(same(out, &want));
    rel_complement(out, ra, s, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            nset(&want, i, j, in_s[i] && in_s[j] && !nh(a, i, j));
    CU_ASSERT(same(out, &want));
    evword *dom = GC_MALLOC_ATOMIC(sizeof *dom * (size_t)rel_words(n));
    evword *ran = GC_MALLOC_ATOMIC(sizeof *ran * (size_t)rel_words(n));
    rel_domain(dom, ra, n);
    rel_range(ran, ra, n);
    for (int i = 0; i < n; i++) {
        bool d = false, r = false;
        for (int j = 0; j < n; j++) {
            d |= nh(a, i, j);
            r |= nh(a, j, i);
        }
        CU_ASSERT_EQUAL(set_has(dom, i), d);
        CU_ASSERT_EQUAL(set_has(ran, i), r);
    }
    /* set_next visits exactly the members, in order */
    int last = -1, count = 0, expected = 0;
    for (int e = set_next(s, 0, n); e >= 0; e = set_next(s, e + 1, n)) {
        CU_ASSERT(e > last && in_s[e]);
        last = e;
        count++;
    }
    for (int i = 0; i < n; i++)
        expected += in_s[i];
    CU_ASSERT_EQUAL(count, expected);
}

static const int sizes[] = {1, 2, 3, 5, 17, 31, 63, 64, 65, 66, 100, 127, 128, 129, 200, 300};

static void test_random_against_naive(void)
{
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        int rounds = n <= 64 ? 6 : 2;
        for (int round = 0; round < rounds; round++) {
            /* dense, sparse, and very sparse (acyclic more often) */
            int density = round % 3 == 0 ? 3 : round % 3 == 1 ? n / 2 + 2 : 4 * n;
            naive a = naive_random(n, density), b = naive_random(n, density);
            check_boolean_ops(n, &a, &b);
            check_seq_inverse(n, &a, &b);
            check_closures(n, &a);
            check_set_ops(n, &a);
        }
    }
}

/* A chain 0 -> 1 -> ... -> n-1: acyclic, its closure relates 0 to n-1;
 * closing it into a ring makes a cycle.  Sizes across word edges. */
static void test_chains(void)
{
    static const int chain_sizes[] = {2, 63, 64, 65, 128, 129, 300};
    for (size_t k = 0; k < sizeof chain_sizes / sizeof *chain_sizes; k++) {
        int n = chain_sizes[k];
        relation *r = rel_new(n), *p = rel_new(n);
        for (int i = 0; i + 1 < n; i++)
            rel_add(r, i, i + 1, n);
        CU_ASSERT(rel_is_acyclic(r, n));
        rel_plus(p, r, n);
        CU_ASSERT(rel_has(p, 0, n - 1, n));
        CU_ASSERT(!rel_has(p, n - 1, 0, n));
        CU_ASSERT(rel_is_irreflexive(p, n));
        rel_add(r, n - 1, 0, n);
        CU_ASSERT(!rel_is_acyclic(r, n));
        rel_plus(p, r, n);
        CU_ASSERT(!rel_is_irreflexive(p, n));
    }
}

/* The wide code against the one-word code: relation a of n <= 64 events,
 * embedded in an execution of n + extra events (the extra ones related to
 * nothing), gives the same pairs among the first n events. */
static relation *embed(const relation *a, int n, int wide)
{
    relation *r = rel_new(wide);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (rel_has(a, i, j, n))
                rel_add(r, i, j, wide);
    return r;
}

static bool same_embedded(const relation *narrow, int n, const relation *wide_rel, int wide)
{
    for (int i = 0; i < wide; i++)
        for (int j = 0; j < wide; j++) {
            bool want = i < n && j < n && rel_has(narrow, i, j, n);
            if (rel_has(wide_rel, i, j, wide) != want)
                return false;
        }
    return true;
}

static void test_wide_against_narrow(void)
{
    for (int n = 1; n <= 64; n += 7) {
        int wide = n + 70;
        naive na = naive_random(n, 4), nb = naive_random(n, 4);
        relation *a = from_naive(&na), *b = from_naive(&nb);
        relation *wa = embed(a, n, wide), *wb = embed(b, n, wide);
        relation *out = rel_new(n), *wout = rel_new(wide);
        rel_seq(out, a, b, n);
        rel_seq(wout, wa, wb, wide);
        CU_ASSERT(same_embedded(out, n, wout, wide));
        rel_inverse(out, a, n);
        rel_inverse(wout, wa, wide);
        CU_ASSERT(same_embedded(out, n, wout, wide));
        rel_plus(out, a, n);
        rel_plus(wout, wa, wide);
        CU_ASSERT(same_embedded(out, n, wout, wide));
        CU_ASSERT_EQUAL(rel_is_acyclic(a, n), rel_is_acyclic(wa, wide));
        CU_ASSERT_EQUAL(rel_is_irreflexive(a, n), rel_is_irreflexive(wa, wide));
        CU_ASSERT_EQUAL(rel_seq_is_irreflexive(a, b, n), rel_seq_is_irreflexive(wa, wb, wide));
        /* sets: the first n events, both ways */
        evword s[1], ws[REL_MAX_WORDS];
        set_universe(s, n);
        set_first(ws, n, wide);
        rel_restrict(out, a, s, s, n);
        rel_restrict(wout, wa, ws, ws, wide);
        CU_ASSERT(same_embedded(out, n, wout, wide));
        rel_star(out, a, s, n);
        rel_star(wout, wa, ws, wide);
        CU_ASSERT(same_embedded(out, n, wout, wide));
        rel_complement(out, a, s, n);
        rel_complement(wout, wa, ws, wide);
        CU_ASSERT(same_embedded(out, n, wout, wide));
    }
}

/* Storage past the n rows of an operation's result is left as it was. */
static void test_storage_beyond_n_untouched(void)
{
    for (int n = 3; n <= 130; n += 127) {
        int cap = n + 64;
        relation *r = rel_new(cap);
        evword *w = (evword *)r;
        size_t total = (size_t)cap * (size_t)rel_words(cap), used = (size_t)n * (size_t)rel_words(n);
        for (size_t i = 0; i < total; i++)
            w[i] = 0xdead;
        evword universe[REL_MAX_WORDS];
        set_universe(universe, n);
        rel_clear(r, n);
        rel_star(r, r, universe, n);
        for (size_t i = used; i < total; i++)
            CU_ASSERT_EQUAL(w[i], 0xdead);
        CU_ASSERT(rel_has(r, n - 1, n - 1, n));
        CU_ASSERT(!rel_has(r, 0, 1, n));
    }
}

/* Sets of every size: the universe has exactly n members, and no bit
 * beyond n in its last word (operations rely on clean words). */
static void test_set_basics(void)
{
    for (int n = 0; n <= 200; n++) {
        evword s[REL_MAX_WORDS];
        set_universe(s, n);
        int count = 0;
        for (int e = set_next(s, 0, n); e >= 0; e = set_next(s, e + 1, n))
            count++;
        CU_ASSERT_EQUAL(count, n);
        if (n % 64)
            CU_ASSERT_EQUAL(s[n / 64] >> (n % 64), 0);
        if (n > 0) {
            set_remove(s, n - 1);
            CU_ASSERT(!set_has(s, n - 1));
            CU_ASSERT(n == 1 || set_has(s, n - 2));
        }
    }
    CU_ASSERT_EQUAL(rel_words(64), 1);
    CU_ASSERT_EQUAL(rel_words(65), 2);
    CU_ASSERT_EQUAL(rel_words(REL_MAX_EVENTS), REL_MAX_WORDS);
}

void register_relation_tests(void)
{
    CU_pSuite s = CU_add_suite("relation", NULL, NULL);
    CU_add_test(s, "every operation against boolean matrices, 1..300 events", test_random_against_naive);
    CU_add_test(s, "chains and rings across word edges", test_chains);
    CU_add_test(s, "wide code against one-word code", test_wide_against_narrow);
    CU_add_test(s, "storage beyond n untouched", test_storage_beyond_n_untouched);
    CU_add_test(s, "sets of every size", test_set_basics);
}
