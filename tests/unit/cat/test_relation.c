/* test_relation.c: unit tests of the bit-matrix relation algebra. */
#include <CUnit/CUnit.h>

#include "cat/relation.h"
#include "unit_suites.h"

/* A relation from a list of pairs {from, to}, ended by {-1, -1}. */
static relation make(int n, const int (*pairs)[2])
{
    relation r;
    rel_clear(&r, n);
    for (; pairs[0][0] >= 0; pairs++)
        rel_add(&r, pairs[0][0], pairs[0][1]);
    return r;
}

static void test_seq(void)
{
    const int ap[][2] = {{0, 1}, {1, 2}, {-1, -1}};
    const int bp[][2] = {{1, 3}, {2, 0}, {-1, -1}};
    relation a = make(4, ap), b = make(4, bp), out;
    rel_seq(&out, &a, &b, 4);
    const int want_p[][2] = {{0, 3}, {1, 0}, {-1, -1}};
    relation want = make(4, want_p);
    CU_ASSERT(rel_equal(&out, &want, 4));
    rel_seq(&a, &a, &b, 4); /* aliasing */
    CU_ASSERT(rel_equal(&a, &want, 4));
}

static void test_inverse(void)
{
    const int ap[][2] = {{0, 1}, {0, 2}, {3, 0}, {-1, -1}};
    relation a = make(4, ap), out;
    rel_inverse(&out, &a, 4);
    CU_ASSERT(rel_has(&out, 1, 0) && rel_has(&out, 2, 0) && rel_has(&out, 0, 3));
    CU_ASSERT(!rel_has(&out, 0, 1));
    rel_inverse(&a, &a, 4);
    CU_ASSERT(rel_equal(&a, &out, 4));
}

static void test_closures(void)
{
    const int ap[][2] = {{0, 1}, {1, 2}, {2, 3}, {-1, -1}};
    relation a = make(5, ap), plus, star, opt;
    rel_plus(&plus, &a, 5);
    CU_ASSERT(rel_has(&plus, 0, 3) && rel_has(&plus, 1, 3) && rel_has(&plus, 0, 1));
    CU_ASSERT(!rel_has(&plus, 0, 0) && !rel_has(&plus, 3, 0) && !rel_has(&plus, 4, 4));
    evset all = evset_universe(5);
    rel_star(&star, &a, all, 5);
    CU_ASSERT(rel_has(&star, 4, 4) && rel_has(&star, 0, 0) && rel_has(&star, 0, 3));
    rel_opt(&opt, &a, all, 5);
    CU_ASSERT(rel_has(&opt, 2, 2) && rel_has(&opt, 0, 1) && !rel_has(&opt, 0, 2));
    /* cycle: plus is reflexive on it */
    const int cp[][2] = {{0, 1}, {1, 0}, {-1, -1}};
    relation cyc = make(2, cp);
    rel_plus(&cyc, &cyc, 2);
    CU_ASSERT(rel_has(&cyc, 0, 0) && rel_has(&cyc, 1, 1));
}

static void test_sets_and_products(void)
{
    relation out;
    evset s = evset_of(0) | evset_of(2), t = evset_of(1);
    rel_cartesian(&out, s, t, 3);
    CU_ASSERT(rel_has(&out, 0, 1) && rel_has(&out, 2, 1));
    CU_ASSERT(!rel_has(&out, 1, 1) && !rel_has(&out, 0, 0));
    rel_identity(&out, s, 3);
    CU_ASSERT(rel_has(&out, 0, 0) && rel_has(&out, 2, 2) && !rel_has(&out, 1, 1));
    CU_ASSERT_EQUAL(rel_domain(&out, 3), s);
    CU_ASSERT_EQUAL(rel_range(&out, 3), s);
}

static void test_restrict_and_boolean(void)
{
    const int ap[][2] = {{0, 1}, {1, 2}, {2, 0}, {-1, -1}};
    const int bp[][2] = {{0, 1}, {2, 1}, {-1, -1}};
    relation a = make(3, ap), b = make(3, bp), out;
    rel_restrict(&out, &a, evset_of(0) | evset_of(1), evset_of(1), 3);
    CU_ASSERT(rel_has(&out, 0, 1) && !rel_has(&out, 1, 2) && !rel_has(&out, 2, 0));
    rel_union(&out, &a, &b, 3);
    CU_ASSERT(rel_has(&out, 2, 1) && rel_has(&out, 1, 2));
    rel_inter(&out, &a, &b, 3);
    CU_ASSERT(rel_has(&out, 0, 1) && !rel_has(&out, 2, 1) && !rel_has(&out, 1, 2));
    rel_diff(&out, &a, &b, 3);
    CU_ASSERT(!rel_has(&out, 0, 1) && rel_has(&out, 1, 2) && rel_has(&out, 2, 0));
    rel_complement(&out, &a, evset_of(0) | evset_of(1), 3);
    CU_ASSERT(rel_has(&out, 0, 0) && rel_has(&out, 1, 0) && !rel_has(&out, 0, 1));
    CU_ASSERT(!rel_has(&out, 2, 2) && !rel_has(&out, 0, 2));
}

static void test_predicates(void)
{
    const int lp[][2] = {{0, 1}, {1, 2}, {0, 2}, {-1, -1}};
    const int cp[][2] = {{0, 1}, {1, 2}, {2, 0}, {-1, -1}};
    const int sp[][2] = {{1, 1}, {-1, -1}};
    const int none[][2] = {{-1, -1}};
    relation line = make(3, lp), cyc = make(3, cp), self = make(3, sp), empty = make(3, none);
    CU_ASSERT(rel_is_acyclic(&line, 3));
    CU_ASSERT(!rel_is_acyclic(&cyc, 3));
    CU_ASSERT(!rel_is_acyclic(&self, 3));
    CU_ASSERT(rel_is_irreflexive(&cyc, 3));
    CU_ASSERT(!rel_is_irreflexive(&self, 3));
    CU_ASSERT(rel_is_empty(&empty, 3) && !rel_is_empty(&line, 3));
    CU_ASSERT(rel_is_acyclic(&empty, 0));
}

static void test_rows_beyond_n_untouched(void)
{
    relation r;
    for (int i = 0; i < REL_MAX_EVENTS; i++)
        r.row[i] = 0xdead;
    rel_clear(&r, 3);
    rel_star(&r, &r, evset_universe(3), 3);
    CU_ASSERT_EQUAL(r.row[3], 0xdead);
    CU_ASSERT_EQUAL(r.row[63], 0xdead);
    CU_ASSERT(rel_has(&r, 2, 2));
}

/* The row operations go two rows at a time with a lone last row: check
 * them against one row at a time, for odd and even n, in place, and that
 * rows from n on stay as they were. */
static void test_paired_rows(void)
{
    uint64_t seed = 12345;
    for (int n = 1; n <= 9; n++) {
        relation a, b, out;
        for (int i = 0; i < REL_MAX_EVENTS; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            a.row[i] = seed;
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            b.row[i] = seed ^ a.row[i];
            out.row[i] = 0xdead;
        }
        rel_union(&out, &a, &b, n);
        for (int i = 0; i < n; i++)
            CU_ASSERT_EQUAL(out.row[i], a.row[i] | b.row[i]);
        CU_ASSERT_EQUAL(out.row[n], 0xdead);
        rel_inter(&out, &a, &b, n);
        for (int i = 0; i < n; i++)
            CU_ASSERT_EQUAL(out.row[i], a.row[i] & b.row[i]);
        relation in_place = a;
        rel_diff(&in_place, &in_place, &b, n);
        for (int i = 0; i < n; i++)
            CU_ASSERT_EQUAL(in_place.row[i], a.row[i] & ~b.row[i]);
        CU_ASSERT_EQUAL(in_place.row[n], a.row[n]);
        relation seq_b = b, seq_ab;
        rel_seq(&seq_ab, &a, &b, n);
        rel_seq(&seq_b, &a, &seq_b, n); /* out aliases b */
        CU_ASSERT(rel_equal(&seq_b, &seq_ab, n));
    }
}

static void test_64_events(void)
{
    relation r;
    rel_clear(&r, 64);
    for (int i = 0; i < 63; i++)
        rel_add(&r, i, i + 1);
    CU_ASSERT(rel_is_acyclic(&r, 64));
    relation p;
    rel_plus(&p, &r, 64);
    CU_ASSERT(rel_has(&p, 0, 63));
    CU_ASSERT_EQUAL(evset_universe(64), ~(evset)0);
    rel_add(&r, 63, 0);
    CU_ASSERT(!rel_is_acyclic(&r, 64));
}

void register_relation_tests(void)
{
    CU_pSuite s = CU_add_suite("relation", NULL, NULL);
    CU_add_test(s, "seq", test_seq);
    CU_add_test(s, "inverse", test_inverse);
    CU_add_test(s, "plus/star/opt", test_closures);
    CU_add_test(s, "cartesian/identity/domain/range", test_sets_and_products);
    CU_add_test(s, "restrict/union/inter/diff/complement", test_restrict_and_boolean);
    CU_add_test(s, "acyclic/irreflexive/empty", test_predicates);
    CU_add_test(s, "rows beyond n untouched", test_rows_beyond_n_untouched);
    CU_add_test(s, "paired row operations", test_paired_rows);
    CU_add_test(s, "64 events", test_64_events);
}
