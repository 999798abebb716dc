/*
 * base/size.h: sizes and counts written on the command line ("512M", "2G",
 * "100000"), for every option that takes one (--max-memory, --max-states).
 *
 * Contract.  Decimal digits with an optional suffix K, M, G or T (powers of
 * 1024, either case) and nothing else: no sign, no blanks, no fraction.
 * size_parse_max tells a malformed value (SIZE_BAD) from one above `max`
 * (SIZE_TOO_LARGE: 99999999999999G is refused, never wrapped around to a
 * small limit) and leaves *out alone unless SIZE_OK.  size_parse is the
 * same with max 2^64 - 1, true for SIZE_OK.
 */
#ifndef SCOPECHECK_BASE_SIZE_H
#define SCOPECHECK_BASE_SIZE_H

#include <stdbool.h>
#include <stdint.h>

enum size_parse_result { SIZE_OK, SIZE_BAD, SIZE_TOO_LARGE };

enum size_parse_result size_parse_max(const char *text, uint64_t max, uint64_t *out);
bool size_parse(const char *text, uint64_t *out);

#endif
