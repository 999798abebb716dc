/*
 * cat/source_log.h: what a model's parse looked up and read, for the cache
 * of compiled models (cat/cache.h).
 *
 * Contract.  The parse (cat/ast.h's cat_parse_logged) adds one lookup per
 * file it looks for after the model's own text, in order: herd's prelude
 * (found or not) and each include: the including file's directory, the
 * name, the file found (NULL: none) and its whole text.  Collector memory;
 * the texts are the parse's own, not copied.
 */
#ifndef SCOPECHECK_CAT_SOURCE_LOG_H
#define SCOPECHECK_CAT_SOURCE_LOG_H

#include <stddef.h>

typedef struct cat_source_lookup {
    const char *dir, *name, *found, *text;
    size_t len;
} cat_source_lookup;

typedef struct cat_source_log {
    cat_source_lookup *v;
    int n, cap;
} cat_source_log;

cat_source_log *cat_source_log_new(void);
void cat_source_log_add(cat_source_log *log, const char *dir, const char *name, const char *found,
                        const char *text, size_t len);

#endif
