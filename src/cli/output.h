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

/* Writes `len` bytes of `data` (one test's result: whole JSON lines, a
 * herd block) to `out` whole or not at all as far as a signal goes:
 * `out` is flushed first, then the bytes are written and flushed with
 * SIGINT, SIGTERM and SIGHUP blocked, so that a signal (even a second one,
 * whose default action ends the process) comes after the last byte or
 * before the first, never in a line.  False when a write failed. */
bool output_whole(FILE *out, const char *data, size_t len);
int output_close(FILE *out, FILE *err, const char *cmd, int status);

#endif
