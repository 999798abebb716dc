/*
 * verify/limit_args.h: the limit options the commands share (--max-memory,
 * --max-states, --timeout), parsed one way for all of them.
 *
 * Contract: each function reads a whole option value and reports whether
 * it is one; a value that does not fit (99999999999999G) is refused, never
 * wrapped.  Nothing is printed: the caller words the error for its
 * command.
 */
#ifndef SCOPECHECK_VERIFY_LIMIT_ARGS_H
#define SCOPECHECK_VERIFY_LIMIT_ARGS_H

#include <stdint.h>

enum limit_arg { LIMIT_OK, LIMIT_BAD, LIMIT_TOO_LARGE };

/* "64M", "2G", "1000" (suffixes K, M, G, T, powers of 1024): a positive
 * count that fits in a size_t.  Zero and negative values are LIMIT_BAD. */
enum limit_arg limit_parse_size(const char *text, uint64_t *out);

/* "60", "0.5": a positive, finite number of seconds. */
enum limit_arg limit_parse_seconds(const char *text, double *out);

/* The largest size limit_parse_size accepts, for error messages. */
uint64_t limit_max_size(void);

/* What is left of a --timeout budget of `budget` seconds (0: none) begun
 * at `start` (base/clock.h's clock_now): 0 when there is no budget, else at least a
 * moment, so that a pass given an exhausted budget stops at once and
 * says why instead of running unbounded. */
double limit_seconds_left(double budget, double start);

#endif
