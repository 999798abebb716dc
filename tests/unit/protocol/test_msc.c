/* test_msc.c: unit tests of protocol/msc.h, the message-sequence chart
 * built from a trace's step descriptions: lifelines in order of place,
 * calls, messages matched from the step that sent them to the step that
 * took them (by channel instance and content, oldest first), values
 * handed back, notes, and messages left in flight.  The expected charts
 * are derived by hand from the steps given. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "litmus/read.h"
#include "proto_bfs.h"
#include "protocol/msc.h"
#include "protocol/protocol.h"
#include "unit_suites.h"

static proto_instance *mp_instance(void)
{
    protocol *p = protocol_load("models/gpu_vi.proto", stderr);
    litmus_test *t = litmus_read_file("litmus/protocol/MP-stale-seed.litmus", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return in;
}

/* Takes the step whose text starts with `prefix` from `state` into *d. */
static void take(proto_instance *in, uint8_t *state, const char *prefix, proto_step_desc *d)
{
    static proto_succs s;
    proto_successors(proto_nsi(in), state, &s);
    for (int i = 0; i < s.n && i < PROTO_STEP_MAX; i++) {
        proto_describe_step(in, state, s.rule[i], s.state[i], d);
        if (strncmp(d->text, prefix, strlen(prefix)) == 0) {
            memcpy(state, s.state[i], proto_nsi(in)->state_bytes);
            return;
        }
    }
    CU_FAIL_FATAL("no such step");
}

static const msc_arrow *find_arrow(const msc_chart *c, msc_arrow_kind kind, const char *label)
{
    for (int i = 0; i < c->narrows; i++)
        if (c->arrows[i].kind == kind && strcmp(c->arrows[i].label, label) == 0)
            return &c->arrows[i];
    return NULL;
}

/* P1's miss on x: its call (row 1), the Load to the L2 (row 1 -> 2), the
 * LoadResp back (row 2 -> 3, the line filled: I -> V), r0 = 0 handed
 * back (row 4).  P0 and the other L1 take no part. */
static void test_msc_miss(void)
{
    proto_instance *in = mp_instance();
    uint8_t st[PROTO_STEP_BYTES];
    proto_step_desc d[3];
    proto_nsi(in)->initial(in, st);
    take(in, st, "P1 ", &d[0]);
    take(in, st, "L2[x] ", &d[1]);
    take(in, st, "(CU 1) ", &d[2]);
    msc_chart *c = msc_build(in, d, 3);
    CU_ASSERT_EQUAL_FATAL(c->nlifelines, 3);
    CU_ASSERT_STRING_EQUAL(c->lifelines[0].name, "P1");
    CU_ASSERT_STRING_EQUAL(c->lifelines[1].name, "L1 (CU 1)");
    CU_ASSERT_STRING_EQUAL(c->lifelines[2].name, "L2");
    CU_ASSERT_EQUAL(c->nrows, 4);
    CU_ASSERT_EQUAL(c->narrows, 4);
    const msc_arrow *a = find_arrow(c, MSC_CALL, "ld.weak r0, x");
    CU_ASSERT(a && a->from == 0 && a->to == 1 && a->row_from == 1 && a->row_to == 1);
    a = find_arrow(c, MSC_MESSAGE, "Load(x)");
    CU_ASSERT(a && a->from == 1 && a->to == 2 && a->row_from == 1 && a->row_to == 2 && a->step_to == 2);
    a = find_arrow(c, MSC_MESSAGE, "LoadResp(x, 0)");
    CU_ASSERT(a && a->from == 2 && a->to == 1 && a->row_from == 2 && a->row_to == 3);
    a = find_arrow(c, MSC_RETURN, "r0 = 0");
    CU_ASSERT(a && a->from == 1 && a->to == 0 && a->row_from == 4 && a->row_to == 4);
    CU_ASSERT(a && strstr(a->detail, "step 3: (CU 1) L1[x] in I: recv resp[1].LoadResp(x, 0)") == a->detail);
    CU_ASSERT_EQUAL_FATAL(c->nnotes, 1);
    CU_ASSERT_EQUAL(c->notes[0].lifeline, 1);
    CU_ASSERT_EQUAL(c->notes[0].row, 3);
    CU_ASSERT_STRING_EQUAL(c->notes[0].text, "[x] I -> V");
}

/* A step of `actor` (agent number) that sends `text` on channel 0's
 * instance 0 to agent `to`, or takes it. */
static proto_step_desc sends(proto_instance *in, int actor, int to, const char *text)
{
    proto_step_desc d;
    memset(&d, 0, sizeof d);
    d.kind = PSTEP_INTERNAL;
    d.thread = -1;
    proto_agent_at(in, actor, &d.actor);
    d.nsends = 1;
    d.sends[0].chan = 0;
    d.sends[0].chan_inst = 0;
    snprintf(d.sends[0].channel, sizeof d.sends[0].channel, "req[0]");
    snprintf(d.sends[0].text, sizeof d.sends[0].text, "%s", text);
    proto_agent_at(in, to, &d.sends[0].to);
    snprintf(d.text, sizeof d.text, "send %s", text);
    return d;
}

static proto_step_desc takes(proto_instance *in, int actor, const char *text, bool completes, int thread)
{
    proto_step_desc d;
    memset(&d, 0, sizeof d);
    d.kind = PSTEP_RECEIVE;
    d.thread = thread;
    d.completes = completes;
    proto_agent_at(in, actor, &d.actor);
    d.received.chan = 0;
    d.received.chan_inst = 0;
    snprintf(d.received.text, sizeof d.received.text, "%s", text);
    snprintf(d.text, sizeof d.text, "take %s", text);
    return d;
}

/* Agents of MP on gpu_vi: P0 0, P1 1, L1 (CU 0) 2, L1 (CU 1) 3, L2 4.
 * L1 (CU 0) sends A, B, A; the L2 takes B, then A, then nothing: the
 * messages are matched by content, the oldest A first, and the second A
 * is left in flight.  The take of A completes P0's instruction: "done". */
static void test_msc_matching(void)
{
    proto_instance *in = mp_instance();
    proto_step_desc d[5] = {sends(in, 2, 4, "A(x)"), sends(in, 2, 4, "B(x)"), sends(in, 2, 4, "A(x)"),
                            takes(in, 4, "B(x)", false, -1), takes(in, 4, "A(x)", true, 0)};
    msc_chart *c = msc_build(in, d, 5);
    CU_ASSERT_EQUAL_FATAL(c->nlifelines, 3);
    CU_ASSERT_STRING_EQUAL(c->lifelines[0].name, "P0");
    CU_ASSERT_STRING_EQUAL(c->lifelines[1].name, "L1 (CU 0)");
    CU_ASSERT_STRING_EQUAL(c->lifelines[2].name, "L2");
    const msc_arrow *b = find_arrow(c, MSC_MESSAGE, "B(x)");
    CU_ASSERT(b && b->row_from == 2 && b->row_to == 4);
    const msc_arrow *a = find_arrow(c, MSC_MESSAGE, "A(x)");
    CU_ASSERT(a && a->row_from == 1 && a->row_to == 5);
    const msc_arrow *f = find_arrow(c, MSC_IN_FLIGHT, "A(x)");
    CU_ASSERT(f && f->row_from == 3 && f->to == 2 && f->step_to == -1);
    const msc_arrow *r = find_arrow(c, MSC_RETURN, "done");
    CU_ASSERT(r && r->from == 2 && r->to == 0 && r->row_from == 6);
    CU_ASSERT_EQUAL(c->nrows, 7);          /* 5 steps, the return, the in-flight row */
    CU_ASSERT_EQUAL(c->narrows, 4);
}

void register_msc_tests(void)
{
    CU_pSuite s = CU_add_suite("protocol message-sequence charts", NULL, NULL);
    CU_add_test(s, "a miss: call, request, response, value, note", test_msc_miss);
    CU_add_test(s, "messages matched by channel and content; in flight", test_msc_matching);
}
