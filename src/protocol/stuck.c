/* protocol/stuck.c: why a state has no successor or is not an acceptable
 * end (protocol/step.h's proto_stuck_reasons): every thread not done,
 * every message no row takes, every false `final`, each with the row and
 * guard that refused it and the values the guard read.  Rows are tried
 * through the interpreter's own functions (internal.h), on copies.  Runs
 * once per printed deadlock. */
#include <string.h>

#include "protocol/internal.h"

typedef struct reasons {
    proto_reason *out;
    int max, n;
    proto_reason spare;     /* written, then dropped, past max */
} reasons;

static textbuf add_reason(reasons *r, const char *who)
{
    proto_reason *x = r->n < r->max ? &r->out[r->n] : &r->spare;
    r->n++;
    textbuf w = tb_over(x->who, sizeof x->who);
    tb_puts(&w, who);
    return tb_over(x->why, sizeof x->why);
}

/* The names an expression reads (variables, line and message fields,
 * aggregates, state, order), each once, at most 8. */
typedef struct leaves { const pexpr *e[8]; int n; } leaves;

static void collect_leaves(const pexpr *e, leaves *l, int depth)
{
    if (!e || depth > 64)
        return;
    bool leaf = e->kind == EX_VAR || e->kind == EX_LINEF || e->kind == EX_MSGF || e->kind == EX_STATE ||
                e->kind == EX_ORDER || e->kind == EX_VALUE;
    if (leaf) {
        for (int i = 0; i < l->n; i++)
            if (l->e[i]->kind == e->kind && l->e[i]->idx == e->idx)
                return;
        if (l->n < 8)
            l->e[l->n++] = e;
        return;
    }
    if (e->kind == EX_LEN || e->kind == EX_HAS || e->kind == EX_LAST || e->kind == EX_INDEX) {
        collect_leaves(e->l, l, depth + 1);     /* the whole aggregate, not an element */
        collect_leaves(e->r, l, depth + 1);
        return;
    }
    if (e->kind == EX_CHAIN) {  /* a loop along it: its length is not depth */
        for (int i = 0; i < e->nterms && l->n < 8; i++)
            collect_leaves(e->terms[i], l, depth + 1);
        return;
    }
    collect_leaves(e->l, l, depth + 1);
    collect_leaves(e->r, l, depth + 1);
    collect_leaves(e->r2, l, depth + 1);
}

/* One name's value on c: a number, a state or order name, an aggregate. */
static void leaf_value(pctx *c, const pexpr *e, textbuf *b)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    int first, len;
    bool on_line = e->kind == EX_LINEF;
    if ((e->kind == EX_VAR || on_line) && proto_storage_kind(c, on_line, e->idx) != T_SCALAR) {
        if (proto_aggregate_now(c, on_line, e->idx, &first, &len))
            proto_aggregate_text(proto_storage_kind(c, on_line, e->idx), &c->v[first], len, b);
        return;
    }
    long x = proto_eval(c, e);
    if (e->kind == EX_STATE && x >= 0 && x < pc->nstates)
        tb_puts(b, pc->states[x]);
    else if (e->kind == EX_ORDER && proto_order_name(x))
        tb_puts(b, proto_order_name(x));
    else
        tb_printf(b, "%ld", x);
}

/* "acks == 0 is false (acks = 1)": an expression that does not hold on c,
 * and the values it read. */
static void false_expr(pctx *c, const pexpr *e, int msg, textbuf *b)
{
    leaves l = {{0}, 0};
    proto_expr_text(c->in->p, c->ctrl, msg, e, b);
    tb_puts(b, c->ok ? " is false" : " cannot be evaluated (an index out of range or a division by 0)");
    collect_leaves(e, &l, 0);
    for (int i = 0; i < l.n; i++) {
        tb_puts(b, i ? ", " : " (");
        proto_expr_text(c->in->p, c->ctrl, msg, l.e[i], b);
        tb_puts(b, " = ");
        leaf_value(c, l.e[i], b);
    }
    if (l.n)
        tb_puts(b, ")");
}

/* Why action a failed on c (after proto_act() cleared c->ok). */
static void action_failure(pctx *c, const pact *a, textbuf *b)
{
    const proto_instance *in = c->in;
    int dest[PROTO_MAX_DESTS];
    pctx probe = *c;
    probe.ok = true;
    switch (a->kind) {
    case A_STALL: tb_puts(b, "it stalls"); return;
    case A_SEND: {
        int n = proto_send_targets(&probe, a, dest);
        if (n < 0) {
            tb_printf(b, "send %s has no destination here", in->p->chans[a->idx].name);
            return;
        }
        for (int k = 0; k < n; k++) {
            int inst = proto_chan_instance(c, a->idx, dest[k]);
            if (c->v[proto_chan_slot(in, a->idx, inst)] >= in->chans[a->idx].cap) {
                tb_puts(b, "channel ");
                proto_chan_name(in, a->idx, inst, b);
                tb_printf(b, " is full (capacity %d)", in->chans[a->idx].cap);
                return;
            }
        }
        tb_printf(b, "a field of the message sent on %s is out of its range", in->p->chans[a->idx].name);
        return;
    }
    case A_PUSH: tb_printf(b, "push %s: it is full", proto_storage_name(&in->p->ctrls[c->ctrl], a)); return;
    case A_POP: tb_printf(b, "pop %s: it is empty", proto_storage_name(&in->p->ctrls[c->ctrl], a)); return;
    default: tb_puts(b, "an action writes a value out of its range or has no thread or line to act on"); return;
    }
}

/* Whether (and why not) controller c->ctrl takes event e on line state
 * st: every row that matches, with the guard that is false or the action
 * that cannot run.  True when some row fires. */
static bool explain_refusal(pctx *c, const pevent *e, int st, ptaken tk, textbuf *b)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    int32_t w[PROTO_MAX_SLOTS];
    const int32_t *v = c->v;
    int matched = 0, msg = e->kind == EV_RECV ? e->msg : -1;
    for (int r = 0; r < pc->nrows; r++) {
        const prow *row = &pc->rows[r];
        if (!(row->states >> st & 1) || !proto_event_matches(&row->ev, e))
            continue;
        tb_printf(b, "%srow %s:%d: ", matched++ ? "; " : "", row->path, row->line);
        c->ok = true;
        c->v = (int32_t *)v;
        if (row->guard && !(proto_eval(c, row->guard) && c->ok)) {
            false_expr(c, row->guard, msg, b);
            continue;
        }
        memcpy(w, v, sizeof *w * (size_t)c->in->nslots);
        c->v = w;
        if (tk.ch >= 0)
            proto_chan_remove(c->in, w, tk.ch, tk.inst, tk.k);
        int k = 0;
        for (; k < row->nacts && c->ok; k++)
            proto_act(c, &row->acts[k]);
        bool fires = c->ok;
        if (fires)
            tb_puts(b, "fires");
        else
            action_failure(c, &row->acts[k - 1], b);    /* on w, as the action saw it */
        c->v = (int32_t *)v;
        if (fires)
            return true;
    }
    if (!matched)
        tb_printf(b, "no row of %s takes it in state %s", pc->name, pc->states[st]);
    return false;
}

/* "L1 (CU 1) [y] in I": the controller instance and line an event goes to. */
static void event_place(const pctx *c, int st, textbuf *b)
{
    proto_agent a;
    proto_ctrl_agent(c->in, c->ctrl, c->inst, &a);
    tb_puts(b, a.name);
    if (c->addr >= 0)
        tb_printf(b, " [%s] in %s", proto_loc_name(c->in, c->addr), c->in->p->ctrls[c->ctrl].states[st]);
}

/* The messages in flight that belong to thread t (requests it sent,
 * responses for it), as " (in flight for it: resp[1] LoadResp(x, 0))". */
static void thread_in_flight(proto_instance *in, const int32_t *v, int t, textbuf *b)
{
    int32_t m[2 + PROTO_MAX_FIELDS];
    int n = 0;
    for (int ch = 0; ch < in->p->nchans; ch++)
        for (int i = 0; i < in->chans[ch].ninst; i++)
            for (int k = 0; k < v[proto_chan_slot(in, ch, i)]; k++) {
                pctx c;
                pevent e;
                proto_delivery_source(in, v, ch, i, k, m, &c, &e);
                if (c.thread != t)
                    continue;
                proto_msg_ref ref;
                proto_msg_ref_of(in, ch, i, m, &ref);
                tb_printf(b, "%s%s %s", n++ ? ", " : "; in flight for it: ", ref.channel, ref.text);
            }
    if (!n)
        tb_puts(b, "; nothing for it is in flight");
}

static void explain_thread(proto_instance *in, const int32_t *v, int t, reasons *r)
{
    const pthread_info *ti = &in->threads[t];
    const lit_instr *ins = proto_current_instr(in, v, t);
    if (!ins)
        return;
    const char *text = ins->text ? ins->text : "?";
    if (ins->op == OP_BARRIER) {
        int slot;
        long expect;
        bool known = proto_barrier_of(in, v, t, ins, &slot, &expect);
        textbuf b = add_reason(r, ti->th->name);
        if (!known)
            tb_printf(&b, "cannot arrive at %s: its id or thread count names no barrier of CU %d", text, ti->cu);
        else if (v[ti->base + 1])
            tb_printf(&b, "waits at %s: %d of %ld threads arrived", text, v[slot], expect);
        return;
    }
    if (!v[ti->base + 1] && proto_scratchpad_serves(in, ins)) {
        textbuf b = add_reason(r, ti->th->name);
        tb_printf(&b, "cannot perform %s in local memory: a value would leave the range", text);
        return;
    }
    if (v[ti->base + 1]) {
        textbuf b = add_reason(r, ti->th->name);
        tb_printf(&b, "waits for its %s to complete", text);
        thread_in_flight(in, v, t, &b);
        return;
    }
    pctx c;
    pevent e;
    if (!proto_thread_source(in, v, t, &c, &e))
        return;
    char why[PROTO_TEXT_MAX * 3];
    textbuf wb = tb_over(why, sizeof why);
    int st = c.addr >= 0 ? v[proto_line_slot(&c, c.addr)] : 0;
    if (proto_held(&c)) {
        textbuf b = add_reason(r, ti->th->name);
        tb_printf(&b, "offers %s, held by ", text);
        event_place(&c, st, &b);
        tb_puts(&b, ": hold ");
        proto_expr_text(in->p, c.ctrl, -1, in->p->ctrls[c.ctrl].hold, &b);
        tb_puts(&b, " holds");
        return;
    }
    if (explain_refusal(&c, &e, st, (ptaken){-1, 0, 0}, &wb))
        return;
    textbuf b = add_reason(r, ti->th->name);
    tb_printf(&b, "offers %s (", text);
    proto_proc_event_text(&e, &b);
    tb_puts(&b, ") to ");
    event_place(&c, st, &b);
    tb_printf(&b, ": %s", why);
}

static void explain_message(proto_instance *in, const int32_t *v, int ch, int inst, int k, reasons *r)
{
    int32_t m[2 + PROTO_MAX_FIELDS];
    pctx c;
    pevent e;
    proto_delivery_source(in, v, ch, inst, k, m, &c, &e);
    char why[PROTO_TEXT_MAX * 3];
    textbuf wb = tb_over(why, sizeof why);
    int st = c.addr >= 0 && c.addr < in->naddr ? v[proto_line_slot(&c, c.addr)] : 0;
    if (explain_refusal(&c, &e, st, (ptaken){ch, inst, k}, &wb))
        return;
    proto_msg_ref ref;
    proto_msg_ref_of(in, ch, inst, m, &ref);
    textbuf b = add_reason(r, ref.channel);
    tb_printf(&b, "%s to ", ref.text);
    event_place(&c, st, &b);
    tb_printf(&b, ": %s", why);
    int behind = v[proto_chan_slot(in, ch, inst)] - 1;
    if (!in->chans[ch].unordered && behind > 0)
        tb_printf(&b, " (%d more behind it)", behind);
}

static void explain_finals(proto_instance *in, int32_t *v, reasons *r)
{
    for (int c = 0; c < in->p->nctrls; c++)
        for (int i = 0; i < in->ctrls[c].ninst && in->p->ctrls[c].final; i++) {
            pctx cx = proto_ctx_at(in, v, c, i);
            if (proto_eval(&cx, in->p->ctrls[c].final) && cx.ok)
                continue;
            proto_agent a;
            proto_ctrl_agent(in, c, i, &a);
            textbuf b = add_reason(r, a.name);
            tb_puts(&b, "final ");
            false_expr(&cx, in->p->ctrls[c].final, -1, &b);
        }
}

int proto_stuck_reasons(const proto_instance *cin, const uint8_t *state, proto_reason *out, int max)
{
    proto_instance *in = (proto_instance *)cin;     /* explaining writes nothing in the instance */
    int32_t v[PROTO_MAX_SLOTS];
    reasons r = {out, max, 0, {"", ""}};
    proto_unpack(in, state, v);
    for (int t = 0; t < in->nthreads; t++)
        explain_thread(in, v, t, &r);
    for (int ch = 0; ch < in->p->nchans; ch++) {
        const pchan_info *ci = &in->chans[ch];
        for (int i = 0; i < ci->ninst; i++)
            for (int k = 0; k < v[proto_chan_slot(in, ch, i)] && (ci->unordered || k == 0); k++)
                explain_message(in, v, ch, i, k, &r);
    }
    explain_finals(in, v, &r);
    return r.n;
}
