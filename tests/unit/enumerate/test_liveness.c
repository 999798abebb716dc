/* test_liveness.c: unit tests of liveness mode (thread_paths) and of the
 * liveness check (enumerate/liveness.c, enumerate_liveness).  Each
 * expected verdict is derived by hand in the comment above its test. */
#include <CUnit/CUnit.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "enumerate/liveness.h"
#include "litmus/thread_paths.h"
#include "enumerate/trace_filter.h"
#include "litmus/read.h"
#include "unit_suites.h"

/* SC with atomicity and the promise of thread coherence (as models/sc.cat) */
static const char *SC_MODEL = "SC\noption co = total\noption thread-coherence = enforced\n"
                               "acyclic po | rf | co | fr as sc\nempty rmw & (fr ; co) as atomicity\n";
/* every candidate execution is consistent: reads may be stale forever */
static const char *ANY_MODEL = "ANY\noption co = total\nempty 0 as nothing\n";

static litmus_test *parse(const char *text)
{
    litmus_test *t = litmus_parse_text("t.litmus", text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static live_result check(const char *test, const char *model, int unroll, enum live_fairness fair, int occupancy)
{
    litmus_test *t = parse(test);
    cat_model *m = cat_load_string("m.cat", model, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    enum_options o = {.unroll = unroll, .max_traces = 100000};
    live_options lo = {.fairness = fair, .occupancy = occupancy};
    live_result r;
    enumerate_liveness(t, m, cat_workspace_new(m), &o, &lo, &r);
    return r;
}

static live_result check_weak(const char *test, const char *model)
{
    return check(test, model, 2, LIVE_FAIR_WEAK, 0);
}

static bool has_stuck(const live_result *r, int thread, enum live_kind kind)
{
    for (int i = 0; i < r->nstuck; i++)
        if (r->stuck[i].thread == thread && r->stuck[i].kind == kind)
            return true;
    return false;
}

/* P1 waits for a flag nobody sets. */
static const char *NEVER_SET =
    "PTX Never\n{ f=0; x=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0  ;\n"
    " st.weak x, 1   | L:              ;\n"
    "                | ld.weak r0, f   ;\n"
    "                | beq r0, 0, L    ;\n"
    "exists (P1:r0 == 0)\n";

/* P1 waits for the flag P0 sets. */
static const char *SET =
    "PTX Set\n{ f=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0  ;\n"
    " st.weak f, 1   | L:              ;\n"
    "                | ld.weak r0, f   ;\n"
    "                | beq r0, 0, L    ;\n"
    "exists (P1:r0 == 1)\n";

/* Liveness mode, by hand on SET's P1: the loop head L is visited with no
 * live register (r0 is written before it is read), so the second visit
 * repeats the first.  Paths: read 1 and exit (DONE, one read); read 0 and
 * come back (SPIN, the iteration being that read).  No loop bound is used:
 * the same two traces whatever unroll is. */
static void test_liveness_mode_paths(void)
{
    litmus_test *t = parse(SET);
    for (int unroll = 0; unroll <= 5; unroll += 5) {
        tp_limits lim = {.unroll = unroll, .max_traces = 100, .liveness = true, .live_repeats = 2};
        tp_result p;
        thread_paths_build(t, &lim, &p);
        CU_ASSERT_FALSE(p.too_many || p.too_long || p.stopped);
        CU_ASSERT_FALSE(p.unroll_cut);
        CU_ASSERT_FALSE(p.live_cut);
        CU_ASSERT_PTR_NULL(p.live_unknown);
        const tp_thread *p1 = &p.threads[1];
        CU_ASSERT_EQUAL_FATAL(p1->ntraces, 2);
        int done = -1, spin = -1;
        for (int i = 0; i < p1->ntraces; i++) {
            if (p1->traces[i].end == TP_END_DONE)
                done = i;
            if (p1->traces[i].end == TP_END_SPIN)
                spin = i;
        }
        CU_ASSERT_FATAL(done >= 0 && spin >= 0);
        CU_ASSERT_EQUAL(p1->traces[done].nevents, 1);
        CU_ASSERT_EQUAL(p1->traces[done].events[0].value, 1);
        CU_ASSERT_EQUAL(p1->traces[spin].nevents, 1);
        CU_ASSERT_EQUAL(p1->traces[spin].spin_from, 0);
        CU_ASSERT_EQUAL(p1->traces[spin].loop_pc, 0);
        CU_ASSERT_EQUAL(p1->traces[spin].events[0].value, 0);
    }
}

/* With prefixes (no fairness), P0 of SET has its empty prefix besides its
 * one complete trace; P1 its prefix before the read as well. */
static void test_prefix_traces(void)
{
    litmus_test *t = parse(SET);
    tp_limits lim = {.unroll = 2, .max_traces = 100, .liveness = true, .live_repeats = 2, .prefixes = true};
    tp_result p;
    thread_paths_build(t, &lim, &p);
    CU_ASSERT_FALSE(p.too_many || p.too_long || p.stopped);
    int prefixes = 0;
    for (int i = 0; i < p.threads[0].ntraces; i++)
        prefixes += p.threads[0].traces[i].end == TP_END_PREFIX && p.threads[0].traces[i].nevents == 0;
    CU_ASSERT_EQUAL(prefixes, 1);
    CU_ASSERT_EQUAL(p.threads[0].ntraces, 2);
}

/* NEVER_SET: f stays 0 (its only write is the initial one), so P1's read
 * of 0 is final and its loop repeats forever: No, P1 spinning on f=0. */
static void test_flag_never_set(void)
{
    for (int unroll = 0; unroll <= 4; unroll += 2) {
        live_result r = check(NEVER_SET, SC_MODEL, unroll, LIVE_FAIR_WEAK, 0);
        CU_ASSERT_EQUAL(r.verdict, LIVE_NO);
        CU_ASSERT_EQUAL_FATAL(r.nstuck, 1);
        CU_ASSERT_EQUAL(r.stuck[0].thread, 1);
        CU_ASSERT_EQUAL(r.stuck[0].kind, LIVE_SPIN);
        CU_ASSERT_EQUAL(r.stuck[0].nreads, 1);
        CU_ASSERT_EQUAL(r.stuck[0].read_value[0], 0);
    }
}

/* SET: a stuck execution needs P1's read of f=0 to be final, but P0's
 * write of 1 (P0 finishes under weak fairness) is co-after the initial
 * write: not final.  Even with a model that allows every candidate, the
 * check is about final values: Ok under both. */
static void test_flag_set_terminates(void)
{
    CU_ASSERT_EQUAL(check_weak(SET, SC_MODEL).verdict, LIVE_OK);
    CU_ASSERT_EQUAL(check_weak(SET, ANY_MODEL).verdict, LIVE_OK);
}

/* Without fairness P0 may be starved before its write: f stays 0 and P1
 * spins.  With occupancy 1, P0's CTA is first: it runs, finishes, then
 * P1 is dispatched and reads 1: Ok. */
static void test_flag_set_schedulings(void)
{
    live_result none = check(SET, SC_MODEL, 2, LIVE_FAIR_NONE, 0);
    CU_ASSERT_EQUAL(none.verdict, LIVE_NO);
    CU_ASSERT_TRUE(has_stuck(&none, 1, LIVE_SPIN));
    CU_ASSERT_EQUAL(check(SET, SC_MODEL, 2, LIVE_FAIR_WEAK, 1).verdict, LIVE_OK);
}

/* Each thread spins until the other has written: both spin on 0 forever. */
static void test_mutual_wait(void)
{
    const char *both =
        "PTX Both\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " L0:            | L1:            ;\n"
        " ld.weak r0, y  | ld.weak r1, x  ;\n"
        " beq r0, 0, L0  | beq r1, 0, L1  ;\n"
        " st.weak x, 1   | st.weak y, 1   ;\n"
        "exists (P0:r0 == 1)\n";
    live_result r = check_weak(both, SC_MODEL);
    CU_ASSERT_EQUAL(r.verdict, LIVE_NO);
    CU_ASSERT_TRUE(has_stuck(&r, 0, LIVE_SPIN));
    CU_ASSERT_TRUE(has_stuck(&r, 1, LIVE_SPIN));
}

/* A two-CTA counter barrier: each adds 1 then waits for 2.  All resident:
 * both adds happen, 2 is final: Ok.  Occupancy 1: P0 (first CTA) waits
 * for 2 while P1 is never dispatched, since P0 never finishes: No, with P1
 * undispatched. */
static const char *COUNTER_BARRIER =
    "PTX CB\n{ c=0; }\n"
    " P0@cta 0,gpu 0              | P1@cta 1,gpu 0              ;\n"
    " atom.relaxed.gpu.add r0, c, 1 | atom.relaxed.gpu.add r1, c, 1 ;\n"
    " L0:                          | L1:                          ;\n"
    " ld.relaxed.gpu r2, c         | ld.relaxed.gpu r3, c         ;\n"
    " bne r2, 2, L0                | bne r3, 2, L1                ;\n"
    "exists (P0:r2 == 2)\n";

static void test_counter_barrier_occupancy(void)
{
    CU_ASSERT_EQUAL(check_weak(COUNTER_BARRIER, SC_MODEL).verdict, LIVE_OK);
    CU_ASSERT_EQUAL(check(COUNTER_BARRIER, SC_MODEL, 2, LIVE_FAIR_WEAK, 2).verdict, LIVE_OK);
    live_result one = check(COUNTER_BARRIER, SC_MODEL, 2, LIVE_FAIR_WEAK, 1);
    CU_ASSERT_EQUAL(one.verdict, LIVE_NO);
    CU_ASSERT_TRUE(has_stuck(&one, 0, LIVE_SPIN));
    CU_ASSERT_TRUE(has_stuck(&one, 1, LIVE_UNDISPATCHED));
}

/* A counted barrier for 3 with 2 threads never releases: both blocked.
 * The same threads at a whole-CTA barrier (no count: the CTA's 2 threads)
 * release: Ok. */
static void test_barriers(void)
{
    const char *count3 =
        "PTX B3\n{ x=0; }\n"
        " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
        " bar.cta.sync 0, 0, 3 | bar.cta.sync 0, 0, 3 ;\n"
        "exists (x == 0)\n";
    live_result r = check_weak(count3, SC_MODEL);
    CU_ASSERT_EQUAL(r.verdict, LIVE_NO);
    CU_ASSERT_TRUE(has_stuck(&r, 0, LIVE_BARRIER));
    CU_ASSERT_TRUE(has_stuck(&r, 1, LIVE_BARRIER));
    const char *whole =
        "PTX BW\n{ x=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " st.weak x, 1   | bar.cta.sync 0 ;\n"
        " bar.cta.sync 0 | bar.cta.sync 0 ;\n"
        " bar.cta.sync 0 | ld.weak r0, x  ;\n"
        "exists (P1:r0 == 0)\n";
    CU_ASSERT_EQUAL(check_weak(whole, SC_MODEL).verdict, LIVE_OK);
    /* Without fairness P1 may be starved before its first arrival: P0
     * waits at its first use of barrier 0 forever. */
    CU_ASSERT_EQUAL(check(whole, SC_MODEL, 2, LIVE_FAIR_NONE, 0).verdict, LIVE_NO);
}

static live_result check_reading(const char *test, enum bar_reading reading, bool *completes)
{
    litmus_test *t = parse(test);
    cat_model *m = cat_load_string("m.cat", SC_MODEL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    enum_options o = {.unroll = 2, .max_traces = 100000, .barriers = reading};
    live_options lo = {.fairness = LIVE_FAIR_WEAK};
    check_result cr;
    CU_ASSERT_TRUE_FATAL(enumerate_check(t, m, cat_workspace_new(m), &o, &cr, stderr));
    *completes = cr.positive + cr.negative > 0;
    live_result r;
    enumerate_liveness(t, m, cat_workspace_new(m), &o, &lo, &r);
    return r;
}

/* One barrier reading for both halves (docs/liveness.md "Barrier
 * readings"): a test completes in the safety half exactly when the
 * liveness half finds no thread blocked at a barrier (these tests have no
 * loop).  Dat3M's reading: a use without a count waits for the threads
 * whose code holds it, a counted one lets the arrivals beyond the first
 * quorum pass; the hardware's: the whole CTA, exactly `count` per use. */
static void test_barrier_readings(void)
{
    const struct {
        const char *name, *text;
        bool live_dat3m, live_hardware;
    } cases[] = {
        /* P2 of the CTA has no barrier */
        {"part of a CTA",
         "PTX P\n{ x=0; }\n"
         " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
         " bar.cta.sync 0 | bar.cta.sync 0 | st.weak x, 1   ;\n"
         "exists (x == 1)\n",
         true, false},
        /* each thread alone at its own id */
        {"different ids",
         "PTX D\n{ x=0; }\n"
         " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
         " bar.cta.sync 1 | bar.cta.sync 2 ;\n"
         "exists (x == 0)\n",
         true, false},
        /* three arrivals at a barrier counted for two */
        {"quorum below the arrivals",
         "PTX Q\n{ x=0; }\n"
         " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       ;\n"
         " bar.cta.sync 0, 1, 2 | bar.cta.sync 0, 1, 2 | bar.cta.sync 0, 1, 2 ;\n"
         "exists (x == 0)\n",
         true, false},
        /* P1 holds the barrier but may branch around it */
        {"a barrier branched around",
         "PTX S\n{ f=0; }\n"
         " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
         " st.weak f, 1   | ld.weak r0, f  ;\n"
         " bar.cta.sync 0 | bne r0, 1, END ;\n"
         "                | bar.cta.sync 0 ;\n"
         "                | END:           ;\n"
         "exists (P1:r0 == 1)\n",
         false, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        for (int k = 0; k < 2; k++) {
            enum bar_reading reading = k ? BAR_READ_HARDWARE : BAR_READ_DAT3M;
            bool live = k ? cases[i].live_hardware : cases[i].live_dat3m, completes;
            live_result r = check_reading(cases[i].text, reading, &completes);
            if (r.verdict != (live ? LIVE_OK : LIVE_NO))
                fprintf(stderr, "\n%s, %s: liveness %d\n", cases[i].name, k ? "hardware" : "dat3m", r.verdict);
            CU_ASSERT_EQUAL(r.verdict, live ? LIVE_OK : LIVE_NO);
            /* without loops, blocked at a barrier in some execution: the
             * skipped-barrier case still completes when P1 reads 1 */
            if (i < 3)
                CU_ASSERT_EQUAL(completes, live);
        }
    }
}

/* The printed HeteroSync exit test (seed 000, Fig 4.2b): only the CAS that
 * sees 2 resets the counter and exits; the other then reads 0 forever
 * (its failing CAS writes 0 back: a silent write, the iteration is pure).
 * With the corrected test (== 0) the winner loops once more and reads the
 * 0 it wrote; the other reads 0 after the reset: Ok.  The winner's
 * iteration that writes 0 is not pure, so it is followed; the checker
 * then shows that no execution repeats it beyond the bound (the cut
 * phase): Ok, not Unknown. */
static void test_heterosync_exit_test(void)
{
    const char *printed =
        "PTX HSp\n{ g=0; }\n"
        " P0@cta 0,gpu 0                  | P1@cta 1,gpu 0                  ;\n"
        " atom.relaxed.gpu.add r0, g, 1    | atom.relaxed.gpu.add r0, g, 1    ;\n"
        " L0:                              | L1:                              ;\n"
        " atom.relaxed.gpu.cas r1, g, 2, 0 | atom.relaxed.gpu.cas r1, g, 2, 0 ;\n"
        " bne r1, 2, L0                    | bne r1, 2, L1                    ;\n"
        "exists (P0:r1 == 2)\n";
    live_result p = check_weak(printed, SC_MODEL);
    CU_ASSERT_EQUAL(p.verdict, LIVE_NO);
    CU_ASSERT_TRUE(p.nstuck > 0 && p.stuck[0].kind == LIVE_SPIN && p.stuck[0].read_value[0] == 0);
    const char *fixed =
        "PTX HSf\n{ g=0; }\n"
        " P0@cta 0,gpu 0                  | P1@cta 1,gpu 0                  ;\n"
        " atom.relaxed.gpu.add r0, g, 1    | atom.relaxed.gpu.add r0, g, 1    ;\n"
        " L0:                              | L1:                              ;\n"
        " atom.relaxed.gpu.cas r1, g, 2, 0 | atom.relaxed.gpu.cas r1, g, 2, 0 ;\n"
        " bne r1, 0, L0                    | bne r1, 0, L1                    ;\n"
        "exists (P0:r1 == 0)\n";
    for (int unroll = 0; unroll <= 3; unroll += 3)
        CU_ASSERT_EQUAL(check(fixed, SC_MODEL, unroll, LIVE_FAIR_WEAK, 0).verdict, LIVE_OK);
}

/* A loop that writes forever is not a spin: its state repeats but memory
 * does not; every cut is reachable, whatever bound (or, at the last bound,
 * the execution has more writes than the enumerator takes): Unknown, with
 * the reason.  A loop with no memory access at all repeats forever: No. */
static void test_loops_beyond_and_within(void)
{
    const char *writer =
        "PTX Writer\n{ x=0; }\n"
        " P0@cta 0,gpu 0      ;\n"
        " L:                  ;\n"
        " st.relaxed.gpu x, 1 ;\n"
        " goto L              ;\n"
        "exists (x == 0)\n";
    live_result a = check_weak(writer, SC_MODEL);
    CU_ASSERT_EQUAL(a.verdict, LIVE_UNKNOWN);
    CU_ASSERT_PTR_NOT_NULL(a.unknown);
    CU_ASSERT_EQUAL(a.nstuck, 0);
    const char *idle =
        "PTX Idle\n{ x=0; }\n"
        " P0@cta 0,gpu 0 ;\n"
        " L:             ;\n"
        " add r1, r1, 1  ;\n"
        " goto L         ;\n"
        "exists (x == 0)\n";
    live_result i = check_weak(idle, SC_MODEL);
    CU_ASSERT_EQUAL(i.verdict, LIVE_NO);
    CU_ASSERT_TRUE(has_stuck(&i, 0, LIVE_SPIN));
}

/* A test with no backward branch and no waiting barrier terminates. */
static void test_straight_line_is_live(void)
{
    const char *sb =
        "PTX SB\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.weak x, 1   | st.weak y, 1   ;\n"
        " ld.weak r0, y  | ld.weak r1, x  ;\n"
        "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n";
    litmus_test *t = parse(sb);
    CU_ASSERT_FALSE(live_test_may_hang(t));
    CU_ASSERT_EQUAL(check(sb, SC_MODEL, 2, LIVE_FAIR_NONE, 1).verdict, LIVE_OK);
}

/* The liveness check follows executions of up to 64 events.  Here P0
 * writes x 70 times and P1 waits for a flag nobody sets: the stuck
 * execution has 2 initial writes + 70 + 1 read = 73 events, so the check
 * cannot establish it and must not say Ok either: Unknown, saying why. */
static void test_execution_beyond_64_events(void)
{
    char *text = malloc(8192);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t at = (size_t)sprintf(text, "PTX Wide\n{ f=0; x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n");
    for (int i = 0; i < 70; i++)
        at += (size_t)sprintf(text + at, " st.weak x, %d | %s ;\n", i + 1,
                              i == 0 ? "L:" : i == 1 ? "ld.weak r0, f" : i == 2 ? "beq r0, 0, L" : "");
    sprintf(text + at, "exists (x == 70)\n");
    live_result r = check_weak(text, SC_MODEL);
    CU_ASSERT_EQUAL(r.verdict, LIVE_UNKNOWN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.unknown);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.unknown, "64 events"));
    free(text);
}

/* Liveness mode's live-register sets span words: SET's P1 with 71
 * registers, the loop comparing r0 with r70 (set to 0 before the loop, so
 * live at L, in the second word).  By hand as test_liveness_mode_paths:
 * read 1 and exit (DONE), read 0 and come back to L with r70 unchanged
 * (SPIN). */
static void test_liveness_mode_wide_registers(void)
{
    char *text = malloc(8192);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t at = (size_t)sprintf(text, "PTX SetWide\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                      " st.weak f, 1 | mov r70, 0 ;\n");
    for (int i = 1; i < 70; i++)
        at += (size_t)sprintf(text + at, " | mov r%d, %d ;\n", i, i);
    sprintf(text + at, " | L: ;\n | ld.weak r0, f ;\n | beq r0, r70, L ;\nexists (P1:r0 == 1)\n");
    litmus_test *t = parse(text);
    free(text);
    CU_ASSERT_TRUE_FATAL(t->threads[1].nregs > 64);
    tp_limits lim = {.unroll = 2, .max_traces = 100, .liveness = true, .live_repeats = 2};
    tp_result p;
    thread_paths_build(t, &lim, &p);
    CU_ASSERT_FALSE(p.too_many || p.too_long || p.stopped || p.live_cut);
    const tp_thread *p1 = &p.threads[1];
    CU_ASSERT_EQUAL_FATAL(p1->ntraces, 2);
    int ends = 0;
    for (int i = 0; i < p1->ntraces; i++)
        ends |= 1 << p1->traces[i].end;
    CU_ASSERT_EQUAL(ends, (1 << TP_END_DONE) | (1 << TP_END_SPIN));
}

/* ---- limits: the pass stops when told, and says why ------------------------ */

/* NEVER_SET's stuck execution would be found at once; with the signal flag
 * already raised, or no time left, the pass must not start: Unknown with
 * the limit's word, never No or Ok from partial work. */
static void test_pass_stops_at_limits(void)
{
    litmus_test *t = parse(NEVER_SET);
    cat_model *m = cat_load_string("m.cat", SC_MODEL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    live_options lo = {.fairness = LIVE_FAIR_WEAK};
    live_result r;
    volatile sig_atomic_t raised = 1;
    enum_options o = {.unroll = 2, .max_traces = 100000, .stop = &raised};
    enumerate_liveness(t, m, cat_workspace_new(m), &o, &lo, &r);
    CU_ASSERT_EQUAL(r.verdict, LIVE_UNKNOWN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.incomplete);
    CU_ASSERT_STRING_EQUAL(r.incomplete, "interrupted");
    CU_ASSERT_EQUAL(r.violations, 0);

    enum_options late = {.unroll = 2, .max_traces = 100000, .timeout_s = 1e-9};
    enumerate_liveness(t, m, cat_workspace_new(m), &late, &lo, &r);
    CU_ASSERT_EQUAL(r.verdict, LIVE_UNKNOWN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.incomplete);
    CU_ASSERT_STRING_EQUAL(r.incomplete, "timeout");

    /* no limit: the same test is not live (test_flag_never_set) */
    enum_options free_run = {.unroll = 2, .max_traces = 100000};
    enumerate_liveness(t, m, cat_workspace_new(m), &free_run, &lo, &r);
    CU_ASSERT_EQUAL(r.verdict, LIVE_NO);
    CU_ASSERT_PTR_NULL(r.incomplete);
}

/* The trace filter in class order visits exactly the combinations it
 * visits in trace order (each once), and a poll that says stop ends the
 * walk.  FAN: P0 reads x four times, P1 writes 1..6 to x, P2 writes y:
 * P0 has 7^4 traces (every value of the domain at each read), in far
 * fewer classes (the set of values read: 7 + 21 + 35 + 35 = 98), P1 and
 * P2 one each; a combination passes when every value P0 reads is 0
 * (initial) or written by P1: all 2401 of them. */
static const char *FAN =
    "PTX Fan\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
    " ld.weak r0, x  | st.weak x, 1   | st.weak y, 1   ;\n"
    " ld.weak r1, x  | st.weak x, 2   |                ;\n"
    " ld.weak r2, x  | st.weak x, 3   |                ;\n"
    " ld.weak r3, x  | st.weak x, 4   |                ;\n"
    "                | st.weak x, 5   |                ;\n"
    "                | st.weak x, 6   |                ;\n"
    "exists (P0:r0 == 1)\n";

typedef struct visits {
    const int *choice;
    long count;
    uint64_t sum;          /* an order-free checksum of the combinations */
    long polls;
    long stop_after;       /* poll says stop from this poll on (0: never) */
} visits;

static bool count_visit(void *ctx)
{
    visits *v = ctx;
    v->count++;
    uint64_t h = (uint64_t)v->choice[0] * 0x9e3779b97f4a7c15u + (uint64_t)v->choice[1] * 0xc2b2ae3d27d4eb4fu +
                 (uint64_t)v->choice[2] * 0x165667b19e3779f9u;
    v->sum += h ^ (h >> 31);
    return true;
}

static bool count_poll(void *ctx)
{
    visits *v = ctx;
    return v->stop_after && ++v->polls >= v->stop_after;
}

static void test_filter_orders_agree(void)
{
    litmus_test *t = parse(FAN);
    tp_limits lim = {.unroll = 2, .max_traces = 100000};
    tp_result p;
    thread_paths_build(t, &lim, &p);
    CU_ASSERT_EQUAL_FATAL(p.threads[0].ntraces, 2401);
    CU_ASSERT_EQUAL_FATAL(p.threads[1].ntraces, 1);
    CU_ASSERT_EQUAL_FATAL(p.threads[2].ntraces, 1);
    trace_filter *f = trace_filter_build(t, &p, true);
    int choice[3];
    visits in_order = {.choice = choice}, any = {.choice = choice};
    trace_filter_each(f, choice, false, count_visit, count_poll, &in_order);
    trace_filter_each(f, choice, true, count_visit, count_poll, &any);
    CU_ASSERT_EQUAL(in_order.count, 2401);
    CU_ASSERT_EQUAL(any.count, in_order.count);
    CU_ASSERT_EQUAL(any.sum, in_order.sum);
    /* asked every 4096 tests: in trace order one test per class of P0
     * (98), then for each of its 2401 traces one at P1 and one at P2
     * (4,900 in all), so the poll is asked at the 4,096th and stops it */
    visits stopped = {.choice = choice, .stop_after = 1};
    trace_filter_each(f, choice, false, count_visit, count_poll, &stopped);
    CU_ASSERT_EQUAL(stopped.polls, 1);
    CU_ASSERT_TRUE(stopped.count < in_order.count);
}

void register_liveness_tests(void)
{
    CU_pSuite s = CU_add_suite("liveness", NULL, NULL);
    CU_add_test(s, "liveness mode paths", test_liveness_mode_paths);
    CU_add_test(s, "prefix traces", test_prefix_traces);
    CU_add_test(s, "flag never set", test_flag_never_set);
    CU_add_test(s, "flag set terminates", test_flag_set_terminates);
    CU_add_test(s, "flag set under schedulings", test_flag_set_schedulings);
    CU_add_test(s, "mutual wait", test_mutual_wait);
    CU_add_test(s, "counter barrier and occupancy", test_counter_barrier_occupancy);
    CU_add_test(s, "barriers", test_barriers);
    CU_add_test(s, "barrier readings: both halves agree", test_barrier_readings);
    CU_add_test(s, "HeteroSync exit test", test_heterosync_exit_test);
    CU_add_test(s, "loops beyond and within the check", test_loops_beyond_and_within);
    CU_add_test(s, "straight-line code is live", test_straight_line_is_live);
    CU_add_test(s, "an execution beyond 64 events is unknown", test_execution_beyond_64_events);
    CU_add_test(s, "liveness mode with registers beyond 64", test_liveness_mode_wide_registers);
    CU_add_test(s, "the pass stops at its limits", test_pass_stops_at_limits);
    CU_add_test(s, "trace filter: class order agrees, poll stops", test_filter_orders_agree);
}
