/*
 * cat/cache.h: compiled models kept on disk between processes.
 *
 * A process that checks one test spends about a third of its time reading,
 * parsing, lowering and compiling the model and its includes (herd's
 * c11_partialSC.cat with c11_base.cat and stdlib.cat; docs/PERFORMANCE.md),
 * and scripts that run one process per test do it again every time.
 * cat_load_opts (cat/cat.h) with a `cache_dir` keeps the compiled form of a
 * model there and takes it back the next time instead of compiling.
 *
 * Contract.  An entry holds the compiled model and everything it was
 * compiled from: this program's build (the ELF build ID of the running
 * executable: no build ID, no cache), the model's path as given and its
 * whole text, the search directories, the variants, whether herd's
 * prelude was looked for, and every lookup the parse made after the
 * model's own text (cat/source_log.h: the including file's directory, the
 * name, the file found or none, its whole text).  cat_cache_load returns a
 * model only when all of them are as they are now: the same build, the
 * same text and options, and each lookup, asked again in order through
 * cat/ast.h's cat_find_include, finds the same file with the same text
 * (byte for byte, so a touched file costs nothing and a changed one is
 * always seen; a file that appears earlier in the search path is seen
 * too).  Since the parse reads nothing else and the compiler is a function
 * of what it reads, a model from the cache is the model a compilation
 * would give; the entry's own checksum (FNV-1a, 64 bits) refuses a
 * truncated or damaged file.  Anything else (no entry, a stale, damaged or
 * unreadable one) returns NULL and the caller compiles.  cat_cache_store
 * writes an entry whole (a temporary file renamed over the old one) or
 * not at all, silently: an unwritable directory only means no cache.  One
 * file per model path and options (its name a hash of them), rewritten
 * when it goes stale, so the directory does not grow with rebuilds or
 * edits.  Only successful loads are stored; a model's load writes nothing
 * to its error stream when it succeeds (cat/ has no warnings), so a model
 * from the cache prints what a compiled one would.
 */
#ifndef SCOPECHECK_CAT_CACHE_H
#define SCOPECHECK_CAT_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "cat/ast.h"
#include "cat/cat.h"
#include "cat/source_log.h"

/* The model compiled from `path` (whose text is text[0..len)) with opts
 * (its cache_dir names the cache) and prelude, as a compilation now would
 * give it; NULL when the cache has no valid entry for it. */
cat_model *cat_cache_load(const char *path, const char *text, size_t len, const cat_load_options *opts,
                          bool prelude);

/* Keeps m, compiled from those inputs and what `log` says the parse read,
 * in opts->cache_dir (made if missing); false when it could not (nothing
 * is said: the cache is an optimisation). */
bool cat_cache_store(const char *path, const char *text, size_t len, const cat_load_options *opts, bool prelude,
                     const cat_source_log *log, const cat_model *m);

/* The model's part of an entry, as bytes (GC memory, *len bytes): two
 * models with the same bytes are the same compiled model (for tests). */
const unsigned char *cat_cache_model_bytes(const cat_model *m, size_t *len);

#endif
