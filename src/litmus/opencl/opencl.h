/*
 * litmus/opencl/opencl.h: the OpenCL C litmus dialect, herd style
 * (see docs/litmus-opencl.md).
 *
 * litmus_parse_opencl parses a whole OpenCL litmus file; the text has
 * already been checked to be non-empty text whose first word is "OPENCL".
 * The C-like thread bodies are compiled into the register machine of
 * litmus.h.  On error it reports one diagnostic on `errors` and returns NULL.
 */
#ifndef SCOPECHECK_LITMUS_OPENCL_OPENCL_H
#define SCOPECHECK_LITMUS_OPENCL_OPENCL_H

#include <stddef.h>
#include <stdio.h>

#include "litmus/litmus.h"

litmus_test *litmus_parse_opencl(const char *path, const char *text, size_t len, FILE *errors);

#endif
