/* cat/explain.c: see cat/explain.h. */
#include "cat/explain.h"

#include <gc.h>
#include <string.h>

#include "cat/ast.h"

struct cat_explainer {
    const cat_model *m;      /* compiled with its shows, unfused */
    cat_workspace *ws;
    cat_explained *items;
};

cat_explainer *cat_explainer_new(const cat_model *checking, FILE *errors)
{
    if (!checking->source_text)
        return NULL;
    cat_ast *surface = cat_parse(checking->source_name, checking->source_text, checking->source_len,
                                 checking->source_dir, checking->source_opts, checking->source_prelude, errors);
    cat_ast *lowered = surface ? cat_lower_shows(surface, errors) : NULL;
    cat_model *m = lowered ? cat_compile_explain(lowered, checking->source_name, errors) : NULL;
    if (!m)
        return NULL;
    cat_explainer *e = GC_MALLOC(sizeof *e);
    e->m = m;
    e->ws = cat_workspace_new(m);
    e->items = GC_MALLOC(sizeof *e->items * (size_t)(m->nchecks ? m->nchecks : 1));
    return e;
}

static enum cat_explained_kind failed_kind(const cat_check_info *ci)
{
    if (ci->negate)
        return CAT_FAILED_NONEMPTY;
    return ci->kind == CK_ACYCLIC ? CAT_FAILED_ACYCLIC
         : ci->kind == CK_IRREFLEXIVE ? CAT_FAILED_IRREFLEXIVE : CAT_FAILED_EMPTY;
}

static cat_explained item(const cat_check_info *ci, const cat_explain_rec *r, int k, enum cat_explained_kind kind)
{
    return (cat_explained){kind, ci->name, ci->is_set ? NULL : r->rel[k], ci->is_set ? r->set[k] : NULL};
}

int cat_explain(cat_explainer *e, const exec *x, const cat_explained **out, const char **failed)
{
    const cat_model *m = e->m;
    int nc = m->nchecks ? m->nchecks : 1, n = x->n;
    cat_explain_rec r = {GC_MALLOC(sizeof *r.rel * (size_t)nc), GC_MALLOC(sizeof *r.set * (size_t)nc),
                         GC_MALLOC_ATOMIC(sizeof *r.reached * (size_t)nc), GC_MALLOC_ATOMIC(sizeof *r.held * (size_t)nc),
                         -1, NULL};
    size_t set_bytes = sizeof(evword) * (size_t)(rel_words(n) ? rel_words(n) : 1);
    for (int k = 0; k < m->nchecks; k++) {
        r.rel[k] = GC_MALLOC_ATOMIC(rel_bytes(n));
        rel_clear(r.rel[k], n);
        r.set[k] = GC_MALLOC_ATOMIC(set_bytes);
        memset(r.set[k], 0, set_bytes);
        r.reached[k] = r.held[k] = false;
    }
    cat_eval_explain(m, e->ws, x, &r);
    int count = 0;
    for (int k = 0; k < m->nchecks; k++)
        if (m->checks[k].kind == CK_SHOW && r.reached[k])
            e->items[count++] = item(&m->checks[k], &r, k, CAT_SHOWN);
    /* checks are numbered in the model's order, which herd follows;
     * evaluation runs them by stage (what they depend on) */
    for (int k = 0; k < m->nchecks; k++) {
        const cat_check_info *ci = &m->checks[k];
        if (ci->kind != CK_SHOW && ci->flag < 0 && r.reached[k] && !r.held[k]) {
            e->items[count++] = item(ci, &r, k, failed_kind(ci));
            break;
        }
    }
    if (failed)
        *failed = r.failed_other;
    *out = e->items;
    return count;
}
