/* sim/tables.c: reading exported tables (see sim/tables.h).  Every
 * reference in the file is by name; each is resolved here, once, and a
 * wrong one is an error naming the field where it was met. */
#include "sim/tables.h"

#include <gc.h>
#include <limits.h>
#include <jansson.h>
#include <stdarg.h>
#include <string.h>

#include "base/stamp.h"

#define MAX_PATH_TEXT 256

/* The reader: where it is in the document, for errors. */
typedef struct reader {
    const char *file;
    FILE *errors;
    bool failed;
    char where[MAX_PATH_TEXT];
    sim_tables *t;
    const sim_ctrl *ctrl;       /* the controller being read, for names */
    const sim_msg *msg;         /* the message of the recv row being read */
} reader;

static void fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(reader *r, const char *fmt, ...)
{
    if (r->failed)
        return;
    r->failed = true;
    va_list ap;
    va_start(ap, fmt);
    fprintf(r->errors, "%s: %s: ", r->file, r->where[0] ? r->where : "document");
    vfprintf(r->errors, fmt, ap);
    fputc('\n', r->errors);
    va_end(ap);
}

/* Enters member `key` (or element i when key is NULL); returns the old
 * length of the path, for leave(). */
static size_t enter(reader *r, const char *key, size_t i)
{
    size_t n = strlen(r->where);
    if (key)
        snprintf(r->where + n, sizeof r->where - n, "%s%s", n ? "." : "", key);
    else
        snprintf(r->where + n, sizeof r->where - n, "[%zu]", i);
    return n;
}

static void leave(reader *r, size_t n) { r->where[n] = '\0'; }

static void *gc_array(size_t n, size_t size) { return GC_MALLOC((n ? n : 1) * size); }

/* ---- typed access ------------------------------------------------------------ */

static json_t *member(reader *r, json_t *o, const char *key, json_type type)
{
    json_t *v = json_object_get(o, key);
    if (!r->failed && (!v || json_typeof(v) != type)) {
        size_t n = enter(r, key, 0);
        static const char *const names[] = {"an object", "an array", "a string", "an integer", "a number",
                                            "true", "false", "null"};
        fail(r, v ? "must be %s" : "missing (%s expected)", names[type]);
        leave(r, n);
        return NULL;
    }
    return v;
}

static const char *str_member(reader *r, json_t *o, const char *key)
{
    json_t *v = member(r, o, key, JSON_STRING);
    return v ? GC_STRDUP(json_string_value(v)) : "";
}

static long int_member(reader *r, json_t *o, const char *key)
{
    json_t *v = member(r, o, key, JSON_INTEGER);
    return v ? (long)json_integer_value(v) : 0;
}

/* An integer member that must lie in lo..hi: an index or a count is
 * never truncated to int (2^32 would read as 0). */
static int int_in(reader *r, json_t *o, const char *key, long lo, long hi)
{
    long v = int_member(r, o, key);
    if (!r->failed && (v < lo || v > hi)) {
        size_t n = enter(r, key, 0);
        fail(r, "%ld is out of range %ld..%ld", v, lo, hi);
        leave(r, n);
        return (int)lo;
    }
    return (int)v;
}

static bool bool_member(reader *r, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!r->failed && !json_is_boolean(v)) {
        size_t n = enter(r, key, 0);
        fail(r, "must be true or false");
        leave(r, n);
        return false;
    }
    return json_is_true(v);
}

static int find_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* A name among `names`, or an error naming `what`. */
static int resolve(reader *r, const char *const *names, int n, const char *name, const char *what)
{
    int i = find_name(names, n, name);
    if (i < 0)
        fail(r, "unknown %s '%s'", what, name);
    return i;
}

/* ---- bounds, ranges, types ----------------------------------------------------------- */

static sim_bound read_bound(reader *r, json_t *v)
{
    sim_bound b = {-1, 0, 1};
    if (json_is_integer(v)) {
        b.num = (long)json_integer_value(v);
    } else if (json_is_object(v)) {
        b.cst = resolve(r, r->t->const_names, r->t->nconsts, str_member(r, v, "const"), "constant");
        b.num = int_member(r, v, "plus");
        if (json_object_get(v, "times"))    /* written only when the factor is not 1 */
            b.times = int_member(r, v, "times");
    } else {
        fail(r, "a bound must be an integer or {\"const\": NAME, \"plus\": N}");
    }
    return b;
}

static sim_range read_range(reader *r, json_t *v)
{
    sim_range g = {false, {-1, 0, 1}, {-1, 0, 1}};
    if (json_is_string(v) && !strcmp(json_string_value(v), "value")) {
        g.is_value = true;
        return g;
    }
    if (!json_is_object(v)) {
        fail(r, "a range must be \"value\" or {\"lo\": ..., \"hi\": ...}");
        return g;
    }
    size_t n = enter(r, "lo", 0);
    g.lo = read_bound(r, json_object_get(v, "lo"));
    leave(r, n);
    n = enter(r, "hi", 0);
    g.hi = read_bound(r, json_object_get(v, "hi"));
    leave(r, n);
    return g;
}

static sim_type read_type(reader *r, json_t *v)
{
    static const char *const kinds[] = {"scalar", "bits", "array", "fifo"};
    sim_type t = {0};
    if (!json_is_object(v)) {
        fail(r, "a type must be an object");
        return t;
    }
    size_t n = enter(r, "kind", 0);
    t.kind = (enum sim_type_kind)resolve(r, kinds, 4, str_member(r, v, "kind"), "type kind");
    leave(r, n);
    if (t.kind != ST_BITS) {
        n = enter(r, "range", 0);
        t.r = read_range(r, json_object_get(v, "range"));
        leave(r, n);
    }
    if (t.kind != ST_SCALAR) {
        n = enter(r, "len", 0);
        t.len = read_bound(r, json_object_get(v, "len"));
        leave(r, n);
    }
    return t;
}

static enum sim_level read_placement(reader *r, json_t *v, sim_bound *slices)
{
    static const char *const levels[] = {"cu", "gpu", "shared", "sliced"};
    size_t n = enter(r, "placement", 0);
    json_t *p = member(r, v, "placement", JSON_OBJECT);
    enum sim_level lv = SL_SHARED;
    if (p) {
        int i = resolve(r, levels, 4, str_member(r, p, "level"), "placement level");
        lv = i < 0 ? SL_SHARED : (enum sim_level)i;
        if (lv == SL_SLICE) {
            size_t k = enter(r, "slices", 0);
            *slices = read_bound(r, json_object_get(p, "slices"));
            leave(r, k);
        }
    }
    leave(r, n);
    return lv;
}

/* ---- expressions ------------------------------------------------------------------- */

static const char *const leaf_ops[] = {"addr", "value", "state", "cu", "gpu", "order", "tid"};
static const enum sim_ex leaf_kinds[] = {SX_ADDR, SX_VALUE, SX_STATE, SX_CU, SX_GPU, SX_ORDER, SX_TID};

static sim_expr *read_expr(reader *r, json_t *v);

static sim_expr *sub_expr(reader *r, json_t *v, const char *key)
{
    size_t n = enter(r, key, 0);
    sim_expr *e = read_expr(r, json_object_get(v, key));
    leave(r, n);
    return e;
}

/* {"name": N, "line": B}: a variable or line field of the controller. */
static int read_storage(reader *r, json_t *v, bool *on_line)
{
    size_t n = enter(r, "storage", 0);
    int i = -1;
    if (!json_is_object(v)) {
        fail(r, "must be {\"name\": ..., \"line\": ...}");
    } else if (!r->ctrl) {
        fail(r, "no controller here");
    } else {
        *on_line = bool_member(r, v, "line");
        const char *name = str_member(r, v, "name");
        const sim_ctrl *c = r->ctrl;
        for (int k = 0; k < (*on_line ? c->nfields : c->nvars); k++)
            if (!strcmp(*on_line ? c->fields[k].name : c->vars[k].name, name))
                i = k;
        if (i < 0 && !r->failed)
            fail(r, "controller %s has no %s '%s'", c->name, *on_line ? "line field" : "variable", name);
    }
    leave(r, n);
    return i;
}

static int ctrl_member(reader *r, json_t *v, bool fields)
{
    const char *name = str_member(r, v, "name");
    const sim_ctrl *c = r->ctrl;
    if (!c) {
        fail(r, "'%s' outside a controller", name);
        return -1;
    }
    for (int k = 0; k < (fields ? c->nfields : c->nvars); k++)
        if (!strcmp(fields ? c->fields[k].name : c->vars[k].name, name))
            return k;
    fail(r, "controller %s has no %s '%s'", c->name, fields ? "line field" : "variable", name);
    return -1;
}

static void read_expr_body(reader *r, json_t *v, const char *op, sim_expr *e)
{
    int i;
    if (!strcmp(op, "num")) {
        e->kind = SX_NUM;
        e->num = int_member(r, v, "value");
    } else if (!strcmp(op, "const")) {
        e->kind = SX_CONST;
        e->idx = resolve(r, r->t->const_names, r->t->nconsts, str_member(r, v, "name"), "constant");
    } else if (!strcmp(op, "var") || !strcmp(op, "field")) {
        e->kind = op[0] == 'v' ? SX_VAR : SX_FIELD;
        e->idx = ctrl_member(r, v, e->kind == SX_FIELD);
    } else if (!strcmp(op, "msg")) {
        e->kind = SX_MSG;
        e->idx = int_in(r, v, "index", 0, SIM_MAX_FIELDS - 1);
        if (!r->msg)
            fail(r, "'msg' outside a recv row");
        else if (e->idx < 0 || e->idx >= r->msg->nfields)
            fail(r, "message %s has no field %d", r->msg->name, e->idx);
    } else if ((i = find_name(leaf_ops, 7, op)) >= 0) {
        e->kind = leaf_kinds[i];
    } else if ((i = find_name(vocab_expr_ops, EXPR_NOPS, op)) >= 0) {
        e->kind = SX_BIN;
        e->op = (enum expr_op)i;
        e->l = sub_expr(r, v, "l");
        e->r = sub_expr(r, v, "r");
    } else if (!strcmp(op, "!") || !strcmp(op, "neg")) {
        e->kind = op[0] == '!' ? SX_NOT : SX_NEG;
        e->l = sub_expr(r, v, "l");
    } else if (!strcmp(op, "rmw")) {
        e->kind = SX_RMW;
        e->l = sub_expr(r, v, "l");
        e->r = sub_expr(r, v, "r");
    } else if (!strcmp(op, "index") || !strcmp(op, "len") || !strcmp(op, "has") || !strcmp(op, "last")) {
        e->kind = op[0] == 'i' ? SX_INDEX : !strcmp(op, "len") ? SX_LEN : op[0] == 'h' ? SX_HAS : SX_LAST;
        e->idx = read_storage(r, json_object_get(v, "storage"), &e->on_line);
        if (e->kind != SX_LEN)
            e->r = sub_expr(r, v, e->kind == SX_INDEX ? "i" : "x");
    } else if (!strcmp(op, "home")) {
        e->kind = SX_HOME;
        const char *name = str_member(r, v, "home");
        e->idx = -1;
        for (int k = 0; k < r->t->nhomes; k++)
            if (!strcmp(r->t->homes[k].name, name))
                e->idx = k;
        if (e->idx < 0 && !r->failed)
            fail(r, "unknown home '%s'", name);
        e->r = sub_expr(r, v, "arg");
    } else if (!strcmp(op, "cond")) {
        e->kind = SX_COND;
        e->l = sub_expr(r, v, "c");
        e->r = sub_expr(r, v, "a");
        e->r2 = sub_expr(r, v, "b");
    } else {
        fail(r, "unknown expression operator '%s'", op);
    }
}

static sim_expr *read_expr(reader *r, json_t *v)
{
    if (json_is_null(v))
        return NULL;
    sim_expr *e = GC_MALLOC(sizeof *e);
    if (!json_is_object(v)) {
        fail(r, "an expression must be an object with \"op\"");
        return e;
    }
    read_expr_body(r, v, str_member(r, v, "op"), e);
    return e;
}

/* An expression that must be present (not null). */
static sim_expr *required_expr(reader *r, json_t *v, const char *key)
{
    size_t n = enter(r, key, 0);
    json_t *x = json_object_get(v, key);
    sim_expr *e = read_expr(r, x);
    if (!e)
        fail(r, "missing expression");
    leave(r, n);
    return e;
}

/* ---- rows ---------------------------------------------------------------------------- */

static int chan_index(reader *r, const char *name)
{
    for (int k = 0; k < r->t->nchans; k++)
        if (!strcmp(r->t->chans[k].name, name))
            return k;
    fail(r, "unknown channel '%s'", name);
    return -1;
}

static int msg_index(reader *r, const char *name)
{
    for (int k = 0; k < r->t->nmsgs; k++)
        if (!strcmp(r->t->msgs[k].name, name))
            return k;
    fail(r, "unknown message '%s'", name);
    return -1;
}

static void read_send(reader *r, json_t *v, sim_action *a)
{
    static const char *const dests[] = {"self", "index", "each", "all"};
    a->kind = SA_SEND;
    a->idx = chan_index(r, str_member(r, v, "channel"));
    a->msg = msg_index(r, str_member(r, v, "message"));
    if (a->idx >= 0 && !r->failed && strcmp(r->t->ctrls[r->t->chans[a->idx].from].name, r->ctrl->name))
        fail(r, "channel %s does not start at %s", r->t->chans[a->idx].name, r->ctrl->name);
    size_t n = enter(r, "dest", 0);
    json_t *d = member(r, v, "dest", JSON_OBJECT);
    if (d) {
        int k = resolve(r, dests, 4, str_member(r, d, "kind"), "destination kind");
        a->dest = k < 0 ? SD_SELF : (enum sim_dest)k;
        if (a->dest == SD_INDEX)
            a->index = required_expr(r, d, "expr");
        if (a->dest == SD_EACH) {
            bool on_line = false;
            int s = read_storage(r, json_object_get(d, "storage"), &on_line);
            a->e = GC_MALLOC(sizeof *a->e);     /* the bits to send to, as an SX_LEN-like reference */
            a->e->kind = SX_LEN;
            a->e->idx = s;
            a->e->on_line = on_line;
        }
    }
    leave(r, n);
    json_t *args = member(r, v, "args", JSON_ARRAY);
    if (!args || a->msg < 0)
        return;
    a->nargs = (int)json_array_size(args);
    if (a->nargs != r->t->msgs[a->msg].nfields)
        fail(r, "message %s has %d fields, the send gives %d", r->t->msgs[a->msg].name, r->t->msgs[a->msg].nfields,
             a->nargs);
    a->args = gc_array((size_t)a->nargs, sizeof *a->args);
    n = enter(r, "args", 0);
    for (int k = 0; k < a->nargs && !r->failed; k++) {
        size_t m = enter(r, NULL, (size_t)k);
        a->args[k] = read_expr(r, json_array_get(args, (size_t)k));
        if (!a->args[k])
            fail(r, "missing expression");
        leave(r, m);
    }
    leave(r, n);
}

static void read_action(reader *r, json_t *v, sim_action *a)
{
    static const char *const simple[] = {"done", "wait", "stall", "invalidate", "invalidate_all"};
    static const enum sim_act simple_kinds[] = {SA_DONE, SA_WAIT, SA_STALL, SA_INV, SA_INV_ALL};
    if (!json_is_object(v)) {
        fail(r, "an action must be an object with \"op\"");
        return;
    }
    const char *op = str_member(r, v, "op");
    int i;
    if ((i = find_name(simple, 5, op)) >= 0) {
        a->kind = simple_kinds[i];
    } else if (!strcmp(op, "send")) {
        read_send(r, v, a);
    } else if (!strcmp(op, "assign")) {
        static const char *const modes[] = {":=", "+=", "-="};
        a->kind = SA_ASSIGN;
        a->idx = read_storage(r, json_object_get(v, "target"), &a->on_line);
        a->mode = (enum sim_mode)resolve(r, modes, 3, str_member(r, v, "mode"), "assignment mode");
        a->e = required_expr(r, v, "expr");
        size_t n = enter(r, "index", 0);
        a->index = read_expr(r, json_object_get(v, "index"));
        leave(r, n);
    } else if (!strcmp(op, "reg")) {
        a->kind = SA_REG;
        a->e = required_expr(r, v, "expr");
    } else if (!strcmp(op, "set")) {
        a->kind = SA_SET;
        a->idx = resolve(r, r->ctrl->states, r->ctrl->nstates, str_member(r, v, "state"), "state");
    } else if (!strcmp(op, "push") || !strcmp(op, "pop") || !strcmp(op, "clear")) {
        a->kind = op[1] == 'u' ? SA_PUSH : op[1] == 'o' ? SA_POP : SA_CLEAR;
        a->idx = read_storage(r, json_object_get(v, "storage"), &a->on_line);
        if (a->kind == SA_PUSH)
            a->e = required_expr(r, v, "expr");
    } else {
        fail(r, "unknown action '%s'", op);
    }
}


static int order_or_any(reader *r, const char *text, const char *const *names, int n, const char *what)
{
    return !strcmp(text, "*") ? SIM_ANY : resolve(r, names, n, text, what);
}

static void read_event(reader *r, json_t *v, sim_row *row, sim_ctrl *c)
{
    size_t n = enter(r, "event", 0);
    if (!json_is_object(v)) {
        fail(r, "must be an object");
        leave(r, n);
        return;
    }
    int k = resolve(r, vocab_event_kinds, NEVENT_KINDS, str_member(r, v, "kind"), "event kind");
    row->ev = k < 0 ? SE_INTERNAL : (enum sim_ev)k;
    if (row->ev == SE_RECV) {
        row->chan = chan_index(r, str_member(r, v, "channel"));
        row->msg = msg_index(r, str_member(r, v, "message"));
        if (row->chan >= 0 && !r->failed && strcmp(r->t->ctrls[r->t->chans[row->chan].to].name, c->name))
            fail(r, "channel %s does not lead to %s", r->t->chans[row->chan].name, c->name);
    } else if (row->ev == SE_INTERNAL) {
        const char *name = str_member(r, v, "name");
        row->internal = find_name(c->internal, c->ninternal, name);
        if (row->internal < 0 && !r->failed)
            fail(r, "'%s' is not among %s's internal_events", name, c->name);
    } else {
        if (!c->processor)
            fail(r, "a processor event in %s, which is not the processor controller", c->name);
        row->order = order_or_any(r, str_member(r, v, "order"), vocab_orders, LIT_NPROTOCOL_ORDERS, "order");
        row->scope = order_or_any(r, str_member(r, v, "scope"), vocab_scopes, LIT_NSCOPES, "scope");
        json_t *remote = json_object_get(v, "remote");     /* present only on remote rows */
        if (remote)
            row->remote = bool_member(r, v, "remote");
    }
    leave(r, n);
}

static bool action_writes_line(const sim_action *a)
{
    return (a->kind == SA_ASSIGN || a->kind == SA_PUSH || a->kind == SA_POP || a->kind == SA_CLEAR) && a->on_line;
}

static bool action_changes_line(const sim_action *a)
{
    return action_writes_line(a) || a->kind == SA_INV || a->kind == SA_INV_ALL || a->kind == SA_SET;
}

static bool action_changes_vars(const sim_action *a)
{
    return (a->kind == SA_ASSIGN || a->kind == SA_PUSH || a->kind == SA_POP || a->kind == SA_CLEAR) && !a->on_line;
}

static void read_row(reader *r, json_t *v, sim_ctrl *c, sim_row *row)
{
    if (!json_is_object(v)) {
        fail(r, "a row must be an object");
        return;
    }
    row->next = -1;
    read_event(r, json_object_get(v, "event"), row, c);
    r->msg = row->ev == SE_RECV && row->msg >= 0 ? &r->t->msgs[row->msg] : NULL;
    json_t *states = member(r, v, "states", JSON_ARRAY);
    size_t i, n = enter(r, "states", 0);
    json_t *s;
    json_array_foreach(states, i, s) {
        int k = json_is_string(s) ? find_name(c->states, c->nstates, json_string_value(s)) : -1;
        if (k < 0)
            fail(r, "unknown state of %s", c->name);
        else
            row->states |= 1ull << k;
    }
    leave(r, n);
    n = enter(r, "guard", 0);
    row->guard = read_expr(r, json_object_get(v, "guard"));
    leave(r, n);
    json_t *acts = member(r, v, "actions", JSON_ARRAY);
    row->nacts = acts ? (int)json_array_size(acts) : 0;
    row->acts = gc_array((size_t)row->nacts, sizeof *row->acts);
    n = enter(r, "actions", 0);
    for (int k = 0; k < row->nacts && !r->failed; k++) {
        size_t m = enter(r, NULL, (size_t)k);
        read_action(r, json_array_get(acts, (size_t)k), &row->acts[k]);
        row->writes_line |= action_writes_line(&row->acts[k]);
        row->changes_line |= action_changes_line(&row->acts[k]);
        row->changes_vars |= action_changes_vars(&row->acts[k]);
        leave(r, m);
    }
    leave(r, n);
    json_t *next = json_object_get(v, "next");
    if (json_is_string(next))
        row->next = resolve(r, c->states, c->nstates, json_string_value(next), "state");
    else if (!json_is_null(next))
        fail(r, "next must be a state name or null");
    row->changes_line |= row->next >= 0;
    json_t *src = json_object_get(v, "source");
    row->source_line = json_is_object(src) ? (int)json_integer_value(json_object_get(src, "line")) : 0;
    r->msg = NULL;
}

/* ---- controllers --------------------------------------------------------------------- */

static const char **string_list(reader *r, json_t *o, const char *key, int *count)
{
    json_t *a = member(r, o, key, JSON_ARRAY);
    *count = a ? (int)json_array_size(a) : 0;
    const char **out = gc_array((size_t)*count, sizeof *out);
    for (int k = 0; k < *count; k++) {
        json_t *s = json_array_get(a, (size_t)k);
        if (!json_is_string(s)) {
            size_t n = enter(r, key, 0);
            fail(r, "must be a list of names");
            leave(r, n);
            return out;
        }
        out[k] = GC_STRDUP(json_string_value(s));
    }
    return out;
}

static void read_ctrl_decls(reader *r, json_t *v, sim_ctrl *c)
{
    c->name = str_member(r, v, "name");
    c->level = read_placement(r, v, &c->slices);
    c->processor = bool_member(r, v, "processor");
    c->states = string_list(r, v, "states", &c->nstates);
    if (!r->failed && (c->nstates < 1 || c->nstates > SIM_MAX_STATES))
        fail(r, "a controller has 1 to %d states", SIM_MAX_STATES);
    c->internal = string_list(r, v, "internal_events", &c->ninternal);
    c->evict = find_name(c->internal, c->ninternal, "evict");
    json_t *fields = member(r, v, "fields", JSON_ARRAY), *vars = member(r, v, "vars", JSON_ARRAY);
    c->nfields = fields ? (int)json_array_size(fields) : 0;
    c->nvars = vars ? (int)json_array_size(vars) : 0;
    c->fields = gc_array((size_t)c->nfields, sizeof *c->fields);
    c->vars = gc_array((size_t)c->nvars, sizeof *c->vars);
    size_t n = enter(r, "fields", 0);
    for (int k = 0; k < c->nfields && !r->failed; k++) {
        size_t m = enter(r, NULL, (size_t)k);
        json_t *f = json_array_get(fields, (size_t)k);
        c->fields[k].name = str_member(r, f, "name");
        size_t q = enter(r, "type", 0);
        c->fields[k].type = read_type(r, json_object_get(f, "type"));
        leave(r, q);
        c->fields[k].memory = bool_member(r, f, "memory");
        c->fields[k].keep = bool_member(r, f, "keep");
        c->memory_backed |= c->fields[k].memory;
        leave(r, m);
    }
    leave(r, n);
    n = enter(r, "vars", 0);
    for (int k = 0; k < c->nvars && !r->failed; k++) {
        size_t m = enter(r, NULL, (size_t)k);
        json_t *f = json_array_get(vars, (size_t)k);
        c->vars[k].name = str_member(r, f, "name");
        size_t q = enter(r, "type", 0);
        c->vars[k].type = read_type(r, json_object_get(f, "type"));
        leave(r, q);
        leave(r, m);
    }
    leave(r, n);
}

static void read_ctrl_rows(reader *r, json_t *v, sim_ctrl *c)
{
    r->ctrl = c;
    json_t *rows = member(r, v, "rows", JSON_ARRAY);
    c->nrows = rows ? (int)json_array_size(rows) : 0;
    c->rows = gc_array((size_t)c->nrows, sizeof *c->rows);
    size_t n = enter(r, "rows", 0);
    for (int k = 0; k < c->nrows && !r->failed; k++) {
        size_t m = enter(r, NULL, (size_t)k);
        read_row(r, json_array_get(rows, (size_t)k), c, &c->rows[k]);
        leave(r, m);
    }
    leave(r, n);
    if (json_object_get(v, "hold")) {          /* present only on a processor controller with one */
        if (!c->processor)
            fail(r, "hold: only the processor controller may hold");
        c->hold = required_expr(r, v, "hold");
    }
    r->ctrl = NULL;
}

/* ---- the protocol-wide declarations -------------------------------------------------- */

static void read_constants(reader *r, json_t *content)
{
    sim_tables *t = r->t;
    json_t *builtins = member(r, content, "builtins", JSON_ARRAY);
    json_t *consts = member(r, content, "constants", JSON_OBJECT);
    static const char *const expected[SB_COUNT] = {"NCU", "NGPU", "NADDR", "NTHREADS", "MAXOPS"};
    if (r->failed)
        return;
    size_t n = json_array_size(builtins) + json_object_size(consts);
    t->const_names = gc_array(n, sizeof *t->const_names);
    t->const_values = gc_array(n, sizeof *t->const_values);
    size_t i;
    json_t *v;
    json_array_foreach(builtins, i, v) {
        if (i >= SB_COUNT || !json_is_string(v) || strcmp(json_string_value(v), expected[i])) {
            size_t k = enter(r, "content.builtins", 0);
            fail(r, "must be [\"NCU\", \"NGPU\", \"NADDR\", \"NTHREADS\", \"MAXOPS\"]");
            leave(r, k);
            return;
        }
        t->const_names[t->nconsts++] = expected[i];
    }
    const char *key;
    json_object_foreach(consts, key, v) {
        if (!json_is_integer(v)) {
            size_t k = enter(r, "content.constants", 0);
            fail(r, "constant '%s' must be an integer", key);
            leave(r, k);
            return;
        }
        t->const_names[t->nconsts] = GC_STRDUP(key);
        t->const_values[t->nconsts++] = (long)json_integer_value(v);
    }
}

static void read_messages(reader *r, json_t *content)
{
    sim_tables *t = r->t;
    json_t *msgs = member(r, content, "messages", JSON_ARRAY);
    t->nmsgs = msgs ? (int)json_array_size(msgs) : 0;
    t->msgs = gc_array((size_t)t->nmsgs, sizeof *t->msgs);
    for (int k = 0; k < t->nmsgs && !r->failed; k++) {
        size_t n = enter(r, "content.messages", 0), m = enter(r, NULL, (size_t)k);
        json_t *o = json_array_get(msgs, (size_t)k);
        sim_msg *g = &t->msgs[k];
        g->name = str_member(r, o, "name");
        json_t *fields = member(r, o, "fields", JSON_ARRAY);
        g->nfields = fields ? (int)json_array_size(fields) : 0;
        if (!r->failed && (g->nfields < 1 || g->nfields > SIM_MAX_FIELDS))
            fail(r, "a message has 1 to %d fields (addr first)", SIM_MAX_FIELDS);
        g->fields = gc_array((size_t)g->nfields, sizeof *g->fields);
        g->range = gc_array((size_t)g->nfields, sizeof *g->range);
        g->cu_field = g->gpu_field = -1;
        for (int f = 0; f < g->nfields && !r->failed; f++) {
            json_t *fo = json_array_get(fields, (size_t)f);
            g->fields[f] = str_member(r, fo, "name");
            if (f > 0) {
                g->range[f] = read_range(r, json_object_get(fo, "range"));
                g->carries_value |= g->range[f].is_value;
            }
            if (!strcmp(g->fields[f], "cu"))
                g->cu_field = f;
            if (!strcmp(g->fields[f], "gpu"))
                g->gpu_field = f;
        }
        leave(r, m);
        leave(r, n);
    }
}

/* The first home that expression e uses, directly or through other
 * homes, and that `seen` already holds; -1 when none.  `seen` marks the
 * homes on the path being followed, so a home that uses itself is found
 * without following it forever. */
static int home_cycle(const sim_tables *t, const sim_expr *e, bool *seen)
{
    if (!e)
        return -1;
    if (e->kind == SX_HOME && e->idx >= 0) {
        if (seen[e->idx])
            return e->idx;
        seen[e->idx] = true;
        int c = home_cycle(t, t->homes[e->idx].e, seen);
        seen[e->idx] = false;
        if (c >= 0)
            return c;
    }
    int c = home_cycle(t, e->l, seen);
    if (c < 0)
        c = home_cycle(t, e->r, seen);
    return c >= 0 ? c : home_cycle(t, e->r2, seen);
}

/* A home whose expression uses itself, directly or through others, has
 * no value: refused rather than evaluated without end. */
static void check_home_cycles(reader *r)
{
    sim_tables *t = r->t;
    bool *seen = gc_array((size_t)t->nhomes, sizeof *seen);
    for (int k = 0; k < t->nhomes && !r->failed; k++) {
        seen[k] = true;
        int c = home_cycle(t, t->homes[k].e, seen);
        seen[k] = false;
        if (c == k) {       /* a circle not through k is reported at its own homes */
            size_t n = enter(r, "content.homes", 0), m = enter(r, t->homes[k].name, 0);
            fail(r, "home %s uses itself, directly or through other homes: it has no value", t->homes[k].name);
            leave(r, m);
            leave(r, n);
        }
    }
}

static void read_homes(reader *r, json_t *content)
{
    sim_tables *t = r->t;
    json_t *homes = member(r, content, "homes", JSON_ARRAY);
    t->nhomes = homes ? (int)json_array_size(homes) : 0;
    t->homes = gc_array((size_t)t->nhomes, sizeof *t->homes);
    for (int k = 0; k < t->nhomes && !r->failed; k++)
        t->homes[k].name = str_member(r, json_array_get(homes, (size_t)k), "name");
    for (int k = 0; k < t->nhomes && !r->failed; k++) {
        size_t n = enter(r, "content.homes", 0), m = enter(r, NULL, (size_t)k);
        t->homes[k].e = required_expr(r, json_array_get(homes, (size_t)k), "expr");
        leave(r, m);
        leave(r, n);
    }
    if (!r->failed)
        check_home_cycles(r);
}

static int ctrl_by_name(reader *r, const char *name)
{
    for (int k = 0; k < r->t->nctrls; k++)
        if (r->t->ctrls[k].name && !strcmp(r->t->ctrls[k].name, name))
            return k;
    fail(r, "unknown controller '%s'", name);
    return -1;
}

static void read_channels(reader *r, json_t *content)
{
    sim_tables *t = r->t;
    json_t *chans = member(r, content, "channels", JSON_ARRAY);
    t->nchans = chans ? (int)json_array_size(chans) : 0;
    t->chans = gc_array((size_t)t->nchans, sizeof *t->chans);
    for (int k = 0; k < t->nchans && !r->failed; k++) {
        size_t n = enter(r, "content.channels", 0), m = enter(r, NULL, (size_t)k);
        json_t *o = json_array_get(chans, (size_t)k);
        sim_chan *c = &t->chans[k];
        c->name = str_member(r, o, "name");
        c->level = read_placement(r, o, &c->slices);
        c->from = ctrl_by_name(r, str_member(r, o, "from"));
        c->to = ctrl_by_name(r, str_member(r, o, "to"));
        c->per_source = bool_member(r, o, "per_source");
        const char *ord = str_member(r, o, "ordering");
        c->unordered = !strcmp(ord, "unordered");
        if (!r->failed && !c->unordered && strcmp(ord, "fifo"))
            fail(r, "ordering must be fifo or unordered");
        c->vnet = int_in(r, o, "vnet", 0, INT_MAX);
        size_t q = enter(r, "capacity", 0);
        c->cap = read_bound(r, json_object_get(o, "capacity"));
        leave(r, q);
        leave(r, m);
        leave(r, n);
    }
}

static void read_controllers(reader *r, json_t *content)
{
    sim_tables *t = r->t;
    json_t *ctrls = member(r, content, "controllers", JSON_ARRAY);
    t->nctrls = ctrls ? (int)json_array_size(ctrls) : 0;
    t->ctrls = gc_array((size_t)t->nctrls, sizeof *t->ctrls);
    t->proc_ctrl = -1;
    for (int k = 0; k < t->nctrls && !r->failed; k++) {
        size_t n = enter(r, "content.controllers", 0), m = enter(r, NULL, (size_t)k);
        read_ctrl_decls(r, json_array_get(ctrls, (size_t)k), &t->ctrls[k]);
        if (t->ctrls[k].processor)
            t->proc_ctrl = k;
        leave(r, m);
        leave(r, n);
    }
    read_channels(r, content);
    for (int k = 0; k < t->nctrls && !r->failed; k++) {
        size_t n = enter(r, "content.controllers", 0), m = enter(r, NULL, (size_t)k);
        read_ctrl_rows(r, json_array_get(ctrls, (size_t)k), &t->ctrls[k]);
        leave(r, m);
        leave(r, n);
    }
    if (!r->failed && t->proc_ctrl < 0)
        fail(r, "no controller is the processor controller");
    else if (!r->failed && t->ctrls[t->proc_ctrl].level != SL_CU)
        fail(r, "the processor controller must be placed per cu");
}

static void read_memory(reader *r, json_t *content)
{
    sim_tables *t = r->t;
    size_t n = enter(r, "content.memory", 0);
    json_t *m = member(r, content, "memory", JSON_OBJECT);
    t->mem_ctrl = t->mem_field = t->mem_home = -1;
    if (m) {
        t->mem_ctrl = ctrl_by_name(r, str_member(r, m, "controller"));
        const char *f = str_member(r, m, "field");
        if (t->mem_ctrl >= 0) {
            const sim_ctrl *c = &t->ctrls[t->mem_ctrl];
            for (int k = 0; k < c->nfields; k++)
                if (!strcmp(c->fields[k].name, f))
                    t->mem_field = k;
            if (t->mem_field < 0 && !r->failed)
                fail(r, "controller %s has no field '%s'", c->name, f);
        }
        json_t *h = json_object_get(m, "home");
        for (int k = 0; json_is_string(h) && k < t->nhomes; k++)
            if (!strcmp(t->homes[k].name, json_string_value(h)))
                t->mem_home = k;
        if (json_is_string(h) && t->mem_home < 0)
            fail(r, "unknown home '%s'", json_string_value(h));
    }
    leave(r, n);
}

static void read_value(reader *r, json_t *content)
{
    size_t n = enter(r, "content.value", 0);
    json_t *v = member(r, content, "value", JSON_OBJECT);
    if (v) {
        r->t->value = read_range(r, v);
        r->t->value.is_value = false;
        r->t->value_wrap = bool_member(r, v, "wrap");
    }
    leave(r, n);
}

/* Each part reads names the earlier parts resolved: after an error the
 * rest is not read (a controller left unread has no name to compare). */
static void read_content(reader *r, json_t *content)
{
    void (*const parts[])(reader *, json_t *) = {read_constants, read_value, read_messages, read_homes,
                                                 read_controllers, read_memory};
    r->t->protocol = str_member(r, content, "protocol");
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !r->failed; i++)
        parts[i](r, content);
}


/* ---- verification: what was checked, and the programs ------------------------------- */

static sim_operand read_operand(json_t *v)
{
    sim_operand o = {0, 0, 0};
    if (json_is_object(v) && json_is_integer(json_object_get(v, "reg")))
    {
        json_int_t reg = json_integer_value(json_object_get(v, "reg"));
        /* out of int: a register no thread has, refused by read_instr */
        o = (sim_operand){1, reg >= 0 && reg <= INT_MAX ? (int)reg : INT_MAX, 0};
    }
    else if (json_is_object(v) && json_is_integer(json_object_get(v, "imm")))
        o = (sim_operand){2, 0, (long)json_integer_value(json_object_get(v, "imm"))};
    return o;
}

static void read_instr(reader *r, json_t *v, sim_linstr *in, const sim_lthread *th, int nlocs)
{
    in->op = (enum lit_opcode)resolve(r, vocab_opcodes, LIT_NOPCODES, str_member(r, v, "op"), "instruction");
    in->order = resolve(r, vocab_orders, LIT_NPROTOCOL_ORDERS, str_member(r, v, "order"), "order");
    in->scope = resolve(r, vocab_scopes, LIT_NSCOPES, str_member(r, v, "scope"), "scope");
    in->remote = json_is_true(json_object_get(v, "remote"));
    in->dst = int_in(r, v, "dst", -1, INT_MAX);
    in->loc = int_in(r, v, "loc", -1, INT_MAX);
    in->a = read_operand(json_object_get(v, "a"));
    in->b = read_operand(json_object_get(v, "b"));
    if (in->op == OP_RMW || in->op == OP_RED)
        in->rmw = resolve(r, vocab_rmw_ops, LIT_NRMW_OPS, str_member(r, v, "rmw"), "rmw operation");
    if (in->op == OP_ALU)
        in->alu = resolve(r, vocab_alu_ops, LIT_NALU_OPS, str_member(r, v, "alu"), "alu operation");
    if (in->op == OP_BRANCH)
        in->cmp = resolve(r, vocab_cmps, LIT_NCMPS, str_member(r, v, "cmp"), "comparison");
    if (in->op == OP_BRANCH || in->op == OP_GOTO)
        in->target = int_in(r, v, "target", -1, INT_MAX);
    if (in->op == OP_BARRIER)
        in->waits = bool_member(r, v, "waits");
    bool mem = in->op <= OP_RED;
    if (!r->failed && ((mem && (in->loc < 0 || in->loc >= nlocs)) || in->dst >= th->nregs ||
                       (in->a.kind == 1 && in->a.reg >= th->nregs) || (in->b.kind == 1 && in->b.reg >= th->nregs) ||
                       ((in->op == OP_BRANCH || in->op == OP_GOTO) && (in->target < 0 || in->target > th->ninstrs))))
        fail(r, "a location, register or branch target out of range");
}

static void read_thread(reader *r, json_t *v, sim_lthread *th, int nlocs)
{
    th->name = str_member(r, v, "name");
    th->cta = int_in(r, v, "cta", 0, INT_MAX);
    th->gpu = int_in(r, v, "gpu", 0, INT_MAX);
    json_t *regs = member(r, v, "registers", JSON_ARRAY), *instrs = member(r, v, "instrs", JSON_ARRAY);
    th->nregs = regs ? (int)json_array_size(regs) : 0;
    th->ninstrs = instrs ? (int)json_array_size(instrs) : 0;
    th->reg_init = gc_array((size_t)th->nregs, sizeof *th->reg_init);
    th->instrs = gc_array((size_t)th->ninstrs, sizeof *th->instrs);
    for (int k = 0; k < th->nregs; k++)
        th->reg_init[k] = (long)json_integer_value(json_object_get(json_array_get(regs, (size_t)k), "init"));
    for (int k = 0; k < th->ninstrs && !r->failed; k++) {
        size_t n = enter(r, "instrs", 0), m = enter(r, NULL, (size_t)k);
        read_instr(r, json_array_get(instrs, (size_t)k), &th->instrs[k], th, nlocs);
        leave(r, m);
        leave(r, n);
    }
}

static void read_program(reader *r, json_t *check, sim_program *p)
{
    p->test = str_member(r, check, "test");
    size_t n = enter(r, "program", 0);
    json_t *prog = member(r, check, "program", JSON_OBJECT);
    json_t *locs = prog ? member(r, prog, "locations", JSON_ARRAY) : NULL;
    json_t *threads = prog ? member(r, prog, "threads", JSON_ARRAY) : NULL;
    p->nlocs = locs ? (int)json_array_size(locs) : 0;
    p->nthreads = threads ? (int)json_array_size(threads) : 0;
    p->loc_init = gc_array((size_t)p->nlocs, sizeof *p->loc_init);
    p->threads = gc_array((size_t)p->nthreads, sizeof *p->threads);
    for (int k = 0; k < p->nlocs; k++)
        p->loc_init[k] = (long)json_integer_value(json_object_get(json_array_get(locs, (size_t)k), "init"));
    for (int k = 0; k < p->nthreads && !r->failed; k++) {
        size_t q = enter(r, "threads", 0), m = enter(r, NULL, (size_t)k);
        read_thread(r, json_array_get(threads, (size_t)k), &p->threads[k], p->nlocs);
        leave(r, m);
        leave(r, q);
    }
    leave(r, n);
}

static void read_verification(reader *r, json_t *doc)
{
    sim_tables *t = r->t;
    json_t *ver = member(r, doc, "verification", JSON_OBJECT);
    if (!ver)
        return;
    size_t n = enter(r, "verification", 0);
    json_t *covered = member(r, ver, "covered", JSON_OBJECT);
    json_t *checks = member(r, ver, "checks", JSON_ARRAY);
    if (covered) {
        size_t c = enter(r, "covered", 0);
        t->covered_ncu = int_in(r, covered, "ncu", 0, INT_MAX);
        t->covered_ngpu = int_in(r, covered, "ngpu", 0, INT_MAX);
        t->covered_threads_per_cu = int_in(r, covered, "max_threads_per_cu", 0, INT_MAX);
        leave(r, c);
    }
    t->nprograms = checks ? (int)json_array_size(checks) : 0;
    t->programs = gc_array((size_t)t->nprograms, sizeof *t->programs);
    char kinds[256] = "";
    for (int k = 0; k < t->nprograms && !r->failed; k++) {
        size_t q = enter(r, "checks", 0), m = enter(r, NULL, (size_t)k);
        json_t *c = json_array_get(checks, (size_t)k);
        read_program(r, c, &t->programs[k]);
        const char *key;
        json_t *v;
        json_object_foreach(json_object_get(c, "checks"), key, v) if (k == 0 && strlen(kinds) + strlen(key) + 2 < sizeof kinds)
        {
            strcat(kinds, " ");
            strcat(kinds, key);
        }
        leave(r, m);
        leave(r, q);
    }
    char summary[512];
    snprintf(summary, sizeof summary, "%d tests (%s):%s", t->nprograms,
             json_string_value(json_object_get(ver, "model")) ? json_string_value(json_object_get(ver, "model")) : "?",
             kinds);
    t->checks_summary = GC_STRDUP(summary);
    t->nchecks = t->nprograms;
    leave(r, n);
}

const sim_program *sim_tables_program(const sim_tables *t, const char *test)
{
    for (int k = 0; k < t->nprograms; k++)
        if (!strcmp(t->programs[k].test, test))
            return &t->programs[k];
    return NULL;
}

/* ---- the file ---------------------------------------------------------------------- */

static bool check_stamp(reader *r, json_t *doc, bool unverified)
{
    char why[1024];
    enum stamp_status s = stamp_check(doc, why, sizeof why);
    r->t->digest = json_string_value(json_object_get(json_object_get(doc, "stamp"), "digest"));
    r->t->digest = r->t->digest ? GC_STRDUP(r->t->digest) : NULL;
    r->t->verified = s == STAMP_OK;
    if (s == STAMP_OK || unverified)
        return true;
    if (s == STAMP_MISSING)
        fprintf(r->errors, "%s: stamp: the tables are not stamped (write them with `scopecheck export`, or run "
                           "with --unverified)\n", r->file);
    else if (s == STAMP_MISMATCH)
        fprintf(r->errors, "%s: stamp: the tables were edited after they were verified: %s (export them again, "
                           "or run with --unverified)\n", r->file, why);
    else
        fprintf(r->errors, "%s: stamp: out of memory while checking the stamp\n", r->file);
    return false;
}

sim_tables *sim_tables_load(const char *path, bool unverified, FILE *errors)
{
    json_error_t jerr;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc) {
        if (jerr.line < 1)
            fprintf(errors, "%s: error: %s\n", path, jerr.text);
        else
            fprintf(errors, "%s:%d:%d: error: %s\n", path, jerr.line, jerr.column > 0 ? jerr.column : 1, jerr.text);
        return NULL;
    }
    sim_tables *t = GC_MALLOC(sizeof *t);
    t->path = path;
    reader r = {.file = path, .errors = errors, .t = t};
    json_t *content = NULL;
    const char *format = json_string_value(json_object_get(doc, "format"));
    if (!json_is_object(doc) || !format || strcmp(format, "scopecheck-tables"))
        fail(&r, "not a scopecheck-tables document (\"format\" must be \"scopecheck-tables\")");
    else if (int_member(&r, doc, "version") != 1 && !r.failed)
        fail(&r, "version %lld is not supported (this scopesim reads version 1)",
             (long long)json_integer_value(json_object_get(doc, "version")));
    if (!r.failed)
        content = member(&r, doc, "content", JSON_OBJECT);
    if (!r.failed && !check_stamp(&r, doc, unverified))
        r.failed = true;
    if (!r.failed)
        read_content(&r, content);
    if (!r.failed)
        read_verification(&r, doc);
    if (!r.failed)
        sim_tables_pin(t);
    json_decref(doc);
    return r.failed ? NULL : t;
}
