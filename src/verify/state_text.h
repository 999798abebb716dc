/*
 * verify/state_text.h: a state's named fields (protocol/step.h) as text, one
 * line per component: "L1 (CU 1) [x]: state = V, val = 1".
 *
 * Contract.  state_text_write writes the fields of `now` that differ from
 * `before` (every field when `before` is NULL), grouped by component in
 * the instance's order, each line starting with `indent` and ending with
 * a newline; a channel's contents follow its name directly ("req[0]:
 * Load(x)").  Nothing is written when nothing differs.
 */
#ifndef SCOPECHECK_VERIFY_STATE_TEXT_H
#define SCOPECHECK_VERIFY_STATE_TEXT_H

#include <stdio.h>

#include "protocol/step.h"

void state_text_write(FILE *out, const proto_state_field *now, const proto_state_field *before, int n,
                      const char *indent);

#endif
