/* litmus/ops.c: see litmus/ops.h.  The arithmetic itself is base/arith.h's,
 * shared with the simulator; this is the instruction's view of it. */
#include "litmus/ops.h"

lit_value lit_rmw_result(const lit_instr *in, lit_value old, lit_value a, lit_value b)
{
    return arith_rmw(in->rmw_op, in->a.kind != OPND_NONE, old, a, b);
}

lit_value lit_alu_result(enum lit_alu_op op, lit_value a, lit_value b) { return arith_alu(op, a, b); }
