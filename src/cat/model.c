/* cat/model.c: loading a cat model and reading its properties (see cat.h). */
#include "cat/ast.h"

#include <gc.h>
#include <string.h>

cat_model *cat_load_string(const char *name, const char *text, FILE *errors)
{
    cat_ast *ast = cat_parse(name, text, strlen(text), "", errors);
    return ast ? cat_compile(ast, name, errors) : NULL;
}

cat_model *cat_load(const char *path, FILE *errors)
{
    size_t len;
    char *text = cat_read_file(path, &len);
    if (!text) {
        fprintf(errors, "%s: error: cannot read model file\n", path);
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
