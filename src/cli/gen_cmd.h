/*
 * cli/gen_cmd.h: the test-writing commands (docs/difftest.md).
 *
 *   scopecheck gen [options] [-o DIR]       random litmus tests (gen/gen.h)
 *   scopecheck convert --to ptx|opencl FILE... [-o DIR]
 *                                            a test in the other dialect
 *   scopecheck shrink FILE K                 the K-th one-step reduction
 *
 * Contract: each parses its own arguments (argv[0] is the command name)
 * and returns the exit status: 0 done; 1 convert: some test has no exact
 * form in the dialect, shrink: K is past the last reduction; 2 unusable
 * input, arguments, or output that could not be written.  Files are
 * written whole or not at all (a temporary renamed into place).
 */
#ifndef SCOPECHECK_CLI_GEN_CMD_H
#define SCOPECHECK_CLI_GEN_CMD_H

#include <stdio.h>

int gen_cmd_main(int argc, char **argv, FILE *out, FILE *err);
int convert_cmd_main(int argc, char **argv, FILE *out, FILE *err);
int shrink_cmd_main(int argc, char **argv, FILE *out, FILE *err);

#endif
