/* protocol/interp.c: the protocol-table interpreter as an nsi front end.
 * successors() unpacks a state into int32 slots on the stack, offers every
 * event (each thread's next instruction, each channel's deliverable
 * messages, each controller's internal events on each line), fires the
 * first matching row whose guard holds, and packs the result.  No heap
 * allocation, no name lookups (the trace describers, which run once per
 * printed step, allocate). */
#include <gc.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/ops.h"
#include "protocol/internal.h"

typedef struct ctx {
    proto_instance *in;
    int32_t *v;             /* working slots */
    int ctrl, inst, cu;     /* controller, its instance, the CU (-1: none) */
    int addr;               /* line, or -1 */
    int thread, tid;        /* thread for reg/done (-1: none); tid for sends */
    const lit_instr *ins;   /* that thread's current instruction */
    long value;             /* processor event operand */
    const int32_t *msg;     /* received message fields, or NULL */
    bool ok;
    int gpu;                /* the GPU (-1: none) */
} ctx;

/* The context of controller `ctrl`'s instance `inst`, with no line,
 * thread or message: its CU and GPU as far as its level tells them. */
static ctx ctx_at(proto_instance *in, int32_t *v, int ctrl, int inst)
{
    enum plevel lv = in->p->ctrls[ctrl].level;
    ctx c = {in, v, ctrl, inst, lv == LV_CU ? inst : -1, -1, -1, 0, NULL, 0, NULL, true, -1};
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
        in->vrec->wrapped = true;
        *x = wrap(in, *x);
        return true;
    }
    if (!in->vrec->overflow) {
        in->vrec->overflow = true;
        in->vrec->overflow_value = *x;
    }
    return false;
}

static void set_slot(ctx *c, int slot, long x)
{
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
static __attribute__((cold)) bool aggregate_now(const ctx *c, bool on_line, int idx, int *first, int *len)
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
    for (int k = 0; k < n; k++)
        if (!chan_push(c->in, c->v, a->idx, chan_instance(c, a->idx, dest[k]), m))
            c->ok = false;
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
    if (a->kind == A_WAIT)
        c->v[base + 1] = 1;
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
    if (a->kind == A_SET)
        c->v[s] = a->idx;
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
typedef struct taken { int ch, inst, k; } taken;

/* The first row of c->ctrl matching (line state, e) whose guard holds on
 * c->v, or NULL; *matched: some row matched the pair at all. */
static const prow *select_row(ctx *c, const pevent *e, int state, bool *matched)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    *matched = false;
    for (int r = 0; r < pc->nrows; r++) {
        const prow *row = &pc->rows[r];
        if (!(row->states >> state & 1) || !event_matches(&row->ev, e))
            continue;
        *matched = true;
        c->ok = true;       /* a guard reading out of range, or dividing by 0, is false */
        if (!row->guard || (eval(c, row->guard) && c->ok))
            return row;
    }
    return NULL;
}

/* Fires the first row of c->ctrl matching (line state, e) whose guard
 * holds, on c->v; emits the successor when no action stalled.  Guards are
 * evaluated on the current state `cur` (c->v); only the row that fires
 * copies it into `w`, the working vector. */
static void fire(ctx *c, const pevent *e, emitter *em, int rule, int32_t *w, taken tk)
{
    int state = c->addr >= 0 ? c->v[line_slot(c, c->addr)] : 0;
    bool matched;
    const prow *row = select_row(c, e, state, &matched);
    if (row) {
        c->ok = true;
        memcpy(w, c->v, sizeof *w * (size_t)c->in->nslots);
        c->v = w;
        if (tk.ch >= 0)
            chan_remove(c->in, w, tk.ch, tk.inst, tk.k);
        for (int k = 0; k < row->nacts && c->ok; k++)
            act(c, &row->acts[k]);
        if (c->ok && row->next >= 0 && c->addr >= 0)
            c->v[line_slot(c, c->addr)] = row->next;
        if (c->ok) {
            memcpy(em->buf, em->parent, c->in->model.state_bytes);
            proto_repack(c->in, em->cur, c->v, em->buf);
            em->emit(em->cb_ctx, em->buf, rule);
            em->count++;
        }
        return;
    }
    if (!matched && e->kind != EV_INTERNAL)
        record_unhandled(c->in, c->ctrl, state, e);
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
    memcpy(w, cur, sizeof *w * (size_t)in->nslots);
    if (!barrier_arrive(in, w, t, ins, &slot, &expect))
        return;
    memcpy(em->buf, em->parent, in->model.state_bytes);
    proto_repack(in, cur, w, em->buf);
    em->emit(em->cb_ctx, em->buf, t);
    em->count++;
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
    memcpy(w, cur, sizeof *w * (size_t)in->nslots);
    if (!proto_scratchpad_step(in, w, t, ins))
        return;
    w[in->threads[t].base]++;
    proto_local_steps(in, w, t);
    memcpy(em->buf, em->parent, in->model.state_bytes);
    proto_repack(in, cur, w, em->buf);
    em->emit(em->cb_ctx, em->buf, t);
    em->count++;
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

static int successors(void *vctx, const uint8_t *state, nsi_emit emit, void *cb_ctx)
{
    proto_instance *in = vctx;
    int32_t cur[PROTO_MAX_SLOTS], w[PROTO_MAX_SLOTS];
    uint8_t buf[PROTO_MAX_SLOTS * 4];
    emitter em = {emit, cb_ctx, 0, buf, state, cur};
    proto_unpack(in, state, cur);
    for (int t = 0; t < in->nthreads; t++)
        thread_event(in, cur, w, t, &em);
    channel_events(in, cur, w, &em);
    internal_events(in, cur, w, &em);
    return em.count;
}

/* ---- the rest of the nsi model ----------------------------------------------------------------- */
static void initial(void *vctx, uint8_t *state)
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
static bool is_final(void *vctx, const uint8_t *state)
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

static const char *violated(void *vctx, const uint8_t *state)
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

/* ---- describing a step ------------------------------------------------------------------------- */
/* The event that `rule` offers in v: its context, event and the message
 * taken (m receives it); false when the rule is no event source. */
static bool rule_source(proto_instance *in, const int32_t *v, int rule, int32_t *m, ctx *c, pevent *e,
                        taken *tk)
{
    *tk = (taken){-1, 0, 0};
    if (rule >= 0 && rule < in->nthreads)
        return thread_source(in, v, rule, c, e);
    for (int ch = in->p->nchans - 1; ch >= 0; ch--) {
        const pchan_info *ci = &in->chans[ch];
        int per = ci->unordered ? ci->cap : 1, r = rule - ci->rule_base;
        if (r >= 0 && r < ci->ninst * per) {
            int inst = r / per, k = r % per;
            if (k >= v[chan_slot(in, ch, inst)])
                return false;
            delivery_source(in, v, ch, inst, k, m, c, e);
            *tk = (taken){ch, inst, k};
            return true;
        }
    }
    for (int ctl = in->p->nctrls - 1; ctl >= 0; ctl--) {
        const pctrl *pc = &in->p->ctrls[ctl];
        int r = rule - in->ctrls[ctl].rule_base;
        if (r >= 0 && pc->ninternal && r < in->ctrls[ctl].ninst * in->naddr * pc->ninternal) {
            internal_source(in, v, ctl, r / pc->ninternal / in->naddr, r / pc->ninternal % in->naddr,
                            r % pc->ninternal, c, e);
            return true;
        }
    }
    return false;
}

static const char *storage_name(const pctrl *pc, const pact *a)
{
    return a->on_line ? pc->fields[a->idx] : pc->vars[a->idx];
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
static void describe_send(ctx *c, const pact *a, describer *d)
{
    const proto_instance *in = c->in;
    const pchan *ch = &in->p->chans[a->idx];
    int32_t m[2 + PROTO_MAX_FIELDS];
    int dest[PROTO_MAX_DESTS];
    ctx probe = *c;             /* evaluating may clear ok: the replay reports that */
    int n = send_targets(&probe, a, dest);
    build_msg(&probe, a, m);
    if (n <= 0)
        tb_printf(&d->text, "send %s (%s)", ch->name, n == 0 ? "no destination" : "not possible");
    for (int k = 0; k < n; k++) {
        proto_msg_ref ref;
        proto_msg_ref_of(in, a->idx, chan_instance(c, a->idx, dest[k]), m, &ref);
        tb_printf(&d->text, "%ssend %s %s", k ? "; " : "", ref.channel, ref.text);
        if (d->step->nsends < PSTEP_MAX_SENDS)
            d->step->sends[d->step->nsends] = ref;
        d->step->nsends++;
    }
}

/* The line of address a differs from its reset form (keep fields aside):
 * it holds something an invalidation drops. */
static bool line_held(const ctx *c, int a)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    int s = line_slot(c, a);
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
static void line_text(const ctx *c, int a, textbuf *b)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    const pctrl_info *ci = &c->in->ctrls[c->ctrl];
    int s = line_slot(c, a);
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
static void describe_drops(const ctx *c, describer *d)
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
static void describe_cleared(const ctx *c, const pact *a, textbuf *b)
{
    int first, len;
    if (!aggregate_now(c, a->on_line, a->idx, &first, &len))
        return;
    tb_puts(b, " (was ");
    proto_aggregate_text(storage_kind(c, a->on_line, a->idx), &c->v[first], len, b);
    tb_puts(b, ")");
}

static void describe_read(ctx *c, describer *d)
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
static void describe_act(ctx *c, const pact *a, describer *d)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    textbuf *b = &d->text;
    if (a->kind == A_SEND) {
        describe_send(c, a, d);
        act(c, a);
        return;
    }
    if (a->kind == A_INV_ALL) {
        tb_puts(b, "invalidate_all");
        describe_drops(c, d);
    } else if (a->kind == A_CLEAR) {
        tb_printf(b, "clear %s", storage_name(pc, a));
        describe_cleared(c, a, b);
    }
    long operand = a->e && a->kind != A_REG && a->kind != A_LINEF ? eval(c, a->e) : 0;
    long index = a->index ? eval(c, a->index) : 0;
    int slot = a->kind == A_LINEF || a->kind == A_VAR_SET || a->kind == A_VAR_ADD || a->kind == A_VAR_SUB
             ? target_slot(c, a) : -1;
    act(c, a);
    switch (a->kind) {
    case A_LINEF:
    case A_VAR_SET:
        tb_puts(b, storage_name(pc, a));
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
    case A_PUSH: tb_printf(b, "push %s %ld", storage_name(pc, a), operand); break;
    case A_POP: tb_printf(b, "pop %s", storage_name(pc, a)); break;
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
    if (!barrier_arrive(in, w, t, ins, &slot, &expect)) {
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
        if (u != t && barrier_waiting(in, v, u) == slot)
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

/* How an instance of controller c is named in traces: "CU", "GPU",
 * "slice" (a lone slice is not named), or NULL (one instance). */
static const char *instance_kind(const proto_instance *in, int c)
{
    if (c < 0)
        return NULL;
    const pctrl *pc = &in->p->ctrls[c];
    if (pc->level == LV_CU)
        return "CU";
    if (pc->level == LV_GPU)
        return "GPU";
    if (pc->level == LV_SLICE && in->ctrls[c].ninst > 1)
        return "slice";
    return NULL;
}

/* "P1 (CU 1) L1[y] in I: " or "(slice 1) L2[x] in V: ": who takes the
 * event, on which line, in which state. */
static void describe_where(const ctx *c, const pevent *e, int st, textbuf *b)
{
    const proto_instance *in = c->in;
    const pctrl *pc = &in->p->ctrls[c->ctrl];
    const char *kind = instance_kind(in, c->ctrl);
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
static void describe_event(const ctx *c, const pevent *e, taken tk, const int32_t *m, proto_step_desc *step)
{
    const proto_instance *in = c->in;
    textbuf b = tb_over(step->event, sizeof step->event);
    if (e->kind == EV_INTERNAL) {
        tb_puts(&b, in->p->ctrls[c->ctrl].internal[e->internal]);
    } else if (e->kind != EV_RECV) {
        proc_event_text(e, &b);
    } else {
        proto_msg_ref_of(in, tk.ch, tk.inst, m, &step->received);
        tb_printf(&b, "recv %s.%s", step->received.channel, step->received.text);
    }
}

/* " -> ACTION; ACTION; next S": the row's actions replayed on a copy of v
 * (c->v), with the values they used, and the next line state read from
 * `after` (the successor's slots). */
static void describe_row(ctx *c, const prow *row, taken tk, int line, const int32_t *after, describer *d)
{
    const proto_instance *in = c->in;
    int32_t w[PROTO_MAX_SLOTS];
    memcpy(w, c->v, sizeof *w * (size_t)in->nslots);
    c->v = w;
    if (tk.ch >= 0)
        chan_remove(in, w, tk.ch, tk.inst, tk.k);
    tb_puts(&d->text, " ->");
    bool read = false;
    const char *sep = " ";
    for (int k = 0; k < row->nacts && c->ok; k++) {
        const pact *a = &row->acts[k];
        if (a->kind == A_DONE && read) {    /* a read completes its instruction */
            act(c, a);
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
static void step_who(const ctx *c, const pevent *e, int line, const int32_t *v, const int32_t *after,
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
    ctx c;
    pevent e;
    taken tk;
    memset(out, 0, sizeof *out);
    out->kind = PSTEP_NONE;
    out->thread = -1;
    out->actor = (proto_agent){-1, -1, -1, -1, "?"};
    describer d = {out, tb_over(out->text, sizeof out->text)};
    proto_unpack(in, state, v);
    proto_unpack(in, nextst, after);
    int t = rule >= 0 && rule < in->nthreads ? rule : -1;
    const lit_instr *ins = t >= 0 ? current_instr(in, v, t) : NULL;
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
    int line = c.addr >= 0 ? line_slot(&c, c.addr) : -1;
    int st = line >= 0 ? v[line] : 0;
    step_who(&c, &e, line, v, after, out);
    if (c.thread >= 0)
        out->completes = after[in->threads[c.thread].base] != v[in->threads[c.thread].base];
    describe_where(&c, &e, st, &d.text);
    describe_event(&c, &e, tk, m, out);
    tb_puts(&d.text, out->event);
    bool matched;
    const prow *row = select_row(&c, &e, st, &matched);
    if (!row) {
        tb_puts(&d.text, matched ? " -> no guard holds" : " -> no row");
        return;
    }
    out->row_file = row->path;
    out->row_line = row->line;
    describe_row(&c, row, tk, line, after, &d);
}

static void describe(void *vctx, const uint8_t *state, int rule, const uint8_t *nextst, FILE *out)
{
    proto_step_desc s;
    proto_describe_step(vctx, state, rule, nextst, &s);
    fprintf(out, "%s\n", s.text);
}

/* ---- why a state is stuck ---------------------------------------------------------------------- */
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
static void leaf_value(ctx *c, const pexpr *e, textbuf *b)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    int first, len;
    bool on_line = e->kind == EX_LINEF;
    if ((e->kind == EX_VAR || on_line) && storage_kind(c, on_line, e->idx) != T_SCALAR) {
        if (aggregate_now(c, on_line, e->idx, &first, &len))
            proto_aggregate_text(storage_kind(c, on_line, e->idx), &c->v[first], len, b);
        return;
    }
    long x = eval(c, e);
    if (e->kind == EX_STATE && x >= 0 && x < pc->nstates)
        tb_puts(b, pc->states[x]);
    else if (e->kind == EX_ORDER && x >= 0 && x < LIT_NORDERS)
        tb_puts(b, vocab_orders[x]);
    else
        tb_printf(b, "%ld", x);
}

/* "acks == 0 is false (acks = 1)": an expression that does not hold on c,
 * and the values it read. */
static void false_expr(ctx *c, const pexpr *e, int msg, textbuf *b)
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

/* Why action a failed on c (after act() cleared c->ok). */
static void action_failure(ctx *c, const pact *a, textbuf *b)
{
    const proto_instance *in = c->in;
    int dest[PROTO_MAX_DESTS];
    ctx probe = *c;
    probe.ok = true;
    switch (a->kind) {
    case A_STALL: tb_puts(b, "it stalls"); return;
    case A_SEND: {
        int n = send_targets(&probe, a, dest);
        if (n < 0) {
            tb_printf(b, "send %s has no destination here", in->p->chans[a->idx].name);
            return;
        }
        for (int k = 0; k < n; k++) {
            int inst = chan_instance(c, a->idx, dest[k]);
            if (c->v[chan_slot(in, a->idx, inst)] >= in->chans[a->idx].cap) {
                tb_puts(b, "channel ");
                proto_chan_name(in, a->idx, inst, b);
                tb_printf(b, " is full (capacity %d)", in->chans[a->idx].cap);
                return;
            }
        }
        tb_printf(b, "a field of the message sent on %s is out of its range", in->p->chans[a->idx].name);
        return;
    }
    case A_PUSH: tb_printf(b, "push %s: it is full", storage_name(&in->p->ctrls[c->ctrl], a)); return;
    case A_POP: tb_printf(b, "pop %s: it is empty", storage_name(&in->p->ctrls[c->ctrl], a)); return;
    default: tb_puts(b, "an action writes a value out of its range or has no thread or line to act on"); return;
    }
}

/* Whether (and why not) controller c->ctrl takes event e on line state
 * st: every row that matches, with the guard that is false or the action
 * that cannot run.  True when some row fires. */
static bool explain_refusal(ctx *c, const pevent *e, int st, taken tk, textbuf *b)
{
    const pctrl *pc = &c->in->p->ctrls[c->ctrl];
    int32_t w[PROTO_MAX_SLOTS];
    const int32_t *v = c->v;
    int matched = 0, msg = e->kind == EV_RECV ? e->msg : -1;
    for (int r = 0; r < pc->nrows; r++) {
        const prow *row = &pc->rows[r];
        if (!(row->states >> st & 1) || !event_matches(&row->ev, e))
            continue;
        tb_printf(b, "%srow %s:%d: ", matched++ ? "; " : "", row->path, row->line);
        c->ok = true;
        c->v = (int32_t *)v;
        if (row->guard && !(eval(c, row->guard) && c->ok)) {
            false_expr(c, row->guard, msg, b);
            continue;
        }
        memcpy(w, v, sizeof *w * (size_t)c->in->nslots);
        c->v = w;
        if (tk.ch >= 0)
            chan_remove(c->in, w, tk.ch, tk.inst, tk.k);
        int k = 0;
        for (; k < row->nacts && c->ok; k++)
            act(c, &row->acts[k]);
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
static void event_place(const ctx *c, int st, textbuf *b)
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
            for (int k = 0; k < v[chan_slot(in, ch, i)]; k++) {
                ctx c;
                pevent e;
                delivery_source(in, v, ch, i, k, m, &c, &e);
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
    const lit_instr *ins = current_instr(in, v, t);
    if (!ins)
        return;
    const char *text = ins->text ? ins->text : "?";
    if (ins->op == OP_BARRIER) {
        int slot;
        long expect;
        bool known = barrier_of(in, v, t, ins, &slot, &expect);
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
    ctx c;
    pevent e;
    if (!thread_source(in, v, t, &c, &e))
        return;
    char why[PROTO_TEXT_MAX * 3];
    textbuf wb = tb_over(why, sizeof why);
    int st = c.addr >= 0 ? v[line_slot(&c, c.addr)] : 0;
    if (held(&c)) {
        textbuf b = add_reason(r, ti->th->name);
        tb_printf(&b, "offers %s, held by ", text);
        event_place(&c, st, &b);
        tb_puts(&b, ": hold ");
        proto_expr_text(in->p, c.ctrl, -1, in->p->ctrls[c.ctrl].hold, &b);
        tb_puts(&b, " holds");
        return;
    }
    if (explain_refusal(&c, &e, st, (taken){-1, 0, 0}, &wb))
        return;
    textbuf b = add_reason(r, ti->th->name);
    tb_printf(&b, "offers %s (", text);
    proc_event_text(&e, &b);
    tb_puts(&b, ") to ");
    event_place(&c, st, &b);
    tb_printf(&b, ": %s", why);
}

static void explain_message(proto_instance *in, const int32_t *v, int ch, int inst, int k, reasons *r)
{
    int32_t m[2 + PROTO_MAX_FIELDS];
    ctx c;
    pevent e;
    delivery_source(in, v, ch, inst, k, m, &c, &e);
    char why[PROTO_TEXT_MAX * 3];
    textbuf wb = tb_over(why, sizeof why);
    int st = c.addr >= 0 && c.addr < in->naddr ? v[line_slot(&c, c.addr)] : 0;
    if (explain_refusal(&c, &e, st, (taken){ch, inst, k}, &wb))
        return;
    proto_msg_ref ref;
    proto_msg_ref_of(in, ch, inst, m, &ref);
    textbuf b = add_reason(r, ref.channel);
    tb_printf(&b, "%s to ", ref.text);
    event_place(&c, st, &b);
    tb_printf(&b, ": %s", why);
    int behind = v[chan_slot(in, ch, inst)] - 1;
    if (!in->chans[ch].unordered && behind > 0)
        tb_printf(&b, " (%d more behind it)", behind);
}

static void explain_finals(proto_instance *in, int32_t *v, reasons *r)
{
    for (int c = 0; c < in->p->nctrls; c++)
        for (int i = 0; i < in->ctrls[c].ninst && in->p->ctrls[c].final; i++) {
            ctx cx = ctx_at(in, v, c, i);
            if (eval(&cx, in->p->ctrls[c].final) && cx.ok)
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
            for (int k = 0; k < v[chan_slot(in, ch, i)] && (ci->unordered || k == 0); k++)
                explain_message(in, v, ch, i, k, &r);
    }
    explain_finals(in, v, &r);
    return r.n;
}

/* ---- a step as data (nsi_step) ------------------------------------------------------------------ */
/* The search's view of a step, converted from proto_describe_step so that
 * the JSON traces and the text traces come from one replay. */
static void step_add(const char **items, int *n, const char *s)
{
    if (*n < NSI_STEP_MAX_ITEMS)
        items[(*n)++] = s;
}

/* The actions the replay recorded, each whole (an action's text may hold
 * "; ", as invalidate_all's list of dropped lines does). */
static void step_actions(const proto_step_desc *s, nsi_step *out)
{
    for (int k = 0; k < s->nactions; k++)
        step_add(out->actions, &out->nactions, GC_STRNDUP(s->text + s->actions[k].start, s->actions[k].len));
}


static bool step(void *vctx, const uint8_t *state, int rule, const uint8_t *nextst, nsi_step *out)
{
    const proto_instance *in = vctx;
    proto_step_desc s;
    proto_describe_step(in, state, rule, nextst, &s);
    memset(out, 0, sizeof *out);
    out->instance = -1;
    if (s.kind == PSTEP_NONE && !s.fired && s.thread < 0 && s.actor.ctrl < 0)
        return false;
    /* a message or internal step names a thread only in its text */
    bool by_thread = s.kind == PSTEP_PROCESSOR || s.kind == PSTEP_BARRIER || s.kind == PSTEP_LOCAL;
    out->thread = by_thread ? s.thread_name : NULL;
    if (by_thread && s.thread >= 0 && s.instr) {
        int32_t v[PROTO_MAX_SLOTS];
        proto_unpack(in, state, v);
        const lit_instr *ins = current_instr(in, v, s.thread);
        out->litmus_line = ins ? ins->line : 0;
        out->instruction = s.instr;
    }
    if (s.actor.ctrl >= 0) {
        out->controller = in->p->ctrls[s.actor.ctrl].name;
        out->instance_kind = instance_kind(in, s.actor.ctrl);
        if (out->instance_kind)
            out->instance = s.actor.index;
    }
    out->address = s.loc;
    out->state = s.state;
    out->next_state = s.next_state;
    out->event = s.kind == PSTEP_BARRIER ? "barrier" : GC_STRDUP(s.event);
    out->row_file = s.row_file;
    out->row_line = s.row_line;
    step_actions(&s, out);
    for (int k = 0; k < s.nsends; k++) {
        char buf[PROTO_NAME_MAX * 4];
        snprintf(buf, sizeof buf, "%s %s", s.sends[k].channel, s.sends[k].text);
        step_add(out->sent, &out->nsent, GC_STRDUP(buf));
    }
    for (int k = 0; k < s.nreads; k++) {
        char buf[96];
        snprintf(buf, sizeof buf, "%s:%s=%ld", s.reads[k].thread_name, s.reads[k].reg, s.reads[k].value);
        step_add(out->read, &out->nread, GC_STRDUP(buf));
    }
    if (s.kind == PSTEP_BARRIER)
        out->note = GC_STRDUP(s.text);
    else if (!s.row_file)
        out->note = strstr(s.text, "no guard holds") ? "no guard holds" : "no row";
    return true;
}

/* ---- units, threads and CTAs (nsi_sched) ------------------------------------------------------ */
/* Rules 0..nthreads-1 are the threads' own; a channel's rules come per
 * instance (one per message slot when unordered), so a rule's unit is its
 * thread or its channel instance.  An internal event of a controller's
 * line (draining a store buffer, finishing a flush) is its own unit: the
 * hardware eventually does the work it has pending.  `evict` belongs to no
 * unit: a cache need never give a line up, so no fairness forces it. */
static bool is_evict(const pctrl *pc, int x) { return strcmp(pc->internal[x], "evict") == 0; }

static int find_rule_unit(const proto_instance *in, int rule)
{
    if (rule >= 0 && rule < in->nthreads)
        return rule;
    for (int ch = 0; ch < in->p->nchans; ch++) {
        const pchan_info *ci = &in->chans[ch];
        int per = ci->unordered ? ci->cap : 1, r = rule - ci->rule_base;
        if (r >= 0 && r < ci->ninst * per)
            return ci->unit_base + r / per;
    }
    for (int c = 0; c < in->p->nctrls; c++) {
        const pctrl *pc = &in->p->ctrls[c];
        int r = rule - in->ctrls[c].rule_base;
        if (pc->ninternal && r >= 0 && r < in->ctrls[c].ninst * in->naddr * pc->ninternal)
            return is_evict(pc, r % pc->ninternal) ? -1 : in->ctrls[c].unit_base + r;
    }
    return -1;
}

/* Asked once per edge by the liveness search: a table, filled by init_sched. */
static int rule_unit(void *vctx, int rule)
{
    const proto_instance *in = vctx;
    return rule >= 0 && rule < in->nrules ? in->unit_of_rule[rule] : -1;
}

/* "(CU 1) L1[x] drain": the line and internal event of an internal unit. */
static bool internal_unit_name(const proto_instance *in, int unit, FILE *out)
{
    for (int c = 0; c < in->p->nctrls; c++) {
        const pctrl *pc = &in->p->ctrls[c];
        int r = unit - in->ctrls[c].unit_base;
        if (!pc->ninternal || r < 0 || r >= in->ctrls[c].ninst * in->naddr * pc->ninternal)
            continue;
        int inst = r / pc->ninternal / in->naddr, a = r / pc->ninternal % in->naddr;
        const char *kind = instance_kind(in, c);
        if (kind)
            fprintf(out, "(%s %d) ", kind, inst);
        fprintf(out, "%s[%s] %s", pc->name, proto_loc_name(in, a), pc->internal[r % pc->ninternal]);
        return true;
    }
    return false;
}

static void unit_name(void *vctx, int unit, FILE *out)
{
    const proto_instance *in = vctx;
    if (unit >= 0 && unit < in->nthreads) {
        fputs(in->threads[unit].th->name, out);
        return;
    }
    for (int ch = 0; ch < in->p->nchans; ch++) {
        int i = unit - in->chans[ch].unit_base;
        if (i >= 0 && i < in->chans[ch].ninst) {
            char name[64];
            textbuf b = tb_over(name, sizeof name);
            proto_chan_name(in, ch, i, &b);
            fputs(name, out);
            return;
        }
    }
    if (!internal_unit_name(in, unit, out))
        fputs("?", out);
}

static bool thread_done(void *vctx, const uint8_t *state, int t)
{
    const proto_instance *in = vctx;
    int base = in->threads[t].base;
    return proto_slot(in, state, base) >= in->threads[t].th->ninstrs && !proto_slot(in, state, base + 1);
}

static bool thread_waiting(void *vctx, const uint8_t *state, int t)
{
    const proto_instance *in = vctx;
    return proto_slot(in, state, in->threads[t].base + 1) != 0;
}

static bool thread_progress(void *vctx, const uint8_t *state, int t)
{
    const proto_instance *in = vctx;
    int pc = proto_slot(in, state, in->threads[t].base);
    return pc < in->threads[t].th->ninstrs && in->threads[t].th->instrs[pc].progress;
}

/* A CTA runs on its own CU (threads of one CTA share it), so CTAs are the
 * CUs, in the order of their first thread. */
static int thread_cta(void *vctx, int t, int *gpu)
{
    const proto_instance *in = vctx;
    int cu = in->threads[t].cu;
    *gpu = in->cu_gpu[cu];
    return cu;
}

static void init_sched(proto_instance *in)
{
    int units = in->nthreads;
    for (int ch = 0; ch < in->p->nchans; ch++) {
        in->chans[ch].unit_base = units;
        units += in->chans[ch].ninst;
    }
    for (int c = 0; c < in->p->nctrls; c++) {
        in->ctrls[c].unit_base = units;
        units += in->ctrls[c].ninst * in->naddr * in->p->ctrls[c].ninternal;
    }
    in->unit_of_rule = GC_MALLOC_ATOMIC(sizeof *in->unit_of_rule * (size_t)(in->nrules ? in->nrules : 1));
    for (int r = 0; r < in->nrules; r++)
        in->unit_of_rule[r] = find_rule_unit(in, r);
    in->sched = (nsi_sched){in->nthreads, units, rule_unit, unit_name, thread_done, thread_waiting,
                            thread_progress, thread_cta, in->p->preempt};
}

void proto_init_model(proto_instance *in)
{
    int r = in->nthreads;
    for (int ch = 0; ch < in->p->nchans; ch++) {
        in->chans[ch].rule_base = r;
        r += in->chans[ch].ninst * (in->chans[ch].unordered ? in->chans[ch].cap : 1);
    }
    for (int c = 0; c < in->p->nctrls; c++) {
        in->ctrls[c].rule_base = r;
        r += in->ctrls[c].ninst * in->naddr * in->p->ctrls[c].ninternal;
    }
    in->nrules = r;
    init_sched(in);
    size_t bytes = (size_t)(in->state_bits + 7) / 8;
    /* a state of no bits (empty threads, one-valued tables) is one zero byte */
    in->model = (nsi_model){in, bytes ? bytes : 1, r, initial, successors,
                            is_final, violated, describe, step, &in->sched};
}

const nsi_model *proto_nsi(proto_instance *in) { return &in->model; }

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
