/* test_explain.c: unit tests of cat/explain.h (what a drawing shows of an
 * execution: the model's `show` relations and its first failed check).
 * Every expected pair below is derived by hand from the execution built. */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "cat/explain.h"
#include "exec_build.h"
#include "unit_suites.h"

/* SB: 0 init x, 1 init y; P0: 2 W x=1, 3 R y (reads 1, the init);
 * P1: 4 W y=1, 5 R x (reads 0, the init).  Both reads read the initial
 * value, so fr = {3->4, 5->2}: the forbidden outcome of SB. */
static exec sb(void)
{
    exec x;
    tx_init(&x);
    x.n = 6;
    *tx_set(&x, XS_W) = evword_bit(0) | evword_bit(1) | evword_bit(2) | evword_bit(4);
    *tx_set(&x, XS_IW) = evword_bit(0) | evword_bit(1);
    *tx_set(&x, XS_R) = evword_bit(3) | evword_bit(5);
    *tx_set(&x, XS_M) = *tx_set(&x, XS_W) | *tx_set(&x, XS_R);
    tx_add(&x, XR_PO, 2, 3);
    tx_add(&x, XR_PO, 4, 5);
    tx_add(&x, XR_RF, 1, 3);
    tx_add(&x, XR_RF, 0, 5);
    tx_add(&x, XR_CO, 0, 2);
    tx_add(&x, XR_CO, 1, 4);
    tx_add(&x, XR_FR, 3, 4);
    tx_add(&x, XR_FR, 5, 2);
    return x;
}

static cat_explainer *explainer(const char *text)
{
    cat_model *m = cat_load_string("t.cat", text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    cat_explainer *e = cat_explainer_new(m, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    return e;
}

/* The pairs of r, as a sorted list "a>b a>b" of event numbers. */
static const char *pairs(const relation *r, int n)
{
    char *s = GC_MALLOC_ATOMIC(1024);
    s[0] = '\0';
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (rel_has(r, a, b, n))
                snprintf(s + strlen(s), 1024 - strlen(s), "%s%d>%d", s[0] ? " " : "", a, b);
    return s;
}

static void test_shows_and_failed_cycle(void)
{
    exec x = sb();
    cat_explainer *e = explainer("let hb = po | rf | co | fr\n"
                                 "show po;fr as pofr\n"
                                 "show rf, co\n"
                                 "acyclic hb as sc\n");
    const cat_explained *it;
    const char *other;
    int k = cat_explain(e, &x, &it, &other);
    CU_ASSERT_EQUAL_FATAL(k, 4);
    CU_ASSERT_PTR_NULL(other);
    CU_ASSERT_EQUAL(it[0].kind, CAT_SHOWN);
    CU_ASSERT_STRING_EQUAL(it[0].name, "pofr");
    /* po;fr: 2 po 3 fr 4, 4 po 5 fr 2 */
    CU_ASSERT_STRING_EQUAL(pairs(it[0].rel, 6), "2>4 4>2");
    CU_ASSERT_STRING_EQUAL(it[1].name, "rf");
    CU_ASSERT_STRING_EQUAL(pairs(it[1].rel, 6), "0>5 1>3");
    CU_ASSERT_STRING_EQUAL(it[2].name, "co");
    CU_ASSERT_STRING_EQUAL(pairs(it[2].rel, 6), "0>2 1>4");
    /* hb is the union of the four: the cycle 2 po 3 fr 4 po 5 fr 2 */
    CU_ASSERT_EQUAL(it[3].kind, CAT_FAILED_ACYCLIC);
    CU_ASSERT_STRING_EQUAL(it[3].name, "sc");
    CU_ASSERT_STRING_EQUAL(pairs(it[3].rel, 6), "0>2 0>5 1>3 1>4 2>3 3>4 4>5 5>2");
}

static void test_first_failed_check(void)
{
    exec x = sb();
    /* the first check holds (po is acyclic); the second fails on 2 and 4
     * (po;fr relates each to the other, so (po;fr)+ relates each to
     * itself); the third would fail too but comes later */
    cat_explainer *e = explainer("acyclic po as first\n"
                                 "irreflexive (po;fr)+ as loop\n"
                                 "empty rf as norf\n");
    const cat_explained *it;
    int k = cat_explain(e, &x, &it, NULL);
    CU_ASSERT_EQUAL_FATAL(k, 1);
    CU_ASSERT_EQUAL(it[0].kind, CAT_FAILED_IRREFLEXIVE);
    CU_ASSERT_STRING_EQUAL(it[0].name, "loop");
    CU_ASSERT_STRING_EQUAL(pairs(it[0].rel, 6), "2>2 2>4 4>2 4>4");
    /* empty: the pairs; a fused check (empty a & b) keeps its operand */
    e = explainer("empty rf & (IW * R) as init-reads\n");
    k = cat_explain(e, &x, &it, NULL);
    CU_ASSERT_EQUAL_FATAL(k, 1);
    CU_ASSERT_EQUAL(it[0].kind, CAT_FAILED_EMPTY);
    CU_ASSERT_STRING_EQUAL(pairs(it[0].rel, 6), "0>5 1>3");
    /* a set */
    e = explainer("empty R \\ range(rf) as unread\nempty R as noreads\n");
    k = cat_explain(e, &x, &it, NULL);
    CU_ASSERT_EQUAL_FATAL(k, 1);
    CU_ASSERT_PTR_NULL(it[0].rel);
    CU_ASSERT_PTR_NOT_NULL_FATAL(it[0].set);
    CU_ASSERT_STRING_EQUAL(it[0].name, "noreads");
    CU_ASSERT_EQUAL(it[0].set[0], evword_bit(3) | evword_bit(5));
    /* a negated check fails with nothing to draw */
    e = explainer("~empty co & po as needs-po-co\n");
    k = cat_explain(e, &x, &it, NULL);
    CU_ASSERT_EQUAL_FATAL(k, 1);
    CU_ASSERT_EQUAL(it[0].kind, CAT_FAILED_NONEMPTY);
}

static void test_consistent_and_flags(void)
{
    exec x = sb();
    /* a flag that is raised is no failure; a passing check none either */
    cat_explainer *e = explainer("flag ~empty rf as reads\nacyclic po as ok\nshow fr\n");
    const cat_explained *it;
    int k = cat_explain(e, &x, &it, NULL);
    CU_ASSERT_EQUAL_FATAL(k, 1);
    CU_ASSERT_EQUAL(it[0].kind, CAT_SHOWN);
    CU_ASSERT_STRING_EQUAL(pairs(it[0].rel, 6), "3>4 5>2");
}

static void test_checking_ignores_shows(void)
{
    exec x = sb();
    /* the checking model never evaluates a show: its verdict is the same
     * with or without one, and a show of an unknown name is an error only
     * when the model is compiled for drawing */
    cat_model *m = cat_load_string("t.cat", "show nosuch\nacyclic po\n", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT(cat_check(m, cat_workspace_new(m), &x).consistent);
    char *buf = NULL;
    size_t len = 0;
    FILE *errs = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NULL(cat_explainer_new(m, errs));
    fclose(errs);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "t.cat:1:6: error:"));
    free(buf);
    /* unshow is parsed and ignored; `show a as b` needs a name after as */
    CU_ASSERT_PTR_NOT_NULL(cat_load_string("t.cat", "unshow po\nacyclic po\n", stderr));
    errs = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NULL(cat_load_string("t.cat", "show po as\n", errs));
    fclose(errs);
    free(buf);
}

void register_cat_explain_tests(void)
{
    CU_pSuite s = CU_add_suite("cat explain", NULL, NULL);
    CU_add_test(s, "shows and a failed acyclic check", test_shows_and_failed_cycle);
    CU_add_test(s, "the first failed check, by kind", test_first_failed_check);
    CU_add_test(s, "consistent: only shows", test_consistent_and_flags);
    CU_add_test(s, "the checking model ignores shows", test_checking_ignores_shows);
}
