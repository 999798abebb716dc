/* protocol/interp.c: the protocol-table interpreter as an nsi front end.
 * proto_nsi_successors() unpacks a state into int32 slots on the stack,
 * offers every event (each thread's next instruction, each channel's
 * deliverable messages, each controller's internal events on each line),
 * fires the first matching row whose guard holds (the candidates come from
 * the compiled dispatch, compile.h), and packs the result: only the slot
 * ranges the row's actions logged as written (pdirty) are compared and
 * repacked, then put back, so that the working vector equals the current
 * state between events.  No heap allocation, no name lookups, no write to
 * the instance but the value and unhandled records.  This file is the search's hot path
 * and nothing else: what runs once per printed step (describe.c, stuck.c,
 * step_record.c) or once per instance (nsi_adapter.c) lives apart and
 * replays the functions below through the wrappers at the end. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/ops.h"
#include "protocol/internal.h"

/* The row context (internal.h), by the short name the interpreter has
 * always used. */
typedef pctx ctx;

/* The context of controller `ctrl`'s instance `inst`, with no line,
 * thread or message: its CU and GPU as far as its level tells them. */
static ctx ctx_at(proto_instance *in, int32_t *v, int ctrl, int inst)
{
    enum plevel lv = in->p->ctrls[ctrl].level;
    ctx c = {in, v, ctrl, inst, lv == LV_CU ? inst : -1, -1, -1, 0, NULL, 0, NULL, true, -1, NULL};
    c.gpu = lv == LV_CU ? in->cu_gpu[inst] : lv == LV_GPU ? inst : -1;
    return c;
}

/* ---- slot addressing ------------------------------------------------------ */
static int line_slot(const ctx *c, int addr)
{
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    return ci->base + c->inst * ci->inst_slots + addr * ci->line_slots;
}

static int var_slot(const ctx *c, int var)
{
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    return ci->base + c->inst * ci->inst_slots + c->in->naddr * ci->line_slots + ci->var_off[var];
}

static int field_slot(const ctx *c, int addr, int field)
{
    return line_slot(c, addr) + c->in->ctrls[c->ctrl].field_off[field];
}

/* The first slot and the length of an aggregate (or scalar) variable or
 * line field: a fifo's count is at *first, its elements after it.  False
 * for a line field when the context has no line. */
static bool storage_at(const ctx *c, bool on_line, int idx, int *first, int *len)
{
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    if (on_line && c->addr < 0)
        return false;
    *first = on_line ? field_slot(c, c->addr, idx) : var_slot(c, idx);
    *len = on_line ? ci->field_len[idx] : ci->var_len[idx];
    return true;
}

static int chan_slot(const proto_instance *in, int ch, int inst)
{
    const pchan_info *ci = &in->chans[ch];
    return ci->base + inst * (1 + ci->cap * ci->msg_slots);
}

static long wrap(const proto_instance *in, long x) { return arith_wrap_range(x, in->vlo, in->vhi); }

/* A data value outside the range: wrapped when the instance wraps (and
 * recorded), else recorded as an overflow; false when the step must not
 * be taken.  Never silent: verify reports both. */
static bool fit_value(const proto_instance *in, long *x)
{
    if (*x >= in->vlo && *x <= in->vhi)
        return true;
    if (in->wraps) {
        if (!__atomic_load_n(&in->vrec->wrapped, __ATOMIC_RELAXED))
            __atomic_store_n(&in->vrec->wrapped, true, __ATOMIC_RELAXED);
        *x = wrap(in, *x);
        return true;
    }
    if (__atomic_load_n(&in->vrec->overflow, __ATOMIC_RELAXED))
        return false;
    pthread_mutex_lock(&in->vrec->lock);     /* search threads may meet one at once */
    if (!in->vrec->overflow) {
        in->vrec->overflow_value = *x;
        __atomic_store_n(&in->vrec->overflow, true, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&in->vrec->lock);
    return false;
}

/* Logs that the actions may write slots first..first+count-1 (fire's
 * log, pdirty).  Every write to the working slots in a row's actions goes
 * through set_slot or follows a mark of the storage it writes. */
static void mark(ctx *c, int first, int count)
{
    pdirty *d = c->dirty;
    if (!d || d->all)
        return;
    if (d->n == PROTO_MAX_DIRTY) {
        d->all = true;
        return;
    }
    d->first[d->n] = first;
    d->count[d->n++] = count;
}

static void set_slot(ctx *c, int slot, long x)
{
    mark(c, slot, 1);
    const pslot *s = &c->in->slots[slot];
    if (x < s->lo || x > s->hi) {
        if (!s->is_value || !fit_value(c->in, &x)) {
            c->ok = false;
            return;
        }
    }
    c->v[slot] = (int32_t)x;
}

static enum ptype_kind storage_kind(const ctx *c, bool on_line, int idx)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    return (on_line ? pc->field_type[idx] : pc->var_type[idx]).kind;
}

static bool is_fifo(const ctx *c, bool on_line, int idx) { return storage_kind(c, on_line, idx) == T_FIFO; }

/* The elements an aggregate holds now: all of a bits or an array, the
 * queued ones of a fifo (after its count slot). */
static bool live_elements(const ctx *c, bool on_line, int idx, int *first, int *len)
{
    if (!storage_at(c, on_line, idx, first, len))
        return false;
    if (is_fifo(c, on_line, idx)) {
        *len = c->v[*first];
        (*first)++;
    }
    return true;
}

/* live_elements for describing and explaining (a copy, not a call: one more
 * caller makes the compiler stop inlining live_elements into eval, which
 * costs the search 0.7 % of its instructions). */
__attribute__((cold)) bool proto_aggregate_now(const ctx *c, bool on_line, int idx, int *first, int *len)
{
    if (!storage_at(c, on_line, idx, first, len))
        return false;
    if (is_fifo(c, on_line, idx)) {
        *len = c->v[*first];
        (*first)++;
    }
    return true;
}

/* ---- threads --------------------------------------------------------------- */
long proto_eval_operand(const proto_instance *in, const int32_t *v, int thread, lit_operand o)
{
    if (o.kind == OPND_REG)
        return v[in->threads[thread].base + 2 + o.reg];
    return o.kind == OPND_IMM ? (long)o.imm : 0;
}

static const lit_instr *current_instr(const proto_instance *in, const int32_t *v, int thread)
{
    const lit_thread *th = in->threads[thread].th;
    int pc = v[in->threads[thread].base];
    return pc < th->ninstrs ? &th->instrs[pc] : NULL;
}

static int local_step(const proto_instance *in, int32_t *v, int thread, const lit_instr *ins)
{
    int base = in->threads[thread].base;
    long a = proto_eval_operand(in, v, thread, ins->a), b = proto_eval_operand(in, v, thread, ins->b);
    long x;
    switch (ins->op) {
    case OP_MOV:
    case OP_ALU:
        x = ins->op == OP_MOV ? a : (long)arith_alu(ins->alu_op, a, b);
        if (!fit_value(in, &x))
            return -1;
        v[base + 2 + ins->dst] = (int32_t)x;
        return v[base] + 1;
    case OP_BRANCH:
        return lit_cmp_holds(ins->cmp, a, b) ? ins->target : v[base] + 1;
    case OP_GOTO:
        return ins->target;
    default:
        return -1;
    }
}

/* Runs the thread's register-only instructions (mov, alu, branches) at
 * once, up to a bound; returns how many ran. */
int proto_local_steps(const proto_instance *in, int32_t *v, int thread)
{
    int n = 0, base = in->threads[thread].base;
    const lit_instr *ins;
    while (n < 256 && (ins = current_instr(in, v, thread)) != NULL) {
        int pc = local_step(in, v, thread, ins);
        if (pc < 0)
            break;
        v[base] = pc;
        n++;
    }
    return n;
}

/* ---- CTA barriers ------------------------------------------------------------ */
/* Threads of one CTA share a CU, so a CTA barrier is processor-side
 * synchronisation: an arrival counter per (CU, barrier id) and the
 * thread's `waiting` flag while its current instruction is a bar.cta.sync
 * (a thread waiting for a response is at a memory instruction, never at a
 * barrier, so the flag is unambiguous).  No controller sees the barrier. */

/* The counter slot and the expected count of thread t's barrier
 * instruction `ins` on v; false when its id or its count (either may be a
 * register) names no counter of the CU or does not fit it: such a thread
 * never arrives, and the search shows the hang as a deadlock. */
static bool barrier_of(const proto_instance *in, const int32_t *v, int t, const lit_instr *ins, int *slot,
                       long *expect)
{
    int cu = in->threads[t].cu;
    long id = proto_eval_operand(in, v, t, ins->a);
    long n = ins->b.kind == OPND_NONE ? in->cu_size[cu] : proto_eval_operand(in, v, t, ins->b);
    for (int k = 0; k < in->nbars; k++)
        if (in->bars[k].cu == cu && in->bars[k].id == id) {
            if (n < 1 || n - 1 > in->slots[in->bars[k].slot].hi)
                return false;
            *slot = in->bars[k].slot;
            *expect = n;
            return true;
        }
    return false;
}

/* The counter slot of the barrier thread u waits at in v, or -1. */
static int barrier_waiting(const proto_instance *in, const int32_t *v, int u)
{
    const lit_instr *ins = current_instr(in, v, u);
    int slot;
    long n;
    if (!v[in->threads[u].base + 1] || !ins || ins->op != OP_BARRIER || !barrier_of(in, v, u, ins, &slot, &n))
        return -1;
    return slot;
}

/* Thread t (not waiting) arrives at the barrier of its instruction `ins`,
 * on w: the counter goes up by one; when it reaches the expected count the
 * barrier releases: the counter goes back to 0 (canonical, and ready for
 * the next use) and every thread of the CU waiting at it continues.  A
 * sync that does not release waits; an arrive, or the releasing arrival,
 * continues.  False (w untouched) when the thread cannot arrive. */
static bool barrier_arrive(const proto_instance *in, int32_t *w, int t, const lit_instr *ins, int *slot,
                           long *expect)
{
    if (!barrier_of(in, w, t, ins, slot, expect))
        return false;
    int base = in->threads[t].base, cu = in->threads[t].cu;
    if (w[*slot] + 1 < *expect) {
        w[*slot]++;
        if (ins->barrier_waits) {
            w[base + 1] = 1;
            return true;
        }
    } else {
        w[*slot] = 0;
        for (int k = 0; k < in->cu_size[cu]; k++) {
            int u = in->cu_threads[cu][k], ub = in->threads[u].base;
            if (u == t || barrier_waiting(in, w, u) != *slot)
                continue;
            w[ub]++;
            w[ub + 1] = 0;
            proto_local_steps(in, w, u);
        }
    }
    w[base]++;
    proto_local_steps(in, w, t);
    return true;
}

/* ---- expressions ------------------------------------------------------------- */
static long rmw_apply(const ctx *c, long old, long a)
{
    int thread = c->thread;
    const lit_instr *ins = thread >= 0 ? current_instr(c->in, c->v, thread) : NULL;
    if (!ins || (ins->op != OP_RMW && ins->op != OP_RED))
        return old;
    return lit_rmw_result(ins, old, a, proto_eval_operand(c->in, c->v, thread, ins->b));
}

static long eval(ctx *c, const pexpr *e);

/* l op r, r evaluated only when l does not decide (&&, ||).  An overflow,
 * like a division by zero or an index out of range, makes the row not
 * enabled (c->ok false): base/arith.h, the simulator's arithmetic too. */
static long apply(ctx *c, enum expr_op op, long l, const pexpr *right)
{
    if (op == OPX_AND && !l)
        return 0;
    if (op == OPX_OR && l)
        return 1;
    return arith_expr(op, l, eval(c, right), &c->ok);
}

static long binop(ctx *c, const pexpr *e) { return apply(c, e->op, eval(c, e->l), e->r); }

/* A chain of operators is folded from the left in a loop (however long it is). */
static long chain(ctx *c, const pexpr *e)
{
    long x = eval(c, e->terms[0]);
    for (int i = 1; i < e->nterms; i++)
        x = apply(c, e->ops[i - 1], x, e->terms[i]);
    return x;
}

/* Element i of an aggregate (a fifo counts from its head); an index out
 * of range disables the row. */
static long element(ctx *c, const pexpr *agg, long i)
{
    int first, len;
    if (!live_elements(c, agg->kind == EX_LINEF, agg->idx, &first, &len))
        return 0;
    if (i < 0 || i >= len) {
        c->ok = false;
        return 0;
    }
    return c->v[first + i];
}

/* len(X): a fifo's length, the set bits of a bits, an array's size;
 * has(X, x): some element (bits: bit x) is x; last(X, x): the index of
 * the last element equal to x (a fifo counts from its head), or -1. */
static long aggregate_query(ctx *c, const pexpr *e)
{
    int first, len;
    bool on_line = e->l->kind == EX_LINEF;
    enum ptype_kind k = storage_kind(c, on_line, e->l->idx);
    if (!live_elements(c, on_line, e->l->idx, &first, &len))
        return 0;
    long x = e->kind != EX_LEN ? eval(c, e->r) : 0, n = 0;
    if (e->kind == EX_HAS && k == T_BITS)
        return x >= 0 && x < len && c->v[first + x];
    if (e->kind == EX_LAST) {
        for (int i = len - 1; i >= 0; i--)
            if (c->v[first + i] == x)
                return i;
        return -1;
    }
    for (int i = 0; i < len; i++)
        n += e->kind == EX_HAS ? c->v[first + i] == x : k == T_BITS ? c->v[first + i] : 1;
    return e->kind == EX_HAS ? n > 0 : n;
}

/* home h of address a: the home's expression with addr bound to a. */
static long home_of(ctx *c, int h, long a)
{
    ctx hc = *c;
    hc.addr = (int)a;
    long x = eval(&hc, c->in->p->homes[h].e);
    c->ok &= hc.ok;
    return x;
}

static long eval(ctx *c, const pexpr *e)
{
    switch (e->kind) {
    case EX_NUM: return e->num;
    case EX_CONST: return c->in->consts[e->idx];
    case EX_VAR: return c->v[var_slot(c, e->idx)];
    case EX_LINEF: return c->addr >= 0 ? c->v[field_slot(c, c->addr, e->idx)] : 0;
    case EX_MSGF: return c->msg ? c->msg[e->idx] : 0;
    case EX_ADDR: return c->addr;
    case EX_VALUE: return c->value;
    case EX_STATE: return c->addr >= 0 ? c->v[line_slot(c, c->addr)] : 0;
    case EX_BIN: return binop(c, e);
    case EX_CHAIN: return chain(c, e);
    case EX_NOT: return !eval(c, e->l);
    case EX_RMW: return rmw_apply(c, eval(c, e->l), eval(c, e->r));
    case EX_NEG: return arith_neg(eval(c, e->l), &c->ok);
    case EX_INDEX: return element(c, e->l, eval(c, e->r));
    case EX_LEN:
    case EX_HAS:
    case EX_LAST: return aggregate_query(c, e);
    case EX_HOME: return home_of(c, e->idx, eval(c, e->r));
    case EX_CU: return c->cu;
    case EX_ORDER: return c->ins ? (long)c->ins->order : -1;
    case EX_GPU: return c->gpu;
    case EX_TID: return c->thread >= 0 ? c->tid : -1;
    case EX_COND: return eval(c, e->l) ? eval(c, e->r) : eval(c, e->r2);
    }
    return 0;
}

/* ---- channels ------------------------------------------------------------------ */
static int msg_cmp(const int32_t *a, const int32_t *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Appends (FIFO) or inserts in sorted position (unordered: a canonical
 * multiset); false when full. */
static bool chan_push(const proto_instance *in, int32_t *v, int ch, int inst, const int32_t *m)
{
    const pchan_info *ci = &in->chans[ch];
    int base = chan_slot(in, ch, inst), n = v[base], ms = ci->msg_slots;
    if (n >= ci->cap)
        return false;
    int k = n;
    if (ci->unordered)
        while (k > 0 && msg_cmp(m, &v[base + 1 + (k - 1) * ms], ms) < 0) {
            memcpy(&v[base + 1 + k * ms], &v[base + 1 + (k - 1) * ms], sizeof *v * (size_t)ms);
            k--;
        }
    memcpy(&v[base + 1 + k * ms], m, sizeof *m * (size_t)ms);
    v[base] = n + 1;
    return true;
}

static void chan_remove(const proto_instance *in, int32_t *v, int ch, int inst, int k)
{
    const pchan_info *ci = &in->chans[ch];
    int base = chan_slot(in, ch, inst), n = v[base], ms = ci->msg_slots;
    for (int j = k; j + 1 < n; j++)
        memcpy(&v[base + 1 + j * ms], &v[base + 1 + (j + 1) * ms], sizeof *v * (size_t)ms);
    for (int j = 0; j < ms; j++)
        v[base + 1 + (n - 1) * ms + j] = in->slots[base + 1 + (n - 1) * ms + j].lo;
    v[base] = n - 1;
}

/* Logs a channel instance's slots (its count and messages). */
static void mark_chan(ctx *c, int ch, int inst)
{
    const pchan_info *ci = &c->in->chans[ch];
    mark(c, chan_slot(c->in, ch, inst), 1 + ci->cap * ci->msg_slots);
}

/* ---- actions ----------------------------------------------------------------------- */
/* The context's own instance of a channel's level: its CU, its GPU, the
 * system's one; a slice only for a controller of the same slices (a slice
 * answering itself), else none (-1): a send to slices names one. */
static long self_instance(const ctx *c, const pchan *ch)
{
    switch (ch->level) {
    case LV_CU: return c->cu;
    case LV_GPU: return c->gpu >= 0 ? c->gpu : c->cu >= 0 ? c->in->cu_gpu[c->cu] : -1;
    case LV_SYS: return 0;
    case LV_SLICE: return c->in->p->ctrls[c->ctrl].level == LV_SLICE ? c->inst : -1;
    }
    return -1;
}

/* The instances of the channel a send goes to, in `out` (at most
 * PROTO_MAX_DESTS); -1 when the send cannot be made here (no instance of
 * the channel's level in this context, an index out of range, a set bit
 * beyond the channel's instances). */
static int send_targets(ctx *c, const pact *a, int *out)
{
    const proto_instance *in = c->in;
    const pchan *ch = &in->p->chans[a->idx];
    int n = in->chans[a->idx].ndest, first, len, k = 0;
    long x = -1;
    switch (a->dest) {
    case D_SELF:
        x = self_instance(c, ch);
        break;
    case D_INDEX:
        x = eval(c, a->index);
        break;
    case D_ALL:                 /* n <= PROTO_MAX_DESTS: proto_instantiate checks it */
        for (k = 0; k < n; k++)
            out[k] = k;
        return k;
    case D_EACH:
        if (!storage_at(c, a->index->kind == EX_LINEF, a->index->idx, &first, &len))
            return -1;
        for (int i = 0; i < len; i++)
            if (c->v[first + i]) {
                if (i >= n)
                    return -1;
                out[k++] = i;
            }
        return k;
    }
    if (x < 0 || x >= n)
        return -1;
    out[0] = (int)x;
    return 1;
}

/* The channel instance of destination d for a send from this context:
 * d itself, or with `from each` the (sender, d) pair. */
static int chan_instance(const ctx *c, int ch, int d)
{
    const pchan_info *ci = &c->in->chans[ch];
    return c->in->p->chans[ch].per_source ? c->inst * ci->ndest + d : d;
}

/* The message a send builds (type, sender's thread slot, fields); false
 * when a field is out of its range (values wrap when the file says so). */
static bool build_msg(ctx *c, const pact *a, int32_t *m)
{
    const proto_instance *in = c->in;
    int base = chan_slot(in, a->idx, 0) + 1;
    bool ok = true;
    m[0] = a->msg + 1;
    m[1] = c->tid;
    for (int j = 0; j < in->maxfields; j++) {
        if (j >= a->nargs) {        /* unused by this message type: canonical lowest value */
            m[2 + j] = in->slots[base + 2 + j].lo;
            continue;
        }
        long x = eval(c, a->args[j]);
        const pfield_range *r = &in->msg_range[a->msg * PROTO_MAX_FIELDS + j];
        if (x < r->lo || x > r->hi) {
            if (!r->is_value || !fit_value(in, &x))
                ok = false;
            if (x < r->lo || x > r->hi)
                x = r->lo;          /* not sent: any canonical value */
        }
        m[2 + j] = (int32_t)x;
    }
    return ok && c->ok;
}

static void act_send(ctx *c, const pact *a)
{
    int32_t m[2 + PROTO_MAX_FIELDS];
    int dest[PROTO_MAX_DESTS];
    int n = send_targets(c, a, dest);
    if (n < 0 || !build_msg(c, a, m)) {
        c->ok = false;
        return;
    }
    for (int k = 0; k < n; k++) {
        int inst = chan_instance(c, a->idx, dest[k]);
        mark_chan(c, a->idx, inst);
        if (!chan_push(c->in, c->v, a->idx, inst, m))
            c->ok = false;
    }
}

/* push X e (false when full), pop X (false when empty), clear X: every
 * element back to its lowest value (a fifo: empty). */
static void act_aggregate(ctx *c, const pact *a)
{
    int first, len;
    if (!storage_at(c, a->on_line, a->idx, &first, &len)) {
        c->ok = false;
        return;
    }
    int32_t *v = c->v;
    const pslot *sl = c->in->slots;
    mark(c, first, len + is_fifo(c, a->on_line, a->idx));
    if (a->kind == A_CLEAR) {
        for (int i = 0; i < len + is_fifo(c, a->on_line, a->idx); i++)
            v[first + i] = sl[first + i].lo;
    } else if (a->kind == A_PUSH) {
        if (v[first] >= len) {
            c->ok = false;
            return;
        }
        set_slot(c, first + 1 + v[first], eval(c, a->e));
        v[first]++;
    } else {
        if (v[first] == 0) {
            c->ok = false;
            return;
        }
        memmove(&v[first + 1], &v[first + 2], sizeof *v * (size_t)(v[first] - 1));
        v[first + v[first]] = sl[first + v[first]].lo;
        v[first]--;
    }
}

/* The slot an assignment writes: a scalar, or element [index]; -1 when
 * out of range. */
static int target_slot(ctx *c, const pact *a)
{
    int first, len;
    if (!storage_at(c, a->on_line, a->idx, &first, &len))
        return -1;
    if (!a->index)
        return first;
    long i = eval(c, a->index);
    return i >= 0 && i < len ? first + (int)i : -1;
}

/* The line's state and its fields back to their initial values, except
 * the fields declared `keep`. */
static void reset_line(ctx *c, int addr)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    int s = line_slot(c, addr), n = c->in->ctrls[c->ctrl].line_slots;
    mark(c, s, n);
    if (!pc->any_keep) {
        memcpy(&c->v[s], &c->in->init[s], sizeof *c->v * (size_t)n);
        return;
    }
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    c->v[s] = c->in->init[s];
    for (int f = 0; f < pc->nfields; f++) {
        int first = s + ci->field_off[f], len = ci->field_len[f] + (pc->field_type[f].kind == T_FIFO);
        if (!pc->field_keep[f])
            memcpy(&c->v[first], &c->in->init[first], sizeof *c->v * (size_t)len);
    }
}

static void act_done(ctx *c)
{
    if (c->thread < 0) {
        c->ok = false;
        return;
    }
    int base = c->in->threads[c->thread].base;
    mark(c, base, 2 + c->in->threads[c->thread].th->nregs);   /* pc, waiting, the local steps' registers */
    c->v[base]++;
    c->v[base + 1] = 0;
    proto_local_steps(c->in, c->v, c->thread);
}

static void act_thread(ctx *c, const pact *a)
{
    if (c->thread < 0) {
        c->ok = false;
        return;
    }
    int base = c->in->threads[c->thread].base;
    if (a->kind == A_WAIT) {
        mark(c, base + 1, 1);
        c->v[base + 1] = 1;
    }
    else if (c->ins && c->ins->dst >= 0)
        set_slot(c, base + 2 + c->ins->dst, eval(c, a->e));
}

/* target := e, or += / -= (sign); out of range disables the row. */
static void assign(ctx *c, const pact *a, int sign)
{
    int s = target_slot(c, a);
    if (s < 0) {
        c->ok = false;
        return;
    }
    long x = eval(c, a->e), sum = x;
    bool overflow = sign > 0 ? __builtin_add_overflow((long)c->v[s], x, &sum)
                  : sign < 0 ? __builtin_sub_overflow((long)c->v[s], x, &sum) : false;
    if (overflow)
        c->ok = false;
    else
        set_slot(c, s, sum);
}

static void act_line(ctx *c, const pact *a)
{
    if (c->addr < 0) {
        c->ok = false;
        return;
    }
    int s = line_slot(c, c->addr);
    if (a->kind == A_SET) {
        mark(c, s, 1);
        c->v[s] = a->idx;
    }
    else if (a->kind == A_INV)
        reset_line(c, c->addr);
    else
        assign(c, a, 0);
}

static void act(ctx *c, const pact *a)
{
    switch (a->kind) {
    case A_SEND: act_send(c, a); break;
    case A_LINEF:
    case A_SET:
    case A_INV: act_line(c, a); break;
    case A_VAR_SET: assign(c, a, 0); break;
    case A_VAR_ADD:
    case A_VAR_SUB: assign(c, a, a->kind == A_VAR_ADD ? 1 : -1); break;
    case A_PUSH:
    case A_POP:
    case A_CLEAR: act_aggregate(c, a); break;
    case A_REG:
    case A_WAIT: act_thread(c, a); break;
    case A_DONE: act_done(c); break;
    case A_STALL: c->ok = false; break;
    case A_INV_ALL:
        for (int x = 0; x < c->in->naddr; x++)
            reset_line(c, x);
        break;
    }
}

/* ---- firing rows ---------------------------------------------------------------------- */
typedef struct emitter {
    nsi_emit emit;
    void *cb_ctx;
    int count;
    uint8_t *buf;
    const uint8_t *parent;     /* the packed state being expanded */
    const int32_t *cur;        /* and its slots */
} emitter;

static bool event_matches(const pevent *r, const pevent *e)
{
    if (r->kind != e->kind)
        return false;
    if (e->kind == EV_RECV)
        return r->chan == e->chan && r->msg == e->msg;
    if (e->kind == EV_INTERNAL)
        return r->internal == e->internal;
    return (r->order == PEV_ANY || r->order == e->order) && (r->scope == PEV_ANY || r->scope == e->scope) &&
           r->remote == e->remote;
}

static void record_unhandled(proto_instance *in, int ctrl, int state, const pevent *e);

/* A message to take out of its channel before the row's actions run. */
typedef ptaken taken;

/* The first of `n` candidate rows (indices into the table, ascending)
 * whose guard holds on c->v, or NULL. */
static const prow *first_enabled(ctx *c, const pctrl *pc, const int32_t *cand, int n)
{
    for (int i = 0; i < n; i++) {
        const prow *row = &pc->rows[cand[i]];
        c->ok = true;       /* a guard reading out of range, or dividing by 0, is false */
        if (!row->guard || (eval(c, row->guard) && c->ok))
            return row;
    }
    return NULL;
}

/* select_row for an event that has no key in the compiled dispatch: the
 * table scanned row by row. */
static const prow *scan_rows(ctx *c, const pevent *e, int state, bool *matched)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    *matched = false;
    for (int r = 0; r < pc->nrows; r++) {
        const prow *row = &pc->rows[r];
        if (!(row->states >> state & 1) || !event_matches(&row->ev, e))
            continue;
        *matched = true;
        c->ok = true;
        if (!row->guard || (eval(c, row->guard) && c->ok))
            return row;
    }
    return NULL;
}

/* The first row of c->ctrl matching (line state, e) whose guard holds on
 * c->v, or NULL; *matched: some row matched the pair at all.  The
 * candidates come from the compiled dispatch (compile.h). */
static const prow *select_row(ctx *c, const pevent *e, int state, bool *matched)
{
    const proto_code *k = c->in->code;
    int n, key = proto_code_key(k, e->kind, e->order, e->scope, e->remote, e->chan, e->msg, e->internal);
    const int32_t *cand = proto_code_rows(k, c->ctrl, key, state, &n);
    if (!cand)
        return scan_rows(c, e, state, matched);
    *matched = n > 0;
    return first_enabled(c, &c->in->p->ctrls[c->ctrl], cand, n);
}

/* Undoes on w what the log d says the actions may have written: w equals
 * cur again. */
static void restore(const proto_instance *in, const int32_t *cur, int32_t *w, const pdirty *d)
{
    if (d->all) {
        memcpy(w, cur, sizeof *w * (size_t)in->nslots);
        return;
    }
    for (int r = 0; r < d->n; r++)      /* a few slots each: a loop, not a call */
        for (int i = d->first[r], end = i + d->count[r]; i < end; i++)
            w[i] = cur[i];
}

/* Runs row's actions on the working vector w, which equals the current
 * state em->cur on entry and again on return; emits the successor when no
 * action stalled, repacking only the slots the actions logged. */
static void run_row(ctx *c, const prow *row, emitter *em, int rule, int32_t *w, taken tk)
{
    pdirty d;
    d.n = 0;
    d.all = false;
    c->ok = true;
    c->v = w;
    c->dirty = &d;
    if (tk.ch >= 0) {
        mark_chan(c, tk.ch, tk.inst);
        chan_remove(c->in, w, tk.ch, tk.inst, tk.k);
    }
    for (int k = 0; k < row->nacts && c->ok; k++)
        act(c, &row->acts[k]);
    if (c->ok && row->next >= 0 && c->addr >= 0) {
        mark(c, line_slot(c, c->addr), 1);
        w[line_slot(c, c->addr)] = row->next;
    }
    if (c->ok) {
        memcpy(em->buf, em->parent, c->in->model.state_bytes);
        proto_repack_dirty(c->in, em->cur, w, em->buf, &d);
        em->emit(em->cb_ctx, em->buf, rule);
        em->count++;
    }
    restore(c->in, em->cur, w, &d);
    c->dirty = NULL;
}

/* Fires the first row of c->ctrl matching (line state, e) whose guard
 * holds, on c->v; emits the successor when no action stalled.  Guards are
 * evaluated on the current state `cur` (c->v); the row that fires runs on
 * `w`, the working vector (run_row). */
static void fire(ctx *c, const pevent *e, emitter *em, int rule, int32_t *w, taken tk)
{
    int state = c->addr >= 0 ? c->v[line_slot(c, c->addr)] : 0;
    bool matched;
    const prow *row = select_row(c, e, state, &matched);
    if (row) {
        run_row(c, row, em, rule, w, tk);
        return;
    }
    if (!matched && e->kind != EV_INTERNAL) {
        pthread_mutex_lock(&c->in->vrec->lock);     /* search threads may meet one at once */
        record_unhandled(c->in, c->ctrl, state, e);
        pthread_mutex_unlock(&c->in->vrec->lock);
    }
}

/* "rmw.acquire.gpu.remote": a processor event as a row pattern names it. */
static void proc_event_text(const pevent *e, textbuf *b)
{
    tb_printf(b, "%s.%s%s%s", vocab_event_kinds[e->kind], vocab_orders[e->order], vocab_scope_suffixes[e->scope],
              e->remote ? ".remote" : "");
}

static void record_unhandled(proto_instance *in, int ctrl, int state, const pevent *e)
{
    uint32_t ev = e->kind == EV_RECV ? 4096u + (uint32_t)e->chan * 64u + (uint32_t)e->msg
                                     : 1u + (uint32_t)e->kind * 64u + (uint32_t)e->order * 8u + (uint32_t)e->scope +
                                           (uint32_t)e->remote * 2048u;
    uint32_t key = (uint32_t)ctrl << 24 | (uint32_t)state << 16 | ev;
    for (int i = 0; i < in->nunhandled && i < PROTO_MAX_UNHANDLED; i++)
        if (in->unhandled_key[i] == key)
            return;
    if (in->nunhandled < PROTO_MAX_UNHANDLED) {
        proto_unhandled_pair *u = &in->unhandled[in->nunhandled];
        const pctrl *pc = &in->p->ctrls[ctrl];
        u->controller = pc->name;
        u->state = e->kind == EV_FENCE ? "*" : pc->states[state];
        if (e->kind == EV_RECV)
            snprintf(u->event, sizeof u->event, "recv %s.%s", in->p->chans[e->chan].name,
                     in->p->msgs[e->msg].name);
        else {
            textbuf b = tb_over(u->event, sizeof u->event);
            proc_event_text(e, &b);
        }
        in->unhandled_key[in->nunhandled] = key;
    }
    in->nunhandled++;
}

int proto_unhandled(const proto_instance *in, proto_unhandled_pair *out, int max)
{
    int n = in->nunhandled < PROTO_MAX_UNHANDLED ? in->nunhandled : PROTO_MAX_UNHANDLED;
    for (int i = 0; i < n && i < max; i++)
        out[i] = in->unhandled[i];
    return n;
}

/* ---- event sources ------------------------------------------------------------------------ */
/* The processor event of thread t's next instruction in `cur`: its context
 * and event; false when the thread offers none (done or waiting). */
static bool thread_source(proto_instance *in, const int32_t *cur, int t, ctx *c, pevent *e)
{
    const pthread_info *ti = &in->threads[t];
    const lit_instr *ins = current_instr(in, cur, t);
    if (!ins || cur[ti->base + 1])
        return false;
    static const int kind_of[] = {[OP_LOAD] = EV_LOAD, [OP_STORE] = EV_STORE, [OP_RMW] = EV_RMW,
                                  [OP_RED] = EV_RMW, [OP_FENCE] = EV_FENCE};
    if (ins->op > OP_FENCE)
        return false;
    *e = (pevent){(enum pev_kind)kind_of[ins->op], (int)ins->order, (int)ins->scope, -1, -1, -1, ins->remote};
    *c = ctx_at(in, (int32_t *)cur, in->p->proc_ctrl, ti->cu);
    c->addr = ins->op == OP_FENCE ? -1 : ins->loc;
    c->thread = t;
    c->tid = ti->tid;
    c->ins = ins;
    c->value = proto_eval_operand(in, cur, t, ins->a);
    return true;
}

/* The delivery of message k of channel instance (ch, inst) in `cur`; `m`
 * receives the message (the context points into it). */
static void delivery_source(proto_instance *in, const int32_t *cur, int ch, int inst, int k, int32_t *m,
                            ctx *c, pevent *e)
{
    const pchan *pch = &in->p->chans[ch];
    const pchan_info *ci = &in->chans[ch];
    memcpy(m, &cur[chan_slot(in, ch, inst) + 1 + k * ci->msg_slots], sizeof *m * (size_t)ci->msg_slots);
    const pmsg *pm = &in->p->msgs[m[0] - 1];
    enum plevel to = in->p->ctrls[pch->to].level;
    /* with `from each`, the pair names its sender: a per-cu sender is the
     * message's CU (a sliced L2 answers the right CU with no cu field) */
    enum plevel from = pch->per_source ? in->p->ctrls[pch->from].level : LV_SYS;
    int sender = inst / ci->ndest;
    inst %= ci->ndest;
    int cu = pch->level == LV_CU ? inst : from == LV_CU ? sender : pm->cu_field >= 0 ? m[2 + pm->cu_field] : -1;
    cu = cu < in->ncu ? cu : -1;
    int gpu = pch->level == LV_GPU ? inst : from == LV_GPU ? sender
            : pm->gpu_field >= 0 ? m[2 + pm->gpu_field] : cu >= 0 ? in->cu_gpu[cu] : -1;
    int thread = cu >= 0 && m[1] >= 0 && m[1] < in->cu_size[cu] ? in->cu_threads[cu][m[1]] : -1;
    *e = (pevent){EV_RECV, PEV_ANY, PEV_ANY, ch, m[0] - 1, -1, 0};
    int dst_inst = to == LV_SYS ? 0 : to == pch->level ? inst : in->cu_gpu[inst];
    *c = ctx_at(in, (int32_t *)cur, pch->to, dst_inst);
    c->cu = cu;
    c->gpu = gpu < in->ngpu ? gpu : -1;
    c->addr = m[2];
    c->thread = thread;
    c->tid = m[1];
    c->ins = thread >= 0 ? current_instr(in, cur, thread) : NULL;
    c->value = c->ins ? proto_eval_operand(in, cur, thread, c->ins->a) : 0;
    c->msg = m + 2;
}

/* Internal event x of controller ctl's instance i on line a. */
static void internal_source(proto_instance *in, const int32_t *cur, int ctl, int i, int a, int x, ctx *c,
                            pevent *e)
{
    *e = (pevent){EV_INTERNAL, PEV_ANY, PEV_ANY, -1, -1, x, 0};
    *c = ctx_at(in, (int32_t *)cur, ctl, i);
    c->addr = a;
}

/* Thread t's arrival at a barrier, the thread's rule: no table row. */
static void barrier_event(proto_instance *in, const int32_t *cur, int32_t *w, int t, const lit_instr *ins,
                          emitter *em)
{
    int slot;
    long expect;
    if (barrier_arrive(in, w, t, ins, &slot, &expect)) {
        memcpy(em->buf, em->parent, in->model.state_bytes);
        proto_repack(in, cur, w, em->buf);
        em->emit(em->cb_ctx, em->buf, t);
        em->count++;
    }
    memcpy(w, cur, sizeof *w * (size_t)in->nslots);    /* w equals cur again (fire relies on it) */
}

/* The processor controller's `hold` holds on the event's context: the
 * event waits. */
static bool held(ctx *c)
{
    const pexpr *h = c->in->p->ctrls[c->ctrl].hold;
    if (!h)
        return false;
    c->ok = true;
    bool on = eval(c, h) && c->ok;
    c->ok = true;
    return on;
}

/* Thread t's access to local memory (or a local-only fence), the
 * thread's rule: performed at once in its CU's scratchpad, no table row. */
static void scratchpad_event(proto_instance *in, const int32_t *cur, int32_t *w, int t, const lit_instr *ins,
                             emitter *em)
{
    if (proto_scratchpad_step(in, w, t, ins)) {
        w[in->threads[t].base]++;
        proto_local_steps(in, w, t);
        memcpy(em->buf, em->parent, in->model.state_bytes);
        proto_repack(in, cur, w, em->buf);
        em->emit(em->cb_ctx, em->buf, t);
        em->count++;
    }
    memcpy(w, cur, sizeof *w * (size_t)in->nslots);    /* w equals cur again (fire relies on it) */
}

static void thread_event(proto_instance *in, const int32_t *cur, int32_t *w, int t, emitter *em)
{
    ctx c;
    pevent e;
    const lit_instr *ins = current_instr(in, cur, t);
    if (ins && ins->op == OP_BARRIER) {
        if (!cur[in->threads[t].base + 1])
            barrier_event(in, cur, w, t, ins, em);
        return;
    }
    if (ins && proto_scratchpad_serves(in, ins)) {
        if (!cur[in->threads[t].base + 1])
            scratchpad_event(in, cur, w, t, ins, em);
        return;
    }
    if (thread_source(in, cur, t, &c, &e) && !held(&c))
        fire(&c, &e, em, t, w, (taken){-1, 0, 0});
}

static void deliver(proto_instance *in, const int32_t *cur, int32_t *w, int ch, int inst, int k,
                    emitter *em, int rule)
{
    int32_t m[2 + PROTO_MAX_FIELDS];
    ctx c;
    pevent e;
    delivery_source(in, cur, ch, inst, k, m, &c, &e);
    fire(&c, &e, em, rule, w, (taken){ch, inst, k});
}

static void channel_events(proto_instance *in, const int32_t *cur, int32_t *w, emitter *em)
{
    for (int ch = 0; ch < in->p->nchans; ch++) {
        const pchan_info *ci = &in->chans[ch];
        for (int i = 0; i < ci->ninst; i++) {
            int n = cur[chan_slot(in, ch, i)];
            int per = ci->unordered ? ci->cap : 1;
            for (int k = 0; k < n && k < per; k++)
                deliver(in, cur, w, ch, i, k, em, ci->rule_base + i * per + k);
        }
    }
}

static void internal_events(proto_instance *in, const int32_t *cur, int32_t *w, emitter *em)
{
    for (int c = 0; c < in->p->nctrls; c++) {
        const pctrl *pc = &in->p->ctrls[c];
        const pctrl_info *ci = &in->ctrls[c];
        for (int i = 0; i < ci->ninst && pc->ninternal; i++)
            for (int a = 0; a < in->naddr; a++)
                for (int x = 0; x < pc->ninternal; x++) {
                    pevent e;
                    ctx cx;
                    internal_source(in, cur, c, i, a, x, &cx, &e);
                    fire(&cx, &e, em, ci->rule_base + (i * in->naddr + a) * pc->ninternal + x, w,
                         (taken){-1, 0, 0});
                }
    }
}

int proto_nsi_successors(void *vctx, const uint8_t *state, nsi_emit emit, void *cb_ctx)
{
    proto_instance *in = vctx;
    int32_t cur[PROTO_MAX_SLOTS], w[PROTO_MAX_SLOTS];
    uint8_t buf[PROTO_MAX_SLOTS * 4 + PROTO_PACK_SLACK];
    emitter em = {emit, cb_ctx, 0, buf, state, cur};
    proto_unpack(in, state, cur);
    memcpy(w, cur, sizeof *w * (size_t)in->nslots);    /* the working vector, kept equal to cur between events */
    for (int t = 0; t < in->nthreads; t++)
        thread_event(in, cur, w, t, &em);
    channel_events(in, cur, w, &em);
    internal_events(in, cur, w, &em);
    return em.count;
}

/* ---- the rest of the nsi model (nsi_adapter.c wires it) ----------------------------------------- */
void proto_nsi_initial(void *vctx, uint8_t *state)
{
    proto_instance *in = vctx;
    memset(state, 0, in->model.state_bytes);
    proto_pack(in, in->init, state);
}

/* Unpacks only controller c's slots (its lines and variables): what its
 * final expression and its invariants read. */
static void unpack_ctrl(const proto_instance *in, const uint8_t *state, int32_t *v, int c)
{
    const pctrl_info *ci = &in->ctrls[c];
    proto_unpack_range(in, state, v, ci->base, ci->base + ci->ninst * ci->inst_slots);
}

/* Most states fail on a thread or a channel: those slots are read one by
 * one before any controller is unpacked. */
bool proto_nsi_is_final(void *vctx, const uint8_t *state)
{
    proto_instance *in = vctx;
    int32_t v[PROTO_MAX_SLOTS];
    for (int t = 0; t < in->nthreads; t++) {
        int base = in->threads[t].base;
        if (proto_slot(in, state, base) < in->threads[t].th->ninstrs || proto_slot(in, state, base + 1))
            return false;
    }
    for (int ch = 0; ch < in->p->nchans; ch++)
        for (int i = 0; i < in->chans[ch].ninst; i++)
            if (proto_slot(in, state, chan_slot(in, ch, i)))
                return false;
    for (int c = 0; c < in->p->nctrls; c++)
        if (in->p->ctrls[c].final)
            unpack_ctrl(in, state, v, c);
    for (int c = 0; c < in->p->nctrls; c++)
        for (int i = 0; i < in->ctrls[c].ninst && in->p->ctrls[c].final; i++) {
            ctx cx = ctx_at(in, v, c, i);
            if (!eval(&cx, in->p->ctrls[c].final))
                return false;
        }
    return true;
}

const char *proto_nsi_violated(void *vctx, const uint8_t *state)
{
    proto_instance *in = vctx;
    int32_t v[PROTO_MAX_SLOTS];
    uint64_t unpacked = 0;      /* controllers (up to 64) whose slots are in v */
    for (int k = 0; k < in->p->ninvs; k++) {
        const pinv *inv = &in->p->invs[k];
        if (!(unpacked >> inv->ctrl & 1))
            unpack_ctrl(in, state, v, inv->ctrl);
        unpacked |= 1ull << inv->ctrl;
        for (int i = 0; i < in->ctrls[inv->ctrl].ninst; i++)
            for (int a = 0; a < in->naddr; a++) {
                ctx cx = ctx_at(in, v, inv->ctrl, i);
                cx.addr = a;
                if (!eval(&cx, inv->e))
                    return inv->name;
            }
    }
    return NULL;
}

/* The instance of the memory controller that holds location a: its home,
 * or the only one. */
static int memory_instance(const proto_instance *in, int32_t *v, int a)
{
    const protocol *p = in->p;
    if (p->mem_home < 0)
        return 0;
    ctx c = ctx_at((proto_instance *)in, v, p->mem_ctrl, 0);
    c.addr = a;
    long h = eval(&c, p->homes[p->mem_home].e);
    return h >= 0 && h < in->ctrls[p->mem_ctrl].ninst ? (int)h : 0;
}

void proto_final_values(const proto_instance *in, const uint8_t *state, lit_value *out)
{
    int32_t v[PROTO_MAX_SLOTS];
    proto_unpack(in, state, v);
    const protocol *p = in->p;
    const pctrl_info *mi = &in->ctrls[p->mem_ctrl];
    for (int i = 0; i < in->t->nobserved; i++) {
        const lit_term *term = &in->t->observed[i];
        if (term->kind == TERM_REG)
            out[i] = v[in->threads[term->thread].base + 2 + term->reg];
        else if (term->kind == TERM_LOC && proto_scratchpad_slot(in, term->loc) >= 0)
            out[i] = v[proto_scratchpad_slot(in, term->loc)];
        else if (term->kind == TERM_LOC)
            out[i] = v[mi->base + memory_instance(in, v, term->loc) * mi->inst_slots +
                       term->loc * mi->line_slots + mi->field_off[p->mem_field]];
        else
            out[i] = term->value;
    }
}

bool proto_home_value(const proto_instance *in, int h, int a, long *out)
{
    int32_t v[1] = {0};     /* a home reads no slot: the parser allows addr and constants only */
    ctx c = ctx_at((proto_instance *)in, v, in->p->mem_ctrl >= 0 ? in->p->mem_ctrl : 0, 0);
    c.addr = a;
    *out = eval(&c, in->p->homes[h].e);
    return c.ok;
}

/* ---- for the print-time modules (internal.h) --------------------------------------------------- */
/* Thin wrappers: the static functions above stay the search's own (each
 * with the callers the compiler inlines it for); describing, explaining and
 * replaying a step call them through these. */
pctx proto_ctx_at(proto_instance *in, int32_t *v, int ctrl, int inst) { return ctx_at(in, v, ctrl, inst); }
int proto_line_slot(const pctx *c, int addr) { return line_slot(c, addr); }
int proto_chan_slot(const proto_instance *in, int ch, int inst) { return chan_slot(in, ch, inst); }

enum ptype_kind proto_storage_kind(const pctx *c, bool on_line, int idx)
{
    return storage_kind(c, on_line, idx);
}

const lit_instr *proto_current_instr(const proto_instance *in, const int32_t *v, int thread)
{
    return current_instr(in, v, thread);
}

bool proto_barrier_of(const proto_instance *in, const int32_t *v, int t, const lit_instr *ins, int *slot,
                      long *expect)
{
    return barrier_of(in, v, t, ins, slot, expect);
}

int proto_barrier_waiting(const proto_instance *in, const int32_t *v, int u) { return barrier_waiting(in, v, u); }

bool proto_barrier_arrive(const proto_instance *in, int32_t *w, int t, const lit_instr *ins, int *slot,
                          long *expect)
{
    return barrier_arrive(in, w, t, ins, slot, expect);
}

long proto_eval(pctx *c, const pexpr *e) { return eval(c, e); }
int proto_send_targets(pctx *c, const pact *a, int *out) { return send_targets(c, a, out); }
int proto_chan_instance(const pctx *c, int ch, int d) { return chan_instance(c, ch, d); }
bool proto_build_msg(pctx *c, const pact *a, int32_t *m) { return build_msg(c, a, m); }

void proto_chan_remove(const proto_instance *in, int32_t *v, int ch, int inst, int k)
{
    chan_remove(in, v, ch, inst, k);
}

int proto_target_slot(pctx *c, const pact *a) { return target_slot(c, a); }
void proto_act(pctx *c, const pact *a) { act(c, a); }
bool proto_event_matches(const pevent *r, const pevent *e) { return event_matches(r, e); }

const prow *proto_select_row(pctx *c, const pevent *e, int state, bool *matched)
{
    return select_row(c, e, state, matched);
}

void proto_proc_event_text(const pevent *e, textbuf *b) { proc_event_text(e, b); }

const char *proto_order_name(long order)
{
    return order >= 0 && order < LIT_NORDERS ? vocab_orders[order] : NULL;
}

bool proto_thread_source(proto_instance *in, const int32_t *cur, int t, pctx *c, pevent *e)
{
    return thread_source(in, cur, t, c, e);
}

void proto_delivery_source(proto_instance *in, const int32_t *cur, int ch, int inst, int k, int32_t *m,
                           pctx *c, pevent *e)
{
    delivery_source(in, cur, ch, inst, k, m, c, e);
}

void proto_internal_source(proto_instance *in, const int32_t *cur, int ctl, int i, int a, int x, pctx *c,
                           pevent *e)
{
    internal_source(in, cur, ctl, i, a, x, c, e);
}

bool proto_held(pctx *c) { return held(c); }
