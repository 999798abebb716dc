/* test_protocol_limits.c: how far a protocol file may nest and chain, and
 * the errors an instance reports at the declaration that causes them
 * (docs/protocol-tables.md, "Limits").  Chains of binary operators of any
 * length are kept flat and evaluated by a loop: their values are checked
 * against values worked out by hand; nesting past PROTO_MAX_EXPR_DEPTH,
 * homes that divide by zero, a NUL byte, too many declarations or event
 * sources are errors at file:line:col. */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/read.h"
#include "proto_bfs.h"
#include "protocol/protocol.h"
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

/* One processor controller C with one row for weak loads whose actions
 * are `acts`; values 0..99 without wrap-around (a value outside disables
 * the row); K = 3.  Lines: 1 protocol, 2 const, 3 value, 4 controller C,
 * 5 states, 6 field, 7 controller M, 8 states, 9 field, 10 memory,
 * 11 table, 12 the row, 13 end. */
static void one_row(text *t, const char *acts_prefix)
{
    add(t, "protocol t\nconst K = 3\nvalue 0..99\ncontroller C per cu processor\nstates A B\n"
           "field val : value\ncontroller M shared\nstates V\nfield val : value init memory\n"
           "memory M.val\ntable C\n  * | load.weak | | %s", acts_prefix);
}

static void end_row(text *t)
{
    add(t, "; done | -\nend\n");
}

static const char one_load[] =
    "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n";

static litmus_test *test_of(const char *s)
{
    litmus_test *t = litmus_parse_text("t.litmus", s, strlen(s), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

/* The errors of parsing (and, when it parses, instantiating on
 * one_load) `t`, as a GC string; *p receives the protocol or NULL. */
static const char *errors_of(const text *t, protocol **p, proto_instance **in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *p = protocol_parse_buffer("t.proto", t->s, t->n, f);
    *in = *p ? proto_instantiate(*p, test_of(one_load), NULL, f) : NULL;
    fclose(f);
    const char *s = GC_STRDUP(buf ? buf : "");
    free(buf);
    return s;
}

static void expect_error(const text *t, const char *want)
{
    protocol *p;
    proto_instance *in;
    const char *got = errors_of(t, &p, &in);
    if (strcmp(got, want))
        fprintf(stderr, "\n  got:  %s  want: %s", got, want);
    CU_ASSERT_STRING_EQUAL(got, want);
    CU_ASSERT_PTR_NULL(in);
}

/* P0's r0 after the row fired from the initial state, -1 when it did not. */
static long r0_after(const text *t)
{
    protocol *p;
    proto_instance *in;
    const char *got = errors_of(t, &p, &in);
    CU_ASSERT_STRING_EQUAL(got, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    const nsi_model *m = proto_nsi(in);
    static proto_succs s;
    uint8_t init[PROTO_STEP_BYTES];
    m->initial(m->ctx, init);
    proto_successors(m, init, &s);
    if (s.n == 0)
        return -1;
    lit_value v[PROTO_BFS_MAX_OBS] = {0};
    proto_final_values(in, s.state[0], v);
    return (long)v[0];
}

static long value_of(const char *expr_prefix, const char *piece, int times, const char *expr_suffix)
{
    text t = {0};
    one_row(&t, "reg := ");
    add(&t, "%s", expr_prefix);
    repeat(&t, piece, times);
    add(&t, "%s", expr_suffix);
    end_row(&t);
    return r0_after(&t);
}

/* Long chains evaluate to what folding from the left gives. */
static void test_chains(void)
{
    /* 50 + 1 - 1 repeated: 50 */
    CU_ASSERT_EQUAL(value_of("50", " + 1 - 1", 50000, ""), 50);
    /* 7 - 1 - 1 - 1 - 1 (left to right): 3, not 7 - (1 - (1 - ...)) = 7 */
    CU_ASSERT_EQUAL(value_of("7", " - 1", 4, ""), 3);
    /* 2 * 3 + 4 * 5 - 6 / 2: 6 + 20 - 3 = 23 */
    CU_ASSERT_EQUAL(value_of("2 * 3 + 4 * 5 - 6 / 2", "", 0, ""), 23);
    /* 100000 / 10 / 10 / 10 / 10 = 10 */
    CU_ASSERT_EQUAL(value_of("100000", " / 10", 4, ""), 10);
    /* 1 == 1 && 2 < 3 || 0: (1 && 1) || 0 = 1, times 9 */
    CU_ASSERT_EQUAL(value_of("cond(1 == 1 && 2 < 3 || 0, 9, 4)", "", 0, ""), 9);
    /* && and || decide from the left: the division by zero on their right
     * is never evaluated */
    CU_ASSERT_EQUAL(value_of("cond(0 && 5 / 0 == 1 && 1, 9, 4)", "", 0, ""), 4);
    CU_ASSERT_EQUAL(value_of("cond(1 || 5 / 0 == 1 || 0, 9, 4)", "", 0, ""), 9);
    /* a chain of 100,000 comparisons: ((1 == 1) == 1) == ... stays 1 */
    CU_ASSERT_EQUAL(value_of("1", " == 1", 100000, ""), 1);
}

/* An intermediate result beyond 64 bits disables the row, like a division
 * by zero, even when the final one would fit.  A = 999999999^2 is about
 * 1.0e18; 9A fits below 2^63 (9.22e18), 10A does not. */
static void test_overflow(void)
{
    CU_ASSERT_EQUAL(value_of("999999999 * 999999999 * 999999999 * 0", "", 0, ""), -1);
    CU_ASSERT_EQUAL(value_of("999999999 * 999999999 * 9 - 999999999 * 999999999 * 9 + 5", "", 0, ""), 5);
    CU_ASSERT_EQUAL(value_of("999999999 * 999999999 * 10 * 0 + 1", "", 0, ""), -1);
    CU_ASSERT_EQUAL(value_of("(0 - 999999999 * 999999999 * 9 - 999999999 * 999999999) * 0 + 1", "", 0, ""), -1);
    CU_ASSERT_EQUAL(value_of("-(0 - 999999999 * 999999999 * 9) * 0 + 2", "", 0, ""), 2);
}

/* The row's expression starts at line 12, column 28.  It is level 1; each
 * parenthesis, call or prefix operator opens one more: 255 of them nest,
 * the 256th is refused, at the token it would open (a parenthesis or a
 * call: the one after it; a prefix operator: itself). */
static void test_nesting(void)
{
    text t = {0};
    one_row(&t, "reg := ");
    repeat(&t, "(", 255);
    add(&t, "7");
    repeat(&t, ")", 255);
    end_row(&t);
    CU_ASSERT_EQUAL(r0_after(&t), 7);
    text bad = {0};
    one_row(&bad, "reg := ");
    repeat(&bad, "(", 256);
    add(&bad, "7");
    repeat(&bad, ")", 256);
    end_row(&bad);
    expect_error(&bad, "t.proto:12:284: error: expression nested too deeply (more than 256 parentheses, "
                       "calls or prefix operators)\n");

    /* 255 times !: !7 = 0; 254 times -: 7 */
    CU_ASSERT_EQUAL(value_of("", "!", 255, "7"), 0);
    CU_ASSERT_EQUAL(value_of("", "-", 254, "7"), 7);
    text nots = {0};
    one_row(&nots, "reg := ");
    repeat(&nots, "!", 100000);
    add(&nots, "7");
    end_row(&nots);
    expect_error(&nots, "t.proto:12:283: error: expression nested too deeply (more than 256 parentheses, "
                        "calls or prefix operators)\n");

    text conds = {0};
    one_row(&conds, "reg := ");
    repeat(&conds, "cond(1, ", 255);
    add(&conds, "7");
    repeat(&conds, ", 0)", 255);
    end_row(&conds);
    CU_ASSERT_EQUAL(r0_after(&conds), 7);
    text deep = {0};
    one_row(&deep, "reg := ");
    repeat(&deep, "cond(1, ", 256);
    add(&deep, "7");
    repeat(&deep, ", 0)", 256);
    end_row(&deep);
    /* the 256th call's first argument, at 28 + 255 * 8 + 5 */
    expect_error(&deep, "t.proto:12:2073: error: expression nested too deeply (more than 256 parentheses, "
                        "calls or prefix operators)\n");
}

/* A NUL byte is an error at its position, not the end of the file. */
static void test_nul(void)
{
    static const char with_nul[] = "protocol t\nvalue\0 0..1\n";
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NULL(protocol_parse_buffer("t.proto", with_nul, sizeof with_nul - 1, f));
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "t.proto:2:6: error: NUL byte in a protocol file\n");
    free(buf);
}

/* A home that divides by zero for some location is an error at its
 * declaration when the protocol is bound to a test (it used to disable
 * every row that sends there, and the search reported a deadlock). */
static void test_homes(void)
{
    text t = {0};
    add(&t, "protocol t\nconst K = 3\nvalue 0..99\nhome h = addr %% (K - 3)\n"
            "controller C per cu processor\nstates A B\nfield val : value\ncontroller M shared\n"
            "states V\nfield val : value init memory\nmemory M.val\ntable C\n  * | load.weak | | reg := 1; done | -\n"
            "end\n");
    expect_error(&t, "t.proto:4:6: error: home h of location x (address 0) divides by zero or overflows\n");

    /* a memory placed at a home must be one of its controller's instances */
    text far = {0};
    add(&far, "protocol t\nvalue 0..99\nhome h = addr + 5\ncontroller C per cu processor\nstates A B\n"
              "field val : value\ncontroller M sliced 2\nstates V\nfield val : value init memory\n"
              "memory M.val at h\ntable C\n  * | load.weak | | reg := 1; done | -\nend\n");
    expect_error(&far, "t.proto:3:6: error: home h of location x (address 0) is 5, but memory controller M "
                       "has instances 0..1 only\n");

    /* a home is a function of addr and constants */
    text st = {0};
    add(&st, "protocol t\nvalue 0..99\nhome h = addr + state\n");
    expect_error(&st, "t.proto:3:17: error: a home is a function of addr and constants: 'state' has no "
                      "value there\n");
}

/* Fixed tables: the 65th message, controller, invariant or internal event
 * and the 9th field of a message are refused where they are declared. */
static void test_counts(void)
{
    text msgs = {0};
    add(&msgs, "protocol t\nvalue 0..1\n");
    for (int i = 0; i < 65; i++)
        add(&msgs, "message M%d(addr)\n", i);
    expect_error(&msgs, "t.proto:67:9: error: too many messages (at most 64)\n");

    text fields = {0};
    add(&fields, "protocol t\nvalue 0..1\nmessage M(addr, a, b, c, d, e, f, g, h)\n");
    expect_error(&fields, "t.proto:3:38: error: too many fields (at most 8, addr included)\n");

    text ctrls = {0};
    add(&ctrls, "protocol t\nvalue 0..1\n");
    for (int i = 0; i < 65; i++)
        add(&ctrls, "controller C%d shared\n", i);
    expect_error(&ctrls, "t.proto:67:12: error: too many controllers (at most 64)\n");

    text invs = {0};
    add(&invs, "protocol t\nvalue 0..1\ncontroller C per cu processor\nstates A\n");
    for (int i = 0; i < 65; i++)
        add(&invs, "invariant i%d C : 1\n", i);
    expect_error(&invs, "t.proto:69:11: error: too many invariants (at most 64)\n");

    text events = {0};
    add(&events, "protocol t\nvalue 0..1\ncontroller C per cu processor\nstates A\ntable C\n");
    for (int i = 0; i < 65; i++)
        add(&events, "  A | e%d | | | -\n", i);
    expect_error(&events, "t.proto:70:7: error: too many internal events in the table of C (at most 64)\n");
}

/* Seventeen controllers of 64 slices with 64 internal events each, on one
 * location: 17 * 64 * 64 = 69,632 internal event sources, plus the one
 * thread: more than a search can number (65,535); an error at the
 * protocol's declaration instead of "the search could not start". */
static void test_event_sources(void)
{
    text t = {0};
    add(&t, "protocol t\nvalue 0..99\ncontroller C per cu processor\nstates A B\nfield val : value\n"
            "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n");
    for (int c = 0; c < 17; c++)
        add(&t, "controller S%d sliced 64\nstates V\n", c);
    add(&t, "table C\n  * | load.weak | | reg := 1; done | -\nend\n");
    for (int c = 0; c < 17; c++) {
        add(&t, "table S%d\n", c);
        for (int e = 0; e < 64; e++)
            add(&t, "  V | e%d | | | -\n", e);
        add(&t, "end\n");
    }
    expect_error(&t, "t.proto:1:1: error: protocol t on t.litmus has 69633 event sources (threads, channel "
                     "slots, internal events of each line), more than 65535\n");
}

void register_protocol_limits_tests(void)
{
    CU_pSuite s = CU_add_suite("protocol limits", NULL, NULL);
    CU_add_test(s, "chains fold from the left, any length", test_chains);
    CU_add_test(s, "overflow disables the row", test_overflow);
    CU_add_test(s, "nesting of parentheses, calls, prefixes", test_nesting);
    CU_add_test(s, "a NUL byte, at its position", test_nul);
    CU_add_test(s, "homes checked for every location", test_homes);
    CU_add_test(s, "fixed tables: messages, fields, controllers...", test_counts);
    CU_add_test(s, "more event sources than a search numbers", test_event_sources);
}
