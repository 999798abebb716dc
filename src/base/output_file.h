/*
 * base/output_file.h: output files written whole or not at all.
 *
 * Contract.  output_write_data and output_write_stream write into a fresh
 * temporary file beside the destination (NAME.tmp-XXXXXX), check every
 * write, the flush and the close, and rename the temporary file over the
 * destination only when all of them succeeded.  On any failure the
 * temporary file is removed, one line "scopecheck CMD: error: cannot write
 * 'NAME': REASON" goes to `err` (REASON from errno: "No space left on
 * device", "File too large", ...), and the result is 2, the status of an
 * output error; 0 otherwise.  The destination is never left half written.
 * Only an absent name or a regular file is replaced (through a symbolic
 * link: the file it names, the link stays).  Anything else that exists is
 * never replaced: a device or a FIFO is written where it is (opened for
 * writing without creating or truncating; a FIFO waits for its reader),
 * and its write errors are reported as above; a directory is refused
 * ("Is a directory").  A new file gets mode 0666 less the umask.
 *
 * output_guard_signals makes SIGINT, SIGTERM and SIGHUP (those the
 * process does not already ignore) end the command
 * cleanly from then on: the temporary file being written (if any) is
 * removed, one line says so on stderr, and the process exits with status
 * 3 (a run cut short, nothing established).  A temporary file is also
 * removed if the process exits (graphviz calls exit() on some errors)
 * while it exists.  The file being written is the one piece of global
 * state, because a signal handler can see nothing else.
 */
#ifndef SCOPECHECK_BASE_OUTPUT_FILE_H
#define SCOPECHECK_BASE_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the document to `f`; false (with a message on err) when it
 * cannot.  Write errors on f are found by the caller. */
typedef bool (*output_fn)(void *ctx, FILE *f, FILE *err);

int output_write_data(const char *cmd, const char *path, const void *data, size_t len, FILE *err);
int output_write_stream(const char *cmd, const char *path, output_fn fn, void *ctx, FILE *err);

void output_guard_signals(void);

#endif
