/*
 * enumerate/condition.c: the final condition of a test (see
 * enumerate/enumerate.h, condition_holds): its truth on a final state, and
 * its constants (the thin-air seeds of models that allow thin air).
 */
#include "enumerate/internal.h"
#include "litmus/cond.h"

/* Collects the distinct constants of a condition into out[n..max), left
 * to right; with out NULL, counts the constants (with repeats: an upper
 * bound).  A chain of /\ or \/ is walked by a loop (litmus/cond.h). */
int condition_constants(const lit_cond *c, lit_value *out, int n, int max)
{
    if (!c)
        return n;
    if (c->kind == COND_AND || c->kind == COND_OR) {
        const lit_cond *const *spine;
        int k = lit_cond_spine(c, &spine);
        n = condition_constants(spine[k - 1]->left, out, n, max);
        while (k-- > 0)
            n = condition_constants(spine[k]->right, out, n, max);
        return n;
    }
    if (c->kind == COND_EQ || c->kind == COND_NE) {
        const lit_term *terms[2] = {&c->lhs, &c->rhs};
        for (int k = 0; k < 2; k++) {
            if (terms[k]->kind != TERM_CONST)
                continue;
            if (!out) {
                n++;
                continue;
            }
            bool seen = false;
            for (int i = 0; i < n; i++)
                seen |= out[i] == terms[k]->value;
            if (!seen && n < max)
                out[n++] = terms[k]->value;
        }
        return n;
    }
    n = condition_constants(c->left, out, n, max);
    return condition_constants(c->right, out, n, max);
}

static lit_value term_value(const litmus_test *t, const lit_term *term, const lit_value *state)
{
    if (term->kind == TERM_CONST)
        return term->value;
    for (int i = 0; i < t->nobserved + t->nhidden; i++) {
        const lit_term *o = i < t->nobserved ? &t->observed[i] : &t->hidden[i - t->nobserved];
        if (o->kind != term->kind)
            continue;
        if (term->kind == TERM_LOC ? o->loc == term->loc : (o->thread == term->thread && o->reg == term->reg))
            return state[i];
    }
    return 0;
}

/* A chain of /\ or \/ nests to the left as deep as it is long: its right
 * operands are tested in a loop down the chain (right to left; the
 * operands have no side effects), and recursion goes only into them. */
bool condition_holds(const litmus_test *t, const lit_cond *c, const lit_value *state)
{
    for (; c && (c->kind == COND_AND || c->kind == COND_OR); c = c->left) {
        bool right = condition_holds(t, c->right, state);
        if (right != (c->kind == COND_AND))
            return right;   /* a false conjunct, a true disjunct */
    }
    if (!c)
        return true;
    switch (c->kind) {
    case COND_TRUE: return true;
    case COND_FALSE: return false;
    case COND_AND:
    case COND_OR: break;    /* taken by the loop */
    case COND_NOT: return !condition_holds(t, c->left, state);
    case COND_EQ: return term_value(t, &c->lhs, state) == term_value(t, &c->rhs, state);
    case COND_NE: return term_value(t, &c->lhs, state) != term_value(t, &c->rhs, state);
    }
    return false;
}
