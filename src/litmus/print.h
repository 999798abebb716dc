/*
 * litmus/print.h: a litmus_test written back as text, in the PTX or the
 * OpenCL C dialect.
 *
 * Contract: the text read back by litmus/read.c gives the same program: the
 * same threads, placements, locations (initial values, aliases), registers
 * and their initial values, instructions (opcode, order, scope, proxy,
 * operands, branch targets) and final condition, so that every engine sees
 * the same events.  Only what a file cannot carry changes: instruction
 * text, line and column, and the names of branch labels.  The random test
 * generator and the test shrinker (src/gen/) print through this module;
 * the round trip is checked over our suites by tests/unit/litmus/test_print.c.
 *
 * A test that the dialect cannot express exactly is refused: the function
 * returns false, writes nothing to `out` and sets *why to a short reason
 * ("a compare-and-swap has no exact OpenCL form", ...).  Output errors are
 * the caller's to check (ferror).
 */
#ifndef SCOPECHECK_LITMUS_PRINT_H
#define SCOPECHECK_LITMUS_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "litmus/litmus.h"

bool litmus_print_ptx(FILE *out, const litmus_test *t, const char **why);

/* The OpenCL form: weak accesses become non-atomic ones, orders and scopes
 * map one to one (cta = work_group, gpu = device, sys = all_svm_devices),
 * `red` a fetch-op whose value is dropped, fence.sc / fence.acq_rel an
 * atomic_work_item_fence on global memory, and branches structured code
 * (`if`, `do ... while`).  Refused: compare-and-swap, inc/dec, xor, proxies
 * and aliases, barriers, and branches that do not nest. */
bool litmus_print_opencl(FILE *out, const litmus_test *t, const char **why);

/* The condition, as both dialects read it: "(P0:r0 == 1 /\ x == 2)". */
void litmus_print_cond(FILE *out, const litmus_test *t, const lit_cond *c);

#endif
