/* litmus/ops.c: see litmus/ops.h.  Arithmetic wraps around at 64 bits, as
 * a machine register does: computed on uint64_t, where overflow is defined
 * (a loop that doubles a register must not be undefined behaviour). */
#include "litmus/ops.h"

static lit_value add(lit_value a, lit_value b) { return (lit_value)((uint64_t)a + (uint64_t)b); }
static lit_value sub(lit_value a, lit_value b) { return (lit_value)((uint64_t)a - (uint64_t)b); }
static lit_value mul(lit_value a, lit_value b) { return (lit_value)((uint64_t)a * (uint64_t)b); }

lit_value lit_rmw_result(const lit_instr *in, lit_value old, lit_value a, lit_value b)
{
    switch (in->rmw_op) {
    case RMW_ADD: return add(old, a);
    case RMW_SUB: return sub(old, a);
    case RMW_INC: return in->a.kind == OPND_NONE ? add(old, 1) : (old >= a ? 0 : add(old, 1));
    case RMW_DEC: return in->a.kind == OPND_NONE ? sub(old, 1) : ((old == 0 || old > a) ? a : sub(old, 1));
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

lit_value lit_alu_result(enum lit_alu_op op, lit_value a, lit_value b)
{
    switch (op) {
    case ALU_ADD: return add(a, b);
    case ALU_SUB: return sub(a, b);
    case ALU_MUL: return mul(a, b);
    case ALU_AND: return a & b;
    case ALU_OR: return a | b;
    case ALU_XOR: return a ^ b;
    }
    return 0;
}
