/* cat/relation.c: bit-matrix relation algebra (see relation.h): the
 * operations that look inside rows, in a one-word version (up to 64
 * events) and a wide one. */
#include "cat/relation.h"

/* ---- row by row, wide ---- */

void rel_complement_wide(relation *out, const relation *a, const evword *universe, int n)
{
    int words = rel_words(n);
    for (int i = 0; i < n; i++) {
        evword *o = rel_row(out, i, n);
        const evword *x = rel_crow(a, i, n);
        bool in = set_has(universe, i);
        for (int w = 0; w < words; w++)
            o[w] = in ? universe[w] & ~x[w] : 0;
    }
}

void rel_opt_wide(relation *out, const relation *a, const evword *universe, int n)
{
    for (int i = 0; i < n; i++) {
        evword *o = rel_row(out, i, n);
        set_copy(o, rel_crow(a, i, n), n);
        if (set_has(universe, i))
            set_add(o, i);
    }
}

void rel_identity_wide(relation *out, const evword *s, int n)
{
    rel_clear(out, n);
    for (int i = set_next(s, 0, n); i >= 0; i = set_next(s, i + 1, n))
        rel_add(out, i, i, n);
}

void rel_cartesian_wide(relation *out, const evword *s, const evword *t, int n)
{
    for (int i = 0; i < n; i++) {
        evword *o = rel_row(out, i, n);
        if (set_has(s, i))
            set_copy(o, t, n);
        else
            set_clear(o, n);
    }
}

void rel_restrict_wide(relation *out, const relation *a, const evword *dom, const evword *ran, int n)
{
    for (int i = 0; i < n; i++) {
        evword *o = rel_row(out, i, n);
        if (set_has(dom, i))
            set_inter(o, rel_crow(a, i, n), ran, n);
        else
            set_clear(o, n);
    }
}

void rel_domain_wide(evword *out, const relation *a, int n)
{
    set_clear(out, n);
    for (int i = 0; i < n; i++)
        if (!set_is_empty(rel_crow(a, i, n), n))
            set_add(out, i);
}

void rel_range_wide(evword *out, const relation *a, int n)
{
    set_clear(out, n);
    for (int i = 0; i < n; i++)
        set_union(out, out, rel_crow(a, i, n), n);
}

bool rel_is_irreflexive_wide(const relation *a, int n)
{
    for (int i = 0; i < n; i++)
        if (set_has(rel_crow(a, i, n), i))
            return false;
    return true;
}

/* ---- composition, inverse, closures, acyclicity ---- */

void rel_seq(relation *out, const relation *a, const relation *b, int n)
{
    /* Row i of the result needs row i of a and any row of b: writing in
     * place is safe when out is a. */
    if (n <= 64) {
        evword *o = rel_w(out);
        const evword *x = rel_cw(a), *y = rel_cw(b);
        for (int i = 0; i < n; i++) {
            evword acc = 0;
            for (evword mid = x[i]; mid; mid &= mid - 1)
                acc |= y[__builtin_ctzll(mid)];
            o[i] = acc;
        }
        return;
    }
    evword acc[REL_MAX_WORDS];
    for (int i = 0; i < n; i++) {
        const evword *row = rel_crow(a, i, n);
        set_clear(acc, n);
        for (int mid = set_next(row, 0, n); mid >= 0; mid = set_next(row, mid + 1, n))
            set_union(acc, acc, rel_crow(b, mid, n), n);
        set_copy(rel_row(out, i, n), acc, n);
    }
}

bool rel_seq_is_irreflexive(const relation *a, const relation *b, int n)
{
    if (n <= 64) {
        const evword *x = rel_cw(a), *y = rel_cw(b);
        for (int i = 0; i < n; i++)
            for (evword mid = x[i]; mid; mid &= mid - 1)
                if ((y[__builtin_ctzll(mid)] >> i) & 1u)
                    return false;
        return true;
    }
    for (int i = 0; i < n; i++) {
        const evword *row = rel_crow(a, i, n);
        for (int mid = set_next(row, 0, n); mid >= 0; mid = set_next(row, mid + 1, n))
            if (rel_has(b, mid, i, n))
                return false;
    }
    return true;
}

void rel_inverse(relation *out, const relation *a, int n)
{
    rel_clear(out, n);
    if (n <= 64) {
        evword *o = rel_w(out);
        const evword *x = rel_cw(a);
        for (int i = 0; i < n; i++)
            for (evword s = x[i]; s; s &= s - 1)
                o[__builtin_ctzll(s)] |= evword_bit(i);
        return;
    }
    for (int i = 0; i < n; i++) {
        const evword *row = rel_crow(a, i, n);
        for (int j = set_next(row, 0, n); j >= 0; j = set_next(row, j + 1, n))
            rel_add(out, j, i, n);
    }
}

void rel_plus(relation *out, const relation *a, int n)
{
    /* Warshall's algorithm, one row at a time. */
    rel_copy(out, a, n);
    if (n <= 64) {
        evword *o = rel_w(out);
        for (int k = 0; k < n; k++) {
            evword via = o[k];
            if (!via)
                continue;
            for (int i = 0; i < n; i++)
                if ((o[i] >> k) & 1u)
                    o[i] |= via;
        }
        return;
    }
    for (int k = 0; k < n; k++) {
        const evword *via = rel_row(out, k, n);
        if (set_is_empty(via, n))
            continue;
        for (int i = 0; i < n; i++) {
            evword *row = rel_row(out, i, n);
            if (set_has(row, k))
                set_union(row, row, via, n);
        }
    }
}

void rel_star(relation *out, const relation *a, const evword *universe, int n)
{
    rel_plus(out, a, n);
    for (int i = set_next(universe, 0, n); i >= 0; i = set_next(universe, i + 1, n))
        rel_add(out, i, i, n);
}

static bool acyclic_narrow(const evword *a, int n)
{
    /* Only an event with both a successor and a predecessor can be on a
     * cycle; of those, repeatedly remove events with no successor left
     * among the remaining ones; a cycle is what cannot be removed. */
    evword has_succ = 0, has_pred = 0;
    for (int i = 0; i < n; i++) {
        if (a[i])
            has_succ |= evword_bit(i);
        has_pred |= a[i];
    }
    evword left = has_succ & has_pred;
    for (;;) {
        evword sinks = 0;
        for (evword s = left; s; s &= s - 1) {
            int i = __builtin_ctzll(s);
            if (!(a[i] & left))
                sinks |= evword_bit(i);
        }
        if (!sinks)
            return left == 0;
        left &= ~sinks;
    }
}

/* Wide: the same, removing sinks one sweep at a time. */
static bool acyclic_wide(const relation *a, int n)
{
    evword has_succ[REL_MAX_WORDS], has_pred[REL_MAX_WORDS], left[REL_MAX_WORDS];
    set_clear(has_succ, n);
    set_clear(has_pred, n);
    for (int i = 0; i < n; i++) {
        const evword *row = rel_crow(a, i, n);
        if (!set_is_empty(row, n))
            set_add(has_succ, i);
        set_union(has_pred, has_pred, row, n);
    }
    set_inter(left, has_succ, has_pred, n);
    for (;;) {
        bool removed = false;
        for (int i = set_next(left, 0, n); i >= 0; i = set_next(left, i + 1, n)) {
            const evword *row = rel_crow(a, i, n);
            bool sink = true;
            for (int w = 0; w < rel_words(n) && sink; w++)
                sink = (row[w] & left[w]) == 0;
            if (sink) {
                /* removing it at once only speeds the sweep up: a sink
                 * stays a sink as others are removed */
                set_remove(left, i);
                removed = true;
            }
        }
        if (!removed)
            return set_is_empty(left, n);
    }
}

bool rel_is_acyclic(const relation *a, int n)
{
    return n <= 64 ? acyclic_narrow(rel_cw(a), n) : acyclic_wide(a, n);
}
