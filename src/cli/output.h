/*
 * cli/output.h: results that could not be written are not results.
 *
 * Contract.  output_broken() flushes `out` and says whether that or any
 * earlier write to it failed (a full disk, /dev/full, a closed pipe); a
 * command then stops early, since nothing it prints can arrive.
 * output_close() makes the last flush and closes the stream; when a write,
 * the flush or the close failed, it writes "scopecheck CMD: error: cannot
 * write the results: REASON" on `err` and returns 2, else `status`.  main
 * calls it once for standard output after every command.
 */
#ifndef SCOPECHECK_CLI_OUTPUT_H
#define SCOPECHECK_CLI_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

bool output_broken(FILE *out);
int output_close(FILE *out, FILE *err, const char *cmd, int status);

#endif
