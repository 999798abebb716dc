/*
 * tests/fuzz/gc_redzone.h: makes AddressSanitizer see overflows of memory
 * from the Boehm collector, in the fuzz builds only (`make fuzz` includes
 * it in every file with -include).
 *
 * ASan checks what its own allocator hands out; the collector's heap is
 * plain mapped memory to it, so an index one past a GC_MALLOC'd array (the
 * front ends keep all their tables there) went unseen.  Here every GC
 * allocation asks for 16 bytes more, and the bytes past the request, to
 * the end of the block the collector gave, are poisoned: a read or write
 * there from instrumented code is reported as use-after-poison.  A block
 * is unpoisoned whole when it is handed out again.  The collector's own
 * code is not instrumented, so its marking reads nothing it should not.
 * Its clearing of reclaimed blocks goes through memset, which ASan
 * intercepts in every library, and a reclaimed block may still carry the
 * redzone of its last life: scripts/fuzz.sh therefore runs with
 * tests/fuzz/asan.supp, which ignores reports from interceptors called by
 * libgc (interceptor_via_lib), and keeps our own memset and memcpy checked.
 */
#ifndef SCOPECHECK_FUZZ_GC_REDZONE_H
#define SCOPECHECK_FUZZ_GC_REDZONE_H

#include <gc.h>
#include <sanitizer/asan_interface.h>
#include <string.h>

#define GC_REDZONE_BYTES 16

static inline void *gc_redzone(void *p, size_t n)
{
    if (p) {
        size_t cap = GC_size(p);
        ASAN_UNPOISON_MEMORY_REGION(p, cap);
        if (cap > n)
            ASAN_POISON_MEMORY_REGION((char *)p + n, cap - n);
    }
    return p;
}

static inline void *gc_redzone_malloc(size_t n) { return gc_redzone(GC_malloc(n + GC_REDZONE_BYTES), n); }

static inline void *gc_redzone_malloc_atomic(size_t n)
{
    return gc_redzone(GC_malloc_atomic(n + GC_REDZONE_BYTES), n);
}

static inline void *gc_redzone_realloc(void *old, size_t n)
{
    if (old)
        ASAN_UNPOISON_MEMORY_REGION(old, GC_size(old));
    return gc_redzone(GC_realloc(old, n + GC_REDZONE_BYTES), n);
}

static inline char *gc_redzone_strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *t = gc_redzone_malloc_atomic(n + 1);
    if (t) {
        memcpy(t, s, n);
        t[n] = '\0';
    }
    return t;
}

#undef GC_MALLOC
#undef GC_MALLOC_ATOMIC
#undef GC_REALLOC
#undef GC_STRDUP
#undef GC_STRNDUP
#define GC_MALLOC(n) gc_redzone_malloc(n)
#define GC_MALLOC_ATOMIC(n) gc_redzone_malloc_atomic(n)
#define GC_REALLOC(p, n) gc_redzone_realloc(p, n)
#define GC_STRDUP(s) gc_redzone_strndup(s, (size_t)-1)
#define GC_STRNDUP(s, n) gc_redzone_strndup(s, n)

#endif
