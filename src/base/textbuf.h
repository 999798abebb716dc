/*
 * base/textbuf.h: text appended into a fixed buffer, cut with "..." when it
 * does not fit.
 *
 * Contract: a textbuf writes into memory its owner provides (often a char
 * array inside a result structure), never allocates, and keeps the buffer
 * a terminated string at all times.  When an append does not fit, the
 * text is cut and ends with "...", and every later append is ignored, so
 * a reader sees at once that something was left out.
 */
#ifndef SCOPECHECK_BASE_TEXTBUF_H
#define SCOPECHECK_BASE_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct textbuf {
    char *text;
    size_t cap;      /* bytes of `text`, terminator included (at least 4) */
    size_t len;
    bool cut;        /* something did not fit */
} textbuf;

/* A buffer over `text` (cap bytes), emptied. */
textbuf tb_over(char *text, size_t cap);
void tb_printf(textbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tb_puts(textbuf *b, const char *s);

#endif
