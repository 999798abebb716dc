/* test_sim_arith.c: the simulator's expression evaluator (sim/interp.c) at
 * the int64 corners, on hand-built trees, with the values and overflows
 * the checker's evaluator gives (base/arith.h; tests/e2e/t_arith.sh runs
 * the same corners through `scopecheck verify` and scopesim).  A tree is
 * observed through a controller's `hold`, which holds when the expression
 * evaluates without overflow and is non-zero:
 *   value_is(E, v):  hold `E == v`
 *   evaluates(E):    hold `E * 0 == 0` (false only when E overflows). */
#include <CUnit/CUnit.h>

#include "sim/interp.h"
#include "sim/tables.h"
#include "unit_suites.h"

#define MAX INT64_MAX
#define MIN INT64_MIN

typedef struct arena {
    sim_expr e[32];
    int n;
} arena;

static sim_expr *node(arena *a, enum sim_ex kind, enum expr_op op, long num, sim_expr *l, sim_expr *r)
{
    CU_ASSERT_FATAL(a->n < 32);
    sim_expr *e = &a->e[a->n++];
    *e = (sim_expr){.kind = kind, .op = op, .num = num, .l = l, .r = r};
    return e;
}

static sim_expr *num(arena *a, long v) { return node(a, SX_NUM, OPX_ADD, v, NULL, NULL); }
static sim_expr *bin(arena *a, enum expr_op op, sim_expr *l, sim_expr *r) { return node(a, SX_BIN, op, 0, l, r); }
static sim_expr *neg(arena *a, sim_expr *l) { return node(a, SX_NEG, OPX_ADD, 0, l, NULL); }

static bool holds(sim_expr *e)
{
    sim_ctrl ctrl = {.hold = e};
    sim_tables t = {.ctrls = &ctrl, .nctrls = 1};
    sim_ctx c = {.t = &t, .ctrl = 0, .cu = -1, .gpu = -1};
    return sim_held(&c);
}

static bool value_is(arena *a, sim_expr *e, long v) { return holds(bin(a, OPX_EQ, e, num(a, v))); }
static bool evaluates(arena *a, sim_expr *e) { return holds(bin(a, OPX_EQ, bin(a, OPX_MUL, e, num(a, 0)), num(a, 0))); }

/* Each leaves int64 (or is refused as MIN / -1 is): the checker disables
 * the row, and so must the simulator (before base/arith.h it wrapped or
 * was undefined). */
static void test_overflow_disables(void)
{
    arena a = {.n = 0};
    CU_ASSERT_FALSE(evaluates(&a, bin(&a, OPX_ADD, num(&a, MAX), num(&a, 1))));
    a.n = 0;
    CU_ASSERT_FALSE(evaluates(&a, bin(&a, OPX_SUB, num(&a, MIN), num(&a, 1))));
    a.n = 0;
    CU_ASSERT_FALSE(evaluates(&a, bin(&a, OPX_MUL, num(&a, MAX), num(&a, 2))));
    a.n = 0;
    CU_ASSERT_FALSE(evaluates(&a, neg(&a, num(&a, MIN))));
    a.n = 0;
    CU_ASSERT_FALSE(evaluates(&a, bin(&a, OPX_DIV, num(&a, MIN), num(&a, -1))));
    a.n = 0;
    CU_ASSERT_FALSE(evaluates(&a, bin(&a, OPX_MOD, num(&a, MIN), num(&a, -1))));
    a.n = 0;
    CU_ASSERT_FALSE(evaluates(&a, bin(&a, OPX_DIV, num(&a, 5), num(&a, 0))));
    a.n = 0;
    CU_ASSERT_TRUE(evaluates(&a, bin(&a, OPX_ADD, num(&a, MAX), num(&a, 0))));     /* MAX itself fits */
}

/* Exact at the corners: the values the checker computes. */
static void test_corner_values(void)
{
    arena a = {.n = 0};
    CU_ASSERT_TRUE(value_is(&a, bin(&a, OPX_ADD, num(&a, MAX), num(&a, MIN)), -1));  /* 2^63 - 1 - 2^63 */
    a.n = 0;
    CU_ASSERT_TRUE(value_is(&a, bin(&a, OPX_MOD, num(&a, MIN), num(&a, 3)), 1));     /* 2^63 = 2 mod 3 */
    a.n = 0;
    CU_ASSERT_TRUE(value_is(&a, bin(&a, OPX_MOD, num(&a, MIN), num(&a, -3)), -2));   /* the divisor's sign */
    a.n = 0;
    CU_ASSERT_TRUE(value_is(&a, bin(&a, OPX_MOD, num(&a, MAX), num(&a, -5)), -3));   /* 2 - 5 */
    a.n = 0;
    CU_ASSERT_TRUE(value_is(&a, bin(&a, OPX_MOD, num(&a, -7), num(&a, 4)), 1));      /* a power of two */
    a.n = 0;
    CU_ASSERT_TRUE(value_is(&a, bin(&a, OPX_DIV, num(&a, MIN), num(&a, 2)), -(1L << 62)));
    a.n = 0;
    CU_ASSERT_TRUE(value_is(&a, neg(&a, num(&a, MAX)), MIN + 1));
    a.n = 0;
    CU_ASSERT_TRUE(value_is(&a, bin(&a, OPX_SUB, num(&a, -1), num(&a, MIN)), MAX));
    a.n = 0;
    CU_ASSERT_TRUE(holds(bin(&a, OPX_LT, num(&a, MIN), num(&a, MAX))));            /* signed */
}

/* && and || skip an overflowing right side they do not need; an overflow
 * they do evaluate disables the whole guard, whatever the other side. */
static void test_short_circuit(void)
{
    arena a = {.n = 0};
    sim_expr *over = bin(&a, OPX_GT, bin(&a, OPX_ADD, num(&a, MAX), num(&a, 1)), num(&a, 0));
    CU_ASSERT_TRUE(holds(bin(&a, OPX_OR, num(&a, 1), over)));
    CU_ASSERT_TRUE(holds(bin(&a, OPX_EQ, bin(&a, OPX_AND, num(&a, 0), over), num(&a, 0))));
    CU_ASSERT_FALSE(holds(bin(&a, OPX_OR, over, num(&a, 1))));
}

void register_sim_arith_tests(void)
{
    CU_pSuite s = CU_add_suite("sim_arith", NULL, NULL);
    CU_add_test(s, "an overflowing expression disables, as in the checker", test_overflow_disables);
    CU_add_test(s, "exact values at the int64 corners", test_corner_values);
    CU_add_test(s, "&& and || and an overflow on either side", test_short_circuit);
}
