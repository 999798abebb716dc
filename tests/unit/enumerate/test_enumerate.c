/* test_enumerate.c: unit tests of thread_paths, enumerate and outcome. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "enumerate/co_orders.h"
#include "enumerate/enumerate.h"
#include "litmus/value_range.h"
#include "litmus/read.h"
#include "litmus/outcome.h"
#include "litmus/thread_paths.h"
#include "unit_suites.h"

static litmus_test *parse(const char *text)
{
    litmus_test *t = litmus_parse_text("t.litmus", text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static check_result run(const char *test_text, const char *model_text, int unroll)
{
    litmus_test *t = parse(test_text);
    cat_model *m = cat_load_string("m.cat", model_text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    enum_options o = {.unroll = unroll, .max_traces = 10000};
    check_result r;
    CU_ASSERT_TRUE_FATAL(enumerate_check(t, m, cat_workspace_new(m), &o, &r, stderr));
    return r;
}

static const char *SB =
    "PTX SB\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1   | st.weak y, 1   ;\n"
    " ld.weak r0, y  | ld.weak r1, x  ;\n"
    "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

static const char *SC_MODEL = "SC\noption co = total\nacyclic po | rf | co | fr as sc\n";
static const char *ANY_MODEL = "ANY\nempty 0 as nothing\n";

static void test_sb_under_sc_and_any(void)
{
    check_result sc = run(SB, SC_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(sc.states), 3);
    CU_ASSERT_EQUAL(sc.positive, 0);
    check_result any = run(SB, ANY_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(any.states), 4);
    CU_ASSERT_EQUAL(any.positive, 1);
    CU_ASSERT_EQUAL(any.candidates, 4);  /* one rf choice per read value */
}

static void test_no_thin_air_values(void)
{
    const char *lb =
        "PTX LB\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " ld.weak r1, y  | ld.weak r2, x  ;\n"
        " st.weak x, r1  | st.weak y, r2  ;\n"
        "exists (P0:r1 == 42)\n";
    check_result r = run(lb, ANY_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(r.states), 1);  /* only r1 = 0 */
    CU_ASSERT_EQUAL(r.positive, 0);
}

static void test_thin_air_values_when_the_model_allows_them(void)
{
    const char *ta =
        "PTX TA\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;\n"
        " ld.relaxed.gpu r1, y   | ld.relaxed.gpu r2, x   ;\n"
        " st.relaxed.gpu x, r1   | st.relaxed.gpu y, r2   ;\n"
        "exists (x == 42 /\\ y == 42)\n";
    const char *allowed = "T\noption thin-air = allowed\nempty 0\n";
    check_result r = run(ta, allowed, 2);
    CU_ASSERT_EQUAL(r.positive, 1);  /* 42 flows around the rf cycle */
    check_result nta = run(ta, "T\nacyclic rf | data\n", 2);
    CU_ASSERT_EQUAL(nta.positive, 0);
    /* non-atomic reads in such a cycle would race: they guess no seeds */
    const char *weak =
        "PTX TAw\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " ld.weak r1, y  | ld.weak r2, x  ;\n"
        " st.weak x, r1  | st.weak y, r2  ;\n"
        "exists (x == 42 /\\ y == 42)\n";
    CU_ASSERT_EQUAL(run(weak, allowed, 2).positive, 0);
}

static void test_value_fixpoint_follows_chains(void)
{
    const char *chain =
        "PTX Chain\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.weak x, 5   | ld.weak r1, x  ;\n"
        "                | add r2, r1, 1  ;\n"
        "                | st.weak y, r2  ;\n"
        "exists (y == 6)\n";
    check_result r = run(chain, ANY_MODEL, 2);
    CU_ASSERT_TRUE(r.positive > 0);
    CU_ASSERT_FALSE(r.values_cut);
}

static void test_partial_co_gives_every_final_value(void)
{
    const char *ww =
        "PTX WW\n{ x=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.weak x, 1   | st.weak x, 2   ;\n"
        "exists (x == 1)\n";
    check_result total = run(ww, ANY_MODEL, 2);
    CU_ASSERT_EQUAL(total.candidates, 2);
    CU_ASSERT_EQUAL(outcome_count(total.states), 2);
    check_result partial = run(ww, "P\noption co = partial\nempty 0\n", 2);
    CU_ASSERT_EQUAL(partial.candidates, 3);  /* 1<2, 2<1, unordered */
    CU_ASSERT_EQUAL(outcome_count(partial.states), 2);
}

static void test_thread_coherence_prunes_candidates(void)
{
    const char *cow =
        "PTX CoWR\n{ x=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.weak x, 1   | st.weak x, 2   ;\n"
        " st.weak x, 3   |                ;\n"
        " ld.weak r0, x  |                ;\n"
        "exists (P0:r0 == 0)\n";
    const char *uniproc = "U\noption co = partial\nacyclic po-loc | rf | co | fr\n"
                          "empty ((po-loc & (W * W)) \\ co)\n";
    const char *promised = "U\noption co = partial\noption thread-coherence = enforced\n"
                           "acyclic po-loc | rf | co | fr\nempty ((po-loc & (W * W)) \\ co)\n";
    check_result all = run(cow, uniproc, 2);
    check_result pruned = run(cow, promised, 2);
    CU_ASSERT_TRUE(pruned.candidates < all.candidates);
    CU_ASSERT_EQUAL(pruned.consistent, all.consistent);
    CU_ASSERT_EQUAL(outcome_count(pruned.states), outcome_count(all.states));
    CU_ASSERT_EQUAL(pruned.positive, 0);
    /* reading 0 (before its own st x, 1) or 1 (co-before its own st x, 3) is never built */
    CU_ASSERT_EQUAL(outcome_count(pruned.states), 2);  /* r0 = 3 or 2 */
}

/* Handing the coherence choices to the model (co-dependent checks innermost)
 * must accept exactly what checking every candidate whole accepts.  A with
 * that depends on co turns the staging off. */
static void test_co_staging_agrees_with_whole_checks(void)
{
    const char *test =
        "PTX CoMix\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 0,gpu 0 ;\n"
        " st.weak x, 1   | st.weak x, 2   | ld.weak r0, x  ;\n"
        " fence.sc.gpu   | fence.sc.gpu   | ld.weak r1, x  ;\n"
        " ld.weak r2, y  | st.weak y, 1   | ld.weak r3, y  ;\n"
        "exists (x == 1 /\\ P2:r0 == 2)\n";
    const char *body = "with s from linearisations(F & SC, po)\n"
                       "let hb = (po | rf | s)+\n"
                       "irreflexive (hb ; (co | fr))\n"
                       "acyclic po-loc | rf | co | fr\n";
    char staged[512], whole[512];
    snprintf(staged, sizeof staged, "S\noption co = partial\n%s", body);
    snprintf(whole, sizeof whole, "S\noption co = partial\nwith d from linearisations(0, co)\n%s", body);
    check_result a = run(test, staged, 2);
    check_result b = run(test, whole, 2);
    CU_ASSERT_EQUAL(a.consistent, b.consistent);
    CU_ASSERT_EQUAL(a.positive, b.positive);
    CU_ASSERT_EQUAL(a.negative, b.negative);
    CU_ASSERT_EQUAL(outcome_count(a.states), outcome_count(b.states));
    CU_ASSERT_TRUE(a.consistent > 0);
}

/* A seq_cst access (OpenCL) is preceded in its trace by an implicit fence of
 * its scope; relaxed accesses and fences are not.  A model that names SCF
 * sees it, and only there (not in F, not in SC). */
static void test_implicit_sc_fence(void)
{
    const char *text =
        "OPENCL S\n{ [x]=0; }\n"
        "P0@wg 0, dev 0 (global atomic_int* x) {\n"
        "  atomic_store(x, 1);\n"
        "  int r0 = atomic_load_explicit(x, memory_order_relaxed, memory_scope_work_group);\n"
        "  int r1 = atomic_fetch_add_explicit(x, 1, memory_order_seq_cst, memory_scope_work_group);\n"
        "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n"
        "}\nexists (0:r0=1)\n";
    litmus_test *t = parse(text);
    tp_limits lim = {.unroll = 2, .max_traces = 100};
    tp_result paths;
    thread_paths_build(t, &lim, &paths);
    CU_ASSERT_TRUE_FATAL(paths.threads[0].ntraces >= 1); /* one per value read; one shape */
    const tp_trace *tr = &paths.threads[0].traces[0];
    /* fence, W | R | fence, R, W (the RMW) | the real fence */
    CU_ASSERT_EQUAL_FATAL(tr->nevents, 7);
    static const int kinds[] = {EV_FENCE, EV_WRITE, EV_READ, EV_FENCE, EV_READ, EV_WRITE, EV_FENCE};
    static const bool implicit[] = {true, false, false, true, false, false, false};
    for (int i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL(tr->events[i].kind, kinds[i]);
        CU_ASSERT_EQUAL(tr->events[i].implicit_sc, implicit[i]);
    }
    CU_ASSERT_EQUAL(tr->events[0].scope, SCOPE_GPU);   /* atomic_store: device scope */
    CU_ASSERT_EQUAL(tr->events[3].scope, SCOPE_CTA);
    /* the model sees two SCF events, and only the real fence in F and SC */
    check_result r = run(text, "T\nempty ([SCF] ; po ; [SCF]) \\ (SCF * SCF) as two\n"
                               "flag ~empty (SCF * SCF) as scf\nflag ~empty [F & SC] as fsc\n"
                               "flag ~empty [SCF & (F | SC)] as leak\n", 2);
    CU_ASSERT_EQUAL(r.flags, 3u);        /* scf and fsc, not leak */
}

static void test_loop_bound_cuts_paths(void)
{
    const char *spin =
        "PTX Spin\n{ f=0; }\n"
        " P0@cta 0,gpu 0      | P1@cta 0,gpu 0 ;\n"
        " LC00:               | st.weak f, 1   ;\n"
        " ld.weak r0, f       |                ;\n"
        " beq r0, 0, LC00     |                ;\n"
        "exists (P0:r0 == 1)\n";
    litmus_test *t = parse(spin);
    tp_limits lim = {.unroll = 2, .max_traces = 100};
    tp_result paths;
    thread_paths_build(t, &lim, &paths);
    CU_ASSERT_TRUE(paths.unroll_cut);
    /* exits after reading 1 on the first, second or third try */
    CU_ASSERT_EQUAL(paths.threads[0].ntraces, 3);
    check_result r = run(spin, ANY_MODEL, 2);
    CU_ASSERT_TRUE(r.unroll_cut);
    CU_ASSERT_EQUAL(r.negative, 0);
}

/* Two threads that each spin until they read back their own write.  In the
 * first round of the value fixpoint neither awaited value is known, so every
 * path of both threads is dropped at the loop bound; the writes of those
 * dropped paths must still drive further rounds.  By hand: a read of c
 * returns 0 or 2 and the loop exits only on 2, so a thread's traces are its
 * write then 2 after zero, one or two reads of 0 (three with --unroll 2),
 * and every final state has r1 == 2 and r2 == 1: exactly one state, which
 * SC allows (each read after its own thread's write). */
static void test_loops_in_two_threads(void)
{
    const char *spin2 =
        "PTX SpinOwn2\n{ c=0; d=0; }\n"
        " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
        " st.relaxed.gpu c, 2  | st.relaxed.gpu d, 1  ;\n"
        " LC00:                | LC10:                ;\n"
        " ld.relaxed.gpu r1, c | ld.relaxed.gpu r2, d ;\n"
        " bne r1, 2, LC00      | bne r2, 1, LC10      ;\n"
        "exists (P0:r1 == 2 /\\ P1:r2 == 1)\n";
    litmus_test *t = parse(spin2);
    tp_limits lim = {.unroll = 2, .max_traces = 100};
    tp_result paths;
    thread_paths_build(t, &lim, &paths);
    /* each thread: its write, then its own value read on the 1st, 2nd or 3rd try */
    CU_ASSERT_EQUAL(paths.threads[0].ntraces, 3);
    CU_ASSERT_EQUAL(paths.threads[1].ntraces, 3);
    check_result r = run(spin2, SC_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(r.states), 1);
    CU_ASSERT_EQUAL(r.negative, 0);
    CU_ASSERT_TRUE(r.positive > 0);
}

/* P0 reads y (left operand) and x (right operand) in one expression, P1
 * writes x then y.  Under SC, t = 2 (y new, x old) needs the read of x
 * before the read of y: impossible if the left operand is sequenced
 * first, possible since C leaves them unsequenced.  Sequenced in two
 * statements, the outcome is gone again. */
static void test_unsequenced_operands(void)
{
    const char *unseq =
        "OPENCL Unseq\n{ [x]=0; [y]=0; }\n"
        "P0@wg 0, dev 0 (global int* x, global int* y) {\n  int t = 2 * *y + *x;\n}\n"
        "P1@wg 0, dev 0 (global int* x, global int* y) {\n  *x = 1;\n  *y = 1;\n}\n"
        "exists (0:t=2)\n";
    const char *seq =
        "OPENCL Seq\n{ [x]=0; [y]=0; }\n"
        "P0@wg 0, dev 0 (global int* x, global int* y) {\n  int t = 2 * *y;\n  t = t + *x;\n}\n"
        "P1@wg 0, dev 0 (global int* x, global int* y) {\n  *x = 1;\n  *y = 1;\n}\n"
        "exists (0:t=2)\n";
    litmus_test *t = parse(unseq);
    CU_ASSERT_EQUAL(t->threads[0].nunseq, 1); /* (2 * *y) + *x; 2 * *y is not noted: 2 compiles to nothing */
    tp_limits lim = {.unroll = 2, .max_traces = 100};
    tp_result paths;
    thread_paths_build(t, &lim, &paths);
    const tp_trace *tr = &paths.threads[0].traces[0];
    CU_ASSERT_EQUAL_FATAL(tr->nevents, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tr->unseq);
    CU_ASSERT_EQUAL(tp_unseq(tr, 1)[0], 1u);  /* the read of x: unsequenced with the read of y */
    CU_ASSERT_EQUAL(tp_unseq(tr, 0)[0], 0u);
    CU_ASSERT_PTR_NULL(paths.threads[1].traces[0].unseq); /* no operator: nothing unsequenced */
    check_result r = run(unseq, SC_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(r.states), 4);  /* t = 0, 1, 2, 3 */
    CU_ASSERT_TRUE(r.positive > 0);
    check_result s = run(seq, SC_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(s.states), 3);  /* t = 0, 1, 3 */
    CU_ASSERT_EQUAL(s.positive, 0);
}

static void test_counters_stay_finite(void)
{
    /* each atom.add reads back what the other wrote: values beyond 2 need a
     * chain of more writes than the execution has */
    const char *add =
        "PTX Add\n{ x=0; }\n"
        " P0@cta 0,gpu 0                 | P1@cta 1,gpu 0                 ;\n"
        " atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r1, x, 1 ;\n"
        "exists (x == 3)\n";
    litmus_test *t = parse(add);
    tp_limits lim = {.unroll = 2, .max_traces = 100};
    tp_result paths;
    thread_paths_build(t, &lim, &paths);
    CU_ASSERT_FALSE(paths.values_cut);
    CU_ASSERT_EQUAL(paths.threads[0].ntraces, 3);  /* reads 0, 1 or 2, never 3 */
}

static void test_rmw_events_and_cas(void)
{
    const char *cas =
        "PTX Cas\n{ x=0; }\n"
        " P0@cta 0,gpu 0                  ;\n"
        " atom.relaxed.gpu.cas r0, x, 0, 7 ;\n"
        " atom.relaxed.gpu.cas r1, x, 0, 9 ;\n"
        "forall (x == 7 /\\ P0:r1 == 7)\n";
    check_result r = run(cas, SC_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(r.states), 1);
    CU_ASSERT_EQUAL(r.negative, 0);
}

static void test_counted_barrier_hangs(void)
{
    const char *hang =
        "PTX Hang\n{ x=0; }\n"
        " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
        " bar.cta.sync 1, 1, 3 | bar.cta.sync 1, 1, 3 ;\n"
        "exists (x == 0)\n";
    check_result r = run(hang, ANY_MODEL, 2);
    CU_ASSERT_TRUE(r.hang);
    CU_ASSERT_EQUAL(r.candidates, 0);
}

/* Traces of one thread that differ in shape (a branch taken or not) and
 * only in values: the static part prepared for one combination must be
 * reused only while the shapes stay the same.  Under SC, MP's reader sees
 * x = 1 whenever it saw y = 1. */
static void test_static_part_follows_trace_shape(void)
{
    const char *mp =
        "PTX MPbranch\n{ x=0; y=0; P1:r1=5; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0   ;\n"
        " st.weak x, 1   | ld.weak r0, y    ;\n"
        " st.weak y, 1   | beq r0, 0, LC00  ;\n"
        "                | ld.weak r1, x    ;\n"
        "                | LC00:            ;\n"
        "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    check_result r = run(mp, SC_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(r.states), 2);  /* r0=0, r1=5 and r0=1, r1=1 */
    CU_ASSERT_EQUAL(r.positive, 0);
    check_result any = run(mp, ANY_MODEL, 2);
    CU_ASSERT_EQUAL(outcome_count(any.states), 3);
    CU_ASSERT_EQUAL(any.positive, 1);
}

static void test_order_tables_count_every_order_once(void)
{
    /* partial orders on k labelled elements: 1, 1, 3, 19, 219, 4231 */
    static const int partial[] = {1, 1, 3, 19, 219, 4231};
    for (int k = 0; k <= MAX_PARTIAL_K; k++) {
        order_table t;
        order_table_build(&t, k, true);
        CU_ASSERT_EQUAL(t.count, partial[k]);
    }
    int factorial = 1;
    for (int k = 1; k <= 6; k++) {
        factorial *= k;
        order_table t;
        order_table_build(&t, k, false);
        CU_ASSERT_EQUAL(t.count, factorial);
    }
}

/* order_table_filter against a direct reading of its contract (every
 * order, in order, that has none of the forbidden pairs), on a table below
 * ORDER_INDEX_MIN (scanned) and two above it (the bit-set index: 4,231
 * partial orders of 5 writes, 5,040 total orders of 7), over masks from a
 * fixed pseudo-random sequence, with the index reused across calls. */
static void filter_agrees(order_table *t, int k, unsigned seed)
{
    int *got = malloc(sizeof *got * (size_t)t->count), *want = malloc(sizeof *want * (size_t)t->count);
    for (int round = 0; round < 200; round++) {
        uint8_t never[MAX_TOTAL_K] = {0};
        for (int i = 0; i < k; i++) {
            seed = seed * 1103515245u + 12345u;
            /* about one pair in four forbidden, none on the diagonal */
            never[i] = (uint8_t)((seed >> 8) & (seed >> 16) & ~(1u << i) & ((1u << k) - 1));
        }
        if (round == 0)
            memset(never, 0, sizeof never);
        int n = 0;
        for (int o = 0; o < t->count; o++) {
            bool ok = true;
            for (int i = 0; i < k; i++)
                ok = ok && (t->rows[o][i] & never[i]) == 0;
            if (ok)
                want[n++] = o;
        }
        int m = order_table_filter(t, k, never, got);
        CU_ASSERT_EQUAL(m, n);
        CU_ASSERT_TRUE(m == n && memcmp(got, want, sizeof *got * (size_t)n) == 0);
        if (round == 0)
            CU_ASSERT_EQUAL(m, t->count);
    }
    free(got);
    free(want);
}

static void test_order_table_filter(void)
{
    order_table small, partial5, total7;
    order_table_build(&small, 4, true);
    CU_ASSERT_TRUE(small.count < ORDER_INDEX_MIN);
    filter_agrees(&small, 4, 1);
    CU_ASSERT_PTR_NULL(small.index);
    order_table_build(&partial5, 5, true);
    filter_agrees(&partial5, 5, 2);
    CU_ASSERT_PTR_NOT_NULL(partial5.index);
    order_table_build(&total7, 7, false);
    filter_agrees(&total7, 7, 3);
    CU_ASSERT_PTR_NOT_NULL(total7.index);
}

static void test_outcome_set_sorts_and_dedups(void)
{
    outcome_set *s = outcome_set_new(2);
    lit_value a[2] = {1, 0}, b[2] = {0, 5}, c[2] = {1, 0};
    CU_ASSERT_EQUAL(outcome_add(s, a), 0);
    CU_ASSERT_EQUAL(outcome_add(s, b), 1);
    CU_ASSERT_EQUAL(outcome_add(s, c), 0);
    for (lit_value i = 0; i < 200; i++) {
        lit_value v[2] = {i, i};
        outcome_add(s, v);
    }
    CU_ASSERT_EQUAL(outcome_count(s), 202);  /* {1,0}, {0,5} and the 200 diagonal ones */
    const lit_value *sorted = outcome_sorted(s);
    CU_ASSERT_EQUAL(sorted[0], 0);
    CU_ASSERT_EQUAL(sorted[1], 0);
    CU_ASSERT_EQUAL(sorted[2], 0);
    CU_ASSERT_EQUAL(sorted[3], 5);
}

/* The range of values a run can hold, derived by hand for each test:
 * the constants and initial values, what reads can return (what some chain
 * of writes computes), and what is computed into registers. */
static void check_range(const char *text, int unroll, lit_value want_lo, lit_value want_hi)
{
    litmus_test *t = parse(text);
    lit_range_limits lim = {.unroll = unroll, .max_traces = ENUM_MAX_TRACES};
    lit_range r = {99, -99, false, "not set"};
    CU_ASSERT_TRUE_FATAL(lit_value_range(t, &lim, &r, stderr));
    CU_ASSERT_TRUE(r.bounded);
    CU_ASSERT_PTR_NULL(r.stopped_by);
    CU_ASSERT_EQUAL(r.lo, want_lo);
    CU_ASSERT_EQUAL(r.hi, want_hi);
}

static void test_value_range(void)
{
    /* SB: values 0 (initial) and 1 (stored) */
    check_range(SB, 2, 0, 1);
    /* two increments of x from 0: 0, 1, 2 (a third is no execution's) */
    check_range("PTX Inc\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                " atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r0, x, 1 ;\n"
                "exists (x == 2)\n", 2, 0, 2);
    /* a sentinel register: -1 */
    check_range("PTX Sen\n{ x=0; P0:r1=-1; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n"
                "exists (P0:r1 == -1)\n", 2, -1, 0);
    /* computed only in a register: x read (0 or 5) plus 10 -> 10, 15 */
    check_range("PTX Alu\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                " ld.weak r0, x | st.weak x, 5 ;\n add r1, r0, 10 | ;\n"
                "exists (P0:r1 == 15)\n", 2, 0, 15);
    /* a loop counter: within the bound, 3 iterations at most (0..3) */
    check_range("PTX Spin\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                " mov r0, 0 | st.weak x, 1 ;\n LOOP: add r0, r0, 1 | ;\n ld.weak r1, x | ;\n"
                " beq r1, 0, LOOP | ;\nexists (P0:r0 == 1)\n", 2, 0, 3);
}

void register_enumerate_tests(void)
{
    CU_pSuite s = CU_add_suite("enumerate", NULL, NULL);
    CU_add_test(s, "SB under SC and under no model", test_sb_under_sc_and_any);
    CU_add_test(s, "no thin-air values", test_no_thin_air_values);
    CU_add_test(s, "value fixpoint follows chains", test_value_fixpoint_follows_chains);
    CU_add_test(s, "thin-air values when allowed", test_thin_air_values_when_the_model_allows_them);
    CU_add_test(s, "partial coherence orders", test_partial_co_gives_every_final_value);
    CU_add_test(s, "thread coherence prunes candidates", test_thread_coherence_prunes_candidates);
    CU_add_test(s, "co staging agrees with whole checks", test_co_staging_agrees_with_whole_checks);
    CU_add_test(s, "loop bound cuts paths", test_loop_bound_cuts_paths);
    CU_add_test(s, "loops in two threads", test_loops_in_two_threads);
    CU_add_test(s, "RMW and CAS", test_rmw_events_and_cas);
    CU_add_test(s, "counters stay finite", test_counters_stay_finite);
    CU_add_test(s, "counted barrier hangs", test_counted_barrier_hangs);
    CU_add_test(s, "static part follows trace shape", test_static_part_follows_trace_shape);
    CU_add_test(s, "order tables", test_order_tables_count_every_order_once);
    CU_add_test(s, "order tables filtered by forbidden pairs", test_order_table_filter);
    CU_add_test(s, "implicit fence of seq_cst accesses", test_implicit_sc_fence);
    CU_add_test(s, "outcome set", test_outcome_set_sorts_and_dedups);
    CU_add_test(s, "unsequenced operands leave program order partial", test_unsequenced_operands);
    CU_add_test(s, "value range of a run", test_value_range);
}
