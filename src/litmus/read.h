/*
 * litmus/read.h: public entry of the litmus front ends.
 *
 * litmus_read_file reads a file through base/textfile.h (a regular file or a
 * pipe, at most LITMUS_MAX_BYTES; text only, not empty) and parses it with the dialect named by the first word of its first
 * line ("PTX").  On any error it writes one line "file:line:col: error: ..."
 * to `errors` and returns NULL.  Everything is allocated with Boehm GC.
 */
#ifndef SCOPECHECK_LITMUS_READ_H
#define SCOPECHECK_LITMUS_READ_H

#include <stddef.h>
#include <stdio.h>

#include "litmus/litmus.h"

#define LITMUS_MAX_BYTES (1024u * 1024u)

litmus_test *litmus_read_file(const char *path, FILE *errors);
litmus_test *litmus_parse_text(const char *path, const char *text, size_t len, FILE *errors);

#endif
