/* test_verdict.c: unit tests of the verification library's verdict
 * (verify/verify.h): unsound, missing, undefined, cut and refused, each
 * on a small case whose expected values are derived by hand below.
 *
 * The protocol is models/sc_memory.proto: every access is performed
 * atomically at one memory, in program order, so its outcomes are
 * exactly the interleavings of the threads (sequential consistency).  On
 * store buffering (SB below: P0 writes x then reads y, P1 writes y then
 * reads x) the interleavings give (P0:r0, P1:r1) = (0,1), (1,0) or (1,1):
 * whichever read comes last sees the other thread's write, so (0,0)
 * never happens.  The models are written here so that their outcomes are
 * plain: "anything" has no axiom (all four combinations), "no-reads"
 * forbids every execution that reads (rf must be empty: none of SB's). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cat/cat.h"
#include "litmus/read.h"
#include "protocol/protocol.h"
#include "unit_suites.h"
#include "verify/verify.h"

#define PROTOCOL "models/sc_memory.proto"

static const char SB[] = "PTX SB-unit\n"
                         "\"store buffering\"\n"
                         "{ x=0; y=0; }\n"
                         " P0@cta 0,gpu 0        | P1@cta 1,gpu 0        ;\n"
                         " st.relaxed.gpu x, 1   | st.relaxed.gpu y, 1   ;\n"
                         " ld.relaxed.gpu r0, y  | ld.relaxed.gpu r1, x  ;\n"
                         "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

/* line 9, column 3: the consume load */
static const char CONSUME[] = "C consume-unit\n"
                              "\"a consume load\"\n"
                              "{ x = 0; y = 0; }\n"
                              "P0 (atomic_int* x, atomic_int* y) {\n"
                              "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
                              "  atomic_store_explicit(y, 1, memory_order_release);\n"
                              "}\n"
                              "P1 (atomic_int* x, atomic_int* y) {\n"
                              "  int r0 = atomic_load_explicit(y, memory_order_consume);\n"
                              "}\n"
                              "exists (1:r0 = 1)\n";

/* line 5, column 3: a C read-modify-write (one event with a success flag) */
static const char RMW[] = "C rmw-unit\n"
                          "\"a C fetch-add\"\n"
                          "{ x = 0; }\n"
                          "P0 (atomic_int* x) {\n"
                          "  int r0 = atomic_fetch_add_explicit(x, 1, memory_order_relaxed);\n"
                          "}\n"
                          "exists (0:r0 = 0)\n";

static litmus_test *read_text(const char *text, char *path)
{
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    litmus_test *t = litmus_read_file(path, stderr);
    unlink(path);
    return t;
}

static cat_model *model(const char *text)
{
    cat_model *m = cat_load_string("unit.cat", text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return m;
}

/* Runs SB on sc_memory under `cat` with settings `s`; the status. */
static int run_sb(const verify_settings *s, const char *cat, verify_result *v)
{
    char path[] = "/tmp/sb-unit-XXXXXX";
    litmus_test *t = read_text(SB, path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    protocol *p = protocol_load(PROTOCOL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    cat_model *m = model(cat);
    return verify_test(s, t, path, p, m, cat_workspace_new(m), v, stderr);
}

static const lit_value R00[] = {0, 0}, R11[] = {1, 1};

/* "no-reads" allows no execution of SB, so every one of the protocol's 3
 * outcomes is unsound; nothing is missing (the model has no outcome). */
static void test_unsound(void)
{
    verify_settings s;
    verify_settings_default(&s);
    verify_result v;
    int status = run_sb(&s, "\"no-reads\"\nempty rf as no-reads\n", &v);
    CU_ASSERT_EQUAL(outcome_count(v.found.outcomes), 3);
    CU_ASSERT_EQUAL(outcome_count(v.model_outcomes), 0);
    CU_ASSERT_EQUAL(v.unsound, 3);
    CU_ASSERT_EQUAL(v.unobserved, 0);
    CU_ASSERT_EQUAL(verify_classify_outcome(&v, R11), VERIFY_OUTCOME_UNSOUND);
    CU_ASSERT_EQUAL(status, SC_STATUS_VIOLATION);
    CU_ASSERT_STRING_EQUAL(verify_result_word(&v), "Fail");
    CU_ASSERT_STRING_EQUAL(verify_sound_json(&v), "false");
    verify_result_release(&v);
}

/* "anything" allows all four outcomes; with --complete, (0,0), which SC
 * never produces, is missing: one violation, and nothing is unsound. */
static void test_missing(void)
{
    verify_settings s;
    verify_settings_default(&s);
    s.complete = true;
    verify_result v;
    int status = run_sb(&s, "\"anything\"\n", &v);
    CU_ASSERT_EQUAL(outcome_count(v.model_outcomes), 4);
    CU_ASSERT_EQUAL(v.unsound, 0);
    CU_ASSERT_EQUAL(v.unobserved, 1);
    CU_ASSERT_TRUE(verify_missing_established(&v));
    int at = 0;    /* the only missing outcome is (0,0) */
    const lit_value *missing = verify_next_missing(&v, &at);
    CU_ASSERT_PTR_NOT_NULL_FATAL(missing);
    CU_ASSERT_EQUAL(missing[0], R00[0]);
    CU_ASSERT_EQUAL(missing[1], R00[1]);
    at++;
    CU_ASSERT_PTR_NULL(verify_next_missing(&v, &at));
    CU_ASSERT_PTR_NOT_NULL(witness_text(v.missing_why, R00));    /* the model's execution of (0,0) */
    CU_ASSERT_EQUAL(status, SC_STATUS_VIOLATION);
    verify_result_release(&v);

    /* without --complete the same unobserved outcome is no violation */
    s.complete = false;
    status = run_sb(&s, "\"anything\"\n", &v);
    CU_ASSERT_EQUAL(v.unobserved, 1);
    CU_ASSERT_FALSE(verify_missing_established(&v));
    int none = 0;
    CU_ASSERT_PTR_NULL(verify_next_missing(&v, &none));
    CU_ASSERT_EQUAL(status, SC_STATUS_OK);
    verify_result_release(&v);
}

/* Every execution of SB reads (rf is not empty), so the flag is raised:
 * under --racy undefined the test is undefined and every outcome allowed,
 * even under a model that forbids the reads; under --racy check it is
 * not, and the forbidden outcomes are unsound (3, as in test_unsound). */
static void test_undefined(void)
{
    const char *racy = "\"racy\"\nflag ~empty rf as racy\n";
    verify_settings s;
    verify_settings_default(&s);
    s.racy_undefined = true;
    verify_result v;
    int status = run_sb(&s, racy, &v);
    CU_ASSERT_TRUE(v.undefined);
    CU_ASSERT_EQUAL(verify_classify_outcome(&v, R00), VERIFY_OUTCOME_ALLOWED);
    CU_ASSERT_EQUAL(v.unsound, 0);
    CU_ASSERT_EQUAL(status, SC_STATUS_OK);
    CU_ASSERT_STRING_EQUAL(verify_sound_json(&v), "true");
    verify_result_release(&v);

    s.racy_undefined = false;
    status = run_sb(&s, racy, &v);
    CU_ASSERT_FALSE(v.undefined);
    CU_ASSERT_EQUAL(status, SC_STATUS_OK);      /* the model has no axiom: all four allowed */
    verify_result_release(&v);
}

/* --max-states 1: the search stops at the initial state, before any final
 * state; no violation was found, so the result is Incomplete (3). */
static void test_cut(void)
{
    verify_settings s;
    verify_settings_default(&s);
    s.bfs.max_states = 1;
    verify_result v;
    int status = run_sb(&s, "\"anything\"\n", &v);
    CU_ASSERT_EQUAL(v.cut, SC_CUT_MAX_STATES);
    CU_ASSERT_EQUAL(outcome_count(v.found.outcomes), 0);
    CU_ASSERT_EQUAL(status, SC_STATUS_INCOMPLETE);
    CU_ASSERT_STRING_EQUAL(verify_result_word(&v), "Incomplete");
    CU_ASSERT_STRING_EQUAL(verify_sound_json(&v), "null");
    verify_result_release(&v);
}

/* A refused test: exit 2, no search, the instruction's line and column. */
static void check_refused(const char *text, const char *where)
{
    char path[] = "/tmp/refused-unit-XXXXXX";
    litmus_test *t = read_text(text, path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    protocol *p = protocol_load(PROTOCOL, stderr);
    cat_model *m = model("\"anything\"\n");
    verify_settings s;
    verify_settings_default(&s);
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    verify_result v;
    int status = verify_test(&s, t, path, p, m, cat_workspace_new(m), &v, err);
    fclose(err);
    CU_ASSERT_EQUAL(status, SC_STATUS_UNUSABLE);
    CU_ASSERT_FALSE(v.searched);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, where));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "error: verify does not run C read-modify-writes or memory_order_consume"));
    free(msg);
}

static void test_refused(void)
{
    check_refused(CONSUME, ":9:3: error:");
    check_refused(RMW, ":5:3: error:");
}

void register_verify_tests(void)
{
    CU_pSuite s = CU_add_suite("verify: the verdict", NULL, NULL);
    CU_add_test(s, "unsound: an outcome the model forbids", test_unsound);
    CU_add_test(s, "missing: --complete and an outcome never produced", test_missing);
    CU_add_test(s, "undefined: a racy test under --racy undefined", test_undefined);
    CU_add_test(s, "cut: --max-states before any final state", test_cut);
    CU_add_test(s, "refused: consume and a C read-modify-write", test_refused);
}
