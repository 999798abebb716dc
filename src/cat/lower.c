/*
 * cat/lower.c: the surface form of a model to its core form (see
 * cat/ast.h), by evaluating, once when the model is loaded, everything in
 * herd's language that does not depend on the execution: functions
 * (expanded at each application), tuples, tags, explicit sets, `match` on
 * them, `try`, `let ... in`, procedures and `call`, `forall`, `enum`.
 * What is left is set and relation code over the execution, which the
 * compiler turns into allocation-free instructions.
 *
 * Bindings are lazy, as in herd: `let x = e` is lowered the first time
 * something uses x, and only then emitted (under a unique name, so that
 * later rebindings of a name never capture it).  A binding nothing uses is
 * never evaluated, so its errors go unreported and its code never runs
 * (herd's stdlib defines many such).
 *
 * `with x from e` needs e to be an order generator: linearisations(S, r),
 * or herd's generate_orders(S, r) / generate_cos(r) of cross.cat, which are
 * recognised by name (their bodies, recursive functions over sets of
 * relations, are not evaluated): every union over the location classes of
 * S of a linearisation of r on the class.  When S holds only writes and
 * the model's coherence orders are total, such an order is the restriction
 * to S of one of the coherence orders the enumerator already ranges over,
 * so x becomes `co & (S * S)` and the statement a check that it extends r.
 */
#include "cat/ast.h"

#include <gc.h>
#include <stdarg.h>
#include <string.h>

#include "base/diag.h"

#define MAX_DEPTH 3000

typedef struct lenv lenv;
typedef struct lval lval;

enum lval_kind {
    LV_RT,        /* a set of events or a relation, known per execution: a core expression */
    LV_EMPTY,     /* 0: empty set, relation or set of values */
    LV_CLOSURE,   /* a function */
    LV_PRIM,      /* a built-in function */
    LV_TUPLE,
    LV_TAG,
    LV_SET,       /* a set of values known now ({...}, enum) */
    LV_ORDERS,    /* an order generator, for `with` */
    LV_PROC,      /* a procedure */
    LV_LAZY,      /* a binding not evaluated yet */
};

enum prim { PRIM_DOMAIN, PRIM_RANGE, PRIM_LINEARISATIONS };

struct lval {
    enum lval_kind kind;
    const cat_expr *rt;       /* LV_RT */
    const cat_expr *fun;      /* LV_CLOSURE: a CE_FUN */
    const lenv *env;          /* LV_CLOSURE, LV_PROC, LV_LAZY: where it was defined */
    enum prim prim;           /* LV_PRIM */
    lval **elems;             /* LV_TUPLE, LV_SET */
    int n;
    const char *tag;          /* LV_TAG */
    bool per_loc;             /* LV_ORDERS */
    const cat_expr *set, *rel;
    const cat_stmt *proc;     /* LV_PROC */
    const cat_expr *body;     /* LV_LAZY */
    const char *name;         /* LV_LAZY: the bound name */
    cat_pos pos;              /* LV_LAZY: of the binding */
    bool forcing;
};

struct lenv {
    const char *name;
    unsigned hash;            /* of name: most lookups compare only this */
    lval *v;
    const lenv *next;
};

typedef struct def {
    const char *name;
    const cat_expr *expr;
} def;

typedef struct lowerer {
    FILE *errors;
    bool failed;
    int quiet;                /* inside `try`: errors fail silently */
    cat_ast *out;
    int cap;
    int counter;              /* for unique names */
    int depth;
    int call_depth;           /* function calls being expanded (CAT_MAX_CALL_DEPTH) */
    long nodes;               /* expressions lowered, functions expanded (CAT_MAX_COMPILED_NODES) */
    def *defs;                /* what each emitted unique name stands for */
    int ndefs, defcap;
    const char *check_name;   /* `call ... as name` names the procedure's checks */
    bool keep_shows;          /* `show` becomes a CK_SHOW check (drawings) */
} lowerer;

/* ---- Helpers ---- */

static void lerr(lowerer *l, cat_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void lerr(lowerer *l, cat_pos pos, const char *fmt, ...)
{
    if (!l->failed && !l->quiet) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        diag_error(l->errors, pos.file, pos.line, pos.col, "%s", msg);
    }
    l->failed = true;
}

static void *grow(void *arr, int n, int *cap, size_t size)
{
    if (n < *cap)
        return arr;
    *cap = *cap ? 2 * *cap : 8;
    void *grown = GC_MALLOC(size * (size_t)*cap);
    if (n)
        memcpy(grown, arr, size * (size_t)n);
    return grown;
}

static lval *new_val(enum lval_kind kind)
{
    lval *v = GC_MALLOC(sizeof *v);
    v->kind = kind;
    return v;
}

/* What a failed lowering returns (callers test l->failed). */
static lval *err_val(void) { return new_val(LV_EMPTY); }

static lval *rt_val(const cat_expr *e)
{
    lval *v = new_val(LV_RT);
    v->rt = e;
    return v;
}

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The binding of `name` in env, or NULL. */
static lval *lookup(const lenv *env, const char *name)
{
    unsigned h = name_hash(name);
    for (const lenv *e = env; e; e = e->next)
        if (e->hash == h && strcmp(e->name, name) == 0)
            return e->v;
    return NULL;
}

static const lenv *bind(const lenv *next, const char *name, lval *v)
{
    lenv *b = GC_MALLOC(sizeof *b);
    b->name = name;
    b->hash = name_hash(name);
    b->v = v;
    b->next = next;
    return b;
}

static cat_expr *core(enum cat_expr_kind kind, cat_pos pos, const cat_expr *a, const cat_expr *b)
{
    cat_expr *e = GC_MALLOC(sizeof *e);
    e->kind = kind;
    e->pos = pos;
    e->a = (cat_expr *)a;
    e->b = (cat_expr *)b;
    return e;
}

static cat_expr *core_name(cat_pos pos, const char *name)
{
    cat_expr *e = core(CE_NAME, pos, NULL, NULL);
    e->name = name;
    return e;
}

static const char *fresh_name(lowerer *l, const char *base)
{
    size_t n = strlen(base) + 16;
    char *s = GC_MALLOC_ATOMIC(n);
    snprintf(s, n, "%s#%d", base, ++l->counter);
    return s;
}

static cat_stmt *emit_stmt(lowerer *l, enum cat_stmt_kind kind, cat_pos pos, const char *text)
{
    cat_ast *out = l->out;
    out->stmts = grow(out->stmts, out->nstmts, &l->cap, sizeof *out->stmts);
    cat_stmt *s = &out->stmts[out->nstmts++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->pos = pos;
    s->text = text;
    return s;
}

/* let name = e, emitted now; the name is recorded for is_write_set. */
static void emit_let(lowerer *l, const char *name, cat_pos pos, const cat_expr *e)
{
    cat_stmt *s = emit_stmt(l, CS_LET, pos, name);
    s->binds = GC_MALLOC(sizeof *s->binds);
    s->binds[0].name = name;
    s->binds[0].pos = pos;
    s->binds[0].body = (cat_expr *)e;
    s->nbinds = 1;
    l->defs = grow(l->defs, l->ndefs, &l->defcap, sizeof *l->defs);
    l->defs[l->ndefs++] = (def){name, e};
}

static const char *kind_name(enum lval_kind k)
{
    switch (k) {
    case LV_CLOSURE: case LV_PRIM: return "a function";
    case LV_TUPLE: return "a tuple";
    case LV_TAG: return "a tag";
    case LV_SET: return "a set of values";
    case LV_ORDERS: return "a set of orders";
    case LV_PROC: return "a procedure";
    default: return "a set of events or a relation";
    }
}

/* Cheap to repeat: a core name or constant. */
static bool trivial(const cat_expr *e)
{
    return e->kind == CE_NAME || e->kind == CE_ZERO || e->kind == CE_UNIV;
}

/* ---- Values ---- */

static lval *lower_expr(lowerer *l, const lenv *env, const cat_expr *x);
static void lower_stmts(lowerer *l, const lenv **env, const cat_stmt *stmts, int n);

static bool enter(lowerer *l, cat_pos pos)
{
    if (l->depth >= MAX_DEPTH) {
        lerr(l, pos, "definitions or calls nested too deeply (a function that never stops calling itself?)");
        return false;
    }
    l->depth++;
    return true;
}

/* A lazy binding's value, evaluated (and its code emitted) on first use. */
static lval *force(lowerer *l, lval *v)
{
    if (v->kind != LV_LAZY)
        return v;
    if (v->forcing) {
        lerr(l, v->pos, "'%s' is defined in terms of itself (use 'let rec')", v->name);
        return err_val();
    }
    if (!enter(l, v->pos))
        return err_val();
    v->forcing = true;
    lval *r = lower_expr(l, v->env, v->body);
    v->forcing = false;
    l->depth--;
    if (l->failed)
        return err_val();
    if (r->kind == LV_RT && !trivial(r->rt)) {
        const char *unique = fresh_name(l, v->name);
        emit_let(l, unique, v->pos, r->rt);
        r = rt_val(core_name(r->rt->pos, unique));
    }
    *v = *r;
    return v;
}

static const char *const prim_names[] = {
    [PRIM_DOMAIN] = "domain", [PRIM_RANGE] = "range", [PRIM_LINEARISATIONS] = "linearisations",
};

/* A name: a binding, a base set or relation of the execution, or a builtin. */
static lval *lower_name(lowerer *l, const lenv *env, const cat_expr *x)
{
    lval *bound = lookup(env, x->name);
    if (bound)
        return force(l, bound);
    if (exec_find_set(x->name) >= 0 || exec_find_rel(x->name) >= 0 || strcmp(x->name, "id") == 0 ||
        strcmp(x->name, "FW") == 0)
        return rt_val(x); /* the surface name is a core name */
    for (size_t i = 0; i < sizeof prim_names / sizeof *prim_names; i++)
        if (strcmp(x->name, prim_names[i]) == 0) {
            lval *v = new_val(LV_PRIM);
            v->prim = (enum prim)i;
            return v;
        }
    lerr(l, x->pos, "unknown name '%s'", x->name);
    return err_val();
}

/* v as a core expression; `x` is where v came from, for the message. */
static const cat_expr *to_core(lowerer *l, const lval *v, const cat_expr *x)
{
    if (l->failed)
        return NULL;
    if (v->kind == LV_RT)
        return v->rt;
    if (v->kind == LV_EMPTY || (v->kind == LV_SET && v->n == 0))
        return core(CE_ZERO, x->pos, NULL, NULL);
    if (x->kind == CE_NAME && (v->kind == LV_CLOSURE || v->kind == LV_PRIM))
        lerr(l, x->pos, "'%s' is a function: call it with arguments", x->name);
    else
        lerr(l, x->pos, "expected a set of events or a relation, but this is %s", kind_name(v->kind));
    return NULL;
}

/* An operator of the core form whose left (or only) operand is lowered by
 * lower_core_op's loop rather than by recursion: chains of them (`a | b |
 * ...`, `r^-1^-1...`) nest to the left as deep as they are long, which
 * only the file size bounds (cat/compile.c compiles them the same way). */
static bool on_left_spine(const cat_expr *x)
{
    switch (x->kind) {
    case CE_UNION: case CE_SEQ: case CE_DIFF: case CE_INTER: case CE_CART:
    case CE_COMPL: case CE_INV: case CE_PLUS: case CE_STAR: case CE_OPT:
        return true;
    default:
        return false;
    }
}

/* x's left spine is walked by a loop, left operand first as plain
 * recursion would; recursion is left to right operands and brackets, whose
 * nesting the parser bounds. */
static lval *lower_core_op(lowerer *l, const lenv *env, const cat_expr *x)
{
    if (!on_left_spine(x)) { /* a bracket */
        const cat_expr *a = to_core(l, lower_expr(l, env, x->a), x->a);
        return l->failed ? err_val() : rt_val(core(x->kind, x->pos, a, NULL));
    }
    size_t n = 0;
    for (const cat_expr *y = x; on_left_spine(y); y = y->a)
        n++;
    const cat_expr **spine = GC_MALLOC(sizeof *spine * n);
    n = 0;
    for (const cat_expr *y = x; on_left_spine(y); y = y->a)
        spine[n++] = y;
    l->nodes += (long)n;
    const cat_expr *acc = to_core(l, lower_expr(l, env, spine[n - 1]->a), spine[n - 1]->a);
    for (size_t i = n; i-- > 0 && !l->failed;) {
        const cat_expr *y = spine[i];
        const cat_expr *b = y->b ? to_core(l, lower_expr(l, env, y->b), y->b) : NULL;
        if (!l->failed)
            acc = core(y->kind, y->pos, acc, b);
    }
    return l->failed ? err_val() : rt_val(acc);
}

/* ---- Functions ---- */

/* Binds `params` to the argument `arg`; RT arguments that are not trivial
 * get a unique name, and their definitions are pushed on *lets (wrapped
 * around an RT result as `let ... in`), unless `inline_args`. */
static bool bind_params(lowerer *l, const cat_params *params, lval *arg, const char *fname, cat_pos pos,
                        bool inline_args, const lenv **env, const cat_expr ***lets, int *nlets)
{
    int given = arg->kind == LV_TUPLE ? arg->n : 1;
    lval *one[1] = {arg};
    lval **args = arg->kind == LV_TUPLE ? arg->elems : one;
    int want = params->tuple ? params->n : 1;
    if (params->tuple && given != want) {
        lerr(l, pos, "function '%s' takes %d argument%s, but %d %s given", fname, want, want == 1 ? "" : "s",
             given, given == 1 ? "is" : "are");
        return false;
    }
    for (int i = 0; i < want; i++) {
        lval *a = want == 1 && !params->tuple ? arg : args[i];
        if (a->kind == LV_RT && !trivial(a->rt) && !inline_args) {
            const char *unique = fresh_name(l, params->names[i]);
            cat_expr *let = core(CE_LET_IN, pos, a->rt, NULL);
            let->name = unique;
            const cat_expr **more = GC_MALLOC(sizeof *more * (size_t)(*nlets + 1));
            if (*nlets)
                memcpy(more, *lets, sizeof *more * (size_t)*nlets);
            more[(*nlets)++] = let;
            *lets = more;
            a = rt_val(core_name(a->rt->pos, unique));
        }
        *env = bind(*env, params->names[i], a);
    }
    return true;
}

/* generate_orders(S, r) and generate_cos(r) of herd's cross.cat. */
static lval *orders_of(lowerer *l, const char *fname, lval *arg, cat_pos pos)
{
    bool cos = strcmp(fname, "generate_cos") == 0;
    int want = cos ? 1 : 2;
    lval **args = arg->kind == LV_TUPLE ? arg->elems : &arg;
    int given = arg->kind == LV_TUPLE ? arg->n : 1;
    if (given != want) {
        lerr(l, pos, "function '%s' takes %d argument%s, but %d %s given", fname, want, want == 1 ? "" : "s",
             given, given == 1 ? "is" : "are");
        return err_val();
    }
    lval *o = new_val(LV_ORDERS);
    o->per_loc = true;
    cat_expr at = {.pos = pos};
    o->set = cos ? core_name(pos, "W") : to_core(l, args[0], &at);
    o->rel = to_core(l, args[want - 1], &at);
    return l->failed ? err_val() : o;
}

static lval *apply_closure(lowerer *l, lval *f, lval *arg, cat_pos pos)
{
    const cat_expr *fun = f->fun;
    if (strcmp(fun->name, "generate_orders") == 0 || strcmp(fun->name, "generate_cos") == 0)
        return orders_of(l, fun->name, arg, pos);
    if (l->call_depth >= CAT_MAX_CALL_DEPTH) {
        lerr(l, pos, "function calls nested too deeply (more than %d) at '%s'", CAT_MAX_CALL_DEPTH, fun->name);
        return err_val();
    }
    if (!enter(l, pos))
        return err_val();
    l->call_depth++;
    lval *r = err_val();
    for (int attempt = 0; attempt < 2; attempt++) {
        const lenv *env = f->env;
        const cat_expr **lets = NULL;
        int nlets = 0;
        if (!bind_params(l, &fun->params, arg, fun->name, pos, attempt == 1, &env, &lets, &nlets))
            break;
        r = lower_expr(l, env, fun->a);
        if (l->failed || nlets == 0 || r->kind == LV_EMPTY)
            break;
        if (r->kind == LV_RT) {
            const cat_expr *body = r->rt;
            for (int i = nlets - 1; i >= 0; i--) {
                cat_expr *let = core(CE_LET_IN, lets[i]->pos, lets[i]->a, body);
                let->name = lets[i]->name;
                body = let;
            }
            r = rt_val(body);
            break;
        }
        /* a function, tuple or order generator may hold the names: inline */
    }
    l->call_depth--;
    l->depth--;
    return l->failed ? err_val() : r;
}

static lval *apply_prim(lowerer *l, lval *f, lval *arg, const cat_expr *x)
{
    const char *name = prim_names[f->prim];
    if (f->prim == PRIM_LINEARISATIONS) {
        if (arg->kind != LV_TUPLE || arg->n != 2) {
            lerr(l, x->pos, "'linearisations' takes 2 arguments (a set and a relation)");
            return err_val();
        }
        lval *o = new_val(LV_ORDERS);
        o->set = to_core(l, arg->elems[0], x->b);
        o->rel = to_core(l, arg->elems[1], x->b);
        return l->failed ? err_val() : o;
    }
    if (arg->kind == LV_TUPLE) {
        lerr(l, x->pos, "'%s' takes one argument", name);
        return err_val();
    }
    const cat_expr *a = to_core(l, arg, x->b);
    if (l->failed)
        return err_val();
    cat_expr *call = core(CE_CALL, x->pos, NULL, NULL);
    call->name = name;
    call->args = GC_MALLOC(sizeof *call->args);
    call->args[0] = (cat_expr *)a;
    call->nargs = 1;
    return rt_val(call);
}

static lval *lower_app(lowerer *l, const lenv *env, const cat_expr *x)
{
    lval *f = lower_expr(l, env, x->a);
    if (l->failed)
        return err_val();
    if (f->kind != LV_CLOSURE && f->kind != LV_PRIM) {
        if (x->a->kind == CE_NAME)
            lerr(l, x->pos, "'%s' is not a function", x->a->name);
        else
            lerr(l, x->pos, "this is not a function, but %s", kind_name(f->kind));
        return err_val();
    }
    lval *arg = lower_expr(l, env, x->b);
    if (l->failed)
        return err_val();
    return f->kind == LV_CLOSURE ? apply_closure(l, f, arg, x->pos) : apply_prim(l, f, arg, x);
}

/* ---- Values known now: tuples, sets, tags, match ---- */

static lval *lower_list(lowerer *l, const lenv *env, const cat_expr *x, enum lval_kind kind)
{
    lval *v = new_val(kind);
    v->n = x->nargs;
    v->elems = GC_MALLOC(sizeof *v->elems * (size_t)(x->nargs ? x->nargs : 1));
    for (int i = 0; i < x->nargs && !l->failed; i++)
        v->elems[i] = lower_expr(l, env, x->args[i]);
    return l->failed ? err_val() : v;
}

static bool is_value_set(const lval *v)
{
    return v->kind == LV_SET || v->kind == LV_EMPTY;
}

/* e ++ S: S with e added */
static lval *lower_add(lowerer *l, const lenv *env, const cat_expr *x)
{
    lval *e = lower_expr(l, env, x->a);
    lval *s = lower_expr(l, env, x->b);
    if (l->failed)
        return err_val();
    if (!is_value_set(s)) {
        lerr(l, x->pos, "'++' adds to a set of values known when the model is loaded, but this is %s",
             kind_name(s->kind));
        return err_val();
    }
    lval *v = new_val(LV_SET);
    int n = s->kind == LV_SET ? s->n : 0;
    v->elems = GC_MALLOC(sizeof *v->elems * (size_t)(n + 1));
    v->elems[0] = e;
    if (n)
        memcpy(v->elems + 1, s->elems, sizeof *v->elems * (size_t)n);
    v->n = n + 1;
    return v;
}

static lval *lower_match(lowerer *l, const lenv *env, const cat_expr *x)
{
    lval *v = lower_expr(l, env, x->a);
    if (l->failed)
        return err_val();
    if (v->kind != LV_TAG && !is_value_set(v)) {
        lerr(l, x->a->pos, "'match' needs a tag or a set of values known when the model is loaded, but this "
             "is %s (its elements are known only per execution)", kind_name(v->kind));
        return err_val();
    }
    int n = v->kind == LV_SET ? v->n : 0;
    for (int i = 0; i < x->nclauses; i++) {
        const cat_clause *cl = &x->clauses[i];
        const lenv *inner = env;
        if (v->kind == LV_TAG) {
            if (!(cl->kind == CL_DEFAULT || (cl->kind == CL_TAG && strcmp(cl->tag, v->tag) == 0)))
                continue;
        } else if (cl->kind == CL_EMPTY) {
            if (n)
                continue;
        } else if (cl->kind == CL_ADD && n) {
            lval *rest = new_val(LV_SET);
            rest->elems = v->elems + 1;
            rest->n = n - 1;
            inner = bind(bind(env, cl->elem, v->elems[0]), cl->rest, rest);
        } else if (cl->kind != CL_DEFAULT) {
            continue;
        }
        return lower_expr(l, inner, cl->body);
    }
    lerr(l, x->pos, "no clause of 'match' fits the value");
    return err_val();
}

static lval *lower_try(lowerer *l, const lenv *env, const cat_expr *x)
{
    l->quiet++;
    lval *v = lower_expr(l, env, x->a);
    l->quiet--;
    if (!l->failed)
        return v;
    l->failed = false;
    return lower_expr(l, env, x->b);
}

static bool same_value(const lval *a, const lval *b)
{
    if (a->kind == LV_TAG && b->kind == LV_TAG)
        return strcmp(a->tag, b->tag) == 0;
    return a->kind == LV_EMPTY && b->kind == LV_EMPTY;
}

static lval *lower_if(lowerer *l, const lenv *env, const cat_expr *x)
{
    lval *a = lower_expr(l, env, x->a);
    lval *b = lower_expr(l, env, x->b);
    if (l->failed)
        return err_val();
    if (a->kind != LV_TAG || b->kind != LV_TAG) {
        lerr(l, x->pos, "'if ... = ...' compares tags known when the model is loaded");
        return err_val();
    }
    return lower_expr(l, env, x->args[same_value(a, b) ? 0 : 1]);
}

/* ---- let ... in ---- */

static lval *closure(const cat_expr *fun, const lenv *env)
{
    lval *v = new_val(LV_CLOSURE);
    v->fun = fun;
    v->env = env;
    return v;
}

/* let rec of functions: closures that see each other. */
static const lenv *bind_rec_functions(const cat_binding *binds, int n, const lenv *env)
{
    lval **vals = GC_MALLOC(sizeof *vals * (size_t)n);
    const lenv *inner = env;
    for (int i = 0; i < n; i++) {
        vals[i] = closure(binds[i].body, NULL);
        inner = bind(inner, binds[i].name, vals[i]);
    }
    for (int i = 0; i < n; i++)
        vals[i]->env = inner;
    return inner;
}

static bool all_functions(const cat_binding *binds, int n)
{
    for (int i = 0; i < n; i++)
        if (!binds[i].name || binds[i].body->kind != CE_FUN)
            return false;
    return true;
}

/* (a, b) = e */
static const lenv *bind_tuple(lowerer *l, const cat_binding *b, lval *v, const lenv *env)
{
    if (v->kind != LV_TUPLE || v->n != b->pattern.n) {
        lerr(l, b->pos, "a tuple of %d is bound to %s", b->pattern.n,
             v->kind == LV_TUPLE ? "a tuple of another size" : kind_name(v->kind));
        return env;
    }
    for (int i = 0; i < v->n; i++)
        env = bind(env, b->pattern.names[i], v->elems[i]);
    return env;
}

static lval *lower_let_in(lowerer *l, const lenv *env, const cat_expr *x)
{
    const lenv *inner = env;
    if (x->rec) {
        if (!all_functions(x->binds, x->nbinds)) {
            lerr(l, x->pos, "'let rec ... in' is supported for functions only");
            return err_val();
        }
        inner = bind_rec_functions(x->binds, x->nbinds, env);
        return lower_expr(l, inner, x->a);
    }
    for (int i = 0; i < x->nbinds && !l->failed; i++) {
        const cat_binding *b = &x->binds[i];
        lval *v = lower_expr(l, env, b->body);
        inner = b->name ? bind(inner, b->name, v) : bind_tuple(l, b, v, inner);
    }
    return l->failed ? err_val() : lower_expr(l, inner, x->a);
}

static lval *lower_expr(lowerer *l, const lenv *env, const cat_expr *x)
{
    if (l->failed)
        return err_val();
    /* calls expand function bodies: a model whose calls double at each
     * level would be expanded for ever */
    if (++l->nodes > CAT_MAX_COMPILED_NODES) {
        lerr(l, x->pos, "the model is too large once its functions are expanded (more than %d operations)",
             CAT_MAX_COMPILED_NODES);
        return err_val();
    }
    if (!enter(l, x->pos))
        return err_val();
    lval *v = err_val();
    switch (x->kind) {
    case CE_NAME: v = lower_name(l, env, x); break;
    case CE_ZERO: v = new_val(LV_EMPTY); break;
    case CE_UNIV: v = rt_val(x); break;
    case CE_BRACKET:
    case CE_UNION: case CE_SEQ: case CE_DIFF: case CE_INTER: case CE_CART:
    case CE_COMPL: case CE_INV: case CE_PLUS: case CE_STAR: case CE_OPT:
        v = lower_core_op(l, env, x);
        break;
    case CE_APP: v = lower_app(l, env, x); break;
    case CE_TUPLE: v = lower_list(l, env, x, LV_TUPLE); break;
    case CE_SET: v = x->nargs ? lower_list(l, env, x, LV_SET) : new_val(LV_EMPTY); break;
    case CE_TAG:
        v = new_val(LV_TAG);
        v->tag = x->name;
        break;
    case CE_ADD: v = lower_add(l, env, x); break;
    case CE_FUN: v = closure(x, env); break;
    case CE_LET: v = lower_let_in(l, env, x); break;
    case CE_MATCH: v = lower_match(l, env, x); break;
    case CE_TRY: v = lower_try(l, env, x); break;
    case CE_IF: v = lower_if(l, env, x); break;
    case CE_CALL:
    case CE_LET_IN:
        lerr(l, x->pos, "internal: core expression in the surface form");
        break;
    }
    l->depth--;
    return l->failed ? err_val() : v;
}

/* ---- Statements ---- */

static void lower_let(lowerer *l, const lenv **env, const cat_stmt *s)
{
    const lenv *before = *env, *after = *env;
    for (int i = 0; i < s->nbinds && !l->failed; i++) {
        const cat_binding *b = &s->binds[i];
        if (!b->name) {
            after = bind_tuple(l, b, lower_expr(l, before, b->body), after);
            continue;
        }
        lval *v = new_val(LV_LAZY);
        v->body = b->body;
        v->env = before;
        v->name = b->name;
        v->pos = b->pos;
        after = bind(after, b->name, v);
    }
    *env = after;
}

/* let rec over sets and relations: a fixpoint, emitted now. */
static void lower_rec(lowerer *l, const lenv **env, const cat_stmt *s)
{
    if (all_functions(s->binds, s->nbinds)) {
        *env = bind_rec_functions(s->binds, s->nbinds, *env);
        return;
    }
    const lenv *inner = *env;
    const char **unique = GC_MALLOC(sizeof *unique * (size_t)s->nbinds);
    for (int i = 0; i < s->nbinds; i++) {
        const cat_binding *b = &s->binds[i];
        if (!b->name || b->body->kind == CE_FUN) {
            lerr(l, b->pos, "'let rec' binds either functions or sets and relations, not both");
            return;
        }
        unique[i] = fresh_name(l, b->name);
        inner = bind(inner, b->name, rt_val(core_name(b->pos, unique[i])));
    }
    cat_binding *core_binds = GC_MALLOC(sizeof *core_binds * (size_t)s->nbinds);
    for (int i = 0; i < s->nbinds && !l->failed; i++) {
        core_binds[i].name = unique[i];
        core_binds[i].pos = s->binds[i].pos;
        core_binds[i].body = (cat_expr *)to_core(l, lower_expr(l, inner, s->binds[i].body), s->binds[i].body);
    }
    if (l->failed)
        return;
    cat_stmt *c = emit_stmt(l, CS_LET_REC, s->pos, s->text);
    c->binds = core_binds;
    c->nbinds = s->nbinds;
    *env = inner;
}

static void lower_check(lowerer *l, const lenv *env, const cat_stmt *s)
{
    const cat_expr *e = to_core(l, lower_expr(l, env, s->expr), s->expr);
    if (l->failed)
        return;
    cat_stmt *c = emit_stmt(l, CS_CHECK, s->pos, s->text);
    c->check = s->check;
    c->negate = s->negate;
    c->flag = s->flag;
    c->undefined = s->undefined;
    c->name = s->name ? s->name : l->check_name;
    c->expr = (cat_expr *)e;
}

/* A `show` kept for drawing: a check that never fails, so that its value
 * is computed (and its bindings emitted) only in the drawing's model. */
static void lower_show(lowerer *l, const lenv *env, const cat_stmt *s)
{
    if (!l->keep_shows)
        return;
    const cat_expr *e = to_core(l, lower_expr(l, env, s->expr), s->expr);
    if (l->failed)
        return;
    cat_stmt *c = emit_stmt(l, CS_CHECK, s->pos, s->text);
    c->check = CK_SHOW;
    c->name = s->name;
    c->expr = (cat_expr *)e;
}

/* Is every event of the core set expression e a write? */
static bool is_write_set(const lowerer *l, const cat_expr *e, int depth)
{
    if (depth > 64)
        return false;
    switch (e->kind) {
    case CE_ZERO: return true;
    case CE_INTER: return is_write_set(l, e->a, depth + 1) || is_write_set(l, e->b, depth + 1);
    case CE_UNION: return is_write_set(l, e->a, depth + 1) && is_write_set(l, e->b, depth + 1);
    case CE_DIFF: return is_write_set(l, e->a, depth + 1);
    case CE_LET_IN: return is_write_set(l, e->b, depth + 1);
    case CE_NAME:
        if (strcmp(e->name, "W") == 0 || strcmp(e->name, "IW") == 0 || strcmp(e->name, "FW") == 0)
            return true;
        for (int i = 0; i < l->ndefs; i++)
            if (strcmp(l->defs[i].name, e->name) == 0)
                return is_write_set(l, l->defs[i].expr, depth + 1);
        return false;
    default:
        return false;
    }
}

/* A named core value: e itself when trivial, else a fresh binding. */
static const cat_expr *named(lowerer *l, const char *base, cat_pos pos, const cat_expr *e)
{
    if (trivial(e))
        return e;
    const char *name = fresh_name(l, base);
    emit_let(l, name, pos, e);
    return core_name(pos, name);
}

/* with x from generate_orders(S, r), S only writes, co total: x is
 * co & (S * S), which must extend r & loc on S. */
static const cat_expr *orders_from_co(lowerer *l, const cat_stmt *s, const lval *o)
{
    cat_pos pos = s->pos;
    const cat_expr *set = named(l, "orders-set", pos, o->set);
    const cat_expr *rel = named(l, "orders-base", pos, o->rel);
    const cat_expr *pairs = core(CE_CART, pos, set, set);
    const cat_expr *order = named(l, s->var, pos, core(CE_INTER, pos, core_name(pos, "co"), pairs));
    if (rel->kind != CE_ZERO) {
        const cat_expr *need = core(CE_INTER, pos, core(CE_INTER, pos, rel, core_name(pos, "loc")), pairs);
        cat_stmt *c = emit_stmt(l, CS_CHECK, pos, s->text);
        c->check = CK_EMPTY;
        c->expr = core(CE_DIFF, pos, need, order);
    }
    return order;
}

static void lower_with(lowerer *l, const lenv **env, const cat_stmt *s)
{
    lval *o = lower_expr(l, *env, s->expr);
    if (l->failed)
        return;
    if (o->kind != LV_ORDERS) {
        lerr(l, s->expr->pos, "'with %s from' needs linearisations(S, r), generate_orders(S, r) or "
             "generate_cos(r), but this is %s", s->var, kind_name(o->kind));
        return;
    }
    if (o->per_loc && l->out->co_mode == CAT_CO_TOTAL && is_write_set(l, o->set, 0)) {
        *env = bind(*env, s->var, rt_val(orders_from_co(l, s, o)));
        return;
    }
    cat_stmt *c = emit_stmt(l, CS_WITH, s->pos, s->text);
    c->var = fresh_name(l, s->var);
    c->set = (cat_expr *)o->set;
    c->rel = (cat_expr *)o->rel;
    c->per_loc = o->per_loc;
    *env = bind(*env, s->var, rt_val(core_name(s->pos, c->var)));
}

static void lower_call(lowerer *l, const lenv *env, const cat_stmt *s)
{
    lval *p = lookup(env, s->var);
    if (p)
        p = force(l, p);
    if (l->failed)
        return;
    if (!p || p->kind != LV_PROC) {
        lerr(l, s->pos, p ? "'%s' is not a procedure" : "unknown procedure '%s'", s->var);
        return;
    }
    lval *arg = lower_expr(l, env, s->expr);
    const lenv *inner = p->env;
    const cat_expr **lets = NULL;
    int nlets = 0;
    if (l->failed || !enter(l, s->pos))
        return;
    if (bind_params(l, &p->proc->params, arg, s->var, s->pos, true, &inner, &lets, &nlets)) {
        const char *saved = l->check_name;
        if (s->name)
            l->check_name = s->name;
        lower_stmts(l, &inner, p->proc->body, p->proc->nbody);
        l->check_name = saved;
    }
    l->depth--;
}

static void lower_forall(lowerer *l, const lenv *env, const cat_stmt *s)
{
    lval *set = lower_expr(l, env, s->expr);
    if (l->failed)
        return;
    if (!is_value_set(set)) {
        lerr(l, s->expr->pos, "'forall' ranges over a set of values known when the model is loaded, but this "
             "is %s", kind_name(set->kind));
        return;
    }
    for (int i = 0; set->kind == LV_SET && i < set->n && !l->failed; i++) {
        const lenv *inner = bind(env, s->var, set->elems[i]);
        lower_stmts(l, &inner, s->body, s->nbody);
    }
}

static void lower_stmt(lowerer *l, const lenv **env, const cat_stmt *s)
{
    switch (s->kind) {
    case CS_LET: lower_let(l, env, s); break;
    case CS_LET_REC: lower_rec(l, env, s); break;
    case CS_CHECK: lower_check(l, *env, s); break;
    case CS_WITH: lower_with(l, env, s); break;
    case CS_PROCEDURE: {
        lval *p = new_val(LV_PROC);
        p->proc = s;
        p->env = *env;
        *env = bind(*env, s->name, p);
        break;
    }
    case CS_CALL: lower_call(l, *env, s); break;
    case CS_ENUM: {
        lval *set = new_val(LV_SET);
        set->n = s->ntags;
        set->elems = GC_MALLOC(sizeof *set->elems * (size_t)(s->ntags ? s->ntags : 1));
        for (int i = 0; i < s->ntags; i++) {
            set->elems[i] = new_val(LV_TAG);
            set->elems[i]->tag = s->tags[i];
        }
        *env = bind(*env, s->name, set);
        break;
    }
    case CS_FORALL: lower_forall(l, *env, s); break;
    case CS_SHOW: lower_show(l, *env, s); break;
    }
}

static void lower_stmts(lowerer *l, const lenv **env, const cat_stmt *stmts, int n)
{
    for (int i = 0; i < n && !l->failed; i++)
        lower_stmt(l, env, &stmts[i]);
}

static cat_ast *lower(const cat_ast *surface, bool keep_shows, FILE *errors)
{
    lowerer l;
    memset(&l, 0, sizeof l);
    l.errors = errors;
    l.keep_shows = keep_shows;
    l.out = GC_MALLOC(sizeof *l.out);
    *l.out = *surface;
    l.out->stmts = NULL;
    l.out->nstmts = 0;
    const lenv *env = NULL;
    lower_stmts(&l, &env, surface->stmts, surface->nstmts);
    return l.failed ? NULL : l.out;
}

cat_ast *cat_lower(const cat_ast *surface, FILE *errors) { return lower(surface, false, errors); }

cat_ast *cat_lower_shows(const cat_ast *surface, FILE *errors) { return lower(surface, true, errors); }
