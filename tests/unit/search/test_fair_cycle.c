/* test_fair_cycle.c: unit tests of search/fair_cycle (fair non-progress
 * cycles) on the small synthetic models of toy_model.h, whose graphs are
 * drawn in the comments. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "search/bfs.h"
#include "search/fair_cycle.h"
#include "search/toy_model.h"
#include "unit_suites.h"

/* SPIN: states (T0 pc, T1 pc, flag): (0,0,0) --T0--> itself, --T1-->
 * (0,1,1) --T0--> (1,1,1) final.  The only cycle is T0's self-loop at
 * (0,0,0), where T1 is enabled and never moves: unfair.  Without fairness
 * it is a cycle where both threads never complete. */
static void test_spin_needs_fairness(void)
{
    toy t;
    nsi_model m = toy_model(&t, SPIN);
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
    nsi_model m = toy_model(&t, GUARDED);
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
    nsi_model m = toy_model(&t, DETOUR);
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
    nsi_model m = toy_model(&t, SPLIT);
    bfs_result br;
    fc_result r = cycles_of(&m, true, &br);
    CU_ASSERT_EQUAL(br.states, 3);
    CU_ASSERT_EQUAL(r.ncycles, 1);
    CU_ASSERT_TRUE(reports(&r, 1));
    CU_ASSERT_EQUAL(r.ncycles ? r.cycles[0].len : 0, 1);   /* a self-loop */
    fc_result_free(&r);
}

void register_fair_cycle_tests(void)
{
    CU_pSuite s = CU_add_suite("fair cycles", NULL, NULL);
    CU_add_test(s, "a spin needs fairness to terminate", test_spin_needs_fairness);
    CU_add_test(s, "starvation under weak fairness", test_guarded_starvation);
    CU_add_test(s, "progress states and their detours", test_progress_detour);
    CU_add_test(s, "a component split by progress states", test_progress_split);
}
