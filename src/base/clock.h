/*
 * base/clock.h: the process's clocks and its collector heap, as limits
 * (--timeout, --max-memory) read them.
 *
 * Contract: clock_now() is monotonic seconds from an arbitrary origin (only
 * differences mean anything); gc_heap_in_use() is the bytes of the Boehm
 * collector's heap that are not free (what a --max-memory limit on front-end
 * allocation compares against).  Both are cheap enough to ask once per
 * unit of work, not per instruction.
 */
#ifndef SCOPECHECK_BASE_CLOCK_H
#define SCOPECHECK_BASE_CLOCK_H

#include <stddef.h>

double clock_now(void);
size_t gc_heap_in_use(void);

#endif
