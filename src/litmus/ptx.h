/*
 * litmus/ptx.h: the PTX litmus dialect (see docs/litmus-ptx.md).
 *
 * litmus_parse_ptx parses a whole PTX litmus file; the text has already
 * been checked to be non-empty text whose first word is "PTX".  On error it
 * reports one diagnostic on `errors` and returns NULL.
 */
#ifndef SCOPECHECK_LITMUS_PTX_H
#define SCOPECHECK_LITMUS_PTX_H

#include <stddef.h>
#include <stdio.h>

#include "litmus/litmus.h"

litmus_test *litmus_parse_ptx(const char *path, const char *text, size_t len, FILE *errors);

#endif
