/*
 * cli/json_error.h: errors as JSON objects for `--json` runs.
 *
 * Contract.  A `--json` run that meets a file it cannot use still writes
 * the located message on standard error, and also one JSON object on
 * standard output in place of the file's result, so that a consumer that
 * reads only the JSON lines learns of it:
 *   {"file":"t.litmus","error":"t.litmus:3:5: error: ...","line":3,"col":5,
 *    "messages":["t.litmus:3:5: error: ...", ...]}
 * ("line" and "col" when the first message has them).
 *
 * errors_begin() returns the stream to hand to the reader (a memory
 * stream; `real` itself if one cannot be made); errors_end() copies what
 * was written to `real` and returns it as a GC string ("" when nothing).
 */
#ifndef SCOPECHECK_CLI_JSON_ERROR_H
#define SCOPECHECK_CLI_JSON_ERROR_H

#include <stdio.h>

typedef struct errors_capture {
    char *buf;
    size_t len;
    FILE *mem;
    FILE *real;
} errors_capture;

FILE *errors_begin(errors_capture *c, FILE *real);
const char *errors_end(errors_capture *c);

/* Writes the JSON object above for `file` and the captured `messages`. */
void json_error_object(FILE *out, const char *file, const char *messages);

#endif
