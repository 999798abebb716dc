/* protocol/export.c: the resolved protocol as JSON (see protocol/export.h;
 * the format is docs/tables-format.md).  Every index of the resolved form
 * becomes a name again, so that the file reads on its own and an edit
 * that renames something shows in the stamp's sections. */
#include "protocol/export.h"

#include <string.h>

#include "protocol/internal.h"

static const char *const level_names[] = {[LV_CU] = "cu", [LV_GPU] = "gpu", [LV_SYS] = "shared",
                                          [LV_SLICE] = "sliced"};

/* What names in an expression refer to: the protocol, the controller whose
 * row (or final, or invariant) it is, and the message of a recv row. */
typedef struct scope_ctx {
    const protocol *p;
    const pctrl *ctrl;      /* NULL: protocol level (homes) */
    const pmsg *msg;        /* NULL: not a recv row */
} scope_ctx;

static json_t *bound_json(const protocol *p, pbound b)
{
    if (b.cst < 0)
        return json_integer(b.num);
    json_t *o = json_pack("{s:s, s:I}", "const", p->const_names[b.cst], "plus", (json_int_t)b.num);
    if (b.mul != 1)     /* 2*NADDR-1: the constant's factor, written only when it is not 1 */
        json_object_set_new(o, "times", json_integer(b.mul));
    return o;
}

static json_t *range_json(const protocol *p, prange r)
{
    if (r.is_value)
        return json_string("value");
    return json_pack("{s:o, s:o}", "lo", bound_json(p, r.lo), "hi", bound_json(p, r.hi));
}

static json_t *type_json(const protocol *p, ptype t)
{
    static const char *const kinds[] = {[T_SCALAR] = "scalar", [T_BITS] = "bits", [T_ARRAY] = "array",
                                        [T_FIFO] = "fifo"};
    json_t *o = json_pack("{s:s}", "kind", kinds[t.kind]);
    if (t.kind != T_BITS)
        json_object_set_new(o, "range", range_json(p, t.r));
    if (t.kind != T_SCALAR)
        json_object_set_new(o, "len", bound_json(p, t.len));
    return o;
}

static json_t *placement_json(const protocol *p, enum plevel lv, pbound slices)
{
    json_t *o = json_pack("{s:s}", "level", level_names[lv]);
    if (lv == LV_SLICE)
        json_object_set_new(o, "slices", bound_json(p, slices));
    return o;
}

/* A variable or line field of the current controller, by name. */
static json_t *storage_json(const scope_ctx *s, bool on_line, int idx)
{
    const char *name = idx < 0 ? "?" : on_line ? s->ctrl->fields[idx] : s->ctrl->vars[idx];
    return json_pack("{s:s, s:b}", "name", name, "line", on_line);
}

static json_t *expr_json(const scope_ctx *s, const pexpr *e);

static json_t *op_node(const char *op) { return json_pack("{s:s}", "op", op); }

static json_t *with(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v);
    return o;
}

/* A flat chain (three or more operators, folded from the left) as the
 * nested binary nodes the tables format has: ((t0 op0 t1) op1 t2) ...,
 * built by a loop.  Its depth in the JSON is the chain's length. */
static json_t *chain_json(const scope_ctx *s, const pexpr *e)
{
    json_t *acc = expr_json(s, e->terms[0]);
    for (int i = 1; i < e->nterms; i++)
        acc = with(with(op_node(vocab_expr_ops[e->ops[i - 1]]), "l", acc), "r", expr_json(s, e->terms[i]));
    return acc;
}

static json_t *expr_json(const scope_ctx *s, const pexpr *e)
{
    if (!e)
        return json_null();
    switch (e->kind) {
    case EX_NUM: return with(op_node("num"), "value", json_integer(e->num));
    case EX_CONST: return with(op_node("const"), "name", json_string(s->p->const_names[e->idx]));
    case EX_VAR: return with(op_node("var"), "name", json_string(s->ctrl->vars[e->idx]));
    case EX_LINEF: return with(op_node("field"), "name", json_string(s->ctrl->fields[e->idx]));
    case EX_MSGF:
        return with(with(op_node("msg"), "index", json_integer(e->idx)), "name",
                    json_string(s->msg && e->idx >= 0 ? s->msg->fields[e->idx] : "?"));
    case EX_ADDR: return op_node("addr");
    case EX_VALUE: return op_node("value");
    case EX_STATE: return op_node("state");
    case EX_CU: return op_node("cu");
    case EX_GPU: return op_node("gpu");
    case EX_ORDER: return op_node("order");
    case EX_TID: return op_node("tid");
    case EX_LAST:
        return with(with(op_node("last"), "storage", storage_json(s, e->l->kind == EX_LINEF, e->l->idx)), "x",
                    expr_json(s, e->r));
    case EX_BIN:
        return with(with(op_node(vocab_expr_ops[e->op]), "l", expr_json(s, e->l)), "r", expr_json(s, e->r));
    case EX_CHAIN: return chain_json(s, e);
    case EX_NOT: return with(op_node("!"), "l", expr_json(s, e->l));
    case EX_NEG: return with(op_node("neg"), "l", expr_json(s, e->l));
    case EX_RMW: return with(with(op_node("rmw"), "l", expr_json(s, e->l)), "r", expr_json(s, e->r));
    case EX_INDEX:
        return with(with(op_node("index"), "storage", storage_json(s, e->l->kind == EX_LINEF, e->l->idx)), "i",
                    expr_json(s, e->r));
    case EX_LEN: return with(op_node("len"), "storage", storage_json(s, e->l->kind == EX_LINEF, e->l->idx));
    case EX_HAS:
        return with(with(op_node("has"), "storage", storage_json(s, e->l->kind == EX_LINEF, e->l->idx)), "x",
                    expr_json(s, e->r));
    case EX_HOME: return with(with(op_node("home"), "home", json_string(s->p->homes[e->idx].name)), "arg",
                              expr_json(s, e->r));
    case EX_COND:
        return with(with(with(op_node("cond"), "c", expr_json(s, e->l)), "a", expr_json(s, e->r)), "b",
                    expr_json(s, e->r2));
    }
    return json_null();
}

static json_t *event_json(const protocol *p, const pctrl *c, const pevent *e)
{
    json_t *o = json_pack("{s:s}", "kind", vocab_event_kinds[e->kind]);
    if (e->kind == EV_RECV) {
        json_object_set_new(o, "channel", json_string(p->chans[e->chan].name));
        json_object_set_new(o, "message", json_string(p->msgs[e->msg].name));
    } else if (e->kind == EV_INTERNAL) {
        json_object_set_new(o, "name", json_string(c->internal[e->internal]));
    } else {
        json_object_set_new(o, "order", json_string(e->order == PEV_ANY ? "*" : vocab_orders[e->order]));
        json_object_set_new(o, "scope", json_string(e->scope == PEV_ANY ? "*" : vocab_scopes[e->scope]));
        if (e->remote)  /* written only for remote rows, so older exports read the same */
            json_object_set_new(o, "remote", json_true());
    }
    return o;
}

static json_t *dest_json(const scope_ctx *s, const pact *a)
{
    switch (a->dest) {
    case D_SELF: return json_pack("{s:s}", "kind", "self");
    case D_ALL: return json_pack("{s:s}", "kind", "all");
    case D_INDEX: return json_pack("{s:s, s:o}", "kind", "index", "expr", expr_json(s, a->index));
    case D_EACH:
        return json_pack("{s:s, s:o}", "kind", "each", "storage",
                         storage_json(s, a->index->kind == EX_LINEF, a->index->idx));
    }
    return json_null();
}

static json_t *send_json(const scope_ctx *s, const pact *a)
{
    json_t *args = json_array();
    for (int i = 0; i < a->nargs; i++)
        json_array_append_new(args, expr_json(s, a->args[i]));
    return json_pack("{s:s, s:s, s:o, s:s, s:o}", "op", "send", "channel", s->p->chans[a->idx].name, "dest",
                     dest_json(s, a), "message", s->p->msgs[a->msg].name, "args", args);
}

static json_t *assign_json(const scope_ctx *s, const pact *a, const char *mode)
{
    json_t *o = json_pack("{s:s, s:o, s:s, s:o}", "op", "assign", "target", storage_json(s, a->on_line, a->idx),
                          "mode", mode, "expr", expr_json(s, a->e));
    json_object_set_new(o, "index", expr_json(s, a->index));
    return o;
}

static json_t *action_json(const scope_ctx *s, const pact *a)
{
    switch (a->kind) {
    case A_SEND: return send_json(s, a);
    case A_LINEF: {
        /* a line field assignment is always on the line */
        pact copy = *a;
        copy.on_line = true;
        return assign_json(s, &copy, ":=");
    }
    case A_VAR_SET: return assign_json(s, a, ":=");
    case A_VAR_ADD: return assign_json(s, a, "+=");
    case A_VAR_SUB: return assign_json(s, a, "-=");
    case A_REG: return json_pack("{s:s, s:o}", "op", "reg", "expr", expr_json(s, a->e));
    case A_DONE: return op_node("done");
    case A_WAIT: return op_node("wait");
    case A_STALL: return op_node("stall");
    case A_INV: return op_node("invalidate");
    case A_INV_ALL: return op_node("invalidate_all");
    case A_SET: return json_pack("{s:s, s:s}", "op", "set", "state", s->ctrl->states[a->idx]);
    case A_PUSH:
        return json_pack("{s:s, s:o, s:o}", "op", "push", "storage", storage_json(s, a->on_line, a->idx), "expr",
                         expr_json(s, a->e));
    case A_POP: return json_pack("{s:s, s:o}", "op", "pop", "storage", storage_json(s, a->on_line, a->idx));
    case A_CLEAR: return json_pack("{s:s, s:o}", "op", "clear", "storage", storage_json(s, a->on_line, a->idx));
    }
    return json_null();
}

/* The index of a row's file among the protocol's sources (a variant's
 * rows come from its base or from itself). */
static int source_index(const protocol *p, const char *path)
{
    for (int i = 0; i < p->nsources; i++)
        if (p->sources[i] == path || !strcmp(p->sources[i], path))
            return i;
    return 0;
}

static json_t *row_json(const protocol *p, const pctrl *c, const prow *r)
{
    scope_ctx s = {p, c, r->ev.kind == EV_RECV ? &p->msgs[r->ev.msg] : NULL};
    json_t *states = json_array();
    for (int k = 0; k < c->nstates; k++)
        if (r->states >> k & 1)
            json_array_append_new(states, json_string(c->states[k]));
    json_t *acts = json_array();
    for (int k = 0; k < r->nacts; k++)
        json_array_append_new(acts, action_json(&s, &r->acts[k]));
    json_t *o = json_pack("{s:o, s:o, s:o, s:o}", "states", states, "event", event_json(p, c, &r->ev), "guard",
                          expr_json(&s, r->guard), "actions", acts);
    json_object_set_new(o, "next", r->next >= 0 ? json_string(c->states[r->next]) : json_null());
    json_object_set_new(o, "source", json_pack("{s:i, s:i}", "file", source_index(p, r->path), "line", r->line));
    return o;
}

static json_t *controller_json(const protocol *p, int ci)
{
    const pctrl *c = &p->ctrls[ci];
    scope_ctx s = {p, c, NULL};
    json_t *states = json_array(), *fields = json_array(), *vars = json_array(), *internal = json_array(),
           *rows = json_array();
    for (int k = 0; k < c->nstates; k++)
        json_array_append_new(states, json_string(c->states[k]));
    for (int k = 0; k < c->nfields; k++)
        json_array_append_new(fields, json_pack("{s:s, s:o, s:b, s:b}", "name", c->fields[k], "type",
                                                type_json(p, c->field_type[k]), "memory", c->field_memory[k],
                                                "keep", c->field_keep[k]));
    for (int k = 0; k < c->nvars; k++)
        json_array_append_new(vars, json_pack("{s:s, s:o}", "name", c->vars[k], "type", type_json(p, c->var_type[k])));
    for (int k = 0; k < c->ninternal; k++)
        json_array_append_new(internal, json_string(c->internal[k]));
    for (int k = 0; k < c->nrows; k++)
        json_array_append_new(rows, row_json(p, c, &c->rows[k]));
    json_t *o = json_pack("{s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o}", "name", c->name, "placement",
                          placement_json(p, c->level, c->slices), "processor", c->processor, "states", states,
                          "fields", fields, "vars", vars, "final", expr_json(&s, c->final), "internal_events",
                          internal, "rows", rows);
    if (c->hold)        /* written only when the controller has one */
        json_object_set_new(o, "hold", expr_json(&s, c->hold));
    return o;
}

static json_t *channel_json(const protocol *p, const pchan *c, enum proto_net net)
{
    bool unordered = net == PROTO_NET_AS_DECLARED ? c->unordered : net == PROTO_NET_UNORDERED;
    return json_pack("{s:s, s:o, s:s, s:s, s:b, s:s, s:o, s:i}", "name", c->name, "placement",
                     placement_json(p, c->level, c->slices), "from", p->ctrls[c->from].name, "to",
                     p->ctrls[c->to].name, "per_source", c->per_source, "ordering", unordered ? "unordered" : "fifo",
                     "capacity", bound_json(p, c->cap), "vnet", c->vnet);
}

static json_t *message_json(const protocol *p, const pmsg *m)
{
    json_t *fields = json_array();
    for (int k = 0; k < m->nfields; k++) {
        json_t *f = json_pack("{s:s}", "name", m->fields[k]);
        if (k > 0)
            json_object_set_new(f, "range", range_json(p, m->range[k]));
        json_array_append_new(fields, f);
    }
    return json_pack("{s:s, s:o}", "name", m->name, "fields", fields);
}

/* Named constants with their values, overrides applied; false (after an
 * error) when an override names no constant of the protocol. */
static bool constants_json(const protocol *p, const proto_options *o, json_t *out, FILE *errors)
{
    for (int k = PB_NBUILTIN; k < p->nconsts; k++)
        json_object_set_new(out, p->const_names[k], json_integer(p->const_values[k]));
    for (int i = 0; i < o->noverrides; i++) {
        bool found = false;
        for (int k = PB_NBUILTIN; k < p->nconsts; k++)
            found |= !strcmp(p->const_names[k], o->override_name[i]);
        if (!found) {
            fprintf(errors, "%s: error: protocol %s has no constant '%s'\n", p->path, p->name, o->override_name[i]);
            return false;
        }
        json_object_set_new(out, o->override_name[i], json_integer(o->override_value[i]));
    }
    return true;
}

static json_t *collect(int n, json_t *(*one)(const protocol *, int), const protocol *p)
{
    json_t *a = json_array();
    for (int k = 0; k < n; k++)
        json_array_append_new(a, one(p, k));
    return a;
}

static json_t *home_one(const protocol *p, int k)
{
    scope_ctx s = {p, NULL, NULL};
    return json_pack("{s:s, s:o}", "name", p->homes[k].name, "expr", expr_json(&s, p->homes[k].e));
}

static json_t *message_one(const protocol *p, int k) { return message_json(p, &p->msgs[k]); }

static json_t *invariant_one(const protocol *p, int k)
{
    scope_ctx s = {p, &p->ctrls[p->invs[k].ctrl], NULL};
    return json_pack("{s:s, s:s, s:o}", "name", p->invs[k].name, "controller", p->ctrls[p->invs[k].ctrl].name,
                     "expr", expr_json(&s, p->invs[k].e));
}

/* ---- how deep the JSON of an expression goes ---------------------------------------------- */
/* The tables format nests binary nodes, so a chain of n operators is n
 * objects deep; a reader (jansson in scopesim stops at 2048 levels) and the
 * writer itself (jansson's dump recurses) need a bound.  Nesting other than
 * chains is bounded by the parser, so this recursion is shallow. */
static int expr_depth(const pexpr *e)
{
    if (!e)
        return 0;
    int d = 0;
    if (e->kind == EX_CHAIN) {
        for (int i = 0; i < e->nterms; i++) {
            int t = expr_depth(e->terms[i]) + (e->nterms - (i > 0 ? i : 1));
            d = t > d ? t : d;
        }
        return d + 1;
    }
    const pexpr *kids[] = {e->l, e->r, e->r2};
    for (int k = 0; k < 3; k++) {
        int t = expr_depth(kids[k]);
        d = t > d ? t : d;
    }
    return d + 1;
}

static int act_depth(const pact *a)
{
    int d = expr_depth(a->e), t = expr_depth(a->index);
    d = t > d ? t : d;
    for (int k = 0; k < a->nargs; k++) {
        t = expr_depth(a->args[k]);
        d = t > d ? t : d;
    }
    return d;
}

/* False, after a located error, when some row's guard or action is nested
 * deeper than PROTO_EXPORT_MAX_DEPTH. */
static bool depths_fit(const protocol *p, FILE *errors)
{
    for (int c = 0; c < p->nctrls; c++) {
        const pctrl *pc = &p->ctrls[c];
        for (int r = 0; r < pc->nrows; r++) {
            const prow *row = &pc->rows[r];
            int d = expr_depth(row->guard);
            for (int k = 0; k < row->nacts; k++) {
                int t = act_depth(&row->acts[k]);
                d = t > d ? t : d;
            }
            if (d > PROTO_EXPORT_MAX_DEPTH) {
                fprintf(errors, "%s:%d:%d: error: an expression of this row is %d levels deep in the exported tables "
                        "(at most %d: split the chain of operators)\n", row->path, row->line, row->col, d,
                        PROTO_EXPORT_MAX_DEPTH);
                return false;
            }
        }
    }
    return true;
}

json_t *proto_export_content(const protocol *p, const proto_options *o, FILE *errors)
{
    if (!depths_fit(p, errors))
        return NULL;
    json_t *consts = json_object();
    if (!constants_json(p, o, consts, errors)) {
        json_decref(consts);
        return NULL;
    }
    json_t *chans = json_array(), *sources = json_array();
    for (int k = 0; k < p->nchans; k++)
        json_array_append_new(chans, channel_json(p, &p->chans[k], o->net));
    for (int k = 0; k < p->nsources; k++) {
        const char *slash = strrchr(p->sources[k], '/');
        json_array_append_new(sources, json_string(slash ? slash + 1 : p->sources[k]));
    }
    json_t *memory = json_pack("{s:s, s:s}", "controller", p->ctrls[p->mem_ctrl].name, "field",
                               p->ctrls[p->mem_ctrl].fields[p->mem_field]);
    json_object_set_new(memory, "home", p->mem_home >= 0 ? json_string(p->homes[p->mem_home].name) : json_null());
    json_t *value = json_pack("{s:o, s:o, s:b}", "lo", bound_json(p, p->value.lo), "hi", bound_json(p, p->value.hi),
                              "wrap", p->value_wrap);
    json_t *builtins = json_array();
    for (int k = 0; k < PB_NBUILTIN; k++)
        json_array_append_new(builtins, json_string(p->const_names[k]));
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "protocol", p->name, "sources",
                     sources, "constants", consts, "builtins", builtins, "value", value, "homes",
                     collect(p->nhomes, home_one, p), "messages", collect(p->nmsgs, message_one, p), "controllers",
                     collect(p->nctrls, controller_json, p), "channels", chans, "memory", memory, "invariants",
                     collect(p->ninvs, invariant_one, p));
}

void proto_instance_shape(const proto_instance *in, proto_shape *out)
{
    out->ncu = in->ncu;
    out->ngpu = in->ngpu;
    out->naddr = in->naddr;
    out->max_threads_per_cu = in->max_tid_per_cu;
    out->maxops = (int)in->consts[PB_MAXOPS];
}
