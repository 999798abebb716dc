/* litmus/hash.c: herd7's test digest (see litmus/hash.h).  MD5 comes from
 * nettle. */
#include "litmus/hash.h"

#include <gc.h>
#include <inttypes.h>
#include <stdarg.h>
#include <nettle/md5.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing GC string. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void text_add(text *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = GC_MALLOC_ATOMIC(cap);
        if (b->len)
            memcpy(grown, b->s, b->len);
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void text_puts(text *b, const char *s) { text_add(b, s, strlen(s)); }

static void text_printf(text *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_printf(text *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        text_add(b, small, (size_t)n);
        return;
    }
    char *big = GC_MALLOC_ATOMIC((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    text_add(b, big, (size_t)n);
}

static const char *text_str(const text *b) { return b->s ? b->s : ""; }

static void text_char(text *b, char c, size_t times)
{
    for (size_t i = 0; i < times; i++)
        text_add(b, &c, 1);
}

static void text_int(text *b, int64_t v)
{
    char digits[24];
    int n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        text_add(b, "-", 1);
    while (n > 0)
        text_add(b, &digits[--n], 1);
}

/* herd's location order: registers (by thread, then name) before globals
 * (by name). */
static int compare_locations(int ta, const char *na, int tb, const char *nb)
{
    bool ra = ta >= 0, rb = tb >= 0;
    if (ra != rb)
        return ra ? -1 : 1;
    if (ra && ta != tb)
        return ta < tb ? -1 : 1;
    return strcmp(na, nb);
}

static int compare_items(const void *a, const void *b)
{
    const herd_init_item *x = a, *y = b;
    return compare_locations(x->thread, x->name, y->thread, y->name);
}

const char *herd_hash_init_text(const herd_init_item *items, int n)
{
    herd_init_item *sorted = GC_MALLOC(sizeof *sorted * (size_t)(n ? n : 1));
    if (n)
        memcpy(sorted, items, sizeof *sorted * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_items);
    text b = {0};
    for (int i = 0; i < n; i++) {
        if (i && compare_items(&sorted[i - 1], &sorted[i]) == 0)
            continue;     /* herd keeps one entry per location */
        if (b.len)
            text_puts(&b, "; ");
        if (sorted[i].type) {
            text_puts(&b, sorted[i].type);
            text_puts(&b, " ");
        }
        if (sorted[i].thread >= 0) {
            text_int(&b, sorted[i].thread);
            text_puts(&b, ":");
        }
        text_puts(&b, sorted[i].name);
        text_puts(&b, "=");
        text_int(&b, sorted[i].value);
    }
    return text_str(&b);
}

/* Misc.string_of_prog: row by row, " %-*s " per column joined by "|". */
const char *herd_hash_code_text(int ncols, const char *const *const *cells, const int *ncells)
{
    size_t *width = GC_MALLOC_ATOMIC(sizeof *width * (size_t)(ncols ? ncols : 1));
    int rows = 0;
    for (int c = 0; c < ncols; c++) {
        width[c] = 0;
        for (int k = 0; k < ncells[c]; k++) {
            size_t n = strlen(cells[c][k]);
            if (n > width[c])
                width[c] = n;
        }
        if (ncells[c] > rows)
            rows = ncells[c];
    }
    text b = {0};
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < ncols; c++) {
            const char *cell = r < ncells[c] ? cells[c][r] : "";
            size_t len = strlen(cell);
            text_puts(&b, c ? "| " : " ");
            text_add(&b, cell, len);
            text_char(&b, ' ', width[c] - len + 1);
        }
        text_puts(&b, ";\n");
    }
    return text_str(&b);
}

typedef struct obs_key {
    int thread;
    const char *name;
} obs_key;

static int compare_obs(const void *a, const void *b)
{
    const obs_key *x = a, *y = b;
    return compare_locations(x->thread, x->name, y->thread, y->name);
}

const char *herd_hash_observed_text(const litmus_test *t)
{
    obs_key *keys = GC_MALLOC(sizeof *keys * (size_t)(t->nobserved ? t->nobserved : 1));
    int n = 0;
    for (int i = 0; i < t->nobserved; i++) {
        const lit_term *o = &t->observed[i];
        if (o->kind == TERM_REG)
            keys[n++] = (obs_key){o->thread, t->threads[o->thread].reg_names[o->reg]};
        else if (o->kind == TERM_LOC)
            keys[n++] = (obs_key){-1, t->locs[o->loc].name};
    }
    qsort(keys, (size_t)n, sizeof *keys, compare_obs);
    text b = {0};
    for (int i = 0; i < n; i++) {
        if (i && compare_obs(&keys[i - 1], &keys[i]) == 0)
            continue;
        if (b.len)
            text_puts(&b, "; ");
        if (keys[i].thread >= 0) {
            text_int(&b, keys[i].thread);
            text_puts(&b, ":");
        }
        text_puts(&b, keys[i].name);
    }
    return text_str(&b);
}

const char *herd_hash_c_type(const char *written)
{
    bool is_const = false, is_volatile = false, is_atomic = false;
    text base = {0};
    const char *p = written;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        const char *s = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n')
            p++;
        size_t n = (size_t)(p - s);
        if (!n)
            break;
        if (n == 5 && !strncmp(s, "const", 5))
            is_const = true;
        else if (n == 8 && !strncmp(s, "volatile", 8))
            is_volatile = true;
        else if (n == 7 && !strncmp(s, "_Atomic", 7))
            is_atomic = true;
        else if (n == 10 && !strncmp(s, "atomic_int", 10)) {
            is_atomic = true;
            text_puts(&base, base.len ? " int" : "int");
        } else {
            if (base.len)
                text_puts(&base, " ");
            text_add(&base, s, n);
        }
    }
    /* herd's CType.dump: a qualifier on a base type comes first, on
     * anything else last ("_Atomic int", "volatile int", "int const"). */
    text b = {0};
    bool plain = true;
    const char *inner = text_str(&base);
    if (is_atomic) {
        text_printf(&b, "_Atomic %s", inner);
        plain = false;
        inner = text_str(&b);
    }
    if (is_volatile) {
        text v = {0};
        text_printf(&v, plain ? "volatile %s" : "%s volatile", inner);
        b = v;
        plain = false;
        inner = text_str(&b);
    }
    if (is_const) {
        text c = {0};
        text_printf(&c, "%s const", inner);
        b = c;
        inner = text_str(&b);
    }
    return inner;
}

const char *herd_hash_c_cell(int proc, int nparams, const char *const *types, const char *const *names,
                             const char *body)
{
    text b = {0};
    text_printf(&b, "P%d(", proc);
    for (int i = 0; i < nparams; i++)
        text_printf(&b, "%s%s* %s", i ? ", " : "", types[i], names[i]);
    text_printf(&b, ") {\n%s\n}\n", body);
    return text_str(&b);
}

static void md5_of(const char *s, uint8_t out[MD5_DIGEST_SIZE])
{
    struct md5_ctx ctx;
    md5_init(&ctx);
    md5_update(&ctx, strlen(s), (const uint8_t *)s);
    md5_digest(&ctx, MD5_DIGEST_SIZE, out);
}

void herd_hash_digest(const char *init, const char *code, const char *observed, char hex[33])
{
    uint8_t parts[3 * MD5_DIGEST_SIZE], all[MD5_DIGEST_SIZE];
    md5_of(init, parts);
    md5_of(code, parts + MD5_DIGEST_SIZE);
    md5_of(observed, parts + 2 * MD5_DIGEST_SIZE);
    struct md5_ctx ctx;
    md5_init(&ctx);
    md5_update(&ctx, sizeof parts, parts);
    md5_digest(&ctx, MD5_DIGEST_SIZE, all);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < MD5_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[all[i] >> 4];
        hex[2 * i + 1] = digits[all[i] & 15];
    }
    hex[32] = '\0';
}

/* Where a comment that starts at s ends (just after it), or NULL when
 * none starts there: C's and herd's comment forms. */
static const char *comment_end(const char *s)
{
    if (s[0] == '/' && s[1] == '/') {
        const char *e = strchr(s, '\n');
        return e ? e : s + strlen(s);
    }
    const char *close = s[0] == '/' && s[1] == '*' ? "*/" : s[0] == '(' && s[1] == '*' ? "*)" : NULL;
    if (!close)
        return NULL;
    const char *e = strstr(s + 2, close);
    return e ? e + 2 : s + strlen(s);
}

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The instruction as written, comments dropped, and blanks kept only as
 * one space between two word characters ("ld.weak r0,y"): the same
 * instruction laid out differently gives the same text. */
static const char *collapsed(const char *s)
{
    text b = {0};
    bool blank = false;
    while (s && *s) {
        const char *after = comment_end(s);
        if (after) {
            blank = b.len > 0;
            s = after;
            continue;
        }
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
            blank = b.len > 0;
            s++;
            continue;
        }
        if (blank && word_char(b.s[b.len - 1]) && word_char(*s))
            text_puts(&b, " ");
        blank = false;
        size_t run = 1;      /* up to the next blank or comment opener */
        while (s[run] && s[run] != ' ' && s[run] != '\t' && s[run] != '\n' && s[run] != '\r' &&
               s[run] != '/' && s[run] != '(')
            run++;
        text_add(&b, s, run);
        s += run;
    }
    return text_str(&b);
}

static const char *generic_init(const litmus_test *t)
{
    int cap = t->nlocs;
    for (int i = 0; i < t->nthreads; i++)
        cap += t->threads[i].nregs;
    herd_init_item *items = GC_MALLOC(sizeof *items * (size_t)(cap ? cap : 1));
    int n = 0;
    for (int l = 0; l < t->nlocs; l++)
        items[n++] = (herd_init_item){-1, t->locs[l].name, NULL, t->locs[l].init};
    for (int i = 0; i < t->nthreads; i++)
        for (int r = 0; r < t->threads[i].nregs; r++)
            if (t->threads[i].reg_init && t->threads[i].reg_init[r])
                items[n++] = (herd_init_item){i, t->threads[i].reg_names[r], NULL, t->threads[i].reg_init[r]};
    return herd_hash_init_text(items, n);
}

/* One cell per source instruction: consecutive instructions compiled from
 * one statement share its text and count once. */
static const char *generic_code(const litmus_test *t)
{
    const char ***cells = GC_MALLOC(sizeof *cells * (size_t)(t->nthreads ? t->nthreads : 1));
    int *ncells = GC_MALLOC_ATOMIC(sizeof *ncells * (size_t)(t->nthreads ? t->nthreads : 1));
    for (int i = 0; i < t->nthreads; i++) {
        const lit_thread *th = &t->threads[i];
        cells[i] = GC_MALLOC(sizeof **cells * (size_t)(th->ninstrs ? th->ninstrs : 1));
        ncells[i] = 0;
        const char *prev = NULL;
        for (int k = 0; k < th->ninstrs; k++) {
            const char *txt = th->instrs[k].text;
            if (!txt || !*txt || txt == prev)
                continue;
            prev = txt;
            cells[i][ncells[i]++] = collapsed(txt);
        }
    }
    return herd_hash_code_text(t->nthreads, (const char *const *const *)cells, ncells);
}

const char *litmus_herd_hash(const litmus_test *t)
{
    if (t->hash)
        return t->hash;
    char *hex = GC_MALLOC_ATOMIC(33);
    herd_hash_digest(generic_init(t), generic_code(t), herd_hash_observed_text(t), hex);
    return hex;
}
