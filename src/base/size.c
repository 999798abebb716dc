/* base/size.c: see size.h. */
#include "base/size.h"

#include <errno.h>
#include <stdlib.h>

static int suffix_shift(char c)
{
    switch (c) {
    case 'k': case 'K': return 10;
    case 'm': case 'M': return 20;
    case 'g': case 'G': return 30;
    case 't': case 'T': return 40;
    default: return -1;
    }
}

bool size_parse(const char *text, uint64_t *out)
{
    if (!text || text[0] < '0' || text[0] > '9')
        return false;   /* strtoull would take blanks, '+' and '-' */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return false;
    int shift = 0;
    if (*end) {
        shift = suffix_shift(*end);
        if (shift < 0 || end[1] != '\0')
            return false;
    }
    if (shift && v > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}
