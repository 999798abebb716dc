/* test_report.c: herd7's verdict rule and the printed forms of a final
 * state.  Expected values follow herd7's definitions: `exists p` is Ok when
 * some execution satisfies p (positive > 0), `~exists p` when none does,
 * `forall p` when every execution does (negative == 0). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/read.h"
#include "report/report.h"
#include "report/status.h"
#include "unit_suites.h"

static litmus_test *parse(const char *text)
{
    return litmus_parse_text("t.litmus", text, strlen(text), stderr);
}

static const char mp[] =
    "PTX MP\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1   | ld.weak r0, y  ;\n"
    " st.weak y, 1   | ld.weak r1, x  ;\n"
    "exists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ x == 1)\n";

static void test_verdict_rule(void)
{
    litmus_test *t = parse(mp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    check_result r;
    memset(&r, 0, sizeof r);
    struct { enum lit_quantifier q; uint64_t pos, neg; bool ok; } cases[] = {
        { QUANT_EXISTS, 0, 4, false },     { QUANT_EXISTS, 1, 3, true },
        { QUANT_NOT_EXISTS, 0, 4, true },  { QUANT_NOT_EXISTS, 2, 2, false },
        { QUANT_FORALL, 4, 0, true },      { QUANT_FORALL, 3, 1, false },
        { QUANT_FORALL, 0, 0, true },      /* no execution at all: vacuous, as herd */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t->quant = cases[i].q;
        r.positive = cases[i].pos;
        r.negative = cases[i].neg;
        CU_ASSERT_EQUAL(report_condition_ok(t, &r), cases[i].ok);
    }
}

/* With executions left unchecked (a limit, an execution too large), a
 * verdict stands only if what was found settles it: one positive
 * execution settles exists (Ok) and ~exists (No), one negative settles
 * forall (No); otherwise it is Unknown. */
static void test_unknown_unless_settled(void)
{
    litmus_test *t = parse(mp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    check_result r;
    memset(&r, 0, sizeof r);
    struct { enum lit_quantifier q; uint64_t pos, neg; const char *want; } cases[] = {
        { QUANT_EXISTS, 1, 0, "Ok" },      { QUANT_EXISTS, 0, 5, "Unknown" },
        { QUANT_NOT_EXISTS, 1, 0, "No" },  { QUANT_NOT_EXISTS, 0, 5, "Unknown" },
        { QUANT_FORALL, 3, 1, "No" },      { QUANT_FORALL, 3, 0, "Unknown" },
    };
    bool *cuts[] = {&r.too_big, &r.timed_out, &r.out_of_memory, &r.writes_cut, &r.barriers_cut,
                    &r.values_cut, &r.undecided, &r.paths_cut};
    for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
        *cuts[c] = true;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            t->quant = cases[i].q;
            r.positive = cases[i].pos;
            r.negative = cases[i].neg;
            CU_ASSERT_STRING_EQUAL(report_verdict(t, &r, NULL), cases[i].want);
            CU_ASSERT_PTR_NOT_NULL(enumerate_incomplete(&r));
        }
        *cuts[c] = false;
    }
    /* the loop bound alone: the verdict within the bound (herd7's "Loop
     * Ok"), which stands beyond it only when a witness settles it */
    r.unroll_cut = true;
    t->quant = QUANT_FORALL;
    r.positive = 3;
    r.negative = 0;
    CU_ASSERT_STRING_EQUAL(report_verdict(t, &r, NULL), "Ok");
    CU_ASSERT_PTR_NULL(enumerate_incomplete(&r));
    CU_ASSERT_STRING_EQUAL(report_incomplete(&r), "loop-bound");
    CU_ASSERT_FALSE(report_established(t, &r, NULL));
    t->quant = QUANT_EXISTS;
    CU_ASSERT_TRUE(report_established(t, &r, NULL));
}

/* Run report_herd into a string. */
static char *herd_block(const litmus_test *t, check_result *r)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    cat_model *m = cat_load_string("m.cat", "acyclic po | rf | co | fr as sc\n", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    report_info info = {.model = "m", .cat = m, .unroll = 2};
    report_herd(f, t, r, &info);
    fclose(f);
    return buf;
}

/* herd7 7.58 on an SB test under rc11 (one execution of four with both
 * reads 0), run side by side with the three quantifiers:
 *   exists  (0:r0=0 /\ 1:r0=0): Ok, Positive: 1 Negative: 3, Sometimes 1 3
 *   forall  (same):             No, Positive: 1 Negative: 3, Sometimes 1 3
 *   ~exists (same):             No, Positive: 3 Negative: 1, Sometimes 1 3
 * Witnesses count the executions that validate the condition, so ~exists
 * swaps them; Observation counts where the proposition holds. */
static void test_witnesses_as_herd(void)
{
    litmus_test *t = parse(mp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    check_result r;
    memset(&r, 0, sizeof r);
    r.states = outcome_set_new(t->nobserved);
    r.positive = 1;
    r.negative = 3;
    struct { enum lit_quantifier q; const char *verdict, *witnesses; } cases[] = {
        { QUANT_EXISTS, "\nOk\n", "Positive: 1 Negative: 3\n" },
        { QUANT_FORALL, "\nNo\n", "Positive: 1 Negative: 3\n" },
        { QUANT_NOT_EXISTS, "\nNo\n", "Positive: 3 Negative: 1\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t->quant = cases[i].q;
        char *block = herd_block(t, &r);
        CU_ASSERT_PTR_NOT_NULL(strstr(block, cases[i].verdict));
        CU_ASSERT_PTR_NOT_NULL(strstr(block, cases[i].witnesses));
        CU_ASSERT_PTR_NOT_NULL(strstr(block, "Observation MP Sometimes 1 3\n"));
        free(block);
    }
}

/* After a cut, Always and Never are not established (an unchecked
 * execution may be of the other kind): Observation says Unknown; both
 * kinds found settle Sometimes.  The loop bound alone keeps herd7's
 * words after its "Loop" verdict (herd7 7.58, Loop+spin at -unroll 0:
 * "Loop No" ... "Observation Loop+spin Never 0 0"). */
static void test_observation_after_cut(void)
{
    litmus_test *t = parse(mp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    check_result r;
    memset(&r, 0, sizeof r);
    r.states = outcome_set_new(t->nobserved);
    r.timed_out = true;
    r.positive = 56;
    CU_ASSERT_STRING_EQUAL(report_observation(&r), "Unknown");
    r.positive = 0;
    CU_ASSERT_STRING_EQUAL(report_observation(&r), "Unknown");
    r.negative = 4;
    CU_ASSERT_STRING_EQUAL(report_observation(&r), "Unknown");
    r.positive = 1;
    CU_ASSERT_STRING_EQUAL(report_observation(&r), "Sometimes");
    r.timed_out = false;
    r.unroll_cut = true;
    r.positive = 0;
    r.negative = 0;
    CU_ASSERT_STRING_EQUAL(report_observation(&r), "Never");
    t->quant = QUANT_EXISTS;
    char *block = herd_block(t, &r);
    CU_ASSERT_PTR_NOT_NULL(strstr(block, "\nLoop No\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(block, "Observation MP Never 0 0\n"));
    free(block);
    r.timed_out = true; /* and a limit: nothing settled, no Loop prefix on Unknown */
    block = herd_block(t, &r);
    CU_ASSERT_PTR_NOT_NULL(strstr(block, "\nUnknown\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(block, "Observation MP Unknown 0 0\n"));
    free(block);
}

/* Run `print` into a string. */
static char *capture(void (*print)(FILE *, const litmus_test *, const lit_value *), const litmus_test *t,
                     const lit_value *v)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    print(f, t, v);
    fclose(f);
    return buf;
}

static void test_state_forms(void)
{
    litmus_test *t = parse(mp);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(t->nobserved, 3);
    lit_value v[3] = { 1, 0, 1 };
    char *herd = capture(report_state, t, v);
    CU_ASSERT_STRING_EQUAL(herd, "1:r0=1; 1:r1=0; [x]=1;");   /* herd7 7.58 brackets locations */
    char *json = capture(report_json_state, t, v);
    CU_ASSERT_STRING_EQUAL(json, "{\"P1:r0\":1,\"P1:r1\":0,\"x\":1}");
    free(herd);
    free(json);
}

static void test_json_string(void)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    report_json_string(f, "a\"b\\c\nd\x01");
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "\"a\\\"b\\\\c\\nd\\u0001\"");
    free(buf);
}

/* The team's exit statuses: unusable input hides everything, a violation
 * stands when other work was cut, a cut hides a pass. */
static void test_status_merge(void)
{
    CU_ASSERT_EQUAL(sc_status_merge(0, 0), 0);
    CU_ASSERT_EQUAL(sc_status_merge(0, 3), 3);
    CU_ASSERT_EQUAL(sc_status_merge(3, 0), 3);
    CU_ASSERT_EQUAL(sc_status_merge(3, 1), 1);
    CU_ASSERT_EQUAL(sc_status_merge(1, 3), 1);
    CU_ASSERT_EQUAL(sc_status_merge(1, 2), 2);
    CU_ASSERT_EQUAL(sc_status_merge(2, 3), 2);
    CU_ASSERT_EQUAL(sc_status_merge(0, 7), 2);
    CU_ASSERT_STRING_EQUAL(sc_cut_name(SC_CUT_MAX_STATES), "max-states");
    CU_ASSERT_STRING_EQUAL(sc_cut_name(SC_CUT_INTERRUPTED), "interrupted");
    CU_ASSERT_STRING_EQUAL(sc_cut_name(SC_CUT_VALUE_RANGE), "value-range");
    CU_ASSERT_PTR_NULL(sc_cut_name(SC_CUT_NONE));
}

void register_report_tests(void)
{
    CU_pSuite s = CU_add_suite("report", NULL, NULL);
    CU_add_test(s, "Unknown unless what was found settles it", test_unknown_unless_settled);
    CU_add_test(s, "herd7's verdict rule", test_verdict_rule);
    CU_add_test(s, "Witnesses as herd7 counts them", test_witnesses_as_herd);
    CU_add_test(s, "Observation after a cut", test_observation_after_cut);
    CU_add_test(s, "a final state, herd and JSON", test_state_forms);
    CU_add_test(s, "JSON string escapes", test_json_string);
    CU_add_test(s, "exit statuses and cut words", test_status_merge);
}
