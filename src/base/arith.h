/*
 * base/arith.h: the one arithmetic of the checker and the simulator: what
 * a read-modify-write stores, what an ALU instruction computes, whether a
 * branch's comparison holds, and the binary operators of table
 * expressions.  The checker's verdicts are about the values these
 * functions compute, so scopesim must compute the same ones, or it would
 * run tables other than the ones verified.
 *
 * Two kinds of overflow, on purpose:
 *   - instructions (read-modify-writes, ALU) wrap around at 64 bits (two's
 *     complement), as a machine register does; computed on uint64_t, where
 *     overflow is defined.  Each engine then applies its own value range.
 *   - table expressions are checked: a sum, difference, product or
 *     negation that leaves int64_t, a division or modulo by 0, and
 *     INT64_MIN / -1 clear *ok and give 0.  Both interpreters treat
 *     *ok == false as "the row is not enabled": a guard that overflows is
 *     false (the next row is tried), an action that overflows blocks the
 *     row's step (the event waits), as an index out of range does.
 *
 * Contract: pure functions, static inline because both interpreters call
 * them once per evaluated operator; *ok is only ever cleared, never set.
 */
#ifndef SCOPECHECK_BASE_ARITH_H
#define SCOPECHECK_BASE_ARITH_H

#include <stdbool.h>
#include <stdint.h>

#include "base/vocab.h"

static inline int64_t arith_wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t arith_wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t arith_wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* The value a read-modify-write stores, given the old value and its
 * operands a and b (b: the new value of a cas).  has_bound: an inc or dec
 * has its bound operand a (PTX's atom.inc/dec wrap at the bound); without
 * it they count by one (wrapping at 64 bits). */
static inline int64_t arith_rmw(enum lit_rmw_op op, bool has_bound, int64_t old, int64_t a, int64_t b)
{
    switch (op) {
    case RMW_ADD: return arith_wrap_add(old, a);
    case RMW_SUB: return arith_wrap_sub(old, a);
    case RMW_INC: return !has_bound ? arith_wrap_add(old, 1) : (old >= a ? 0 : arith_wrap_add(old, 1));
    case RMW_DEC: return !has_bound ? arith_wrap_sub(old, 1) : ((old == 0 || old > a) ? a : arith_wrap_sub(old, 1));
    case RMW_EXCH: return a;
    case RMW_CAS: return old == a ? b : old;
    case RMW_AND: return old & a;
    case RMW_OR: return old | a;
    case RMW_XOR: return old ^ a;
    case RMW_MIN: return old < a ? old : a;
    case RMW_MAX: return old > a ? old : a;
    }
    return old;
}

/* The result of a register ALU instruction (wraps at 64 bits). */
static inline int64_t arith_alu(enum lit_alu_op op, int64_t a, int64_t b)
{
    switch (op) {
    case ALU_ADD: return arith_wrap_add(a, b);
    case ALU_SUB: return arith_wrap_sub(a, b);
    case ALU_MUL: return arith_wrap_mul(a, b);
    case ALU_AND: return a & b;
    case ALU_OR: return a | b;
    case ALU_XOR: return a ^ b;
    }
    return 0;
}

/* Whether a branch's signed comparison `a cmp b` holds. */
static inline bool arith_cmp(enum lit_cmp c, int64_t a, int64_t b)
{
    switch (c) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_LT: return a < b;
    case CMP_GT: return a > b;
    case CMP_LE: return a <= b;
    default: return a >= b;
    }
}

/* x taken into the value range lo..hi modulo its size (a protocol that
 * declares `value ... wrap`), without computing x - lo, which could
 * overflow.  hi - lo + 1 must fit int64_t. */
static inline int64_t arith_wrap_range(int64_t x, int64_t lo, int64_t hi)
{
    int64_t span = hi - lo + 1;
    int64_t r = (x % span - lo % span) % span;
    return lo + (r < 0 ? r + span : r);
}

/* l mod r taking the sign of r (so `addr % n` is never negative for n >
 * 0); r != 0 and not (l, r) = (INT64_MIN, -1), which the caller refuses. */
static inline int64_t arith_floor_mod(int64_t l, int64_t r)
{
    if (r > 0 && !(r & (r - 1)))
        return l & (r - 1);             /* the usual home: addr % a power of two */
    int64_t m = l % r;
    return m != 0 && (m < 0) != (r < 0) ? m + r : m;
}

/* Table expression `l op r`, checked (see the header comment).  && and ||
 * short-circuit in the caller: it evaluates r only when l does not decide,
 * and then the result is whether r is non-zero. */
static inline int64_t arith_expr(enum expr_op op, int64_t l, int64_t r, bool *ok)
{
    int64_t x = 0;
    bool bad = false;
    switch (op) {
    case OPX_ADD: bad = __builtin_add_overflow(l, r, &x); break;
    case OPX_SUB: bad = __builtin_sub_overflow(l, r, &x); break;
    case OPX_MUL: bad = __builtin_mul_overflow(l, r, &x); break;
    case OPX_EQ: return l == r;
    case OPX_NE: return l != r;
    case OPX_LT: return l < r;
    case OPX_LE: return l <= r;
    case OPX_GT: return l > r;
    case OPX_GE: return l >= r;
    case OPX_AND:
    case OPX_OR: return r != 0;
    case OPX_DIV:
    case OPX_MOD:
        bad = r == 0 || (r == -1 && l == INT64_MIN);
        if (!bad)
            return op == OPX_DIV ? l / r : arith_floor_mod(l, r);
        break;
    }
    if (bad)
        *ok = false;
    return bad ? 0 : x;
}

/* Table expression `-x`, checked: -INT64_MIN clears *ok and gives 0. */
static inline int64_t arith_neg(int64_t x, bool *ok)
{
    if (x == INT64_MIN) {
        *ok = false;
        return 0;
    }
    return -x;
}

#endif
