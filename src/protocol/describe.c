/* protocol/describe.c: what one step did (protocol/step.h's
 * proto_describe_step): the row is chosen again exactly as the search
 * chose it and its actions are replayed on a copy, through the
 * interpreter's own functions (internal.h), so that the text and the data
 * show the values the step used.  Runs once per printed step. */
#include <string.h>

#include "protocol/internal.h"

/* The event that `rule` offers in v: its context, event and the message
 * ptaken (m receives it); false when the rule is no event source. */
static bool rule_source(proto_instance *in, const int32_t *v, int rule, int32_t *m, pctx *c, pevent *e,
                        ptaken *tk)
{
    *tk = (ptaken){-1, 0, 0};
    if (rule >= 0 && rule < in->nthreads)
        return proto_thread_source(in, v, rule, c, e);
    for (int ch = in->p->nchans - 1; ch >= 0; ch--) {
        const pchan_info *ci = &in->chans[ch];
        int per = ci->unordered ? ci->cap : 1, r = rule - ci->rule_base;
        if (r >= 0 && r < ci->ninst * per) {
            int inst = r / per, k = r % per;
            if (k >= v[proto_chan_slot(in, ch, inst)])
                return false;
            proto_delivery_source(in, v, ch, inst, k, m, c, e);
            *tk = (ptaken){ch, inst, k};
            return true;
        }
    }
    for (int ctl = in->p->nctrls - 1; ctl >= 0; ctl--) {
        const pctrl *pc = &in->p->ctrls[ctl];
        int r = rule - in->ctrls[ctl].rule_base;
        if (r >= 0 && pc->ninternal && r < in->ctrls[ctl].ninst * in->naddr * pc->ninternal) {
            proto_internal_source(in, v, ctl, r / pc->ninternal / in->naddr, r / pc->ninternal % in->naddr,
                            r % pc->ninternal, c, e);
            return true;
        }
    }
    return false;
}

/* The step being described and the text of its line. */
typedef struct describer {
    proto_step_desc *step;
    textbuf text;
} describer;

/* Records text[start, b->len) as one of the step's actions. */
static void note_action(proto_step_desc *s, const textbuf *b, size_t start)
{
    if (s->nactions < PSTEP_MAX_ACTIONS && b->len > start)
        s->actions[s->nactions++] = (proto_span){(uint16_t)start, (uint16_t)(b->len - start)};
}

/* "send req[1] Load(x)", one per destination ("send inv[0] Inv(x); send
 * inv[2] Inv(x)"); each message is also listed in the step. */
static void describe_send(pctx *c, const pact *a, describer *d)
{
    const proto_instance *in = c->in;
    const pchan *ch = &in->p->chans[a->idx];
    int32_t m[2 + PROTO_MAX_FIELDS];
    int dest[PROTO_MAX_DESTS];
    pctx probe = *c;             /* evaluating may clear ok: the replay reports that */
    int n = proto_send_targets(&probe, a, dest);
    proto_build_msg(&probe, a, m);
    if (n <= 0)
        tb_printf(&d->text, "send %s (%s)", ch->name, n == 0 ? "no destination" : "not possible");
    for (int k = 0; k < n; k++) {
        proto_msg_ref ref;
        proto_msg_ref_of(in, a->idx, proto_chan_instance(c, a->idx, dest[k]), m, &ref);
        tb_printf(&d->text, "%ssend %s %s", k ? "; " : "", ref.channel, ref.text);
        if (d->step->nsends < PSTEP_MAX_SENDS)
            d->step->sends[d->step->nsends] = ref;
        d->step->nsends++;
    }
}

/* The line of address a differs from its reset form (keep fields aside):
 * it holds something an invalidation drops. */
static bool line_held(const pctx *c, int a)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    int s = proto_line_slot(c, a);
    if (c->v[s] != c->in->init[s])
        return true;
    for (int f = 0; f < pc->nfields; f++) {
        int first = s + ci->field_off[f], len = ci->field_len[f] + (pc->field_type[f].kind == T_FIFO);
        if (!pc->field_keep[f] && memcmp(&c->v[first], &c->in->init[first], sizeof *c->v * (size_t)len) != 0)
            return true;
    }
    return false;
}

/* "V val=1": a line's state and the fields an invalidation resets. */
static void line_text(const pctx *c, int a, textbuf *b)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    int s = proto_line_slot(c, a);
    tb_puts(b, pc->states[c->v[s]]);
    for (int f = 0; f < pc->nfields; f++) {
        if (pc->field_keep[f])
            continue;
        int first = s + ci->field_off[f];
        tb_printf(b, " %s=", pc->fields[f]);
        if (pc->field_type[f].kind == T_SCALAR)
            tb_printf(b, "%d", c->v[first]);
        else if (pc->field_type[f].kind == T_FIFO)
            proto_aggregate_text(T_FIFO, &c->v[first + 1], c->v[first], b);
        else
            proto_aggregate_text(pc->field_type[f].kind, &c->v[first], ci->field_len[f], b);
    }
}

/* invalidate_all, before it runs: "(dropped x: V val=1; y: V val=0)" or
 * "(nothing to drop)"; each dropped line is listed in the step. */
static void describe_drops(const pctx *c, describer *d)
{
    int n = 0;
    for (int a = 0; a < c->in->naddr; a++) {
        if (!line_held(c, a))
            continue;
        tb_printf(&d->text, "%s%s: ", n ? "; " : " (dropped ", proto_loc_name(c->in, a));
        line_text(c, a, &d->text);
        if (d->step->ndrops < PSTEP_MAX_DROPS) {
            proto_drop *dr = &d->step->drops[d->step->ndrops];
            dr->loc = proto_loc_name(c->in, a);
            textbuf hb = tb_over(dr->held, sizeof dr->held);
            line_text(c, a, &hb);
        }
        d->step->ndrops++;
        n++;
    }
    tb_puts(&d->text, n ? ")" : " (nothing to drop)");
}

/* clear X, before it runs: " (was [1, 2])". */
static void describe_cleared(const pctx *c, const pact *a, textbuf *b)
{
    int first, len;
    if (!proto_aggregate_now(c, a->on_line, a->idx, &first, &len))
        return;
    tb_puts(b, " (was ");
    proto_aggregate_text(proto_storage_kind(c, a->on_line, a->idx), &c->v[first], len, b);
    tb_puts(b, ")");
}

static void describe_read(pctx *c, describer *d)
{
    const proto_instance *in = c->in;
    if (c->thread < 0 || !c->ins || c->ins->dst < 0) {
        tb_puts(&d->text, "read (no register)");
        return;
    }
    const lit_thread *th = in->threads[c->thread].th;
    int32_t value = c->v[in->threads[c->thread].base + 2 + c->ins->dst];
    tb_printf(&d->text, "%s %s = %d", th->name, th->reg_names[c->ins->dst], value);
    if (d->step->nreads < PSTEP_MAX_READS)
        d->step->reads[d->step->nreads++] = (proto_read){c->thread, th->name, th->reg_names[c->ins->dst], value};
}

/* Describes one action as it runs on c->v (the successor being built). */
static void describe_act(pctx *c, const pact *a, describer *d)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    textbuf *b = &d->text;
    if (a->kind == A_SEND) {
        describe_send(c, a, d);
        proto_act(c, a);
        return;
    }
    if (a->kind == A_INV_ALL) {
        tb_puts(b, "invalidate_all");
        describe_drops(c, d);
    } else if (a->kind == A_CLEAR) {
        tb_printf(b, "clear %s", proto_storage_name(pc, a));
        describe_cleared(c, a, b);
    }
    long operand = a->e && a->kind != A_REG && a->kind != A_LINEF ? proto_eval(c, a->e) : 0;
    long index = a->index ? proto_eval(c, a->index) : 0;
    int slot = a->kind == A_LINEF || a->kind == A_VAR_SET || a->kind == A_VAR_ADD || a->kind == A_VAR_SUB
             ? proto_target_slot(c, a) : -1;
    proto_act(c, a);
    switch (a->kind) {
    case A_LINEF:
    case A_VAR_SET:
        tb_puts(b, proto_storage_name(pc, a));
        if (a->index)
            tb_printf(b, "[%ld]", index);
        tb_printf(b, " := %d", slot >= 0 ? c->v[slot] : 0);
        break;
    case A_VAR_ADD:
    case A_VAR_SUB:
        tb_puts(b, pc->vars[a->idx]);
        if (a->index)
            tb_printf(b, "[%ld]", index);
        tb_printf(b, " %s %ld (now %d)", a->kind == A_VAR_ADD ? "+=" : "-=", operand, slot >= 0 ? c->v[slot] : 0);
        break;
    case A_PUSH: tb_printf(b, "push %s %ld", proto_storage_name(pc, a), operand); break;
    case A_POP: tb_printf(b, "pop %s", proto_storage_name(pc, a)); break;
    case A_REG: describe_read(c, d); break;
    case A_DONE: tb_puts(b, "done"); break;
    case A_WAIT: tb_puts(b, "wait"); break;
    case A_STALL: tb_puts(b, "stall"); break;
    case A_INV: tb_puts(b, "invalidate"); break;
    case A_SET: tb_printf(b, "set %s", pc->states[a->idx]); break;
    case A_CLEAR:
    case A_INV_ALL:
    case A_SEND: break;
    }
}

/* A barrier arrival: "P1 (CU 0) barrier 0: bar.cta.sync 0 -> arrive (1 of
 * 2); wait", or "... -> arrive (2 of 2); release P0" (the threads that
 * were waiting), or "...; continue" for an arrive that does not release. */
static void describe_barrier(const proto_instance *in, const int32_t *v, int t, const lit_instr *ins, describer *d)
{
    int32_t w[PROTO_MAX_SLOTS];
    int slot, cu = in->threads[t].cu;
    long expect;
    textbuf *b = &d->text;
    textbuf eb = tb_over(d->step->event, sizeof d->step->event);
    tb_puts(&eb, ins->text ? ins->text : "bar");
    tb_printf(b, "%s (CU %d) barrier %ld: %s ->", in->threads[t].th->name, cu,
              proto_eval_operand(in, v, t, ins->a), d->step->event);
    memcpy(w, v, sizeof *w * (size_t)in->nslots);
    if (!proto_barrier_arrive(in, w, t, ins, &slot, &expect)) {
        tb_puts(b, " not enabled");
        return;
    }
    d->step->fired = true;
    tb_printf(b, " arrive (%d of %ld); ", v[slot] + 1, expect);
    if (w[slot] != 0) {
        tb_puts(b, ins->barrier_waits ? "wait" : "continue");
        return;
    }
    tb_puts(b, "release");
    for (int k = 0; k < in->cu_size[cu]; k++) {
        int u = in->cu_threads[cu][k];
        if (u != t && proto_barrier_waiting(in, v, u) == slot)
            tb_printf(b, " %s", in->threads[u].th->name);
    }
}

/* A local-memory access: "P0 (CU 0) local[y]: atomic_store_explicit(...)
 * -> y := 1", "... -> P1 r = 1", both for an rmw; a local-only fence
 * "... -> nothing (local memory is not cached)". */
static void describe_scratchpad(const proto_instance *in, const int32_t *v, const int32_t *after, int t,
                                const lit_instr *ins, describer *d)
{
    textbuf *b = &d->text;
    const lit_thread *th = in->threads[t].th;
    int slot = proto_scratchpad_slot(in, ins->loc);
    proto_step_desc *s = d->step;
    s->kind = PSTEP_LOCAL;
    proto_thread_agent(in, t, &s->actor);
    s->thread = t;
    s->thread_name = th->name;
    s->instr = ins->text;
    textbuf eb = tb_over(s->event, sizeof s->event);
    tb_puts(&eb, ins->text ? ins->text : "local access");
    s->fired = after[in->threads[t].base] != v[in->threads[t].base];
    tb_printf(b, "%s (CU %d) ", th->name, in->threads[t].cu);
    if (slot < 0) {
        tb_printf(b, "local fence: %s -> ", s->event);
        size_t start = b->len;
        tb_puts(b, "nothing (local memory is not cached)");
        note_action(s, b, start);
        return;
    }
    s->loc = proto_loc_name(in, ins->loc);
    tb_printf(b, "local[%s]: %s ->", s->loc, s->event);
    if (!s->fired) {
        tb_puts(b, " not enabled (a value outside the range)");
        return;
    }
    const char *sep = " ";
    if (ins->op != OP_STORE && ins->dst >= 0) {
        int32_t value = after[in->threads[t].base + 2 + ins->dst];
        tb_puts(b, sep);
        size_t start = b->len;
        tb_printf(b, "%s %s = %d", th->name, th->reg_names[ins->dst], value);
        note_action(s, b, start);
        s->reads[s->nreads++] = (proto_read){t, th->name, th->reg_names[ins->dst], value};
        sep = "; ";
    }
    if (ins->op != OP_LOAD) {
        tb_puts(b, sep);
        size_t start = b->len;
        tb_printf(b, "%s := %d", s->loc, after[slot]);
        note_action(s, b, start);
    }
}

/* "P1 (CU 1) L1[y] in I: " or "(slice 1) L2[x] in V: ": who takes the
 * event, on which line, in which state. */
static void describe_where(const pctx *c, const pevent *e, int st, textbuf *b)
{
    const proto_instance *in = c->in;
    const pctrl *pc = &in->p->ctrls[c->ctrl];
    const char *kind = proto_instance_kind(in, c->ctrl);
    if (e->kind != EV_RECV && e->kind != EV_INTERNAL)
        tb_printf(b, "%s (CU %d) ", in->threads[c->thread].th->name, c->cu);
    else if (kind)
        tb_printf(b, "(%s %d) ", kind, c->inst);
    tb_puts(b, pc->name);
    if (c->addr >= 0)
        tb_printf(b, "[%s] in %s", proto_loc_name(in, c->addr), pc->states[st]);
    tb_puts(b, ": ");
}

/* "recv req[0->1].Load(x)", "evict", "load.acquire.gpu": the event; a
 * received message is listed in the step. */
static void describe_event(const pctx *c, const pevent *e, ptaken tk, const int32_t *m, proto_step_desc *step)
{
    const proto_instance *in = c->in;
    textbuf b = tb_over(step->event, sizeof step->event);
    if (e->kind == EV_INTERNAL) {
        tb_puts(&b, in->p->ctrls[c->ctrl].internal[e->internal]);
    } else if (e->kind != EV_RECV) {
        proto_proc_event_text(e, &b);
    } else {
        proto_msg_ref_of(in, tk.ch, tk.inst, m, &step->received);
        tb_printf(&b, "recv %s.%s", step->received.channel, step->received.text);
    }
}

/* " -> ACTION; ACTION; next S": the row's actions replayed on a copy of v
 * (c->v), with the values they used, and the next line state read from
 * `after` (the successor's slots). */
static void describe_row(pctx *c, const prow *row, ptaken tk, int line, const int32_t *after, describer *d)
{
    const proto_instance *in = c->in;
    int32_t w[PROTO_MAX_SLOTS];
    memcpy(w, c->v, sizeof *w * (size_t)in->nslots);
    c->v = w;
    if (tk.ch >= 0)
        proto_chan_remove(in, w, tk.ch, tk.inst, tk.k);
    tb_puts(&d->text, " ->");
    bool read = false;
    const char *sep = " ";
    for (int k = 0; k < row->nacts && c->ok; k++) {
        const pact *a = &row->acts[k];
        if (a->kind == A_DONE && read) {    /* a read completes its instruction */
            proto_act(c, a);
            continue;
        }
        tb_puts(&d->text, sep);
        size_t start = d->text.len;
        describe_act(c, a, d);
        note_action(d->step, &d->text, start);
        read |= a->kind == A_REG;
        sep = "; ";
    }
    d->step->fired = c->ok;
    if (!c->ok)
        tb_puts(&d->text, " (not enabled)");
    if (row->next >= 0 && line >= 0)
        tb_printf(&d->text, "%snext %s", sep, in->p->ctrls[c->ctrl].states[after[line]]);
    else if (row->nacts == 0) {
        tb_puts(&d->text, " ");
        size_t start = d->text.len;
        tb_puts(&d->text, "nothing");
        note_action(d->step, &d->text, start);
    }
}

/* Who the step is about: kind, actor, thread and instruction, line and
 * its states before and after. */
static void step_who(const pctx *c, const pevent *e, int line, const int32_t *v, const int32_t *after,
                     proto_step_desc *s)
{
    const proto_instance *in = c->in;
    const pctrl *pc = &in->p->ctrls[c->ctrl];
    s->kind = e->kind == EV_RECV ? PSTEP_RECEIVE : e->kind == EV_INTERNAL ? PSTEP_INTERNAL : PSTEP_PROCESSOR;
    proto_ctrl_agent(in, c->ctrl, c->inst, &s->actor);
    if (c->thread >= 0) {
        s->thread = c->thread;
        s->thread_name = in->threads[c->thread].th->name;
        s->instr = c->ins ? c->ins->text : NULL;
    }
    if (line >= 0) {
        s->loc = proto_loc_name(in, c->addr);
        s->state = pc->states[v[line]];
        s->next_state = pc->states[after[line]];
    }
}

void proto_describe_step(const proto_instance *cin, const uint8_t *state, int rule, const uint8_t *nextst,
                         proto_step_desc *out)
{
    proto_instance *in = (proto_instance *)cin;     /* describing writes nothing in the instance */
    int32_t v[PROTO_MAX_SLOTS], after[PROTO_MAX_SLOTS], m[2 + PROTO_MAX_FIELDS];
    pctx c;
    pevent e;
    ptaken tk;
    memset(out, 0, sizeof *out);
    out->kind = PSTEP_NONE;
    out->thread = -1;
    out->actor = (proto_agent){-1, -1, -1, -1, "?"};
    describer d = {out, tb_over(out->text, sizeof out->text)};
    proto_unpack(in, state, v);
    proto_unpack(in, nextst, after);
    int t = rule >= 0 && rule < in->nthreads ? rule : -1;
    const lit_instr *ins = t >= 0 ? proto_current_instr(in, v, t) : NULL;
    if (t >= 0) {
        out->completes = after[in->threads[t].base] != v[in->threads[t].base];
        if (ins && ins->op == OP_BARRIER && !v[in->threads[t].base + 1]) {
            out->kind = PSTEP_BARRIER;
            proto_thread_agent(in, t, &out->actor);
            out->thread = t;
            out->thread_name = in->threads[t].th->name;
            out->instr = ins->text;
            describe_barrier(in, v, t, ins, &d);
            return;
        }
    }
    if (t >= 0 && ins && proto_scratchpad_serves(in, ins) && !v[in->threads[t].base + 1]) {
        describe_scratchpad(in, v, after, t, ins, &d);
        return;
    }
    if (!rule_source(in, v, rule, m, &c, &e, &tk)) {
        tb_printf(&d.text, "rule %d", rule);
        return;
    }
    int line = c.addr >= 0 ? proto_line_slot(&c, c.addr) : -1;
    int st = line >= 0 ? v[line] : 0;
    step_who(&c, &e, line, v, after, out);
    if (c.thread >= 0)
        out->completes = after[in->threads[c.thread].base] != v[in->threads[c.thread].base];
    describe_where(&c, &e, st, &d.text);
    describe_event(&c, &e, tk, m, out);
    tb_puts(&d.text, out->event);
    bool matched;
    const prow *row = proto_select_row(&c, &e, st, &matched);
    if (!row) {
        tb_puts(&d.text, matched ? " -> no guard holds" : " -> no row");
        return;
    }
    out->row_file = row->path;
    out->row_line = row->line;
    describe_row(&c, row, tk, line, after, &d);
}
