/* test_cat.c: unit tests of the cat interpreter (parser, compiler, evaluator). */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cat/cat.h"
#include "exec_build.h"
#include "unit_suites.h"

/* ---- Helpers ---- */

/* Loads a model from text; *errs receives the diagnostics (GC string). */
static cat_model *load(const char *text, const char **errs)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cat_model *m = cat_load_string("t.cat", text, f);
    fclose(f);
    if (errs)
        *errs = GC_STRDUP(buf);
    free(buf);
    return m;
}

/* Hand-built executions: events in threads, on locations, with tags. */
typedef struct builder {
    exec x;
    int thread[TX_EVENTS];
    int loc[TX_EVENTS];
} builder;

static void b_init(builder *b)
{
    memset(b, 0, sizeof *b);
    tx_init(&b->x);
}

/* New event of `thread` (-1: initial write) on `loc` (-1: none), in the
 * sets given after it (a list of XS_* ended by -1). */
static int b_event(builder *b, int thread, int loc, ...)
{
    int e = b->x.n++;
    b->thread[e] = thread;
    b->loc[e] = loc;
    va_list ap;
    va_start(ap, loc);
    for (int s = va_arg(ap, int); s >= 0; s = va_arg(ap, int))
        *tx_set(&b->x, s) |= evword_bit(e);
    va_end(ap);
    return e;
}

/* Derives M, po, loc, po-loc, int, ext, sr, scta, sgpu, co+ and fr (one
 * CTA, so every pair of scoped events is in the same scope instance). */
static void b_finish(builder *b)
{
    exec *x = &b->x;
    int n = x->n;
    *tx_set(x, XS_M) = *tx_set(x, XS_R) | *tx_set(x, XS_W);
    evword scoped = *tx_set(x, XS_CTA) | *tx_set(x, XS_GPU) | *tx_set(x, XS_SYS);
    rel_plus(x->rel[XR_CO], x->rel[XR_CO], n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool same_thread = b->thread[i] >= 0 && b->thread[i] == b->thread[j];
            if (same_thread && i < j)
                tx_add(x, XR_PO, i, j);
            if (same_thread)
                tx_add(x, XR_INT, i, j);
            else
                tx_add(x, XR_EXT, i, j);
            if (b->loc[i] >= 0 && b->loc[i] == b->loc[j]) {
                tx_add(x, XR_LOC, i, j);
                tx_add(x, XR_VLOC, i, j);
            }
            if (tx_has(scoped, i) && tx_has(scoped, j))
                tx_add(x, XR_SR, i, j);
            if (b->thread[i] >= 0 && b->thread[j] >= 0) {
                tx_add(x, XR_SCTA, i, j);
                tx_add(x, XR_SGPU, i, j);
            }
        }
    rel_inter(x->rel[XR_PO_LOC], x->rel[XR_PO], x->rel[XR_LOC], n);
    relation *rf_inv = GC_MALLOC_ATOMIC(rel_bytes(TX_EVENTS));
    rel_inverse(rf_inv, x->rel[XR_RF], n);
    rel_seq(x->rel[XR_FR], rf_inv, x->rel[XR_CO], n);
}

static cat_verdict check_text(const char *model, const exec *x)
{
    const char *errs;
    cat_model *m = load(model, &errs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    return cat_check(m, cat_workspace_new(m), x);
}

static bool consistent(const char *model, const exec *x)
{
    return check_text(model, x).consistent;
}

/* An execution of 4 events whose addr, data and ctrl relations are the
 * given pair lists ({-1,-1} ended), sets TEX = {0,1}, CON = {1,2}. */
static exec small_exec(const int (*a)[2], const int (*d)[2], const int (*c)[2])
{
    exec x;
    tx_init(&x);
    x.n = 4;
    for (; a[0][0] >= 0; a++)
        tx_add(&x, XR_ADDR, a[0][0], a[0][1]);
    for (; d[0][0] >= 0; d++)
        tx_add(&x, XR_DATA, d[0][0], d[0][1]);
    for (; c[0][0] >= 0; c++)
        tx_add(&x, XR_CTRL, c[0][0], c[0][1]);
    *tx_set(&x, XS_TEX) = evword_bit(0) | evword_bit(1);
    *tx_set(&x, XS_CON) = evword_bit(1) | evword_bit(2);
    return x;
}

/* Does `expr` (over addr, data) evaluate to the relation in ctrl? */
static bool rel_is(const char *expr, const exec *x)
{
    char model[512];
    snprintf(model, sizeof model, "let e = %s\nempty e \\ ctrl\nempty ctrl \\ e\n", expr);
    return consistent(model, x);
}

/* Does the set expression `expr` (over TEX, CON) evaluate to `want`? */
static bool set_is(const char *expr, exec *x, evword want)
{
    char model[512];
    *tx_set(x, XS_SUR) = want;
    snprintf(model, sizeof model, "let e = %s\nempty e \\ SUR\nempty SUR \\ e\n", expr);
    return consistent(model, x);
}

static const int NONE[][2] = {{-1, -1}};
static const int A[][2] = {{0, 1}, {1, 2}, {-1, -1}};
static const int D[][2] = {{1, 3}, {2, 0}, {-1, -1}};

/* ---- Operators ---- */

static void test_relation_operators(void)
{
    const int seq[][2] = {{0, 3}, {1, 0}, {-1, -1}};
    exec x = small_exec(A, D, seq);
    CU_ASSERT(rel_is("addr ; data", &x));
    CU_ASSERT(!rel_is("data ; addr", &x));
    const int uni[][2] = {{0, 1}, {1, 2}, {1, 3}, {2, 0}, {-1, -1}};
    x = small_exec(A, D, uni);
    CU_ASSERT(rel_is("addr | data", &x));
    CU_ASSERT(rel_is("data | addr | 0", &x));
    const int inv[][2] = {{1, 0}, {2, 1}, {-1, -1}};
    x = small_exec(A, D, inv);
    CU_ASSERT(rel_is("addr^-1", &x));
    const int plus[][2] = {{0, 1}, {1, 2}, {0, 2}, {-1, -1}};
    x = small_exec(A, D, plus);
    CU_ASSERT(rel_is("addr+", &x));
    const int star[][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {-1, -1}};
    x = small_exec(A, D, star);
    CU_ASSERT(rel_is("addr*", &x));
    CU_ASSERT(rel_is("addr+ | id", &x));
    CU_ASSERT(rel_is("(addr*) ; id", &x));
    const int opt[][2] = {{0, 1}, {1, 2}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {-1, -1}};
    x = small_exec(A, D, opt);
    CU_ASSERT(rel_is("addr?", &x));
    CU_ASSERT(rel_is("0? | addr", &x));
    const int both[][2] = {{0, 1}, {-1, -1}};
    const int d2[][2] = {{0, 1}, {2, 3}, {-1, -1}};
    x = small_exec(A, d2, both);
    CU_ASSERT(rel_is("addr & data", &x));
    const int diff[][2] = {{1, 2}, {-1, -1}};
    x = small_exec(A, d2, diff);
    CU_ASSERT(rel_is("addr \\ data", &x));
    CU_ASSERT(rel_is("addr \\ data \\ 0", &x));
}

static void test_set_operators(void)
{
    exec x = small_exec(NONE, NONE, NONE);
    evword tex = evword_bit(0) | evword_bit(1), con = evword_bit(1) | evword_bit(2);
    CU_ASSERT(set_is("TEX | CON", &x, tex | con));
    CU_ASSERT(set_is("TEX & CON", &x, evword_bit(1)));
    CU_ASSERT(set_is("TEX \\ CON", &x, evword_bit(0)));
    CU_ASSERT(set_is("~TEX", &x, evword_bit(2) | evword_bit(3)));
    CU_ASSERT(set_is("_", &x, tx_universe(4)));
    CU_ASSERT(set_is("~(CON & 0) & TEX", &x, tex));
    CU_ASSERT(set_is("TEX & 0", &x, 0));
    CU_ASSERT(!set_is("TEX", &x, con));
}

static void test_products_and_brackets(void)
{
    const int cart[][2] = {{0, 1}, {0, 2}, {1, 1}, {1, 2}, {-1, -1}};
    exec x = small_exec(NONE, NONE, cart);
    *tx_set(&x, XS_TEX) = evword_bit(0) | evword_bit(1);
    *tx_set(&x, XS_CON) = evword_bit(1) | evword_bit(2);
    CU_ASSERT(rel_is("TEX * CON", &x));
    CU_ASSERT(rel_is("(TEX*CON)", &x));
    const int ident[][2] = {{0, 0}, {1, 1}, {-1, -1}};
    x = small_exec(NONE, NONE, ident);
    CU_ASSERT(rel_is("[TEX]", &x));
    /* restriction: [TEX];addr;[CON] on addr = 0->1, 1->2, 2->0 */
    const int ar[][2] = {{0, 1}, {1, 2}, {2, 0}, {-1, -1}};
    const int restr[][2] = {{0, 1}, {1, 2}, {-1, -1}};
    x = small_exec(ar, NONE, restr);
    CU_ASSERT(rel_is("[TEX] ; addr ; [CON]", &x));
    CU_ASSERT(rel_is("[TEX];addr;[CON]", &x));
    const int restr2[][2] = {{1, 2}, {-1, -1}};
    x = small_exec(ar, NONE, restr2);
    CU_ASSERT(rel_is("[TEX & CON] ; addr", &x));
    /* complement of a relation: all pairs minus it */
    const int comp_in[][2] = {{0, 0}, {-1, -1}};
    exec y = small_exec(comp_in, NONE, NONE);
    y.n = 2;
    tx_add(&y, XR_CTRL, 0, 1);
    tx_add(&y, XR_CTRL, 1, 0);
    tx_add(&y, XR_CTRL, 1, 1);
    CU_ASSERT(rel_is("~addr", &y));
}

static void test_domain_range(void)
{
    exec x = small_exec(A, NONE, NONE);
    CU_ASSERT(set_is("domain(addr)", &x, evword_bit(0) | evword_bit(1)));
    CU_ASSERT(set_is("range(addr)", &x, evword_bit(1) | evword_bit(2)));
    CU_ASSERT(set_is("domain(0)", &x, 0));
}

static void test_precedence(void)
{
    /* ; binds tighter than |, & tighter than \, postfix tighter than ~ */
    const int want[][2] = {{0, 3}, {1, 0}, {0, 1}, {1, 2}, {-1, -1}};
    exec x = small_exec(A, D, want);
    CU_ASSERT(rel_is("addr ; data | addr", &x));
    CU_ASSERT(rel_is("addr | addr ; data", &x));
    const int w2[][2] = {{1, 2}, {-1, -1}};
    const int d2[][2] = {{0, 1}, {-1, -1}};
    x = small_exec(A, d2, w2);
    CU_ASSERT(rel_is("addr \\ data & addr", &x));  /* addr \ (data & addr) */
    const int w3[][2] = {{0, 2}, {0, 0}, {1, 1}, {1, 0}, {2, 2}, {2, 0}, {2, 1}, {3, 3}, {3, 0},
                         {3, 1}, {3, 2}, {0, 3}, {1, 3}, {2, 3}, {-1, -1}};
    x = small_exec(A, NONE, w3);
    CU_ASSERT(rel_is("~addr", &x));
    /* binary vs postfix star */
    x = small_exec(NONE, NONE, NONE);
    *tx_set(&x, XS_TEX) = evword_bit(0);
    tx_add(&x, XR_CTRL, 0, 0);
    CU_ASSERT(rel_is("TEX*TEX", &x));
    CU_ASSERT(rel_is("(0*)", &x) == false);
}

/* ---- Statements ---- */

static void test_let_rec(void)
{
    const int line[][2] = {{0, 1}, {1, 2}, {2, 3}, {-1, -1}};
    exec x = small_exec(line, NONE, NONE);
    rel_plus(x.rel[XR_CTRL], x.rel[XR_ADDR], 4);
    CU_ASSERT(consistent("let rec t = addr | (t ; addr)\nempty t \\ ctrl\nempty ctrl \\ t", &x));
    CU_ASSERT(consistent("let rec a = addr | b and b = a ; addr\n"
                         "empty (a | b) \\ ctrl\nempty ctrl \\ (a | b)", &x));
    /* a set defined recursively */
    *tx_set(&x, XS_TEX) = evword_bit(0);
    *tx_set(&x, XS_SUR) = tx_universe(4);
    CU_ASSERT(consistent("let rec s = TEX | range([s] ; addr)\nempty s \\ SUR\nempty SUR \\ s", &x));
    /* a variable that stays empty */
    CU_ASSERT(consistent("let rec z = z ; addr\nempty z", &x));
}

static void test_functions(void)
{
    const int seq[][2] = {{0, 3}, {1, 0}, {-1, -1}};
    exec x = small_exec(A, D, seq);
    CU_ASSERT(consistent("let f(a, b) = a ; b\nlet e = f(addr, data)\n"
                         "empty e \\ ctrl\nempty ctrl \\ e", &x));
    CU_ASSERT(consistent("let twice(r) = r ; r\nlet g(r) = twice(r) | 0\n"
                         "empty g(addr) \\ (addr;addr)\nempty (addr;addr) \\ g(addr)", &x));
    CU_ASSERT(consistent("let same(s) = s\nempty same(addr | data) \\ (data | addr)", &x));
    const char *errs;
    CU_ASSERT_PTR_NULL(load("let f(a) = a\nacyclic f(po, rf)\n", &errs));
    CU_ASSERT_STRING_EQUAL(errs, "t.cat:2:9: error: function 'f' takes 1 argument, but 2 are given\n");
}

static void test_shadowing(void)
{
    const int seq[][2] = {{0, 3}, {1, 0}, {-1, -1}};
    exec x = small_exec(A, D, seq);
    CU_ASSERT(consistent("let addr = addr ; data\nempty addr \\ ctrl\nempty ctrl \\ addr", &x));
    CU_ASSERT(consistent("let id = 0\nempty id", &x));
}

static void test_flags(void)
{
    exec x = small_exec(A, NONE, NONE);
    cat_model *m = load("Flags\nflag ~empty addr as has-addr\nflag ~empty data as has-data\n"
                        "flag empty data\nacyclic addr\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(cat_model_flag_count(m), 3);
    CU_ASSERT_STRING_EQUAL(cat_model_flag_name(m, 0), "has-addr");
    CU_ASSERT_STRING_EQUAL(cat_model_flag_name(m, 1), "has-data");
    CU_ASSERT_STRING_EQUAL(cat_model_flag_name(m, 2), "empty data");
    CU_ASSERT_PTR_NULL(cat_model_flag_name(m, 3));
    cat_verdict v = cat_check(m, cat_workspace_new(m), &x);
    CU_ASSERT(v.consistent);
    CU_ASSERT_EQUAL(v.flags, 5u);
    /* a flag does not make the execution inconsistent; a failing check does */
    tx_add(&x, XR_ADDR, 2, 0);
    v = cat_check(m, cat_workspace_new(m), &x);
    CU_ASSERT(!v.consistent);
    CU_ASSERT_EQUAL(v.flags, 0u);
    CU_ASSERT_STRING_EQUAL(v.failed_check, "acyclic addr");
}

static void test_checks(void)
{
    const int cyc[][2] = {{0, 1}, {1, 0}, {-1, -1}};
    exec x = small_exec(cyc, NONE, NONE);
    cat_verdict v = check_text("irreflexive addr as ok\nacyclic addr as no-cycle\nempty 0\n", &x);
    CU_ASSERT(!v.consistent);
    CU_ASSERT_STRING_EQUAL(v.failed_check, "no-cycle");
    CU_ASSERT(consistent("~acyclic addr\n~empty addr\nirreflexive addr\n", &x));
    CU_ASSERT(!consistent("~irreflexive addr", &x));
    CU_ASSERT(!consistent("~empty 0", &x));
    CU_ASSERT(consistent("empty TEX & CON & 0", &x));
    CU_ASSERT(!consistent("empty TEX & CON", &x));
    v = check_text("empty (addr\n   ;  addr) \\ addr", &x);
    CU_ASSERT_FATAL(!v.consistent);
    CU_ASSERT_STRING_EQUAL(v.failed_check, "empty (addr ; addr) \\ addr");
}

static void test_linearisations(void)
{
    exec x = small_exec(NONE, NONE, NONE);
    x.n = 3;
    *tx_set(&x, XS_SC) = tx_universe(3);
    tx_add(&x, XR_ADDR, 0, 1);
    /* an order with 2 before 0 (and 0 before 1, from addr) exists */
    tx_add(&x, XR_DATA, 2, 0);
    CU_ASSERT(consistent("with s from linearisations(SC, addr)\n~empty s & data\n"
                         "empty s & addr^-1", &x));
    /* s must be total on SC */
    CU_ASSERT(consistent("with s from linearisations(SC, addr)\n"
                         "empty ([SC];(_*_);[SC]) \\ (s | s^-1 | id)\nacyclic s", &x));
    /* no order puts 1 before 0 */
    rel_clear(x.rel[XR_DATA], 3);
    tx_add(&x, XR_DATA, 1, 0);
    CU_ASSERT(!consistent("with s from linearisations(SC, addr)\n~empty s & data", &x));
    /* a cyclic constraint has no linearisation */
    tx_add(&x, XR_ADDR, 1, 0);
    cat_verdict v = check_text("with s from linearisations(SC, addr)\nacyclic po", &x);
    CU_ASSERT(!v.consistent);
    CU_ASSERT_STRING_EQUAL(v.failed_check, "with s from linearisations(SC, addr)");
    /* ...unless only outside the set */
    *tx_set(&x, XS_SC) = evword_bit(1) | evword_bit(2);
    CU_ASSERT(consistent("with s from linearisations(SC, addr)\nacyclic po", &x));
    CU_ASSERT(consistent("with s from linearisations(0, 0)\nempty s", &x));
}

static void test_linearisations_count_and_flags(void)
{
    /* 3 unconstrained events: the flag of the first passing order is kept,
     * and only the order 2 < 1 < 0 passes the check */
    exec x = small_exec(NONE, NONE, NONE);
    x.n = 3;
    *tx_set(&x, XS_SC) = tx_universe(3);
    tx_add(&x, XR_DATA, 2, 1);
    tx_add(&x, XR_DATA, 1, 0);
    cat_model *m = load("with s from linearisations(SC, 0)\n"
                        "flag ~empty s & data as uses-data\n"
                        "empty (data+) \\ s\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    cat_verdict v = cat_check(m, cat_workspace_new(m), &x);
    CU_ASSERT(v.consistent);
    CU_ASSERT_EQUAL(v.flags, 1u);
    /* nested with: two independent orders */
    CU_ASSERT(consistent("with s from linearisations(SC, 0)\nwith t from linearisations(SC, s)\n"
                         "empty s \\ t\nempty t \\ s\n~empty s & data^-1 | data", &x));
}

/* Regression: a binding hoisted before a `with` once shared its slot with a
 * temporary of an earlier statement that runs after the `with`, and was
 * overwritten (ptx75's proxy-preserved causality lost the alias-fence path). */
static void test_hoisted_binding_keeps_its_value(void)
{
    exec x = small_exec(NONE, NONE, NONE);
    tx_add(&x, XR_ADDR, 0, 1);
    const char *model = "with s from linearisations(SC, 0)\n"
                        "let r = addr | s\n"
                        "let t = [TEX & CON] ; r\n" /* runs after the with; temp TEX & CON */
                        "let u = CON \\ TEX\n"     /* hoisted before the with */
                        "empty (u & TEX) \\ domain(s)\n";
    CU_ASSERT(consistent(model, &x));
}

static void test_title_and_options(void)
{
    cat_model *m = load("PTX\n(* a (* nested *) comment *)\nlet x = po\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(cat_model_title(m), "PTX");
    CU_ASSERT_EQUAL(cat_model_co_mode(m), CAT_CO_TOTAL);
    m = load("\"PTX with partial co\"\noption co = partial\nshow po, rf as x\nunshow co\n", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(cat_model_title(m), "PTX with partial co");
    CU_ASSERT_EQUAL(cat_model_co_mode(m), CAT_CO_PARTIAL);
    m = load("option co = total\n", NULL);
    CU_ASSERT_EQUAL(cat_model_co_mode(m), CAT_CO_TOTAL);
    CU_ASSERT_STRING_EQUAL(cat_model_title(m), "t");
    /* an empty model accepts everything */
    m = load("", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    exec x = small_exec(NONE, NONE, NONE);
    CU_ASSERT(cat_check(m, cat_workspace_new(m), &x).consistent);
    CU_ASSERT_PTR_NOT_NULL(load("(* only a comment *)", NULL));
}

/* ---- Errors ---- */

static void expect_error(const char *text, const char *want)
{
    const char *errs;
    cat_model *m = load(text, &errs);
    CU_ASSERT_PTR_NULL(m);
    if (strcmp(errs, want) != 0)
        fprintf(stderr, "\n  model: %s\n  got:   %s  want:  %s", text, errs, want);
    CU_ASSERT_STRING_EQUAL(errs, want);
}

static void test_syntax_errors(void)
{
    expect_error("let x = po |\n", "t.cat:2:1: error: expected an expression, found 'end of file'\n");
    expect_error("let x = (po ; rf\nacyclic x",
                 "t.cat:2:1: error: expected ')', found 'acyclic'\n");
    expect_error("let = po", "t.cat:1:5: error: expected a name to bind, found '='\n");
    expect_error("acyclic po as", "t.cat:1:14: error: expected a name after 'as', found 'end of file'\n");
    expect_error("acyclic po\n  = rf", "t.cat:2:3: error: expected a statement, found '='\n");
    expect_error("acyclic po\n  foo", "t.cat:1:9: error: 'po' is not a function\n");
    expect_error("let x = po $ rf", "t.cat:1:12: error: unexpected character '$'\n");
    expect_error("let x = po ^ rf", "t.cat:1:12: error: expected '^-1'\n");
    expect_error("let x = 1", "t.cat:1:9: error: unexpected number (only 0 is allowed)\n");
    expect_error("let x = po (* open", "t.cat:1:12: error: unterminated comment\n");
    expect_error("\"title", "t.cat:1:1: error: unterminated string\n");
    expect_error("option co = maybe", "t.cat:1:13: error: expected 'partial' or 'total', found 'maybe'\n");
    expect_error("option thin-air = maybe", "t.cat:1:19: error: expected 'allowed' or 'forbidden', found 'maybe'\n");
    expect_error("option sc = total", "t.cat:1:8: error: unknown option 'sc' (options: co, thread-coherence, thin-air, flags)\n");
    expect_error("with x from lin(R, po)", "t.cat:1:13: error: unknown name 'lin'\n");
    expect_error("with x from po", "t.cat:1:13: error: 'with x from' needs linearisations(S, r), "
                 "generate_orders(S, r) or generate_cos(r), but this is a set of events or a relation\n");
    expect_error("let rec f(a) = a and x = po", "t.cat:1:9: error: 'let rec' binds either functions or "
                 "sets and relations, not both\n");
    expect_error("include \"no-such-file.cat\"",
                 "t.cat:1:9: error: cannot read included file 'no-such-file.cat': cannot open: No such file or directory\n");
}

static void test_type_errors(void)
{
    expect_error("let x = po | R\nacyclic x", "t.cat:1:12: error: type error: operands of '|' must both be "
                 "sets or both be relations, but the left one is a relation and the right one a set\n");
    expect_error("let x = W\n\nlet y = x ; po\nacyclic y",
                 "t.cat:3:11: error: type error: operand of ';' must be a relation, but it is a set\n");
    expect_error("let y = po * rf\nacyclic y", "t.cat:1:12: error: type error: operand of '*' must be a set, "
                 "but it is a relation\n");
    expect_error("let y = [po]\nacyclic y", "t.cat:1:9: error: type error: operand of '[...]' must be a set, "
                 "but it is a relation\n");
    expect_error("let y = R+\nacyclic y", "t.cat:1:10: error: type error: operand of '+' must be a relation, "
                 "but it is a set\n");
    expect_error("acyclic R", "t.cat:1:1: error: type error: 'acyclic' needs a relation, but this is a set\n");
    expect_error("acyclic foo", "t.cat:1:9: error: unknown name 'foo'\n");
    expect_error("let f(a) = a\nacyclic f", "t.cat:2:9: error: 'f' is a function: call it with arguments\n");
    expect_error("acyclic po(rf)", "t.cat:1:9: error: 'po' is not a function\n");
    expect_error("let x = domain(R)\nempty x", "t.cat:1:9: error: type error: operand of 'domain' must be a "
                 "relation, but it is a set\n");
    expect_error("let rec x = x | R | po", "t.cat:1:19: error: type error: operands of '|' must both "
                 "be sets or both be relations, but the left one is a set and the right one a relation\n");
    expect_error("with s from linearisations(po, po)",
                 "t.cat:1:28: error: type error: operand of 'linearisations' must be a set, but it is a relation\n");
}

static void test_garbage(void)
{
    const char *errs;
    CU_ASSERT_PTR_NULL(load("\x01\x02\xff", &errs));
    CU_ASSERT_STRING_EQUAL(errs, "t.cat:1:1: error: unexpected byte 0x01\n");
    /* random bytes and random cuts of a model never crash */
    static const char model[] =
        "PTX (* c *) let ms = (po | [R]; sr; [W]) & loc \\ id\n"
        "let rec obs = (ms & rf) | (obs ; rmw ; obs)\n"
        "with s from linearisations(F & SC, 0)\n"
        "let f(a, b) = a ; b^-1 ; b* ; a+ ; a?\n"
        "flag ~empty f(obs, s) as fl\nacyclic (M*M) & ~po as x\n";
    char buf[sizeof model];
    unsigned seed = 12345;
    for (int i = 0; i < 3000; i++) {
        memcpy(buf, model, sizeof model);
        size_t cut = i < (int)sizeof model ? (size_t)i : sizeof model - 1;
        buf[cut] = '\0';
        for (int k = 0; i >= (int)sizeof model && k < 3; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % (sizeof model - 1);
            seed = seed * 1103515245u + 12345u;
            buf[at] = (char)(seed >> 16);
            if (buf[at] == '\0')
                buf[at] = '(';
        }
        cat_model *m = load(buf, NULL);
        if (m) {
            exec x = small_exec(A, D, NONE);
            cat_check(m, cat_workspace_new(m), &x);
        }
    }
    CU_ASSERT_PTR_NOT_NULL(load(model, NULL));
    /* deep nesting is an error, not a stack overflow */
    static char deep[200020];
    memcpy(deep, "let x = ", 8);
    memset(deep + 8, '(', 100000);
    memset(deep + 100008, '~', 100000);
    CU_ASSERT_PTR_NULL(load(deep, &errs));
    CU_ASSERT_STRING_EQUAL(errs, "t.cat:1:265: error: expression nested too deeply (more than 256 brackets, parentheses or calls)\n");
    memset(deep + 8, '~', 100000);
    CU_ASSERT_PTR_NULL(load(deep, &errs));
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void test_include(void)
{
    char dir[] = "/tmp/scopecheck-cat-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char main_path[256], lib_path[256], loop_path[256], bad_path[256], errs_path[256];
    snprintf(main_path, sizeof main_path, "%s/main.cat", dir);
    snprintf(lib_path, sizeof lib_path, "%s/lib.cat", dir);
    snprintf(loop_path, sizeof loop_path, "%s/loop.cat", dir);
    snprintf(bad_path, sizeof bad_path, "%s/bad.cat", dir);
    snprintf(errs_path, sizeof errs_path, "%s/errs", dir);
    write_file(lib_path, "\"library\"\nlet twice = addr ; addr\nflag ~empty twice as lib-flag\n");
    write_file(main_path, "Main\ninclude \"lib.cat\"\nacyclic twice\n");
    write_file(loop_path, "include \"loop.cat\"\n");
    write_file(bad_path, "include \"lib.cat\"\nlet x = twice |\n");
    cat_model *m = cat_load(main_path, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_STRING_EQUAL(cat_model_title(m), "Main");
    CU_ASSERT_EQUAL(cat_model_flag_count(m), 1);
    exec x = small_exec(A, NONE, NONE);
    cat_verdict v = cat_check(m, cat_workspace_new(m), &x);
    CU_ASSERT(v.consistent && v.flags == 1u);
    FILE *errs = fopen(errs_path, "w+");
    CU_ASSERT_PTR_NULL(cat_load(loop_path, errs));
    CU_ASSERT_PTR_NULL(cat_load(bad_path, errs));
    rewind(errs);
    char line[512];
    char want[600];
    CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, errs));
    snprintf(want, sizeof want, "%s:1:9: error: recursive include of '%s'\n", loop_path, loop_path);
    CU_ASSERT_STRING_EQUAL(line, want);
    CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, errs));
    snprintf(want, sizeof want, "%s:3:1: error: expected an expression, found 'end of file'\n", bad_path);
    CU_ASSERT_STRING_EQUAL(line, want);
    fclose(errs);
    unlink(main_path);
    unlink(lib_path);
    unlink(loop_path);
    unlink(bad_path);
    unlink(errs_path);
    rmdir(dir);
}

/* ---- The PTX axioms (docs/ptx-model.md sections 3-4) ---- */

static const char ptx_model[] =
    "\"PTX (unit test transcription)\"\n"
    "option co = partial\n"
    "let SW = W & (RLX | REL)\n"
    "let SR = R & (RLX | ACQ)\n"
    "let SO = SW | SR | F\n"
    "let ms = ((po | po^-1) | ([SO]; sr; [SO])) & (((M*M) & loc) | ((_*_) \\ (M*M))) \\ id\n"
    "let rec obs = (ms & rf) | (obs ; rmw ; obs)\n"
    "let rel = ([W & REL] ; po-loc? ; [SW]) | ([F & ACQ_REL] ; po ; [SW])\n"
    "let acq = ([SR] ; po-loc? ; [R & ACQ]) | ([SR] ; po ; [F & ACQ_REL])\n"
    "let sync = ms & (rel ; obs ; acq)\n"
    "acyclic (rf | addr | data | ctrl) as No-thin-air\n"
    "with sco from linearisations(F & SC, 0)\n"
    "let sync_fence = sco & ms\n"
    "let sync_barrier = syncbar & scta\n"
    "let cause_base = po? ; ((sync | sync_fence | sync_barrier) ; po?)+\n"
    "let cause = cause_base | (obs ; (cause_base | po-loc))\n"
    "empty ((([W] ; cause ; [W]) & loc) \\ co) as Coherence\n"
    "empty ((ms & loc & W*W) \\ (co | co^-1)) as Coherence-strong-writes\n"
    "empty (([F & SC] ; cause ; [F & SC]) \\ sync_fence) as Fence-SC\n"
    "empty (((ms & fr) ; (ms & co)) & rmw) as Atomicity\n"
    "acyclic ((ms & (rf | co | fr)) | po-loc) as SC-per-location\n"
    "irreflexive ((rf | fr) ; cause) as Causality\n";

enum { X, Y };

/* MP: P0: st x=1; st y=1 / P1: ld y (reads 1); ld x (reads 0). */
static exec mp(bool release_acquire)
{
    builder b;
    b_init(&b);
    int ix = b_event(&b, -1, X, XS_W, XS_IW, -1);
    int iy = b_event(&b, -1, Y, XS_W, XS_IW, -1);
    int wx = b_event(&b, 0, X, XS_W, XS_WEAK, -1);
    int wy = release_acquire ? b_event(&b, 0, Y, XS_W, XS_REL, XS_GPU, -1)
                             : b_event(&b, 0, Y, XS_W, XS_WEAK, -1);
    int ry = release_acquire ? b_event(&b, 1, Y, XS_R, XS_ACQ, XS_GPU, -1)
                             : b_event(&b, 1, Y, XS_R, XS_WEAK, -1);
    int rx = b_event(&b, 1, X, XS_R, XS_WEAK, -1);
    tx_add(&b.x, XR_CO, ix, wx);
    tx_add(&b.x, XR_CO, iy, wy);
    tx_add(&b.x, XR_RF, wy, ry);
    tx_add(&b.x, XR_RF, ix, rx);
    b_finish(&b);
    return b.x;
}

/* SB: P0: st x=1; [fence.sc]; ld y (reads 0) / P1: st y=1; [fence.sc]; ld x (reads 0). */
static exec sb(bool fence0, bool fence1)
{
    builder b;
    b_init(&b);
    int ix = b_event(&b, -1, X, XS_W, XS_IW, -1);
    int iy = b_event(&b, -1, Y, XS_W, XS_IW, -1);
    int wx = b_event(&b, 0, X, XS_W, XS_RLX, XS_GPU, -1);
    if (fence0)
        b_event(&b, 0, -1, XS_F, XS_SC, XS_GPU, -1);
    int ry = b_event(&b, 0, Y, XS_R, XS_RLX, XS_GPU, -1);
    int wy = b_event(&b, 1, Y, XS_W, XS_RLX, XS_GPU, -1);
    if (fence1)
        b_event(&b, 1, -1, XS_F, XS_SC, XS_GPU, -1);
    int rx = b_event(&b, 1, X, XS_R, XS_RLX, XS_GPU, -1);
    tx_add(&b.x, XR_CO, ix, wx);
    tx_add(&b.x, XR_CO, iy, wy);
    tx_add(&b.x, XR_RF, iy, ry);
    tx_add(&b.x, XR_RF, ix, rx);
    b_finish(&b);
    return b.x;
}

static void test_ptx_axioms(void)
{
    const char *errs;
    cat_model *m = load(ptx_model, &errs);
    CU_ASSERT_STRING_EQUAL(errs, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(cat_model_co_mode(m), CAT_CO_PARTIAL);
    cat_workspace *ws = cat_workspace_new(m);
    exec x = mp(true);
    cat_verdict v = cat_check(m, ws, &x);
    CU_ASSERT(!v.consistent);
    CU_ASSERT_STRING_EQUAL(v.failed_check, "Causality");
    x = mp(false);
    CU_ASSERT(cat_check(m, ws, &x).consistent);
    x = sb(true, true);
    v = cat_check(m, ws, &x);
    CU_ASSERT(!v.consistent);
    CU_ASSERT_STRING_EQUAL(v.failed_check, "Causality");
    x = sb(true, false);
    CU_ASSERT(cat_check(m, ws, &x).consistent);
    x = sb(false, false);
    CU_ASSERT(cat_check(m, ws, &x).consistent);
    /* a thin-air cycle fails first, before any linearisation */
    x = mp(false);
    tx_add(&x, XR_DATA, 5, 2);
    tx_add(&x, XR_RF, 2, 5);
    v = cat_check(m, ws, &x);
    CU_ASSERT(!v.consistent);
    CU_ASSERT_STRING_EQUAL(v.failed_check, "No-thin-air");
}

/* MP with the reads' sources chosen: ry reads iy (1) or wy (3), rx reads ix
 * (0) or wx (2); fr follows. */
static void mp_reads(exec *x, int ry_from, int rx_from)
{
    rel_clear(x->rel[XR_RF], x->n);
    tx_add(x, XR_RF, ry_from, 4);
    tx_add(x, XR_RF, rx_from, 5);
    relation *rf_inv = GC_MALLOC_ATOMIC(rel_bytes(TX_EVENTS));
    rel_inverse(rf_inv, x->rel[XR_RF], x->n);
    rel_seq(x->rel[XR_FR], rf_inv, x->rel[XR_CO], x->n);
}

/* The static code runs once (cat_prepare) for every reads-from choice that
 * follows; the verdicts and flags must be those of whole checks, however
 * the compiler hoisted code and reused slots between stages. */
static void test_static_code_runs_once(void)
{
    const char *models[] = {
        ptx_model,
        "flag ~empty (po & loc) as same-loc\n"
        "let a = (po ; po) | rf\n"          /* a static temporary read by rf code */
        "let b = (loc ; loc) \\ id\n"     /* may not take that temporary's slot */
        "let c = ((int ; int) & rf) | (ext ; ext)\n"
        "with s from linearisations(W & ~IW, po)\n"
        "let d = (s ; s) | ((po ; po) & loc)\n"
        "acyclic a | co as A\n"
        "flag ~empty (c & b & rf) as rf-flag\n"
        "irreflexive (fr ; d ; a) as B\n"
        "empty (rmw ; po) \\ rf as C\n",
    };
    for (size_t k = 0; k < sizeof models / sizeof *models; k++) {
        cat_model *m = load(models[k], NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        cat_workspace *prepared = cat_workspace_new(m);
        exec x = mp(k == 0);
        cat_prepare(m, prepared, &x);
        for (int ry = 1; ry <= 3; ry += 2)
            for (int rx = 0; rx <= 2; rx += 2) {
                mp_reads(&x, ry, rx);
                cat_verdict whole = cat_check(m, cat_workspace_new(m), &x);
                cat_verdict part = cat_check_prepared(m, prepared, &x);
                CU_ASSERT_EQUAL(part.consistent, whole.consistent);
                CU_ASSERT_EQUAL(part.flags, whole.flags);
            }
    }
}

static void test_no_allocation(void)
{
    cat_model *m = load(ptx_model, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    cat_workspace *ws = cat_workspace_new(m);
    exec a = sb(true, true), b = mp(true);
    cat_check(m, ws, &a);
    size_t before = GC_get_total_bytes();
    for (int i = 0; i < 1000; i++) {
        cat_check(m, ws, &a);
        cat_check(m, ws, &b);
    }
    CU_ASSERT_EQUAL(GC_get_total_bytes(), before);
}

/* cat_co_may_pass on one execution: R x (e1) reads from the later W x
 * (e2) of its own thread, so po;rf has a cycle without any co; co and fr
 * are empty, as the enumerator leaves them.  A check whose operand grows
 * with co may prune every coherence choice; one that subtracts co, a
 * negated check or a flag may not (each fails with co empty here, yet some
 * co could make it pass).  Each answer is derived from that reading. */
static bool may_pass(const char *model, const exec *x, bool *co_reached)
{
    const char *errs;
    cat_model *m = load(model, &errs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    cat_workspace *ws = cat_workspace_new(m);
    cat_prepare(m, ws, x);
    return cat_co_may_pass(m, ws, x, co_reached);
}

static void test_co_may_pass(void)
{
    builder b;
    b_init(&b);
    b_event(&b, -1, 0, XS_W, XS_IW, -1);
    int r = b_event(&b, 0, 0, XS_R, -1);
    int w = b_event(&b, 0, 0, XS_W, -1);
    tx_add(&b.x, XR_RF, w, r);
    b_finish(&b);
    bool reached;
    /* SC: po | rf already cycles, and more co only adds edges */
    CU_ASSERT_FALSE(may_pass("acyclic po | rf | co | fr as sc\n", &b.x, &reached));
    CU_ASSERT_TRUE(reached);
    /* co in a subtracted operand: a larger co removes edges */
    CU_ASSERT_TRUE(may_pass("acyclic (po | rf | fr) \\ co as x\n", &b.x, &reached));
    /* a negated check wants co non-empty: a larger co may make it hold */
    CU_ASSERT_TRUE(may_pass("~empty co as some-co\n", &b.x, &reached));
    /* a non-prunable check beside a prunable one: its code is skipped, the
     * prunable one still decides */
    CU_ASSERT_FALSE(may_pass("let d = (po | rf) \\ co\nacyclic d as x\nacyclic po | rf | co | fr as sc\n", &b.x,
                             &reached));
    /* a flag constrains nothing */
    CU_ASSERT_TRUE(may_pass("flag ~empty (po | rf | co) as racy\n", &b.x, &reached));
    /* a check that does not depend on co fails before the co block: the
     * choices are rejected, and none would have been tried */
    CU_ASSERT_FALSE(may_pass("acyclic po | rf as static\nacyclic co as c\n", &b.x, &reached));
    CU_ASSERT_FALSE(reached);
    /* a let rec in the co block: left alone */
    CU_ASSERT_TRUE(may_pass("let rec r = po | rf | co | (r ; r)\nacyclic r as recursive\n", &b.x, &reached));
    /* the execution without the offending rf: nothing fails */
    builder ok;
    b_init(&ok);
    b_event(&ok, -1, 0, XS_W, XS_IW, -1);
    int w2 = b_event(&ok, 0, 0, XS_W, -1);
    int r2 = b_event(&ok, 0, 0, XS_R, -1);
    tx_add(&ok.x, XR_RF, w2, r2);
    b_finish(&ok);
    CU_ASSERT_TRUE(may_pass("acyclic po | rf | co | fr as sc\n", &ok.x, &reached));
}

/* What a model says of thin air: nothing (herd's models), allowed, or
 * forbidden; the last word counts, as for the other options. */
static void test_thin_air_option(void)
{
    const char *errs;
    cat_model *unsaid = load("acyclic po as x\n", &errs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(unsaid);
    CU_ASSERT_EQUAL(cat_model_thin_air(unsaid), CAT_THIN_AIR_UNSAID);
    cat_model *allowed = load("option thin-air = allowed\nacyclic po as x\n", &errs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(allowed);
    CU_ASSERT_EQUAL(cat_model_thin_air(allowed), CAT_THIN_AIR_ALLOWED);
    cat_model *forbidden = load("option thin-air = allowed\noption thin-air = forbidden\nacyclic po as x\n", &errs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(forbidden);
    CU_ASSERT_EQUAL(cat_model_thin_air(forbidden), CAT_THIN_AIR_FORBIDDEN);
}

void register_cat_tests(void)
{
    CU_pSuite s = CU_add_suite("cat", NULL, NULL);
    CU_add_test(s, "relation operators", test_relation_operators);
    CU_add_test(s, "option thin-air", test_thin_air_option);
    CU_add_test(s, "set operators", test_set_operators);
    CU_add_test(s, "products and brackets", test_products_and_brackets);
    CU_add_test(s, "domain and range", test_domain_range);
    CU_add_test(s, "precedence", test_precedence);
    CU_add_test(s, "let rec", test_let_rec);
    CU_add_test(s, "functions", test_functions);
    CU_add_test(s, "shadowing", test_shadowing);
    CU_add_test(s, "flags", test_flags);
    CU_add_test(s, "checks", test_checks);
    CU_add_test(s, "linearisations", test_linearisations);
    CU_add_test(s, "linearisations: flags, nesting", test_linearisations_count_and_flags);
    CU_add_test(s, "hoisted binding keeps its value", test_hoisted_binding_keeps_its_value);
    CU_add_test(s, "title and options", test_title_and_options);
    CU_add_test(s, "syntax errors", test_syntax_errors);
    CU_add_test(s, "type errors", test_type_errors);
    CU_add_test(s, "garbage input", test_garbage);
    CU_add_test(s, "include", test_include);
    CU_add_test(s, "PTX axioms", test_ptx_axioms);
    CU_add_test(s, "static code runs once", test_static_code_runs_once);
    CU_add_test(s, "cat_check does not allocate", test_no_allocation);
    CU_add_test(s, "co may pass: pruning only on checks that grow with co", test_co_may_pass);
}
