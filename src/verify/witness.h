/*
 * verify/witness.h: one execution the model allows for each of a set of
 * outcomes, as text (`verify --complete` shows why an outcome the protocol
 * never reached is allowed).
 *
 * Contract.  witness_collect() enumerates the test's executions under the
 * model once more (the enumerator's on_execution hook) and keeps, for each
 * outcome of `wanted`, the first consistent execution whose final state is
 * that outcome.  witness_text() gives it as lines ("a: P0 W[x]=1
 * st.relaxed.gpu x, 1", then "rf: init x -> c", "co: a -> b"), or NULL
 * when the enumeration found none (it was cut).  Strings are GC-allocated.
 */
#ifndef SCOPECHECK_VERIFY_WITNESS_H
#define SCOPECHECK_VERIFY_WITNESS_H

#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/litmus.h"
#include "litmus/outcome.h"

typedef struct witness_set witness_set;

witness_set *witness_collect(const litmus_test *t, const cat_model *m, cat_workspace *ws, const enum_options *base,
                             outcome_set *wanted, FILE *err);
const char *witness_text(const witness_set *w, const lit_value *outcome);

#endif
