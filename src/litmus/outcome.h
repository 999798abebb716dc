/*
 * litmus/outcome.h: the set of final states of a litmus test.
 *
 * Contract: a final state is a vector of `width` values (the test's observed
 * registers and locations, in order).  outcome_add inserts it once and
 * counts how often it was produced; states come back sorted, so output does
 * not depend on enumeration order.  Allocation: Boehm GC, amortised (the set
 * doubles when full), so adding is cheap on the hot path.
 */
#ifndef SCOPECHECK_LITMUS_OUTCOME_H
#define SCOPECHECK_LITMUS_OUTCOME_H

#include <stdint.h>

#include "litmus/litmus.h"

typedef struct outcome_set outcome_set;

outcome_set *outcome_set_new(int width);
/* Returns the index of the state in insertion order. */
int outcome_add(outcome_set *s, const lit_value *state);
/* Index of the state in insertion order, or -1 when absent. */
int outcome_find(const outcome_set *s, const lit_value *state);
int outcome_count(const outcome_set *s);
int outcome_width(const outcome_set *s);
/* The states in insertion order (outcome_add's indices): count * width values. */
const lit_value *outcome_values(const outcome_set *s);
/* The states sorted lexicographically: count * width values. */
const lit_value *outcome_sorted(outcome_set *s);

#endif
