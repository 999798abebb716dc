/*
 * verify/value_range.h: the range of values a protocol must hold for one test.
 *
 * Contract.  test_value_range() fills po->has_values, value_lo and
 * value_hi with the range of every value a run of the test can hold
 * (litmus/value_range.h's lit_value_range, with the loop bound and the limits of
 * `limits`: unroll, stop, timeout_s, max_memory), widened to
 * include 0, which every protocol holds in an empty line.  The protocol
 * uses it instead of its declared `value` range unless a --const override
 * names that range's constant (protocol/protocol.h).  When the values
 * cannot be bounded, or a limit stops the walk, it says so on `err` and
 * uses those found (the protocol then flags a step beyond them); false, with
 * a located error, when the test's paths cannot be built.
 */
#ifndef SCOPECHECK_VERIFY_VALUE_RANGE_H
#define SCOPECHECK_VERIFY_VALUE_RANGE_H

#include <stdbool.h>
#include <stdio.h>

#include "enumerate/enumerate.h"
#include "litmus/litmus.h"
#include "protocol/protocol.h"

bool test_value_range(const litmus_test *t, const enum_options *limits, proto_options *po, FILE *err);

#endif
