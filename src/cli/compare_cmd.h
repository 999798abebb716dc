/*
 * cli/compare_cmd.h: the `scopecheck compare` command, in the spirit of
 * herd's mcompare7: several logs side by side, test by test.
 *
 * Contract.  `compare [--states] [--diff] LOG...` reads logs in herd's
 * block format (scopecheck litmus's output, herd7's, legacy herd's; a
 * log's blocks are "Test NAME KIND" ... "Observation NAME ..." with the
 * States lines, the verdict and an optional Hash= line) and prints one row
 * per test name (sorted), one column per log: the verdict and the number
 * of final states, and a mark "!=" when the logs disagree on the verdict
 * or, once states are normalised (herd7's [x] and x, decimal and 0x1), on
 * the set of final states.  --states lists the states each log has and
 * another lacks; --diff prints only the rows that differ.  A test absent
 * from a log shows "-".  Returns 0 when every test present in two or more
 * logs agrees, 1 when some differ, 2 on unusable input (a log that cannot
 * be read or holds no block).
 */
#ifndef SCOPECHECK_CLI_COMPARE_CMD_H
#define SCOPECHECK_CLI_COMPARE_CMD_H

#include <stdio.h>

int compare_cmd_main(int argc, char **argv, FILE *out, FILE *err);

#endif
