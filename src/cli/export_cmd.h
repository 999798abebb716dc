/*
 * cli/export_cmd.h: the `scopecheck export` command.
 *
 * Contract: runs `verify` (verify_files over the verification library,
 * every check verify makes) on the given litmus tests and directories
 * (every *.litmus below a directory, as verify reads it), and only when every
 * test passes, completely, writes the protocol's tables with a stamp
 * (docs/tables-format.md) to the -o file: written beside it under a
 * temporary name and renamed, so no partial file is ever left.  A
 * violation prints verify's report and exits 1; an incomplete search
 * exits 3; unusable input or an unwritable output exits 2.  Nothing is
 * written in any of those cases.
 */
#ifndef SCOPECHECK_CLI_EXPORT_CMD_H
#define SCOPECHECK_CLI_EXPORT_CMD_H

#include <stdio.h>

int export_cmd_main(int argc, char **argv, FILE *out, FILE *err);

#endif
