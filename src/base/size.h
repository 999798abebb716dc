/*
 * base/size.h: sizes and counts written on the command line ("512M", "2G",
 * "100000"), for every option that takes one (--max-memory, --max-states).
 *
 * Contract.  size_parse accepts decimal digits with an optional suffix K, M,
 * G or T (powers of 1024, either case) and nothing else: no sign, no
 * blanks, no fraction.  It returns false, leaving *out alone, for anything
 * else and for a value of 2^64 or more (99999999999999G is refused, not
 * wrapped around to a small limit).
 */
#ifndef SCOPECHECK_BASE_SIZE_H
#define SCOPECHECK_BASE_SIZE_H

#include <stdbool.h>
#include <stdint.h>

bool size_parse(const char *text, uint64_t *out);

#endif
