/* tests/fuzz/mutate.c: see mutate.h. */
#include "mutate.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libFuzzer's own mutation (the replay driver has a stand-in). */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

typedef struct rng { uint64_t s; } rng;

static uint32_t next(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)(r->s >> 11);
}

static size_t below(rng *r, size_t n) { return n ? next(r) % n : 0; }

static const char *pick(rng *r, const char *const *list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    return n ? list[below(r, n)] : "";
}

/* 1..max, small values far more often than large ones. */
static size_t repeat(rng *r, int max)
{
    int bits = 0;
    while ((1 << (bits + 1)) <= max)
        bits++;
    size_t k = 1 + below(r, (size_t)1 << below(r, (size_t)bits + 1));
    return k > (size_t)max ? (size_t)max : k;
}

/* An output buffer of at most cap bytes; `full` once something did not fit. */
typedef struct out { uint8_t *b; size_t n, cap; bool full; } out;

static void put(out *o, const void *p, size_t n)
{
    if (o->n + n > o->cap) {
        o->full = true;
        return;
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

static bool is_word_char(uint8_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A position just after a word (or at a blank), so that inserted text
 * does not split a token. */
static size_t token_end(const uint8_t *d, size_t size, size_t i)
{
    while (i < size && is_word_char(d[i]))
        i++;
    return i;
}

static size_t insert_repeated(const uint8_t *d, size_t size, out *o, size_t at, const char *piece,
                              size_t k)
{
    put(o, d, at);
    size_t room = o->cap > size ? o->cap - size : 0, len = strlen(piece);
    if (len && k * len > room)
        k = room / len;
    for (size_t i = 0; i < k; i++)
        put(o, piece, len);
    put(o, d + at, size - at);
    return o->n;
}

static void chain(const uint8_t *d, size_t size, out *o, rng *r, const fuzz_grammar *g)
{
    char piece[128];
    snprintf(piece, sizeof piece, " %s %s", pick(r, g->chain_ops), pick(r, g->terms));
    insert_repeated(d, size, o, token_end(d, size, below(r, size + 1)), piece, repeat(r, g->max_repeat));
}

static void prefix(const uint8_t *d, size_t size, out *o, rng *r, const fuzz_grammar *g)
{
    size_t at = below(r, size + 1);
    while (at > 0 && at < size && is_word_char(d[at - 1]))
        at--;       /* before a word */
    insert_repeated(d, size, o, at, pick(r, g->prefixes), repeat(r, g->max_repeat));
}

static void nest(const uint8_t *d, size_t size, out *o, rng *r, const fuzz_grammar *g)
{
    size_t i = below(r, size + 1);
    while (i > 0 && i < size && is_word_char(d[i - 1]))
        i--;
    size_t j = token_end(d, size, i + below(r, 64));
    if (j > size)
        j = size;
    size_t k = repeat(r, g->max_repeat), lo = strlen(g->open), lc = strlen(g->close);
    size_t room = o->cap > size ? o->cap - size : 0;
    if (k * (lo + lc) > room)
        k = room / (lo + lc);
    put(o, d, i);
    for (size_t n = 0; n < k; n++)
        put(o, g->open, lo);
    put(o, d + i, j - i);
    for (size_t n = 0; n < k; n++)
        put(o, g->close, lc);
    put(o, d + j, size - j);
}

/* The line around position p: [*from, *to) including its newline. */
static void line_at(const uint8_t *d, size_t size, size_t p, size_t *from, size_t *to)
{
    size_t a = p, b = p;
    while (a > 0 && d[a - 1] != '\n')
        a--;
    while (b < size && d[b] != '\n')
        b++;
    *from = a;
    *to = b < size ? b + 1 : b;
}

static bool is_keyword(const fuzz_grammar *g, const uint8_t *s, size_t n)
{
    for (size_t i = 0; g->keywords && g->keywords[i]; i++)
        if (strlen(g->keywords[i]) == n && memcmp(g->keywords[i], s, n) == 0)
            return true;
    return false;
}

/* The line, with names given the suffix `copy`: the short ones (x, r0, P1:
 * letters then digits, at most 3 characters), or with `all` every one that
 * is not a keyword. */
static void put_renamed(out *o, const uint8_t *d, size_t from, size_t to, size_t copy, bool all,
                        const fuzz_grammar *g)
{
    char suffix[24];
    snprintf(suffix, sizeof suffix, "%zu", copy);
    size_t i = from;
    while (i < to) {
        if (!is_word_char(d[i])) {
            put(o, d + i, 1);
            i++;
            continue;
        }
        size_t j = i;
        while (j < to && is_word_char(d[j]))
            j++;
        put(o, d + i, j - i);
        bool letter = (d[i] >= 'a' && d[i] <= 'z') || (d[i] >= 'A' && d[i] <= 'Z');
        if (letter && (all ? !is_keyword(g, d + i, j - i) : j - i <= 3))
            puts_(o, suffix);
        i = j;
    }
}

static void lines(const uint8_t *d, size_t size, out *o, rng *r, const fuzz_grammar *g)
{
    size_t from, to;
    line_at(d, size, below(r, size + 1), &from, &to);
    size_t k = repeat(r, g->max_repeat > 256 ? 256 : g->max_repeat);
    bool all = below(r, 2);
    put(o, d, to);
    if (to > from && d[to - 1] != '\n')
        puts_(o, "\n");
    for (size_t c = 1; c <= k && !o->full; c++)
        put_renamed(o, d, from, to, c, all, g);
    put(o, d + to, size - to);
}

/* Repeats column `col` of every line that has "|" separators; thread names
 * P<n> in the copies become P<n*100+copy> so that they stay distinct. */
static void column(const uint8_t *d, size_t size, out *o, rng *r, const fuzz_grammar *g)
{
    size_t col = below(r, 4), k = repeat(r, g->max_repeat > 64 ? 64 : g->max_repeat);
    size_t i = 0;
    while (i < size) {
        size_t from = i, to;
        line_at(d, size, i, &from, &to);
        size_t bars = 0, start = from, end = to;
        for (size_t p = from; p < to; p++)
            bars += d[p] == '|';
        if (bars == 0 || col > bars) {
            put(o, d + from, to - from);
            i = to;
            continue;
        }
        /* field col: from the col-th bar (or the line's start) to the next
         * bar (or the line's end, before its newline) */
        size_t seen = 0;
        if (to > from && d[to - 1] == '\n')
            end = to - 1;
        for (size_t p = from; p < to; p++) {
            if (d[p] != '|')
                continue;
            seen++;
            if (seen == col)
                start = p + 1;
            if (seen == col + 1) {
                end = p;
                break;
            }
        }
        put(o, d + from, end - from);
        for (size_t c = 1; c <= k && !o->full; c++) {
            puts_(o, "|");
            for (size_t p = start; p < end; p++) {
                if (d[p] == 'P' && p + 1 < end && d[p + 1] >= '0' && d[p + 1] <= '9') {
                    char name[32];
                    size_t q = p + 1;
                    unsigned long n = 0;
                    while (q < end && d[q] >= '0' && d[q] <= '9')
                        n = n * 10 + (unsigned long)(d[q++] - '0');
                    snprintf(name, sizeof name, "P%lu", (n % 1000) * 100 + c);
                    puts_(o, name);
                    p = q - 1;
                } else {
                    put(o, d + p, 1);
                }
            }
        }
        put(o, d + end, to - end);
        i = to;
    }
}

static void number(const uint8_t *d, size_t size, out *o, rng *r)
{
    static const char *const values[] = {
        "0", "1", "-1", "2", "63", "64", "65", "127", "255", "256", "1023", "1024", "65535", "65536",
        "2147483647", "2147483648", "-2147483648", "4294967296", "999999999", "1000000000",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616",
        NULL,
    };
    size_t at = below(r, size + 1);
    while (at < size && !(d[at] >= '0' && d[at] <= '9'))
        at++;
    size_t end = at;
    while (end < size && d[end] >= '0' && d[end] <= '9')
        end++;
    put(o, d, at);
    puts_(o, pick(r, values));
    put(o, d + end, size - end);
}

static void word(const uint8_t *d, size_t size, out *o, rng *r, const fuzz_grammar *g)
{
    size_t at = token_end(d, size, below(r, size + 1));
    put(o, d, at);
    puts_(o, " ");
    puts_(o, pick(r, g->words));
    puts_(o, " ");
    put(o, d + at, size - at);
}

size_t fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed, const fuzz_grammar *g)
{
    rng r = {((uint64_t)seed << 1) | 1};
    for (int i = 0; i < 4; i++)
        next(&r);
    uint8_t *buf = malloc(max_size ? max_size : 1);
    if (!buf)
        return size;
    out o = {buf, 0, max_size, false};
    switch (below(&r, 7)) {
    case 0: chain(data, size, &o, &r, g); break;
    case 1: nest(data, size, &o, &r, g); break;
    case 2: prefix(data, size, &o, &r, g); break;
    case 3: lines(data, size, &o, &r, g); break;
    case 4: column(data, size, &o, &r, g); break;
    case 5: number(data, size, &o, &r); break;
    default: word(data, size, &o, &r, g); break;
    }
    size_t n = size;
    if (!o.full && o.n > 0) {
        memcpy(data, buf, o.n);
        n = o.n;
    }
    free(buf);
    return n;
}

size_t fuzz_custom_mutator(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                           const fuzz_grammar *g)
{
    if (seed % 2 == 0 || size == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    return fuzz_mutate(data, size, max_size, seed / 2, g);
}
