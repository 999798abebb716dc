/*
 * litmus/ops.h: the arithmetic of litmus instructions, one definition for
 * every engine that runs them: the axiomatic enumerator (litmus/thread_paths.c)
 * and the protocol interpreter (protocol/interp.c) must agree on what an
 * `atom.inc` or an `add` computes, or the protocol's outcomes and the
 * model's would differ for no reason of memory ordering.
 *
 * Contract: pure functions of their arguments; values are not range-checked
 * here (each engine applies its own value range).  Sums, differences and
 * products wrap around at 64 bits (two's complement), as a register does:
 * base/arith.h computes them, for the simulator too.
 */
#ifndef SCOPECHECK_LITMUS_OPS_H
#define SCOPECHECK_LITMUS_OPS_H

#include "litmus/litmus.h"

/* The value a read-modify-write instruction `in` stores, given the old
 * value and its operands a and b (b: the new value of a cas).  An inc or
 * dec without a bound operand counts by one (wrapping only at 64 bits). */
lit_value lit_rmw_result(const lit_instr *in, lit_value old, lit_value a, lit_value b);

/* The result of a register ALU operation. */
lit_value lit_alu_result(enum lit_alu_op op, lit_value a, lit_value b);

#endif
