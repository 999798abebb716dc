/*
 * sim/words.h: the line-oriented text of simulator configurations and
 * workloads (docs/simulator.md): one setting per line, words separated by
 * blanks, `#` to the end of the line a comment.
 *
 * Contract.  words_read splits a file (or, with words_text, a string such
 * as a command-line setting) into lines of words, each word with its line
 * and column (from 1) for "FILE:LINE:COL: error: ..." diagnostics
 * (base/diag.h).  A line of more than SIM_MAX_WORDS words is an error
 * (words_read reports it; words_text records it in `overflow`).  Numbers: words_int takes a decimal integer with an
 * optional K, M or G suffix (powers of 1024), words_real a decimal
 * number; both write the error themselves and return false on a bad word.
 * Memory from Boehm GC.  A file that cannot be read, is empty of
 * settings or holds a NUL byte is an error (NULL).
 */
#ifndef SCOPECHECK_SIM_WORDS_H
#define SCOPECHECK_SIM_WORDS_H

#include <stdbool.h>
#include <stdio.h>

typedef struct sim_word { const char *text; int line, col; } sim_word;
typedef struct sim_line { int nwords; sim_word *words; } sim_line;
typedef struct sim_text {
    const char *file;
    int nlines;
    sim_line *lines;
    const sim_word *overflow;   /* the first word past SIM_MAX_WORDS on a line, or NULL */
} sim_text;

#define SIM_MAX_WORDS 64

sim_text *words_read(const char *path, FILE *errors);
sim_text *words_text(const char *name, const char *text);
bool words_int(const char *file, const sim_word *w, long lo, long hi, long *out, FILE *errors);
bool words_real(const char *file, const sim_word *w, double lo, double hi, double *out, FILE *errors);

#endif
