/*
 * test_wide.c: unit tests of the enumerator beyond one word and around
 * loops: executions of more than 64 events, dependencies across words,
 * coherence orders built around program order, barrier phases, the value
 * rounds of spinning threads, and the limits that make a result
 * incomplete.
 *
 * Expected values are derived by hand in the comments (sequential
 * consistency, or a model with no axiom, where every candidate passes),
 * or checked against a second path (the orders against the filtered
 * tables of every order).
 */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "enumerate/barriers.h"
#include "enumerate/co_orders.h"
#include "enumerate/enumerate.h"
#include "litmus/thread_paths.h"
#include "litmus/outcome.h"
#include "litmus/read.h"
#include "unit_suites.h"

static const char *SC_MODEL = "SC\noption co = total\noption thread-coherence = enforced\n"
                              "acyclic po | rf | co | fr as sc\nempty rmw & (fr ; co) as atomic\n";
static const char *ANY_MODEL = "ANY\nempty 0 as nothing\n";

static litmus_test *parse(const char *text)
{
    litmus_test *t = litmus_parse_text("t.litmus", text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static check_result run_opts(const char *test_text, const char *model_text, const enum_options *o)
{
    litmus_test *t = parse(test_text);
    cat_model *m = cat_load_string("m.cat", model_text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    check_result r;
    CU_ASSERT_TRUE_FATAL(enumerate_check(t, m, cat_workspace_new(m), o, &r, stderr));
    return r;
}

static check_result run(const char *test_text, const char *model_text)
{
    enum_options o = {.unroll = 2, .max_traces = 10000};
    return run_opts(test_text, model_text, &o);
}

/* A growing string: tests built by program. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = 2 * (t->len + (size_t)n + 1);
        char *grown = GC_MALLOC_ATOMIC(t->cap);
        if (t->len)
            memcpy(grown, t->s, t->len);
        t->s = grown;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* MP (P0: st x, st y; P1: ld y, ld x) with `extra` locations that no
 * thread touches. */
static const char *mp_with_unused(int extra)
{
    text t = {0};
    add(&t, "PTX MP+%d\n{ x=0; y=0;", extra);
    for (int i = 0; i < extra; i++)
        add(&t, " u%d=0;", i);
    add(&t, " }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1   | ld.weak r0, y  ;\n"
            " st.weak y, 1   | ld.weak r1, x  ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
    return t.s;
}

/* Locations that no thread touches add initial writes that nothing reads
 * and no model axiom relates to anything else: the outcomes are MP's.
 * Under SC: 3 (r0 r1 = 00, 01, 11; 10 needs y before x); under no model:
 * all 4.  Sizes across the one-word edge and well beyond it. */
static void test_unused_locations_change_nothing(void)
{
    static const int extras[] = {0, 60, 62, 63, 100, 300};
    for (size_t k = 0; k < sizeof extras / sizeof *extras; k++) {
        check_result sc = run(mp_with_unused(extras[k]), SC_MODEL);
        CU_ASSERT_EQUAL(outcome_count(sc.states), 3);
        CU_ASSERT_EQUAL(sc.positive, 0);
        CU_ASSERT_PTR_NULL(enumerate_incomplete(&sc));
        check_result any = run(mp_with_unused(extras[k]), ANY_MODEL);
        CU_ASSERT_EQUAL(outcome_count(any.states), 4);
        CU_ASSERT_EQUAL(any.positive, 1);
        CU_ASSERT_EQUAL(any.candidates, 4);
    }
}

/* Message passing through `pads` locations written in between: P0 writes
 * d, then p0..p(pads-1), then the flag; P1 reads the flag, then d.  Under
 * SC reading the flag as 1 puts every write of P0 before P1's read of d:
 * d = 0 is impossible.  Under no model it is possible. */
static const char *mp_padded(int pads)
{
    text t = {0};
    add(&t, "PTX MP-padded\n{ d=0; f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n");
    add(&t, " st.weak d, 1 | ld.weak r0, f ;\n");
    for (int i = 0; i < pads; i++)
        add(&t, " st.weak p%d, 1 | ;\n", i);
    add(&t, " st.weak f, 1 | ld.weak r1, d ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
    return t.s;
}

static void test_long_straight_line_threads(void)
{
    static const int pads[] = {10, 70, 130};
    for (size_t k = 0; k < sizeof pads / sizeof *pads; k++) {
        check_result sc = run(mp_padded(pads[k]), SC_MODEL);
        CU_ASSERT_EQUAL(sc.positive, 0);
        CU_ASSERT_EQUAL(outcome_count(sc.states), 3);
        CU_ASSERT_PTR_NULL(enumerate_incomplete(&sc));
        check_result any = run(mp_padded(pads[k]), ANY_MODEL);
        CU_ASSERT_EQUAL(any.positive, 1);
        CU_ASSERT_EQUAL(outcome_count(any.states), 4);
    }
}

/* Dependencies across words: the read is event 0 of its trace and the
 * write that uses its value (data) or follows a branch on it (ctrl) is
 * past event 64.  A model whose flag needs such a pair raises it. */
static void test_dependencies_across_words(void)
{
    text t = {0};
    add(&t, "PTX Deps\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n");
    for (int i = 0; i < 70; i++)
        add(&t, " st.weak p%d, 1 ;\n", i);
    add(&t, " st.weak y, r0 ;\n beq r0, 5, L ;\n st.weak z, 1 ;\n L: ;\nexists (P0:r0 == 0)\n");
    static const char *data_model = "D\nflag ~empty ([R] ; data ; [W]) as data-pair\n";
    static const char *ctrl_model = "C\nflag ~empty ([R] ; ctrl ; [W]) as ctrl-pair\n";
    static const char *wrong_model = "N\nflag ~empty ([W] ; data ; [R]) as backwards\n";
    CU_ASSERT_EQUAL(run(t.s, data_model).flags, 1u);
    CU_ASSERT_EQUAL(run(t.s, ctrl_model).flags, 1u);
    CU_ASSERT_EQUAL(run(t.s, wrong_model).flags, 0u);
}

/* ---- coherence orders around program order ---- */

static int compare_rows(const void *a, const void *b) { return memcmp(a, b, MAX_TOTAL_K); }

/* must[] for k writes whose threads are thread_of[0..k-1] (a write comes
 * before every later write of its thread). */
static void chains(int k, const int *thread_of, uint8_t *must)
{
    memset(must, 0, MAX_TOTAL_K);
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            if (thread_of[i] == thread_of[j])
                must[i] |= (uint8_t)(1u << j);
}

static bool contains(const uint8_t *rows, const uint8_t *must, int k)
{
    for (int i = 0; i < k; i++)
        if ((rows[i] & must[i]) != must[i])
            return false;
    return true;
}

/* The second path: every order of k writes (order_table_build), those
 * that contain must, against order_table_build_containing. */
static void check_against_filtered(int k, bool partial, const uint8_t *must)
{
    order_table all, built;
    order_table_build(&all, k, partial);
    CU_ASSERT_TRUE_FATAL(order_table_build_containing(&built, k, partial, must, 1 << 20));
    uint8_t(*want)[MAX_TOTAL_K] = GC_MALLOC_ATOMIC(sizeof *want * (size_t)(all.count ? all.count : 1));
    int n = 0;
    for (int o = 0; o < all.count; o++)
        if (contains(all.rows[o], must, k))
            memcpy(want[n++], all.rows[o], MAX_TOTAL_K);
    CU_ASSERT_EQUAL_FATAL(built.count, n);
    uint8_t(*got)[MAX_TOTAL_K] = GC_MALLOC_ATOMIC(sizeof *got * (size_t)(n ? n : 1));
    memcpy(got, built.rows, sizeof *got * (size_t)n);
    qsort(want, (size_t)n, sizeof *want, compare_rows);
    qsort(got, (size_t)n, sizeof *got, compare_rows);
    CU_ASSERT(memcmp(want, got, sizeof *got * (size_t)n) == 0);
}

static void test_orders_containing_program_order(void)
{
    /* every assignment of up to 5 writes to up to 3 threads */
    for (int k = 1; k <= MAX_PARTIAL_K; k++) {
        int assignments = 1;
        for (int i = 0; i < k; i++)
            assignments *= 3;
        for (int a = 0; a < assignments; a++) {
            int thread_of[MAX_TOTAL_K], rest = a;
            for (int i = 0; i < k; i++, rest /= 3)
                thread_of[i] = rest % 3;
            uint8_t must[MAX_TOTAL_K];
            chains(k, thread_of, must);
            check_against_filtered(k, true, must);
            check_against_filtered(k, false, must);
        }
    }
}

/* Beyond what the full tables list: two threads' chains of four writes.
 * Total orders are the interleavings, 8!/(4!4!) = 70.  Partial orders:
 * each one a strict order (irreflexive, transitive), containing the
 * chains, none twice. */
static void test_orders_of_two_chains_of_four(void)
{
    static const int thread_of[] = {0, 0, 0, 0, 1, 1, 1, 1};
    uint8_t must[MAX_TOTAL_K];
    chains(8, thread_of, must);
    order_table total, partial;
    CU_ASSERT_TRUE_FATAL(order_table_build_containing(&total, 8, false, must, 1 << 20));
    CU_ASSERT_EQUAL(total.count, 70);
    CU_ASSERT_TRUE_FATAL(order_table_build_containing(&partial, 8, true, must, 1 << 20));
    CU_ASSERT(partial.count > total.count);
    for (int o = 0; o < partial.count; o++) {
        const uint8_t *r = partial.rows[o];
        CU_ASSERT(contains(r, must, 8));
        for (int i = 0; i < 8; i++) {
            CU_ASSERT(!(r[i] & (1u << i)));
            for (int j = 0; j < 8; j++)
                if (r[i] & (1u << j))
                    CU_ASSERT((r[j] & ~r[i]) == 0);
        }
    }
    qsort(partial.rows, (size_t)partial.count, MAX_TOTAL_K, compare_rows);
    for (int o = 1; o < partial.count; o++)
        CU_ASSERT(memcmp(partial.rows[o - 1], partial.rows[o], MAX_TOTAL_K) != 0);
    /* a limit below the count is refused */
    order_table small;
    CU_ASSERT_FALSE(order_table_build_containing(&small, 8, true, must, 100));
}

/* A CAS spin lock: each CAS writes (a failed one writes back what it
 * read), so at --unroll 2 each thread writes m up to four times.  Under
 * SC no increment of x is lost: x ends 2.  The enumeration is complete. */
static void test_cas_spin_lock_is_decided(void)
{
    const char *lock =
        "PTX CASLock\n{ m=0; x=0; }\n"
        " P0@cta 0,gpu 0                   | P1@cta 1,gpu 0                   ;\n"
        " L0:                              | L1:                              ;\n"
        " atom.acquire.gpu.cas r0, m, 0, 1 | atom.acquire.gpu.cas r0, m, 0, 1 ;\n"
        " bne r0, 0, L0                    | bne r0, 0, L1                    ;\n"
        " ld.weak r1, x                    | ld.weak r1, x                    ;\n"
        " add r2, r1, 1                    | add r2, r1, 1                    ;\n"
        " st.weak x, r2                    | st.weak x, r2                    ;\n"
        " st.release.gpu m, 0              | st.release.gpu m, 0              ;\n"
        "exists (x == 1)\n";
    check_result r = run(lock, SC_MODEL);
    CU_ASSERT_PTR_NULL(enumerate_incomplete(&r));
    CU_ASSERT_EQUAL(r.positive, 0);
    CU_ASSERT(r.negative > 0);
    CU_ASSERT_EQUAL(outcome_count(r.states), 1);
}

/* ---- spinning threads and barriers ---- */

/* A chain of four threads: P0 releases f1, P1..P3 each spin on their flag
 * and release the next; P3 then reads d.  Each hop needs a value that only
 * appears once the previous thread leaves its loop: P3 must still get a
 * trace that leaves its loop (it had none).  Under SC P3 reads d = 1. */
static void test_chain_of_four_spinning_threads(void)
{
    const char *chain =
        "PTX Chain4\n{ d=0; f1=0; f2=0; f3=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n"
        " st.weak d, 1   | L1:            | L2:            | L3:            ;\n"
        " st.weak f1, 1  | ld.weak r0, f1 | ld.weak r0, f2 | ld.weak r0, f3 ;\n"
        "                | bne r0, 1, L1  | bne r0, 1, L2  | bne r0, 1, L3  ;\n"
        "                | st.weak f2, 1  | st.weak f3, 1  | ld.weak r1, d  ;\n"
        "exists (P3:r1 == 0)\n";
    litmus_test *t = parse(chain);
    tp_limits lim = {.unroll = 2, .max_traces = 1000};
    tp_result paths;
    thread_paths_build(t, &lim, &paths);
    for (int th = 1; th < 4; th++) {
        bool leaves = false;
        for (int i = 0; i < paths.threads[th].ntraces; i++) {
            const tp_trace *tr = &paths.threads[th].traces[i];
            for (int e = 0; e < tr->nevents; e++)
                leaves |= tr->events[e].kind == EV_READ && tr->events[e].value == 1;
        }
        CU_ASSERT(leaves);
    }
    check_result r = run(chain, SC_MODEL);
    CU_ASSERT(r.negative > 0);
    CU_ASSERT_EQUAL(r.positive, 0);
}

/* A barrier used twice by two threads of a CTA (no count: phase k holds
 * each thread's k-th arrival).  P1 reads x after the first phase, P0 reads
 * y after the second.  Under SC with barriers (what is before a barrier
 * event in program order comes before what is after the events it
 * synchronises with) both see 1: one state, and there are executions
 * (there were none: the four arrivals made one group). */
static void test_barrier_used_twice(void)
{
    const char *bar2 =
        "PTX Bar2\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " st.weak x, 1   | bar.cta.sync 0 ;\n"
        " bar.cta.sync 0 | ld.weak r0, x  ;\n"
        " bar.cta.sync 0 | st.weak y, 1   ;\n"
        " ld.weak r1, y  | bar.cta.sync 0 ;\n"
        "exists (P1:r0 == 1 /\\ P0:r1 == 1)\n";
    check_result r = run(bar2, "B\noption co = total\n"
                               "let bar = [M] ; po ; [B] ; syncbar ; [B] ; po ; [M]\n"
                               "acyclic po | rf | co | fr | bar as sc\n");
    CU_ASSERT_EQUAL(outcome_count(r.states), 1);
    CU_ASSERT(r.positive > 0);
    CU_ASSERT_EQUAL(r.negative, 0);
    CU_ASSERT_FALSE(r.hang);
}

/* A barrier event whose uses wait for threads 0 and 1 (bar_event.mates). */
static bar_event ev(int event, int thread, lit_value count, bool waits)
{
    return (bar_event){event, thread, 0, 0, 3u, 0, count, waits};
}

/* The same, in a CTA of threads 0, 1 and 2 under the hardware's reading. */
static bar_event ev3(int event, int thread, lit_value count, bool waits)
{
    return (bar_event){event, thread, 0, 0, 7u, 0, count, waits};
}

static int pairs_of(const barrier_set *b, int group, int choice, int n)
{
    relation *r = GC_MALLOC_ATOMIC(rel_bytes(n));
    rel_clear(r, n);
    barriers_apply(b, group, choice, r, n);
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            count += rel_has(r, i, j, n);
    return count;
}

static void test_barrier_phases(void)
{
    barrier_set *b = barriers_new();
    /* no count, two threads, two phases: phase 1 = {0, 2}, phase 2 =
     * {1, 3}; a sync is preceded by the other event of its phase and
     * both events of every earlier phase: 1 + 1 + 3 + 3 = 8 pairs */
    bar_event two_phases[] = {ev(0, 0, -1, true), ev(1, 0, -1, true), ev(2, 1, -1, true), ev(3, 1, -1, true)};
    CU_ASSERT_EQUAL(barriers_build(b, two_phases, 4, BAR_READ_DAT3M), BAR_OK);
    CU_ASSERT_EQUAL(barriers_groups(b), 1);
    CU_ASSERT_EQUAL(barriers_choices(b, 0), 1);
    CU_ASSERT_EQUAL(pairs_of(b, 0, 0, 4), 8);
    /* a thread that never reaches the second phase: the other waits */
    bar_event uneven[] = {ev(0, 0, -1, true), ev(1, 0, -1, true), ev(2, 1, -1, true)};
    CU_ASSERT_EQUAL(barriers_build(b, uneven, 3, BAR_READ_DAT3M), BAR_HANG);
    /* count 2, three threads: the first two arrivals complete the phase,
     * the third passes (the reference's quorum tests); who comes third
     * varies: three choices */
    bar_event quorum[] = {ev(0, 0, 2, true), ev(1, 1, 2, true), ev(2, 2, 2, true)};
    CU_ASSERT_EQUAL(barriers_build(b, quorum, 3, BAR_READ_DAT3M), BAR_OK);
    CU_ASSERT_EQUAL(barriers_choices(b, 0), 3);
    /* count 4, three threads: never complete */
    bar_event short_of[] = {ev(0, 0, 4, true), ev(1, 1, 4, true), ev(2, 2, 4, true)};
    CU_ASSERT_EQUAL(barriers_build(b, short_of, 3, BAR_READ_DAT3M), BAR_HANG);
    /* more counted arrivals than are ordered */
    bar_event many[BAR_MAX_COUNTED_EVENTS + 1];
    for (int i = 0; i <= BAR_MAX_COUNTED_EVENTS; i++)
        many[i] = ev(i, i, 2, true);
    CU_ASSERT_EQUAL(barriers_build(b, many, BAR_MAX_COUNTED_EVENTS + 1, BAR_READ_DAT3M), BAR_TOO_MANY);
}

/* The hardware's reading (docs/liveness.md "Barrier readings"): the same
 * events, in a CTA of three threads. */
static void test_barrier_phases_hardware(void)
{
    barrier_set *b = barriers_new();
    /* no count, two of the CTA's three threads: the third never arrives
     * (Dat3M's reading: the third's code has no such barrier) */
    bar_event two_of_two[] = {ev(0, 0, -1, true), ev(1, 1, -1, true)};
    CU_ASSERT_EQUAL(barriers_build(b, two_of_two, 2, BAR_READ_DAT3M), BAR_OK);
    bar_event two_of_three[] = {ev3(0, 0, -1, true), ev3(1, 1, -1, true)};
    CU_ASSERT_EQUAL(barriers_build(b, two_of_three, 2, BAR_READ_HARDWARE), BAR_HANG);
    /* all three: one phase, each sync preceded by the other two */
    bar_event all_three[] = {ev3(0, 0, -1, true), ev3(1, 1, -1, true), ev3(2, 2, -1, true)};
    CU_ASSERT_EQUAL(barriers_build(b, all_three, 3, BAR_READ_HARDWARE), BAR_OK);
    CU_ASSERT_EQUAL(pairs_of(b, 0, 0, 3), 6);
    /* count 2, three threads: whoever arrives third waits for a second use
     * that never fills, in every arrival order */
    bar_event quorum[] = {ev3(0, 0, 2, true), ev3(1, 1, 2, true), ev3(2, 2, 2, true)};
    CU_ASSERT_EQUAL(barriers_build(b, quorum, 3, BAR_READ_HARDWARE), BAR_HANG);
    /* count 2, four arrivals: two full uses */
    bar_event twice[] = {ev3(0, 0, 2, true), ev3(1, 0, 2, true), ev3(2, 1, 2, true), ev3(3, 2, 2, true)};
    CU_ASSERT_EQUAL(barriers_build(b, twice, 4, BAR_READ_HARDWARE), BAR_OK);
    /* an arrive (no wait) completes the use: no one waits forever */
    bar_event arrive[] = {ev3(0, 0, 2, true), ev3(1, 1, 2, false)};
    CU_ASSERT_EQUAL(barriers_build(b, arrive, 2, BAR_READ_HARDWARE), BAR_OK);
}

/* ---- limits make a result incomplete ---- */

/* Thirty-two threads, each storing its flag and reading the next: 2^32
 * combinations of traces.  A tiny time limit stops it: the result says
 * timeout, and what was found so far stands. */
static void test_time_limit_stops_the_enumeration(void)
{
    text t = {0};
    add(&t, "PTX Ring32\n{ }\n");
    for (int i = 0; i < 32; i++)
        add(&t, "%sP%d@cta %d,gpu 0", i ? " | " : " ", i, i);
    add(&t, " ;\n");
    for (int i = 0; i < 32; i++)
        add(&t, "%sst.relaxed.gpu x%d, 1", i ? " | " : " ", i);
    add(&t, " ;\n");
    for (int i = 0; i < 32; i++)
        add(&t, "%sld.relaxed.gpu r0, x%d", i ? " | " : " ", (i + 1) % 32);
    add(&t, " ;\nforall (P0:r0 == 0 \\/ P0:r0 == 1)\n");
    enum_options o = {.unroll = 2, .max_traces = 1000, .timeout_s = 0.2};
    check_result r = run_opts(t.s, ANY_MODEL, &o);
    CU_ASSERT_TRUE(r.timed_out);
    CU_ASSERT_STRING_EQUAL(enumerate_incomplete(&r), "timeout");
    CU_ASSERT_EQUAL(r.negative, 0);
}

void register_enumerate_wide_tests(void)
{
    CU_pSuite s = CU_add_suite("enumerate: wide executions, loops, limits", NULL, NULL);
    CU_add_test(s, "unused locations change nothing", test_unused_locations_change_nothing);
    CU_add_test(s, "long straight-line threads", test_long_straight_line_threads);
    CU_add_test(s, "dependencies across words", test_dependencies_across_words);
    CU_add_test(s, "orders containing program order", test_orders_containing_program_order);
    CU_add_test(s, "orders of two chains of four", test_orders_of_two_chains_of_four);
    CU_add_test(s, "CAS spin lock is decided", test_cas_spin_lock_is_decided);
    CU_add_test(s, "chain of four spinning threads", test_chain_of_four_spinning_threads);
    CU_add_test(s, "barrier used twice", test_barrier_used_twice);
    CU_add_test(s, "barrier phases", test_barrier_phases);
    CU_add_test(s, "barrier phases, the hardware's reading", test_barrier_phases_hardware);
    CU_add_test(s, "time limit", test_time_limit_stops_the_enumeration);
}
