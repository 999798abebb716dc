/* test_arith.c: unit tests of the arithmetic the checker and the simulator
 * share (base/arith.h) and of the shared names (base/vocab.h).  Every
 * expected value is derived by hand in the comment beside it; MAX and MIN
 * are INT64_MAX = 2^63 - 1 and INT64_MIN = -2^63. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "base/arith.h"
#include "base/vocab.h"
#include "unit_suites.h"

#define MAX INT64_MAX
#define MIN INT64_MIN

/* Instructions wrap at 64 bits, as a register does (the checker's
 * litmus/ops.c did so through uint64_t before base/ held it). */
static void test_rmw_wraps(void)
{
    CU_ASSERT_EQUAL(arith_rmw(RMW_ADD, true, MAX, 1, 0), MIN);     /* 2^63 - 1 + 1 = 2^63 = -2^63 mod 2^64 */
    CU_ASSERT_EQUAL(arith_rmw(RMW_SUB, true, MIN, 1, 0), MAX);     /* -2^63 - 1 = 2^63 - 1 mod 2^64 */
    CU_ASSERT_EQUAL(arith_rmw(RMW_ADD, true, MIN, MIN, 0), 0);     /* -2^64 = 0 mod 2^64 */
    CU_ASSERT_EQUAL(arith_rmw(RMW_INC, false, MAX, 0, 0), MIN);    /* no bound: counts, wrapping at 64 bits */
    CU_ASSERT_EQUAL(arith_rmw(RMW_DEC, false, MIN, 0, 0), MAX);
    CU_ASSERT_EQUAL(arith_rmw(RMW_INC, true, MAX, MAX, 0), 0);     /* old >= bound: back to 0 */
    CU_ASSERT_EQUAL(arith_rmw(RMW_INC, true, MAX - 1, MAX, 0), MAX);
    CU_ASSERT_EQUAL(arith_rmw(RMW_DEC, true, 0, 5, 0), 5);         /* old == 0: the bound */
    CU_ASSERT_EQUAL(arith_rmw(RMW_DEC, true, 6, 5, 0), 5);         /* old > bound: the bound */
    CU_ASSERT_EQUAL(arith_rmw(RMW_DEC, true, MIN, 5, 0), MAX);     /* neither: old - 1, which wraps */
}

static void test_rmw_bitwise_and_order(void)
{
    CU_ASSERT_EQUAL(arith_rmw(RMW_EXCH, true, MIN, MAX, 0), MAX);
    CU_ASSERT_EQUAL(arith_rmw(RMW_CAS, true, MIN, MIN, 7), 7);     /* equal: the new value */
    CU_ASSERT_EQUAL(arith_rmw(RMW_CAS, true, MIN, MAX, 7), MIN);   /* not equal: unchanged */
    CU_ASSERT_EQUAL(arith_rmw(RMW_AND, true, MIN, -1, 0), MIN);    /* 0x8000.. & 0xffff.. */
    CU_ASSERT_EQUAL(arith_rmw(RMW_OR, true, MAX, MIN, 0), -1);     /* 0x7fff.. | 0x8000.. = 0xffff.. */
    CU_ASSERT_EQUAL(arith_rmw(RMW_XOR, true, MAX, -1, 0), MIN);    /* ~0x7fff.. */
    CU_ASSERT_EQUAL(arith_rmw(RMW_MIN, true, MAX, MIN, 0), MIN);   /* signed */
    CU_ASSERT_EQUAL(arith_rmw(RMW_MAX, true, MIN, MAX, 0), MAX);
    CU_ASSERT_EQUAL(arith_rmw(RMW_MAX, true, -1, 0, 0), 0);
}

static void test_alu_and_cmp(void)
{
    CU_ASSERT_EQUAL(arith_alu(ALU_ADD, MAX, 1), MIN);
    CU_ASSERT_EQUAL(arith_alu(ALU_SUB, MIN, 1), MAX);
    CU_ASSERT_EQUAL(arith_alu(ALU_MUL, MIN, -1), MIN);             /* 2^63 mod 2^64 */
    CU_ASSERT_EQUAL(arith_alu(ALU_MUL, MAX, 2), -2);               /* 2^64 - 2 */
    CU_ASSERT_EQUAL(arith_alu(ALU_MUL, INT64_C(1) << 32, INT64_C(1) << 32), 0);   /* 2^64 */
    CU_ASSERT_EQUAL(arith_alu(ALU_AND, 6, 3), 2);
    CU_ASSERT_EQUAL(arith_alu(ALU_OR, 6, 3), 7);
    CU_ASSERT_EQUAL(arith_alu(ALU_XOR, MIN, MAX), -1);
    CU_ASSERT_TRUE(arith_cmp(CMP_LT, MIN, MAX));                   /* signed, not unsigned */
    CU_ASSERT_FALSE(arith_cmp(CMP_GT, MIN, MAX));
    CU_ASSERT_TRUE(arith_cmp(CMP_LE, MAX, MAX));
    CU_ASSERT_FALSE(arith_cmp(CMP_GE, MIN, 0));
    CU_ASSERT_TRUE(arith_cmp(CMP_NE, MIN, MAX));
    CU_ASSERT_TRUE(arith_cmp(CMP_EQ, MIN, MIN));
}

/* expr(op, l, r): the result when no overflow; *ok says whether. */
static int64_t expr(enum expr_op op, int64_t l, int64_t r, bool *ok)
{
    *ok = true;
    return arith_expr(op, l, r, ok);
}

/* Table expressions are checked: an overflow clears ok and gives 0. */
static void test_expr_overflow(void)
{
    bool ok;
    CU_ASSERT_EQUAL(expr(OPX_ADD, MAX, 1, &ok), 0);
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_EQUAL(expr(OPX_ADD, MAX, MIN, &ok), -1);             /* 2^63 - 1 - 2^63 */
    CU_ASSERT_TRUE(ok);
    expr(OPX_SUB, MIN, 1, &ok);
    CU_ASSERT_FALSE(ok);
    expr(OPX_SUB, 0, MIN, &ok);                                     /* 2^63 */
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_EQUAL(expr(OPX_SUB, -1, MIN, &ok), MAX);              /* -1 + 2^63 */
    CU_ASSERT_TRUE(ok);
    expr(OPX_MUL, MAX, 2, &ok);
    CU_ASSERT_FALSE(ok);
    expr(OPX_MUL, MIN, -1, &ok);
    CU_ASSERT_FALSE(ok);
    expr(OPX_MUL, INT64_C(1) << 32, INT64_C(1) << 31, &ok);         /* 2^63 */
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_EQUAL(expr(OPX_MUL, INT64_C(1) << 31, -(INT64_C(1) << 32), &ok), MIN);   /* -2^63 fits */
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_EQUAL(expr(OPX_MUL, MIN, 1, &ok), MIN);
    CU_ASSERT_TRUE(ok);
}

static void test_expr_division(void)
{
    bool ok;
    expr(OPX_DIV, 5, 0, &ok);
    CU_ASSERT_FALSE(ok);
    expr(OPX_MOD, 5, 0, &ok);
    CU_ASSERT_FALSE(ok);
    expr(OPX_DIV, MIN, -1, &ok);                                    /* 2^63 */
    CU_ASSERT_FALSE(ok);
    expr(OPX_MOD, MIN, -1, &ok);                                    /* refused as the division is */
    CU_ASSERT_FALSE(ok);
    CU_ASSERT_EQUAL(expr(OPX_DIV, MIN, 2, &ok), -(INT64_C(1) << 62));
    CU_ASSERT_EQUAL(expr(OPX_DIV, -7, 2, &ok), -3);                 /* C division truncates */
    /* modulo takes the sign of the divisor */
    CU_ASSERT_EQUAL(expr(OPX_MOD, MIN, 3, &ok), 1);                 /* 2^63 = 3 * 3074457345618258602 + 2, so -2^63 = 1 mod 3 */
    CU_ASSERT_EQUAL(expr(OPX_MOD, MIN, -3, &ok), -2);               /* 1 - 3 */
    CU_ASSERT_EQUAL(expr(OPX_MOD, MAX, -5, &ok), -3);               /* 2^63 - 1 = 2 mod 5 (2^63 = 3 mod 5); 2 - 5 */
    CU_ASSERT_EQUAL(expr(OPX_MOD, -7, 4, &ok), 1);                  /* a power of two: -8 + 1 */
    CU_ASSERT_EQUAL(expr(OPX_MOD, MIN, 8, &ok), 0);
    CU_ASSERT_EQUAL(expr(OPX_MOD, -7, -4, &ok), -3);
    CU_ASSERT_EQUAL(expr(OPX_MOD, 7, -4, &ok), -1);                 /* 3 - 4 */
    CU_ASSERT_TRUE(ok);
}

static void test_expr_compare_and_logic(void)
{
    bool ok;
    CU_ASSERT_EQUAL(expr(OPX_LT, MIN, MAX, &ok), 1);
    CU_ASSERT_EQUAL(expr(OPX_GE, MIN, MAX, &ok), 0);
    CU_ASSERT_EQUAL(expr(OPX_LE, MAX, MAX, &ok), 1);
    CU_ASSERT_EQUAL(expr(OPX_GT, 0, MIN, &ok), 1);
    CU_ASSERT_EQUAL(expr(OPX_EQ, MIN, MIN, &ok), 1);
    CU_ASSERT_EQUAL(expr(OPX_NE, MIN, MIN, &ok), 0);
    CU_ASSERT_EQUAL(expr(OPX_AND, 1, MIN, &ok), 1);                 /* l did not decide: r != 0 */
    CU_ASSERT_EQUAL(expr(OPX_OR, 0, 0, &ok), 0);
    CU_ASSERT_TRUE(ok);
}

/* ok is only ever cleared: a later good operation does not set it again,
 * so one overflow anywhere in a guard disables the row. */
static void test_expr_ok_sticks(void)
{
    bool ok = true;
    arith_expr(OPX_ADD, MAX, 1, &ok);
    CU_ASSERT_EQUAL(arith_expr(OPX_ADD, 1, 1, &ok), 2);
    CU_ASSERT_FALSE(ok);
    ok = true;
    CU_ASSERT_EQUAL(arith_neg(MAX, &ok), MIN + 1);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_EQUAL(arith_neg(MIN, &ok), 0);                       /* 2^63 does not fit */
    CU_ASSERT_FALSE(ok);
}

/* A value wrapped into lo..hi: lo + ((x - lo) mod (hi - lo + 1)), computed
 * without x - lo. */
static void test_wrap_range(void)
{
    CU_ASSERT_EQUAL(arith_wrap_range(MAX, 0, 1), 1);                /* odd */
    CU_ASSERT_EQUAL(arith_wrap_range(MIN, 0, 1), 0);                /* even */
    CU_ASSERT_EQUAL(arith_wrap_range(MIN, 0, 2), 1);                /* -2^63 = 1 mod 3 */
    CU_ASSERT_EQUAL(arith_wrap_range(MAX, -1, 1), 1);               /* -1 + (2^63 mod 3 = 2) */
    CU_ASSERT_EQUAL(arith_wrap_range(MIN, -3, 4), 0);               /* -3 + ((-2^63 + 3) mod 8 = 3) */
    CU_ASSERT_EQUAL(arith_wrap_range(5, 2, 3), 3);                  /* 2 + (3 mod 2) */
    CU_ASSERT_EQUAL(arith_wrap_range(-1, 0, 3), 3);
}

/* Every name is there (a designated initializer that skips a value would
 * leave NULL), and the scope suffixes are "." and the scope's name. */
static void test_vocab_complete(void)
{
    const char *const *tables[] = {vocab_opcodes, vocab_orders, vocab_scopes, vocab_scope_suffixes,
                                   vocab_rmw_ops, vocab_alu_ops, vocab_cmps, vocab_expr_ops};
    const int counts[] = {LIT_NOPCODES, LIT_NORDERS, LIT_NSCOPES, LIT_NSCOPES,
                          LIT_NRMW_OPS, LIT_NALU_OPS, LIT_NCMPS, EXPR_NOPS};
    for (int k = 0; k < 8; k++)
        for (int i = 0; i < counts[k]; i++)
            CU_ASSERT_PTR_NOT_NULL(tables[k][i]);
    CU_ASSERT_STRING_EQUAL(vocab_orders[ORD_CONSUME], "consume");   /* the order the protocol table lacked */
    CU_ASSERT_STRING_EQUAL(vocab_scope_suffixes[SCOPE_NONE], "");
    for (int s = SCOPE_CTA; s < LIT_NSCOPES; s++) {
        CU_ASSERT_EQUAL(vocab_scope_suffixes[s][0], '.');
        CU_ASSERT_STRING_EQUAL(vocab_scope_suffixes[s] + 1, vocab_scopes[s]);
    }
    CU_ASSERT_EQUAL(vocab_find(vocab_expr_ops, EXPR_NOPS, "<="), OPX_LE);
    CU_ASSERT_EQUAL(vocab_find(vocab_orders, LIT_NPROTOCOL_ORDERS, "consume"), -1);   /* no row names it */
    CU_ASSERT_EQUAL(vocab_find(vocab_cmps, LIT_NCMPS, NULL), -1);
}

void register_arith_tests(void)
{
    CU_pSuite s = CU_add_suite("arith", NULL, NULL);
    CU_add_test(s, "RMWs wrap at 64 bits", test_rmw_wraps);
    CU_add_test(s, "RMW bitwise, cas, min and max at the corners", test_rmw_bitwise_and_order);
    CU_add_test(s, "ALU wraps; comparisons are signed", test_alu_and_cmp);
    CU_add_test(s, "expression + - * report overflow", test_expr_overflow);
    CU_add_test(s, "expression / and %: by 0, MIN / -1, sign of the divisor", test_expr_division);
    CU_add_test(s, "expression comparisons and && ||", test_expr_compare_and_logic);
    CU_add_test(s, "an overflow sticks; -MIN overflows", test_expr_ok_sticks);
    CU_add_test(s, "value-range wrap at the corners", test_wrap_range);
    CU_add_test(s, "every enum value has its name", test_vocab_complete);
}
