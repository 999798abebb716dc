/* test_gen.c: the random test generator and the shrinker (src/gen/). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "gen/gen.h"
#include "litmus/print.h"
#include "litmus/read.h"
#include "unit_suites.h"

/* The test as PTX text (malloc'd), or NULL when it cannot be printed. */
static char *ptx_text(const litmus_test *t)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    const char *why = NULL;
    bool ok = litmus_print_ptx(f, t, &why);
    fclose(f);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

static litmus_test *read_back(const char *text)
{
    return litmus_parse_text("gen.litmus", text, strlen(text), stderr);
}

static void test_same_seed_same_test(void)
{
    gen_options o;
    gen_defaults(&o);
    o.seed = 77;
    char *a = ptx_text(gen_test(&o, 5)), *b = ptx_text(gen_test(&o, 5)), *c = ptx_text(gen_test(&o, 6));
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_STRING_NOT_EQUAL(a, c);
    free(a);
    free(b);
    free(c);
}

/* Every generated test prints and reads back through the PTX front end. */
static void test_tests_read_back(void)
{
    gen_options o;
    gen_defaults(&o);
    o.seed = 3;
    o.max_gpus = 2;
    o.features = GEN_ALL;
    for (long i = 0; i < 400; i++) {
        char *text = ptx_text(gen_test(&o, i));
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_PTR_NOT_NULL(read_back(text));
        free(text);
    }
}

static bool has_instr(const litmus_test *t, enum lit_opcode op, int rmw_op)
{
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].ninstrs; k++) {
            const lit_instr *in = &t->threads[i].instrs[k];
            if (in->op == op && (rmw_op < 0 || in->rmw_op == (enum lit_rmw_op)rmw_op))
                return true;
        }
    return false;
}

static void test_features_are_respected(void)
{
    gen_options o;
    gen_defaults(&o);
    o.features = GEN_WEAK | GEN_RELAXED | GEN_RMW;
    bool rmw_seen = false;
    for (long i = 0; i < 300; i++) {
        litmus_test *t = gen_test(&o, i);
        CU_ASSERT_FALSE(has_instr(t, OP_FENCE, -1));
        CU_ASSERT_FALSE(has_instr(t, OP_BARRIER, -1));
        CU_ASSERT_FALSE(has_instr(t, OP_BRANCH, -1));
        CU_ASSERT_FALSE(has_instr(t, OP_RED, -1));
        CU_ASSERT_FALSE(has_instr(t, OP_RMW, RMW_CAS));
        rmw_seen |= has_instr(t, OP_RMW, -1);
        for (int th = 0; th < t->nthreads; th++)
            for (int k = 0; k < t->threads[th].ninstrs; k++)
                CU_ASSERT_NOT_EQUAL(t->threads[th].instrs[k].order, ORD_ACQUIRE);
    }
    CU_ASSERT_TRUE(rmw_seen);
}

static int barriers_of(const lit_thread *th)
{
    int n = 0;
    for (int k = 0; k < th->ninstrs; k++)
        n += th->instrs[k].op == OP_BARRIER;
    return n;
}

/* A barrier is given to every thread of its CTA, so none waits for a
 * thread that never comes. */
static void test_barriers_reach_the_whole_cta(void)
{
    gen_options o;
    gen_defaults(&o);
    o.features = GEN_WEAK | GEN_BARRIERS | GEN_DEPS;
    int with_barriers = 0;
    for (long i = 0; i < 300; i++) {
        litmus_test *t = gen_test(&o, i);
        for (int a = 0; a < t->nthreads; a++)
            for (int b = 0; b < t->nthreads; b++)
                if (t->threads[a].cta == t->threads[b].cta && t->threads[a].gpu == t->threads[b].gpu)
                    CU_ASSERT_EQUAL(barriers_of(&t->threads[a]), barriers_of(&t->threads[b]));
        with_barriers += has_instr(t, OP_BARRIER, -1);
    }
    CU_ASSERT_TRUE(with_barriers > 10);
}

/* A critical cycle of program-order and communication edges is forbidden
 * under sequential consistency (Shasha and Snir 1988): each cycle test's
 * condition, the outcome in which every edge holds, has no SC execution. */
static void test_cycles_are_forbidden_by_sc(void)
{
    cat_model *sc = cat_load("models/sc.cat", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    cat_workspace *ws = cat_workspace_new(sc);
    gen_options o;
    gen_defaults(&o);
    o.features = GEN_ALL & ~(GEN_SYS | GEN_BARRIERS | GEN_LOOPS);
    int cycles = 0;
    for (long i = 0; i < 300; i++) {
        litmus_test *t = gen_test(&o, i);
        if (!t->doc)
            continue;
        cycles++;
        char *text = ptx_text(t);
        litmus_test *back = read_back(text);
        free(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(back);
        enum_options eo = {.unroll = 2, .max_traces = 10000};
        check_result r;
        CU_ASSERT_TRUE_FATAL(enumerate_check(back, sc, ws, &eo, &r, stderr));
        CU_ASSERT_EQUAL(r.positive, 0);
        CU_ASSERT_TRUE(r.negative > 0);
    }
    CU_ASSERT_TRUE(cycles > 100);
}

static const char shrink_me[] =
    "PTX S\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 1,gpu 0 ;\n"
    " st.weak x, 1   | ld.weak r0, y  | ld.weak r0, x  ;\n"
    " st.weak y, 1   | ld.weak r1, x  |                ;\n"
    "exists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ P2:r0 == 1)\n";

static void test_shrink_candidates(void)
{
    litmus_test *t = read_back(shrink_me);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    /* 3 threads, then 2 + 2 + 1 instructions, then 3 equalities */
    int n = 0;
    while (shrink_candidate(t, n))
        n++;
    CU_ASSERT_EQUAL(n, 3 + 5 + 3);
    /* candidate 0 removes the last thread: its equality goes with it */
    litmus_test *c0 = shrink_candidate(t, 0);
    CU_ASSERT_EQUAL(c0->nthreads, 2);
    CU_ASSERT_EQUAL(c0->nobserved, 2);
    /* candidate 2 removes P0: P1 becomes P0 and keeps both equalities */
    litmus_test *c2 = shrink_candidate(t, 2);
    CU_ASSERT_EQUAL(c2->nthreads, 2);
    CU_ASSERT_EQUAL(c2->nobserved, 3);
    CU_ASSERT_EQUAL(c2->observed[0].thread, 0);
    CU_ASSERT_EQUAL(c2->observed[2].thread, 1);
    /* candidate 3 removes P0's last instruction; 8 drops the first equality */
    CU_ASSERT_EQUAL(shrink_candidate(t, 3)->threads[0].ninstrs, 1);
    CU_ASSERT_EQUAL(shrink_candidate(t, 8)->nobserved, 2);
    for (int k = 0; k < n; k++) {
        char *text = ptx_text(shrink_candidate(t, k));
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_PTR_NOT_NULL(read_back(text));
        free(text);
    }
    CU_ASSERT_PTR_NULL(shrink_candidate(t, -1));
}

void register_gen_tests(void)
{
    CU_pSuite s = CU_add_suite("gen", NULL, NULL);
    CU_add_test(s, "same seed, same test", test_same_seed_same_test);
    CU_add_test(s, "generated tests read back", test_tests_read_back);
    CU_add_test(s, "features are respected", test_features_are_respected);
    CU_add_test(s, "barriers reach the whole CTA", test_barriers_reach_the_whole_cta);
    CU_add_test(s, "critical cycles are forbidden by SC", test_cycles_are_forbidden_by_sc);
    CU_add_test(s, "shrink candidates", test_shrink_candidates);
}
