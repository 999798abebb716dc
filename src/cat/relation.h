/*
 * cat/relation.h: sets and binary relations over the events of one candidate
 * execution, as bit matrices.
 *
 * Contract: events are numbered 0..n-1 with n <= REL_MAX_EVENTS.  A set is
 * one 64-bit word; a relation is one word per event (row i holds the
 * successors of event i).  Every operation takes n and touches rows 0..n-1
 * only; rows n.. of results are left unspecified.  Output arguments may
 * alias inputs unless a comment says otherwise.  Nothing here allocates, so
 * the functions are safe in the innermost loop of execution enumeration.
 */
#ifndef SCOPECHECK_CAT_RELATION_H
#define SCOPECHECK_CAT_RELATION_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define REL_MAX_EVENTS 64

typedef uint64_t evset;

typedef struct relation {
    evset row[REL_MAX_EVENTS];
} relation;

static inline evset evset_of(int e) { return (evset)1 << e; }
static inline bool evset_has(evset s, int e) { return (s >> e) & 1u; }
static inline evset evset_universe(int n)
{
    return n >= 64 ? ~(evset)0 : (((evset)1 << n) - 1);
}

static inline void rel_add(relation *r, int from, int to) { r->row[from] |= evset_of(to); }
static inline bool rel_has(const relation *r, int from, int to) { return evset_has(r->row[from], to); }

/* The operations that touch each row once are inline: the model
 * interpreter runs them millions of times on a few dozen rows, where a
 * call costs as much as the loop.  The commonest go two rows at a time
 * (one SSE2 operation with GCC and Clang), the odd last row alone. */

typedef uint64_t row_pair __attribute__((vector_size(16)));

static inline row_pair rows_at(const relation *r, int i)
{
    row_pair p;
    memcpy(&p, &r->row[i], sizeof p);
    return p;
}

static inline void rows_put(relation *r, int i, row_pair p)
{
    memcpy(&r->row[i], &p, sizeof p);
}

static inline void rel_clear(relation *out, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = 0;
}

static inline void rel_copy(relation *out, const relation *a, int n)
{
    if (out != a)
        for (int i = 0; i < n; i++)
            out->row[i] = a->row[i];
}

static inline bool rel_equal(const relation *a, const relation *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a->row[i] != b->row[i])
            return false;
    return true;
}

static inline void rel_union(relation *out, const relation *a, const relation *b, int n)
{
    int i = 0;
    for (; i + 1 < n; i += 2)
        rows_put(out, i, rows_at(a, i) | rows_at(b, i));
    if (i < n)
        out->row[i] = a->row[i] | b->row[i];
}

static inline void rel_inter(relation *out, const relation *a, const relation *b, int n)
{
    int i = 0;
    for (; i + 1 < n; i += 2)
        rows_put(out, i, rows_at(a, i) & rows_at(b, i));
    if (i < n)
        out->row[i] = a->row[i] & b->row[i];
}

static inline void rel_diff(relation *out, const relation *a, const relation *b, int n)
{
    int i = 0;
    for (; i + 1 < n; i += 2)
        rows_put(out, i, rows_at(a, i) & ~rows_at(b, i));
    if (i < n)
        out->row[i] = a->row[i] & ~b->row[i];
}

/* out = universe*universe minus a */
static inline void rel_complement(relation *out, const relation *a, evset universe, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = evset_has(universe, i) ? (universe & ~a->row[i]) : 0;
}

/* out = a;b (composition).  out may alias a or b. */
void rel_seq(relation *out, const relation *a, const relation *b, int n);
void rel_inverse(relation *out, const relation *a, int n);
/* transitive closure a+ */
void rel_plus(relation *out, const relation *a, int n);
/* reflexive-transitive closure a*, reflexive on universe */
void rel_star(relation *out, const relation *a, evset universe, int n);

/* reflexive closure a?, reflexive on universe */
static inline void rel_opt(relation *out, const relation *a, evset universe, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = a->row[i] | (universe & evset_of(i));
}

/* [s]: identity on s */
static inline void rel_identity(relation *out, evset s, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = s & evset_of(i);
}

/* s*t: cartesian product */
static inline void rel_cartesian(relation *out, evset s, evset t, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = evset_has(s, i) ? t : 0;
}

/* [dom];a;[ran] */
static inline void rel_restrict(relation *out, const relation *a, evset dom, evset ran, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = evset_has(dom, i) ? (a->row[i] & ran) : 0;
}

static inline evset rel_domain(const relation *a, int n)
{
    evset d = 0;
    for (int i = 0; i < n; i++)
        if (a->row[i])
            d |= evset_of(i);
    return d;
}

static inline evset rel_range(const relation *a, int n)
{
    evset r = 0;
    for (int i = 0; i < n; i++)
        r |= a->row[i];
    return r;
}

static inline bool rel_is_empty(const relation *a, int n)
{
    evset any = 0;
    for (int i = 0; i < n; i++)
        any |= a->row[i];
    return any == 0;
}

static inline bool rel_is_irreflexive(const relation *a, int n)
{
    for (int i = 0; i < n; i++)
        if (evset_has(a->row[i], i))
            return false;
    return true;
}

bool rel_is_acyclic(const relation *a, int n);

#endif
