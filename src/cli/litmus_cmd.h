/*
 * cli/litmus_cmd.h: the `scopecheck litmus` command.
 *
 * Contract: parses its own arguments (argv[0] is "litmus"), checks every
 * litmus file named (directories are searched for *.litmus, in sorted
 * order) against one model, prints a report per test on `out` and errors on
 * `err`.  Returns the exit status: 0 when every file was checked and every
 * verdict established, 2 on unusable input or arguments, 3 when some
 * verdict is Unknown (a limit or an execution too large cut the work).
 */
#ifndef SCOPECHECK_CLI_LITMUS_CMD_H
#define SCOPECHECK_CLI_LITMUS_CMD_H

#include <stdio.h>

int litmus_cmd_main(int argc, char **argv, FILE *out, FILE *err);

#endif
