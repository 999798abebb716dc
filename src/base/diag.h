/*
 * base/diag.h: diagnostics in the form "file:line:col: error: message".
 *
 * Folder src/base/: what every layer may use and that knows no litmus test,
 * model or protocol (diagnostics).  Includes nothing of ours.
 *
 * Contract: every front end reports bad input through diag_error, which
 * writes one line to the given stream (stderr in the program, a memory
 * stream in unit tests).  Lines and columns count from 1.
 */
#ifndef SCOPECHECK_BASE_DIAG_H
#define SCOPECHECK_BASE_DIAG_H

#include <stdio.h>

void diag_error(FILE *to, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
