/* test_protocol.c: unit tests of the protocol table language (parser,
 * errors with positions), the GPU VI baseline's state counts against the
 * Rumur model, final values and unhandled (state, event) reports.  A tiny
 * breadth-first search with a plain hash set lives here so that these tests
 * do not depend on the search back end. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/read.h"
#include "proto_bfs.h"
#include "protocol/protocol.h"
#include "unit_suites.h"

#define MODEL "models/gpu_vi.proto"

/* Explores the whole space of `in` with the tests' own small BFS; no
 * reached state may break an invariant of the baseline. */
static size_t explore(proto_bfs *b, proto_instance *in)
{
    size_t n = proto_bfs_explore(b, in);
    CU_ASSERT_PTR_NULL(b->violated);
    return n;
}

static proto_instance *instance(const char *model, const char *litmus, const proto_options *o)
{
    protocol *p = protocol_load(model, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_read_file(litmus, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, o, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return in;
}

static size_t count(const char *litmus, long *transitions)
{
    proto_instance *in = instance(MODEL, litmus, NULL);
    proto_bfs b = {0};
    size_t n = explore(&b, in);
    *transitions = b.transitions;
    proto_bfs_free(&b);
    return n;
}

static void test_count_mp(void)
{
    long tr;
    CU_ASSERT_EQUAL(count("litmus/protocol/MP-stale-seed.litmus", &tr), 268);
    CU_ASSERT_EQUAL(tr, 541);   /* Rumur's "rules fired" */
}

static void test_count_iriw4(void)
{
    long tr;
    CU_ASSERT_EQUAL(count("litmus/protocol/IRIW-acq-4.litmus", &tr), 3760);
    CU_ASSERT_EQUAL(tr, 11916);
}

static void test_count_iriwplus4(void)
{
    long tr;
    CU_ASSERT_EQUAL(count("litmus/protocol/IRIW-plus-4.litmus", &tr), 295805);
    CU_ASSERT_EQUAL(tr, 1398026);
}

/* MP under the baseline never ends with r1 = 1, r2 = 0 (observed order:
 * P1:r1, P1:r2). */
static void test_mp_final_values(void)
{
    proto_instance *in = instance(MODEL, "litmus/protocol/MP-stale-seed.litmus", NULL);
    proto_bfs b = {0};
    explore(&b, in);
    lit_value want_b[] = {1, 0};
    CU_ASSERT_FALSE(proto_bfs_saw(&b, want_b, 2));
    CU_ASSERT(b.finals > 0);
    /* and the allowed r1 = 1, r2 = 1 does occur */
    proto_bfs_free(&b);
    proto_bfs c = {0};
    explore(&c, in);
    lit_value want_c[] = {1, 1};
    CU_ASSERT_TRUE(proto_bfs_saw(&c, want_c, 2));
    proto_bfs_free(&c);
}

/* ---- parser ------------------------------------------------------------------- */

/* The model with the first occurrence of `from` replaced by `to`. */
static char *model_with(const char *from, const char *to)
{
    char *src = proto_read_all(MODEL), *at = strstr(src, from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    char *out = calloc(1, strlen(src) + strlen(to) + 1);
    memcpy(out, src, (size_t)(at - src));
    strcat(out, to);
    strcat(out, at + strlen(from));
    free(src);
    return out;
}

static void expect_error(const char *text, const char *want)
{
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    protocol *p = protocol_parse_text("t.proto", text, err);
    fclose(err);
    CU_ASSERT_PTR_NULL(p);
    if (!strstr(buf, want))
        fprintf(stderr, "\nwanted '%s', got '%s'\n", want, buf);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, want));
}

static void test_parse_model(void)
{
    protocol *p = protocol_load(MODEL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(protocol_name(p), "gpu_vi");
}

static void test_parse_errors(void)
{
    expect_error("protocol x\nconst A = \n", "t.proto:2:11: error: expected a number, found 'newline'");
    expect_error("protocol x\n  bogus 1\n", "t.proto:2:3: error: unknown declaration 'bogus'");
    expect_error("const A = 1\nconst A = 2\n", "t.proto:2:7: error: constant 'A' declared twice");
    expect_error("states I V\n", "t.proto:1:1: error: 'states' must follow a controller declaration");
    expect_error("value 0..1\nmessage M(val)\n", "t.proto:2:11: error: the first field of every message is 'addr'");
    expect_error("value 0..1\ncontroller C per cu processor\nstates I\n$\n", "t.proto:4:1: error: unexpected character '$'");
    expect_error("value 0..1\ncontroller C shared\nmemory C.val\n", "t.proto:3:10: error: controller C has no line field 'val'");
    expect_error("value 0..1\ncontroller C per cu\nfield val : value\ncontroller M shared\n"
                 "field val : value\nmemory M.val\n", "t.proto:7:1: error: no controller is declared 'processor'");
    char *s = model_with("V       | load.weak ", "X       | load.weak ");
    expect_error(s, "error: controller L1 has no state 'X'");
    free(s);
    s = model_with("send req[slice(addr)] Load(addr); loads += 1; wait", "send req[slice(addr)] Load(addr, 1); loads += 1; wait");
    expect_error(s, "error: message Load has 1 fields");
    free(s);
    s = model_with("| recv resp.StoreAck   |", "| recv req.StoreAck    |");
    expect_error(s, "error: channel req does not lead to L1");
    free(s);
    s = model_with("acks -= 1", "ackz -= 1");
    expect_error(s, "error: unknown action or variable 'ackz'");
    free(s);
    s = model_with("  *       | fence.sc.gpu ", "  V       | fence.sc.gpu ");
    expect_error(s, "error: fences act on no line: their state column must be '*'");
    free(s);
    s = model_with("  *       | fence.sc.gpu ", "  *       | fence.sc.galaxy ");
    expect_error(s, "error: unknown scope 'galaxy'");
    free(s);
}

/* The model without the (first) line that contains `part`. */
static char *model_without_line(const char *part)
{
    char *src = proto_read_all(MODEL), *at = strstr(src, part);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    char *bol = at, *eol = strchr(at, '\n');
    while (bol > src && bol[-1] != '\n')
        bol--;
    memmove(bol, eol + 1, strlen(eol + 1) + 1);
    return src;
}

/* Exact position: the removed row's neighbour names an unknown state. */
static void test_parse_error_position(void)
{
    char *s = model_with("line.pend - 1; acks -= 1",
                         "line.pend - 1; acks -= q");
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(protocol_parse_text("m.proto", s, err));
    fclose(err);
    /* locate the line of the row in the text to compute the expected position */
    int line = 1;
    const char *at = strstr(s, "acks -= q");
    for (const char *c = s; c < at; c++)
        line += *c == '\n';
    const char *bol = at;
    while (bol > s && bol[-1] != '\n')
        bol--;
    char want[128];
    snprintf(want, sizeof want, "m.proto:%d:%d: error: unknown name 'q'\n", line, (int)(at - bol) + 9);
    CU_ASSERT_STRING_EQUAL(buf, want);
    free(s);
}

static void test_unhandled(void)
{
    char *s = model_without_line("| recv resp.StoreAck ");
    protocol *p = protocol_parse_text("cut.proto", s, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_read_file("litmus/protocol/MP-stale-seed.litmus", stderr);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    proto_bfs b = {0};
    explore(&b, in);
    proto_unhandled_pair u[8];
    int n = proto_unhandled(in, u, 8);
    CU_ASSERT(n >= 1);
    bool found = false;
    for (int i = 0; i < n && i < 8; i++)
        found |= !strcmp(u[i].controller, "L1") && !strcmp(u[i].event, "recv resp.StoreAck");
    CU_ASSERT_TRUE(found);
    proto_bfs_free(&b);
    free(s);
}

static void test_unsupported_instr(void)
{
    protocol *p = protocol_load(MODEL, stderr);
    const char *text = "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.relaxed.sys r0, x ;\nexists (P0:r0 == 0)\n";
    litmus_test *t = litmus_parse_text("t.litmus", text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(proto_instantiate(p, t, NULL, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "t.litmus:6:2: error: protocol gpu_vi cannot run"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "(load.relaxed.sys)"));
}

/* IRIW+ writers have a store and an atomic in flight at once: an
 * unordered network adds states, capacity 1 removes some. */
static void test_unordered_network(void)
{
    proto_options o = {.net = PROTO_NET_UNORDERED};
    proto_instance *in = instance(MODEL, "litmus/protocol/IRIW-plus-4.litmus", &o);
    proto_bfs b = {0};
    CU_ASSERT(explore(&b, in) > 295805);
    proto_bfs_free(&b);
    proto_options cap1 = {.net = PROTO_NET_AS_DECLARED, .noverrides = 1, .override_name = {"CAP"}, .override_value = {1}};
    in = instance(MODEL, "litmus/protocol/IRIW-plus-4.litmus", &cap1);
    proto_bfs c = {0};
    CU_ASSERT(explore(&c, in) < 295805);
    proto_bfs_free(&c);
    proto_options bad = {.net = PROTO_NET_AS_DECLARED, .noverrides = 1, .override_name = {"NOPE"}, .override_value = {1}};
    char buf[256] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    litmus_test *t = litmus_read_file("litmus/protocol/MP-stale-seed.litmus", stderr);
    CU_ASSERT_PTR_NULL(proto_instantiate(protocol_load(MODEL, stderr), t, &bad, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "gpu_vi.proto:23:1: error: --const NOPE: protocol gpu_vi declares no such constant"));
}

/* The large configuration: IRIW on 6 CUs, 1,197,664 states. */
static void test_count_iriw6(void)
{
    long tr;
    CU_ASSERT_EQUAL(count("litmus/protocol/IRIW-acq-6.litmus", &tr), 1197664);
    CU_ASSERT_EQUAL(tr, 5821332);
}

/* Two threads of one CTA share a CU and its L1: a cta-scoped message
 * passing pair synchronises through the shared L1 and the ordered network,
 * so the stale outcome r0 = 1, r1 = 0 never ends a run; responses go back
 * to the thread that asked. */
static void test_shared_cu(void)
{
    protocol *p = protocol_load(MODEL, stderr);
    const char *text = "PTX SharedCU\n{\nx=0; y=0;\n}\n"
                       " P0@cta 0,gpu 0      | P1@cta 0,gpu 0       ;\n"
                       " st.weak x, 1        | ld.acquire.cta r0, y ;\n"
                       " st.release.cta y, 1 | ld.weak r1, x        ;\n"
                       "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    litmus_test *t = litmus_parse_text("shared.litmus", text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    proto_bfs b = {0};
    explore(&b, in);
    CU_ASSERT(b.finals > 0);
    lit_value want_b[] = {1, 0};
    CU_ASSERT_FALSE(proto_bfs_saw(&b, want_b, 2));
    CU_ASSERT_EQUAL(proto_unhandled(in, NULL, 0), 0);
    proto_bfs_free(&b);
}

/* ---- described steps ------------------------------------------------------------ */

/* MP: P1 misses on x, the L2 answers, the L1 fills and P1 reads 0; then
 * P0's stores, an eviction, P1's acquire. */
static void test_describe(void)
{
    proto_instance *in = instance(MODEL, "litmus/protocol/MP-stale-seed.litmus", NULL);
    const nsi_model *m = proto_nsi(in);
    uint8_t st[64];
    m->initial(m->ctx, st);
    proto_step(m, st, "P1 ", "P1 (CU 1) L1[x] in I: load.weak -> send req[1] Load(x); loads += 1 (now 1); wait\n");
    proto_step(m, st, "L2[x] ", "L2[x] in V: recv req[1].Load(x) -> send resp[1] LoadResp(x, 0)\n");
    proto_step(m, st, "(CU 1) ", "(CU 1) L1[x] in I: recv resp[1].LoadResp(x, 0) -> val := 0; P1 r0 = 0; loads -= 1 (now 0); acq := 0; next V\n");
    proto_step(m, st, "P0 ", "P0 (CU 0) L1[x] in I: store.weak -> send req[0] Store(x, 1); pend := 1; acks += 1 (now 1); done\n");
    proto_step(m, st, "L2[x] ", "L2[x] in V: recv req[0].Store(x, 1) -> val := 1; send resp[0] StoreAck(x)\n");
    proto_step(m, st, "(CU 0) ", "(CU 0) L1[x] in I: recv resp[0].StoreAck(x) -> pend := 0; acks -= 1 (now 0)\n");
    proto_step(m, st, "P0 ", "P0 (CU 0) L1[y] in I: store.release.gpu -> send req[0] Store(y, 1); pend := 1; acks += 1 (now 1); done\n");
    proto_step(m, st, "(CU 1) L1[x] in V: evict", "(CU 1) L1[x] in V: evict -> invalidate; next I\n");
    proto_step(m, st, "P1 ", "P1 (CU 1) L1[y] in I: load.acquire.gpu -> invalidate_all (nothing to drop); send req[1] Load(y); loads += 1 (now 1); acq := 1; wait; next I\n");
}

/* gpu_vi_unordered: a `keep` field survives invalidation.  The store's
 * pending count outlives the eviction of its line, so the StoreAck still
 * finds pend = 1 (were it reset, pend - 1 would leave 0..MAXOPS and the
 * acknowledgement could never be taken). */
static void test_keep_field(void)
{
    protocol *p = protocol_load("models/gpu_vi_unordered.proto", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *text = "PTX Keep\n{\nx=0;\n}\n"
                       " P0@cta 0,gpu 0 ;\n"
                       " ld.weak r0, x  ;\n"
                       " st.weak x, 1   ;\n"
                       "exists (P0:r0 == 0)\n";
    litmus_test *t = litmus_parse_text("keep.litmus", text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    const nsi_model *m = proto_nsi(in);
    uint8_t st[64];
    m->initial(m->ctx, st);
    proto_step(m, st, "P0 ", "P0 (CU 0) L1[x] in I: load.weak -> send req[0] Load(x); loads += 1 (now 1); miss := 1; wait\n");
    proto_step(m, st, "L2[x] ", "L2[x] in V: recv req[0].Load(x) -> send resp[0] LoadResp(x, 0)\n");
    proto_step(m, st, "(CU 0) ", "(CU 0) L1[x] in I: recv resp[0].LoadResp(x, 0) -> val := 0; P0 r0 = 0; loads -= 1 (now 0); miss := 0; acq := 0; next V\n");
    proto_step(m, st, "P0 ", "P0 (CU 0) L1[x] in V: store.weak -> val := 1; send req[0] Store(x, 1); pend := 1; "
                       "acks += 1 (now 1); done\n");
    proto_step(m, st, "(CU 0) L1[x] in V: evict", "(CU 0) L1[x] in V: evict -> invalidate; next I\n");
    CU_ASSERT_PTR_NULL(m->violated(m->ctx, st));
    proto_step(m, st, "L2[x] ", "L2[x] in V: recv req[0].Store(x, 1) -> val := 1; send resp[0] StoreAck(x)\n");
    proto_step(m, st, "(CU 0) ", "(CU 0) L1[x] in I: recv resp[0].StoreAck(x) -> pend := 0; acks -= 1 (now 0)\n");
    CU_ASSERT_TRUE(m->is_final(m->ctx, st));
}

/* gpu_vi_unordered keeps MP sound on its unordered network and handles
 * every event it meets. */
static void test_unordered_model(void)
{
    proto_instance *in = instance("models/gpu_vi_unordered.proto", "litmus/protocol/MP-stale-seed.litmus", NULL);
    proto_bfs b = {0};
    explore(&b, in);
    CU_ASSERT(b.finals > 0);
    lit_value want_b[] = {1, 0};
    CU_ASSERT_FALSE(proto_bfs_saw(&b, want_b, 2));
    CU_ASSERT_EQUAL(proto_unhandled(in, NULL, 0), 0);
    proto_bfs_free(&b);
}

/* ---- CTA barriers ---------------------------------------------------------------- */
static proto_instance *instance_text(const char *name, const char *text, FILE *errors)
{
    protocol *p = protocol_load(MODEL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_parse_text(name, text, strlen(text), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return proto_instantiate(p, t, NULL, errors);
}

/* bar.cta.sync in one CTA: P1 never reads the stale 0 after the barrier,
 * no run hangs; the barrier adds one counter (0..1: 1 bit) to the state. */
static void test_barrier_sync(void)
{
    proto_instance *in = instance(MODEL, "litmus/ptx/Bar-sync-samecta.litmus", NULL);
    proto_bfs b = {0};
    explore(&b, in);
    CU_ASSERT(b.finals > 0);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    lit_value want_b[] = {0};
    CU_ASSERT_FALSE(proto_bfs_saw(&b, want_b, 1));
    CU_ASSERT_EQUAL(proto_unhandled(in, NULL, 0), 0);
    proto_bfs_free(&b);
    /* the same test with cta fences in place of the barriers: the state
     * has one slot less, the counter (0..1: 1 bit), and nothing else */
    const char *text = "PTX NoBar\n{\nx=0;\n}\n P0@cta 0,gpu 0    | P1@cta 0,gpu 0    ;\n"
                       " st.weak x, 1      | fence.acq_rel.cta ;\n"
                       " fence.acq_rel.cta | ld.weak r0, x     ;\nexists (P1:r0 == 0)\n";
    proto_instance *nb = instance_text("nobar.litmus", text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nb);
    CU_ASSERT_EQUAL(proto_state_bits(in), proto_state_bits(nb) + 1);
}

/* A barrier that expects 3 threads where only 2 arrive never releases:
 * the search meets deadlocks and no final state. */
static void test_barrier_hang(void)
{
    const char *text = "PTX Hang\n{\nx=0;\n}\n"
                       " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
                       " st.weak x, 1         | bar.cta.sync 0, 0, 3 ;\n"
                       " bar.cta.sync 0, 0, 3 | ld.weak r0, x        ;\n"
                       "exists (P1:r0 == 0)\n";
    proto_instance *in = instance_text("hang.litmus", text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    proto_bfs b = {0};
    explore(&b, in);
    CU_ASSERT(b.deadlocks > 0);
    CU_ASSERT_EQUAL(b.finals, 0);
    proto_bfs_free(&b);
}

/* Two successive uses of barrier 0 (the first with its id in a register)
 * and an arrive: the counter goes back to 0 at each release, every run
 * ends, and the final states carry a zero counter. */
static void test_barrier_reuse(void)
{
    const char *text = "PTX Reuse\n{\nx=0; y=0;\n}\n"
                       " P0@cta 0,gpu 0   | P1@cta 0,gpu 0   ;\n"
                       " st.weak x, 1     | bar.cta.sync r5  ;\n"
                       " bar.cta.sync r5  | ld.weak r0, x    ;\n"
                       " bar.cta.arrive 0 | bar.cta.sync 0   ;\n"
                       "exists (P1:r0 == 0)\n";
    proto_instance *in = instance_text("reuse.litmus", text, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    const nsi_model *m = proto_nsi(in);
    proto_bfs b = {0};
    explore(&b, in);
    CU_ASSERT(b.finals > 0);
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    lit_value want_b[] = {0};
    CU_ASSERT_FALSE(proto_bfs_saw(&b, want_b, 1));
    proto_bfs_free(&b);
    /* the described steps of the barriers, up to a final state */
    uint8_t st[64];
    m->initial(m->ctx, st);
    proto_step(m, st, "P1 ", "P1 (CU 0) barrier 0: bar.cta.sync r5 -> arrive (1 of 2); wait\n");
    proto_step(m, st, "P0 ", "P0 (CU 0) L1[x] in I: store.weak -> send req[0] Store(x, 1); pend := 1; acks += 1 (now 1); done\n");
    proto_step(m, st, "P0 ", "P0 (CU 0) barrier 0: bar.cta.sync r5 -> arrive (2 of 2); release P1\n");
    proto_step(m, st, "P0 ", "P0 (CU 0) barrier 0: bar.cta.arrive 0 -> arrive (1 of 2); continue\n");
    proto_step(m, st, "L2[x] ", "L2[x] in V: recv req[0].Store(x, 1) -> val := 1; send resp[0] StoreAck(x)\n");
    proto_step(m, st, "(CU 0) ", "(CU 0) L1[x] in I: recv resp[0].StoreAck(x) -> pend := 0; acks -= 1 (now 0)\n");
    proto_step(m, st, "P1 ", "P1 (CU 0) L1[x] in I: load.weak -> send req[0] Load(x); loads += 1 (now 1); wait\n");
    proto_step(m, st, "L2[x] ", "L2[x] in V: recv req[0].Load(x) -> send resp[0] LoadResp(x, 1)\n");
    proto_step(m, st, "(CU 0) ", "(CU 0) L1[x] in I: recv resp[0].LoadResp(x, 1) -> val := 1; P1 r0 = 1; loads -= 1 (now 0); acq := 0; next V\n");
    proto_step(m, st, "P1 ", "P1 (CU 0) barrier 0: bar.cta.sync 0 -> arrive (2 of 2); release\n");
    CU_ASSERT_TRUE(m->is_final(m->ctx, st));
}

/* Barriers the tables cannot run are refused at the instruction. */
static void test_barrier_refused(void)
{
    const char *text = "PTX Neg\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n bar.cta.sync -1 ;\nexists (x == 0)\n";
    char buf[512] = {0};
    FILE *err = fmemopen(buf, sizeof buf - 1, "w");
    CU_ASSERT_PTR_NULL(instance_text("neg.litmus", text, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "neg.litmus:6:2: error: protocol gpu_vi cannot run"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "a negative barrier id"));
}

/* A range given by the caller replaces the declared one (0..MAXV = 0..1):
 * MP-sentinel's r2 = -1 then fits and stays in the final state when the
 * flag is not seen; a --const override of MAXV brings the declared range
 * back (and then -1 is refused). */
static void test_derived_value_range(void)
{
    protocol *p = protocol_load(MODEL, stderr);
    litmus_test *t = litmus_read_file("litmus/values/MP-sentinel.litmus", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_options o = {.has_values = true, .value_lo = -1, .value_hi = 1};
    proto_instance *in = proto_instantiate(p, t, &o, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    long lo, hi;
    CU_ASSERT_FALSE(proto_value_range(in, &lo, &hi));   /* a derived range never wraps */
    CU_ASSERT_EQUAL(lo, -1);
    CU_ASSERT_EQUAL(hi, 1);
    CU_ASSERT_TRUE(proto_values_derived(in));
    proto_bfs b = {0};
    explore(&b, in);
    lit_value not_seen[2] = {0, -1}, seen[2] = {1, 1}, stale[2] = {1, 0};
    CU_ASSERT_TRUE(proto_bfs_saw(&b, not_seen, 2));
    CU_ASSERT_TRUE(proto_bfs_saw(&b, seen, 2));
    CU_ASSERT_FALSE(proto_bfs_saw(&b, stale, 2));
    CU_ASSERT_EQUAL(b.deadlocks, 0);
    CU_ASSERT_FALSE(proto_value_overflow(in, NULL));
    proto_bfs_free(&b);

    proto_options declared = o;
    declared.noverrides = 1;
    declared.override_name[0] = "MAXV";
    declared.override_value[0] = 1;
    FILE *sink = tmpfile();
    CU_ASSERT_PTR_NULL(proto_instantiate(p, t, &declared, sink));
    fclose(sink);
}

/* The fairness units of internal events: every internal rule but an
 * eviction is a unit of its own (a controller eventually does its pending
 * work), named by its line and event; `evict` is in no unit (a cache need
 * never give a line up).  srsp_fixed's L1 has drain and sfdone besides
 * evict; gpu_vi's only internal event is evict. */
static void test_internal_units(void)
{
    static const char *models[] = {"models/srsp_fixed.proto", "models/gpu_vi.proto"};
    static const char *tests[] = {"litmus/rsp/MP_L2R.litmus", "litmus/protocol/MP-stale-seed.litmus"};
    for (int k = 0; k < 2; k++) {
        proto_instance *in = instance(models[k], tests[k], NULL);
        const nsi_model *m = proto_nsi(in);
        const nsi_fairness *sc = m->fairness;
        CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
        int named[3] = {0, 0, 0};   /* drain, sfdone, evict */
        char *seen = calloc((size_t)sc->nunits, 1);
        for (int r = 0; r < m->nrules; r++) {
            int u = sc->rule_unit(m->ctx, r);
            if (u < sc->nthreads)
                continue;
            CU_ASSERT(u < sc->nunits);
            char name[128] = "";
            FILE *f = fmemopen(name, sizeof name - 1, "w");
            sc->unit_name(m->ctx, u, f);
            fclose(f);
            if (strstr(name, "] drain"))
                named[0]++;
            if (strstr(name, "] sfdone"))
                named[1]++;
            if (strstr(name, "evict"))
                named[2]++;
            if (strchr(name, ']') && !strchr(name, '>')) {      /* an internal unit, not a channel */
                CU_ASSERT_FALSE(seen[u]);                        /* one rule per internal unit */
                seen[u] = 1;
            }
        }
        free(seen);
        CU_ASSERT_EQUAL(named[2], 0);
        if (k == 0) {
            CU_ASSERT(named[0] > 0);
            CU_ASSERT(named[1] > 0);
        } else {
            CU_ASSERT_EQUAL(named[0] + named[1], 0);
        }
    }
}

void register_protocol_tests(void)
{
    CU_pSuite s = CU_add_suite("protocol", NULL, NULL);
    CU_add_test(s, "parse gpu_vi", test_parse_model);
    CU_add_test(s, "fairness units: internal events but evict", test_internal_units);
    CU_add_test(s, "parse errors", test_parse_errors);
    CU_add_test(s, "parse error position", test_parse_error_position);
    CU_add_test(s, "MP on 2 CUs: 268 states", test_count_mp);
    CU_add_test(s, "IRIW on 4 CUs: 3760 states", test_count_iriw4);
    CU_add_test(s, "IRIW+ on 4 CUs: 295805 states", test_count_iriwplus4);
    CU_add_test(s, "IRIW on 6 CUs: 1197664 states", test_count_iriw6);
    CU_add_test(s, "MP final values", test_mp_final_values);
    CU_add_test(s, "unhandled (state, event)", test_unhandled);
    CU_add_test(s, "derived value range, negative values", test_derived_value_range);
    CU_add_test(s, "unsupported instruction", test_unsupported_instr);
    CU_add_test(s, "unordered network, capacity override", test_unordered_network);
    CU_add_test(s, "threads of one CTA share a CU", test_shared_cu);
    CU_add_test(s, "described steps", test_describe);
    CU_add_test(s, "keep fields survive invalidation", test_keep_field);
    CU_add_test(s, "gpu_vi_unordered: MP sound", test_unordered_model);
    CU_add_test(s, "barrier: bar.cta.sync in one CTA", test_barrier_sync);
    CU_add_test(s, "barrier: a count that never arrives deadlocks", test_barrier_hang);
    CU_add_test(s, "barrier: reuse, register id, arrive; described steps", test_barrier_reuse);
    CU_add_test(s, "barrier: refused operands", test_barrier_refused);
}
