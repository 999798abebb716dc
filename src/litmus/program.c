/* litmus/program.c: the location and register tables of a litmus_test (see litmus.h). */
#include "litmus/litmus.h"

#include <gc.h>
#include <string.h>

int litmus_loc_index(const litmus_test *t, const char *name)
{
    for (int i = 0; i < t->nlocs; i++)
        if (strcmp(t->locs[i].name, name) == 0)
            return i;
    return -1;
}

int litmus_add_loc(litmus_test *t, const char *name, lit_value init)
{
    lit_location *n = GC_MALLOC(sizeof *n * (size_t)(t->nlocs + 1));
    if (t->nlocs)
        memcpy(n, t->locs, sizeof *n * (size_t)t->nlocs);
    n[t->nlocs].name = name;
    n[t->nlocs].init = init;
    n[t->nlocs].physical = t->nlocs;
    n[t->nlocs].alias_proxy = PROXY_GENERIC;
    t->locs = n;
    return t->nlocs++;
}

int litmus_reg_index(const lit_thread *th, const char *name)
{
    for (int i = 0; i < th->nregs; i++)
        if (strcmp(th->reg_names[i], name) == 0)
            return i;
    return -1;
}

int litmus_add_reg(lit_thread *th, const char *name, lit_value init)
{
    const char **names = GC_MALLOC(sizeof *names * (size_t)(th->nregs + 1));
    lit_value *vals = GC_MALLOC_ATOMIC(sizeof *vals * (size_t)(th->nregs + 1));
    if (th->nregs) {
        memcpy(names, th->reg_names, sizeof *names * (size_t)th->nregs);
        memcpy(vals, th->reg_init, sizeof *vals * (size_t)th->nregs);
    }
    names[th->nregs] = name;
    vals[th->nregs] = init;
    th->reg_names = names;
    th->reg_init = vals;
    return th->nregs++;
}

bool litmus_mixed_addressing(const litmus_test *t)
{
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].physical != l)
            return true;
    for (int th = 0; th < t->nthreads; th++)
        for (int i = 0; i < t->threads[th].ninstrs; i++) {
            const lit_instr *in = &t->threads[th].instrs[i];
            if (in->loc >= 0 && in->proxy != PROXY_GENERIC)
                return true;
        }
    return false;
}

bool litmus_has_unsequenced(const litmus_test *t)
{
    for (int th = 0; th < t->nthreads; th++)
        if (t->threads[th].nunseq)
            return true;
    return false;
}

void litmus_add_observed(litmus_test *t, const lit_term *term)
{
    if (term->kind == TERM_CONST)
        return;
    for (int i = 0; i < t->nobserved; i++) {
        const lit_term *o = &t->observed[i];
        if (o->kind == term->kind &&
            (term->kind == TERM_LOC ? o->loc == term->loc
                                    : o->thread == term->thread && o->reg == term->reg))
            return;
    }
    lit_term *n = GC_MALLOC(sizeof *n * (size_t)(t->nobserved + 1));
    if (t->nobserved)
        memcpy(n, t->observed, sizeof *n * (size_t)t->nobserved);
    n[t->nobserved++] = *term;
    t->observed = n;
}

void litmus_observe_cond(litmus_test *t, const lit_cond *c)
{
    switch (c->kind) {
    case COND_AND:
    case COND_OR:
        litmus_observe_cond(t, c->left);
        litmus_observe_cond(t, c->right);
        break;
    case COND_NOT: litmus_observe_cond(t, c->left); break;
    case COND_EQ:
    case COND_NE:
        litmus_add_observed(t, &c->lhs);
        litmus_add_observed(t, &c->rhs);
        break;
    default: break;
    }
}
