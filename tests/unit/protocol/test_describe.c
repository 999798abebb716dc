/* test_describe.c: unit tests of protocol/step.h, the data that traces,
 * JSON and charts are printed from: the fields of a described step
 * (actor, thread, line and states, event, the row that fired, messages
 * sent and taken, values read, lines dropped), the named fields of a
 * state, and the reasons a deadlock state is stuck.  Expected values are
 * derived by hand from models/gpu_vi.proto and from the small variants
 * written here; rows are checked against the table file's own text. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/read.h"
#include "proto_bfs.h"
#include "protocol/protocol.h"
#include "protocol/step.h"
#include "unit_suites.h"

#define MP "litmus/protocol/MP-stale-seed.litmus"

static proto_instance *instance(protocol *p, const char *litmus, const proto_options *o)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_read_file(litmus, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, o, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    return in;
}

/* Takes, from `state`, the step whose text starts with `prefix`: fills *d
 * and moves `state` to the successor. */
static void take(proto_instance *in, uint8_t *state, const char *prefix, proto_step_desc *d)
{
    static proto_succs s;
    const nsi_model *m = proto_nsi(in);
    proto_successors(m, state, &s);
    for (int i = 0; i < s.n && i < PROTO_STEP_MAX; i++) {
        proto_describe_step(in, state, s.rule[i], s.state[i], d);
        if (strncmp(d->text, prefix, strlen(prefix)) == 0) {
            memcpy(state, s.state[i], m->state_bytes);
            return;
        }
    }
    fprintf(stderr, "\nno step starts with '%s'\n", prefix);
    CU_FAIL_FATAL("no such step");
}

/* Line `n` of a file, squeezed to single spaces; a static buffer. */
static const char *file_line(const char *path, int n)
{
    static char buf[512];
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    for (int i = 0; f && i < n && fgets(buf, sizeof buf, f); i++)
        ;
    if (f)
        fclose(f);
    char *w = buf;
    for (const char *r = buf; *r; r++)
        if (*r != '\n' && !(*r == ' ' && (w == buf || w[-1] == ' ')))
            *w++ = *r;
    *w = '\0';
    return buf;
}

/* MP on gpu_vi: P1's miss, the L2's answer, the fill; P0's two stores;
 * P1's acquire, which drops the filled line x. */
static void test_step_fields(void)
{
    proto_instance *in = instance(protocol_load("models/gpu_vi.proto", stderr), MP, NULL);
    const nsi_model *m = proto_nsi(in);
    uint8_t st[PROTO_STEP_BYTES];
    proto_step_desc d;
    m->initial(m->ctx, st);

    take(in, st, "P1 ", &d);
    CU_ASSERT_EQUAL(d.kind, PSTEP_PROCESSOR);
    CU_ASSERT_STRING_EQUAL(d.actor.name, "L1 (CU 1)");
    CU_ASSERT_EQUAL(d.actor.ctrl, 0);
    CU_ASSERT_EQUAL(d.actor.index, 1);
    CU_ASSERT_EQUAL(d.actor.cu, 1);
    CU_ASSERT_EQUAL(d.thread, 1);
    CU_ASSERT_STRING_EQUAL(d.thread_name, "P1");
    CU_ASSERT_STRING_EQUAL(d.instr, "ld.weak r0, x");
    CU_ASSERT_STRING_EQUAL(d.loc, "x");
    CU_ASSERT_STRING_EQUAL(d.state, "I");
    CU_ASSERT_STRING_EQUAL(d.next_state, "I");
    CU_ASSERT_STRING_EQUAL(d.event, "load.weak");
    CU_ASSERT(d.fired);
    CU_ASSERT_STRING_EQUAL(d.row_file, "models/gpu_vi.proto");
    /* the row: I | load.weak | acq == 0 | send req ... Load ...; wait */
    CU_ASSERT_PTR_NOT_NULL(strstr(file_line(d.row_file, d.row_line), "I | load.weak | acq == 0 | send req"));
    CU_ASSERT_EQUAL(d.nsends, 1);
    CU_ASSERT_STRING_EQUAL(d.sends[0].channel, "req[1]");
    CU_ASSERT_STRING_EQUAL(d.sends[0].text, "Load(x)");
    CU_ASSERT_STRING_EQUAL(d.sends[0].to.name, "L2");
    CU_ASSERT_EQUAL(d.nreads, 0);
    CU_ASSERT_FALSE(d.completes);

    take(in, st, "L2[x] ", &d);
    CU_ASSERT_EQUAL(d.kind, PSTEP_RECEIVE);
    CU_ASSERT_STRING_EQUAL(d.actor.name, "L2");
    CU_ASSERT_EQUAL(d.thread, 1);          /* the message is P1's */
    CU_ASSERT_STRING_EQUAL(d.received.channel, "req[1]");
    CU_ASSERT_STRING_EQUAL(d.received.text, "Load(x)");
    CU_ASSERT_STRING_EQUAL(d.event, "recv req[1].Load(x)");
    CU_ASSERT_PTR_NOT_NULL(strstr(file_line(d.row_file, d.row_line), "V | recv req.Load |"));
    CU_ASSERT_EQUAL(d.nsends, 1);
    CU_ASSERT_STRING_EQUAL(d.sends[0].text, "LoadResp(x, 0)");
    CU_ASSERT_STRING_EQUAL(d.sends[0].to.name, "L1 (CU 1)");

    take(in, st, "(CU 1) ", &d);
    CU_ASSERT_EQUAL(d.kind, PSTEP_RECEIVE);
    CU_ASSERT_STRING_EQUAL(d.state, "I");
    CU_ASSERT_STRING_EQUAL(d.next_state, "V");
    CU_ASSERT_EQUAL(d.nreads, 1);
    CU_ASSERT_STRING_EQUAL(d.reads[0].thread_name, "P1");
    CU_ASSERT_STRING_EQUAL(d.reads[0].reg, "r0");
    CU_ASSERT_EQUAL(d.reads[0].value, 0);
    CU_ASSERT(d.completes);
    CU_ASSERT_EQUAL(d.nsends, 0);

    take(in, st, "P0 ", &d);                                  /* st.weak x, 1 */
    take(in, st, "L2[x] ", &d);
    take(in, st, "(CU 0) ", &d);                              /* its ack */
    CU_ASSERT_EQUAL(d.thread, 0);
    CU_ASSERT_FALSE(d.completes);                             /* P0 went on at its store */
    take(in, st, "P0 ", &d);                                  /* st.release.gpu y, 1 */
    CU_ASSERT(d.completes);

    /* P1's acquire invalidates its L1: x is V with val 0 (filled above). */
    take(in, st, "P1 ", &d);
    CU_ASSERT_STRING_EQUAL(d.event, "load.acquire.gpu");
    CU_ASSERT_EQUAL(d.ndrops, 1);
    CU_ASSERT_STRING_EQUAL(d.drops[0].loc, "x");
    CU_ASSERT_STRING_EQUAL(d.drops[0].held, "V val=0");
    CU_ASSERT_PTR_NOT_NULL(strstr(d.text, "-> invalidate_all (dropped x: V val=0); send req[1] Load(y)"));
}

/* An acquire that drops two lines: invalidate_all's list holds "; " inside
 * one action, and the actions the search sees (nsi step) keep it whole.
 * Derivation from models/gpu_vi.proto: P0's two weak loads fill x and z
 * (V, val 0); its ld.acquire.gpu y misses, runs invalidate_all, which drops
 * both valid lines, and sends Load(y) to the L2. */
static void test_step_actions_whole(void)
{
    static const char *lit =
        "PTX Drop2\n{\nx=0; y=0; z=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n ld.weak r1, z ;\n"
        " ld.acquire.gpu r2, y ;\nexists (P0:r2 == 0)\n";
    protocol *p = protocol_load("models/gpu_vi.proto", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    litmus_test *t = litmus_parse_text("d.litmus", lit, strlen(lit), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    const nsi_model *m = proto_nsi(in);
    uint8_t st[PROTO_STEP_BYTES];
    proto_step_desc d;
    m->initial(m->ctx, st);
    for (int k = 0; k < 2; k++) {                 /* each load: miss, L2 answer, fill */
        take(in, st, "P0 ", &d);
        take(in, st, "L2[", &d);
        take(in, st, "(CU 0) ", &d);
    }
    uint8_t before[PROTO_STEP_BYTES];
    memcpy(before, st, m->state_bytes);
    take(in, st, "P0 ", &d);
    CU_ASSERT_EQUAL(d.ndrops, 2);
    /* the row (gpu_vi.proto, "* | load.acquire.gpu"): invalidate_all; send
     * req Load; loads += 1; acq := 1; wait -- five actions */
    CU_ASSERT_EQUAL_FATAL(d.nactions, 5);
    char a0[256], a1[256];
    snprintf(a0, sizeof a0, "%.*s", d.actions[0].len, d.text + d.actions[0].start);
    snprintf(a1, sizeof a1, "%.*s", d.actions[1].len, d.text + d.actions[1].start);
    CU_ASSERT_STRING_EQUAL(a0, "invalidate_all (dropped x: V val=0; z: V val=0)");
    CU_ASSERT_STRING_EQUAL(a1, "send req[0] Load(y)");

    /* the same step as the JSON trace records it */
    static proto_succs s;
    proto_successors(m, before, &s);
    bool seen = false;
    for (int i = 0; i < s.n && i < PROTO_STEP_MAX; i++) {
        if (memcmp(s.state[i], st, m->state_bytes) != 0)
            continue;
        proto_step_record out;
        CU_ASSERT_FATAL(proto_step_record_of(in, before, s.rule[i], s.state[i], &out));
        CU_ASSERT_EQUAL_FATAL(out.nactions, 5);
        CU_ASSERT_STRING_EQUAL(out.actions[4], "wait");
        CU_ASSERT_STRING_EQUAL(out.actions[0], "invalidate_all (dropped x: V val=0; z: V val=0)");
        CU_ASSERT_STRING_EQUAL(out.actions[1], "send req[0] Load(y)");
        seen = true;
    }
    CU_ASSERT(seen);
}

/* Barrier steps have no row and name the thread as the actor. */
static void test_barrier_step(void)
{
    static const char *lit =
        "PTX B\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.cta.sync 0 | bar.cta.sync 0 ;\n"
        "exists (x == 0)\n";
    protocol *p = protocol_load("models/gpu_vi.proto", stderr);
    litmus_test *t = litmus_parse_text("b.litmus", lit, strlen(lit), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    uint8_t st[PROTO_STEP_BYTES];
    proto_step_desc d;
    proto_nsi(in)->initial(in, st);
    take(in, st, "P1 ", &d);
    CU_ASSERT_EQUAL(d.kind, PSTEP_BARRIER);
    CU_ASSERT_STRING_EQUAL(d.actor.name, "P1");
    CU_ASSERT_EQUAL(d.actor.ctrl, -1);
    CU_ASSERT_PTR_NULL(d.row_file);
    CU_ASSERT_FALSE(d.completes);           /* it waits */
    take(in, st, "P0 ", &d);
    CU_ASSERT(d.completes);
    CU_ASSERT_STRING_EQUAL(d.text, "P0 (CU 0) barrier 0: bar.cta.sync 0 -> arrive (2 of 2); release P1");
}

static const proto_state_field *field(const proto_state_field *f, int n, const char *comp, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(f[k].component, comp) == 0 && strcmp(f[k].name, name) == 0)
            return &f[k];
    return NULL;
}

/* MP on gpu_vi: P0 (no register) and P1 (r0, r1, r2) have pc and waiting
 * each: 2 + 5; two L1 instances of 3 variables and 2 lines of (state, val,
 * pend): 2 * 9; the one-state L2 has val per line: 2; req and resp per
 * CU: 4.  31 fields. */
static void test_state_fields(void)
{
    proto_instance *in = instance(protocol_load("models/gpu_vi.proto", stderr), MP, NULL);
    uint8_t st[PROTO_STEP_BYTES];
    proto_step_desc d;
    proto_nsi(in)->initial(in, st);
    int n = proto_state_nfields(in);
    CU_ASSERT_EQUAL(n, 31);
    proto_state_field f[64];
    take(in, st, "P0 ", &d);                  /* st.weak x, 1 */
    take(in, st, "P1 ", &d);                  /* ld.weak r0, x: a miss */
    proto_state_fields(in, st, f);
    const proto_state_field *x;
    CU_ASSERT((x = field(f, n, "P0", "pc")) && strcmp(x->value, "1 (st.release.gpu y, 1)") == 0);
    CU_ASSERT((x = field(f, n, "P1", "waiting")) && strcmp(x->value, "yes") == 0);
    CU_ASSERT((x = field(f, n, "P1", "r2")) && strcmp(x->value, "0") == 0);
    CU_ASSERT((x = field(f, n, "L1 (CU 0)", "acks")) && strcmp(x->value, "1") == 0);
    CU_ASSERT((x = field(f, n, "L1 (CU 0) [x]", "pend")) && strcmp(x->value, "1") == 0);
    CU_ASSERT((x = field(f, n, "L1 (CU 1) [x]", "state")) && strcmp(x->value, "I") == 0);
    CU_ASSERT((x = field(f, n, "req[0]", "")) && strcmp(x->value, "Store(x, 1)") == 0);
    CU_ASSERT((x = field(f, n, "req[1]", "")) && strcmp(x->value, "Load(x)") == 0);
    CU_ASSERT((x = field(f, n, "resp[0]", "")) && strcmp(x->value, "empty") == 0);
    CU_ASSERT_PTR_NULL(field(f, n, "L2 [x]", "state"));     /* one state: not listed */
}

/* Aggregates: a bits variable lists its set bits, a fifo its queued
 * elements, an array every element. */
static void test_state_aggregates(void)
{
    static const char *text =
        "protocol agg\nvalue 0..3\n"
        "controller C per cu processor\nstates A\nfield val : value\n"
        "var sh : bits 3\nvar q : fifo 2 of 0..3\nvar arr : array 2 of 0..3\n"
        "controller M shared\nstates V\nfield val : value init memory\nmemory M.val\n"
        "table C\n  * | load.weak | | sh[0] := 1; sh[2] := 1; push q 3; arr[1] := 2; reg := 0; done | -\nend\n";
    static const char *lit = "PTX T\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n";
    protocol *p = protocol_parse_text("agg.proto", text, stderr);
    litmus_test *t = litmus_parse_text("t.litmus", lit, strlen(lit), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    uint8_t st[PROTO_STEP_BYTES];
    proto_step_desc d;
    proto_nsi(in)->initial(in, st);
    proto_state_field f[32];
    int n = proto_state_nfields(in);
    CU_ASSERT_FATAL(n <= 32);
    proto_state_fields(in, st, f);
    const proto_state_field *x;
    CU_ASSERT((x = field(f, n, "C (CU 0)", "sh")) && strcmp(x->value, "{}") == 0);
    CU_ASSERT((x = field(f, n, "C (CU 0)", "q")) && strcmp(x->value, "[]") == 0);
    take(in, st, "P0 ", &d);
    proto_state_fields(in, st, f);
    CU_ASSERT((x = field(f, n, "C (CU 0)", "sh")) && strcmp(x->value, "{0, 2}") == 0);
    CU_ASSERT((x = field(f, n, "C (CU 0)", "q")) && strcmp(x->value, "[3]") == 0);
    CU_ASSERT((x = field(f, n, "C (CU 0)", "arr")) && strcmp(x->value, "[0, 2]") == 0);
    CU_ASSERT((x = field(f, n, "P0", "pc")) && strcmp(x->value, "done") == 0);
}

/* A variant of gpu_vi (written as models/t.proto, so that its base is
 * models/gpu_vi.proto) whose L2 answers a Load only under `guard` and with
 * `acts`; CAP may be overridden. */
static proto_instance *l2_variant(const char *guard, const char *acts, long cap)
{
    char text[1024];
    snprintf(text, sizeof text,
             "protocol t extends \"gpu_vi.proto\"\ntable L2\n- V | recv req.Load\n+ V | recv req.Load | %s | %s | -\nend\n",
             guard, acts);
    proto_options o = {0};
    if (cap) {
        o.noverrides = 1;
        o.override_name[0] = "CAP";
        o.override_value[0] = cap;
    }
    return instance(protocol_parse_text("models/t.proto", text, stderr), MP, &o);
}

/* Runs P0's two stores to the end, then P1's first load, whose request
 * the L2 then refuses: a deadlock (no successor). */
static void run_to_stuck(proto_instance *in, uint8_t *st)
{
    proto_step_desc d;
    static proto_succs s;
    proto_nsi(in)->initial(in, st);
    take(in, st, "P0 ", &d);
    take(in, st, "L2[x] ", &d);
    take(in, st, "(CU 0) ", &d);
    take(in, st, "P0 ", &d);
    take(in, st, "L2[y] ", &d);
    take(in, st, "(CU 0) ", &d);
    take(in, st, "P1 ", &d);
    proto_successors(proto_nsi(in), st, &s);
    CU_ASSERT_EQUAL(s.n, 0);
}

static void test_stuck_guard(void)
{
    proto_instance *in = l2_variant("line.val > 1", "send resp LoadResp(addr, line.val)", 0);
    uint8_t st[PROTO_STEP_BYTES];
    run_to_stuck(in, st);
    proto_reason r[8];
    int n = proto_stuck_reasons(in, st, r, 8);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_STRING_EQUAL(r[0].who, "P1");
    CU_ASSERT_STRING_EQUAL(r[0].why, "waits for its ld.weak r0, x to complete; in flight for it: req[1] Load(x)");
    CU_ASSERT_STRING_EQUAL(r[1].who, "req[1]");
    /* x was written 1 by P0's store, which the L2 performed */
    CU_ASSERT_STRING_EQUAL(r[1].why, "Load(x) to L2 [x] in V: row models/t.proto:4: line.val > 1 is false (line.val = 1)");
    CU_ASSERT_EQUAL(proto_stuck_reasons(in, st, r, 1), 2);     /* counts past max */
}

/* The guard is printed as written: state names, calls, precedence. */
static void test_stuck_guard_text(void)
{
    proto_instance *in = l2_variant("state == V && (cond(line.val > 0, 1, 0) + 1) * 2 == 6",
                                    "send resp LoadResp(addr, line.val)", 0);
    uint8_t st[PROTO_STEP_BYTES];
    run_to_stuck(in, st);
    proto_reason r[8];
    CU_ASSERT_EQUAL_FATAL(proto_stuck_reasons(in, st, r, 8), 2);
    CU_ASSERT_STRING_EQUAL(r[1].why, "Load(x) to L2 [x] in V: row models/t.proto:4: "
                                     "state == V && (cond(line.val > 0, 1, 0) + 1) * 2 == 6 is false "
                                     "(state = V, line.val = 1)");
}

/* Chains of three or more operators are kept flat (EX_CHAIN) and printed
 * by a loop: the text is the one the nested form would give.  By hand:
 * `line.val + 0 + 0 + 0 > 1 && state == V` is one chain whose links are
 * + + + > && (precedence never rising), so no parentheses; in
 * `(line.val + 1 + 1) * 2 == 7` the inner chain's last link + binds less
 * than the * it stands under, so it keeps its parentheses.  line.val is 1
 * (P0's store), so 1 + 0 + 0 + 0 > 1 and (1 + 1 + 1) * 2 == 7 are false. */
static void test_stuck_guard_chain_text(void)
{
    const char *guards[] = {"line.val + 0 + 0 + 0 > 1 && state == V", "(line.val + 1 + 1) * 2 == 7"};
    const char *want[] = {
        "Load(x) to L2 [x] in V: row models/t.proto:4: line.val + 0 + 0 + 0 > 1 && state == V is false "
        "(line.val = 1, state = V)",
        "Load(x) to L2 [x] in V: row models/t.proto:4: (line.val + 1 + 1) * 2 == 7 is false (line.val = 1)",
    };
    for (int i = 0; i < 2; i++) {
        proto_instance *in = l2_variant(guards[i], "send resp LoadResp(addr, line.val)", 0);
        uint8_t st[PROTO_STEP_BYTES];
        run_to_stuck(in, st);
        proto_reason r[8];
        CU_ASSERT_EQUAL_FATAL(proto_stuck_reasons(in, st, r, 8), 2);
        CU_ASSERT_STRING_EQUAL(r[1].why, want[i]);
    }
}

/* The row fires, but its second response does not fit a channel of
 * capacity 1. */
static void test_stuck_full_channel(void)
{
    proto_instance *in = l2_variant("", "send resp LoadResp(addr, line.val); send resp LoadResp(addr, line.val)", 1);
    uint8_t st[PROTO_STEP_BYTES];
    run_to_stuck(in, st);
    proto_reason r[8];
    CU_ASSERT_EQUAL_FATAL(proto_stuck_reasons(in, st, r, 8), 2);
    CU_ASSERT_STRING_EQUAL(r[1].why, "Load(x) to L2 [x] in V: row models/t.proto:4: channel resp[1] is full (capacity 1)");
}

/* A final condition that is false, with every thread done and nothing in
 * flight: StoreAck no longer counts acks down. */
static void test_stuck_final(void)
{
    static const char *text =
        "protocol t extends \"gpu_vi.proto\"\ntable L1\n- * | recv resp.StoreAck\n"
        "+ * | recv resp.StoreAck |  | line.pend := line.pend - 1 | -\nend\n";
    static const char *lit = "PTX W\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n";
    protocol *p = protocol_parse_text("models/t.proto", text, stderr);
    litmus_test *t = litmus_parse_text("w.litmus", lit, strlen(lit), stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    proto_instance *in = proto_instantiate(p, t, NULL, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    uint8_t st[PROTO_STEP_BYTES];
    proto_step_desc d;
    proto_nsi(in)->initial(in, st);
    take(in, st, "P0 ", &d);
    take(in, st, "L2[x] ", &d);
    take(in, st, "(CU 0) ", &d);
    proto_reason r[4];
    CU_ASSERT_EQUAL_FATAL(proto_stuck_reasons(in, st, r, 4), 1);
    CU_ASSERT_STRING_EQUAL(r[0].who, "L1 (CU 0)");
    CU_ASSERT_STRING_EQUAL(r[0].why, "final acks == 0 is false (acks = 1)");
}

void register_describe_tests(void)
{
    CU_pSuite s = CU_add_suite("protocol step descriptions", NULL, NULL);
    CU_add_test(s, "step fields: actor, line, row, sends, reads, drops", test_step_fields);
    CU_add_test(s, "step actions: an action holding \"; \" stays whole", test_step_actions_whole);
    CU_add_test(s, "barrier step: no row, the thread acts", test_barrier_step);
    CU_add_test(s, "state fields: names and values", test_state_fields);
    CU_add_test(s, "state fields: aggregates", test_state_aggregates);
    CU_add_test(s, "stuck: a false guard and its values", test_stuck_guard);
    CU_add_test(s, "stuck: guard text as written", test_stuck_guard_text);
    CU_add_test(s, "stuck: chains of operators written back", test_stuck_guard_chain_text);
    CU_add_test(s, "stuck: a full channel", test_stuck_full_channel);
    CU_add_test(s, "stuck: a false final condition", test_stuck_final);
}
