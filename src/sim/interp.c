/* sim/interp.c: one step of the tables (see sim/interp.h).  The meaning
 * follows docs/protocol-tables.md, section 3, action by action. */
#include "sim/interp.h"

#include <string.h>

#include "base/arith.h"
#include "sim/expr_text.h"

static const sim_type *storage_type(const sim_ctx *c, bool on_line, int idx)
{
    const sim_ctrl *ct = &c->t->ctrls[c->ctrl];
    return on_line ? &ct->fields[idx].type : &ct->vars[idx].type;
}

/* The first slot of a variable or line field; NULL for a line field when
 * there is no line. */
static int64_t *storage(const sim_ctx *c, bool on_line, int idx)
{
    const sim_ctrl *ct = &c->t->ctrls[c->ctrl];
    if (on_line)
        return c->has_line ? &c->line[ct->field_off[idx]] : NULL;
    return &c->vars[ct->var_off[idx]];
}

/* The elements an aggregate holds now (a fifo: its queued ones). */
static int64_t *live(const sim_ctx *c, bool on_line, int idx, int *len)
{
    int64_t *s = storage(c, on_line, idx);
    const sim_type *ty = storage_type(c, on_line, idx);
    if (!s)
        return NULL;
    if (ty->kind == ST_FIFO) {
        *len = (int)s[0];
        return s + 1;
    }
    *len = ty->n;
    return s;
}

/* The checker's wrap (base/arith.h), so a wrapped value is the one verified. */
static int64_t wrap_value(const sim_tables *t, int64_t x) { return arith_wrap_range(x, t->vlo, t->vhi); }

/* x into a slot of type ty: out of range disables the row, except for
 * values when the tables wrap. */
static void put(sim_ctx *c, int64_t *slot, const sim_type *ty, int64_t x)
{
    if (x < ty->lo || x > ty->hi) {
        if (ty->kind == ST_BITS || !ty->r.is_value || !c->t->value_wrap) {
            c->ok = false;
            return;
        }
        x = wrap_value(c->t, x);
    }
    *slot = x;
}

/* ---- expressions ----------------------------------------------------------------- */

static int64_t eval(sim_ctx *c, const sim_expr *e);

/* l op r, r evaluated only when l does not decide (&&, ||); an overflow
 * or a division by 0 disables the row (c->ok false), as in the checker:
 * both compute with base/arith.h. */
static int64_t binop(sim_ctx *c, const sim_expr *e)
{
    int64_t l = eval(c, e->l);
    if (e->op == OPX_AND && !l)
        return 0;
    if (e->op == OPX_OR && l)
        return 1;
    return arith_expr(e->op, l, eval(c, e->r), &c->ok);
}

static int64_t element(sim_ctx *c, const sim_expr *e)
{
    int len;
    int64_t *el = live(c, e->on_line, e->idx, &len);
    int64_t i = eval(c, e->r);
    if (!el || i < 0 || i >= len) {
        c->ok = false;
        return 0;
    }
    return el[i];
}

static int64_t aggregate_query(sim_ctx *c, const sim_expr *e)
{
    int len;
    int64_t *el = live(c, e->on_line, e->idx, &len);
    if (!el)
        return 0;
    const sim_type *ty = storage_type(c, e->on_line, e->idx);
    int64_t x = e->kind != SX_LEN ? eval(c, e->r) : 0, n = 0;
    if (e->kind == SX_LAST) {           /* a fifo counts from its head */
        for (int i = len - 1; i >= 0; i--)
            if (el[i] == x)
                return i;
        return -1;
    }
    if (e->kind == SX_HAS && ty->kind == ST_BITS)
        return x >= 0 && x < len && el[x];
    for (int i = 0; i < len; i++)
        n += e->kind == SX_HAS ? el[i] == x : ty->kind == ST_BITS ? el[i] : 1;
    return e->kind == SX_HAS ? n > 0 : n;
}

/* The home expression at address a: evaluated in the caller's context
 * with only the address changed (restored after). */
static int64_t home_at(sim_ctx *c, int h, int64_t a)
{
    uint64_t own = c->addr;
    c->addr = (uint64_t)a;
    int64_t x = eval(c, c->t->homes[h].e);
    c->addr = own;
    return x;
}

static int64_t eval(sim_ctx *c, const sim_expr *e)
{
    switch (e->kind) {
    case SX_NUM: return e->num;
    case SX_CONST: return c->t->const_values[e->idx];
    case SX_VAR: return *storage(c, false, e->idx);
    case SX_FIELD: return c->has_line ? *storage(c, true, e->idx) : 0;
    case SX_MSG: return c->msg ? c->msg[e->idx] : 0;
    case SX_ADDR: return (int64_t)c->addr;
    case SX_VALUE: return c->value;
    case SX_STATE: return c->has_line ? c->line[0] : 0;
    case SX_CU: return c->cu;
    case SX_GPU: return c->gpu;
    case SX_ORDER: return c->has_thread ? c->order : -1;
    case SX_BIN: return binop(c, e);
    case SX_NOT: return !eval(c, e->l);
    case SX_NEG: return arith_neg(eval(c, e->l), &c->ok);
    case SX_RMW: {
        int64_t old = eval(c, e->l), a = eval(c, e->r);
        return c->has_thread ? arith_rmw((enum lit_rmw_op)c->rmw_op, c->rmw_has_a, old, a, c->rmw_b) : old;
    }
    case SX_INDEX: return element(c, e);
    case SX_LEN:
    case SX_HAS:
    case SX_LAST: return aggregate_query(c, e);
    case SX_TID: return c->has_thread ? c->tid : -1;
    case SX_HOME: return home_at(c, e->idx, eval(c, e->r));
    case SX_COND: return eval(c, e->l) ? eval(c, e->r) : eval(c, e->r2);
    }
    return 0;
}

/* Reads only numbers, constants and operators over them. */
static bool reads_only_constants(const sim_expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case SX_NUM:
    case SX_CONST: return true;
    case SX_BIN:
    case SX_NOT:
    case SX_NEG:
    case SX_COND:
        return reads_only_constants(e->l) && reads_only_constants(e->r) && reads_only_constants(e->r2);
    default: return false;
    }
}

bool sim_const_value(const sim_tables *t, const sim_expr *e, int64_t *value, bool *overflow)
{
    *overflow = false;
    if (!e || !reads_only_constants(e))
        return false;
    sim_ctx c = {.t = t, .ok = true, .cu = -1, .gpu = -1};
    *value = eval(&c, e);
    *overflow = !c.ok;
    return c.ok;
}

int64_t sim_home_of(const sim_tables *t, int h, uint64_t addr)
{
    sim_ctx c = {.t = t, .addr = addr, .ok = true, .cu = -1, .gpu = -1};
    return eval(&c, t->homes[h].e);
}

/* ---- actions ----------------------------------------------------------------------- */

/* The context's own instance of a channel's level (docs/protocol-tables.md,
 * "Where a send goes"); -1 when it has none. */
static int self_instance(const sim_ctx *c, const sim_chan *ch)
{
    switch (ch->level) {
    case SL_CU: return c->cu;
    case SL_GPU: return c->gpu >= 0 ? c->gpu : c->cu >= 0 ? c->cu_gpu[c->cu] : -1;
    case SL_SHARED: return 0;
    case SL_SLICE: return c->t->ctrls[c->ctrl].level == SL_SLICE ? c->inst : -1;
    }
    return -1;
}

static inline __attribute__((always_inline)) void act_send(sim_ctx *c, const sim_action *a, sim_effects *fx)
{
    if (fx->nsends == SIM_MAX_SENDS) {
        c->ok = false;
        return;
    }
    const sim_chan *ch = &c->t->chans[a->idx];
    const sim_msg *m = &c->t->msgs[a->msg];
    sim_send *s = &fx->sends[fx->nsends];
    s->chan = a->idx;
    s->msg = a->msg;
    s->dest = a->dest;
    if (a->dest == SD_SELF || a->dest == SD_INDEX) {
        int64_t d = a->dest == SD_SELF ? self_instance(c, ch) : eval(c, a->index);
        if (d < 0 || d >= ch->ndest) {
            c->ok = false;
            return;
        }
        s->index = (int)d;
    } else if (a->dest == SD_EACH) {
        int len;
        memset(s->each, 0, sizeof s->each);
        int64_t *bits = live(c, a->e->on_line, a->e->idx, &len);
        if (!bits) {
            c->ok = false;
            return;
        }
        for (int i = 0; i < len; i++)
            if (bits[i]) {
                if (i >= ch->ndest || i >= 64 * SIM_EACH_WORDS) {
                    c->ok = false;
                    return;
                }
                s->each[i / 64] |= 1ull << (i % 64);
            }
    }
    for (int k = 0; k < m->nfields; k++) {
        int64_t x = eval(c, a->args[k]);
        if (k > 0 && (x < m->lo[k] || x > m->hi[k])) {
            if (!m->range[k].is_value || !c->t->value_wrap)
                c->ok = false;
            x = wrap_value(c->t, x);
        }
        s->fields[k] = x;
    }
    for (int k = m->nfields; k < SIM_MAX_FIELDS; k++)
        s->fields[k] = 0;
    fx->nsends++;
}

static inline __attribute__((always_inline)) void act_assign(sim_ctx *c, const sim_action *a)
{
    int64_t *s = storage(c, a->on_line, a->idx);
    const sim_type *ty = storage_type(c, a->on_line, a->idx);
    if (!s) {
        c->ok = false;
        return;
    }
    if (a->index) {
        int64_t i = eval(c, a->index);
        if (i < 0 || i >= ty->n) {
            c->ok = false;
            return;
        }
        s += i;
    }
    int64_t x = eval(c, a->e);
    put(c, s, ty, a->mode == SM_SET ? x : a->mode == SM_ADD ? *s + x : *s - x);
}

static void act_aggregate(sim_ctx *c, const sim_action *a)
{
    int64_t *s = storage(c, a->on_line, a->idx);
    const sim_type *ty = storage_type(c, a->on_line, a->idx);
    if (!s) {
        c->ok = false;
        return;
    }
    if (a->kind == SA_CLEAR) {
        for (int i = 0; i < ty->slots; i++)
            s[i] = ty->kind == ST_FIFO && i == 0 ? 0 : ty->lo;
    } else if (a->kind == SA_PUSH) {
        if (s[0] >= ty->n) {
            c->ok = false;
            return;
        }
        put(c, &s[1 + s[0]], ty, eval(c, a->e));
        s[0]++;
    } else {
        if (s[0] == 0) {
            c->ok = false;
            return;
        }
        memmove(&s[1], &s[2], sizeof *s * (size_t)(s[0] - 1));
        s[s[0]] = ty->lo;
        s[0]--;
    }
}

/* The line back to its initial contents, except its `keep` fields. */
static void reset_line(sim_ctx *c)
{
    const sim_ctrl *ct = &c->t->ctrls[c->ctrl];
    c->line[0] = c->line_init[0];
    for (int f = 0; f < ct->nfields; f++)
        if (!ct->fields[f].keep)
            memcpy(&c->line[ct->field_off[f]], &c->line_init[ct->field_off[f]],
                   sizeof *c->line * (size_t)ct->fields[f].type.slots);
}

static inline __attribute__((always_inline)) void act(sim_ctx *c, const sim_action *a, sim_effects *fx)
{
    switch (a->kind) {
    case SA_SEND: act_send(c, a, fx); break;
    case SA_ASSIGN: act_assign(c, a); break;
    case SA_PUSH:
    case SA_POP:
    case SA_CLEAR: act_aggregate(c, a); break;
    case SA_REG: {
        int64_t x = eval(c, a->e);
        if (!c->has_thread) {
            c->ok = false;
            break;
        }
        if (x < c->t->vlo || x > c->t->vhi) {
            if (!c->t->value_wrap)
                c->ok = false;
            x = wrap_value(c->t, x);
        }
        fx->reg_set = true;
        fx->reg = x;
        break;
    }
    case SA_DONE:
    case SA_WAIT:
        if (!c->has_thread)
            c->ok = false;
        else if (a->kind == SA_DONE)
            fx->done = true, fx->wait = false;
        else
            fx->wait = true;
        break;
    case SA_STALL: c->ok = false; break;
    case SA_INV:
        if (!c->has_line)
            c->ok = false;
        else
            reset_line(c);
        break;
    case SA_INV_ALL:
        if (c->has_line)
            reset_line(c);
        fx->inv_all = true;
        break;
    case SA_SET:
        if (!c->has_line)
            c->ok = false;
        else
            c->line[0] = a->idx;
        break;
    }
}

/* ---- choosing and firing a row ------------------------------------------------------- */

static inline __attribute__((always_inline)) void copy_on_write(sim_ctx *c, const sim_ctrl *ct, const sim_row *row)
{
    if (row->changes_line && c->has_line && c->line_scratch && c->line != c->line_scratch) {
        memcpy(c->line_scratch, c->line, sizeof *c->line * (size_t)ct->line_slots);
        c->line = c->line_scratch;
    }
    if (row->changes_vars && c->vars_scratch && c->vars != c->vars_scratch) {
        memcpy(c->vars_scratch, c->vars, sizeof *c->vars * (size_t)ct->var_slots);
        c->vars = c->vars_scratch;
    }
}

enum sim_fire sim_fire(sim_ctx *c, const sim_event_desc *ev, const sim_row **out, sim_effects *fx)
{
    const sim_ctrl *ct = &c->t->ctrls[c->ctrl];
    int state = c->has_line ? (int)c->line[0] : 0;
    bool matched = false;
    fx->nsends = 0;
    fx->done = fx->wait = fx->reg_set = fx->inv_all = false;
    *out = NULL;
    int key = sim_event_key(c->t, (int)ev->kind, ev->order, ev->scope, ev->remote, ev->chan, ev->msg, ev->internal);
    for (int i = ct->cand_first[key]; i < ct->cand_first[key + 1]; i++) {
        const sim_row *row = &ct->rows[ct->cand_rows[i]];
        if (!(row->states >> state & 1))
            continue;
        matched = true;
        c->ok = true;
        if (row->guard && !(eval(c, row->guard) && c->ok))
            continue;
        *out = row;
        copy_on_write(c, ct, row);
        for (int k = 0; k < row->nacts && c->ok; k++)
            act(c, &row->acts[k], fx);
        if (c->ok && row->next >= 0 && c->has_line)
            c->line[0] = row->next;
        return c->ok ? FIRE_OK : FIRE_BLOCKED;
    }
    return matched || ev->kind == SE_INTERNAL ? FIRE_BLOCKED : FIRE_UNHANDLED;
}

bool sim_held(sim_ctx *c)
{
    const sim_expr *h = c->t->ctrls[c->ctrl].hold;
    if (!h)
        return false;
    c->ok = true;
    bool on = eval(c, h) && c->ok;
    c->ok = true;
    return on;
}

bool sim_pin_addr(sim_ctx *c, const sim_row *row, int64_t *addr)
{
    c->ok = true;
    int64_t x = eval(c, row->pin);
    *addr = x - row->pin_k;
    return c->ok;
}

/* ---- why nothing fires ------------------------------------------------------------------ */

static void explain_action(sim_ctx *c, const sim_row *row, const sim_action *a, FILE *to)
{
    const sim_ctrl *ct = &c->t->ctrls[c->ctrl];
    static const char *const kinds[] = {"send", "assign", "reg :=", "done", "wait", "stall", "invalidate",
                                        "invalidate_all", "set state", "push", "pop", "clear"};
    if (a->kind == SA_ASSIGN || a->kind == SA_PUSH) {
        const sim_type *ty = storage_type(c, a->on_line, a->idx);
        c->ok = true;
        int64_t v = eval(c, a->e);
        const int64_t *old = storage(c, a->on_line, a->idx);
        bool scalar = a->kind == SA_ASSIGN && !a->index && ty->kind == ST_SCALAR && old;
        if (scalar && a->mode != SM_SET)    /* the value the slot would take */
            v = a->mode == SM_ADD ? arith_wrap_add(*old, v) : arith_wrap_sub(*old, v);
        fprintf(to, "%s%s %s `", a->on_line ? "line." : "", a->on_line ? ct->fields[a->idx].name
                : ct->vars[a->idx].name, a->kind == SA_PUSH ? "push" : a->mode == SM_SET ? ":=" : a->mode == SM_ADD
                ? "+=" : "-=");
        sim_expr_text(to, c->t, ct, row->msg >= 0 ? &c->t->msgs[row->msg] : NULL, a->e);
        fprintf(to, "` (%s %lld) cannot be done: the range is %ld..%ld", c->ok ? "gives" : "overflows at",
                (long long)v, ty->lo, ty->hi);
        return;
    }
    if (a->kind == SA_STALL) {
        fputs("the row says `stall`", to);
        return;
    }
    fprintf(to, "its `%s` cannot be done", kinds[a->kind]);
}

/* One matching row: why it does not fire.  The row runs on the scratch
 * copies, which the caller's ctx names. */
/* (cold: kept out of the hot path's inlining decisions) */
__attribute__((cold)) static void explain_row(sim_ctx *c, const sim_row *row, FILE *to)
{
    const sim_ctrl *ct = &c->t->ctrls[c->ctrl];
    c->ok = true;
    fprintf(to, "row at line %d: ", row->source_line);
    if (row->guard && !(eval(c, row->guard) && c->ok)) {
        fputs("guard `", to);
        sim_expr_text(to, c->t, ct, row->msg >= 0 ? &c->t->msgs[row->msg] : NULL, row->guard);
        fputs(c->ok ? "` is false" : "` cannot be evaluated", to);
        return;
    }
    int64_t *line = c->line, *vars = c->vars;
    copy_on_write(c, ct, row);
    sim_effects fx;
    memset(&fx, 0, sizeof fx);
    int k = 0;
    for (; k < row->nacts && c->ok; k++)
        act(c, &row->acts[k], &fx);
    if (!c->ok)
        explain_action(c, row, &row->acts[k - 1], to);
    else
        fputs("could fire, but a channel it sends on or its cache set is full", to);
    c->line = line;
    c->vars = vars;
}

void sim_explain(sim_ctx *c, const sim_event_desc *ev, FILE *to)
{
    const sim_ctrl *ct = &c->t->ctrls[c->ctrl];
    int state = c->has_line ? (int)c->line[0] : 0, n = 0;
    int key = sim_event_key(c->t, (int)ev->kind, ev->order, ev->scope, ev->remote, ev->chan, ev->msg, ev->internal);
    for (int i = ct->cand_first[key]; i < ct->cand_first[key + 1]; i++) {
        const sim_row *row = &ct->rows[ct->cand_rows[i]];
        if (!(row->states >> state & 1))
            continue;
        fputs(n++ ? "; " : "", to);
        explain_row(c, row, to);
    }
    if (!n)
        fputs("no row matches", to);
    fputs("; variables", to);
    for (int v = 0; v < ct->nvars; v++) {
        const int64_t *s = &c->vars[ct->var_off[v]];
        if (ct->vars[v].type.kind == ST_SCALAR)
            fprintf(to, " %s=%lld", ct->vars[v].name, (long long)*s);
        else if (ct->vars[v].type.kind == ST_FIFO)
            fprintf(to, " len(%s)=%lld", ct->vars[v].name, (long long)s[0]);
    }
    if (!ct->nvars)
        fputs(" none", to);
}
