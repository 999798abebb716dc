/*
 * draw/graph_msc.h: `scopecheck graph --msc`, the counterexample of a
 * litmus test on a protocol as a message-sequence chart.
 *
 * Contract.  graph_msc searches the protocol's reachable states (at most
 * `max_states`), picks the trace to draw and draws it (protocol/msc.h,
 * draw/msc_draw.h): the shortest trace to the first unsound outcome the
 * search met, else to the invariant violation, else to the first deadlock
 * (whose reasons, protocol/step.h's proto_stuck_reasons, end the title),
 * else, when the protocol passes, the shortest complete run (to the first
 * final state), and the title says which.  A search cut by a limit with
 * no counterexample draws nothing.  Returns 0, or 2 with a message.
 */
#ifndef SCOPECHECK_DRAW_GRAPH_MSC_H
#define SCOPECHECK_DRAW_GRAPH_MSC_H

#include <stdint.h>
#include <stdio.h>

#include "draw/graph_input.h"

int graph_msc(const graph_input *g, FILE *out, FILE *err);

#endif
