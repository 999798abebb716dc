/* test_fair_cycle.c: unit tests of search/fair_cycle (fair non-progress
 * cycles) and search/sched (occupancy, preemption) on small synthetic
 * models written here, whose graphs are drawn in the comments. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "search/bfs.h"
#include "search/fair_cycle.h"
#include "search/sched.h"
#include "unit_suites.h"

/* ---- A toy: two threads and a flag.  State bytes: pc of T0, pc of T1,
 * flag, T0's waiting bit, a pending wake-up message (a channel).  Rules:
 * 0 = T0's step, 1 = T1's step, 2 = delivery of the wake-up (unit 2, a
 * channel), 3 = an internal event (no unit).  Each scenario says what the
 * steps do. ---- */

enum { PC0, PC1, FLAG, WAIT0, MSG, NBYTES };

typedef enum scenario {
    SPIN,       /* T0 spins (self-loop) until flag = 1; T1 sets flag; T0 then ends */
    GUARDED,    /* T0 may end only while flag = 1; T1 toggles flag forever (progress at pc 0) */
    DETOUR,     /* T1 loops at pc 0 (a self-loop) or goes to pc 1 (progress) and back; T0 as SPIN but T1 never sets flag */
    BLOCK,      /* T0 blocks (waiting) until a wake-up, sent when T1 sets flag; T1 in another CTA */
    SPLIT,      /* T1: 0 -> 1 (progress) -> 2, then 2 -> 0 or a loop at 2; T0 done from the start */
} scenario;

typedef struct toy {
    scenario sc;
    nsi_sched sched;
    bool preempt;
} toy;

static void toy_initial(void *ctx, uint8_t *s)
{
    (void)ctx;
    memset(s, 0, NBYTES);
}

static void step(nsi_emit emit, void *cb, const uint8_t *s, int rule, int at, int value, int *k)
{
    uint8_t n[NBYTES];
    memcpy(n, s, NBYTES);
    if (at >= 0)
        n[at] = (uint8_t)value;
    emit(cb, n, rule);
    (*k)++;
}

static int toy_successors(void *ctx, const uint8_t *s, nsi_emit emit, void *cb)
{
    toy *t = ctx;
    int k = 0;
    uint8_t n[NBYTES];
    switch (t->sc) {
    case SPIN:
        if (s[PC0] == 0)
            step(emit, cb, s, 0, s[FLAG] ? PC0 : -1, 1, &k);       /* spin, or end */
        if (s[PC1] == 0) {
            memcpy(n, s, NBYTES);
            n[PC1] = 1, n[FLAG] = 1;
            emit(cb, n, 1), k++;
        }
        break;
    case GUARDED:
        if (s[PC0] == 0 && s[FLAG])
            step(emit, cb, s, 0, PC0, 1, &k);
        step(emit, cb, s, 1, FLAG, !s[FLAG], &k);
        break;
    case DETOUR:
        if (s[PC0] == 0)
            step(emit, cb, s, 0, -1, 0, &k);
        step(emit, cb, s, 1, s[PC1] == 0 ? -1 : PC1, 0, &k);     /* pc 0: loop; pc 1: back to 0 */
        if (s[PC1] == 0)
            step(emit, cb, s, 1, PC1, 1, &k);
        break;
    case SPLIT:
        step(emit, cb, s, 1, PC1, (s[PC1] + 1) % 3, &k);
        if (s[PC1] == 2)
            step(emit, cb, s, 1, -1, 0, &k);                        /* loop at 2 */
        break;
    case BLOCK:
        if (s[PC0] == 0 && !s[WAIT0])
            step(emit, cb, s, 0, WAIT0, 1, &k);                      /* wait for the wake-up */
        if (s[PC1] == 0) {
            memcpy(n, s, NBYTES);
            n[PC1] = 1, n[FLAG] = 1, n[MSG] = 1;
            emit(cb, n, 1), k++;
        }
        if (s[MSG] && s[WAIT0]) {
            memcpy(n, s, NBYTES);
            n[MSG] = 0, n[WAIT0] = 0, n[PC0] = 1;
            emit(cb, n, 2), k++;
        }
        break;
    }
    return k;
}

static bool toy_final(void *ctx, const uint8_t *s)
{
    (void)ctx;
    return s[PC0] == 1 && s[PC1] == 1 && !s[MSG];
}

static int toy_rule_unit(void *ctx, int rule)
{
    (void)ctx;
    return rule <= 2 ? rule : -1;
}

static void toy_unit_name(void *ctx, int unit, FILE *out)
{
    (void)ctx;
    fprintf(out, unit < 2 ? "T%d" : "wake", unit);
}

static bool toy_done(void *ctx, const uint8_t *s, int th)
{
    toy *t = ctx;
    if ((t->sc == GUARDED || t->sc == SPLIT) && th == 1)
        return false;                /* T1 runs forever */
    if (t->sc == SPLIT)
        return true;
    return s[th == 0 ? PC0 : PC1] == 1;
}

static bool toy_waiting(void *ctx, const uint8_t *s, int th)
{
    (void)ctx;
    return th == 0 && s[WAIT0];
}

static bool toy_progress(void *ctx, const uint8_t *s, int th)
{
    toy *t = ctx;
    if (th != 1)
        return false;
    return (t->sc == GUARDED && s[PC1] == 0) || ((t->sc == DETOUR || t->sc == SPLIT) && s[PC1] == 1);
}

static int toy_cta(void *ctx, int th, int *gpu)
{
    (void)ctx;
    *gpu = 0;
    return th;
}

static nsi_model toy_model(toy *t, scenario sc, bool preempt)
{
    memset(t, 0, sizeof *t);
    t->sc = sc;
    t->sched = (nsi_sched){2, 3, toy_rule_unit, toy_unit_name, toy_done, toy_waiting, toy_progress, toy_cta, preempt};
    nsi_model m = {.ctx = t, .state_bytes = NBYTES, .nrules = 4, .initial = toy_initial,
                   .successors = toy_successors, .is_final = toy_final, .sched = &t->sched};
    return m;
}

/* Explores m (with the graph) and searches it; returns the result. */
static fc_result cycles_of(const nsi_model *m, bool fair, bfs_result *br)
{
    fc_graph *g = fc_graph_new(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    bfs_options o = {.on_edge = fc_on_edge, .edge_ctx = g};
    bfs_search *s = bfs_run(m, &o, br);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    fc_result r;
    CU_ASSERT_TRUE(fc_search(g, s, fair, &r));
    /* every reported cycle starts and ends at its entry and has a step */
    for (int i = 0; i < r.ncycles; i++) {
        CU_ASSERT_TRUE(r.cycles[i].len > 0);
        if (r.cycles[i].len)
            CU_ASSERT_EQUAL(r.cycles[i].cycle[r.cycles[i].len - 1].state, r.cycles[i].entry);
    }
    bfs_free(s);
    fc_graph_free(g);
    return r;
}

static bool reports(const fc_result *r, int thread)
{
    for (int i = 0; i < r->ncycles; i++)
        if (r->cycles[i].thread == thread)
            return true;
    return false;
}

/* SPIN: states (T0 pc, T1 pc, flag): (0,0,0) --T0--> itself, --T1-->
 * (0,1,1) --T0--> (1,1,1) final.  The only cycle is T0's self-loop at
 * (0,0,0), where T1 is enabled and never moves: unfair.  Without fairness
 * it is a cycle where both threads never complete. */
static void test_spin_needs_fairness(void)
{
    toy t;
    nsi_model m = toy_model(&t, SPIN, false);
    bfs_result br;
    fc_result weak = cycles_of(&m, true, &br);
    CU_ASSERT_EQUAL(br.states, 3);
    CU_ASSERT_EQUAL(weak.ncycles, 0);
    CU_ASSERT_EQUAL(weak.components, 0);
    fc_result_free(&weak);
    fc_result none = cycles_of(&m, false, &br);
    CU_ASSERT_EQUAL(none.ncycles, 2);
    CU_ASSERT_TRUE(reports(&none, 0) && reports(&none, 1));
    CU_ASSERT_EQUAL(none.components, 1);
    fc_result_free(&none);
}

/* GUARDED: flag toggles forever (T1, always at its progress state); T0
 * can end only while flag = 1.  The component {(0,·,0), (0,·,1)} has T1's
 * edges both ways; T0 is disabled at flag = 0, so weak fairness does not
 * force it: a fair cycle in which T0 never completes (starvation, which
 * only strong fairness would exclude).  T1 passes progress states: not
 * reported. */
static void test_guarded_starvation(void)
{
    toy t;
    nsi_model m = toy_model(&t, GUARDED, false);
    bfs_result br;
    fc_result r = cycles_of(&m, true, &br);
    CU_ASSERT_EQUAL(r.ncycles, 1);
    CU_ASSERT_TRUE(reports(&r, 0));
    CU_ASSERT_FALSE(reports(&r, 1));
    fc_result_free(&r);
}

/* DETOUR: T1 either loops at pc 0 or visits pc 1 (progress) and comes
 * back; T0 spins at pc 0 forever (flag never set).  T0 never completes
 * (fairly: it moves on its self-loop).  Without T1's progress state pc 1,
 * what is left still has a fair cycle (T1's loop at pc 0 with T0's spin):
 * T1 starves of progress too. */
static void test_progress_detour(void)
{
    toy t;
    nsi_model m = toy_model(&t, DETOUR, false);
    bfs_result br;
    fc_result r = cycles_of(&m, true, &br);
    CU_ASSERT_TRUE(reports(&r, 0));
    CU_ASSERT_TRUE(reports(&r, 1));
    fc_result_free(&r);
}

/* SPLIT: one component {0, 1, 2}; without T1's progress state 1 it falls
 * into {0} (no cycle) and {2} (T1's loop), joined by the edge 2 -> 0,
 * which T1's first step out of 2 takes.  {2} is a fair cycle where T1
 * never passes progress; its cycle must stay inside it, not follow 2 -> 0
 * (from 0 there is no way back without state 1). */
static void test_progress_split(void)
{
    toy t;
    nsi_model m = toy_model(&t, SPLIT, false);
    bfs_result br;
    fc_result r = cycles_of(&m, true, &br);
    CU_ASSERT_EQUAL(br.states, 3);
    CU_ASSERT_EQUAL(r.ncycles, 1);
    CU_ASSERT_TRUE(reports(&r, 1));
    CU_ASSERT_EQUAL(r.ncycles ? r.cycles[0].len : 0, 1);   /* a self-loop */
    fc_result_free(&r);
}

/* BLOCK with the scheduler: T0 (CTA 0) blocks until T1 (CTA 1) sends the
 * wake-up.  All resident: terminates.  One CTA resident: T0 waits, T1 is
 * never dispatched: a deadlock (no cycle).  With preemption: T0 is swapped
 * out, T1 runs and finishes, the wake-up arrives, T0 comes back: every
 * path ends in the final state. */
static void test_sched_occupancy_and_preempt(void)
{
    toy t;
    nsi_model m = toy_model(&t, BLOCK, true);
    bfs_result br;
    fc_result r = cycles_of(&m, true, &br);
    CU_ASSERT_EQUAL(r.ncycles, 0);
    CU_ASSERT_EQUAL(br.deadlocks, 0);
    fc_result_free(&r);

    sched_options one = {.occupancy = 1};
    sched_model *sm = sched_wrap(&m, &one);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    r = cycles_of(sched_nsi(sm), true, &br);
    CU_ASSERT_EQUAL(r.ncycles, 0);
    CU_ASSERT_EQUAL(br.deadlocks, 1);
    CU_ASSERT_EQUAL(br.finals, 0);
    fc_result_free(&r);
    sched_free(sm);

    sched_options pre = {.occupancy = 1, .preempt = true};
    sm = sched_wrap(&m, &pre);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    CU_ASSERT_EQUAL(sched_nsi(sm)->state_bytes, NBYTES + 2);
    r = cycles_of(sched_nsi(sm), true, &br);
    CU_ASSERT_EQUAL(r.ncycles, 0);
    CU_ASSERT_EQUAL(br.deadlocks, 0);
    CU_ASSERT_TRUE(br.finals > 0);
    fc_result_free(&r);
    sched_free(sm);

    /* a model that declares no context switch refuses preemption */
    nsi_model plain = toy_model(&t, BLOCK, false);
    CU_ASSERT_PTR_NULL(sched_wrap(&plain, &pre));
}

/* SPIN with one CTA resident: T0 (CTA 0) spins and T1 is never
 * dispatched, so the self-loop at the initial state is now fair (T1 is
 * not enabled): both never complete. */
static void test_sched_spin_undispatched(void)
{
    toy t;
    nsi_model m = toy_model(&t, SPIN, false);
    sched_options one = {.occupancy = 1};
    sched_model *sm = sched_wrap(&m, &one);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    bfs_result br;
    fc_result r = cycles_of(sched_nsi(sm), true, &br);
    CU_ASSERT_EQUAL(br.states, 1);
    CU_ASSERT_EQUAL(r.ncycles, 2);
    fc_result_free(&r);
    sched_free(sm);
}

void register_fair_cycle_tests(void)
{
    CU_pSuite s = CU_add_suite("fair cycles and scheduling", NULL, NULL);
    CU_add_test(s, "a spin needs fairness to terminate", test_spin_needs_fairness);
    CU_add_test(s, "starvation under weak fairness", test_guarded_starvation);
    CU_add_test(s, "progress states and their detours", test_progress_detour);
    CU_add_test(s, "a component split by progress states", test_progress_split);
    CU_add_test(s, "occupancy and preemption", test_sched_occupancy_and_preempt);
    CU_add_test(s, "a spin with its writer never dispatched", test_sched_spin_undispatched);
}
