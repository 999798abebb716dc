/* toy_model.c: the synthetic model of the fair-cycle and scheduler unit
 * tests (see toy_model.h). */
#include "search/toy_model.h"

#include <CUnit/CUnit.h>
#include <string.h>

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

static bool toy_progress(void *ctx, const uint8_t *s, int th)
{
    toy *t = ctx;
    if (th != 1)
        return false;
    return (t->sc == GUARDED && s[PC1] == 0) || ((t->sc == DETOUR || t->sc == SPLIT) && s[PC1] == 1);
}

static void toy_describe(void *ctx, const uint8_t *s, int rule, const uint8_t *next, FILE *out)
{
    (void)ctx, (void)s, (void)next;
    fprintf(out, "rule %d\n", rule);
}

nsi_model toy_model(toy *t, scenario sc)
{
    memset(t, 0, sizeof *t);
    t->sc = sc;
    t->fairness = (nsi_fairness){2, 3, toy_rule_unit, toy_unit_name, toy_done, toy_progress};
    nsi_model m = {.ctx = t, .state_bytes = NBYTES, .nrules = 4, .initial = toy_initial,
                   .successors = toy_successors, .is_final = toy_final, .describe = toy_describe,
                   .fairness = &t->fairness};
    return m;
}

/* Explores m (with the graph) and searches it; returns the result. */
fc_result cycles_of(const nsi_model *m, bool fair, bfs_result *br)
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

bool reports(const fc_result *r, int thread)
{
    for (int i = 0; i < r->ncycles; i++)
        if (r->cycles[i].thread == thread)
            return true;
    return false;
}
