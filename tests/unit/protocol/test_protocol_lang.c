/* test_protocol_lang.c: unit tests of the protocol table language's newer
 * features: bits, array and fifo variables and fields, arithmetic and the
 * aggregate queries, the topology levels (per cu, per gpu, shared) with
 * routed sends, address homes and a memory placed per GPU, and variants
 * (`extends` with row changes).  Each test runs a tiny protocol written
 * here on a tiny litmus test and checks exact values that the language
 * defines: registers read, state counts, packed state sizes, described
 * steps, error messages with their positions.  A small breadth-first search
 * lives here, as in test_protocol.c, so that these tests do not depend on
 * the search back end. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "litmus/read.h"
#include "proto_bfs.h"
#include "protocol/protocol.h"
#include "unit_suites.h"

#define MAX_BYTES 512   /* packed states of the small protocols built here */

/* ---- building protocols and tests from text ------------------------------------ */
static protocol *parse(const char *text)
{
    protocol *p = protocol_parse_text("t.proto", text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return p;
}

static litmus_test *litmus(const char *text)
{
    litmus_test *t = litmus_parse_text("t.litmus", text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

static proto_instance *instance_of(const protocol *p, const char *litmus_text, const proto_options *o)
{
    proto_instance *in = proto_instantiate(p, litmus(litmus_text), o, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return in;
}

static proto_instance *instance_text(const char *proto_text, const char *litmus_text)
{
    return instance_of(parse(proto_text), litmus_text, NULL);
}

/* Line and column (1-based) of the character `at` points to in `text`. */
static void position_at(const char *text, const char *at, int *line, int *col)
{
    const char *bol = text;
    *line = 1;
    for (const char *c = text; c < at; c++)
        if (*c == '\n') {
            (*line)++;
            bol = c + 1;
        }
    *col = (int)(at - bol) + 1;
}

/* Parsing `text` as t.proto fails with exactly one line: the error `msg`
 * at `at`, a pointer into `text`. */
static void expect_error_ptr(const char *text, const char *at, const char *msg)
{
    char buf[512] = {0}, want[512];
    int line, col;
    position_at(text, at, &line, &col);
    snprintf(want, sizeof want, "t.proto:%d:%d: error: %s\n", line, col, msg);
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(protocol_parse_text("t.proto", text, err));
    fclose(err);
    if (strcmp(buf, want))
        fprintf(stderr, "\nwanted '%s', got '%s'\n", want, buf);
    CU_ASSERT_STRING_EQUAL(buf, want);
}

/* The same, at the first occurrence of `needle` in `text`, plus `skip`
 * characters. */
static void expect_error_at(const char *text, const char *needle, int skip, const char *msg)
{
    const char *at = strstr(text, needle);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    expect_error_ptr(text, at + skip, msg);
}

/* Instantiating the parsed `text` on `litmus_text` fails with exactly `want`. */
static void expect_instance_error(const char *text, const char *litmus_text, const char *want)
{
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(proto_instantiate(parse(text), litmus(litmus_text), NULL, err));
    fclose(err);
    if (strcmp(buf, want))
        fprintf(stderr, "\nwanted '%s', got '%s'\n", want, buf);
    CU_ASSERT_STRING_EQUAL(buf, want);
}

/* ---- one row, fired once ---------------------------------------------------------- */
/* A one-CU protocol whose processor controller C has the declarations
 * `decls` (after its line field `val`) and one row for weak loads, with
 * the actions `acts`.  Values are 0..99 and do not wrap, so a result
 * outside 0..99 disables the row; K is a constant (3). */
#define ONE_ROW_PROTO \
    "protocol t\n" \
    "const K = 3\n" \
    "value 0..99\n" \
    "controller C per cu processor\n" \
    "states A B\n" \
    "field val : value\n" \
    "%s\n" \
    "controller M shared\n" \
    "states V\n" \
    "field val : value init memory\n" \
    "memory M.val\n" \
    "table C\n" \
    "  * | load.weak | | %s | -\n" \
    "end\n"

static const char *const ONE_LOAD =
    "PTX T\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n";

/* P0's r0 after the only enabled step from the initial state of `in`, or
 * -1 when no step is enabled. */
static long first_r0(proto_instance *in)
{
    static proto_succs s;
    const nsi_model *m = proto_nsi(in);
    uint8_t init[MAX_BYTES];
    m->initial(m->ctx, init);
    proto_successors(m, init, &s);
    CU_ASSERT(s.n <= 1);
    if (s.n == 0)
        return -1;
    lit_value v[PROTO_BFS_MAX_OBS] = {0};     /* the first observed value is P0:r0 */
    proto_final_values(in, s.state[0], v);
    return (long)v[0];
}

/* Fires the weak load of ONE_LOAD under ONE_ROW_PROTO(decls, acts): P0's
 * r0 afterwards, or -1 when the row is not enabled. */
static long one_shot(const char *decls, const char *acts)
{
    char text[4096];
    snprintf(text, sizeof text, ONE_ROW_PROTO, decls, acts);
    return first_r0(instance_text(text, ONE_LOAD));
}

/* proto_state_bits of ONE_ROW_PROTO(decls, "done") on `litmus_text`. */
static int bits_with(const char *decls, const char *litmus_text)
{
    char text[4096];
    snprintf(text, sizeof text, ONE_ROW_PROTO, decls, "done");
    return proto_state_bits(instance_text(text, litmus_text));
}

/* ---- described steps ------------------------------------------------------------- */

static int count_successors(const nsi_model *m, const uint8_t *state)
{
    static proto_succs s;
    proto_successors(m, state, &s);
    return s.n;
}

/* ---- 1. types, expressions, aggregate actions ------------------------------------------- */
/* Bounds CONST+N and CONST-N (K = 3): a value leaving the range disables
 * the row. */
static void test_bounds(void)
{
    CU_ASSERT_EQUAL(one_shot("var a : 0..K+2", "a := 5; reg := a; done"), 5);
    CU_ASSERT_EQUAL(one_shot("var a : 0..K+2", "a := 6; reg := a; done"), -1);
    CU_ASSERT_EQUAL(one_shot("var a : K-1..K", "a := 2; reg := a; done"), 2);
    CU_ASSERT_EQUAL(one_shot("var a : K-1..K", "a := 1; reg := a; done"), -1);
    /* a variable starts at the low end of its range */
    CU_ASSERT_EQUAL(one_shot("var a : K-1..K", "reg := a; done"), 2);
    /* NADDR = 2 (x, y): a fifo of addresses holds 0..1 */
    CU_ASSERT_EQUAL(one_shot("var q : fifo 3 of 0..NADDR-1", "push q 1; reg := q[0]; done"), 1);
    CU_ASSERT_EQUAL(one_shot("var q : fifo 3 of 0..NADDR-1", "push q 2; reg := 7; done"), -1);
}

static void test_arithmetic(void)
{
    CU_ASSERT_EQUAL(one_shot("", "reg := 2 + 3 * 4; done"), 14);
    CU_ASSERT_EQUAL(one_shot("", "reg := (2 + 3) * 4; done"), 20);
    CU_ASSERT_EQUAL(one_shot("", "reg := 20 / 3 % 4; done"), 2);     /* left to right */
    CU_ASSERT_EQUAL(one_shot("", "reg := 7 - 2 - 1; done"), 4);
    CU_ASSERT_EQUAL(one_shot("", "reg := 10 + 0 - 7 / 2; done"), 7); /* division truncates */
    CU_ASSERT_EQUAL(one_shot("", "reg := -7 % 3; done"), 2);         /* modulo is not negative */
    CU_ASSERT_EQUAL(one_shot("", "reg := K * K % 5; done"), 4);
    /* unary minus binds tighter than any binary operator */
    CU_ASSERT_EQUAL(one_shot("", "reg := -3 + 10; done"), 7);
    CU_ASSERT_EQUAL(one_shot("", "reg := 5 + -2; done"), 3);
    CU_ASSERT_EQUAL(one_shot("", "reg := -(2 - 5); done"), 3);
    CU_ASSERT_EQUAL(one_shot("", "reg := -2; done"), -1);            /* outside 0..99 */
    /* division and modulo by zero disable the row */
    CU_ASSERT_EQUAL(one_shot("", "reg := 5 / (K - 3); done"), -1);
    CU_ASSERT_EQUAL(one_shot("", "reg := 5 % (K - 3); done"), -1);
    CU_ASSERT_EQUAL(one_shot("var a : 0..9", "a := 1 / 0; reg := 1; done"), -1);
}

static void test_cond(void)
{
    CU_ASSERT_EQUAL(one_shot("", "reg := cond(1 == 1, 4, 9); done"), 4);
    CU_ASSERT_EQUAL(one_shot("", "reg := cond(K > 5, 4, 9); done"), 9);
    CU_ASSERT_EQUAL(one_shot("", "reg := 1 + cond(0, 1, 2) * 10; done"), 21);
    /* only the chosen branch is evaluated: the other may divide by zero */
    CU_ASSERT_EQUAL(one_shot("", "reg := cond(1, 5, 1 / 0); done"), 5);
    CU_ASSERT_EQUAL(one_shot("", "reg := cond(0, 1 / 0, 6); done"), 6);
    CU_ASSERT_EQUAL(one_shot("", "reg := cond(1, 1 / 0, 6); done"), -1);
}

/* A fifo: push appends, pop removes the head and shifts, [i] counts from
 * the head, len is the current length, has looks at the queued elements
 * only, clear empties it. */
static void test_fifo(void)
{
    const char *q = "var q : fifo 3 of 0..9";
    CU_ASSERT_EQUAL(one_shot(q, "push q 4; push q 7; reg := q[0] * 10 + q[1]; done"), 47);
    CU_ASSERT_EQUAL(one_shot(q, "push q 4; push q 7; pop q; reg := q[0] * 10 + len(q); done"), 71);
    CU_ASSERT_EQUAL(one_shot(q, "push q 4; push q 7; push q 9; pop q; pop q; reg := q[0] + 10 * len(q); done"), 19);
    CU_ASSERT_EQUAL(one_shot(q, "reg := len(q); done"), 0);
    CU_ASSERT_EQUAL(one_shot(q, "push q 1; push q 2; push q 3; reg := len(q); done"), 3);
    /* full: a fourth push is not enabled; empty: pop is not */
    CU_ASSERT_EQUAL(one_shot(q, "push q 1; push q 2; push q 3; push q 4; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot(q, "pop q; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot(q, "push q 5; pop q; pop q; reg := 1; done"), -1);
    /* an element past the length is out of range, though within capacity */
    CU_ASSERT_EQUAL(one_shot(q, "push q 1; reg := q[1]; done"), -1);
    CU_ASSERT_EQUAL(one_shot(q, "push q 1; reg := q[0 - 1]; done"), -1);
    /* has: the freed slots hold 0 but are not elements */
    CU_ASSERT_EQUAL(one_shot(q, "reg := has(q, 0); done"), 0);
    CU_ASSERT_EQUAL(one_shot(q, "push q 7; reg := has(q, 7) * 10 + has(q, 0); done"), 10);
    CU_ASSERT_EQUAL(one_shot(q, "push q 7; pop q; reg := has(q, 7); done"), 0);
    CU_ASSERT_EQUAL(one_shot(q, "push q 4; push q 7; clear q; push q 2; reg := len(q) * 10 + q[0]; done"), 12);
    /* pushing a value outside the element range disables the row */
    CU_ASSERT_EQUAL(one_shot(q, "push q 10; reg := 1; done"), -1);
}

/* bits: [i] reads and writes one bit, len counts the set bits, has(b, i)
 * is bit i (false outside the vector); an index out of range disables. */
static void test_bits(void)
{
    const char *b = "var b : bits 4";
    CU_ASSERT_EQUAL(one_shot(b, "b[1] := 1; b[3] := 1; reg := len(b) * 10 + has(b, 3); done"), 21);
    CU_ASSERT_EQUAL(one_shot(b, "b[1] := 1; reg := has(b, 2) * 10 + b[1]; done"), 1);
    CU_ASSERT_EQUAL(one_shot(b, "b[1] := 1; reg := has(b, 9) + has(b, 0 - 1); done"), 0);
    CU_ASSERT_EQUAL(one_shot(b, "b[2] := 1; b[2] := 0; reg := len(b); done"), 0);
    CU_ASSERT_EQUAL(one_shot(b, "b[0] := 1; b[1] := 1; clear b; reg := len(b); done"), 0);
    CU_ASSERT_EQUAL(one_shot(b, "b[4] := 1; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot(b, "reg := b[4]; done"), -1);
    CU_ASSERT_EQUAL(one_shot(b, "reg := b[0 - 1]; done"), -1);
    CU_ASSERT_EQUAL(one_shot(b, "b[0] := 2; reg := 1; done"), -1);   /* a bit is 0..1 */
    /* the index is any expression */
    CU_ASSERT_EQUAL(one_shot(b, "b[K] := 1; reg := b[3] + len(b); done"), 2);
    CU_ASSERT_EQUAL(one_shot("var b : bits NCU", "b[cu] := 1; reg := len(b) * 10 + b[0]; done"), 11);
}

/* array: len is its size, has looks at every element, [i] += / -= */
static void test_array(void)
{
    const char *t = "var t : array 4 of value";
    CU_ASSERT_EQUAL(one_shot(t, "t[2] := 5; reg := len(t) * 10 + t[2]; done"), 45);
    CU_ASSERT_EQUAL(one_shot(t, "t[2] := 5; reg := has(t, 5) * 10 + has(t, 0); done"), 11);
    CU_ASSERT_EQUAL(one_shot(t, "reg := has(t, 6); done"), 0);
    CU_ASSERT_EQUAL(one_shot(t, "t[1] += 3; t[1] -= 1; reg := t[1]; done"), 2);
    CU_ASSERT_EQUAL(one_shot(t, "t[1] -= 1; reg := 1; done"), -1);    /* below 0 */
    CU_ASSERT_EQUAL(one_shot(t, "t[4] := 1; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot(t, "t[0] := 8; t[3] := 9; clear t; reg := t[0] + t[3] + len(t); done"), 4);
    CU_ASSERT_EQUAL(one_shot("var t : array 2 of 0..K", "t[0] := 4; reg := 1; done"), -1);
}

/* Line fields of aggregate types (one per line): element assignment,
 * +=, -= on a field (and on an element); invalidate resets them unless
 * they are `keep`. */
static void test_line_fields(void)
{
    CU_ASSERT_EQUAL(one_shot("field s : bits 2", "line.s[1] := 1; reg := line.s[1] + 10 * len(line.s); done"), 11);
    CU_ASSERT_EQUAL(one_shot("field s : bits 2", "line.s[2] := 1; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot("field n : 0..9", "line.n += 4; line.n -= 1; reg := line.n; done"), 3);
    CU_ASSERT_EQUAL(one_shot("field n : 0..9", "line.n -= 1; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot("field n : 0..9", "line.n += 10; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot("field a : array 3 of 0..9", "line.a[2] += 6; line.a[2] -= 2; reg := line.a[2]; done"), 4);
    CU_ASSERT_EQUAL(one_shot("field a : array 3 of 0..9", "line.a[3] += 1; reg := 1; done"), -1);
    CU_ASSERT_EQUAL(one_shot("field q : fifo 2 of 0..9", "push line.q 3; push line.q 8; pop line.q; reg := line.q[0]; done"), 8);
    CU_ASSERT_EQUAL(one_shot("field s : bits 2\nfield q : fifo 2 of 0..9 keep",
                             "line.s[0] := 1; push line.q 7; invalidate; reg := len(line.s) * 10 + line.q[0]; done"), 7);
    CU_ASSERT_EQUAL(one_shot("field q : fifo 2 of 0..9", "push line.q 7; invalidate; reg := len(line.q); done"), 0);
}

/* cu and gpu: the context's CU and GPU.  A thread's CU is its (gpu, cta)
 * pair, numbered in order of first use; so are the GPUs (gpu 3 is GPU 0
 * here, gpu 1 is GPU 1).  NCU and NGPU count them. */
static void test_cu_gpu(void)
{
    const char *proto = "protocol t\nvalue 0..99\n"
                        "controller C per cu processor\nstates A\nfield val : value\n"
                        "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
                        "table C\n"
                        "  * | load.weak        | | reg := cu * 10 + gpu; done | -\n"
                        "  * | load.relaxed.cta | | reg := NCU * 10 + NGPU; done | -\n"
                        "end\n";
    const char *test = "PTX T\n{\nx=0;\n}\n"
                       " P0@cta 0,gpu 3 | P1@cta 1,gpu 3 | P2@cta 0,gpu 1 | P3@cta 0,gpu 3 ;\n"
                       " ld.weak r0, x  | ld.weak r0, x  | ld.weak r0, x  | ld.weak r0, x  ;\n"
                       " ld.relaxed.cta r1, x | ld.relaxed.cta r1, x | ld.relaxed.cta r1, x | ld.relaxed.cta r1, x ;\n"
                       "exists (P0:r0 == 0 /\\ P1:r0 == 0 /\\ P2:r0 == 0 /\\ P3:r0 == 0 /\\ P0:r1 == 0)\n";
    proto_bfs b = {0};
    proto_bfs_explore(&b, instance_text(proto, test));
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    /* P0 and P3 share CU 0 */
    lit_value want[PROTO_BFS_MAX_OBS] = {0, 10, 21, 0, 32};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    proto_bfs_free(&b);
}

/* Packed sizes (ONE_ROW_PROTO on 2 CUs and 2 locations, values 0..99: 7
 * bits): a fifo of N is a count (0..N) and N elements; bits N is N 1-bit
 * slots; an array N elements; variables once per CU, fields once per line. */
static void test_state_bits(void)
{
    const char *two = "PTX T\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                      " ld.weak r0, x  | ld.weak r0, y  ;\nexists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
    int base = bits_with("", two);
    CU_ASSERT_EQUAL(bits_with("var q : fifo 3 of 0..NADDR-1", two) - base, 2 * (2 + 3 * 1));
    CU_ASSERT_EQUAL(bits_with("var b : bits NCU", two) - base, 2 * 2);
    CU_ASSERT_EQUAL(bits_with("var t : array 4 of value", two) - base, 2 * 4 * 7);
    CU_ASSERT_EQUAL(bits_with("var q : fifo 1 of 0..0", two) - base, 2 * 1);
    CU_ASSERT_EQUAL(bits_with("field s : bits 2", two) - base, 2 * 2 * 2);
    CU_ASSERT_EQUAL(bits_with("field f : fifo 2 of 0..2", two) - base, 2 * 2 * (2 + 2 * 2));
    CU_ASSERT_EQUAL(bits_with("var n : 0..K+4", two) - base, 2 * 3);
}

/* Canonical fifos: a pop clears the freed slot, so the contents of a fifo
 * of 2 over 0..1 are its 1 + 2 + 4 = 7 sequences; times the thread's two
 * positions, 14 states.  Transitions: 7 loads, and in each of the 14
 * states a push of 0 and of 1 when not full (3 contents), a pop when not
 * empty (6 contents): 7 + 2 * (3 * 2 + 6) = 31. */
static void test_fifo_canonical(void)
{
    const char *proto = "protocol t\nvalue 0..1\n"
                        "controller C per cu processor\nstates A\nfield val : value\nvar q : fifo 2 of 0..1\n"
                        "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
                        "table C\n"
                        "  * | load.weak | | reg := line.val; done | -\n"
                        "  * | put0      | | push q 0 | -\n"
                        "  * | put1      | | push q 1 | -\n"
                        "  * | take      | | pop q    | -\n"
                        "end\n";
    const char *test = "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n";
    proto_bfs b = {0};
    CU_ASSERT_EQUAL(proto_bfs_explore(&b, instance_text(proto, test)), 14);
    CU_ASSERT_EQUAL(b.transitions, 31);
    CU_ASSERT_EQUAL(b.finals, 7);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    proto_bfs_free(&b);
}

/* Parse errors of the aggregate operations, at the offending token. */
static void test_type_errors(void)
{
    const char *head = "value 0..9\ncontroller C per cu processor\nstates A\n"
                       "var n : 0..3\nvar b : bits 2\nvar q : fifo 2 of 0..3\nvar t : array 2 of 0..3\n"
                       "field s : bits 2\nmessage Inv(addr)\nchannel inv per cu from C to C fifo capacity 1\n"
                       "table C\n  * | load.weak | | ";
    static const struct { const char *acts, *at, *msg; } cases[] = {
        {"push n 1", "n 1", "push needs a bits, array or fifo variable or field"},
        {"push b 1", "b 1", "'push' needs a fifo variable or field"},
        {"pop t", "t |", "'pop' needs a fifo variable or field"},
        {"clear n", "n |", "clear needs a bits, array or fifo variable or field"},
        {"reg := n[0]", "n[", "'n' is not a bits, array or fifo variable or field"},
        {"q[0] := 1", "q[", "'q' is not a bits or array variable or field"},
        {"b := 1", "b :=", "'b' is not a scalar: assign an element, or clear it"},
        {"line.s := 1", "s :=", "'s' is not a scalar: assign an element, or clear it"},
        {"reg := len(n)", "n)", "len needs a bits, array or fifo variable or field"},
        {"reg := has(n, 1)", "n,", "has needs a bits, array or fifo variable or field"},
        {"send inv[each t] Inv(addr)", "t]", "'each' needs a bits variable or field"},
        {"send inv[each n] Inv(addr)", "n]", "'each' needs a bits, array or fifo variable or field"},
        {"reg := nohome(addr)", "nohome", "unknown name 'nohome'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s | -\nend\n", head, cases[i].acts);
        /* the marker is searched in the row, past the declarations */
        const char *row = strstr(text, "table C");
        CU_ASSERT_PTR_NOT_NULL_FATAL(row);
        const char *at = strstr(row, cases[i].at);
        CU_ASSERT_PTR_NOT_NULL_FATAL(at);
        expect_error_ptr(text, at, cases[i].msg);
    }
}

static void test_declaration_errors(void)
{
    const char *c = "value 0..9\nconst K = 2\ncontroller C per cu processor\nstates A\n";
    char text[512];
    snprintf(text, sizeof text, "%svar q : fifo 2 0..1\n", c);
    expect_error_at(text, "0..1", 0, "expected 'of', found '0'");
    snprintf(text, sizeof text, "%svar b : bits\n", c);
    expect_error_at(text, "bits\n", 4, "expected a number or a constant, found 'newline'");
    snprintf(text, sizeof text, "%svar a : 0..NOPE\n", c);
    expect_error_at(text, "NOPE", 0, "unknown constant 'NOPE'");
    snprintf(text, sizeof text, "%svar a : 0..K+x\n", c);
    expect_error_at(text, "x\n", 0, "expected a number, found 'x'");
    snprintf(text, sizeof text, "%sfield s : bits 2 init memory\n", c);
    expect_error_at(text, "s :", 0, "only a scalar field can be initialised from memory");
    snprintf(text, sizeof text, "%svar b : bits 2\nvar b : 0..1\n", c);
    expect_error_at(text, "b : 0", 0, "variable 'b' declared twice");
}

/* A guard written with C's slip, `n = 0`, names '==' at the '='. */
static void test_guard_assign(void)
{
    const char *text = "value 0..9\ncontroller C per cu processor\nstates A\nvar n : 0..3\n"
                       "table C\n  * | load.weak | n = 0 | done | -\nend\n";
    expect_error_at(text, "= 0", 0, "a guard is a condition: write '==' to compare ('=' assigns nothing here)");
}

/* Sizes are checked when the constants are known: 1..64 elements, a
 * non-empty range. */
static void test_size_errors(void)
{
    char text[4096];
    snprintf(text, sizeof text, ONE_ROW_PROTO, "var b : bits K-3", "done");
    expect_instance_error(text, ONE_LOAD, "t.proto:7:5: error: variable C.b: its length is not in 1..64\n");
    snprintf(text, sizeof text, ONE_ROW_PROTO, "field t : array 65 of 0..1", "done");
    expect_instance_error(text, ONE_LOAD, "t.proto:7:7: error: field C.t: its length is not in 1..64\n");
    snprintf(text, sizeof text, ONE_ROW_PROTO, "var q : fifo 2 of K..1", "done");
    expect_instance_error(text, ONE_LOAD, "t.proto:7:5: error: variable C.q: its range is empty\n");
}

/* ---- 2. topology ------------------------------------------------------------------------- */
/* Instances per level: a variable of 2 bits adds NCU (3), NGPU (2) or 1
 * copies; a channel instance (count 0..1, one message: type 0..1, the
 * thread slot and addr one value each) 2 bits per CU, GPU or system. */
#define LEVELS_PROTO \
    "protocol t\nvalue 0..1\nmessage Req(addr)\n" \
    "controller L1 per cu processor\nstates I\nfield val : value\n%s\n" \
    "controller G per gpu\nstates I\n%s\n" \
    "controller S shared\nstates V\nfield val : value init memory\n%s\nmemory S.val\n" \
    "%s\n" \
    "table L1\n  * | load.weak | | done | -\nend\n"

static const char *const THREE_CUS_TWO_GPUS =
    "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 0,gpu 1 ;\n"
    " ld.weak r0, x  | ld.weak r0, x  | ld.weak r0, x  ;\nexists (P0:r0 == 0 /\\ P1:r0 == 0 /\\ P2:r0 == 0)\n";

static int level_bits(const char *l1, const char *g, const char *s, const char *chan)
{
    char text[2048];
    snprintf(text, sizeof text, LEVELS_PROTO, l1, g, s, chan);
    return proto_state_bits(instance_text(text, THREE_CUS_TWO_GPUS));
}

static void test_level_sizes(void)
{
    const char *n = "var n : 0..3";
    int base = level_bits("", "", "", "");
    CU_ASSERT_EQUAL(level_bits(n, "", "", "") - base, 3 * 2);
    CU_ASSERT_EQUAL(level_bits("", n, "", "") - base, 2 * 2);
    CU_ASSERT_EQUAL(level_bits("", "", n, "") - base, 1 * 2);
    CU_ASSERT_EQUAL(level_bits("", "", "", "channel c per cu from L1 to G fifo capacity 1") - base, 3 * 2);
    CU_ASSERT_EQUAL(level_bits("", "", "", "channel c per gpu from L1 to G fifo capacity 1") - base, 2 * 2);
    CU_ASSERT_EQUAL(level_bits("", "", "", "channel c shared from L1 to S fifo capacity 1") - base, 1 * 2);
}

static void test_level_errors(void)
{
    const char *c = "value 0..1\ncontroller L1 per cu processor\nstates I\n"
                    "controller G per gpu\nstates I\ncontroller S shared\nstates V\n";
    char text[512];
    snprintf(text, sizeof text, "%schannel c per gpu from G to L1 fifo capacity 1\n", c);
    expect_error_at(text, "L1 fifo", 0, "a channel per gpu cannot lead to a controller per cu");
    snprintf(text, sizeof text, "%schannel c shared from S to G fifo capacity 1\n", c);
    expect_error_at(text, "G fifo", 0, "a channel shared cannot lead to a controller per gpu");
    snprintf(text, sizeof text, "%schannel c shared from S to L1 fifo capacity 1\n", c);
    expect_error_at(text, "L1 fifo", 0, "a channel shared cannot lead to a controller per cu");
    snprintf(text, sizeof text, "value 0..1\ncontroller P per gpu processor\n");
    expect_error_at(text, "P per", 0, "the processor controller must be 'per cu'");
    snprintf(text, sizeof text, "%scontroller P per cu processor\n", c);
    expect_error_at(text, "P per", 0, "only one controller takes processor events");
    snprintf(text, sizeof text, "%scontroller N per node\n", c);
    expect_error_at(text, "node", 0, "expected 'cu' or 'gpu', found 'node'");
}

/* Sliced controllers and channels: a sliced channel leads only to a
 * controller with the same slices; a slice count outside 1..64 is refused
 * when the protocol is bound to a test. */
static void test_slice_errors(void)
{
    const char *c = "value 0..1\nconst N = 2\ncontroller L1 per cu processor\nstates I\n"
                    "controller B sliced N\nstates I\n";
    char text[512];
    snprintf(text, sizeof text, "%schannel q per cu from L1 to B fifo capacity 1\n", c);
    expect_error_at(text, "B fifo", 0,
                    "a channel per cu cannot lead to a controller sliced (a sliced channel leads to a controller with the same slices)");
    snprintf(text, sizeof text, "%schannel q sliced 3 from L1 to B fifo capacity 1\n", c);
    expect_error_at(text, "B fifo", 0,
                    "a channel sliced cannot lead to a controller sliced (a sliced channel leads to a controller with the same slices)");
    snprintf(text, sizeof text, "%schannel q sliced N from L1 to L1 fifo capacity 1\n", c);
    expect_error_at(text, "L1 fifo", 0,
                    "a channel sliced cannot lead to a controller per cu (a sliced channel leads to a controller with the same slices)");
    snprintf(text, sizeof text, ONE_ROW_PROTO, "", "done");
    char *big = strstr(text, "controller M shared");
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    char sliced[1024];
    snprintf(sliced, sizeof sliced, "%.*scontroller M sliced 65\nstates V\nfield val : value init memory\n"
             "home h = 0\nmemory M.val at h\ntable C\n  * | load.weak | | done | -\nend\n",
             (int)(big - text), text);
    expect_instance_error(sliced, ONE_LOAD, "t.proto:8:12: error: controller M: 65 slices, not in 1..64\n");
}

/* `order` is the order of the instruction of the event's thread, compared
 * with the order names. */
static void test_order_expression(void)
{
    char text[1024];
    snprintf(text, sizeof text, ONE_ROW_PROTO, "", "reg := cond(order == weak, 7, 8); done");
    CU_ASSERT_EQUAL(first_r0(instance_text(text, ONE_LOAD)), 7);
    snprintf(text, sizeof text, ONE_ROW_PROTO, "", "reg := cond(order == acquire, 7, 8); done");
    CU_ASSERT_EQUAL(first_r0(instance_text(text, ONE_LOAD)), 8);
}

/* ---- OpenCL programs: remote events, tid, last(), scaled bounds, hold, local memory ---- */
/* tid is the thread slot of the event's context (P0: slot 0); last(X, e)
 * the index of the last element of X equal to e, -1 when none. */
static void test_tid_and_last(void)
{
    CU_ASSERT_EQUAL(one_shot("", "reg := tid + 4; done"), 4);
    const char *q = "var q : fifo 3 of 0..9";
    CU_ASSERT_EQUAL(one_shot(q, "push q 4; push q 5; push q 4; reg := last(q, 4); done"), 2);
    CU_ASSERT_EQUAL(one_shot(q, "push q 4; push q 5; reg := last(q, 5); done"), 1);
    CU_ASSERT_EQUAL(one_shot(q, "push q 4; reg := last(q, 7) + 1; done"), 0);
}

/* NUMBER * CONST in a bound (K = 3): 0..2*K-1 is 0..5. */
static void test_scaled_bounds(void)
{
    CU_ASSERT_EQUAL(one_shot("var a : 0..2*K-1", "a := 5; reg := a; done"), 5);
    CU_ASSERT_EQUAL(one_shot("var a : 0..2*K-1", "a := 6; reg := a; done"), -1);
    CU_ASSERT_EQUAL(one_shot("var a : 0..2*K+1", "a := 7; reg := a; done"), 7);
}

/* A row with .remote matches only the remote forms, a row without it
 * only the others; .remote alone matches any scope. */
#define REMOTE_PROTO \
    "protocol t\nvalue 0..99\n" \
    "controller C per cu processor\nstates A\nfield val : value\n" \
    "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n" \
    "table C\n" \
    "  * | load.acquire.gpu        | | reg := 8; done | -\n" \
    "  * | %s | | reg := 7; done | -\n" \
    "end\n"

static const char *const REMOTE_LOAD =
    "OPENCL T\n{\n[x] = 0;\n}\n"
    "P0@wg 0, dev 0 (global atomic_int* x) {\n"
    "  int r = atomic_load_explicit_remote(x, memory_order_acquire, memory_scope_device);\n}\n"
    "exists (0:r=0)\n";

static const char *const DEVICE_LOAD =
    "OPENCL T\n{\n[x] = 0;\n}\n"
    "P0@wg 0, dev 0 (global atomic_int* x) {\n"
    "  int r = atomic_load_explicit(x, memory_order_acquire, memory_scope_device);\n}\n"
    "exists (0:r=0)\n";

static void test_remote_events(void)
{
    char text[2048];
    snprintf(text, sizeof text, REMOTE_PROTO, "load.acquire.gpu.remote");
    CU_ASSERT_EQUAL(first_r0(instance_text(text, REMOTE_LOAD)), 7);
    CU_ASSERT_EQUAL(first_r0(instance_text(text, DEVICE_LOAD)), 8);
    snprintf(text, sizeof text, REMOTE_PROTO, "load.*.remote");
    CU_ASSERT_EQUAL(first_r0(instance_text(text, REMOTE_LOAD)), 7);
    snprintf(text, sizeof text, REMOTE_PROTO, "load.acquire.remote");
    CU_ASSERT_EQUAL(first_r0(instance_text(text, REMOTE_LOAD)), 7);
    /* no row for the remote form: the instance is refused where it is used */
    snprintf(text, sizeof text, REMOTE_PROTO, "load.acquire.cta");
    expect_instance_error(text, REMOTE_LOAD,
                          "t.litmus:6:3: error: protocol t cannot run 'int r = atomic_load_explicit_remote(x, "
                          "memory_order_acquire, memory_scope_device);': no row of the processor table "
                          "handles this event (load.acquire.gpu.remote)\n");
    snprintf(text, sizeof text, REMOTE_PROTO, "load.acquire.gpu.far    ");
    expect_error_at(text, "far", 0, "expected 'remote' after the scope, found 'far'");
}

/* hold EXPR: only on a processor controller; while it holds no processor
 * event is taken (here it always holds, so the load never runs). */
static void test_hold(void)
{
    CU_ASSERT_EQUAL(one_shot("var a : 0..1\nhold a == 1", "reg := 5; done"), 5);
    CU_ASSERT_EQUAL(one_shot("var a : 0..1\nhold a == 0", "reg := 5; done"), -1);
    const char *text =
        "protocol t\nvalue 0..9\ncontroller C per cu processor\nstates A\nfield val : value\n"
        "controller M shared\nstates V\nfield val : value init memory\nhold 1 == 1\nmemory M.val\n"
        "table C\n  * | load.weak | | done | -\nend\n";
    expect_error_at(text, "hold", 0, "'hold' holds processor events, and M is not 'processor'");
}

/* Local memory: served by the CU's scratchpad, no table row sees it (the
 * protocol has none for stores); a local location used from two CUs is
 * refused. */
static void test_local_memory(void)
{
    const char *proto =
        "protocol t\nvalue 0..9\ncontroller C per cu processor\nstates A\nfield val : value\n"
        "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
        "table C\n  * | load.weak | | reg := line.val; done | -\nend\n";
    const char *one_cu =
        "OPENCL T\n{\n[x] = 0;\n}\n"
        "P0@wg 0, dev 0 (local int* x) {\n  *x = 5;\n  int r = *x;\n}\n"
        "exists (0:r=5)\n";
    proto_bfs b = {0};
    proto_bfs_explore(&b, instance_text(proto, one_cu));
    lit_value five[1] = {5};
    CU_ASSERT(b.finals > 0);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    CU_ASSERT(proto_bfs_saw(&b, five, 1));
    proto_bfs_free(&b);
    const char *two_cus =
        "OPENCL T\n{\n[x] = 0;\n}\n"
        "P0@wg 0, dev 0 (local int* x) {\n  *x = 5;\n}\n"
        "P1@wg 1, dev 0 (local int* x) {\n  int r = *x;\n}\n"
        "exists (1:r=5)\n";
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(proto_instantiate(parse(proto), litmus(two_cus), NULL, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "local location x is used by"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, ": error: protocol t cannot run"));
}

/* Send destinations, on a per-cu channel from the L1 to itself (3 CUs):
 * [each BITS] sends to every set bit, [all] to every CU, [e] to CU e.
 * Each destination is a separate send: a full instance disables the row. */
static const char *const DEST_PROTO =
    "protocol t\nvalue 0..1\nmessage Inv(addr)\n"
    "controller L1 per cu processor\nstates I\nfield val : value\nvar sh : bits NCU\n"
    "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
    "channel inv per cu from L1 to L1 fifo capacity 1\n"
    "table L1\n"
    "  * | load.weak        | | sh[0] := 1; sh[2] := 1; send inv[each sh] Inv(addr); done | -\n"
    "  * | load.relaxed.cta | | send inv[all] Inv(addr); done | -\n"
    "  * | load.acquire.cta | | send inv[cu - 1] Inv(addr); done | -\n"
    "  * | recv inv.Inv     | | | -\n"
    "end\n";

static const char *const DEST_TEST =
    "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0       | P2@cta 2,gpu 0       ;\n"
    " ld.weak r0, x  | ld.relaxed.cta r0, x | ld.acquire.cta r0, x ;\nexists (P0:r0 == 0)\n";

static void test_send_destinations(void)
{
    proto_instance *in = instance_text(DEST_PROTO, DEST_TEST);
    const nsi_model *m = proto_nsi(in);
    uint8_t init[MAX_BYTES], st[MAX_BYTES];
    m->initial(m->ctx, init);
    CU_ASSERT_EQUAL(count_successors(m, init), 3);
    memcpy(st, init, m->state_bytes);
    proto_step(m, st, "P0 ", "P0 (CU 0) L1[x] in I: load.weak -> sh[0] := 1; sh[2] := 1; "
                       "send inv[0] Inv(x); send inv[2] Inv(x); done\n");
    memcpy(st, init, m->state_bytes);
    proto_step(m, st, "P2 ", "P2 (CU 2) L1[x] in I: load.acquire.cta -> send inv[1] Inv(x); done\n");
    memcpy(st, init, m->state_bytes);
    proto_step(m, st, "P1 ", "P1 (CU 1) L1[x] in I: load.relaxed.cta -> "
                       "send inv[0] Inv(x); send inv[1] Inv(x); send inv[2] Inv(x); done\n");
    /* every inbox is full: P0 and P2 wait, the three deliveries remain */
    CU_ASSERT_EQUAL(count_successors(m, st), 3);
    proto_step(m, st, "(CU 1) ", "(CU 1) L1[x] in I: recv inv[1].Inv(x) -> nothing\n");
    CU_ASSERT_EQUAL(count_successors(m, st), 3);    /* P2 again, deliveries to CUs 0 and 2 */
    proto_bfs b = {0};
    proto_bfs_explore(&b, in);
    CU_ASSERT(b.finals > 0);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    proto_bfs_free(&b);
}

/* The same destinations with one CU, where most of them do not exist. */
static void test_send_destinations_range(void)
{
    const char *d = "var sh : bits 2\nmessage Inv(addr)\nchannel inv per cu from C to C fifo capacity 2";
    CU_ASSERT_EQUAL(one_shot(d, "send inv[cu] Inv(addr); reg := 5; done"), 5);
    CU_ASSERT_EQUAL(one_shot(d, "send inv[1] Inv(addr); reg := 5; done"), -1);
    CU_ASSERT_EQUAL(one_shot(d, "send inv[0 - 1] Inv(addr); reg := 5; done"), -1);
    CU_ASSERT_EQUAL(one_shot(d, "send inv[each sh] Inv(addr); reg := 4; done"), 4);   /* no bit: no send */
    CU_ASSERT_EQUAL(one_shot(d, "sh[0] := 1; send inv[each sh] Inv(addr); reg := 5; done"), 5);
    CU_ASSERT_EQUAL(one_shot(d, "sh[1] := 1; send inv[each sh] Inv(addr); reg := 5; done"), -1);
    CU_ASSERT_EQUAL(one_shot(d, "send inv[all] Inv(addr); send inv[all] Inv(addr); reg := 5; done"), 5);
    CU_ASSERT_EQUAL(one_shot(d, "send inv[all] Inv(addr); send inv[all] Inv(addr); send inv Inv(addr); reg := 5; done"), -1);
}

/* Routing above the CU.  The L1 asks the shared S; S answers on a per-gpu
 * channel to the G of the asking CU's GPU (send down[gpu]); the answer
 * carries `cu`, so G's row completes the right thread: each r0 is
 * cu * 10 + gpu of its own thread (3 CUs, GPUs 0, 0, 1). */
#define ROUTE_PROTO \
    "protocol t\nvalue 0..99\nmessage Req(addr)\n%s\n" \
    "controller L1 per cu processor\nstates I\nfield val : value\n" \
    "controller G per gpu\nstates I\nfield val : value\n" \
    "controller S shared\nstates V\nfield val : value init memory\nmemory S.val\n" \
    "channel up   per cu  from L1 to S fifo capacity 1\n" \
    "channel down per gpu from S  to G fifo capacity 2\n" \
    "channel mid  shared  from S  to S fifo capacity 3\n" \
    "table L1\n  * | load.weak | | send up Req(addr); wait | -\nend\n" \
    "table S\n%s" \
    "end\n" \
    "table G\n  * | recv down.Resp | | reg := msg.v; done | -\nend\n"

static void route(const char *msgs, const char *srows, proto_bfs *b)
{
    char text[4096];
    snprintf(text, sizeof text, ROUTE_PROTO, msgs, srows);
    proto_bfs_explore(b, instance_text(text, THREE_CUS_TWO_GPUS));
}

static void test_route_cu_field(void)
{
    proto_bfs b = {0};
    route("message Resp(addr, v, cu : 0..NCU-1)",
          "  V | recv up.Req | | send down[gpu] Resp(addr, cu * 10 + gpu, cu) | -\n", &b);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    lit_value want[PROTO_BFS_MAX_OBS] = {0, 10, 21};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    proto_bfs_free(&b);
    /* without a cu field the answer names no thread: G cannot complete one */
    proto_bfs c = {0};
    route("message Resp(addr, v)", "  V | recv up.Req | | send down[gpu] Resp(addr, cu * 10 + gpu) | -\n", &c);
    CU_ASSERT_EQUAL(c.finals, 0);
    CU_ASSERT(c.deadlocks > 0);
    proto_bfs_free(&c);
}

/* A `gpu` field sets the GPU of the receiving context: S forwards to
 * itself on a shared channel with the CU in a plain field and the GPU in
 * `gpu`; a plain send on the per-gpu channel then goes to that GPU. */
static void test_route_gpu_field(void)
{
    proto_bfs b = {0};
    route("message Resp(addr, v, cu : 0..NCU-1)\nmessage Fwd(addr, c : 0..NCU-1, gpu : 0..NGPU-1)",
          "  V | recv up.Req  | | send mid Fwd(addr, cu, gpu) | -\n"
          "  V | recv mid.Fwd | | send down Resp(addr, msg.c * 10 + gpu, msg.c) | -\n", &b);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    lit_value want[PROTO_BFS_MAX_OBS] = {0, 10, 21};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    proto_bfs_free(&b);
}

/* A plain send from an L1 on a per-gpu channel goes to its GPU's inbox;
 * the steps name the instances: "(GPU 1) G[x]". */
static void test_route_described(void)
{
    const char *proto = "protocol t\nvalue 0..99\nmessage Req(addr, cu : 0..NCU-1)\n"
                        "controller L1 per cu processor\nstates I\nfield val : value\n"
                        "controller G per gpu\nstates I\nfield val : value\n"
                        "controller S shared\nstates V\nfield val : value init memory\nmemory S.val\n"
                        "channel g per gpu from L1 to G fifo capacity 2\n"
                        "table L1\n  * | load.weak | | send g Req(addr, cu); wait | -\nend\n"
                        "table G\n  * | recv g.Req | | reg := gpu * 10 + cu; done | -\nend\n";
    proto_instance *in = instance_text(proto, THREE_CUS_TWO_GPUS);
    const nsi_model *m = proto_nsi(in);
    uint8_t st[MAX_BYTES];
    m->initial(m->ctx, st);
    proto_step(m, st, "P2 ", "P2 (CU 2) L1[x] in I: load.weak -> send g[1] Req(x, 2); wait\n");
    proto_step(m, st, "P1 ", "P1 (CU 1) L1[x] in I: load.weak -> send g[0] Req(x, 1); wait\n");
    proto_step(m, st, "(GPU 1) ", "(GPU 1) G[x] in I: recv g[1].Req(x, 2) -> P2 r0 = 12\n");
    proto_step(m, st, "(GPU 0) ", "(GPU 0) G[x] in I: recv g[0].Req(x, 1) -> P1 r0 = 1\n");
    proto_bfs b = {0};
    proto_bfs_explore(&b, in);
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    lit_value want[PROTO_BFS_MAX_OBS] = {0, 1, 12};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    proto_bfs_free(&b);
}

/* ---- 3. homes and a memory per GPU ----------------------------------------------------- */
/* HOME(e) is the home's expression with addr bound to e: with 2 GPUs and
 * x, y, z at 0, 1, 2, h(a) = a % 2. */
static void test_home_expr(void)
{
    const char *proto = "protocol t\nconst K = 1\nvalue 0..99\n"
                        "home h = addr % NGPU\nhome h2 = (addr + K) * 10\n"
                        "controller C per cu processor\nstates A\nfield val : value\n"
                        "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
                        "table C\n"
                        "  * | load.weak | | reg := h(addr) * 10 + h(addr + 1) + h2(h(addr)); done | -\n"
                        "end\n";
    const char *test = "PTX T\n{\nx=0; y=0; z=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
                       " ld.weak r0, y  | ld.weak r0, z  ;\nexists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
    proto_bfs b = {0};
    proto_bfs_explore(&b, instance_text(proto, test));
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    /* y: 1 * 10 + 0 + (1 + 1) * 10 = 30;  z: 0 + 1 + (0 + 1) * 10 = 11 */
    lit_value want[PROTO_BFS_MAX_OBS] = {30, 11};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    proto_bfs_free(&b);
}

/* A memory controller per GPU: a store is written to the instance of its
 * home only, and final location values are read from that instance.
 * P0 on GPU 0 writes y, P1 on GPU 1 writes x: each crosses to the other
 * GPU when the home is addr % NGPU, neither does when it is
 * (addr + 1) % NGPU.  Each thread's store goes through 3 phases (not
 * issued, in flight, performed): 9 states, 12 transitions, one final. */
#define MEM_PROTO \
    "protocol t\nvalue 0..3\nhome h = %s\nmessage W(addr, val)\n" \
    "controller L1 per cu processor\nstates I\nfield val : value\n" \
    "controller Mem per gpu\nstates V\nfield val : value init memory\n" \
    "memory Mem.val at h\n" \
    "channel w per gpu from L1 to Mem fifo capacity 2\n" \
    "table L1\n  * | store.weak | | send w[h(addr)] W(addr, value); done | -\nend\n" \
    "table Mem\n  V | recv w.W | | line.val := msg.val | -\nend\n"

static void check_memory_at_home(const char *home)
{
    const char *test = "PTX T\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
                       " st.weak y, 2   | st.weak x, 3   ;\nexists (x == 3 /\\ y == 2)\n";
    char text[2048];
    snprintf(text, sizeof text, MEM_PROTO, home);
    proto_bfs b = {0};
    CU_ASSERT_EQUAL(proto_bfs_explore(&b, instance_text(text, test)), 9);
    CU_ASSERT_EQUAL(b.transitions, 12);
    CU_ASSERT_EQUAL(b.finals, 1);
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    lit_value want[PROTO_BFS_MAX_OBS] = {3, 2};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    proto_bfs_free(&b);
}

static void test_memory_at_home(void)
{
    check_memory_at_home("addr % NGPU");
    check_memory_at_home("(addr + 1) % NGPU");
}

static void test_home_errors(void)
{
    const char *c = "value 0..1\nhome h = addr % NGPU\n"
                    "controller L1 per cu processor\nstates I\nfield val : value\n"
                    "controller Mem per gpu\nstates V\nfield val : value init memory\n";
    char text[512];
    snprintf(text, sizeof text, "%smemory Mem.val\n", c);
    expect_error_at(text, "val\n", 0, "memory in a controller that is not 'shared' needs 'at HOME'");
    snprintf(text, sizeof text, "%smemory Mem.val at nowhere\n", c);
    expect_error_at(text, "nowhere", 0, "unknown home 'nowhere'");
    snprintf(text, sizeof text, "%smemory L1.val at h\n", c);
    expect_error_at(text, "val at", 0, "the memory controller cannot be 'per cu'");
    snprintf(text, sizeof text, "%shome h = addr\n", c);
    expect_error_at(text, "h = addr\n", 0, "home 'h' declared twice");
}

/* ---- 4. variants --------------------------------------------------------------------------- */
/* Variants read their base from disk: each test writes its files into a
 * fresh temporary directory and removes them at the end. */
#define TMP_FILES 24

typedef struct tmpdir {
    char root[64];
    int n;
    char path[TMP_FILES][256];
    bool is_dir[TMP_FILES];
} tmpdir;

static void tmp_open(tmpdir *d)
{
    memset(d, 0, sizeof *d);
    strcpy(d->root, "/tmp/scopecheck-lang-XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(d->root));
}

static const char *tmp_add(tmpdir *d, const char *name, bool is_dir)
{
    char root[sizeof d->root];
    CU_ASSERT_FATAL(d->n < TMP_FILES);
    memcpy(root, d->root, sizeof root);     /* snprintf may not read from the object it writes */
    snprintf(d->path[d->n], sizeof d->path[0], "%s/%s", root, name);
    d->is_dir[d->n] = is_dir;
    return d->path[d->n++];
}

static const char *tmp_write(tmpdir *d, const char *name, const char *text)
{
    const char *path = tmp_add(d, name, false);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void tmp_mkdir(tmpdir *d, const char *name)
{
    CU_ASSERT_EQUAL(mkdir(tmp_add(d, name, true), 0700), 0);
}

/* Removes what was made, newest first (files before their folders). */
static void tmp_close(tmpdir *d)
{
    for (int i = d->n - 1; i >= 0; i--)
        CU_ASSERT_EQUAL(d->is_dir[i] ? rmdir(d->path[i]) : unlink(d->path[i]), 0);
    CU_ASSERT_EQUAL(rmdir(d->root), 0);
}

/* The base of the variant tests.  Weak loads: r0 = 1 while the line
 * holds 0, else 2.  Relaxed cta loads send two Pings on a channel of
 * capacity 1: never enabled.  A weak store breaks the invariant. */
static const char *const BASE =
    "# the base of the variant tests\n"
    "protocol base\n"
    "const K = 1\n"
    "value 0..9\n"
    "message Ping(addr)\n"
    "controller C per cu processor\n"
    "states A B\n"
    "field val : value\n"
    "var n : 0..K\n"
    "controller M shared\n"
    "states V\n"
    "field val : value init memory\n"
    "memory M.val\n"
    "channel c per cu from C to C fifo capacity 1\n"
    "invariant zero C : line.val == 0\n"
    "table C\n"
    "  * | load.weak        | line.val == 0 | reg := 1; done | -\n"
    "  * | load.weak        |               | reg := 2; done | -\n"
    "  * | load.relaxed.cta |               | send c Ping(addr); send c Ping(addr); reg := 3; done | -\n"
    "  * | recv c.Ping      |               | | -\n"
    "  * | store.weak       |               | line.val := value; done | -\n"
    "end\n";

static const char *const ONE_LOC_LOAD =
    "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n";

/* A litmus test of one thread running `ins` on x, observing its r0. */
static const char *one_instr(const char *ins, char *buf, size_t size)
{
    snprintf(buf, size, "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n %s ;\nexists (P0:r0 == 0)\n", ins);
    return buf;
}

/* Writes v.proto: `protocol v extends "base.proto"` and `body`. */
static const char *write_variant(tmpdir *d, const char *name, const char *body)
{
    char text[2048];
    snprintf(text, sizeof text, "protocol v extends \"base.proto\"\n%s", body);
    return tmp_write(d, name, text);
}

/* Loads `path`, which must fail with exactly `want` (one or more lines). */
static void expect_load_error(const char *path, const char *want)
{
    char buf[4096] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(protocol_load(path, err));
    fclose(err);
    if (strcmp(buf, want))
        fprintf(stderr, "\nwanted '%s', got '%s'\n", want, buf);
    CU_ASSERT_STRING_EQUAL(buf, want);
}

static protocol *load(const char *path)
{
    protocol *p = protocol_load(path, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return p;
}

/* r0 of the first step of `ins` under the protocol at `path`. */
static long variant_r0(const char *path, const char *ins)
{
    char test[256];
    return first_r0(instance_of(load(path), one_instr(ins, test, sizeof test), NULL));
}

/* A constant given again takes its new value wherever the base used it
 * (var n : 0..K grows from 1 to 3 bits); the name is the variant's. */
static void test_variant_const(void)
{
    tmpdir d;
    tmp_open(&d);
    const char *base = tmp_write(&d, "base.proto", BASE);
    const char *v = write_variant(&d, "v.proto", "const K = 5\n");
    protocol *pb = load(base), *pv = load(v);
    CU_ASSERT_STRING_EQUAL(protocol_name(pb), "base");
    CU_ASSERT_STRING_EQUAL(protocol_name(pv), "v");
    int bb = proto_state_bits(instance_of(pb, ONE_LOC_LOAD, NULL));
    CU_ASSERT_EQUAL(proto_state_bits(instance_of(pv, ONE_LOC_LOAD, NULL)) - bb, 2);
    /* a built-in constant cannot be given again */
    char want[512];
    snprintf(want, sizeof want, "%s/b.proto:2:7: error: constant 'NCU' declared twice\n", d.root);
    expect_load_error(write_variant(&d, "b.proto", "const NCU = 2\n"), want);
    tmp_close(&d);
}

/* A channel declared again replaces the base's: with capacity 2 the two
 * Pings of a relaxed cta load fit. */
static void test_variant_channel(void)
{
    tmpdir d;
    tmp_open(&d);
    const char *base = tmp_write(&d, "base.proto", BASE);
    const char *v = write_variant(&d, "v.proto", "channel c per cu from C to C fifo capacity 2\n");
    CU_ASSERT_EQUAL(variant_r0(base, "ld.relaxed.cta r0, x"), -1);
    CU_ASSERT_EQUAL(variant_r0(v, "ld.relaxed.cta r0, x"), 3);
    tmp_close(&d);
}

/* A base controller reopened with its placement gets new states, fields
 * and variables; a new row uses them.  On one location the state grows
 * by the field (2 bits), the variable (3 bits) and a line state slot of 2
 * bits instead of 1. */
static void test_variant_reopen(void)
{
    tmpdir d;
    tmp_open(&d);
    const char *base = tmp_write(&d, "base.proto", BASE);
    const char *v = write_variant(&d, "v.proto",
                                  "controller C per cu processor\nstates X\nfield f : 0..3\nvar m : 0..7\n"
                                  "table C\n+ * | load.acquire.cta | | line.f := 2; m := 5; reg := m + line.f; done | X\nend\n");
    protocol *pv = load(v);
    int bb = proto_state_bits(instance_of(load(base), ONE_LOC_LOAD, NULL));
    CU_ASSERT_EQUAL(proto_state_bits(instance_of(pv, ONE_LOC_LOAD, NULL)) - bb, 6);
    char test[256];
    proto_instance *in = instance_of(pv, one_instr("ld.acquire.cta r0, x", test, sizeof test), NULL);
    const nsi_model *m = proto_nsi(in);
    uint8_t st[MAX_BYTES];
    m->initial(m->ctx, st);
    proto_step(m, st, "P0 ", "P0 (CU 0) C[x] in A: load.acquire.cta -> f := 2; m := 5; P0 r0 = 7; next X\n");
    /* the placement cannot change */
    char want[512];
    snprintf(want, sizeof want, "%s/s.proto:2:12: error: a variant cannot change the placement of controller C\n",
             d.root);
    expect_load_error(write_variant(&d, "s.proto", "controller C shared\n"), want);
    snprintf(want, sizeof want, "%s/p.proto:2:12: error: a variant cannot change the placement of controller C\n",
             d.root);
    expect_load_error(write_variant(&d, "p.proto", "controller C per cu\n"), want);
    tmp_close(&d);
}

/* An invariant stated again replaces the base's (the store of 1 breaks
 * `line.val == 0`, not `line.val <= 1`). */
static void test_variant_invariant(void)
{
    tmpdir d;
    tmp_open(&d);
    const char *base = tmp_write(&d, "base.proto", BASE);
    const char *v = write_variant(&d, "v.proto", "invariant zero C : line.val <= 1\n");
    char test[256];
    one_instr("st.weak x, 1", test, sizeof test);
    proto_bfs b = {0}, c = {0};
    proto_bfs_explore(&b, instance_of(load(base), test, NULL));
    proto_bfs_explore(&c, instance_of(load(v), test, NULL));
    CU_ASSERT_PTR_NOT_NULL(b.violated);
    if (b.violated)
        CU_ASSERT_STRING_EQUAL(b.violated, "zero");
    CU_ASSERT_PTR_NULL(c.violated);
    CU_ASSERT_EQUAL(b.n, c.n);
    proto_bfs_free(&b);
    proto_bfs_free(&c);
    tmp_close(&d);
}

/* r0 of a weak load under BASE changed by the table lines `changes`. */
static long changed_r0(tmpdir *d, const char *name, const char *changes, const char *ins)
{
    char body[1024];
    snprintf(body, sizeof body, "table C\n%send\n", changes);
    return variant_r0(write_variant(d, name, body), ins);
}

/* `- STATES | EVENT [| GUARD]` removes the base rows with exactly that
 * key; `+ ROW` goes where the last removal was (in order, when several
 * follow it), else at the end; rows are tried top to bottom. */
static void test_variant_rows(void)
{
    tmpdir d;
    tmp_open(&d);
    tmp_write(&d, "base.proto", BASE);
    const char *ld = "ld.weak r0, x";
    CU_ASSERT_EQUAL(changed_r0(&d, "a.proto", "- * | load.weak | line.val == 0\n"
                                             "+ * | load.weak | | reg := 3; done | -\n", ld), 3);
    CU_ASSERT_EQUAL(changed_r0(&d, "b.proto", "+ * | load.weak | | reg := 3; done | -\n", ld), 1);
    CU_ASSERT_EQUAL(changed_r0(&d, "c.proto", "- * | load.weak | line.val == 0\n"
                                             "+ * | load.weak | | reg := 4; done | -\n"
                                             "+ * | load.weak | | reg := 5; done | -\n", ld), 4);
    /* without a guard the key removes both weak-load rows */
    CU_ASSERT_EQUAL(changed_r0(&d, "e.proto", "- * | load.weak\n"
                                             "+ * | load.weak | line.val == 1 | reg := 6; done | -\n", ld), -1);
    /* an empty guard is the key of the unguarded row only */
    CU_ASSERT_EQUAL(changed_r0(&d, "f.proto", "- * | load.weak |\n"
                                             "+ * | load.weak | line.val == 1 | reg := 6; done | -\n", ld), 1);
    /* other rows are untouched */
    CU_ASSERT_EQUAL(changed_r0(&d, "g.proto", "- * | load.weak\n+ * | load.weak | | reg := 7; done | -\n",
                               "ld.relaxed.cta r0, x"), -1);
    tmp_close(&d);
}

/* A removal that matches no row, a plain row, and a table left without
 * a row for an event the test uses. */
static void test_variant_row_errors(void)
{
    tmpdir d;
    tmp_open(&d);
    tmp_write(&d, "base.proto", BASE);
    static const struct { const char *name, *changes, *msg; } cases[] = {
        {"a.proto", "- B | load.weak\n", "no row of the base table C has this state column and event"},
        {"b.proto", "- * | load.acquire.gpu\n", "no row of the base table C has this state column and event"},
        {"c.proto", "- * | load.weak | line.val == 5\n",
         "no row of the base table C has this state column and event and guard"},
        {"d.proto", "  * | load.weak | | reg := 3; done | -\n",
         "a variant changes a table with '- STATES | EVENT' and '+ ROW' lines, found '*'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[512], want[512];
        snprintf(body, sizeof body, "table C\n%send\n", cases[i].changes);
        snprintf(want, sizeof want, "%s/%s:3:3: error: %s\n", d.root, cases[i].name, cases[i].msg);
        expect_load_error(write_variant(&d, cases[i].name, body), want);
    }
    protocol *p = load(write_variant(&d, "e.proto", "table C\n- * | load.weak\nend\n"));
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(proto_instantiate(p, litmus(ONE_LOC_LOAD), NULL, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "t.litmus:6:2: error: protocol v cannot run"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "no row of the processor table handles this event (load.weak)"));
    tmp_close(&d);
}

/* `extends` must be the first declaration; the base is read relative to
 * the variant's folder; missing or broken bases are reported. */
static void test_variant_extends_errors(void)
{
    tmpdir d;
    tmp_open(&d);
    tmp_write(&d, "base.proto", BASE);
    tmp_write(&d, "bad.proto", "protocol bad\nbogus 1\n");
    char want[1024];
    snprintf(want, sizeof want, "%s/late.proto:2:1: error: 'extends' must be in the first declaration\n", d.root);
    expect_load_error(tmp_write(&d, "late.proto", "const Q = 1\nprotocol v extends \"base.proto\"\n"), want);
    snprintf(want, sizeof want, "%s/str.proto:1:20: error: expected the base file as a string, found 'base'\n",
             d.root);
    expect_load_error(tmp_write(&d, "str.proto", "protocol v extends base\n"), want);
    snprintf(want, sizeof want, "%s/miss.proto:1:20: error: cannot read the base protocol '%s/nope.proto': "
             "cannot open: No such file or directory\n", d.root, d.root);
    expect_load_error(tmp_write(&d, "miss.proto", "protocol v extends \"nope.proto\"\n"), want);
    snprintf(want, sizeof want,
             "%s/bad.proto:2:1: error: unknown declaration 'bogus'\n"
             "%s/vb.proto:1:21: note: in the base of this variant\n", d.root, d.root);
    expect_load_error(tmp_write(&d, "vb.proto", "protocol vb extends \"bad.proto\"\n"), want);
    /* the base is found from the variant's folder */
    tmp_mkdir(&d, "sub");
    protocol *p = load(tmp_write(&d, "sub/v.proto", "protocol v extends \"../base.proto\"\nconst K = 2\n"));
    CU_ASSERT_STRING_EQUAL(protocol_name(p), "v");
    tmp_close(&d);
}

/* The error of a variant nested too deep, at `at` (the base's string) in
 * `first`, then one note per file that extends it, from `notes[0]` up. */
static void nested_error(char *out, size_t size, const char *root, const char *first, const char *at,
                         const char *const *notes, int nnotes)
{
    size_t n = (size_t)snprintf(out, size, "%s/%s:%s: error: variants nested too deep (more than 8; a cycle of 'extends'?)\n",
                                root, first, at);
    for (int k = 0; k < nnotes && n < size; k++)
        n += (size_t)snprintf(out + n, size - n, "%s/%s:%s: note: in the base of this variant\n", root, notes[k], at);
}

/* Variants of variants: 8 levels above the base are read (the last
 * constant wins); a 9th, or a cycle, is refused, with a note per file. */
static void test_variant_nesting(void)
{
    tmpdir d;
    tmp_open(&d);
    const char *v0 = tmp_write(&d, "v0.proto", BASE);
    const char *top = NULL;
    static const char *const names[] = {"v2.proto", "v3.proto", "v4.proto", "v5.proto",
                                        "v6.proto", "v7.proto", "v8.proto", "v9.proto"};
    for (int k = 1; k <= 9; k++) {
        char name[32], text[256];
        snprintf(name, sizeof name, "v%d.proto", k);
        snprintf(text, sizeof text, "protocol v%d extends \"v%d.proto\"\nconst K = %d\n", k, k - 1, k);
        top = tmp_write(&d, name, text);
        if (k != 8)
            continue;
        protocol *p = load(top);
        CU_ASSERT_STRING_EQUAL(protocol_name(p), "v8");
        /* K = 8: var n : 0..K takes 4 bits, 3 more than with the base's K = 1 */
        int b8 = proto_state_bits(instance_of(p, ONE_LOC_LOAD, NULL));
        CU_ASSERT_EQUAL(b8 - proto_state_bits(instance_of(load(v0), ONE_LOC_LOAD, NULL)), 3);
    }
    char want[4096];
    nested_error(want, sizeof want, d.root, "v1.proto", "1:21", names, 8);
    expect_load_error(top, want);
    static const char *const loops[] = {"loop.proto", "loop.proto", "loop.proto", "loop.proto",
                                        "loop.proto", "loop.proto", "loop.proto", "loop.proto"};
    nested_error(want, sizeof want, d.root, "loop.proto", "1:23", loops, 8);
    expect_load_error(tmp_write(&d, "loop.proto", "protocol loop extends \"loop.proto\"\n"), want);
    tmp_close(&d);
}

/* ---- variants: only first, `*` rows after added states (regressions) --------------------- */
/* `extends` must be the first declaration: a message or a `protocol`
 * line before it is refused like a constant is (the check used to look
 * only at constants, controllers and the value range). */
static void test_variant_extends_not_first(void)
{
    tmpdir d;
    tmp_open(&d);
    tmp_write(&d, "base.proto", BASE);
    char want[512];
    snprintf(want, sizeof want, "%s/m.proto:2:1: error: 'extends' must be in the first declaration\n", d.root);
    expect_load_error(tmp_write(&d, "m.proto", "message Extra(addr)\nprotocol v extends \"base.proto\"\n"), want);
    snprintf(want, sizeof want, "%s/p.proto:2:1: error: 'extends' must be in the first declaration\n", d.root);
    expect_load_error(tmp_write(&d, "p.proto", "protocol a\nprotocol v extends \"base.proto\"\n"), want);
    tmp_close(&d);
}

/* A variant that adds a line state: `*` in the base's rows means every
 * state, the added one included, so `- * | load.weak` names the base's
 * `* | load.weak` rows. */
static void test_variant_star_removes_base_rows(void)
{
    tmpdir d;
    tmp_open(&d);
    tmp_write(&d, "base.proto", BASE);
    const char *v = write_variant(&d, "v.proto",
                                  "controller C per cu processor\nstates X\n"
                                  "table C\n- * | load.weak\n+ * | load.weak | | reg := 4; done | X\nend\n");
    protocol *p = protocol_load(v, stderr);
    CU_ASSERT_PTR_NOT_NULL(p);
    if (p)
        CU_ASSERT_EQUAL(first_r0(instance_of(p, ONE_LOC_LOAD, NULL)), 4);
    tmp_close(&d);
}

/* ... and a base `*` row handles its event in the added state: after the
 * acquire moves the line to X, the weak load is served by the base's
 * `* | load.weak` rows (r1 = 1: the line holds 0). */
static void test_variant_star_matches_added_state(void)
{
    tmpdir d;
    tmp_open(&d);
    tmp_write(&d, "base.proto", BASE);
    const char *w = write_variant(&d, "w.proto",
                                  "controller C per cu processor\nstates X\n"
                                  "table C\n+ * | load.acquire.cta | | reg := 5; done | X\nend\n");
    const char *test = "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.acquire.cta r0, x ;\n ld.weak r1, x ;\n"
                       "exists (P0:r0 == 0 /\\ P0:r1 == 0)\n";
    proto_bfs b = {0};
    proto_bfs_explore(&b, instance_of(load(w), test, NULL));
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    lit_value want[PROTO_BFS_MAX_OBS] = {5, 1};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    proto_bfs_free(&b);
    tmp_close(&d);
}

/* ---- mutants written as variants against full copies ------------------------------------- */

/* `src` with the whole line that contains `key` replaced by `lines`. */
static char *replace_line(const char *src, const char *key, const char *lines)
{
    const char *at = strstr(src, key);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    const char *bol = at, *eol = strchr(at, '\n');
    while (bol > src && bol[-1] != '\n')
        bol--;
    eol = eol ? eol + 1 : at + strlen(at);
    char *out = calloc(1, strlen(src) + strlen(lines) + 1);
    memcpy(out, src, (size_t)(bol - src));
    strcat(out, lines);
    strcat(out, eol);
    return out;
}

/* What a full search of MP-like tests finds. */
typedef struct summary {
    size_t states;
    long transitions;
    bool stale;         /* some final state has r1 = 1, r2 = 0 (the first two observed) */
} summary;

static summary summarize(proto_instance *in)
{
    proto_bfs b = {0};
    summary s = {proto_bfs_explore(&b, in), b.transitions, false};
    for (int k = 0; k < b.noutcomes; k++)
        s.stale |= b.outcome[k][0] == 1 && b.outcome[k][1] == 0;
    proto_bfs_free(&b);
    return s;
}

/* The mutant file (a variant) and `copy`, the full text made by hand,
 * have the same state layout and space on `litmus_path`. */
static summary check_mutant(const char *mutant, const char *copy, const char *litmus_path)
{
    litmus_test *t = litmus_read_file(litmus_path, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *a = proto_instantiate(load(mutant), t, NULL, stderr);
    proto_instance *b = proto_instantiate(parse(copy), t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(proto_state_bits(a), proto_state_bits(b));
    summary sa = summarize(a), sb = summarize(b);
    CU_ASSERT_EQUAL(sa.states, sb.states);
    CU_ASSERT_EQUAL(sa.transitions, sb.transitions);
    CU_ASSERT_EQUAL(sa.stale, sb.stale);
    return sa;
}

/* The acquire served like a weak load: 336 states, 735 transitions on
 * MP-stale-seed, where the stale r1 = 1, r2 = 0 ends some runs; the
 * baseline has 268 and 541, and never ends so. */
static void test_mutant_no_acquire_inval(void)
{
    char *src = proto_read_all("models/gpu_vi.proto");
    char *copy = replace_line(src, "| load.acquire.gpu ",
                              "  V | load.acquire.gpu | | reg := line.val; done | -\n"
                              "  I | load.acquire.gpu | | send req[slice(addr)] Load(addr); loads += 1; wait | -\n");
    const char *mp = "litmus/protocol/MP-stale-seed.litmus";
    summary m = check_mutant("models/mutants/gpu_vi_no_acquire_inval.proto", copy, mp);
    CU_ASSERT_EQUAL(m.states, 336);
    CU_ASSERT_EQUAL(m.transitions, 735);
    CU_ASSERT_TRUE(m.stale);
    summary base = check_mutant("models/gpu_vi.proto", src, mp);
    CU_ASSERT_EQUAL(base.states, 268);
    CU_ASSERT_EQUAL(base.transitions, 541);
    CU_ASSERT_FALSE(base.stale);
    free(copy);
    free(src);
}

/* A channel declared again as unordered (reordering_net); a row replaced
 * by two (atomics_at_l1).  Each differs from the baseline. */
static void test_mutant_other_variants(void)
{
    char *src = proto_read_all("models/gpu_vi.proto");
    char *copy = replace_line(src, "channel req ", "channel req sliced NSLICE from each L1 to L2 unordered capacity CAP vnet 0\n");
    const char *cowr = "litmus/protocol/CoWR-miss.litmus", *rmw = "litmus/protocol/RMW-after-seed.litmus";
    summary m = check_mutant("models/mutants/gpu_vi_reordering_net.proto", copy, cowr);
    CU_ASSERT(m.states > check_mutant("models/gpu_vi.proto", src, cowr).states);   /* reordering adds states */
    free(copy);
    copy = replace_line(src, "| rmw.relaxed.gpu ",
                        "  V | rmw.relaxed.gpu |  | reg := line.val; line.val := rmw(line.val, value); "
                        "send req[slice(addr)] Store(addr, rmw(line.val, value)); line.pend := line.pend + 1; acks += 1; done | -\n"
                        "  I | rmw.relaxed.gpu |  | invalidate; send req[slice(addr)] Atomic(addr, value); "
                        "line.pend := line.pend + 1; wait | I\n");
    m = check_mutant("models/mutants/gpu_vi_atomics_at_l1.proto", copy, rmw);
    CU_ASSERT(m.states != check_mutant("models/gpu_vi.proto", src, rmw).states);
    free(copy);
    free(src);
}

/* ---- 5. models/gpu_vi_multi.proto ---------------------------------------------------------- */
#define MULTI "models/gpu_vi_multi.proto"

/* MP-sys-2gpu on the model as it is now (rows per order and scope, no
 * catch-all a guarded release falls through to): 1529 states, 4320
 * transitions, as tests/e2e/t_verify_multi.sh says.  The first version of
 * the model (c77e7d2, with `store.*` and `rmw.*` catch-alls) had 4057
 * states and 13393 transitions. */
static void test_multi_mp_count(void)
{
    protocol *p = protocol_load(MULTI, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_read_file("litmus/protocol/MP-sys-2gpu.litmus", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    proto_bfs b = {0};
    CU_ASSERT_EQUAL(proto_bfs_explore(&b, in), 1529);
    CU_ASSERT_EQUAL(b.transitions, 4320);
    CU_ASSERT_EQUAL(b.finals, 80);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    CU_ASSERT_PTR_NULL(b.violated);
    /* sound: r1 = 1, r2 = 0 never ends a run (observed: P1:r1, P1:r2) */
    for (int k = 0; k < b.noutcomes; k++)
        CU_ASSERT_FALSE(b.outcome[k][0] == 1 && b.outcome[k][1] == 0);
    CU_ASSERT_EQUAL(b.noutcomes, 3);
    proto_bfs_free(&b);
}

/* Each GPU writes the location homed on the other (x at GPU 0, y at GPU
 * 1): the final values are read from the home memories; instance 0 alone
 * would give y its initial 0.  Values up to 3 (MAXV overridden). */
static void test_multi_final_from_home(void)
{
    protocol *p = protocol_load(MULTI, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *test = "PTX T\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
                       " st.weak y, 2   | st.weak x, 3   ;\nexists (x == 3 /\\ y == 2)\n";
    proto_options o = {.net = PROTO_NET_AS_DECLARED, .noverrides = 1, .override_name = {"MAXV"}, .override_value = {3}};
    proto_bfs b = {0};
    proto_bfs_explore(&b, instance_of(p, test, &o));
    CU_ASSERT(b.finals > 0);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    CU_ASSERT_EQUAL(b.noutcomes, 1);
    lit_value want[PROTO_BFS_MAX_OBS] = {3, 2};
    CU_ASSERT_EQUAL(memcmp(b.outcome[0], want, sizeof want), 0);
    proto_bfs_free(&b);
}

/* ---- regressions: bugs these tests found, fixed ---------------------------------------------- */
/* Fixed (protocol/layout.c add_slot / protocol/interp.c set_slot): a slot
 * wraps whenever its bounds happen to equal the value range, not only
 * when it was declared `value`.  With `value 0..1 wrap`, `b[0] := 2` on
 * `var b : bits 2` and `n := 2` on `var n : 0..1` store 0 and the row
 * fires; a bit or a 0..1 variable leaving its range should disable the
 * row, as it does when the value range is different. */
static void test_wrap_only_values(void)
{
    const char *proto = "protocol t\nvalue 0..1 wrap\n"
                        "controller C per cu processor\nstates A\nfield val : value\nvar b : bits 2\nvar n : 0..1\n"
                        "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
                        "table C\n  * | load.weak | | %s | -\nend\n";
    static const char *const acts[] = {"b[0] := 2; reg := 1; done", "n := 2; reg := 1; done"};
    char text[1024];
    for (int i = 0; i < 2; i++) {
        snprintf(text, sizeof text, proto, acts[i]);
        CU_ASSERT_EQUAL(first_r0(instance_text(text, ONE_LOC_LOAD)), -1);
    }
    /* a register is a value: it wraps (3 is 1) */
    snprintf(text, sizeof text, proto, "reg := 3; done");
    CU_ASSERT_EQUAL(first_r0(instance_text(text, ONE_LOC_LOAD)), 1);
}

/* Fixed (protocol/interp.c fire): a guard that reads an element out of
 * range or divides by zero is taken as 0 and the row fires (fire() sets
 * ctx.ok back to true after select_row evaluated the guard).  Like the
 * same read in an action, it should leave the row not enabled. */
static void test_guard_out_of_range(void)
{
    const char *proto = "protocol t\nvalue 0..9\n"
                        "controller C per cu processor\nstates A\nfield val : value\nvar b : bits 2\n"
                        "var q : fifo 2 of 0..3\n"
                        "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
                        "table C\n  * | load.weak | %s | reg := 1; done | -\nend\n";
    static const char *const guards[] = {"b[5] == 0", "q[0] == 0", "1 / 0 == 0", "5 % 0 == 0"};
    for (int i = 0; i < 4; i++) {
        char text[1024];
        snprintf(text, sizeof text, proto, guards[i]);
        CU_ASSERT_EQUAL(first_r0(instance_text(text, ONE_LOC_LOAD)), -1);
    }
}

/* Fixed (protocol/parse.c dotted and storage, called from decl_home with
 * ps->cur == NULL): `line.FIELD` in a home expression dereferences a
 * NULL controller and the parser crashes (SIGSEGV), as does len(line.q).
 * A home is a function of the address alone: it should be an error at
 * `line` (t.proto:2:10), whatever its wording. */
static void test_home_names_no_line(void)
{
    static const char *const texts[] = {"value 0..1\nhome h = line.val\n", "value 0..1\nhome h = len(line.q)\n"};
    for (int i = 0; i < 2; i++) {
        char buf[512] = {0}, want[64];
        int line, col;
        position_at(texts[i], strstr(texts[i], "line"), &line, &col);
        snprintf(want, sizeof want, "t.proto:%d:%d: error: ", line, col);
        FILE *err = fmemopen(buf, sizeof buf - 1, "w");
        CU_ASSERT_PTR_NULL(protocol_parse_text("t.proto", texts[i], err));
        fclose(err);
        CU_ASSERT_EQUAL(strncmp(buf, want, strlen(want)), 0);
    }
}

void register_protocol_lang_tests(void)
{
    CU_pSuite s = CU_add_suite("protocol language", NULL, NULL);
    CU_add_test(s, "bounds CONST+N, CONST-N", test_bounds);
    CU_add_test(s, "arithmetic * / % and unary minus", test_arithmetic);
    CU_add_test(s, "cond(c, a, b)", test_cond);
    CU_add_test(s, "fifo: push, pop, [i], len, has, clear", test_fifo);
    CU_add_test(s, "bits: [i], len, has, clear", test_bits);
    CU_add_test(s, "array: [i], +=, -=, len, has", test_array);
    CU_add_test(s, "aggregate line fields, += / -=, keep", test_line_fields);
    CU_add_test(s, "cu, gpu, NCU, NGPU", test_cu_gpu);
    CU_add_test(s, "packed sizes of aggregates", test_state_bits);
    CU_add_test(s, "fifo pops are canonical: 14 states", test_fifo_canonical);
    CU_add_test(s, "aggregate parse errors", test_type_errors);
    CU_add_test(s, "type declaration errors", test_declaration_errors);
    CU_add_test(s, "a guard written n = 0 suggests ==", test_guard_assign);
    CU_add_test(s, "aggregate size errors", test_size_errors);
    CU_add_test(s, "instances per level", test_level_sizes);
    CU_add_test(s, "level errors", test_level_errors);
    CU_add_test(s, "send [each], [all], [e]", test_send_destinations);
    CU_add_test(s, "send destinations out of range", test_send_destinations_range);
    CU_add_test(s, "routing by a cu field", test_route_cu_field);
    CU_add_test(s, "routing by a gpu field, plain per-gpu send", test_route_gpu_field);
    CU_add_test(s, "per-gpu steps described", test_route_described);
    CU_add_test(s, "home expressions", test_home_expr);
    CU_add_test(s, "memory per gpu at its home", test_memory_at_home);
    CU_add_test(s, "home and memory errors", test_home_errors);
    CU_add_test(s, "variant: const", test_variant_const);
    CU_add_test(s, "variant: channel replaced", test_variant_channel);
    CU_add_test(s, "variant: controller reopened", test_variant_reopen);
    CU_add_test(s, "variant: invariant restated", test_variant_invariant);
    CU_add_test(s, "variant: - and + rows", test_variant_rows);
    CU_add_test(s, "variant: row change errors", test_variant_row_errors);
    CU_add_test(s, "variant: extends errors, relative base", test_variant_extends_errors);
    CU_add_test(s, "variant: nesting and cycles", test_variant_nesting);
    CU_add_test(s, "mutant no_acquire_inval = its copy", test_mutant_no_acquire_inval);
    CU_add_test(s, "mutants reordering_net, atomics_at_l1 = copies", test_mutant_other_variants);
    CU_add_test(s, "gpu_vi_multi: MP-sys-2gpu 1529 states", test_multi_mp_count);
    CU_add_test(s, "gpu_vi_multi: final values from the homes", test_multi_final_from_home);
    CU_add_test(s, "variant: extends after a message or protocol line", test_variant_extends_not_first);
    CU_add_test(s, "variant: '- *' after added states", test_variant_star_removes_base_rows);
    CU_add_test(s, "variant: base '*' rows in an added state", test_variant_star_matches_added_state);
    CU_add_test(s, "sliced: placement and count errors", test_slice_errors);
    CU_add_test(s, "order: the thread's instruction order", test_order_expression);
    CU_add_test(s, "only value slots wrap", test_wrap_only_values);
    CU_add_test(s, "a guard out of range does not hold", test_guard_out_of_range);
    CU_add_test(s, "a home cannot name a line", test_home_names_no_line);
    CU_add_test(s, "tid and last()", test_tid_and_last);
    CU_add_test(s, "NUMBER*CONST bounds", test_scaled_bounds);
    CU_add_test(s, "remote events match only remote forms", test_remote_events);
    CU_add_test(s, "hold", test_hold);
    CU_add_test(s, "local memory in the scratchpad", test_local_memory);
}
