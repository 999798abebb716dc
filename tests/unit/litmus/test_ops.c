/* test_lit_ops.c: unit tests of the instruction arithmetic shared by the
 * enumerator and the protocol interpreter (litmus/ops.c). */
#include <CUnit/CUnit.h>

#include "litmus/ops.h"
#include "unit_suites.h"

static lit_value rmw(enum lit_rmw_op op, enum lit_operand_kind a_kind, lit_value old, lit_value a, lit_value b)
{
    lit_instr in = {0};
    in.op = OP_RMW;
    in.rmw_op = op;
    in.a.kind = a_kind;
    return lit_rmw_result(&in, old, a, b);
}

static void test_rmw_results(void)
{
    CU_ASSERT_EQUAL(rmw(RMW_ADD, OPND_IMM, 5, 3, 0), 8);
    CU_ASSERT_EQUAL(rmw(RMW_SUB, OPND_IMM, 5, 3, 0), 2);
    CU_ASSERT_EQUAL(rmw(RMW_EXCH, OPND_IMM, 5, 3, 0), 3);
    CU_ASSERT_EQUAL(rmw(RMW_CAS, OPND_IMM, 5, 5, 9), 9);     /* compare equal: the new value */
    CU_ASSERT_EQUAL(rmw(RMW_CAS, OPND_IMM, 5, 4, 9), 5);     /* not equal: unchanged */
    CU_ASSERT_EQUAL(rmw(RMW_AND, OPND_IMM, 6, 3, 0), 2);
    CU_ASSERT_EQUAL(rmw(RMW_OR, OPND_IMM, 6, 3, 0), 7);
    CU_ASSERT_EQUAL(rmw(RMW_XOR, OPND_IMM, 6, 3, 0), 5);
    CU_ASSERT_EQUAL(rmw(RMW_MIN, OPND_IMM, 6, 3, 0), 3);
    CU_ASSERT_EQUAL(rmw(RMW_MAX, OPND_IMM, 6, 3, 0), 6);
}

/* PTX's bounded inc and dec wrap at the bound; without a bound they count. */
static void test_inc_dec(void)
{
    CU_ASSERT_EQUAL(rmw(RMW_INC, OPND_IMM, 2, 3, 0), 3);
    CU_ASSERT_EQUAL(rmw(RMW_INC, OPND_IMM, 3, 3, 0), 0);
    CU_ASSERT_EQUAL(rmw(RMW_INC, OPND_NONE, 3, 0, 0), 4);
    CU_ASSERT_EQUAL(rmw(RMW_DEC, OPND_IMM, 2, 3, 0), 1);
    CU_ASSERT_EQUAL(rmw(RMW_DEC, OPND_IMM, 0, 3, 0), 3);
    CU_ASSERT_EQUAL(rmw(RMW_DEC, OPND_IMM, 5, 3, 0), 3);
    CU_ASSERT_EQUAL(rmw(RMW_DEC, OPND_NONE, 0, 0, 0), -1);
}

static void test_alu_results(void)
{
    CU_ASSERT_EQUAL(lit_alu_result(ALU_ADD, 6, 3), 9);
    CU_ASSERT_EQUAL(lit_alu_result(ALU_SUB, 6, 3), 3);
    CU_ASSERT_EQUAL(lit_alu_result(ALU_MUL, 6, 3), 18);
    CU_ASSERT_EQUAL(lit_alu_result(ALU_AND, 6, 3), 2);
    CU_ASSERT_EQUAL(lit_alu_result(ALU_OR, 6, 3), 7);
    CU_ASSERT_EQUAL(lit_alu_result(ALU_XOR, 6, 3), 5);
}

/* The checker's instruction arithmetic (what the enumerator and the
 * protocol interpreter call) is the simulator's (base/arith.h, which
 * scopesim calls directly), operand by operand at the 64-bit corners. */
static void test_same_as_simulator(void)
{
    const lit_value v[] = {INT64_MIN, INT64_MIN + 1, -2, -1, 0, 1, 2, INT64_MAX - 1, INT64_MAX};
    const int n = (int)(sizeof v / sizeof v[0]);
    for (int op = 0; op < LIT_NRMW_OPS; op++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                CU_ASSERT_EQUAL(rmw((enum lit_rmw_op)op, OPND_IMM, v[i], v[j], 7),
                                arith_rmw((enum lit_rmw_op)op, true, v[i], v[j], 7));
                CU_ASSERT_EQUAL(rmw((enum lit_rmw_op)op, OPND_NONE, v[i], v[j], 7),
                                arith_rmw((enum lit_rmw_op)op, false, v[i], v[j], 7));
            }
    for (int op = 0; op < LIT_NALU_OPS; op++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                CU_ASSERT_EQUAL(lit_alu_result((enum lit_alu_op)op, v[i], v[j]),
                                arith_alu((enum lit_alu_op)op, v[i], v[j]));
    CU_ASSERT_EQUAL(rmw(RMW_ADD, OPND_IMM, INT64_MAX, 1, 0), INT64_MIN);    /* wraps, never undefined */
    CU_ASSERT_EQUAL(lit_alu_result(ALU_MUL, INT64_MIN, -1), INT64_MIN);
}

void register_lit_ops_tests(void)
{
    CU_pSuite s = CU_add_suite("lit_ops", NULL, NULL);
    CU_add_test(s, "read-modify-write results", test_rmw_results);
    CU_add_test(s, "inc and dec, bounded or not", test_inc_dec);
    CU_add_test(s, "ALU results", test_alu_results);
    CU_add_test(s, "the same results as the simulator's at the 64-bit corners", test_same_as_simulator);
}
