/* cat/relation.c: bit-matrix relation algebra (see relation.h). */
#include "cat/relation.h"


static void seq_rows(relation *out, const relation *a, const relation *b, int n)
{
    for (int i = 0; i < n; i++) {
        evset acc = 0;
        for (evset mid = a->row[i]; mid; mid &= mid - 1)
            acc |= b->row[__builtin_ctzll(mid)];
        out->row[i] = acc;
    }
}

void rel_seq(relation *out, const relation *a, const relation *b, int n)
{
    /* Row i of the result needs row i of a and any row of b: writing in
     * place is safe unless out is b. */
    if (out != b) {
        seq_rows(out, a, b, n);
        return;
    }
    relation tmp;
    seq_rows(&tmp, a, b, n);
    rel_copy(out, &tmp, n);
}

static void inverse_rows(relation *out, const relation *a, int n)
{
    rel_clear(out, n);
    for (int i = 0; i < n; i++)
        for (evset s = a->row[i]; s; s &= s - 1)
            out->row[__builtin_ctzll(s)] |= evset_of(i);
}

void rel_inverse(relation *out, const relation *a, int n)
{
    if (out != a) {
        inverse_rows(out, a, n);
        return;
    }
    relation tmp;
    inverse_rows(&tmp, a, n);
    rel_copy(out, &tmp, n);
}

void rel_plus(relation *out, const relation *a, int n)
{
    /* Warshall's algorithm, one row at a time. */
    rel_copy(out, a, n);
    for (int k = 0; k < n; k++) {
        evset via = out->row[k];
        if (!via)
            continue;
        for (int i = 0; i < n; i++)
            if (evset_has(out->row[i], k))
                out->row[i] |= via;
    }
}

void rel_star(relation *out, const relation *a, evset universe, int n)
{
    rel_plus(out, a, n);
    for (int i = 0; i < n; i++)
        if (evset_has(universe, i))
            out->row[i] |= evset_of(i);
}

bool rel_is_acyclic(const relation *a, int n)
{
    /* Only an event with both a successor and a predecessor can be on a
     * cycle; of those, repeatedly remove events with no successor left
     * among the remaining ones; a cycle is what cannot be removed. */
    evset has_succ = 0, has_pred = 0;
    for (int i = 0; i < n; i++) {
        if (a->row[i])
            has_succ |= evset_of(i);
        has_pred |= a->row[i];
    }
    evset left = has_succ & has_pred;
    for (;;) {
        evset sinks = 0;
        for (evset s = left; s; s &= s - 1) {
            int i = __builtin_ctzll(s);
            if (!(a->row[i] & left))
                sinks |= evset_of(i);
        }
        if (!sinks)
            return left == 0;
        left &= ~sinks;
    }
}
