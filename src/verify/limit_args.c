/* verify/limit_args.c: limit option values (see verify/limit_args.h). */
#include "verify/limit_args.h"

#include <time.h>

#include "base/clock.h"
#include "base/size.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

uint64_t limit_max_size(void)
{
    return (uint64_t)SIZE_MAX < UINT64_MAX ? (uint64_t)SIZE_MAX : UINT64_MAX;
}

enum limit_arg limit_parse_size(const char *text, uint64_t *out)
{
    uint64_t v;
    switch (size_parse_max(text, limit_max_size(), &v)) {
    case SIZE_TOO_LARGE: return LIMIT_TOO_LARGE;
    case SIZE_BAD: return LIMIT_BAD;
    case SIZE_OK: break;
    }
    if (v == 0)
        return LIMIT_BAD;
    *out = v;
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

double limit_seconds_left(double budget, double start)
{
    if (budget <= 0)
        return 0;
    double left = budget - (clock_now() - start);
    return left > 1e-6 ? left : 1e-6;
}
