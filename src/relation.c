/* relation.c: bit-matrix relation algebra (see relation.h). */
#include "relation.h"

#include <string.h>

void rel_clear(relation *out, int n)
{
    memset(out->row, 0, sizeof(evset) * (size_t)n);
}

void rel_copy(relation *out, const relation *a, int n)
{
    if (out != a)
        memcpy(out->row, a->row, sizeof(evset) * (size_t)n);
}

bool rel_equal(const relation *a, const relation *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a->row[i] != b->row[i])
            return false;
    return true;
}

void rel_union(relation *out, const relation *a, const relation *b, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = a->row[i] | b->row[i];
}

void rel_inter(relation *out, const relation *a, const relation *b, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = a->row[i] & b->row[i];
}

void rel_diff(relation *out, const relation *a, const relation *b, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = a->row[i] & ~b->row[i];
}

void rel_complement(relation *out, const relation *a, evset universe, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = evset_has(universe, i) ? (universe & ~a->row[i]) : 0;
}

void rel_seq(relation *out, const relation *a, const relation *b, int n)
{
    relation tmp;
    for (int i = 0; i < n; i++) {
        evset acc = 0;
        for (evset mid = a->row[i]; mid; mid &= mid - 1)
            acc |= b->row[__builtin_ctzll(mid)];
        tmp.row[i] = acc;
    }
    rel_copy(out, &tmp, n);
}

void rel_inverse(relation *out, const relation *a, int n)
{
    relation tmp;
    rel_clear(&tmp, n);
    for (int i = 0; i < n; i++)
        for (evset s = a->row[i]; s; s &= s - 1)
            tmp.row[__builtin_ctzll(s)] |= evset_of(i);
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

void rel_opt(relation *out, const relation *a, evset universe, int n)
{
    rel_copy(out, a, n);
    for (int i = 0; i < n; i++)
        if (evset_has(universe, i))
            out->row[i] |= evset_of(i);
}

void rel_identity(relation *out, evset s, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = s & evset_of(i);
}

void rel_cartesian(relation *out, evset s, evset t, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = evset_has(s, i) ? t : 0;
}

void rel_restrict(relation *out, const relation *a, evset dom, evset ran, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = evset_has(dom, i) ? (a->row[i] & ran) : 0;
}

evset rel_domain(const relation *a, int n)
{
    evset d = 0;
    for (int i = 0; i < n; i++)
        if (a->row[i])
            d |= evset_of(i);
    return d;
}

evset rel_range(const relation *a, int n)
{
    evset r = 0;
    for (int i = 0; i < n; i++)
        r |= a->row[i];
    return r;
}

bool rel_is_empty(const relation *a, int n)
{
    for (int i = 0; i < n; i++)
        if (a->row[i])
            return false;
    return true;
}

bool rel_is_irreflexive(const relation *a, int n)
{
    for (int i = 0; i < n; i++)
        if (evset_has(a->row[i], i))
            return false;
    return true;
}

bool rel_is_acyclic(const relation *a, int n)
{
    /* Repeatedly remove events with no successor left among the remaining
     * ones; a cycle is what cannot be removed. */
    evset left = evset_universe(n);
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
