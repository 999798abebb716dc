/*
 * litmus/c/internal.h: the contract between the modules of the C litmus
 * front end (internal; the public entry point is litmus/c/c.h).
 *
 *   litmus/c/c.c        the dialect's top level: header, herd's key=value
 *                       lines, init block, threads and their parameters,
 *                       the final condition
 *   litmus/c/builtin.c  C11's atomics and fences, compiled as herd7's C
 *                       semantics has them; C's type names
 *
 * Thread bodies are compiled by the OpenCL front end's statement and
 * expression modules (litmus/opencl/internal.h), through the two hooks of
 * oparser that these functions fill.
 */
#ifndef SCOPECHECK_LITMUS_C_INTERNAL_H
#define SCOPECHECK_LITMUS_C_INTERNAL_H

#include <stdbool.h>

#include "litmus/lex.h"
#include "litmus/opencl/internal.h"

/* A call of a C11 atomic or fence (oparser.gen_call); `dst` receives its
 * value, or is -1 when the value is unused. */
bool c_gen_call(oparser *p, node *e, int dst, ocl_value_compiler gen_value);

/* A word of a C type as herd7's C parser knows them (oparser.is_type_word):
 * int, long, char, short, unsigned, signed, _Atomic, atomic_int,
 * intN_t, uintN_t, intptr_t, __int128 ... */
bool c_is_type_word(const lex_token *t);

#endif
