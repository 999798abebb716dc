/* base/textbuf.c: bounded text (see base/textbuf.h). */
#include "base/textbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

textbuf tb_over(char *text, size_t cap)
{
    textbuf b = {text, cap, 0, false};
    if (cap)
        text[0] = '\0';
    return b;
}

/* Marks the buffer cut: its last characters become "...". */
static void cut(textbuf *b)
{
    b->cut = true;
    if (b->cap < 4)
        return;
    b->len = b->cap - 1;
    memcpy(b->text + b->len - 3, "...", 4);
}

void tb_printf(textbuf *b, const char *fmt, ...)
{
    if (b->cut || b->cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->text + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->text[b->len] = '\0';
        return;
    }
    if ((size_t)n >= b->cap - b->len)
        cut(b);
    else
        b->len += (size_t)n;
}

void tb_puts(textbuf *b, const char *s)
{
    tb_printf(b, "%s", s);
}
