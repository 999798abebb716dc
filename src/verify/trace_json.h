/*
 * verify/trace_json.h: a counterexample trace as JSON.
 *
 * Contract.  trace_json() writes the shortest path to state `index` of a
 * finished search as a JSON array of step objects, one per step, the
 * initial state first ({"step":0,"initial":true}).  Each later step has
 * "step", "text" (the line the text trace prints, from the searched
 * model's describe: the scheduler's, with `sched`) and the members of the
 * step's record (protocol/step.h's proto_step_record, or the scheduler's
 * own step) that it filled: "thread", "line" (the litmus line),
 * "instruction", "controller", "instance" ({"kind":"CU","index":1}),
 * "address", "state", "event", "row" ("file:line" of the table row that
 * fired), "actions", "sent", "read", "next_state", "note".  A model
 * without a describe gives "rule" for "text".  `sched` is the scheduler
 * the search ran through, or NULL.
 */
#ifndef SCOPECHECK_VERIFY_TRACE_JSON_H
#define SCOPECHECK_VERIFY_TRACE_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "protocol/protocol.h"
#include "schedule/sched.h"
#include "search/bfs.h"

void trace_json(FILE *out, const bfs_search *s, const proto_instance *in, const sched_model *sched, uint32_t index);
/* The same for a concrete path of model m (NULL: a step that says the
 * trace is unavailable). */
void trace_json_path(FILE *out, const nsi_model *m, const proto_instance *in, const sched_model *sched,
                     const bfs_path *p);

#endif
