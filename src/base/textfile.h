/*
 * base/textfile.h: reading a whole input file, the one way every front end
 * does it (litmus tests, cat models and their includes, protocol tables and
 * the bases of variants).
 *
 * Contract.  textfile_read opens `path`, refuses what is not a regular file
 * or a pipe (a directory, /dev/zero, a terminal, a socket: reading those
 * either fails or never ends), and reads at most `max_bytes`: a longer file
 * is refused without reading past max_bytes + 1.  A named pipe with no
 * writer reads as empty instead of blocking in open().  On success it
 * returns the contents in Boehm GC memory with a NUL after the last byte
 * (the contents may hold NUL bytes of their own; *len counts them).  On
 * failure it returns NULL and sets *why to a message for the caller to
 * place ("not a regular file (a character device)", "file too large (more
 * than 1048576 bytes)", "cannot open: No such file or directory"); the
 * caller chooses the position: the file itself (1:1), or the `include` or
 * `extends` line that named it.
 *
 * textfile_position turns a byte offset into a 1-based line and column, as
 * diagnostics print them.
 */
#ifndef SCOPECHECK_BASE_TEXTFILE_H
#define SCOPECHECK_BASE_TEXTFILE_H

#include <stddef.h>

char *textfile_read(const char *path, size_t max_bytes, size_t *len, const char **why);

void textfile_position(const char *text, size_t offset, int *line, int *col);

#endif
