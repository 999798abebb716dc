/* cat/model.c: loading a cat model and reading its properties (see cat.h). */
#include "cat/ast.h"

#include <gc.h>
#include <string.h>

#include "base/diag.h"
#include "base/textfile.h"
#include "cat/cache.h"

static const char *const *copy_strings(const char *const *v, int n)
{
    const char **c = GC_MALLOC(sizeof *c * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        c[i] = GC_STRDUP(v[i]);
    return c;
}

/* The caller's text and options may not outlive the model: copies. */
static void keep_source(cat_model *m, const char *name, const char *text, size_t len, const char *dir,
                        const cat_load_options *opts, bool prelude)
{
    char *t = GC_MALLOC_ATOMIC(len + 1);
    memcpy(t, text, len);
    t[len] = '\0';
    m->source_name = GC_STRDUP(name);
    m->source_text = t;
    m->source_len = len;
    m->source_dir = GC_STRDUP(dir);
    m->source_prelude = prelude;
    if (opts) {
        cat_load_options *copy = GC_MALLOC(sizeof *copy);
        copy->dirs = copy_strings(opts->dirs, opts->ndirs);
        copy->ndirs = opts->ndirs;
        copy->variants = copy_strings(opts->variants, opts->nvariants);
        copy->nvariants = opts->nvariants;
        m->source_opts = copy;
    }
}

/* Parse (telling `log` what it reads, unless NULL), lower, compile. */
static cat_model *load_text(const char *name, const char *text, size_t len, const char *dir,
                            const cat_load_options *opts, bool prelude, cat_source_log *log, FILE *errors)
{
    cat_ast *ast = cat_parse_logged(name, text, len, dir, opts, prelude, log, errors);
    cat_ast *lowered = ast ? cat_lower(ast, errors) : NULL;
    cat_model *m = lowered ? cat_compile(lowered, name, errors) : NULL;
    if (m) {
        keep_source(m, name, text, len, dir, opts, prelude);
    }
    return m;
}

cat_model *cat_load_text(const char *name, const char *text, size_t len, FILE *errors)
{
    return load_text(name, text, len, "", NULL, false, NULL, errors);
}

cat_model *cat_load_string(const char *name, const char *text, FILE *errors)
{
    return cat_load_text(name, text, strlen(text), errors);
}

cat_model *cat_load_opts(const char *path, const cat_load_options *opts, FILE *errors)
{
    size_t len;
    const char *why;
    char *text = textfile_read(path, CAT_MAX_FILE_BYTES, &len, &why);
    if (!text) {
        diag_error(errors, path, 1, 1, "%s", why);
        return NULL;
    }
    /* from the cache when it holds this very model (cat/cache.h) */
    cat_model *m = cat_cache_load(path, text, len, opts, true);
    if (m) {
        keep_source(m, path, text, len, cat_dir_of(path), opts, true);
        return m;
    }
    cat_source_log *log = opts && opts->cache_dir ? cat_source_log_new() : NULL;
    m = load_text(path, text, len, cat_dir_of(path), opts, true, log, errors);
    if (m && log)
        cat_cache_store(path, text, len, opts, true, log, m);
    return m;
}

cat_model *cat_load(const char *path, FILE *errors)
{
    return cat_load_opts(path, NULL, errors);
}

const char *cat_model_title(const cat_model *m) { return m->title; }
enum cat_co_mode cat_model_co_mode(const cat_model *m) { return m->co_mode; }
bool cat_model_thread_coherent(const cat_model *m) { return m->thread_coherent; }
enum cat_thin_air cat_model_thin_air(const cat_model *m) { return m->thin_air; }
bool cat_model_flags_undefined(const cat_model *m) { return m->flags_undefined; }
int cat_model_flag_count(const cat_model *m) { return m->nflags; }

bool cat_model_flag_undefined(const cat_model *m, int flag)
{
    return flag >= 0 && flag < m->nflags && (m->undefined_flags >> flag) & 1u;
}

bool cat_model_flags_make_undefined(const cat_model *m, unsigned flags)
{
    return flags && (m->flags_undefined || (flags & m->undefined_flags));
}

const char *cat_model_flag_name(const cat_model *m, int flag)
{
    return flag >= 0 && flag < m->nflags ? m->flag_names[flag] : NULL;
}
