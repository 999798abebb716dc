/* cat/source_log.c: what a model's parse read (see cat/source_log.h). */
#include "cat/source_log.h"

#include <gc.h>
#include <string.h>

cat_source_log *cat_source_log_new(void) { return GC_MALLOC(sizeof(cat_source_log)); }

void cat_source_log_add(cat_source_log *log, const char *dir, const char *name, const char *found,
                        const char *text, size_t len)
{
    if (log->n == log->cap) {
        log->cap = log->cap ? 2 * log->cap : 8;
        cat_source_lookup *v = GC_MALLOC(sizeof *v * (size_t)log->cap);
        if (log->n)
            memcpy(v, log->v, sizeof *v * (size_t)log->n);
        log->v = v;
    }
    log->v[log->n++] = (cat_source_lookup){dir, name, found, text, len};
}
