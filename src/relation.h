/*
 * relation.h: sets and binary relations over the events of one candidate
 * execution, as bit matrices.
 *
 * Contract: events are numbered 0..n-1 with n <= REL_MAX_EVENTS.  A set is
 * one 64-bit word; a relation is one word per event (row i holds the
 * successors of event i).  Every operation takes n and touches rows 0..n-1
 * only; rows n.. of results are left unspecified.  Output arguments may
 * alias inputs unless a comment says otherwise.  Nothing here allocates, so
 * the functions are safe in the innermost loop of execution enumeration.
 */
#ifndef SCOPECHECK_RELATION_H
#define SCOPECHECK_RELATION_H

#include <stdbool.h>
#include <stdint.h>

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

void rel_clear(relation *out, int n);
void rel_copy(relation *out, const relation *a, int n);
bool rel_equal(const relation *a, const relation *b, int n);

void rel_union(relation *out, const relation *a, const relation *b, int n);
void rel_inter(relation *out, const relation *a, const relation *b, int n);
void rel_diff(relation *out, const relation *a, const relation *b, int n);
/* out = universe*universe minus a */
void rel_complement(relation *out, const relation *a, evset universe, int n);

/* out = a;b (composition).  out may alias a or b. */
void rel_seq(relation *out, const relation *a, const relation *b, int n);
void rel_inverse(relation *out, const relation *a, int n);
/* transitive closure a+ */
void rel_plus(relation *out, const relation *a, int n);
/* reflexive-transitive closure a*, reflexive on universe */
void rel_star(relation *out, const relation *a, evset universe, int n);
/* reflexive closure a?, reflexive on universe */
void rel_opt(relation *out, const relation *a, evset universe, int n);

/* [s]: identity on s */
void rel_identity(relation *out, evset s, int n);
/* s*t: cartesian product */
void rel_cartesian(relation *out, evset s, evset t, int n);
/* [dom];a;[ran] */
void rel_restrict(relation *out, const relation *a, evset dom, evset ran, int n);

evset rel_domain(const relation *a, int n);
evset rel_range(const relation *a, int n);

bool rel_is_empty(const relation *a, int n);
bool rel_is_irreflexive(const relation *a, int n);
bool rel_is_acyclic(const relation *a, int n);

#endif
