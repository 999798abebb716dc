/*
 * cli/graph_cmd.h: the `scopecheck graph` command.
 *
 * Contract.  `graph --protocol P [options] LITMUS -o OUT.{dot,svg,png}`
 * explores the reachable states of the protocol running the litmus test
 * (breadth first, as `verify` does), draws them with libcgraph/libgvc (one
 * node per state, one edge per transition) and renders the drawing in the
 * format the output's extension names.  When the protocol produces an
 * outcome the memory model forbids, or reaches a deadlock, the shortest
 * path to it is highlighted.  A graph larger than --max-states is refused.
 *
 * `graph --protocol P --tables -o OUT.html` writes each controller's
 * transition table as an HTML document instead (protocol/html.h).
 *
 * Output is written to a temporary file in the output's directory and
 * renamed on success, so a failure leaves no partial file.  Returns the
 * exit status: 0 written, 2 unusable input or arguments, or a failure to
 * write (message on `err`).
 */
#ifndef SCOPECHECK_CLI_GRAPH_CMD_H
#define SCOPECHECK_CLI_GRAPH_CMD_H

#include <stdio.h>

int graph_cmd_main(int argc, char **argv, FILE *out, FILE *err);

#endif
