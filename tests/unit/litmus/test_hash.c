/* test_hash.c: herd7's test digest (litmus/hash.h).  The expected hashes
 * are herd7 7.58's, printed by
 *   ../shared/bench/herd7/herd7 -model rc11.cat TEST.litmus
 * on the C tests of ../shared/corpus/c11-herd (C01, C02, C03, C05, C12)
 * and on two tests written for this (MPrel, whose text is below); the
 * canonical texts are those herd7 passes to MD5 (seen with gdb on
 * caml_MD5Update), built here from each test's parts as a C front end
 * would. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "litmus/hash.h"
#include "litmus/read.h"
#include "unit_suites.h"

static const char *digest(const char *init, const char *code, const char *observed)
{
    static char hex[33];
    herd_hash_digest(init, code, observed, hex);
    return hex;
}

/* One thread, one cell. */
static const char *one_thread(const char *type, const char *param, const char *body)
{
    const char *types[1] = {herd_hash_c_type(type)}, *names[1] = {param};
    const char *cells[1] = {herd_hash_c_cell(0, 1, types, names, body)};
    const char *const *cols[1] = {cells};
    int n[1] = {1};
    return herd_hash_code_text(1, cols, n);
}

static void test_c_types(void)
{
    CU_ASSERT_STRING_EQUAL(herd_hash_c_type("const int"), "int const");
    CU_ASSERT_STRING_EQUAL(herd_hash_c_type("volatile int"), "volatile int");
    CU_ASSERT_STRING_EQUAL(herd_hash_c_type("atomic_int"), "_Atomic int");
    CU_ASSERT_STRING_EQUAL(herd_hash_c_type("_Atomic int"), "_Atomic int");
    CU_ASSERT_STRING_EQUAL(herd_hash_c_type("__int128_t"), "__int128_t");
    CU_ASSERT_STRING_EQUAL(herd_hash_c_type("int"), "int");
}

static void test_c_corpus_hashes(void)
{
    /* C01: { x = 1 }  P0 (const int* x) { int r0 = *x; }  forall (0:r0=1) */
    herd_init_item c01[] = {{-1, "x", NULL, 1}};
    const char *init = herd_hash_init_text(c01, 1);
    CU_ASSERT_STRING_EQUAL(init, "x=1");
    const char *code = one_thread("const int", "x", "\n  int r0 = *x;\n");
    CU_ASSERT_STRING_EQUAL(code, " P0(int const* x) {\n\n  int r0 = *x;\n\n}\n ;\n");
    CU_ASSERT_STRING_EQUAL(digest(init, code, "0:r0"), "f26e77b9ef2528a6e6c9757a77f150a1");

    /* C03: {}  P0 (int* y) { atomic_fetch_add_explicit(y,1,...); }  forall y=1 */
    code = one_thread("int", "y", "\n  atomic_fetch_add_explicit(y,1,memory_order_seq_cst);\n");
    CU_ASSERT_STRING_EQUAL(digest(herd_hash_init_text(NULL, 0), code, "y"), "71a98e010b15b2b87bfe01c34e457390");

    /* C05: { __int128_t x=1; }  P0 (__int128_t *x) { *x = 0; } */
    herd_init_item c05[] = {{-1, "x", "__int128_t", 1}};
    init = herd_hash_init_text(c05, 1);
    CU_ASSERT_STRING_EQUAL(init, "__int128_t x=1");
    code = one_thread("__int128_t", "x", "\n *x = 0;\n");
    CU_ASSERT_STRING_EQUAL(digest(init, code, "x"), "db772c002d727bd43e0889f42282f9f6");

    /* C12: { int x = 0 }  P0(int *x) { *x = 1; } */
    herd_init_item c12[] = {{-1, "x", "int", 0}};
    code = one_thread("int", "x", "\n  *x = 1;\n");
    CU_ASSERT_STRING_EQUAL(digest(herd_hash_init_text(c12, 1), code, "x"), "17c3538e1d8870eb1bb0ac35f89243af");
}

/* Two threads side by side, and the observed locations' order.  MPrel:
 *   C MPrel
 *   { x = 0; y = 0; }
 *   P0 (atomic_int* x, atomic_int* y) {
 *     atomic_store_explicit(x, 1, memory_order_relaxed);
 *     atomic_store_explicit(y, 1, memory_order_release);
 *   }
 *   P1 (atomic_int* x, atomic_int* y) {
 *     int r0 = atomic_load_explicit(y, memory_order_acquire);
 *     int r1 = atomic_load_explicit(x, memory_order_relaxed);
 *   }
 *   exists (x=1 /\ y=1 /\ 1:r0=1 /\ 1:r1=0)       -> Hash=a7efd3fe7601268d31d780a8575c0a95
 *   (the same with exists (1:r0=1 /\ 1:r1=0))     -> Hash=44bd3ce55d77c00baf3ca1a465d76986 */
static void test_two_threads(void)
{
    const char *types[2] = {herd_hash_c_type("atomic_int"), herd_hash_c_type("atomic_int")};
    const char *names[2] = {"x", "y"};
    const char *p0[1] = {herd_hash_c_cell(0, 2, types, names,
                                          "\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
                                          "  atomic_store_explicit(y, 1, memory_order_release);\n")};
    const char *p1[1] = {herd_hash_c_cell(1, 2, types, names,
                                          "\n  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
                                          "  int r1 = atomic_load_explicit(x, memory_order_relaxed);\n")};
    const char *const *cols[2] = {p0, p1};
    int n[2] = {1, 1};
    const char *code = herd_hash_code_text(2, cols, n);
    herd_init_item init[] = {{-1, "y", NULL, 0}, {-1, "x", NULL, 0}};   /* sorted by the builder */
    const char *i = herd_hash_init_text(init, 2);
    CU_ASSERT_STRING_EQUAL(i, "x=0; y=0");
    CU_ASSERT_STRING_EQUAL(digest(i, code, "1:r0; 1:r1; x; y"), "a7efd3fe7601268d31d780a8575c0a95");
    CU_ASSERT_STRING_EQUAL(digest(i, code, "1:r0; 1:r1"), "44bd3ce55d77c00baf3ca1a465d76986");
}

/* herd's program layout: cells padded to their column's widest. */
static void test_code_layout(void)
{
    const char *a[2] = {"st x, 1", "ld r0, y"}, *b[1] = {"st.release y, 1"};
    const char *const *cols[2] = {a, b};
    int n[2] = {2, 1};
    CU_ASSERT_STRING_EQUAL(herd_hash_code_text(2, cols, n),
                           " st x, 1  | st.release y, 1 ;\n ld r0, y |                 ;\n");
}

/* For our own dialects: the same test laid out differently has the same
 * hash; another observed location changes it. */
static void test_ptx_hash_ignores_layout(void)
{
    const char *a = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                    " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n"
                    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    const char *b = "PTX MP\n(* a comment *)\n{\n y=0;\n x=0;\n}\n P0@cta 0,gpu 0   |   P1@cta 1,gpu 0 ;\n"
                    "   st.weak   x, 1 | ld.weak r0,   y ;\n st.weak y, 1 | ld.weak r1, x ;\n"
                    "exists (P1:r1 == 0 /\\ P1:r0 == 1)\n";
    const char *c = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                    " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n"
                    "exists (P1:r0 == 1 /\\ x == 1)\n";
    litmus_test *ta = litmus_parse_text("a.litmus", a, strlen(a), stderr);
    litmus_test *tb = litmus_parse_text("b.litmus", b, strlen(b), stderr);
    litmus_test *tc = litmus_parse_text("c.litmus", c, strlen(c), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ta);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tc);
    CU_ASSERT_EQUAL(strlen(litmus_herd_hash(ta)), 32);
    CU_ASSERT_STRING_EQUAL(litmus_herd_hash(ta), litmus_herd_hash(tb));
    CU_ASSERT_STRING_NOT_EQUAL(litmus_herd_hash(ta), litmus_herd_hash(tc));
}

void register_litmus_hash_tests(void)
{
    CU_pSuite s = CU_add_suite("litmus hash (herd7's digest)", NULL, NULL);
    CU_add_test(s, "herd's C type spelling", test_c_types);
    CU_add_test(s, "herd7's hashes of the C corpus", test_c_corpus_hashes);
    CU_add_test(s, "two threads, observed order", test_two_threads);
    CU_add_test(s, "program layout", test_code_layout);
    CU_add_test(s, "PTX hash ignores layout", test_ptx_hash_ignores_layout);
}
