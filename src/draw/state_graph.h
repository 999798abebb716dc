/*
 * draw/state_graph.h: `scopecheck graph`'s reachable state graph.
 *
 * Contract.  state_graph_draw searches every reachable state (at most
 * g->max_states: a larger space is refused), then draws states as nodes
 * and transitions as edges through graphviz (dot layout): final states as
 * double circles (their outcome in the label, unsound ones filled pink),
 * deadlocks as red octagons, the initial state bold, and the shortest
 * path to each counterexample (unsound outcome, deadlock, invariant
 * violation; 16 at most) in red.  Every node carries its whole state as
 * a tooltip; in graphs of at most STATE_GRAPH_LABEL_MAX states the label
 * also shows it (the fields that differ from the initial state).  A graph
 * of more than STATE_GRAPH_DRAW_ALL states is drawn, unless g->full, as
 * the neighbourhood of the highlighted paths: their states and every state
 * one transition from them, with a dashed border on the states that have
 * neighbours left out; with no counterexample the highlighted paths (in
 * blue) are the shortest runs to each outcome.  Edges carry the step as a
 * label (what happened) and tooltip (every action).  Output as
 * base/output_file.h writes it: 0, or 2 with a message.
 */
#ifndef SCOPECHECK_DRAW_STATE_GRAPH_H
#define SCOPECHECK_DRAW_STATE_GRAPH_H

#include <stdio.h>

#include "draw/graph_input.h"

#define STATE_GRAPH_DRAW_ALL 300
#define STATE_GRAPH_LABEL_MAX 40

int state_graph_draw(const graph_input *g, FILE *out, FILE *err);

#endif
