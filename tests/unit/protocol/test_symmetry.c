/* test_symmetry.c: unit tests of protocol/symmetry.c: which CUs are
 * interchangeable, the canonical form on hand-picked states, the refusals,
 * and, on a whole state space explored with the tests' own BFS, that the
 * reduced space has one state per orbit (the distinct canonical forms of
 * the full space), that the orbits add up to the full space, and that the
 * outcomes are the same. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/read.h"
#include "proto_bfs.h"
#include "protocol/protocol.h"
#include "protocol/symmetry.h"
#include "unit_suites.h"

#define BCAST "tests/symmetry/MP-bcast-3.litmus"

static proto_instance *instance(const char *model, const char *litmus)
{
    protocol *p = protocol_load(model, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_read_file(litmus, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return in;
}

/* The successor that rule `rule` (thread `rule`'s step) gives from s. */
static void step_of(const nsi_model *m, const uint8_t *s, int rule, uint8_t *out)
{
    proto_succs succ;
    proto_successors(m, s, &succ);
    for (int k = 0; k < succ.n && k < PROTO_STEP_MAX; k++)
        if (succ.rule[k] == rule) {
            memcpy(out, succ.state[k], m->state_bytes);
            return;
        }
    CU_FAIL("no successor by that rule");
}

/* MP-bcast-3: P1, P2, P3 run one program on CUs 1-3 (6 permutations);
 * P0, the writer, runs another. */
static void test_group_found(void)
{
    proto_instance *in = instance("models/gpu_vi.proto", BCAST);
    const char *note = NULL;
    CU_ASSERT_TRUE(proto_symmetry_find(in, &note));
    CU_ASSERT_EQUAL(proto_symmetry_order(in), 6);
    CU_ASSERT_STRING_EQUAL(note, "CUs {1,2,3} (P1,P2,P3) interchangeable (6 permutations)");
    CU_ASSERT_FALSE(proto_symmetry_active(in));
    CU_ASSERT_PTR_NULL(proto_nsi(in)->canonicalize);
    proto_symmetry_enable(in);
    CU_ASSERT_TRUE(proto_symmetry_active(in));
    CU_ASSERT_PTR_NOT_NULL(proto_nsi(in)->canonicalize);
}

/* From the initial state, P1's first load and P2's first load give states
 * that differ by swapping CUs 1 and 2: different bytes, equal canonical
 * forms.  P0's store and P1's load are not related by a permutation: their
 * canonical forms differ. */
static void test_swap_gives_equal_bytes(void)
{
    proto_instance *in = instance("models/gpu_vi.proto", BCAST);
    CU_ASSERT_TRUE_FATAL(proto_symmetry_find(in, NULL));
    const nsi_model *m = proto_nsi(in);
    size_t n = m->state_bytes;
    uint8_t init[PROTO_STEP_BYTES], a[PROTO_STEP_BYTES], b[PROTO_STEP_BYTES], w[PROTO_STEP_BYTES];
    CU_ASSERT_FATAL(n <= PROTO_STEP_BYTES);
    m->initial(m->ctx, init);
    step_of(m, init, 1, a);
    step_of(m, init, 2, b);
    step_of(m, init, 0, w);
    CU_ASSERT_NOT_EQUAL(memcmp(a, b, n), 0);
    uint8_t ca[PROTO_STEP_BYTES], cb[PROTO_STEP_BYTES], cw[PROTO_STEP_BYTES], ci[PROTO_STEP_BYTES];
    memcpy(ca, a, n), memcpy(cb, b, n), memcpy(cw, w, n), memcpy(ci, init, n);
    proto_symmetry_canonicalize(in, ca);
    proto_symmetry_canonicalize(in, cb);
    proto_symmetry_canonicalize(in, cw);
    proto_symmetry_canonicalize(in, ci);
    CU_ASSERT_EQUAL(memcmp(ca, cb, n), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(ca, cw, n), 0);
    CU_ASSERT_EQUAL(memcmp(ci, init, n), 0);     /* the initial state is symmetric */
    /* canonical forms are fixed points, and every group element's image
     * of a state has the same one */
    uint8_t again[PROTO_STEP_BYTES], img[PROTO_STEP_BYTES];
    memcpy(again, ca, n);
    proto_symmetry_canonicalize(in, again);
    CU_ASSERT_EQUAL(memcmp(again, ca, n), 0);
    for (int g = 0; g < proto_symmetry_order(in); g++) {
        proto_symmetry_apply(in, g, a, img);
        proto_symmetry_canonicalize(in, img);
        CU_ASSERT_EQUAL(memcmp(img, ca, n), 0);
    }
    proto_symmetry_apply(in, 0, a, img);
    CU_ASSERT_EQUAL(memcmp(img, a, n), 0);       /* element 0 is the identity */
}

/* CUs whose programs differ in one instruction (MP's P0 and P1), or that
 * are alone, are not interchangeable. */
static void test_no_group(void)
{
    proto_instance *in = instance("models/gpu_vi.proto", "litmus/protocol/MP-stale-seed.litmus");
    const char *note = NULL;
    CU_ASSERT_FALSE(proto_symmetry_find(in, &note));
    CU_ASSERT_STRING_EQUAL(note, "no two CUs run identical programs");
    CU_ASSERT_EQUAL(proto_symmetry_order(in), 1);
    proto_symmetry_enable(in);
    CU_ASSERT_PTR_NULL(proto_nsi(in)->canonicalize);
}

/* Protocols that keep CU ids in their state are refused, with the reason:
 * gpu_vi_multi's memory messages carry the requester's CU, srsp's rows
 * send `cu` in messages and store it. */
static void test_refusals(void)
{
    const char *note = NULL;
    proto_instance *multi = instance("models/gpu_vi_multi.proto", BCAST);
    CU_ASSERT_FALSE(proto_symmetry_find(multi, &note));
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "protocol gpu_vi_multi: message MemLoad carries a CU id"));
    proto_instance *rsp = instance("models/srsp.proto", "litmus/rsp/LOCK3.litmus");
    CU_ASSERT_FALSE(proto_symmetry_find(rsp, &note));
    CU_ASSERT_PTR_NOT_NULL(strstr(note, "protocol srsp: message SelFlush carries a CU id"));
}

typedef struct orbit_seen { proto_bfs *full; int n, missing; } orbit_seen;

static void check_orbit_value(void *ctx, int g, const lit_value *values)
{
    (void)g;
    orbit_seen *o = ctx;
    lit_value v[PROTO_BFS_MAX_OBS] = {0};
    memcpy(v, values, sizeof *v * (size_t)o->n);
    o->missing += !proto_bfs_saw(o->full, v, PROTO_BFS_MAX_OBS);
}

static int cmp_state(const void *a, const void *b, void *n)
{
    return memcmp(a, b, *(size_t *)n);
}

/* The whole space of MP-bcast-3 with and without the reduction: the
 * reduced space is the set of distinct canonical forms of the full one;
 * the orbits of its states (their distinct images under the 6
 * permutations) add up to the full space; the outcomes are equal. */
static void test_reduced_space(void)
{
    proto_instance *plain = instance("models/gpu_vi.proto", BCAST);
    proto_instance *sym = instance("models/gpu_vi.proto", BCAST);
    CU_ASSERT_TRUE_FATAL(proto_symmetry_find(sym, NULL));
    proto_symmetry_enable(sym);
    proto_bfs full = {0}, red = {0};
    size_t nfull = proto_bfs_explore(&full, plain), nred = proto_bfs_explore(&red, sym);
    size_t n = full.bytes;
    CU_ASSERT(nred < nfull);
    CU_ASSERT_EQUAL(red.deadlocks, 0);
    CU_ASSERT_EQUAL(full.deadlocks, 0);

    uint8_t *canon = malloc(nfull * n);
    memcpy(canon, full.states, nfull * n);
    for (size_t k = 0; k < nfull; k++)
        proto_symmetry_canonicalize(sym, canon + k * n);
    qsort_r(canon, nfull, n, cmp_state, &n);
    size_t distinct = 0;
    for (size_t k = 0; k < nfull; k++)
        distinct += k == 0 || memcmp(canon + k * n, canon + (k - 1) * n, n) != 0;
    CU_ASSERT_EQUAL(distinct, nred);
    free(canon);

    size_t orbits = 0;
    uint8_t *img = malloc(6 * n);
    for (size_t k = 0; k < nred; k++) {
        int m = 0;
        for (int g = 0; g < 6; g++) {
            proto_symmetry_apply(sym, g, red.states + k * n, img + (size_t)m * n);
            bool seen = false;
            for (int j = 0; j < m; j++)
                seen |= memcmp(img + (size_t)j * n, img + (size_t)m * n, n) == 0;
            m += !seen;
        }
        orbits += (size_t)m;
    }
    CU_ASSERT_EQUAL(orbits, nfull);
    free(img);

    CU_ASSERT_EQUAL(red.noutcomes, full.noutcomes);
    for (int k = 0; k < red.noutcomes; k++)
        CU_ASSERT_TRUE(proto_bfs_saw(&full, red.outcome[k], PROTO_BFS_MAX_OBS));
    /* proto_symmetry_orbit_values gives the same values as applying each element */
    orbit_seen o = {&full, 4, 0};
    for (size_t k = 0; k < nred; k++)
        if (proto_nsi(sym)->is_final(sym, red.states + k * n))
            proto_symmetry_orbit_values(sym, red.states + k * n, check_orbit_value, &o);
    CU_ASSERT_EQUAL(o.missing, 0);
    proto_bfs_free(&full);
    proto_bfs_free(&red);
}

void register_symmetry_tests(void)
{
    CU_pSuite s = CU_add_suite("protocol symmetry", NULL, NULL);
    CU_add_test(s, "interchangeable CUs found", test_group_found);
    CU_add_test(s, "swapped CUs give equal canonical bytes", test_swap_gives_equal_bytes);
    CU_add_test(s, "different programs: no group", test_no_group);
    CU_add_test(s, "CU ids in the state: refused", test_refusals);
    CU_add_test(s, "reduced space: one state per orbit, same outcomes", test_reduced_space);
}
