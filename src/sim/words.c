/* sim/words.c: lines of words with positions (see sim/words.h). */
#include "sim/words.h"

#include <errno.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"

#define MAX_TEXT (4 << 20)

static void add_line(sim_text *t, int *cap, sim_word *words, int n)
{
    if (t->nlines == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        sim_line *grown = GC_MALLOC(sizeof *grown * (size_t)*cap);
        if (t->nlines)
            memcpy(grown, t->lines, sizeof *grown * (size_t)t->nlines);
        t->lines = grown;
    }
    sim_word *copy = GC_MALLOC(sizeof *copy * (size_t)n);
    memcpy(copy, words, sizeof *copy * (size_t)n);
    t->lines[t->nlines++] = (sim_line){n, copy};
}

static sim_text *split(const char *name, const char *text, size_t len)
{
    sim_text *t = GC_MALLOC(sizeof *t);
    t->file = name;
    int cap = 0, line = 1;
    sim_word words[SIM_MAX_WORDS];
    size_t i = 0;
    while (i <= len) {
        int n = 0;
        size_t start = i;
        while (i < len && text[i] != '\n') {
            if (text[i] == '#') {
                while (i < len && text[i] != '\n')
                    i++;
                break;
            }
            if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
                i++;
                continue;
            }
            size_t w = i;
            while (i < len && !strchr(" \t\r\n#", text[i]))
                i++;
            sim_word word = {GC_STRNDUP(text + w, i - w), line, (int)(w - start) + 1};
            if (n < SIM_MAX_WORDS) {
                words[n++] = word;
            } else if (!t->overflow) {
                sim_word *keep = GC_MALLOC(sizeof *keep);
                *keep = word;
                t->overflow = keep;
            }
        }
        if (n)
            add_line(t, &cap, words, n);
        i++;
        line++;
    }
    return t;
}

sim_text *words_text(const char *name, const char *text) { return split(name, text, strlen(text)); }

sim_text *words_read(const char *path, FILE *errors)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(errors, "%s: error: cannot read: %s\n", path, strerror(errno));
        return NULL;
    }
    char *buf = GC_MALLOC_ATOMIC(MAX_TEXT + 1);
    size_t len = fread(buf, 1, MAX_TEXT + 1, f);
    fclose(f);
    if (len > MAX_TEXT) {
        fprintf(errors, "%s: error: larger than %d bytes\n", path, MAX_TEXT);
        return NULL;
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        fprintf(errors, "%s: error: a binary file (it holds a NUL byte)\n", path);
        return NULL;
    }
    sim_text *t = split(path, buf, len);
    if (t->overflow) {
        diag_error(errors, path, t->overflow->line, t->overflow->col, "more than %d words on a line",
                   SIM_MAX_WORDS);
        return NULL;
    }
    if (t->nlines == 0) {
        fprintf(errors, "%s: error: no settings in the file\n", path);
        return NULL;
    }
    return t;
}

bool words_int(const char *file, const sim_word *w, long lo, long hi, long *out, FILE *errors)
{
    char *end;
    errno = 0;
    long v = strtol(w->text, &end, 10);
    long mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1L << 10, end++;
    else if (*end == 'M' || *end == 'm')
        mult = 1L << 20, end++;
    else if (*end == 'G' || *end == 'g')
        mult = 1L << 30, end++;
    if (errno || end == w->text || *end || v > hi / mult || v * mult < lo || v * mult > hi) {
        diag_error(errors, file, w->line, w->col, "'%s' is not an integer in %ld..%ld", w->text, lo, hi);
        return false;
    }
    *out = v * mult;
    return true;
}

bool words_real(const char *file, const sim_word *w, double lo, double hi, double *out, FILE *errors)
{
    char *end;
    errno = 0;
    double v = strtod(w->text, &end);
    if (errno || end == w->text || *end || !(v >= lo && v <= hi)) {
        diag_error(errors, file, w->line, w->col, "'%s' is not a number in %g..%g", w->text, lo, hi);
        return false;
    }
    *out = v;
    return true;
}
