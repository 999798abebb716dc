/* test_sched.c: unit tests of schedule/sched (occupancy, dispatch in CTA
 * order, preemption, and what the wrapped model says of its own steps) on
 * the synthetic model of tests/unit/search/toy_model.h: thread t runs in
 * CTA t of GPU 0. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "schedule/sched.h"
#include "search/toy_model.h"
#include "unit_suites.h"

static bool toy_waiting(const void *ctx, const uint8_t *s, int th)
{
    (void)ctx;
    return th == 0 && s[WAIT0];
}

static int toy_cta(const void *ctx, int th, int *gpu)
{
    (void)ctx;
    *gpu = 0;
    return th;
}

static sched_gpu toy_gpu(const toy *t, bool preempt)
{
    return (sched_gpu){t, toy_cta, toy_waiting, preempt};
}

/* BLOCK with the scheduler: T0 (CTA 0) blocks until T1 (CTA 1) sends the
 * wake-up.  All resident: terminates.  One CTA resident: T0 waits, T1 is
 * never dispatched: a deadlock (no cycle).  With preemption: T0 is swapped
 * out, T1 runs and finishes, the wake-up arrives, T0 comes back: every
 * path ends in the final state. */
static void test_sched_occupancy_and_preempt(void)
{
    toy t;
    nsi_model m = toy_model(&t, BLOCK);
    sched_gpu gpu = toy_gpu(&t, true);
    bfs_result br;
    fc_result r = cycles_of(&m, true, &br);
    CU_ASSERT_EQUAL(r.ncycles, 0);
    CU_ASSERT_EQUAL(br.deadlocks, 0);
    fc_result_free(&r);

    sched_options one = {.occupancy = 1};
    sched_model *sm = sched_wrap(&m, &gpu, &one);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    r = cycles_of(sched_nsi(sm), true, &br);
    CU_ASSERT_EQUAL(r.ncycles, 0);
    CU_ASSERT_EQUAL(br.deadlocks, 1);
    CU_ASSERT_EQUAL(br.finals, 0);
    fc_result_free(&r);
    sched_free(sm);

    sched_options pre = {.occupancy = 1, .preempt = true};
    sm = sched_wrap(&m, &gpu, &pre);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    CU_ASSERT_EQUAL(sched_nsi(sm)->state_bytes, NBYTES + 2);
    r = cycles_of(sched_nsi(sm), true, &br);
    CU_ASSERT_EQUAL(r.ncycles, 0);
    CU_ASSERT_EQUAL(br.deadlocks, 0);
    CU_ASSERT_TRUE(br.finals > 0);
    fc_result_free(&r);
    sched_free(sm);

    /* hardware that declares no context switch refuses preemption */
    sched_gpu plain = toy_gpu(&t, false);
    CU_ASSERT_PTR_NULL(sched_wrap(&m, &plain, &pre));
}

/* SPIN with one CTA resident: T0 (CTA 0) spins and T1 is never
 * dispatched, so the self-loop at the initial state is now fair (T1 is
 * not enabled): both never complete. */
static void test_sched_spin_undispatched(void)
{
    toy t;
    nsi_model m = toy_model(&t, SPIN);
    sched_gpu gpu = toy_gpu(&t, false);
    sched_options one = {.occupancy = 1};
    sched_model *sm = sched_wrap(&m, &gpu, &one);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    bfs_result br;
    fc_result r = cycles_of(sched_nsi(sm), true, &br);
    CU_ASSERT_EQUAL(br.states, 1);
    CU_ASSERT_EQUAL(r.ncycles, 2);
    fc_result_free(&r);
    sched_free(sm);
}

/* The successors of one state, as the wrapped model emits them. */
#define MAX_SUCCS 8
typedef struct succs {
    int n;
    int rule[MAX_SUCCS];
    uint8_t state[MAX_SUCCS][NBYTES + 2];
} succs;

static void keep(void *cb, const uint8_t *next, int rule)
{
    succs *s = cb;
    if (s->n < MAX_SUCCS) {
        s->rule[s->n] = rule;
        memcpy(s->state[s->n], next, NBYTES + 2);
    }
    s->n++;
}

static void expand(const nsi_model *m, const uint8_t *state, succs *s)
{
    memset(s, 0, sizeof *s);
    CU_ASSERT_EQUAL(m->successors(m->ctx, state, keep, s), s->n);
}

static void text_of(const nsi_model *m, const uint8_t *from, int rule, const uint8_t *to, char *buf, size_t size)
{
    memset(buf, 0, size);
    FILE *f = fmemopen(buf, size - 1, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    m->describe(m->ctx, from, rule, to, f);
    fclose(f);
}

/* BLOCK, one CTA resident, with preemption: T0 waits, then the scheduler
 * swaps its CTA out (rule nrules + 0, its own unit "scheduler") and
 * dispatches T1's; the step's line and record say so.  The inner rules
 * keep their lines, with the dispatch they caused. */
static void test_preempt_step(void)
{
    toy t;
    nsi_model m = toy_model(&t, BLOCK);
    sched_gpu gpu = toy_gpu(&t, true);
    sched_options pre = {.occupancy = 1, .preempt = true};
    sched_model *sm = sched_wrap(&m, &gpu, &pre);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    const nsi_model *w = sched_nsi(sm);
    CU_ASSERT_EQUAL(w->nrules, m.nrules + 2);
    uint8_t init[NBYTES + 2];
    w->initial(w->ctx, init);
    succs s;
    expand(w, init, &s);
    CU_ASSERT_EQUAL_FATAL(s.n, 1);              /* T1 is not resident: only T0 moves */
    CU_ASSERT_EQUAL(s.rule[0], 0);
    uint8_t waiting[NBYTES + 2];
    memcpy(waiting, s.state[0], sizeof waiting);
    char line[256];
    text_of(w, init, 0, waiting, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "rule 0");
    sched_step st;
    CU_ASSERT_FALSE(sched_step_of(sm, 0, &st));
    expand(w, waiting, &s);
    CU_ASSERT_EQUAL_FATAL(s.n, 1);
    CU_ASSERT_EQUAL(s.rule[0], m.nrules);       /* preempt CTA 0 */
    text_of(w, waiting, s.rule[0], s.state[0], line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "scheduler: preempt CTA of T0 (all its threads wait); dispatch CTA of T1");
    CU_ASSERT_TRUE_FATAL(sched_step_of(sm, s.rule[0], &st));
    CU_ASSERT_STRING_EQUAL(st.who, "scheduler");
    CU_ASSERT_STRING_EQUAL(st.event, "preempt");
    CU_ASSERT_PTR_NOT_NULL(st.note);
    const nsi_fairness *f = w->fairness;
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->nunits, m.fairness->nunits + 1);
    CU_ASSERT_EQUAL(f->rule_unit(w->ctx, m.nrules), m.fairness->nunits);
    CU_ASSERT_EQUAL(f->rule_unit(w->ctx, 1), 1);
    text_of(w, waiting, s.rule[0], s.state[0], line, sizeof line);
    char name[32] = "";
    FILE *out = fmemopen(name, sizeof name - 1, "w");
    f->unit_name(w->ctx, m.fairness->nunits, out);
    fclose(out);
    CU_ASSERT_STRING_EQUAL(name, "scheduler");
    sched_free(sm);
}

/* What the wrapper refuses: no fairness units, a missing callback, no
 * slot. */
static void test_refusals(void)
{
    toy t;
    nsi_model m = toy_model(&t, BLOCK);
    sched_gpu gpu = toy_gpu(&t, true);
    sched_options one = {.occupancy = 1}, none = {.occupancy = 0};
    CU_ASSERT_PTR_NULL(sched_wrap(&m, &gpu, &none));
    sched_gpu blind = gpu;
    blind.thread_waiting = NULL;
    CU_ASSERT_PTR_NULL(sched_wrap(&m, &blind, &one));
    nsi_model unfair = m;
    unfair.fairness = NULL;
    CU_ASSERT_PTR_NULL(sched_wrap(&unfair, &gpu, &one));
    sched_model *sm = sched_wrap(&m, &gpu, &one);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sm);
    CU_ASSERT_EQUAL(sched_nsi(sm)->state_bytes, (size_t)NBYTES);   /* no preemption: nothing stored */
    CU_ASSERT_EQUAL(sched_nsi(sm)->nrules, m.nrules);
    sched_free(sm);
}

void register_sched_tests(void)
{
    CU_pSuite s = CU_add_suite("GPU scheduling wrapper", NULL, NULL);
    CU_add_test(s, "occupancy and preemption", test_sched_occupancy_and_preempt);
    CU_add_test(s, "a spin with its writer never dispatched", test_sched_spin_undispatched);
    CU_add_test(s, "a preempt step, its line and record", test_preempt_step);
    CU_add_test(s, "what the wrapper refuses", test_refusals);
}
