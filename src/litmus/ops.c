/* litmus/ops.c: see litmus/ops.h. */
#include "litmus/ops.h"

lit_value lit_rmw_result(const lit_instr *in, lit_value old, lit_value a, lit_value b)
{
    switch (in->rmw_op) {
    case RMW_ADD: return old + a;
    case RMW_SUB: return old - a;
    case RMW_INC: return in->a.kind == OPND_NONE ? old + 1 : (old >= a ? 0 : old + 1);
    case RMW_DEC: return in->a.kind == OPND_NONE ? old - 1 : ((old == 0 || old > a) ? a : old - 1);
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
    case ALU_ADD: return a + b;
    case ALU_SUB: return a - b;
    case ALU_MUL: return a * b;
    case ALU_AND: return a & b;
    case ALU_OR: return a | b;
    case ALU_XOR: return a ^ b;
    }
    return 0;
}
