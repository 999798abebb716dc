/*
 * cat/relation.h: sets and binary relations over the events of one candidate
 * execution, as bit matrices as wide as the execution needs.
 *
 * Contract: events are numbered 0..n-1 with n <= REL_MAX_EVENTS.  A set of
 * n events is rel_words(n) 64-bit words (event e is bit e % 64 of word
 * e / 64); a relation is n rows, each a set (row i holds the successors of
 * event i), stored one after the other, so the storage of a relation of n
 * events is n * rel_words(n) words.  The width is not stored: it follows
 * from n, which every operation takes, so that the same storage serves
 * executions of every size up to the capacity it was allocated for
 * (rel_bytes).  Every operation touches rows 0..n-1 only; rows n.. of
 * results are left unspecified.  Output arguments may alias inputs unless a
 * comment says otherwise.  Nothing here allocates, so the functions are safe
 * in the innermost loop of execution enumeration.
 *
 * Up to 64 events (one word per row, the size of nearly every litmus test)
 * each operation that looks inside rows runs the one-word code; wider
 * relations take loops over words.  Operations that do not look inside
 * rows (union, intersection, difference, copy, equality) are one loop over
 * all the words whatever the width.
 */
#ifndef SCOPECHECK_CAT_RELATION_H
#define SCOPECHECK_CAT_RELATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The most events one execution may have: 64 words per row, 2 MiB per
 * relation.  Larger executions are skipped by the enumerator, and the
 * verdict then says it is unknown. */
#define REL_MAX_EVENTS 4096
#define REL_MAX_WORDS (REL_MAX_EVENTS / 64)

typedef uint64_t evword;

/* A relation's storage: an array of evword, seen only through these
 * functions (the type is never complete, so a relation cannot be declared
 * on the stack by mistake: its size depends on the execution). */
typedef struct relation relation;

static inline int rel_words(int n) { return (n + 63) >> 6; }

/* Bytes of storage for a relation of up to `cap` events. */
static inline size_t rel_bytes(int cap)
{
    size_t words = (size_t)cap * (size_t)rel_words(cap);
    return sizeof(evword) * (words ? words : 1);
}

static inline evword *rel_w(relation *r) { return (evword *)r; }
static inline const evword *rel_cw(const relation *r) { return (const evword *)r; }
static inline relation *rel_of_words(evword *w) { return (relation *)w; }

static inline evword *rel_row(relation *r, int i, int n) { return rel_w(r) + (size_t)i * (size_t)rel_words(n); }
static inline const evword *rel_crow(const relation *r, int i, int n)
{
    return rel_cw(r) + (size_t)i * (size_t)rel_words(n);
}

/* ---- sets ---- */

static inline evword evword_bit(int e) { return (evword)1 << (e & 63); }
static inline void set_add(evword *s, int e) { s[e >> 6] |= evword_bit(e); }
static inline void set_remove(evword *s, int e) { s[e >> 6] &= ~evword_bit(e); }
static inline bool set_has(const evword *s, int e) { return (s[e >> 6] >> (e & 63)) & 1u; }

static inline void set_clear(evword *s, int n)
{
    for (int w = 0; w < rel_words(n); w++)
        s[w] = 0;
}

static inline void set_copy(evword *out, const evword *a, int n)
{
    if (out != a)
        for (int w = 0; w < rel_words(n); w++)
            out[w] = a[w];
}

/* events 0..k-1 of a set of n events */
static inline void set_first(evword *s, int k, int n)
{
    for (int w = 0; w < rel_words(n); w++) {
        int lo = w * 64;
        s[w] = k >= lo + 64 ? ~(evword)0 : k <= lo ? 0 : ((evword)1 << (k - lo)) - 1;
    }
}

static inline void set_universe(evword *s, int n) { set_first(s, n, n); }

static inline void set_union(evword *out, const evword *a, const evword *b, int n)
{
    for (int w = 0; w < rel_words(n); w++)
        out[w] = a[w] | b[w];
}

static inline void set_inter(evword *out, const evword *a, const evword *b, int n)
{
    for (int w = 0; w < rel_words(n); w++)
        out[w] = a[w] & b[w];
}

static inline void set_diff(evword *out, const evword *a, const evword *b, int n)
{
    for (int w = 0; w < rel_words(n); w++)
        out[w] = a[w] & ~b[w];
}

static inline bool set_is_empty(const evword *s, int n)
{
    evword any = 0;
    for (int w = 0; w < rel_words(n); w++)
        any |= s[w];
    return any == 0;
}

static inline bool set_equal(const evword *a, const evword *b, int n)
{
    for (int w = 0; w < rel_words(n); w++)
        if (a[w] != b[w])
            return false;
    return true;
}

/* a within b */
static inline bool set_within(const evword *a, const evword *b, int n)
{
    for (int w = 0; w < rel_words(n); w++)
        if (a[w] & ~b[w])
            return false;
    return true;
}

/* Iterates over the members of a set: `for (int e = set_next(s, 0, n); e >= 0;
 * e = set_next(s, e + 1, n))`. */
static inline int set_next(const evword *s, int from, int n)
{
    int words = rel_words(n);
    int w = from >> 6;
    if (w >= words)
        return -1;
    evword bits = s[w] & (~(evword)0 << (from & 63));
    while (!bits) {
        if (++w >= words)
            return -1;
        bits = s[w];
    }
    return w * 64 + __builtin_ctzll(bits);
}

/* ---- relations: pairs ---- */

static inline void rel_add(relation *r, int from, int to, int n) { set_add(rel_row(r, from, n), to); }
static inline bool rel_has(const relation *r, int from, int to, int n) { return set_has(rel_crow(r, from, n), to); }

/* ---- relations: word by word, whatever the width ----
 * The commonest go two words at a time (one SSE2 operation with GCC and
 * Clang), the odd last word alone: the model interpreter runs them
 * millions of times on a few dozen words, where a call costs as much as
 * the loop. */

typedef uint64_t word_pair __attribute__((vector_size(16)));

static inline word_pair words_at(const evword *r, size_t i)
{
    word_pair p;
    memcpy(&p, &r[i], sizeof p);
    return p;
}

static inline void words_put(evword *r, size_t i, word_pair p) { memcpy(&r[i], &p, sizeof p); }

static inline size_t rel_total_words(int n) { return (size_t)n * (size_t)rel_words(n); }

/* A loop up to 64 words (a call to memset costs more there), memset
 * beyond. */
static inline void rel_clear(relation *out, int n)
{
    evword *o = rel_w(out);
    if (n > 64) {
        memset(o, 0, sizeof(evword) * rel_total_words(n));
        return;
    }
    /* two words a step, as the operations below */
    word_pair zero = {0, 0};
    int i = 0;
    for (; i + 1 < n; i += 2)
        words_put(o, (size_t)i, zero);
    if (i < n)
        o[i] = 0;
}

static inline void rel_copy(relation *out, const relation *a, int n)
{
    if (out == a)
        return;
    evword *o = rel_w(out);
    const evword *x = rel_cw(a);
    if (n > 64) {
        memcpy(o, x, sizeof(evword) * rel_total_words(n));
        return;
    }
    int i = 0;
    for (; i + 1 < n; i += 2)
        words_put(o, (size_t)i, words_at(x, (size_t)i));
    if (i < n)
        o[i] = x[i];
}

static inline bool rel_equal(const relation *a, const relation *b, int n)
{
    const evword *x = rel_cw(a), *y = rel_cw(b);
    size_t total = rel_total_words(n);
    for (size_t i = 0; i < total; i++)
        if (x[i] != y[i])
            return false;
    return true;
}

static inline void rel_union(relation *out, const relation *a, const relation *b, int n)
{
    evword *o = rel_w(out);
    const evword *x = rel_cw(a), *y = rel_cw(b);
    size_t total = rel_total_words(n), i = 0;
    for (; i + 1 < total; i += 2)
        words_put(o, i, words_at(x, i) | words_at(y, i));
    if (i < total)
        o[i] = x[i] | y[i];
}

static inline void rel_inter(relation *out, const relation *a, const relation *b, int n)
{
    evword *o = rel_w(out);
    const evword *x = rel_cw(a), *y = rel_cw(b);
    size_t total = rel_total_words(n), i = 0;
    for (; i + 1 < total; i += 2)
        words_put(o, i, words_at(x, i) & words_at(y, i));
    if (i < total)
        o[i] = x[i] & y[i];
}

static inline void rel_diff(relation *out, const relation *a, const relation *b, int n)
{
    evword *o = rel_w(out);
    const evword *x = rel_cw(a), *y = rel_cw(b);
    size_t total = rel_total_words(n), i = 0;
    for (; i + 1 < total; i += 2)
        words_put(o, i, words_at(x, i) & ~words_at(y, i));
    if (i < total)
        o[i] = x[i] & ~y[i];
}

static inline bool rel_is_empty(const relation *a, int n)
{
    const evword *x = rel_cw(a);
    size_t total = rel_total_words(n);
    evword any = 0;
    for (size_t i = 0; i < total; i++)
        any |= x[i];
    return any == 0;
}

/* Is a & b empty (flip false), or a \ b (flip true)?  Without building it. */
static inline bool rel_meet_is_empty(const relation *a, const relation *b, bool flip, int n)
{
    const evword *x = rel_cw(a), *y = rel_cw(b);
    evword f = flip ? ~(evword)0 : 0;
    word_pair flips = {f, f}, any = {0, 0};
    size_t total = rel_total_words(n), i = 0;
    for (; i + 1 < total; i += 2)
        any |= words_at(x, i) & (words_at(y, i) ^ flips);
    evword last = i < total ? x[i] & (y[i] ^ f) : 0;
    return (any[0] | any[1] | last) == 0;
}

/* ---- relations: row by row ----
 * One word per row up to 64 events, inline; the wide versions are in
 * relation.c. */

void rel_complement_wide(relation *out, const relation *a, const evword *universe, int n);
void rel_opt_wide(relation *out, const relation *a, const evword *universe, int n);
void rel_identity_wide(relation *out, const evword *s, int n);
void rel_cartesian_wide(relation *out, const evword *s, const evword *t, int n);
void rel_restrict_wide(relation *out, const relation *a, const evword *dom, const evword *ran, int n);
void rel_domain_wide(evword *out, const relation *a, int n);
void rel_range_wide(evword *out, const relation *a, int n);
bool rel_is_irreflexive_wide(const relation *a, int n);

/* out = universe*universe minus a */
static inline void rel_complement(relation *out, const relation *a, const evword *universe, int n)
{
    if (n > 64) {
        rel_complement_wide(out, a, universe, n);
        return;
    }
    evword u = universe[0], *o = rel_w(out);
    const evword *x = rel_cw(a);
    for (int i = 0; i < n; i++)
        o[i] = (u >> i) & 1u ? (u & ~x[i]) : 0;
}

/* reflexive closure a?, reflexive on universe */
static inline void rel_opt(relation *out, const relation *a, const evword *universe, int n)
{
    if (n > 64) {
        rel_opt_wide(out, a, universe, n);
        return;
    }
    evword u = universe[0], *o = rel_w(out);
    const evword *x = rel_cw(a);
    for (int i = 0; i < n; i++)
        o[i] = x[i] | (u & evword_bit(i));
}

/* [s]: identity on s */
static inline void rel_identity(relation *out, const evword *s, int n)
{
    if (n > 64) {
        rel_identity_wide(out, s, n);
        return;
    }
    evword *o = rel_w(out), members = s[0];
    for (int i = 0; i < n; i++)
        o[i] = members & evword_bit(i);
}

/* s*t: cartesian product */
static inline void rel_cartesian(relation *out, const evword *s, const evword *t, int n)
{
    if (n > 64) {
        rel_cartesian_wide(out, s, t, n);
        return;
    }
    evword *o = rel_w(out), from = s[0], to = t[0];
    for (int i = 0; i < n; i++)
        o[i] = (from >> i) & 1u ? to : 0;
}

/* [dom];a;[ran] */
static inline void rel_restrict(relation *out, const relation *a, const evword *dom, const evword *ran, int n)
{
    if (n > 64) {
        rel_restrict_wide(out, a, dom, ran, n);
        return;
    }
    evword *o = rel_w(out), from = dom[0], to = ran[0];
    const evword *x = rel_cw(a);
    for (int i = 0; i < n; i++)
        o[i] = (from >> i) & 1u ? (x[i] & to) : 0;
}

static inline void rel_domain(evword *out, const relation *a, int n)
{
    if (n > 64) {
        rel_domain_wide(out, a, n);
        return;
    }
    const evword *x = rel_cw(a);
    evword d = 0;
    for (int i = 0; i < n; i++)
        if (x[i])
            d |= evword_bit(i);
    out[0] = d;
}

static inline void rel_range(evword *out, const relation *a, int n)
{
    if (n > 64) {
        rel_range_wide(out, a, n);
        return;
    }
    const evword *x = rel_cw(a);
    evword r = 0;
    for (int i = 0; i < n; i++)
        r |= x[i];
    out[0] = r;
}

static inline bool rel_is_irreflexive(const relation *a, int n)
{
    if (n > 64)
        return rel_is_irreflexive_wide(a, n);
    const evword *x = rel_cw(a);
    for (int i = 0; i < n; i++)
        if ((x[i] >> i) & 1u)
            return false;
    return true;
}

/* out = a;b (composition).  out may alias a, not b. */
void rel_seq(relation *out, const relation *a, const relation *b, int n);
/* Is a;b irreflexive?  Without building it. */
bool rel_seq_is_irreflexive(const relation *a, const relation *b, int n);
/* out = a^-1.  out must not alias a. */
void rel_inverse(relation *out, const relation *a, int n);
/* transitive closure a+ */
void rel_plus(relation *out, const relation *a, int n);
/* reflexive-transitive closure a*, reflexive on universe */
void rel_star(relation *out, const relation *a, const evword *universe, int n);
bool rel_is_acyclic(const relation *a, int n);

#endif
