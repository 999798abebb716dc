/* test_cat_limits.c: how far a cat model may nest and chain (docs/cat.md,
 * "Limits").  Chains of binary and postfix operators of any length are
 * compiled by a loop; nesting (parentheses, brackets, calls, function calls
 * in function bodies) is refused past its limit with an error at the place
 * where the limit is crossed; a model whose function calls double at each
 * level is refused instead of expanded for ever.  Verdicts of long chains
 * are checked against short equivalent models in tests/e2e/t_input_limits.sh. */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "unit_suites.h"

/* A growing text (GC). */
typedef struct text { char *s; size_t n, cap; } text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)k + 1 > t->cap) {
        t->cap = 2 * (t->n + (size_t)k + 1);
        char *grown = GC_MALLOC_ATOMIC(t->cap);
        if (t->n)
            memcpy(grown, t->s, t->n);
        t->s = grown;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

static void repeat(text *t, const char *piece, int n)
{
    for (int i = 0; i < n; i++)
        add(t, "%s", piece);
}

static cat_model *load(const text *t, const char **errs)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cat_model *m = cat_load_text("t.cat", t->s, t->n, f);
    fclose(f);
    *errs = GC_STRDUP(buf ? buf : "");
    free(buf);
    return m;
}

static void expect_loads(const text *t)
{
    const char *errs;
    CU_ASSERT_PTR_NOT_NULL(load(t, &errs));
    CU_ASSERT_STRING_EQUAL(errs, "");
}

static void expect_error(const text *t, const char *want)
{
    const char *errs;
    CU_ASSERT_PTR_NULL(load(t, &errs));
    if (strcmp(errs, want))
        fprintf(stderr, "\n  got:  %s  want: %s", errs, want);
    CU_ASSERT_STRING_EQUAL(errs, want);
}

/* 100,000 terms joined by each binary operator, and 20,000 postfix
 * operators: compiled, not refused (a recursive compiler overflowed its
 * stack on these). */
static void test_long_chains(void)
{
    static const char *const ops[] = {" | ", " ; ", " & ", " \\ "};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        text t = {0};
        add(&t, "let a = po");
        for (int i = 1; i < 100000; i++)
            add(&t, "%spo", ops[k]);
        add(&t, "\nacyclic a\n");
        expect_loads(&t);
    }
    text sets = {0};
    add(&sets, "let s = R");
    repeat(&sets, " | W", 100000);
    add(&sets, "\nlet c = s * s\nempty c\n");
    expect_loads(&sets);
    static const char *const posts[] = {"^-1", "+", "*", "?"};
    for (size_t k = 0; k < sizeof posts / sizeof posts[0]; k++) {
        text t = {0};
        add(&t, "let a = po");
        repeat(&t, posts[k], 20000);
        add(&t, "\nirreflexive a\n");
        expect_loads(&t);
    }
    /* a chain whose operands are themselves chains, in brackets */
    text mixed = {0};
    add(&mixed, "let a = [R | W]");
    repeat(&mixed, " ; po ; [R | W | F]", 20000);
    add(&mixed, "\nacyclic a\n");
    expect_loads(&mixed);
}

/* The whole expression is level 1, each parenthesis one more: 255 nest,
 * 256 do not; the error is at the first token inside the parenthesis that
 * opens level 257 (column 9 + 256). */
static void test_nesting(void)
{
    text ok = {0}, bad = {0};
    add(&ok, "let a = ");
    repeat(&ok, "(", 255);
    add(&ok, "po");
    repeat(&ok, ")", 255);
    add(&ok, "\nacyclic a\n");
    expect_loads(&ok);
    add(&bad, "let a = ");
    repeat(&bad, "(", 256);
    add(&bad, "po");
    repeat(&bad, ")", 256);
    add(&bad, "\nacyclic a\n");
    expect_error(&bad, "t.cat:1:265: error: expression nested too deeply (more than 256 brackets, "
                       "parentheses or calls)\n");
}

/* f_i calls f_(i-1): 256 calls inside one another are expanded, the 257th
 * (f0 in the body of f1, line 3 column 13) is refused. */
static void test_call_depth(void)
{
    for (int depth = 255; depth <= 256; depth++) {
        text t = {0};
        add(&t, "\"calls\"\nlet f0(x) = x\n");
        for (int i = 1; i <= depth; i++)
            add(&t, "let f%d(x) = f%d(x)\n", i, i - 1);
        add(&t, "let a = f%d(po)\nacyclic a\n", depth);
        if (depth == 255)
            expect_loads(&t);
        else
            expect_error(&t, "t.cat:3:13: error: function calls nested too deeply (more than 256) at 'f0'\n");
    }
}

/* Nesting inside function bodies adds up across calls: 30 functions, each
 * body 40 operators deep around the next call, is 1,230 levels once
 * expanded; 24 of them (984) compile. */
static void test_expanded_depth(void)
{
    for (int n = 24; n <= 30; n += 6) {
        text t = {0};
        add(&t, "\"depth\"\nlet f0(x) = x\n");
        for (int i = 1; i <= n; i++) {
            add(&t, "let f%d(x) = ", i);
            repeat(&t, "po | (", 40);
            add(&t, "f%d(x)", i - 1);
            repeat(&t, ")", 40);
            add(&t, "\n");
        }
        add(&t, "let a = f%d(po)\nacyclic a\n", n);
        const char *errs;
        cat_model *m = load(&t, &errs);
        if (n == 24) {
            CU_ASSERT_PTR_NOT_NULL(m);
        } else {
            CU_ASSERT_PTR_NULL(m);
            CU_ASSERT_PTR_NOT_NULL(strstr(errs, "error: expression nested too deeply once its functions are "
                                                "expanded (more than 1024 levels)"));
            CU_ASSERT(strncmp(errs, "t.cat:", 6) == 0);
        }
    }
}

/* f_i(x) = f_(i-1)(f_(i-1)(x)): 2^40 expansions, refused once the budget
 * of compiled operations is spent (the old compiler ran for ever). */
static void test_expansion_budget(void)
{
    text t = {0};
    add(&t, "\"doubling\"\nlet f0(x) = x | po\n");
    for (int i = 1; i <= 40; i++)
        add(&t, "let f%d(x) = f%d(f%d(x))\n", i, i - 1, i - 1);
    add(&t, "let a = f40(po)\nacyclic a\n");
    const char *errs;
    CU_ASSERT_PTR_NULL(load(&t, &errs));
    CU_ASSERT_PTR_NOT_NULL(strstr(errs, "error: the model is too large once its functions are expanded "
                                        "(more than 4194304 operations)"));
}

/* 16 `with` statements compile; the 17th is refused at its position. */
static void test_withs(void)
{
    text t = {0};
    add(&t, "\"withs\"\n");
    for (int i = 0; i < 17; i++)
        add(&t, "with o%d from linearisations(W, co)\n", i);
    add(&t, "acyclic po\n");
    expect_error(&t, "t.cat:18:1: error: too many 'with' statements (at most 16)\n");
    text ok = {0};
    add(&ok, "\"withs\"\n");
    for (int i = 0; i < 16; i++)
        add(&ok, "with o%d from linearisations(W, co)\n", i);
    add(&ok, "acyclic po\n");
    expect_loads(&ok);
}

/* A model text over CAT_MAX_FILE_BYTES is refused before it is parsed. */
static void test_size(void)
{
    size_t n = CAT_MAX_FILE_BYTES + 1;
    char *big = GC_MALLOC_ATOMIC(n + 1);
    memset(big, ' ', n);
    big[n] = '\0';
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NULL(cat_load_text("big.cat", big, n, f));
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "big.cat:1:1: error: file too large (more than 4194304 bytes)\n");
    free(buf);
}

void register_cat_limits_tests(void)
{
    CU_pSuite s = CU_add_suite("cat limits", NULL, NULL);
    CU_add_test(s, "chains of 100,000 operators compile", test_long_chains);
    CU_add_test(s, "255 parentheses nest, 256 do not", test_nesting);
    CU_add_test(s, "256 nested function calls, not 257", test_call_depth);
    CU_add_test(s, "nesting across function bodies", test_expanded_depth);
    CU_add_test(s, "doubling functions are refused", test_expansion_budget);
    CU_add_test(s, "at most 16 with statements", test_withs);
    CU_add_test(s, "the file size limit", test_size);
}
