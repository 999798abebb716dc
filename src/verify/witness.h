/*
 * verify/witness.h: one execution the model allows for each of a set of
 * outcomes, as text (`verify --complete` shows why an outcome the protocol
 * never reached is allowed).
 *
 * Contract.  witness_hook() hooks a witness set into the enumeration
 * options `o` (the enumerator's on_execution hook), so that the one
 * enumeration that computes the model's outcomes also keeps, for each
 * outcome, the first consistent execution whose final state it is.
 * witness_text() gives it as lines ("a: P0 W[x]=1 st.relaxed.gpu x, 1",
 * then "rf: init x -> c", "co: a -> b"), or NULL when the enumeration met
 * no such execution (it was cut, or the outcome was wrapped into a
 * protocol's range).  Strings are GC-allocated.
 */
#ifndef SCOPECHECK_VERIFY_WITNESS_H
#define SCOPECHECK_VERIFY_WITNESS_H

#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/litmus.h"
#include "litmus/outcome.h"

typedef struct witness_set witness_set;

witness_set *witness_hook(const litmus_test *t, enum_options *o);
const char *witness_text(const witness_set *w, const lit_value *outcome);

#endif
