/* test_litmus_c.c: herd7's C litmus dialect (litmus/c/), text -> litmus_test,
 * and its read-modify-writes through thread paths and the enumerator. */
#include <CUnit/CUnit.h>
#include <gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/thread_paths.h"
#include "litmus/litmus.h"
#include "litmus/outcome.h"
#include "litmus/read.h"
#include "unit_suites.h"

static char errbuf[1024];

static litmus_test *parse(const char *text)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *err = open_memstream(&buf, &n);
    litmus_test *t = litmus_parse_text("t.litmus", text, strlen(text), err);
    fclose(err);
    snprintf(errbuf, sizeof errbuf, "%s", buf ? buf : "");
    free(buf);
    return t;
}

static const char mp_text[] =
    "C MP\n"
    "\"a doc string\"\n"
    "Variant=S128\n"
    "Hash=0123abc\n"
    "(* a comment *)\n"
    "{ int x = 0; __int128 y; _Atomic int z = 5; 0:r9 = 3 }\n"
    "P0 (volatile int* x, atomic_int* y) {\n"
    "  *x = 1; // data\n"
    "  atomic_store_explicit(y, 1, memory_order_release);\n"
    "}\n"
    "P1 (const int *x, atomic_int* y, atomic_int* z) {\n"
    "  int r0 = atomic_load_explicit(y, memory_order_consume);\n"
    "  int r1 = *x ^ 2; /* C comment */\n"
    "  int r2 = atomic_fetch_sub(z, r1);\n"
    "  atomic_thread_fence(memory_order_acq_rel);\n"
    "}\n"
    "locations [z;]\n"
    "exists (1:r0=1 /\\ [x]=0)\n";

static void test_mp(void)
{
    litmus_test *t = parse(mp_text);
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->arch, "C");
    CU_ASSERT_STRING_EQUAL(t->name, "MP");
    CU_ASSERT_STRING_EQUAL(t->doc, "a doc string");
    CU_ASSERT(t->c_event_sets);
    CU_ASSERT_EQUAL_FATAL(t->nthreads, 2);
    CU_ASSERT_EQUAL_FATAL(t->nlocs, 3);
    CU_ASSERT_EQUAL(t->locs[litmus_loc_index(t, "y")].init, 0);
    CU_ASSERT_EQUAL(t->locs[litmus_loc_index(t, "z")].init, 5);
    /* the register initialised in the init block */
    int r9 = litmus_reg_index(&t->threads[0], "r9");
    CU_ASSERT_TRUE_FATAL(r9 >= 0);
    CU_ASSERT_EQUAL(t->threads[0].reg_init[r9], 3);
    const lit_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    CU_ASSERT_EQUAL_FATAL(p0->ninstrs, 2);
    CU_ASSERT_EQUAL(p0->instrs[0].op, OP_STORE);
    CU_ASSERT_EQUAL(p0->instrs[0].order, ORD_WEAK);
    CU_ASSERT_EQUAL(p0->instrs[1].order, ORD_RELEASE);
    CU_ASSERT_EQUAL(p0->instrs[1].scope, SCOPE_NONE);
    /* P1: load consume; plain load into a temporary, xor; fetch_sub
     * (seq_cst, one event); fence */
    int k = 0;
    CU_ASSERT_EQUAL(p1->instrs[k].op, OP_LOAD);
    CU_ASSERT_EQUAL(p1->instrs[k++].order, ORD_CONSUME);
    CU_ASSERT_EQUAL(p1->instrs[k].op, OP_LOAD);
    CU_ASSERT_EQUAL(p1->instrs[k++].order, ORD_WEAK);
    CU_ASSERT_EQUAL(p1->instrs[k].op, OP_ALU);
    CU_ASSERT_EQUAL(p1->instrs[k++].alu_op, ALU_XOR);
    const lit_instr *rmw = &p1->instrs[k++];
    CU_ASSERT_EQUAL(rmw->op, OP_RMW);
    CU_ASSERT_EQUAL(rmw->rmw_op, RMW_SUB);
    CU_ASSERT_EQUAL(rmw->order, ORD_SC);
    CU_ASSERT(rmw->single_event);
    CU_ASSERT_EQUAL(rmw->flag_dst, -1);
    CU_ASSERT_EQUAL(p1->instrs[k].op, OP_FENCE);
    CU_ASSERT_EQUAL(p1->instrs[k++].order, ORD_ACQ_REL);
    CU_ASSERT_EQUAL(p1->ninstrs, k);
    /* observed: the locations clause, then the condition's terms */
    CU_ASSERT_EQUAL_FATAL(t->nobserved, 3);
    CU_ASSERT_EQUAL(t->observed[0].kind, TERM_LOC);
    CU_ASSERT_EQUAL(t->observed[2].kind, TERM_LOC);
    CU_ASSERT_EQUAL(t->observed[2].loc, litmus_loc_index(t, "x"));
}

static void test_cas_code(void)
{
    litmus_test *t = parse("C cas\n{ x = 1; e = 1 }\n"
                           "P0 (atomic_int* x, int* e) {\n"
                           "  int r0 = atomic_compare_exchange_weak_explicit(x, e, 2, memory_order_acq_rel,"
                           " memory_order_acquire);\n"
                           "}\nexists (0:r0 = 1)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const lit_thread *p0 = &t->threads[0];
    /* *e read plainly; the exchange; if it failed, *e = the value read */
    CU_ASSERT_EQUAL_FATAL(p0->ninstrs, 4);
    CU_ASSERT_EQUAL(p0->instrs[0].op, OP_LOAD);
    CU_ASSERT_EQUAL(p0->instrs[0].order, ORD_WEAK);
    const lit_instr *cas = &p0->instrs[1];
    CU_ASSERT_EQUAL(cas->op, OP_RMW);
    CU_ASSERT_EQUAL(cas->rmw_op, RMW_CAS);
    CU_ASSERT(cas->single_event && cas->cas_weak);
    CU_ASSERT_EQUAL(cas->order, ORD_ACQ_REL);
    CU_ASSERT_EQUAL(cas->order_fail, ORD_ACQUIRE);
    CU_ASSERT_EQUAL(cas->flag_dst, litmus_reg_index(p0, "r0"));
    CU_ASSERT_EQUAL(p0->instrs[2].op, OP_BRANCH);
    CU_ASSERT_EQUAL(p0->instrs[2].target, 4);
    CU_ASSERT_EQUAL(p0->instrs[3].op, OP_STORE);
    CU_ASSERT_EQUAL(p0->instrs[3].order, ORD_WEAK);
}

static void test_filter_terms_are_hidden(void)
{
    litmus_test *t = parse("C f\n{ x = 0; }\nP0 (atomic_int* x) {\n  int r1 = atomic_load(x);\n"
                           "  int r2 = 0;\n}\nfilter (0:r2 = 0 /\\ 0:r1 = 0)\nexists (0:r1 = 0)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL(t->filter);
    CU_ASSERT_EQUAL(t->nobserved, 1);   /* 0:r1 */
    CU_ASSERT_EQUAL_FATAL(t->nhidden, 1);  /* 0:r2, named only by the filter */
    CU_ASSERT_EQUAL(t->hidden[0].reg, litmus_reg_index(&t->threads[0], "r2"));
}

/* A filter of any length is walked without recursion (100,000 terms of one
 * location: nothing hidden, since the condition observes 0:r1 only and x
 * is named by the filter alone, once); 1,024 filtered registers and
 * locations are taken, the 1,025th is refused at the word `filter`. */
static void test_filter_limits(void)
{
    static const char head[] = "C f\n{ x = 0; }\nP0 (atomic_int* x) {\n  int r1 = atomic_load(x);\n}\nfilter (";
    static const char tail[] = ")\nexists (0:r1 = 0)\n";
    size_t cap = sizeof head + sizeof tail + 100000 * 8;
    char *text = GC_MALLOC_ATOMIC(cap);
    size_t n = (size_t)snprintf(text, cap, "%s", head);
    for (int i = 0; i < 100000; i++)
        n += (size_t)snprintf(text + n, cap - n, "%sx=0", i ? " /\\ " : "");
    snprintf(text + n, cap - n, "%s", tail);
    litmus_test *t = parse(text);
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nobserved, 1);
    CU_ASSERT_EQUAL(t->nhidden, 1);
    for (int many = 1023; many <= 1024; many++) {
        /* 0:r1 observed, 0:r0 .. 0:r(many-1) filtered: 1 + many terms */
        n = (size_t)snprintf(text, cap, "%s", head);
        for (int i = 0; i < many; i++)
            n += (size_t)snprintf(text + n, cap - n, "%s0:q%d=0", i ? " /\\ " : "", i);
        snprintf(text + n, cap - n, "%s", tail);
        t = parse(text);
        if (many == 1023) {
            CU_ASSERT_PTR_NOT_NULL(t);
            CU_ASSERT_STRING_EQUAL(errbuf, "");
        } else {
            CU_ASSERT_PTR_NULL(t);
            CU_ASSERT_STRING_EQUAL(errbuf, "t.litmus:6:1: error: more than 1024 registers and locations "
                                           "observed or filtered on\n");
        }
    }
}

static void test_errors(void)
{
    static const struct { const char *text, *want; } cases[] = {
        {"C t\n{ x = 0; }\nP0 (atomic_int* x) {\n  atomic_exchange(x);\n}\nexists (x=1)\n",
         "t.litmus:4:3: error: 'atomic_exchange' takes 2 arguments, not 1\n"},
        {"C t\n{ x = 0; }\nP0 (atomic_int* x) {\n  int r = atomic_store(x, 1);\n}\nexists (x=1)\n",
         "t.litmus:4:11: error: 'atomic_store' has no value\n"},
        {"C t\n{ x = 0; }\nP0 (atomic_int* x) {\n  atomic_load(r);\n}\nexists (x=1)\n",
         "t.litmus:4:15: error: undeclared location 'r' (not a parameter of thread P0)\n"},
        {"C t\n{ x = 0; }\nP0 (atomic_int* x, int* e) {\n  int r = 1;\n"
         "  atomic_compare_exchange_strong(x, r, 1);\n}\nexists (x=1)\n",
         "t.litmus:5:37: error: the expected argument of 'atomic_compare_exchange_strong' must be a location "
         "(a pointer parameter) or &variable\n"},
        {"C t\n{ x = 0 }\nP0 (atomic_int* x) { }\nP0 (atomic_int* x) { }\nexists (x=1)\n",
         "t.litmus:4:1: error: thread 'P0' out of order: expected P1\n"},
        {"C t\n{ x = 0; }\nP0 (atomic_int* x, atomic_int* x) { }\nexists (x=1)\n",
         "t.litmus:3:32: error: parameter 'x' is declared twice\n"},
        {"C t\n{ 5:r0 = 1; }\nP0 (atomic_int* x) { }\nexists (x=1)\n",
         "t.litmus:2:3: error: unknown thread 5 in the init block (the test has 1 thread)\n"},
        {"C t\n{ x = y; }\nP0 (atomic_int* x) { }\nexists (x=1)\n",
         "t.litmus:2:7: error: locations holding addresses (pointers) are not supported\n"},
        {"C t\n{ x = 0; }\nP0 (atomic_int* x) {\n  int r = 0;\n  int s = *(r + 1);\n}\nexists (x=1)\n",
         "t.litmus:5:11: error: expected a location after '*' (x, or x + an offset)\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CU_ASSERT_PTR_NULL(parse(cases[i].text));
        if (strcmp(errbuf, cases[i].want) != 0)
            fprintf(stderr, "\ncase %zu: got      %swant     %s", i, errbuf, cases[i].want);
        CU_ASSERT_STRING_EQUAL(errbuf, cases[i].want);
    }
}

/* ---- single-event read-modify-writes through the enumerator ---- */

static check_result run(const char *test_text, const char *model_text)
{
    litmus_test *t = parse(test_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    cat_model *m = cat_load_string("m.cat", model_text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    enum_options o = {.unroll = 2, .max_traces = 10000};
    check_result r;
    CU_ASSERT_TRUE_FATAL(enumerate_check(t, m, cat_workspace_new(m), &o, &r, stderr));
    return r;
}

static void test_rmw_is_one_event(void)
{
    const char *one = "C one\n{ x = 0; }\nP0 (atomic_int* x) {\n"
                      "  int r0 = atomic_fetch_add_explicit(x, 5, memory_order_acq_rel);\n}\nexists (x = 5)\n";
    /* one event that reads and writes, in RMW, ACQ_REL and A; no rmw pair;
     * it reads the initial write (never itself); the initial write is NA,
     * as herd7 makes it for C */
    check_result r = run(one, "empty (R & W & RMW & ACQ_REL & A) \\ (R \\ IW)\n~empty R & W & RMW & ACQ_REL & A\n"
                              "empty rmw\nempty rf & id\n~empty rf & (IW * RMW)\n~empty NA & IW\n"
                              "empty fr & id\n");
    CU_ASSERT_EQUAL(r.consistent, 1);
    CU_ASSERT_EQUAL(r.positive, 1);
    /* two increments under SC: never both read 0; x ends at 2 */
    const char *two = "C two\n{ x = 0; }\n"
                      "P0 (atomic_int* x) {\n  int r0 = atomic_fetch_add(x, 1);\n}\n"
                      "P1 (atomic_int* x) {\n  int r0 = atomic_fetch_add(x, 1);\n}\n"
                      "exists (0:r0 = 0 /\\ 1:r0 = 0)\n";
    r = run(two, "acyclic po | rf | co | fr\n");
    CU_ASSERT_EQUAL(r.positive, 0);
    CU_ASSERT_EQUAL(outcome_count(r.states), 2);   /* (0,1) and (1,0) */
}

static void test_cas_success_and_failure(void)
{
    /* x = 1, e = 0: a strong exchange always fails (reads 1, expected 0),
     * a plain read of x with the failure order, and writes 1 into e */
    const char *strong = "C s\n{ x = 1; e = 0; }\nP0 (atomic_int* x, int* e) {\n"
                         "  int r0 = atomic_compare_exchange_strong_explicit(x, e, 7, memory_order_seq_cst,"
                         " memory_order_acquire);\n}\nforall (0:r0 = 0 /\\ e = 1 /\\ x = 1)\n";
    check_result r = run(strong, "empty RMW\n~empty R & ACQ & A\n");
    CU_ASSERT_EQUAL(r.consistent, 1);
    CU_ASSERT_EQUAL(r.negative, 0);
    /* x = 0 = e: the strong one succeeds only, the weak one either way */
    const char *weak = "C w\n{ x = 0; e = 0; }\nP0 (atomic_int* x, int* e) {\n"
                       "  int r0 = atomic_compare_exchange_weak(x, e, 7);\n}\nexists (0:r0 = 0 /\\ x = 0)\n";
    r = run(weak, "acyclic po | rf | co | fr\n");
    CU_ASSERT_EQUAL(outcome_count(r.states), 2);
    CU_ASSERT_EQUAL(r.positive, 1);
}

/* ---- accesses at a computed address (herd7's x + e) ---- */

/* P1 reads y, then x at an address computed from what it read, in the
 * form `access`; every execution has that addr edge and no ctrl edge. */
static check_result run_addr_form(const char *access, const char *model)
{
    char text[1024];
    snprintf(text, sizeof text,
             "C a\n{}\nP0 (atomic_int* y, atomic_int* x) {\n"
             "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
             "  atomic_store_explicit(y, 1, memory_order_release);\n}\n"
             "P1 (atomic_int* y, atomic_int* x) {\n"
             "  int r0 = atomic_load_explicit(y, memory_order_consume);\n  %s\n}\n"
             "exists (1:r0 = 1 /\\ 1:r1 = 0)\n", access);
    return run(text, model);
}

static void test_computed_address(void)
{
    static const char *const forms[] = {
        "int r1 = atomic_load_explicit(x + (r0 & 128), memory_order_relaxed);",
        "int r1 = atomic_load_explicit((r0 & 128) + x, memory_order_relaxed);",
        "int r1 = *(x + (r0 & 128));",
        "int r1 = atomic_load_explicit(&x[r0 & 128], memory_order_relaxed);",
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        /* 2 x 2 executions (r0, r1 in {0, 1}), each with an addr edge
         * from the read of y to the read of x, none with a ctrl edge */
        check_result r = run_addr_form(forms[i], "~empty addr\nempty ctrl\n");
        CU_ASSERT_EQUAL(r.consistent, 4);
        r = run_addr_form(forms[i], "let a = [R] ; addr ; [R]\n~empty a\nempty addr \\ a\n");
        CU_ASSERT_EQUAL(r.consistent, 4);
    }
    /* a fixed address x + 0 has no dependency (herd7: no register in it) */
    check_result r = run_addr_form("int r1 = atomic_load_explicit(x + 0, memory_order_relaxed);", "empty addr\n");
    CU_ASSERT_EQUAL(r.consistent, 4);
    /* x + r0 with r0 = 1 reads location x+1, which nothing writes and has
     * no initial value (herd7): only r0 = 0 runs (2 executions) */
    r = run_addr_form("int r1 = atomic_load_explicit(x + r0, memory_order_relaxed);", "~empty addr\n");
    CU_ASSERT_EQUAL(r.consistent, 2);
}

/* x + 1 on a location that is no array is another location (herd7 keeps
 * [x] apart from the store's x+1), which reads of x + 1 see. */
static void test_offset_is_another_location(void)
{
    check_result r = run("C xp1\n{ }\nP0 (atomic_int* x) {\n"
                         "  atomic_store_explicit(x + 1, 1, memory_order_relaxed);\n}\nexists (x=1)\n",
                         "acyclic po | rf | co | fr\n");
    CU_ASSERT_EQUAL(r.positive, 0);
    CU_ASSERT_EQUAL(r.negative, 1);
    r = run("C xp1c\n{ }\nP0 (atomic_int* x) {\n  atomic_store_explicit(x + 1, 1, memory_order_relaxed);\n}\n"
            "P1 (atomic_int* x) {\n  int r0 = atomic_load_explicit(x + 1, memory_order_relaxed);\n}\n"
            "exists (1:r0=1)\n", "acyclic po | rf | co | fr\n");
    CU_ASSERT_EQUAL(r.positive, 1);
    CU_ASSERT_EQUAL(r.negative, 0);
}

void register_litmus_c_tests(void)
{
    CU_pSuite s = CU_add_suite("litmus_c", NULL, NULL);
    CU_add_test(s, "MP: header, info lines, init, params, atomics", test_mp);
    CU_add_test(s, "compare-exchange code", test_cas_code);
    CU_add_test(s, "filter terms are hidden", test_filter_terms_are_hidden);
    CU_add_test(s, "long and wide filters", test_filter_limits);
    CU_add_test(s, "bad inputs: exact diagnostics", test_errors);
    CU_add_test(s, "a read-modify-write is one event", test_rmw_is_one_event);
    CU_add_test(s, "compare-exchange success and failure", test_cas_success_and_failure);
    CU_add_test(s, "accesses at a computed address have addr", test_computed_address);
    CU_add_test(s, "x + 1 is another location", test_offset_is_another_location);
}
