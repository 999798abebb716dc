/* sim/tables_bind.c: binding exported tables to a simulated system
 * (sim_tables_bind, see sim/tables.h), and the data-independence test
 * that decides whether values may be wider than the verified range. */
#include <gc.h>
#include <limits.h>
#include <string.h>

#include "sim/tables.h"

long sim_bound_value(const sim_tables *t, sim_bound b)
{
    if (b.cst < 0)
        return b.num;
    long v;
    /* saturates rather than wraps, so that a huge bound is refused as huge */
    if (__builtin_mul_overflow(b.times, t->const_values[b.cst], &v))
        return (b.times < 0) != (t->const_values[b.cst] < 0) ? LONG_MIN : LONG_MAX;
    if (__builtin_add_overflow(v, b.num, &v))
        return b.num < 0 ? LONG_MIN : LONG_MAX;
    return v;
}

int sim_level_count(const sim_tables *t, enum sim_level lv, sim_bound slices)
{
    switch (lv) {
    case SL_CU: return (int)t->const_values[SB_NCU];
    case SL_GPU: return (int)t->const_values[SB_NGPU];
    case SL_SHARED: return 1;
    case SL_SLICE: {
        long n = sim_bound_value(t, slices);
        return n >= 1 && n <= SIM_MAX_SLICES ? (int)n : -1;
    }
    }
    return 1;
}

static void range_values(const sim_tables *t, sim_range r, long *lo, long *hi)
{
    if (r.is_value) {
        *lo = t->vlo;
        *hi = t->vhi;
    } else {
        *lo = sim_bound_value(t, r.lo);
        *hi = sim_bound_value(t, r.hi);
    }
}

/* Evaluates a type's range and size; false when it cannot be simulated. */
static bool bind_type(const sim_tables *t, sim_type *ty)
{
    if (ty->kind == ST_BITS) {
        ty->lo = 0;
        ty->hi = 1;
    } else {
        range_values(t, ty->r, &ty->lo, &ty->hi);
    }
    long n = ty->kind == ST_SCALAR ? 1 : sim_bound_value(t, ty->len);
    if (ty->lo > ty->hi || n < 1 || n > SIM_MAX_AGG)
        return false;
    ty->n = (int)n;
    ty->slots = ty->n + (ty->kind == ST_FIFO);
    return true;
}

static bool bind_ctrl(sim_tables *t, sim_ctrl *c, FILE *errors)
{
    c->ninst = sim_level_count(t, c->level, c->slices);
    if (c->ninst < 1) {
        if (c->level == SL_SLICE)
            fprintf(errors, "%s: content.controllers.%s: %ld slices; a controller has 1 to %d slices, as in the "
                            "checker\n", t->path, c->name, sim_bound_value(t, c->slices), SIM_MAX_SLICES);
        else
            fprintf(errors, "%s: content.controllers.%s: %d instances\n", t->path, c->name, c->ninst);
        return false;
    }
    c->field_off = GC_MALLOC_ATOMIC(sizeof *c->field_off * (size_t)(c->nfields + 1));
    c->var_off = GC_MALLOC_ATOMIC(sizeof *c->var_off * (size_t)(c->nvars + 1));
    c->line_slots = 1;
    for (int f = 0; f < c->nfields; f++) {
        if (!bind_type(t, &c->fields[f].type)) {
            fprintf(errors, "%s: content.controllers.%s.fields.%s: an empty range or an aggregate of more than %d "
                            "elements in this system\n", t->path, c->name, c->fields[f].name, SIM_MAX_AGG);
            return false;
        }
        c->field_off[f] = c->line_slots;
        c->line_slots += c->fields[f].type.slots;
    }
    c->var_slots = 0;
    for (int v = 0; v < c->nvars; v++) {
        if (!bind_type(t, &c->vars[v].type)) {
            fprintf(errors, "%s: content.controllers.%s.vars.%s: an empty range or an aggregate of more than %d "
                            "elements in this system\n", t->path, c->name, c->vars[v].name, SIM_MAX_AGG);
            return false;
        }
        c->var_off[v] = c->var_slots;
        c->var_slots += c->vars[v].type.slots;
    }
    return true;
}

static bool bind_channels(sim_tables *t, FILE *errors)
{
    for (int k = 0; k < t->nchans; k++) {
        sim_chan *c = &t->chans[k];
        c->ndest = sim_level_count(t, c->level, c->slices);
        if (c->ndest < 1) {
            fprintf(errors, "%s: content.channels.%s: %ld slices; a channel has 1 to %d slices, as in the "
                            "checker\n", t->path, c->name, sim_bound_value(t, c->slices), SIM_MAX_SLICES);
            return false;
        }
        c->ninst = c->per_source ? t->ctrls[c->from].ninst * c->ndest : c->ndest;
    }
    return true;
}

static void bind_messages(sim_tables *t)
{
    for (int k = 0; k < t->nmsgs; k++) {
        sim_msg *m = &t->msgs[k];
        m->lo = GC_MALLOC_ATOMIC(sizeof *m->lo * SIM_MAX_FIELDS);
        m->hi = GC_MALLOC_ATOMIC(sizeof *m->hi * SIM_MAX_FIELDS);
        m->lo[0] = 0;
        m->hi[0] = (long)1 << 40;       /* addresses: any line of the simulated memory */
        for (int f = 1; f < m->nfields; f++)
            range_values(t, m->range[f], &m->lo[f], &m->hi[f]);
    }
}

/* ---- data independence ------------------------------------------------------------- */
/* The tables are data independent when no data value (an instruction's
 * operand, a value-typed field, variable or message field, an rmw
 * result) can reach a guard, an index, a destination, a condition or a
 * non-value range.  Then renaming values changes no control decision,
 * and the simulator may carry values wider than the verified range. */

typedef struct taint_ctx { const sim_tables *t; const sim_ctrl *c; const sim_msg *m; } taint_ctx;

static bool storage_is_value(const taint_ctx *x, bool on_line, int idx)
{
    if (idx < 0)
        return false;
    const sim_type *ty = on_line ? &x->c->fields[idx].type : &x->c->vars[idx].type;
    return ty->kind != ST_BITS && ty->r.is_value;
}

static bool reads_data(const taint_ctx *x, const sim_expr *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case SX_VALUE:
    case SX_RMW: return true;
    case SX_VAR: return storage_is_value(x, false, e->idx);
    case SX_FIELD: return storage_is_value(x, true, e->idx);
    case SX_MSG: return x->m && e->idx > 0 && e->idx < x->m->nfields && x->m->range[e->idx].is_value;
    case SX_INDEX:
    case SX_HAS:
    case SX_LAST: return storage_is_value(x, e->on_line, e->idx) || reads_data(x, e->r);
    case SX_COND: return reads_data(x, e->r) || reads_data(x, e->r2) || reads_data(x, e->l);
    default: return reads_data(x, e->l) || reads_data(x, e->r);
    }
}

/* A place where a data value decides something. */
static bool decides_on_data(const taint_ctx *x, const sim_expr *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case SX_COND: return reads_data(x, e->l) || decides_on_data(x, e->r) || decides_on_data(x, e->r2);
    case SX_INDEX:
    case SX_HAS:
    case SX_HOME: return reads_data(x, e->r) || decides_on_data(x, e->r);
    case SX_LAST: return reads_data(x, e);      /* an index found by comparing elements */
    case SX_BIN:
        if (e->op != OPX_ADD && e->op != OPX_SUB && e->op != OPX_MUL)
            return reads_data(x, e->l) || reads_data(x, e->r);
        return decides_on_data(x, e->l) || decides_on_data(x, e->r);
    case SX_NOT: return reads_data(x, e->l);
    default: return decides_on_data(x, e->l) || decides_on_data(x, e->r);
    }
}

static bool action_independent(const taint_ctx *x, const sim_action *a)
{
    switch (a->kind) {
    case SA_SEND:
        if (a->dest == SD_INDEX && reads_data(x, a->index))
            return false;
        for (int k = 0; k < a->nargs; k++) {
            const sim_msg *m = a->msg >= 0 ? &x->t->msgs[a->msg] : NULL;
            bool value_field = m && k > 0 && m->range[k].is_value;
            if (decides_on_data(x, a->args[k]) || (!value_field && reads_data(x, a->args[k])))
                return false;
        }
        return true;
    case SA_ASSIGN:
    case SA_PUSH:
        if (reads_data(x, a->index) || decides_on_data(x, a->e))
            return false;
        return storage_is_value(x, a->on_line, a->idx) || !reads_data(x, a->e);
    default: return !decides_on_data(x, a->e);
    }
}

static bool tables_independent(const sim_tables *t)
{
    for (int h = 0; h < t->nhomes; h++) {
        taint_ctx x = {t, NULL, NULL};
        if (decides_on_data(&x, t->homes[h].e))
            return false;
    }
    for (int c = 0; c < t->nctrls; c++) {
        taint_ctx hx = {t, &t->ctrls[c], NULL};
        if (reads_data(&hx, t->ctrls[c].hold))
            return false;
    }
    for (int c = 0; c < t->nctrls; c++)
        for (int r = 0; r < t->ctrls[c].nrows; r++) {
            const sim_row *row = &t->ctrls[c].rows[r];
            taint_ctx x = {t, &t->ctrls[c], row->ev == SE_RECV && row->msg >= 0 ? &t->msgs[row->msg] : NULL};
            if (reads_data(&x, row->guard))
                return false;
            for (int k = 0; k < row->nacts; k++)
                if (!action_independent(&x, &row->acts[k]))
                    return false;
        }
    return true;
}

/* ---- candidate rows per event ------------------------------------------------------ */

/* processor events: (kind, order, scope, remote) */
#define PROC_KEYS (NPROCESSOR_EVENT_KINDS * LIT_NPROTOCOL_ORDERS * SIM_NSCOPES * 2)

int sim_event_key(const sim_tables *t, int kind, int order, int scope, bool remote, int chan, int msg, int internal)
{
    if (kind == SE_RECV)
        return PROC_KEYS + chan * t->nmsgs + msg;
    if (kind == SE_INTERNAL)
        return PROC_KEYS + t->nchans * t->nmsgs + internal;
    return ((kind * LIT_NPROTOCOL_ORDERS + order) * SIM_NSCOPES + scope % SIM_NSCOPES) * 2 + remote;
}

bool sim_row_matches(const sim_row *r, int kind, int order, int scope, bool remote)
{
    return (int)r->ev == kind && (r->order == SIM_ANY || r->order == order) &&
           (r->scope == SIM_ANY || r->scope == scope) && r->remote == remote;
}

static bool row_matches_key(const sim_tables *t, const sim_row *r, int key)
{
    if (key < PROC_KEYS) {
        int remote = key % 2, scope = key / 2 % SIM_NSCOPES, order = key / 2 / SIM_NSCOPES % LIT_NPROTOCOL_ORDERS;
        return sim_row_matches(r, key / 2 / SIM_NSCOPES / LIT_NPROTOCOL_ORDERS, order, scope, remote);
    }
    key -= PROC_KEYS;
    if (key < t->nchans * t->nmsgs)
        return r->ev == SE_RECV && r->chan == key / t->nmsgs && r->msg == key % t->nmsgs;
    return r->ev == SE_INTERNAL && r->internal == key - t->nchans * t->nmsgs;
}

static void index_rows(const sim_tables *t, sim_ctrl *c)
{
    int nkeys = PROC_KEYS + t->nchans * t->nmsgs + c->ninternal, n = 0;
    c->cand_first = GC_MALLOC_ATOMIC(sizeof *c->cand_first * (size_t)(nkeys + 1));
    for (int k = 0; k < nkeys; k++)
        for (int r = 0; r < c->nrows; r++)
            n += row_matches_key(t, &c->rows[r], k);
    c->cand_rows = GC_MALLOC_ATOMIC(sizeof *c->cand_rows * (size_t)(n + 1));
    n = 0;
    for (int k = 0; k < nkeys; k++) {
        c->cand_first[k] = n;
        for (int r = 0; r < c->nrows; r++)
            if (row_matches_key(t, &c->rows[r], k))
                c->cand_rows[n++] = r;
    }
    c->cand_first[nkeys] = n;
}

bool sim_tables_bind(sim_tables *t, const long builtins[SB_COUNT], bool wide_values, FILE *errors)
{
    for (int k = 0; k < SB_COUNT; k++)
        t->const_values[k] = builtins[k];
    t->vlo = sim_bound_value(t, t->value.lo);
    t->vhi = sim_bound_value(t, t->value.hi);
    t->data_independent = tables_independent(t);
    if (wide_values && t->data_independent) {
        t->vlo = 0;
        t->vhi = 0x7fffffffL;
    }
    for (int c = 0; c < t->nctrls; c++)
        if (!bind_ctrl(t, &t->ctrls[c], errors))
            return false;
    if (!bind_channels(t, errors))
        return false;
    bind_messages(t);
    for (int c = 0; c < t->nctrls; c++)
        if (!t->ctrls[c].cand_first)
            index_rows(t, &t->ctrls[c]);
    return true;
}
