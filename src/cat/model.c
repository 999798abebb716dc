/* cat/model.c: loading a cat model and reading its properties (see cat.h). */
#include "cat/ast.h"

#include <gc.h>
#include <string.h>

#include "base/diag.h"
#include "base/textfile.h"

cat_model *cat_load_text(const char *name, const char *text, size_t len, FILE *errors)
{
    cat_ast *ast = cat_parse(name, text, len, "", errors);
    return ast ? cat_compile(ast, name, errors) : NULL;
}

cat_model *cat_load_string(const char *name, const char *text, FILE *errors)
{
    return cat_load_text(name, text, strlen(text), errors);
}

cat_model *cat_load(const char *path, FILE *errors)
{
    size_t len;
    const char *why;
    char *text = textfile_read(path, CAT_MAX_FILE_BYTES, &len, &why);
    if (!text) {
        diag_error(errors, path, 1, 1, "%s", why);
        return NULL;
    }
    cat_ast *ast = cat_parse(path, text, len, cat_dir_of(path), errors);
    return ast ? cat_compile(ast, path, errors) : NULL;
}

const char *cat_model_title(const cat_model *m) { return m->title; }
enum cat_co_mode cat_model_co_mode(const cat_model *m) { return m->co_mode; }
bool cat_model_thread_coherent(const cat_model *m) { return m->thread_coherent; }
bool cat_model_thin_air(const cat_model *m) { return m->thin_air; }
bool cat_model_flags_undefined(const cat_model *m) { return m->flags_undefined; }
int cat_model_flag_count(const cat_model *m) { return m->nflags; }

const char *cat_model_flag_name(const cat_model *m, int flag)
{
    return flag >= 0 && flag < m->nflags ? m->flag_names[flag] : NULL;
}
