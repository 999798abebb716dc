/*
 * cli/verify_cmd.h: the `scopecheck verify` command.
 *
 * Contract: runs each litmus test on a protocol (protocol tables through
 * the next-state interface, explored breadth first), collects the final
 * outcomes, and compares them with the outcomes the memory model allows.
 * Reports per test: protocol outcomes, model outcomes, soundness, deadlocks,
 * unhandled (state, event) pairs and invariant violations, each violation
 * with its shortest trace; herd-like text or one JSON object per line.
 * Returns the exit status: 0 all checks passed, 1 a violation was found,
 * 2 unusable input or arguments.
 */
#ifndef SCOPECHECK_CLI_VERIFY_CMD_H
#define SCOPECHECK_CLI_VERIFY_CMD_H

#include <stdio.h>

int verify_cmd_main(int argc, char **argv, FILE *out, FILE *err);

#endif
