/* protocol_parse.c: parser of protocol table files into a resolved
 * `protocol` (grammar: docs/protocol-tables.md).  Every name is resolved
 * here; the first error is reported as "file:line:col: error: ...". */
#include <gc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "protocol_impl.h"

#define MAXC 64   /* consts, messages, channels, controllers, invariants */
#define MAXROWS 1024

typedef struct parser {
    const char *path;
    ptok *t;
    int pos;
    protocol *p;
    pctrl *cur;          /* controller being declared */
    FILE *errors;
    bool failed;
} parser;

static void perr(parser *ps, const ptok *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void perr(parser *ps, const ptok *at, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    fprintf(ps->errors, "%s:%d:%d: error: ", ps->path, at->line, at->col);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(ps->errors, fmt, ap);
    va_end(ap);
    fputc('\n', ps->errors);
}

static ptok *peek(parser *ps) { return &ps->t[ps->pos]; }
static ptok *next(parser *ps)
{
    ptok *t = &ps->t[ps->pos];
    if (t->kind != PT_EOF)
        ps->pos++;
    return t;
}

static bool is_punct(const ptok *t, const char *s) { return t->kind == PT_PUNCT && !strcmp(t->text, s); }
static bool is_word(const ptok *t, const char *s) { return t->kind == PT_IDENT && !strcmp(t->text, s); }

static bool accept(parser *ps, const char *s)
{
    if (is_punct(peek(ps), s) || is_word(peek(ps), s)) {
        next(ps);
        return true;
    }
    return false;
}

static void expect(parser *ps, const char *s)
{
    if (!accept(ps, s))
        perr(ps, peek(ps), "expected '%s', found '%s'", s, peek(ps)->text);
}

static const char *ident(parser *ps, const char *what)
{
    ptok *t = peek(ps);
    if (t->kind != PT_IDENT) {
        perr(ps, t, "expected %s, found '%s'", what, t->text);
        return "?";
    }
    next(ps);
    return t->text;
}

static int find(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

static void *gc_array(size_t n, size_t size) { return GC_MALLOC(n * size); }

static void end_line(parser *ps)
{
    if (peek(ps)->kind != PT_NL)
        perr(ps, peek(ps), "expected end of line, found '%s'", peek(ps)->text);
    else
        next(ps);
}

/* ---- bounds and ranges ---------------------------------------------- */
static pbound bound(parser *ps)
{
    ptok *t = next(ps);
    if (t->kind == PT_NUM)
        return (pbound){-1, t->num};
    if (t->kind == PT_IDENT) {
        int c = find(ps->p->const_names, ps->p->nconsts, t->text);
        if (c < 0)
            perr(ps, t, "unknown constant '%s'", t->text);
        return (pbound){c, 0};
    }
    perr(ps, t, "expected a number or a constant, found '%s'", t->text);
    return (pbound){-1, 0};
}

static prange range(parser *ps)
{
    prange r = {false, {-1, 0}, {-1, 0}};
    if (accept(ps, "value")) {
        if (!ps->p->has_value)
            perr(ps, &ps->t[ps->pos - 1], "'value' used before the value declaration");
        r.is_value = true;
        return r;
    }
    r.lo = bound(ps);
    expect(ps, "..");
    r.hi = bound(ps);
    return r;
}

/* ---- expressions ------------------------------------------------------ */
static pexpr *mk(enum pex_kind k)
{
    pexpr *e = GC_MALLOC(sizeof *e);
    e->kind = k;
    return e;
}

static pexpr *expr(parser *ps, const pmsg *msg);

static pexpr *dotted(parser *ps, const ptok *t, const pmsg *msg)
{
    const char *f = ident(ps, "a field name");
    pexpr *e;
    if (!strcmp(t->text, "line")) {
        e = mk(EX_LINEF);
        e->idx = find(ps->cur->fields, ps->cur->nfields, f);
        if (e->idx < 0)
            perr(ps, t, "controller %s has no line field '%s'", ps->cur->name, f);
    } else {
        e = mk(EX_MSGF);
        e->idx = msg ? find(msg->fields, msg->nfields, f) : -1;
        if (!msg)
            perr(ps, t, "'msg' is only defined in rows of 'recv' events");
        else if (e->idx < 0)
            perr(ps, t, "message %s has no field '%s'", msg->name, f);
    }
    return e;
}

static pexpr *name_expr(parser *ps, const ptok *t, const pmsg *msg)
{
    pexpr *e;
    int i;
    if ((is_word(t, "line") || is_word(t, "msg")) && accept(ps, "."))
        return dotted(ps, t, msg);
    if (is_word(t, "addr"))
        return mk(EX_ADDR);
    if (is_word(t, "value"))
        return mk(EX_VALUE);
    if (is_word(t, "state"))
        return mk(EX_STATE);
    if (is_word(t, "rmw")) {
        e = mk(EX_RMW);
        expect(ps, "(");
        e->l = expr(ps, msg);
        expect(ps, ",");
        e->r = expr(ps, msg);
        expect(ps, ")");
        return e;
    }
    if ((i = find(ps->cur->vars, ps->cur->nvars, t->text)) >= 0) {
        e = mk(EX_VAR);
    } else if ((i = find(ps->cur->states, ps->cur->nstates, t->text)) >= 0) {
        e = mk(EX_NUM);
        e->num = i;
    } else if ((i = find(ps->p->const_names, ps->p->nconsts, t->text)) >= 0) {
        e = mk(EX_CONST);
    } else {
        perr(ps, t, "unknown name '%s'", t->text);
        return mk(EX_NUM);
    }
    e->idx = i;
    return e;
}

static pexpr *primary(parser *ps, const pmsg *msg)
{
    ptok *t = next(ps);
    if (t->kind == PT_NUM) {
        pexpr *e = mk(EX_NUM);
        e->num = t->num;
        return e;
    }
    if (t->kind == PT_IDENT)
        return name_expr(ps, t, msg);
    if (is_punct(t, "(")) {
        pexpr *e = expr(ps, msg);
        expect(ps, ")");
        return e;
    }
    if (is_punct(t, "!")) {
        pexpr *e = mk(EX_NOT);
        e->l = primary(ps, msg);
        return e;
    }
    perr(ps, t, "expected an expression, found '%s'", t->text);
    return mk(EX_NUM);
}

static const struct { const char *s; enum pex_op op; int prec; } binops[] = {
    {"||", OPX_OR, 1}, {"&&", OPX_AND, 2}, {"==", OPX_EQ, 3}, {"!=", OPX_NE, 3},
    {"<", OPX_LT, 3}, {"<=", OPX_LE, 3}, {">", OPX_GT, 3}, {">=", OPX_GE, 3},
    {"+", OPX_ADD, 4}, {"-", OPX_SUB, 4},
};

static int binop_at(parser *ps)
{
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
        if (is_punct(peek(ps), binops[i].s))
            return (int)i;
    return -1;
}

static pexpr *expr_prec(parser *ps, const pmsg *msg, int min)
{
    pexpr *l = primary(ps, msg);
    int b;
    while (!ps->failed && (b = binop_at(ps)) >= 0 && binops[b].prec >= min) {
        next(ps);
        pexpr *e = mk(EX_BIN);
        e->op = binops[b].op;
        e->l = l;
        e->r = expr_prec(ps, msg, binops[b].prec + 1);
        l = e;
    }
    return l;
}

static pexpr *expr(parser *ps, const pmsg *msg) { return expr_prec(ps, msg, 1); }

/* ---- declarations ------------------------------------------------------ */
static void decl_const(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *n = ident(ps, "a constant name");
    if (find(p->const_names, p->nconsts, n) >= 0)
        perr(ps, at, "constant '%s' declared twice", n);
    if (p->nconsts == MAXC)
        perr(ps, at, "too many constants");
    expect(ps, "=");
    ptok *v = next(ps);
    if (v->kind != PT_NUM)
        perr(ps, v, "expected a number, found '%s'", v->text);
    if (ps->failed)
        return;
    p->const_names[p->nconsts] = n;
    p->const_values[p->nconsts++] = v->num;
}

static void decl_message(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    pmsg *m = &p->msgs[p->nmsgs];
    m->name = ident(ps, "a message name");
    for (int i = 0; i < p->nmsgs; i++)
        if (!strcmp(p->msgs[i].name, m->name))
            perr(ps, at, "message '%s' declared twice", m->name);
    m->fields = gc_array(PROTO_MAX_FIELDS, sizeof *m->fields);
    m->range = gc_array(PROTO_MAX_FIELDS, sizeof *m->range);
    expect(ps, "(");
    at = peek(ps);
    if (!accept(ps, "addr"))
        perr(ps, at, "the first field of every message is 'addr'");
    m->fields[m->nfields++] = "addr";
    while (!ps->failed && accept(ps, ",")) {
        at = peek(ps);
        if (m->nfields == PROTO_MAX_FIELDS)
            perr(ps, at, "too many fields");
        m->fields[m->nfields] = ident(ps, "a field name");
        m->range[m->nfields] = (prange){true, {-1, 0}, {-1, 0}};
        if (!p->has_value)
            perr(ps, at, "message fields need the value declaration first");
        if (accept(ps, ":"))
            m->range[m->nfields] = range(ps);
        m->nfields++;
    }
    expect(ps, ")");
    if (!ps->failed && p->nmsgs < MAXC)
        p->nmsgs++;
}

static int ctrl_index(parser *ps)
{
    ptok *at = peek(ps);
    const char *n = ident(ps, "a controller name");
    for (int i = 0; i < ps->p->nctrls; i++)
        if (!strcmp(ps->p->ctrls[i].name, n))
            return i;
    perr(ps, at, "unknown controller '%s'", n);
    return 0;
}

static bool per_cu(parser *ps)
{
    if (accept(ps, "shared"))
        return false;
    expect(ps, "per");
    expect(ps, "cu");
    return true;
}

static void decl_channel(parser *ps)
{
    protocol *p = ps->p;
    pchan *c = &p->chans[p->nchans];
    ptok *at = peek(ps);
    c->name = ident(ps, "a channel name");
    for (int i = 0; i < p->nchans; i++)
        if (!strcmp(p->chans[i].name, c->name))
            perr(ps, at, "channel '%s' declared twice", c->name);
    c->per_cu = per_cu(ps);
    expect(ps, "from");
    c->from = ctrl_index(ps);
    expect(ps, "to");
    at = peek(ps);
    c->to = ctrl_index(ps);
    if (!ps->failed && !c->per_cu && p->ctrls[c->to].per_cu)
        perr(ps, at, "a shared channel cannot lead to a per-cu controller");
    if (accept(ps, "unordered"))
        c->unordered = true;
    else
        expect(ps, "fifo");
    expect(ps, "capacity");
    c->cap = bound(ps);
    if (accept(ps, "vnet")) {
        ptok *v = next(ps);
        if (v->kind != PT_NUM)
            perr(ps, v, "expected a virtual network number, found '%s'", v->text);
        c->vnet = (int)v->num;
    }
    if (!ps->failed && p->nchans < MAXC)
        p->nchans++;
}

static void decl_controller(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    if (p->nctrls == MAXC)
        perr(ps, at, "too many controllers");
    pctrl *c = &p->ctrls[p->nctrls];
    c->name = ident(ps, "a controller name");
    for (int i = 0; i < p->nctrls; i++)
        if (!strcmp(p->ctrls[i].name, c->name))
            perr(ps, at, "controller '%s' declared twice", c->name);
    c->per_cu = per_cu(ps);
    if (accept(ps, "processor")) {
        if (p->proc_ctrl >= 0)
            perr(ps, at, "only one controller takes processor events");
        if (!c->per_cu)
            perr(ps, at, "the processor controller must be 'per cu'");
        p->proc_ctrl = p->nctrls;
        c->processor = true;
    }
    c->states = gc_array(PROTO_MAX_STATES, sizeof *c->states);
    c->states[0] = "-";
    c->nstates = 1;
    c->fields = gc_array(PROTO_MAX_FIELDS, sizeof *c->fields);
    c->field_range = gc_array(PROTO_MAX_FIELDS, sizeof *c->field_range);
    c->field_memory = gc_array(PROTO_MAX_FIELDS, sizeof *c->field_memory);
    c->field_keep = gc_array(PROTO_MAX_FIELDS, sizeof *c->field_keep);
    c->vars = gc_array(MAXC, sizeof *c->vars);
    c->var_range = gc_array(MAXC, sizeof *c->var_range);
    c->internal = gc_array(MAXC, sizeof *c->internal);
    if (!ps->failed)
        ps->cur = &p->ctrls[p->nctrls++];
}

static pctrl *need_ctrl(parser *ps, const ptok *at)
{
    if (!ps->cur)
        perr(ps, at, "'%s' must follow a controller declaration", at->text);
    return ps->cur;
}

static void decl_states(parser *ps, const ptok *kw)
{
    pctrl *c = need_ctrl(ps, kw);
    if (!c)
        return;
    if (c->nstates > 1 || c->nrows)
        perr(ps, kw, "line states of %s declared twice", c->name);
    c->nstates = 0;
    while (!ps->failed && peek(ps)->kind == PT_IDENT) {
        ptok *at = peek(ps);
        const char *s = ident(ps, "a state name");
        if (find(c->states, c->nstates, s) >= 0)
            perr(ps, at, "state '%s' listed twice", s);
        if (c->nstates == PROTO_MAX_STATES)
            perr(ps, at, "too many states");
        else
            c->states[c->nstates++] = s;
    }
    if (!c->nstates)
        perr(ps, peek(ps), "expected a state name, found '%s'", peek(ps)->text);
}

static void decl_field(parser *ps, const ptok *kw)
{
    pctrl *c = need_ctrl(ps, kw);
    if (!c)
        return;
    ptok *at = peek(ps);
    const char *n = ident(ps, "a field name");
    if (find(c->fields, c->nfields, n) >= 0)
        perr(ps, at, "field '%s' declared twice", n);
    if (c->nfields == PROTO_MAX_FIELDS)
        perr(ps, at, "too many fields");
    expect(ps, ":");
    prange r = range(ps);
    bool mem = false, keep = false;
    for (;;) {
        if (!mem && accept(ps, "init")) {
            expect(ps, "memory");
            mem = true;
        } else if (!keep && accept(ps, "keep")) {
            keep = true;
        } else {
            break;
        }
    }
    if (ps->failed)
        return;
    c->field_memory[c->nfields] = mem;
    c->field_keep[c->nfields] = keep;
    c->any_keep |= keep;
    c->field_range[c->nfields] = r;
    c->fields[c->nfields++] = n;
}

static void decl_var(parser *ps, const ptok *kw)
{
    pctrl *c = need_ctrl(ps, kw);
    if (!c)
        return;
    ptok *at = peek(ps);
    const char *n = ident(ps, "a variable name");
    if (find(c->vars, c->nvars, n) >= 0)
        perr(ps, at, "variable '%s' declared twice", n);
    if (c->nvars == MAXC)
        perr(ps, at, "too many variables");
    expect(ps, ":");
    prange r = range(ps);
    if (ps->failed)
        return;
    c->var_range[c->nvars] = r;
    c->vars[c->nvars++] = n;
}

static void decl_value(parser *ps)
{
    protocol *p = ps->p;
    p->value.is_value = false;
    p->value.lo = bound(ps);
    expect(ps, "..");
    p->value.hi = bound(ps);
    p->value_wrap = accept(ps, "wrap");
    p->has_value = true;
}

static void decl_memory(parser *ps)
{
    protocol *p = ps->p;
    p->mem_ctrl = ctrl_index(ps);
    expect(ps, ".");
    ptok *at = peek(ps);
    const char *f = ident(ps, "a field name");
    if (ps->failed)
        return;
    pctrl *c = &p->ctrls[p->mem_ctrl];
    p->mem_field = find(c->fields, c->nfields, f);
    if (p->mem_field < 0)
        perr(ps, at, "controller %s has no line field '%s'", c->name, f);
    if (c->per_cu)
        perr(ps, at, "the memory controller must be 'shared'");
}

static void decl_invariant(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    if (p->ninvs == MAXC)
        perr(ps, at, "too many invariants");
    pinv *v = &p->invs[p->ninvs];
    v->name = ident(ps, "an invariant name");
    v->ctrl = ctrl_index(ps);
    expect(ps, ":");
    if (ps->failed)
        return;
    pctrl *saved = ps->cur;
    ps->cur = &p->ctrls[v->ctrl];
    v->e = expr(ps, NULL);
    ps->cur = saved;
    if (!ps->failed)
        p->ninvs++;
}

static void parse_table(parser *ps);

static void declaration(parser *ps)
{
    ptok *kw = next(ps);
    if (kw->kind != PT_IDENT) {
        perr(ps, kw, "expected a declaration, found '%s'", kw->text);
        return;
    }
    if (is_word(kw, "protocol"))
        ps->p->name = ident(ps, "a protocol name");
    else if (is_word(kw, "const"))
        decl_const(ps);
    else if (is_word(kw, "value"))
        decl_value(ps);
    else if (is_word(kw, "message"))
        decl_message(ps);
    else if (is_word(kw, "channel"))
        decl_channel(ps);
    else if (is_word(kw, "controller"))
        decl_controller(ps);
    else if (is_word(kw, "states"))
        decl_states(ps, kw);
    else if (is_word(kw, "field"))
        decl_field(ps, kw);
    else if (is_word(kw, "var"))
        decl_var(ps, kw);
    else if (is_word(kw, "final")) {
        if (need_ctrl(ps, kw))
            ps->cur->final = expr(ps, NULL);
    } else if (is_word(kw, "memory"))
        decl_memory(ps);
    else if (is_word(kw, "invariant"))
        decl_invariant(ps);
    else if (is_word(kw, "table"))
        parse_table(ps);
    else
        perr(ps, kw, "unknown declaration '%s'", kw->text);
    end_line(ps);
}

static const char *const builtin_consts[PB_NBUILTIN] = {"NCU", "NADDR", "NTHREADS", "MAXOPS"};

static protocol *new_protocol(const char *path)
{
    protocol *p = GC_MALLOC(sizeof *p);
    p->path = path;
    p->name = "unnamed";
    p->const_names = gc_array(MAXC, sizeof *p->const_names);
    p->const_values = gc_array(MAXC, sizeof *p->const_values);
    for (int i = 0; i < PB_NBUILTIN; i++)
        p->const_names[p->nconsts++] = builtin_consts[i];
    p->msgs = gc_array(MAXC, sizeof *p->msgs);
    p->chans = gc_array(MAXC, sizeof *p->chans);
    p->ctrls = gc_array(MAXC, sizeof *p->ctrls);
    p->invs = gc_array(MAXC, sizeof *p->invs);
    p->mem_ctrl = p->mem_field = p->proc_ctrl = -1;
    return p;
}

static void check_complete(parser *ps)
{
    protocol *p = ps->p;
    ptok *end = peek(ps);
    if (!p->has_value)
        perr(ps, end, "missing 'value LO..HI' declaration");
    else if (p->proc_ctrl < 0)
        perr(ps, end, "no controller is declared 'processor'");
    else if (p->mem_ctrl < 0)
        perr(ps, end, "missing 'memory CONTROLLER.FIELD' declaration");
}

protocol *protocol_parse_text(const char *path, const char *text, FILE *errors)
{
    ptok *toks = ptok_split(path, text, errors);
    if (!toks)
        return NULL;
    parser ps = {path, toks, 0, new_protocol(path), NULL, errors, false};
    while (!ps.failed && peek(&ps)->kind != PT_EOF) {
        if (peek(&ps)->kind == PT_NL)
            next(&ps);
        else
            declaration(&ps);
    }
    if (!ps.failed)
        check_complete(&ps);
    return ps.failed ? NULL : ps.p;
}

protocol *protocol_load(const char *path, FILE *errors)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(errors, "%s: error: cannot open protocol file\n", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = GC_MALLOC_ATOMIC(cap + 1);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = GC_MALLOC_ATOMIC(2 * cap + 1);
            memcpy(nb, buf, n);
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    buf[n] = 0;
    if (strlen(buf) != n) {
        fprintf(errors, "%s: error: protocol file contains a NUL byte\n", path);
        return NULL;
    }
    return protocol_parse_text(path, buf, errors);
}

const char *protocol_name(const protocol *p) { return p->name; }

/* ---- tables ------------------------------------------------------------ */
static const char *const order_names[] = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc"};
static const char *const scope_names[] = {"none", "cta", "gpu", "sys"};

static int name_or_any(parser *ps, const char *const *names, int n, const char *what)
{
    if (accept(ps, "*"))
        return PEV_ANY;
    ptok *at = peek(ps);
    const char *s = ident(ps, what);
    int i = find(names, n, s);
    if (i < 0 && !ps->failed)
        perr(ps, at, "unknown %s '%s'", what, s);
    return i;
}

static uint64_t row_states_all(const pctrl *c)
{
    return c->nstates >= 64 ? ~0ull : (1ull << c->nstates) - 1;
}

static uint64_t row_states(parser *ps, pctrl *c)
{
    if (accept(ps, "*"))
        return row_states_all(c);
    uint64_t m = 0;
    do {
        ptok *at = peek(ps);
        int s = find(c->states, c->nstates, ident(ps, "a state name or '*'"));
        if (s < 0 && !ps->failed)
            perr(ps, at, "controller %s has no state '%s'", c->name, at->text);
        if (s >= 0)
            m |= 1ull << s;
    } while (!ps->failed && accept(ps, ","));
    return m;
}

static void recv_event(parser *ps, pctrl *c, pevent *ev, const pmsg **msg)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *ch = ident(ps, "a channel name");
    ev->kind = EV_RECV;
    ev->chan = -1;
    for (int i = 0; i < p->nchans; i++)
        if (!strcmp(p->chans[i].name, ch))
            ev->chan = i;
    if (ev->chan < 0)
        perr(ps, at, "unknown channel '%s'", ch);
    else if (&p->ctrls[p->chans[ev->chan].to] != c)
        perr(ps, at, "channel %s does not lead to %s", ch, c->name);
    expect(ps, ".");
    at = peek(ps);
    const char *m = ident(ps, "a message name");
    ev->msg = -1;
    for (int i = 0; i < p->nmsgs; i++)
        if (!strcmp(p->msgs[i].name, m))
            ev->msg = i;
    if (ev->msg < 0)
        perr(ps, at, "unknown message '%s'", m);
    else
        *msg = &p->msgs[ev->msg];
}

static pevent event(parser *ps, pctrl *c, const pmsg **msg)
{
    static const char *const kinds[] = {"load", "store", "rmw", "fence"};
    pevent ev = {EV_INTERNAL, PEV_ANY, PEV_ANY, -1, -1, -1};
    ptok *at = peek(ps);
    const char *w = ident(ps, "an event");
    int k = find(kinds, 4, w);
    if (ps->failed)
        return ev;
    if (!strcmp(w, "recv")) {
        recv_event(ps, c, &ev, msg);
    } else if (k >= 0) {
        if (!c->processor)
            perr(ps, at, "processor event '%s' in the table of %s, which is not 'processor'", w, c->name);
        ev.kind = (enum pev_kind)k;
        expect(ps, ".");
        ev.order = name_or_any(ps, order_names, 6, "order");
        if (accept(ps, "."))
            ev.scope = name_or_any(ps, scope_names, 4, "scope");
        else if (ev.order == ORD_WEAK)
            ev.scope = SCOPE_NONE;
    } else {
        ev.internal = find(c->internal, c->ninternal, w);
        if (ev.internal < 0) {
            ev.internal = c->ninternal;
            c->internal[c->ninternal++] = w;
        }
    }
    return ev;
}

static int state_ref(parser *ps, pctrl *c)
{
    ptok *at = peek(ps);
    const char *s = ident(ps, "a state name");
    int i = find(c->states, c->nstates, s);
    if (i < 0 && !ps->failed)
        perr(ps, at, "controller %s has no state '%s'", c->name, s);
    return i < 0 ? 0 : i;
}

static void send_action(parser *ps, pctrl *c, pact *a, const pmsg *rmsg)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *ch = ident(ps, "a channel name");
    a->idx = -1;
    for (int i = 0; i < p->nchans; i++)
        if (!strcmp(p->chans[i].name, ch))
            a->idx = i;
    if (a->idx < 0)
        perr(ps, at, "unknown channel '%s'", ch);
    else if (&p->ctrls[p->chans[a->idx].from] != c)
        perr(ps, at, "channel %s does not start at %s", ch, c->name);
    at = peek(ps);
    const char *m = ident(ps, "a message name");
    a->msg = -1;
    for (int i = 0; i < p->nmsgs; i++)
        if (!strcmp(p->msgs[i].name, m))
            a->msg = i;
    if (a->msg < 0 && !ps->failed)
        perr(ps, at, "unknown message '%s'", m);
    if (ps->failed)
        return;
    const pmsg *sm = &p->msgs[a->msg];
    a->args = gc_array(PROTO_MAX_FIELDS, sizeof *a->args);
    expect(ps, "(");
    do {
        if (a->nargs == sm->nfields) {
            perr(ps, peek(ps), "message %s has %d fields", sm->name, sm->nfields);
            return;
        }
        a->args[a->nargs++] = expr(ps, rmsg);
    } while (!ps->failed && accept(ps, ","));
    if (a->nargs != sm->nfields)
        perr(ps, peek(ps), "message %s has %d fields, %d given", sm->name, sm->nfields, a->nargs);
    expect(ps, ")");
}

static const struct { const char *w; enum pact_kind k; } simple_acts[] = {
    {"done", A_DONE}, {"wait", A_WAIT}, {"stall", A_STALL},
    {"invalidate", A_INV}, {"invalidate_all", A_INV_ALL},
};

static void assign_action(parser *ps, pctrl *c, pact *a, const ptok *t, const pmsg *rmsg)
{
    if (is_word(t, "line")) {
        expect(ps, ".");
        ptok *at = peek(ps);
        a->kind = A_LINEF;
        a->idx = find(c->fields, c->nfields, ident(ps, "a field name"));
        if (a->idx < 0 && !ps->failed)
            perr(ps, at, "controller %s has no line field '%s'", c->name, at->text);
        expect(ps, ":=");
    } else if (is_word(t, "reg")) {
        a->kind = A_REG;
        expect(ps, ":=");
    } else {
        a->idx = find(c->vars, c->nvars, t->text);
        if (a->idx < 0)
            perr(ps, t, "unknown action or variable '%s'", t->text);
        a->kind = accept(ps, "+=") ? A_VAR_ADD : accept(ps, "-=") ? A_VAR_SUB : A_VAR_SET;
        if (a->kind == A_VAR_SET)
            expect(ps, ":=");
    }
    a->e = expr(ps, rmsg);
}

static void action(parser *ps, pctrl *c, pact *a, const pmsg *rmsg)
{
    ptok *t = peek(ps);
    if (t->kind != PT_IDENT) {
        perr(ps, t, "expected an action, found '%s'", t->text);
        return;
    }
    next(ps);
    for (size_t i = 0; i < sizeof simple_acts / sizeof simple_acts[0]; i++)
        if (is_word(t, simple_acts[i].w)) {
            a->kind = simple_acts[i].k;
            return;
        }
    if (is_word(t, "send")) {
        a->kind = A_SEND;
        send_action(ps, c, a, rmsg);
    } else if (is_word(t, "set")) {
        a->kind = A_SET;
        a->idx = state_ref(ps, c);
    } else {
        assign_action(ps, c, a, t, rmsg);
    }
}

static void row(parser *ps, pctrl *c, prow *r)
{
    const pmsg *msg = NULL;
    r->line = peek(ps)->line;
    r->col = peek(ps)->col;
    r->states = row_states(ps, c);
    expect(ps, "|");
    ptok *ev_at = peek(ps);
    r->ev = event(ps, c, &msg);
    if (!ps->failed && r->ev.kind == EV_FENCE && r->states != row_states_all(c))
        perr(ps, ev_at, "fences act on no line: their state column must be '*'");
    expect(ps, "|");
    if (!ps->failed && !is_punct(peek(ps), "|"))
        r->guard = expr(ps, msg);
    expect(ps, "|");
    r->acts = gc_array(32, sizeof *r->acts);
    while (!ps->failed && !is_punct(peek(ps), "|")) {
        if (r->nacts == 32) {
            perr(ps, peek(ps), "too many actions in one row");
            return;
        }
        action(ps, c, &r->acts[r->nacts++], msg);
        if (!accept(ps, ";"))
            break;
    }
    expect(ps, "|");
    r->next = accept(ps, "-") || ps->failed ? -1 : state_ref(ps, c);
}

static void parse_table(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *n = ident(ps, "a controller name");
    pctrl *c = NULL;
    for (int i = 0; i < p->nctrls; i++)
        if (!strcmp(p->ctrls[i].name, n))
            c = &p->ctrls[i];
    if (!c && !ps->failed)
        perr(ps, at, "unknown controller '%s'", n);
    if (ps->failed)
        return;
    if (c->nrows)
        perr(ps, at, "second table for controller %s", c->name);
    c->rows = gc_array(MAXROWS, sizeof *c->rows);
    pctrl *saved = ps->cur;
    ps->cur = c;
    end_line(ps);
    while (!ps->failed && !is_word(peek(ps), "end")) {
        if (peek(ps)->kind == PT_EOF) {
            perr(ps, peek(ps), "table %s has no 'end'", c->name);
        } else if (peek(ps)->kind == PT_NL) {
            next(ps);
        } else if (c->nrows == MAXROWS) {
            perr(ps, peek(ps), "too many rows");
        } else {
            row(ps, c, &c->rows[c->nrows++]);
            end_line(ps);
        }
    }
    next(ps);
    ps->cur = saved;
}
