/* cli/limit_args.c: limit option values (see cli/limit_args.h). */
#include "cli/limit_args.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

uint64_t limit_max_size(void)
{
    return (uint64_t)SIZE_MAX < UINT64_MAX ? (uint64_t)SIZE_MAX : UINT64_MAX;
}

static uint64_t suffix_multiplier(char c)
{
    switch (c) {
    case 'K': case 'k': return (uint64_t)1 << 10;
    case 'M': case 'm': return (uint64_t)1 << 20;
    case 'G': case 'g': return (uint64_t)1 << 30;
    case 'T': case 't': return (uint64_t)1 << 40;
    default: return 0;
    }
}

enum limit_arg limit_parse_size(const char *text, uint64_t *out)
{
    if (!isdigit((unsigned char)text[0]))
        return LIMIT_BAD;   /* no sign, no space: strtoull would take them */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    bool too_large = errno == ERANGE;
    if (errno && !too_large)
        return LIMIT_BAD;
    uint64_t mult = 1;
    if (*end) {
        mult = suffix_multiplier(*end);
        if (!mult || end[1])
            return LIMIT_BAD;
    }
    if (too_large || (uint64_t)v > limit_max_size() / mult)
        return LIMIT_TOO_LARGE;
    if (v == 0)
        return LIMIT_BAD;
    *out = (uint64_t)v * mult;
    return LIMIT_OK;
}

enum limit_arg limit_parse_seconds(const char *text, double *out)
{
    if (!isdigit((unsigned char)text[0]) && text[0] != '.')
        return LIMIT_BAD;   /* no sign, no "inf" or "nan" */
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end)
        return LIMIT_BAD;
    if (errno == ERANGE && v != 0)
        return LIMIT_TOO_LARGE;
    if (errno || !isfinite(v) || v <= 0)
        return LIMIT_BAD;
    *out = v;
    return LIMIT_OK;
}
