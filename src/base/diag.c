/* base/diag.c: see diag.h. */
#include "base/diag.h"

#include <stdarg.h>

void diag_error(FILE *to, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;
    fprintf(to, "%s:%d:%d: error: ", file, line, col);
    va_start(ap, fmt);
    vfprintf(to, fmt, ap);
    va_end(ap);
    fputc('\n', to);
}
