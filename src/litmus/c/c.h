/*
 * litmus/c/c.h: herd7's C litmus dialect (see docs/litmus-c.md).
 *
 * litmus_parse_c parses a whole C litmus file; the text has already been
 * checked to be non-empty text whose first word is "C".  Thread bodies are
 * compiled into the register machine of litmus.h with herd7's C semantics
 * for C11's atomics (litmus/c/builtin.c).  On error it reports one
 * diagnostic on `errors` and returns NULL.
 */
#ifndef SCOPECHECK_LITMUS_C_C_H
#define SCOPECHECK_LITMUS_C_C_H

#include <stddef.h>
#include <stdio.h>

#include "litmus/litmus.h"

litmus_test *litmus_parse_c(const char *path, const char *text, size_t len, FILE *errors);

#endif
