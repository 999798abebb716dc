/* protocol/parse.c: parser of protocol table files into a resolved
 * `protocol` (grammar: docs/protocol-tables.md).  Every name is resolved
 * here; the first error is reported as "file:line:col: error: ...". */
#include <gc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/textfile.h"
#include "protocol/internal.h"

#define MAXC 64   /* consts, messages, channels, controllers, invariants */
#define MAXROWS 1024
#define MAXACTS 32

typedef struct parser {
    const char *path;    /* the file being read (a variant's base, then the variant) */
    ptok *t;
    int pos;
    protocol *p;
    pctrl *cur;          /* controller being declared */
    FILE *errors;
    bool failed;
    bool variant;        /* reading the changes of a variant to its base */
    int ndecls;          /* declarations read so far from this file */
    int depth;           /* nesting of `extends` */
    int expr_depth;      /* parentheses, calls and prefix operators open */
    int home_limit;      /* in a home's expression: the homes it may use (-1: not in one) */
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

static ppos pos_at(const parser *ps, const ptok *t) { return (ppos){ps->path, t->line, t->col}; }

/* The first characters are compared before strcmp: the parser asks these
 * questions of nearly every token. */
static bool is_punct(const ptok *t, const char *s)
{
    return t->kind == PT_PUNCT && t->text[0] == s[0] && !strcmp(t->text, s);
}

static bool is_word(const ptok *t, const char *s)
{
    return t->kind == PT_IDENT && t->text[0] == s[0] && !strcmp(t->text, s);
}

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
/* NUMBER, CONST, or CONST + NUMBER / CONST - NUMBER (e.g. NCU-1); the
 * constant may have a factor, NUMBER * CONST (2*NADDR-1). */
static pbound bound(parser *ps)
{
    ptok *t = next(ps);
    long factor = 1;
    if (t->kind == PT_NUM && is_punct(peek(ps), "*")) {
        factor = t->num;
        next(ps);
        t = next(ps);
        if (t->kind != PT_IDENT)
            perr(ps, t, "expected a constant after '*', found '%s'", t->text);
    }
    if (t->kind == PT_NUM)
        return (pbound){-1, t->num, 1};
    if (t->kind == PT_IDENT) {
        int c = find(ps->p->const_names, ps->p->nconsts, t->text);
        if (c < 0)
            perr(ps, t, "unknown constant '%s'", t->text);
        pbound b = {c, 0, factor};
        bool plus = is_punct(peek(ps), "+");
        if (plus || is_punct(peek(ps), "-")) {
            next(ps);
            ptok *n = next(ps);
            if (n->kind != PT_NUM)
                perr(ps, n, "expected a number, found '%s'", n->text);
            b.num = plus ? n->num : -n->num;
        }
        return b;
    }
    perr(ps, t, "expected a number or a constant, found '%s'", t->text);
    return (pbound){-1, 0, 1};
}

static prange range(parser *ps)
{
    prange r = {false, {-1, 0, 1}, {-1, 0, 1}};
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

/* RANGE | 'bits' N | 'array' N 'of' RANGE | 'fifo' N 'of' RANGE */
static ptype type(parser *ps)
{
    ptype t = {T_SCALAR, {false, {-1, 0, 1}, {-1, 1, 1}}, {-1, 1, 1}, {NULL, 0, 0}};
    if (accept(ps, "bits")) {
        t.kind = T_BITS;
        t.len = bound(ps);
        return t;
    }
    if (is_word(peek(ps), "array") || is_word(peek(ps), "fifo")) {
        t.kind = is_word(next(ps), "array") ? T_ARRAY : T_FIFO;
        t.len = bound(ps);
        expect(ps, "of");
    }
    t.r = range(ps);
    return t;
}


/* ---- expressions ------------------------------------------------------ */
static int find_home(const protocol *p, const char *s)
{
    for (int i = 0; i < p->nhomes; i++)
        if (!strcmp(p->homes[i].name, s))
            return i;
    return -1;
}

static pexpr *mk(enum pex_kind k)
{
    pexpr *e = GC_MALLOC(sizeof *e);
    e->kind = k;
    return e;
}

static pexpr *expr(parser *ps, const pmsg *msg);

/* The declared type of a variable or line-field expression, else NULL. */
static const ptype *storage_type(const parser *ps, const pexpr *e)
{
    if (!ps->cur || e->idx < 0)
        return NULL;
    if (e->kind == EX_VAR)
        return &ps->cur->var_type[e->idx];
    if (e->kind == EX_LINEF)
        return &ps->cur->field_type[e->idx];
    return NULL;
}

static bool is_aggregate(const parser *ps, const pexpr *e)
{
    const ptype *t = storage_type(ps, e);
    return t && t->kind != T_SCALAR;
}

static pexpr *dotted(parser *ps, const ptok *t, const pmsg *msg)
{
    const char *f = ident(ps, "a field name");
    pexpr *e;
    if (!strcmp(t->text, "line") && !ps->cur) {
        perr(ps, t, "'line' is only defined in a controller's rows, final and invariants");
        return mk(EX_NUM);
    }
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

/* A variable or `line.FIELD`, for the aggregate operations. */
static pexpr *storage(parser *ps, const char *what)
{
    ptok *t = peek(ps);
    pexpr *e = NULL;
    if (is_word(t, "line")) {
        next(ps);
        expect(ps, ".");
        if (!ps->failed)
            e = dotted(ps, t, NULL);
    } else {
        int v = ps->cur ? find(ps->cur->vars, ps->cur->nvars, ident(ps, "a variable")) : -1;
        if (v < 0 && !ps->failed)
            perr(ps, t, "unknown variable '%s'", t->text);
        e = mk(EX_VAR);
        e->idx = v;
    }
    if (!ps->failed && !is_aggregate(ps, e))
        perr(ps, t, "%s needs a bits, array or fifo variable or field", what);
    return e;
}

/* len(X), has(X, e), last(X, e), cond(c, a, b), HOME(e): NULL when t
 * names none. */
static pexpr *call_expr(parser *ps, const ptok *t, const pmsg *msg)
{
    pexpr *e;
    int h = find_home(ps->p, t->text);
    bool last = is_word(t, "last") && is_punct(peek(ps), "(");   /* else a name like any other */
    if (is_word(t, "len") || is_word(t, "has") || last) {
        e = mk(is_word(t, "len") ? EX_LEN : is_word(t, "has") ? EX_HAS : EX_LAST);
        expect(ps, "(");
        e->l = storage(ps, t->text);
        if (e->kind != EX_LEN) {
            expect(ps, ",");
            e->r = expr(ps, msg);
        }
    } else if (is_word(t, "cond")) {
        e = mk(EX_COND);
        expect(ps, "(");
        e->l = expr(ps, msg);
        expect(ps, ",");
        e->r = expr(ps, msg);
        expect(ps, ",");
        e->r2 = expr(ps, msg);
    } else if (h >= 0 && is_punct(peek(ps), "(")) {
        if (ps->home_limit >= 0 && h >= ps->home_limit) {
            perr(ps, t, "home '%s' may use only the homes declared before it", t->text);
            return mk(EX_NUM);
        }
        e = mk(EX_HOME);
        e->idx = h;
        expect(ps, "(");
        e->r = expr(ps, msg);
    } else {
        return NULL;
    }
    expect(ps, ")");
    return e;
}

/* e[i] on a bits, array or fifo variable or field. */
static pexpr *maybe_index(parser *ps, pexpr *e, const ptok *t, const pmsg *msg)
{
    if (!is_punct(peek(ps), "["))
        return e;
    if (!is_aggregate(ps, e)) {
        perr(ps, t, "'%s' is not a bits, array or fifo variable or field", t->text);
        return e;
    }
    next(ps);
    pexpr *x = mk(EX_INDEX);
    x->l = e;
    x->r = expr(ps, msg);
    expect(ps, "]");
    return x;
}

/* A home is a function of the address: what else a row can read has no
 * value when the instance checks every home (proto_instantiate). */
static bool home_may_use(const ptok *t)
{
    static const char *const not_in_home[] = {"value", "state", "rmw", "cu", "gpu", "order"};
    for (size_t i = 0; i < sizeof not_in_home / sizeof not_in_home[0]; i++)
        if (is_word(t, not_in_home[i]))
            return false;
    return true;
}

static pexpr *name_expr(parser *ps, const ptok *t, const pmsg *msg)
{
    pexpr *e;
    int i;
    if (ps->home_limit >= 0 && !home_may_use(t)) {
        perr(ps, t, "a home is a function of addr and constants: '%s' has no value there", t->text);
        return mk(EX_NUM);
    }
    if ((is_word(t, "line") || is_word(t, "msg")) && accept(ps, "."))
        return maybe_index(ps, dotted(ps, t, msg), t, msg);
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
    if ((e = call_expr(ps, t, msg)) != NULL)
        return e;
    if (ps->cur && (i = find(ps->cur->vars, ps->cur->nvars, t->text)) >= 0) {
        e = mk(EX_VAR);
        e->idx = i;
        return maybe_index(ps, e, t, msg);
    } else if (ps->cur && (i = find(ps->cur->states, ps->cur->nstates, t->text)) >= 0) {
        e = mk(EX_NUM);
        e->num = i;
    } else if ((i = find(ps->p->const_names, ps->p->nconsts, t->text)) >= 0) {
        e = mk(EX_CONST);
    } else if (is_word(t, "cu") || is_word(t, "gpu")) {
        return mk(is_word(t, "cu") ? EX_CU : EX_GPU);
    } else if (is_word(t, "tid")) {
        return mk(EX_TID);
    } else if (is_word(t, "order")) {
        return mk(EX_ORDER);
    } else if ((i = find(vocab_orders, LIT_NPROTOCOL_ORDERS, t->text)) >= 0) {
        e = mk(EX_NUM);         /* an order name: compared with `order` */
        e->num = i;
        return e;
    } else {
        perr(ps, t, "unknown name '%s'", t->text);
        return mk(EX_NUM);
    }
    e->idx = i;
    return e;
}

static pexpr *primary(parser *ps, const pmsg *msg);

/* Opens one level of nesting (a parenthesis, a call, a prefix operator);
 * false, after an error at t, past PROTO_MAX_EXPR_DEPTH. */
static bool enter(parser *ps, const ptok *t)
{
    if (++ps->expr_depth <= PROTO_MAX_EXPR_DEPTH)
        return true;
    perr(ps, t, "expression nested too deeply (more than %d parentheses, calls or prefix operators)",
         PROTO_MAX_EXPR_DEPTH);
    return false;
}

/* `!e`, `-e` (t, consumed, is the first operator): the operators are read
 * in a loop and count as nesting, since evaluating them recurses. */
static pexpr *prefixed(parser *ps, const pmsg *msg, const ptok *t)
{
    int saved = ps->expr_depth;
    pexpr *top = NULL, *last = NULL;
    for (;;) {
        pexpr *e = mk(is_punct(t, "!") ? EX_NOT : EX_NEG);
        e->l = mk(EX_NUM);
        if (last)
            last->l = e;
        else
            top = e;
        last = e;
        if (!enter(ps, t) || !(is_punct(peek(ps), "!") || is_punct(peek(ps), "-")))
            break;
        t = next(ps);
    }
    if (!ps->failed)
        last->l = primary(ps, msg);
    ps->expr_depth = saved;
    return top;
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
    if (is_punct(t, "!") || is_punct(t, "-"))
        return prefixed(ps, msg, t);
    perr(ps, t, "expected an expression, found '%s'", t->text);
    return mk(EX_NUM);
}

/* The binary operator (enum expr_op) the next token spells, or -1. */
static int binop_at(parser *ps)
{
    for (int op = 0; op < EXPR_NOPS; op++)
        if (is_punct(peek(ps), vocab_expr_ops[op]))
            return op;
    return -1;
}

/* The operands and operators of a chain, in GC memory once past a few. */
typedef struct chain { pexpr **terms; enum expr_op *ops; int n, cap; } chain;

static void chain_add(chain *c, enum expr_op op, pexpr *term)
{
    if (c->n == c->cap) {
        c->cap *= 2;
        pexpr **terms = gc_array((size_t)c->cap, sizeof *terms);
        enum expr_op *ops = GC_MALLOC_ATOMIC(sizeof *ops * (size_t)c->cap);
        memcpy(terms, c->terms, sizeof *terms * (size_t)c->n);
        memcpy(ops, c->ops, sizeof *ops * (size_t)(c->n - 1));
        c->terms = terms;
        c->ops = ops;
    }
    c->ops[c->n - 1] = op;
    c->terms[c->n++] = term;
}

/* Operators of precedence `min` and above, folded from the left: one
 * operator is an EX_BIN node, more are an EX_CHAIN (a loop to evaluate,
 * however long).  Operands recurse only to higher precedences. */
static pexpr *expr_prec(parser *ps, const pmsg *msg, int min)
{
    pexpr *few_terms[8];
    enum expr_op few_ops[8];
    chain c = {few_terms, few_ops, 1, 8};
    c.terms[0] = primary(ps, msg);
    int b;
    while (!ps->failed && (b = binop_at(ps)) >= 0 && proto_op_prec[b] >= min) {
        next(ps);
        chain_add(&c, (enum expr_op)b, expr_prec(ps, msg, proto_op_prec[b] + 1));
    }
    if (c.n == 1)
        return c.terms[0];
    pexpr *e = mk(c.n == 2 ? EX_BIN : EX_CHAIN);
    if (c.n == 2) {
        e->op = c.ops[0];
        e->l = c.terms[0];
        e->r = c.terms[1];
        return e;
    }
    e->nterms = c.n;
    e->terms = c.terms == few_terms ? gc_array((size_t)c.n, sizeof *e->terms) : c.terms;
    e->ops = c.ops == few_ops ? GC_MALLOC_ATOMIC(sizeof *e->ops * (size_t)c.n) : c.ops;
    if (c.terms == few_terms) {
        memcpy(e->terms, c.terms, sizeof *e->terms * (size_t)c.n);
        memcpy(e->ops, c.ops, sizeof *e->ops * (size_t)(c.n - 1));
    }
    return e;
}

static pexpr *expr(parser *ps, const pmsg *msg)
{
    ptok *at = peek(ps);
    int saved = ps->expr_depth;
    pexpr *e = enter(ps, at) ? expr_prec(ps, msg, 1) : mk(EX_NUM);
    ps->expr_depth = saved;
    return e;
}

/* ---- declarations ------------------------------------------------------ */
static void decl_const(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *n = ident(ps, "a constant name");
    int c = find(p->const_names, p->nconsts, n);
    if (c >= 0 && (!ps->variant || c < PB_NBUILTIN))
        perr(ps, at, "constant '%s' declared twice", n);
    if (c < 0 && p->nconsts == MAXC)
        perr(ps, at, "too many constants");
    expect(ps, "=");
    ptok *v = next(ps);
    if (v->kind != PT_NUM)
        perr(ps, v, "expected a number, found '%s'", v->text);
    if (ps->failed)
        return;
    if (c < 0) {        /* a variant's new value for a base constant keeps its index */
        c = p->nconsts++;
        p->const_names[c] = n;
    }
    p->const_values[c] = v->num;
}

static void decl_message(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    if (p->nmsgs == MAXC) {
        perr(ps, at, "too many messages (at most %d)", MAXC);
        return;
    }
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
        if (m->nfields == PROTO_MAX_FIELDS) {
            perr(ps, at, "too many fields (at most %d, addr included)", PROTO_MAX_FIELDS);
            break;
        }
        m->fields[m->nfields] = ident(ps, "a field name");
        m->range[m->nfields] = (prange){true, {-1, 0, 1}, {-1, 0, 1}};
        if (!p->has_value)
            perr(ps, at, "message fields need the value declaration first");
        if (accept(ps, ":"))
            m->range[m->nfields] = range(ps);
        m->nfields++;
    }
    expect(ps, ")");
    m->cu_field = find(m->fields, m->nfields, "cu");
    m->gpu_field = find(m->fields, m->nfields, "gpu");
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

static const char *const level_names[] = {"per cu", "per gpu", "shared", "sliced"};

/* 'per' 'cu' | 'per' 'gpu' | 'shared' | 'sliced' BOUND */
static pplace placement(parser *ps)
{
    pplace pl = {LV_CU, {-1, 1, 1}};
    if (accept(ps, "shared")) {
        pl.level = LV_SYS;
    } else if (accept(ps, "sliced")) {
        pl.level = LV_SLICE;
        pl.slices = bound(ps);
    } else {
        expect(ps, "per");
        if (accept(ps, "gpu"))
            pl.level = LV_GPU;
        else if (!accept(ps, "cu") && !ps->failed)
            perr(ps, peek(ps), "expected 'cu' or 'gpu', found '%s'", peek(ps)->text);
    }
    return pl;
}

static bool same_bound(pbound a, pbound b) { return a.cst == b.cst && a.num == b.num && a.mul == b.mul; }

/* A channel leads to a controller at its own level or a coarser one (a
 * CU's inbox to its GPU's or the system's controller); a sliced channel
 * only to a controller with the same slices. */
static void check_channel_target(parser *ps, const pchan *c, const ptok *at)
{
    const pctrl *to = &ps->p->ctrls[c->to];
    bool sliced = c->level == LV_SLICE || to->level == LV_SLICE;
    if (sliced ? c->level != to->level || !same_bound(c->slices, to->slices) : to->level < c->level)
        perr(ps, at, "a channel %s cannot lead to a controller %s%s", level_names[c->level],
             level_names[to->level], sliced ? " (a sliced channel leads to a controller with the same slices)" : "");
}

/* A variant may declare a channel again: the new declaration replaces the
 * base's (rows refer to channels by index). */
static void decl_channel(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *name = ident(ps, "a channel name");
    int idx = p->nchans;
    for (int i = 0; i < p->nchans; i++)
        if (!strcmp(p->chans[i].name, name)) {
            if (!ps->variant)
                perr(ps, at, "channel '%s' declared twice", name);
            idx = i;
        }
    if (idx == MAXC)
        perr(ps, at, "too many channels");
    if (ps->failed)
        return;
    pchan *c = &p->chans[idx];
    pplace pl = placement(ps);
    *c = (pchan){name, pl.level, pl.slices, false, false, 0, 0, {-1, 0, 1}, 0, pos_at(ps, at)};
    expect(ps, "from");
    c->per_source = accept(ps, "each");
    c->from = ctrl_index(ps);
    expect(ps, "to");
    at = peek(ps);
    c->to = ctrl_index(ps);
    if (!ps->failed)
        check_channel_target(ps, c, at);
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
    if (!ps->failed && idx == p->nchans)
        p->nchans++;
}

/* A variant may name a base controller again, with the same placement,
 * to add states, fields and variables to it. */
static bool reopen_controller(parser *ps, const ptok *at)
{
    protocol *p = ps->p;
    for (int i = 0; i < p->nctrls; i++) {
        if (strcmp(p->ctrls[i].name, at->text))
            continue;
        next(ps);
        if (!ps->variant) {
            perr(ps, at, "controller '%s' declared twice", at->text);
            return true;
        }
        pplace pl = placement(ps);
        bool proc = accept(ps, "processor");
        if (!ps->failed && (pl.level != p->ctrls[i].level || !same_bound(pl.slices, p->ctrls[i].slices) ||
                            proc != p->ctrls[i].processor))
            perr(ps, at, "a variant cannot change the placement of controller %s", at->text);
        ps->cur = &p->ctrls[i];
        return true;
    }
    return false;
}

static void decl_controller(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    if (at->kind == PT_IDENT && reopen_controller(ps, at))
        return;
    if (p->nctrls == MAXC) {
        perr(ps, at, "too many controllers (at most %d)", MAXC);
        return;
    }
    pctrl *c = &p->ctrls[p->nctrls];
    c->at = pos_at(ps, at);
    c->name = ident(ps, "a controller name");
    pplace pl = placement(ps);
    c->level = pl.level;
    c->slices = pl.slices;
    if (accept(ps, "processor")) {
        if (p->proc_ctrl >= 0)
            perr(ps, at, "only one controller takes processor events");
        if (c->level != LV_CU)
            perr(ps, at, "the processor controller must be 'per cu'");
        p->proc_ctrl = p->nctrls;
        c->processor = true;
    }
    c->states = gc_array(PROTO_MAX_STATES, sizeof *c->states);
    c->states[0] = "-";
    c->nstates = 1;
    c->fields = gc_array(PROTO_MAX_FIELDS, sizeof *c->fields);
    c->field_type = gc_array(PROTO_MAX_FIELDS, sizeof *c->field_type);
    c->field_memory = gc_array(PROTO_MAX_FIELDS, sizeof *c->field_memory);
    c->field_keep = gc_array(PROTO_MAX_FIELDS, sizeof *c->field_keep);
    c->vars = gc_array(MAXC, sizeof *c->vars);
    c->var_type = gc_array(MAXC, sizeof *c->var_type);
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
    bool adding = ps->variant && c->nrows;    /* a variant adds states to a base controller */
    if (!adding && (c->nstates > 1 || c->nrows))
        perr(ps, kw, "line states of %s declared twice", c->name);
    if (!adding)
        c->nstates = 0;
    int first = c->nstates;     /* states listed here start at `first`; a base state may be named again */
    while (!ps->failed && peek(ps)->kind == PT_IDENT) {
        ptok *at = peek(ps);
        const char *s = ident(ps, "a state name");
        int known = find(c->states, c->nstates, s);
        if (known >= first)
            perr(ps, at, "state '%s' listed twice", s);
        if (known >= 0)
            continue;
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
    ptype ty = type(ps);
    ty.at = pos_at(ps, at);
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
    if (mem && ty.kind != T_SCALAR)
        perr(ps, at, "only a scalar field can be initialised from memory");
    if (ps->failed)
        return;
    c->field_memory[c->nfields] = mem;
    c->field_keep[c->nfields] = keep;
    c->any_keep |= keep;
    c->field_type[c->nfields] = ty;
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
    ptype ty = type(ps);
    ty.at = pos_at(ps, at);
    if (ps->failed)
        return;
    c->var_type[c->nvars] = ty;
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
    p->mem_home = -1;
    if (p->mem_field < 0)
        perr(ps, at, "controller %s has no line field '%s'", c->name, f);
    else if (c->field_type[p->mem_field].kind != T_SCALAR)
        perr(ps, at, "the memory field must be a scalar");
    if (accept(ps, "at")) {
        ptok *h = peek(ps);
        p->mem_home = find_home(p, ident(ps, "a home name"));
        if (p->mem_home < 0 && !ps->failed)
            perr(ps, h, "unknown home '%s'", h->text);
    }
    if (!ps->failed && c->level != LV_SYS && p->mem_home < 0)
        perr(ps, at, "memory in a controller that is not 'shared' needs 'at HOME'");
    if (!ps->failed && c->level == LV_CU)
        perr(ps, at, "the memory controller cannot be 'per cu'");
}

/* `home NAME = EXPR`: a function of `addr` naming an instance (a GPU, a
 * slice); a variant may define it again. */
static void decl_home(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *n = ident(ps, "a home name");
    int h = find_home(p, n);
    if (h >= 0 && !ps->variant)
        perr(ps, at, "home '%s' declared twice", n);
    if (h < 0 && p->nhomes == MAXC)
        perr(ps, at, "too many homes");
    expect(ps, "=");
    pctrl *saved = ps->cur;
    ps->cur = NULL;
    ps->home_limit = h < 0 ? p->nhomes : h;   /* no cycle of homes: each uses earlier ones */
    pexpr *e = ps->failed ? NULL : expr(ps, NULL);
    ps->home_limit = -1;
    ps->cur = saved;
    if (ps->failed)
        return;
    if (h < 0)
        h = p->nhomes++;
    p->homes[h] = (phome){n, e, pos_at(ps, at)};
}

static void decl_invariant(parser *ps)
{
    protocol *p = ps->p;
    ptok *at = peek(ps);
    const char *n = ident(ps, "an invariant name");
    int k = p->ninvs;
    for (int i = 0; i < p->ninvs; i++)
        if (!strcmp(p->invs[i].name, n)) {
            if (!ps->variant)
                perr(ps, at, "invariant '%s' declared twice", n);
            k = i;      /* a variant restates a base invariant */
        }
    if (k == MAXC) {
        perr(ps, at, "too many invariants (at most %d)", MAXC);
        return;
    }
    pinv *v = &p->invs[k];
    v->name = n;
    v->ctrl = ctrl_index(ps);
    expect(ps, ":");
    if (ps->failed)
        return;
    pctrl *saved = ps->cur;
    ps->cur = &p->ctrls[v->ctrl];
    v->e = expr(ps, NULL);
    ps->cur = saved;
    if (!ps->failed && k == p->ninvs)
        p->ninvs++;
}

static void parse_table(parser *ps);
static void decl_protocol(parser *ps, const ptok *kw);
static void send_dest(parser *ps, pact *a, const pmsg *rmsg);
static bool same_event(const pevent *a, const pevent *b);

static void declaration(parser *ps)
{
    ps->ndecls++;
    ptok *kw = next(ps);
    if (kw->kind != PT_IDENT) {
        perr(ps, kw, "expected a declaration, found '%s'", kw->text);
        return;
    }
    if (is_word(kw, "protocol"))
        decl_protocol(ps, kw);
    else if (is_word(kw, "const"))
        decl_const(ps);
    else if (is_word(kw, "value")) {
        ps->p->value_at = pos_at(ps, kw);
        decl_value(ps);
    }
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
    } else if (is_word(kw, "hold")) {
        if (need_ctrl(ps, kw) && !ps->cur->processor)
            perr(ps, kw, "'hold' holds processor events, and %s is not 'processor'", ps->cur->name);
        if (!ps->failed)
            ps->cur->hold = expr(ps, NULL);
    } else if (is_word(kw, "memory"))
        decl_memory(ps);
    else if (is_word(kw, "invariant"))
        decl_invariant(ps);
    else if (is_word(kw, "home"))
        decl_home(ps);
    else if (is_word(kw, "preempt"))
        ps->p->preempt = true;
    else if (is_word(kw, "table"))
        parse_table(ps);
    else
        perr(ps, kw, "unknown declaration '%s'", kw->text);
    end_line(ps);
}

static const char *const builtin_consts[PB_NBUILTIN] = {"NCU", "NGPU", "NADDR", "NTHREADS", "MAXOPS"};

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
    p->homes = gc_array(MAXC, sizeof *p->homes);
    p->mem_ctrl = p->mem_field = p->proc_ctrl = p->mem_home = -1;
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

/* The whole file as a GC string, or NULL after an error: at `from` (the
 * `extends` line that names a base), else at the file itself. */
static char *read_text(const char *path, const ppos *from, FILE *errors, size_t *len)
{
    const char *why;
    char *text = textfile_read(path, PROTO_MAX_FILE_BYTES, len, &why);
    if (!text && from)
        diag_error(errors, from->path, from->line, from->col, "cannot read the base protocol '%s': %s",
                   path, why);
    else if (!text)
        diag_error(errors, path, 1, 1, "%s", why);
    return text;
}

/* The lexer reads C strings: a NUL byte would end the file early. */
static bool no_nul(const char *path, const char *text, size_t len, FILE *errors)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return true;
    int line, col;
    textfile_position(text, (size_t)(nul - text), &line, &col);
    diag_error(errors, path, line, col, "NUL byte in a protocol file");
    return false;
}

/* Reads the declarations of one file into ps->p; false on error. */
static bool parse_source(parser *ps, const char *text)
{
    ptok *toks = ptok_split(ps->path, text, ps->errors);
    if (!toks)
        return false;
    ps->t = toks;
    ps->pos = 0;
    while (!ps->failed && peek(ps)->kind != PT_EOF) {
        if (peek(ps)->kind == PT_NL)
            next(ps);
        else
            declaration(ps);
    }
    protocol *p = ps->p;        /* after the base's, when this is a variant */
    const char **src = gc_array((size_t)p->nsources + 1, sizeof *src);
    if (p->nsources)
        memcpy(src, p->sources, sizeof *src * (size_t)p->nsources);
    src[p->nsources++] = ps->path;
    p->sources = src;
    return !ps->failed;
}

/* The base of a variant: a path relative to the variant's directory. */
static const char *base_path(const char *variant, const char *base)
{
    const char *slash = strrchr(variant, '/');
    if (base[0] == '/' || !slash)
        return base;
    size_t d = (size_t)(slash - variant) + 1;
    char *out = GC_MALLOC_ATOMIC(d + strlen(base) + 1);
    memcpy(out, variant, d);
    strcpy(out + d, base);
    return out;
}

/* `protocol NAME [extends "BASE.proto"]`.  A variant reads its base into
 * the same protocol first, then its own declarations as changes. */
static void decl_protocol(parser *ps, const ptok *kw)
{
    const char *name = ident(ps, "a protocol name");
    if (!accept(ps, "extends")) {
        ps->p->name = name;
        ps->p->decl_at = pos_at(ps, kw);
        return;
    }
    ptok *b = next(ps);
    if (b->kind != PT_STRING) {
        perr(ps, b, "expected the base file as a string, found '%s'", b->text);
        return;
    }
    if (ps->ndecls > 1) {
        perr(ps, kw, "'extends' must be in the first declaration");
        return;
    }
    if (ps->depth >= PROTO_MAX_EXTENDS_DEPTH) {
        perr(ps, b, "variants nested too deep (more than %d; a cycle of 'extends'?)",
             PROTO_MAX_EXTENDS_DEPTH);
        return;
    }
    const char *path = base_path(ps->path, b->text);
    ppos from = pos_at(ps, b);
    size_t len;
    char *text = read_text(path, &from, ps->errors, &len);
    parser sub = {.path = path, .p = ps->p, .errors = ps->errors, .depth = ps->depth + 1, .home_limit = -1};
    if (text && !no_nul(path, text, len, ps->errors))
        text = NULL, ps->failed = true;
    if (!text || !parse_source(&sub, text)) {
        if (text)
            fprintf(ps->errors, "%s:%d:%d: note: in the base of this variant\n", ps->path, b->line, b->col);
        ps->failed = true;
        return;
    }
    ps->p->name = name;
    ps->p->decl_at = pos_at(ps, kw);
    ps->variant = true;
    ps->cur = NULL;
}

/* Two event patterns some event matches both of. */
static bool events_overlap(const pevent *a, const pevent *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == EV_RECV)
        return a->chan == b->chan && a->msg == b->msg;
    if (a->kind == EV_INTERNAL)
        return a->internal == b->internal;
    return (a->order == PEV_ANY || b->order == PEV_ANY || a->order == b->order) &&
           (a->scope == PEV_ANY || b->scope == PEV_ANY || a->scope == b->scope) && a->remote == b->remote;
}

/* A guarded row followed by a different, overlapping pattern: when the
 * guard is false the event is taken by the later row instead of waiting,
 * which is rarely what the writer meant (a release falling through to a
 * catch-all store row does not wait).  Rows with the same event pattern
 * are a deliberate case split (by state or guard) and are not reported. */
static void warn_fall_through(const protocol *p, FILE *errors)
{
    for (int c = 0; c < p->nctrls; c++) {
        const pctrl *pc = &p->ctrls[c];
        for (int r = 0; r < pc->nrows; r++) {
            const prow *g = &pc->rows[r];
            for (int k = r + 1; g->guard && k < pc->nrows; k++) {
                const prow *l = &pc->rows[k];
                if (!(g->states & l->states) || !events_overlap(&g->ev, &l->ev) || same_event(&g->ev, &l->ev))
                    continue;
                fprintf(errors, "%s:%d:%d: warning: when this row's guard is false, its events are taken by the row at %s:%d instead of waiting\n",
                        g->path, g->line, g->col, l->path, l->line);
                break;
            }
        }
    }
}

protocol *protocol_parse_buffer(const char *path, const char *text, size_t len, FILE *errors)
{
    if (len > PROTO_MAX_FILE_BYTES) {
        diag_error(errors, path, 1, 1, "file too large (more than %u bytes)", PROTO_MAX_FILE_BYTES);
        return NULL;
    }
    return no_nul(path, text, len, errors) ? protocol_parse_text(path, text, errors) : NULL;
}

protocol *protocol_parse_text(const char *path, const char *text, FILE *errors)
{
    parser ps = {.path = path, .p = new_protocol(path), .errors = errors, .home_limit = -1};
    if (!parse_source(&ps, text))
        return NULL;
    check_complete(&ps);
    if (!ps.failed)
        warn_fall_through(ps.p, errors);
    return ps.failed ? NULL : ps.p;
}

protocol *protocol_load(const char *path, FILE *errors)
{
    size_t len;
    char *text = read_text(path, NULL, errors, &len);
    return text ? protocol_parse_buffer(path, text, len, errors) : NULL;
}

const char *protocol_name(const protocol *p) { return p->name; }

/* ---- tables ------------------------------------------------------------ */

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

/* '*': every state, including states a variant adds to the controller
 * after this row was read. */
static uint64_t row_states_all(void) { return ~0ull; }

static uint64_t row_states(parser *ps, pctrl *c)
{
    if (accept(ps, "*"))
        return row_states_all();
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

/* After KIND.ORDER: [ '.' SCOPE ] [ '.' 'remote' ], or '.' 'remote' alone
 * (any scope).  Without a scope a weak event has none; `remote` makes the
 * row match only remote-scope-promotion forms (and only them). */
static void processor_event_tail(parser *ps, pevent *ev)
{
    bool scoped = false;
    if (accept(ps, ".")) {
        if (accept(ps, "remote")) {
            ev->remote = 1;
            return;
        }
        ev->scope = name_or_any(ps, vocab_scopes, LIT_NSCOPES, "scope");
        scoped = true;
    }
    if (scoped && accept(ps, ".")) {
        ptok *at = peek(ps);
        if (!accept(ps, "remote") && !ps->failed)
            perr(ps, at, "expected 'remote' after the scope, found '%s'", at->text);
        ev->remote = 1;
    }
    if (!scoped && ev->order == ORD_WEAK)
        ev->scope = SCOPE_NONE;
}

static pevent event(parser *ps, pctrl *c, const pmsg **msg)
{
    pevent ev = {EV_INTERNAL, PEV_ANY, PEV_ANY, -1, -1, -1, 0};
    ptok *at = peek(ps);
    const char *w = ident(ps, "an event");
    int k = find(vocab_event_kinds, NPROCESSOR_EVENT_KINDS, w);
    if (ps->failed)
        return ev;
    if (!strcmp(w, "recv")) {
        recv_event(ps, c, &ev, msg);
    } else if (k >= 0) {
        if (!c->processor)
            perr(ps, at, "processor event '%s' in the table of %s, which is not 'processor'", w, c->name);
        ev.kind = (enum pev_kind)k;
        expect(ps, ".");
        ev.order = name_or_any(ps, vocab_orders, LIT_NPROTOCOL_ORDERS, "order");
        processor_event_tail(ps, &ev);
    } else {
        ev.internal = find(c->internal, c->ninternal, w);
        if (ev.internal < 0 && c->ninternal == MAXC) {
            perr(ps, at, "too many internal events in the table of %s (at most %d)", c->name, MAXC);
        } else if (ev.internal < 0) {
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
    if (!ps->failed && accept(ps, "["))
        send_dest(ps, a, rmsg);
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

/* CH[e], CH[each BITS], CH[all]: which instances of the channel get the message. */
static void send_dest(parser *ps, pact *a, const pmsg *rmsg)
{
    if (accept(ps, "all")) {
        a->dest = D_ALL;
    } else if (accept(ps, "each")) {
        a->dest = D_EACH;
        a->index = storage(ps, "'each'");
        if (!ps->failed && storage_type(ps, a->index)->kind != T_BITS)
            perr(ps, &ps->t[ps->pos - 1], "'each' needs a bits variable or field");
    } else {
        a->dest = D_INDEX;
        a->index = expr(ps, rmsg);
    }
    expect(ps, "]");
}

/* push X e | pop X | clear X, on a fifo (push, pop) or any aggregate (clear). */
static void aggregate_action(parser *ps, pact *a, const ptok *t, const pmsg *rmsg)
{
    a->kind = is_word(t, "push") ? A_PUSH : is_word(t, "pop") ? A_POP : A_CLEAR;
    ptok *at = peek(ps);
    pexpr *x = storage(ps, t->text);
    if (ps->failed)
        return;
    a->idx = x->idx;
    a->on_line = x->kind == EX_LINEF;
    if (a->kind != A_CLEAR && storage_type(ps, x)->kind != T_FIFO)
        perr(ps, at, "'%s' needs a fifo variable or field", t->text);
    if (a->kind == A_PUSH)
        a->e = expr(ps, rmsg);
}

static const struct { const char *w; enum pact_kind k; } simple_acts[] = {
    {"done", A_DONE}, {"wait", A_WAIT}, {"stall", A_STALL},
    {"invalidate", A_INV}, {"invalidate_all", A_INV_ALL},
};

/* After the target of an assignment: `[e]` selects an element of an
 * aggregate; a whole aggregate cannot be assigned (clear it). */
static void assign_target(parser *ps, pact *a, const ptype *ty, const ptok *t, const pmsg *rmsg)
{
    if (accept(ps, "[")) {
        if (ty->kind == T_SCALAR || ty->kind == T_FIFO)
            perr(ps, t, "'%s' is not a bits or array variable or field", t->text);
        a->index = expr(ps, rmsg);
        expect(ps, "]");
    } else if (ty->kind != T_SCALAR && !ps->failed) {
        perr(ps, t, "'%s' is not a scalar: assign an element, or clear it", t->text);
    }
}

static void assign_action(parser *ps, pctrl *c, pact *a, const ptok *t, const pmsg *rmsg)
{
    if (is_word(t, "line")) {
        expect(ps, ".");
        ptok *at = peek(ps);
        a->kind = A_LINEF;
        a->on_line = true;
        a->idx = find(c->fields, c->nfields, ident(ps, "a field name"));
        if (a->idx < 0 && !ps->failed)
            perr(ps, at, "controller %s has no line field '%s'", c->name, at->text);
        if (!ps->failed)
            assign_target(ps, a, &c->field_type[a->idx], at, rmsg);
        if (is_punct(peek(ps), "+=") || is_punct(peek(ps), "-=")) {
            /* line.f += e is line.f := line.f + e */
            pexpr *self = mk(EX_LINEF), *sum = mk(EX_BIN);
            self->idx = a->idx;
            if (a->index) {
                pexpr *el = mk(EX_INDEX);
                el->l = self;
                el->r = a->index;
                self = el;
            }
            sum->op = is_punct(next(ps), "+=") ? OPX_ADD : OPX_SUB;
            sum->l = self;
            sum->r = expr(ps, rmsg);
            a->e = sum;
            return;
        }
        expect(ps, ":=");
    } else if (is_word(t, "reg")) {
        a->kind = A_REG;
        expect(ps, ":=");
    } else {
        a->idx = find(c->vars, c->nvars, t->text);
        if (a->idx < 0)
            perr(ps, t, "unknown action or variable '%s'", t->text);
        if (!ps->failed)
            assign_target(ps, a, &c->var_type[a->idx], t, rmsg);
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
    } else if (is_word(t, "push") || is_word(t, "pop") || is_word(t, "clear")) {
        aggregate_action(ps, a, t, rmsg);
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
    r->path = ps->path;
    r->line = peek(ps)->line;
    r->col = peek(ps)->col;
    r->states = row_states(ps, c);
    expect(ps, "|");
    ptok *ev_at = peek(ps);
    r->ev = event(ps, c, &msg);
    if (!ps->failed && r->ev.kind == EV_FENCE && r->states != row_states_all())
        perr(ps, ev_at, "fences act on no line: their state column must be '*'");
    expect(ps, "|");
    if (!ps->failed && !is_punct(peek(ps), "|"))
        r->guard = expr(ps, msg);
    if (!ps->failed && is_punct(peek(ps), "="))     /* C's slip: `acks = 0` for `acks == 0` */
        perr(ps, peek(ps), "a guard is a condition: write '==' to compare ('=' assigns nothing here)");
    expect(ps, "|");
    pact acts[MAXACTS];     /* read here, kept at their number */
    memset(acts, 0, sizeof acts);
    while (!ps->failed && !is_punct(peek(ps), "|")) {
        if (r->nacts == MAXACTS) {
            perr(ps, peek(ps), "too many actions in one row (at most %d)", MAXACTS);
            return;
        }
        action(ps, c, &acts[r->nacts++], msg);
        if (!accept(ps, ";"))
            break;
    }
    r->acts = gc_array((size_t)(r->nacts ? r->nacts : 1), sizeof *r->acts);
    memcpy(r->acts, acts, sizeof *acts * (size_t)r->nacts);
    expect(ps, "|");
    r->next = accept(ps, "-") || ps->failed ? -1 : state_ref(ps, c);
}

static bool expr_equal(const pexpr *a, const pexpr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->op != b->op || a->idx != b->idx || a->num != b->num ||
        a->nterms != b->nterms)
        return false;
    for (int i = 0; i < a->nterms; i++)
        if ((i && a->ops[i - 1] != b->ops[i - 1]) || !expr_equal(a->terms[i], b->terms[i]))
            return false;
    return expr_equal(a->l, b->l) && expr_equal(a->r, b->r) && expr_equal(a->r2, b->r2);
}

static bool same_event(const pevent *a, const pevent *b)
{
    return a->kind == b->kind && a->order == b->order && a->scope == b->scope && a->chan == b->chan &&
           a->msg == b->msg && a->internal == b->internal && a->remote == b->remote;
}

/* Room for one more row: a table grows as its rows are read (to MAXROWS,
 * which the callers check). */
static void room_for_row(pctrl *c)
{
    if (c->nrows < c->rows_cap)
        return;
    int cap = c->rows_cap ? 2 * c->rows_cap : 16;
    prow *grown = gc_array((size_t)cap, sizeof *grown);
    if (c->nrows)
        memcpy(grown, c->rows, sizeof *grown * (size_t)c->nrows);
    c->rows = grown;
    c->rows_cap = cap;
}

/* `- STATES | EVENT [| GUARD]` in a variant: removes the rows with exactly
 * that state column and event (and that guard, when one is given);
 * returns the position of the first one removed. */
static int remove_rows(parser *ps, pctrl *c)
{
    const pmsg *msg = NULL;
    ptok *at = peek(ps);
    uint64_t states = row_states(ps, c);
    expect(ps, "|");
    pevent ev = event(ps, c, &msg);
    bool by_guard = accept(ps, "|");
    pexpr *guard = by_guard && peek(ps)->kind != PT_NL ? expr(ps, msg) : NULL;
    if (ps->failed)
        return 0;
    int first = -1, kept = 0;
    for (int r = 0; r < c->nrows; r++) {
        const prow *row = &c->rows[r];
        if (row->states == states && same_event(&row->ev, &ev) && (!by_guard || expr_equal(row->guard, guard))) {
            first = first < 0 ? kept : first;
            continue;
        }
        c->rows[kept++] = *row;
    }
    if (first < 0)
        perr(ps, at, "no row of the base table %s has this state column and event%s", c->name,
             by_guard ? " and guard" : "");
    c->nrows = kept;
    return first;
}

/* One line of a variant's table: `- key` or `+ row`; *at is where the
 * next added row goes (-1: at the end). */
static void table_change(parser *ps, pctrl *c, int *at)
{
    if (accept(ps, "-")) {
        *at = remove_rows(ps, c);
        return;
    }
    if (!accept(ps, "+")) {
        perr(ps, peek(ps), "a variant changes a table with '- STATES | EVENT' and '+ ROW' lines, found '%s'",
             peek(ps)->text);
        return;
    }
    int k = *at < 0 ? c->nrows : *at;
    prow added = {0};
    row(ps, c, &added);
    room_for_row(c);
    memmove(&c->rows[k + 1], &c->rows[k], sizeof *c->rows * (size_t)(c->nrows - k));
    c->rows[k] = added;
    c->nrows++;
    if (*at >= 0)
        (*at)++;
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
    if (c->nrows && !ps->variant)
        perr(ps, at, "second table for controller %s", c->name);
    pctrl *saved = ps->cur;
    ps->cur = c;
    end_line(ps);
    int insert_at = -1;
    while (!ps->failed && !is_word(peek(ps), "end")) {
        if (peek(ps)->kind == PT_EOF) {
            perr(ps, peek(ps), "table %s has no 'end'", c->name);
        } else if (peek(ps)->kind == PT_NL) {
            next(ps);
        } else if (c->nrows == MAXROWS) {
            perr(ps, peek(ps), "too many rows");
        } else if (ps->variant) {
            table_change(ps, c, &insert_at);
            end_line(ps);
        } else {
            room_for_row(c);
            row(ps, c, &c->rows[c->nrows++]);
            end_line(ps);
        }
    }
    next(ps);
    ps->cur = saved;
}
