/*
 * verify/trace_json.h: a counterexample trace as JSON.
 *
 * Contract.  trace_json() writes the shortest path to state `index` of a
 * finished search as a JSON array of step objects, one per step, the
 * initial state first ({"step":0,"initial":true}).  Each later step has
 * "step", "text" (the line the text trace prints) and the members of the
 * model's nsi_step that it filled: "thread", "line" (the litmus line),
 * "instruction", "controller", "instance" ({"kind":"CU","index":1}),
 * "address", "state", "event", "row" ("file:line" of the table row that
 * fired), "actions", "sent", "read", "next_state", "note".  A model
 * without a step describer gives "text" (or "rule") only.
 */
#ifndef SCOPECHECK_VERIFY_TRACE_JSON_H
#define SCOPECHECK_VERIFY_TRACE_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "search/bfs.h"
#include "search/nsi.h"

void trace_json(FILE *out, const bfs_search *s, const nsi_model *m, uint32_t index);

#endif
