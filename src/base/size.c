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

enum size_parse_result size_parse_max(const char *text, uint64_t max, uint64_t *out)
{
    if (!text || text[0] < '0' || text[0] > '9')
        return SIZE_BAD;    /* strtoull would take blanks, '+' and '-' */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    bool too_large = errno == ERANGE;
    int shift = 0;
    if (*end) {
        shift = suffix_shift(*end);
        if (shift < 0 || end[1] != '\0')
            return SIZE_BAD;
    }
    if (too_large || (uint64_t)v > (max >> shift))
        return SIZE_TOO_LARGE;
    *out = (uint64_t)v << shift;
    return SIZE_OK;
}

bool size_parse(const char *text, uint64_t *out)
{
    return size_parse_max(text, UINT64_MAX, out) == SIZE_OK;
}
