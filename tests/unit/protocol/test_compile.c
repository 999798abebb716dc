/* test_compile.c: unit tests of the compiled row dispatch (protocol/compile.h).
 * A tiny protocol written here, whose candidates for each (event, line
 * state) are derived by hand from its table below and written next to
 * each check; the dispatch must list exactly those rows, in table order. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "litmus/read.h"
#include "protocol/compile.h"
#include "protocol/protocol.h"
#include "unit_suites.h"

/* Controller C (index 0): states I V S (0 1 2); rows, numbered from 0:
 *   0  I     load.weak         send a request, wait
 *   1  *     load.weak         guard line.val == 1
 *   2  V, S  load.*            (any order and, written without one, any scope;
 *                               not remote)
 *   3  *     load.acquire.gpu
 *   4  V     load.relaxed.gpu.remote
 *   5  *     recv ack.Ack
 *   6  V, S  poke              (internal event 0)
 *   7  S     load.*.cta
 * Controller M (index 1): state V; row 0: recv req.Req. */
static const char *const TABLES =
    "protocol t\n"
    "value 0..1\n"
    "message Req(addr)\n"
    "message Ack(addr)\n"
    "controller C per cu processor\n"
    "states I V S\n"
    "field val : value\n"
    "controller M shared\n"
    "states V\n"
    "field val : value init memory\n"
    "memory M.val\n"
    "channel req per cu from C to M fifo capacity 1 vnet 0\n"
    "channel ack per cu from M to C fifo capacity 1 vnet 1\n"
    "table C\n"
    "  I    | load.weak               |               | send req Req(addr); wait | -\n"
    "  *    | load.weak               | line.val == 1 | reg := line.val; done    | -\n"
    "  V, S | load.*                  |               | reg := line.val; done    | -\n"
    "  *    | load.acquire.gpu        |               | reg := line.val; done    | -\n"
    "  V    | load.relaxed.gpu.remote |               | reg := line.val; done    | -\n"
    "  *    | recv ack.Ack            |               | done                     | V\n"
    "  V, S | poke                    |               |                          | I\n"
    "  S    | load.*.cta              |               | reg := line.val; done    | -\n"
    "end\n"
    "table M\n"
    "  V | recv req.Req | | send ack Ack(addr) | -\n"
    "end\n";

static const char *const ONE_LOAD =
    "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n";

/* The tables compiled; the parser's warning (row 1's events fall to row 2
 * when its guard is false: meant here) goes to /dev/null. */
static const proto_code *compiled(void)
{
    FILE *quiet = fopen("/dev/null", "w");
    protocol *p = protocol_parse_text("t.proto", TABLES, quiet ? quiet : stderr);
    if (quiet)
        fclose(quiet);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_parse_text("t.litmus", ONE_LOAD, strlen(ONE_LOAD), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return proto_instance_code(in);
}

/* The candidates of (ctrl, key, state) are exactly want[0..n-1]. */
static void expect_rows(const proto_code *k, int ctrl, int key, int state, const int *want, int n)
{
    int got_n = -1;
    const int32_t *got = proto_code_rows(k, ctrl, key, state, &got_n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(got_n, n);
    for (int i = 0; i < n && i < got_n; i++)
        CU_ASSERT_EQUAL(got[i], want[i]);
}

static int proc_key(const proto_code *k, int kind, int order, int scope, int remote)
{
    return proto_code_key(k, kind, order, scope, remote, -1, -1, -1);
}

enum { I, V, S };

static void test_processor_events(void)
{
    const proto_code *k = compiled();
    int weak = proc_key(k, EVENT_LOAD, ORD_WEAK, SCOPE_NONE, 0);
    expect_rows(k, 0, weak, I, (int[]){0, 1}, 2);       /* rows 0 (I) and 1 (*) */
    expect_rows(k, 0, weak, V, (int[]){1, 2}, 2);       /* 1 (*) and 2 (V, S) */
    expect_rows(k, 0, weak, S, (int[]){1, 2}, 2);
    int acq_gpu = proc_key(k, EVENT_LOAD, ORD_ACQUIRE, SCOPE_GPU, 0);
    expect_rows(k, 0, acq_gpu, I, (int[]){3}, 1);       /* 3 (*) only: row 2 is V, S */
    expect_rows(k, 0, acq_gpu, V, (int[]){2, 3}, 2);
    int rlx_gpu_remote = proc_key(k, EVENT_LOAD, ORD_RELAXED, SCOPE_GPU, 1);
    expect_rows(k, 0, rlx_gpu_remote, V, (int[]){4}, 1); /* 4: remote rows match remote forms only */
    expect_rows(k, 0, rlx_gpu_remote, I, NULL, 0);
    expect_rows(k, 0, proc_key(k, EVENT_LOAD, ORD_RELAXED, SCOPE_GPU, 0), V, (int[]){2}, 1); /* not 4 */
    int acq_cta = proc_key(k, EVENT_LOAD, ORD_ACQUIRE, SCOPE_CTA, 0);
    expect_rows(k, 0, acq_cta, S, (int[]){2, 7}, 2);    /* 2 and 7 (S, load.*.cta) */
    expect_rows(k, 0, acq_cta, V, (int[]){2}, 1);
    expect_rows(k, 0, acq_cta, I, NULL, 0);
    expect_rows(k, 0, proc_key(k, EVENT_STORE, ORD_WEAK, SCOPE_NONE, 0), V, NULL, 0);   /* no store row */
    expect_rows(k, 1, weak, 0, NULL, 0);                /* M takes no processor event */
}

static void test_deliveries_and_internal(void)
{
    const proto_code *k = compiled();
    /* channels: req 0, ack 1; messages: Req 0, Ack 1 */
    int ack = proto_code_key(k, EVENT_RECV, -1, -1, 0, 1, 1, -1);
    int req = proto_code_key(k, EVENT_RECV, -1, -1, 0, 0, 0, -1);
    CU_ASSERT(ack >= 0 && req >= 0 && ack != req);
    for (int st = I; st <= S; st++)
        expect_rows(k, 0, ack, st, (int[]){5}, 1);     /* 5 (*) */
    expect_rows(k, 0, req, V, NULL, 0);
    expect_rows(k, 1, req, 0, (int[]){0}, 1);
    expect_rows(k, 1, ack, 0, NULL, 0);
    int poke = proto_code_key(k, EVENT_INTERNAL, -1, -1, 0, -1, -1, 0);
    expect_rows(k, 0, poke, I, NULL, 0);
    expect_rows(k, 0, poke, V, (int[]){6}, 1);          /* 6 (V, S) */
    expect_rows(k, 0, poke, S, (int[]){6}, 1);
}

static void test_outside_the_tables(void)
{
    const proto_code *k = compiled();
    int n;
    CU_ASSERT_EQUAL(proc_key(k, EVENT_LOAD, LIT_NORDERS, SCOPE_NONE, 0), -1);
    CU_ASSERT_EQUAL(proc_key(k, EVENT_LOAD, ORD_WEAK, -1, 0), -1);
    CU_ASSERT_EQUAL(proto_code_key(k, EVENT_RECV, -1, -1, 0, 2, 0, -1), -1);    /* no channel 2 */
    CU_ASSERT_EQUAL(proto_code_key(k, EVENT_INTERNAL, -1, -1, 0, -1, -1, 1), -1); /* one internal event */
    CU_ASSERT_PTR_NULL(proto_code_rows(k, 0, -1, I, &n));
    CU_ASSERT_PTR_NULL(proto_code_rows(k, 0, 0, 3, &n));   /* C has 3 states */
}

void register_protocol_compile_tests(void)
{
    CU_pSuite s = CU_add_suite("protocol compile", NULL, NULL);
    CU_add_test(s, "dispatch of processor events", test_processor_events);
    CU_add_test(s, "dispatch of deliveries and internal events", test_deliveries_and_internal);
    CU_add_test(s, "events outside the tables have no key", test_outside_the_tables);
}
