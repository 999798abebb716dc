/*
 * cat/compile.c: name and type resolution of a parsed cat model, and its
 * translation into straight-line code over workspace slots (see cat/ast.h).
 *
 * Values known to be empty (`0` and what folds to it) get no slot at all.
 * Functions are expanded at each call.  Each instruction goes into the
 * block of the latest thing it depends on (its stage): the static block
 * when it reads only what the trace combination fixes, the block of the
 * latest `with` whose binding it reads, or the co block, so that code runs
 * once per combination, reads-from choice, linearisation or coherence
 * choice only when it has to.
 */
#include "cat/ast.h"

#include <gc.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "base/diag.h"

typedef enum { TY_ANY, TY_SET, TY_REL } ctype;   /* TY_ANY: empty, either type */

typedef struct value {
    ctype ty;
    int slot;      /* -1: known to be empty */
    bool temp;     /* a temporary owned by whoever holds the value */
    int stage;     /* what it depends on: STATIC_STAGE, a block, or CO_STAGE */
} value;

/* Code that reads only the base sets and the relations a trace combination
 * fixes (everything but rf, co, fr and syncbar) is the static stage: run
 * once per combination (cat_prepare). */
#define STATIC_STAGE (-1)

static const value EMPTY_ANY = {TY_ANY, -1, false, STATIC_STAGE};

typedef struct env {
    const char *name;
    bool is_func;
    value v;
    const cat_binding *fn;
    const struct env *fn_env;
    const struct env *next;
} env;

typedef struct free_list {
    int *slot;
    int n, cap;
} free_list;

/* Slots of one type.  A slot is only ever written by code of one stage: the
 * free slots are kept per stage, so code of a stage reuses only slots its
 * own block wrote before, in the order the block runs them. */
typedef struct slot_pool {
    free_list *free;     /* per stage (stage_index) */
    int nstages;
    int next;
    int *reader;         /* per slot: the latest stage of code that read it */
    int reader_cap;
} slot_pool;

#define NO_READER INT_MIN

/* Code that depends on co or fr goes to a block of its own, run innermost,
 * once per coherence choice, after everything else ran once per
 * reads-from choice (see cat_check_co). */
#define CO_STAGE (1 << 20)

typedef struct compiler {
    FILE *errors;
    bool failed;
    bool stage_co;            /* put co-dependent code in co_block */
    bool co_conflict;         /* a with depends on co: no staging */
    cat_block co_block;
    bool dry;                 /* type inference only: emit nothing */
    bool explain;             /* for drawings: every check keeps its operand (no fusing) */
    cat_model *m;
    cat_block cur;            /* code of the statement being compiled */
    int *cur_stage;           /* stage of each instruction of cur */
    int cur_stage_cap;
    int floor;                /* least stage of code emitted now (a let rec's body) */
    cat_block static_block;
    slot_pool rels, sets;
    int *rel_writer;          /* per relation slot: stage of the code that writes it */
    int rel_writer_cap;
    int block_cap, check_cap, with_cap;
    long nodes;               /* expression nodes compiled, functions expanded */
    int call_depth;           /* function calls being expanded */
    int depth;                /* compile_expr activations open */
} compiler;

/* ---- Helpers ---- */

static void error_at(compiler *c, cat_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void error_at(compiler *c, cat_pos pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!c->failed)
        diag_error(c->errors, pos.file, pos.line, pos.col, "%s", msg);
    c->failed = true;
}

static const char *type_name(ctype ty)
{
    return ty == TY_SET ? "a set" : "a relation";
}

static int max_int(int a, int b) { return a > b ? a : b; }

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

static void push_instr(cat_block *b, cat_instr in)
{
    b->code = grow(b->code, b->ncode, &b->cap, sizeof *b->code);
    b->code[b->ncode++] = in;
}

static slot_pool *pool_of(compiler *c, ctype ty)
{
    return ty == TY_SET ? &c->sets : &c->rels;
}

static int stage_index(int stage)
{
    return stage == STATIC_STAGE ? 0 : stage == CO_STAGE ? 1 : stage + 2;
}

static void note_read(compiler *c, ctype ty, int slot, int stage)
{
    if (slot < 0 || c->dry)
        return;
    slot_pool *p = pool_of(c, ty);
    while (slot >= p->reader_cap) {
        int old_cap = p->reader_cap;
        p->reader = grow(p->reader, old_cap, &p->reader_cap, sizeof *p->reader);
        for (int i = old_cap; i < p->reader_cap; i++)
            p->reader[i] = NO_READER;
    }
    if (p->reader[slot] < stage)
        p->reader[slot] = stage;
}

/* The slots an instruction reads, with their types. */
static void note_operands(compiler *c, const cat_instr *in, int stage)
{
    switch (in->op) {
    case CI_S_UNION: case CI_S_INTER: case CI_S_DIFF:
        note_read(c, TY_SET, in->b, stage);
        /* fall through */
    case CI_S_COMPL: case CI_R_IDENT:
        note_read(c, TY_SET, in->a, stage);
        break;
    case CI_R_CART:
        note_read(c, TY_SET, in->a, stage);
        note_read(c, TY_SET, in->b, stage);
        break;
    case CI_S_UPDATE:
        note_read(c, TY_SET, in->b, stage);
        break;
    case CI_R_UNION: case CI_R_INTER: case CI_R_DIFF: case CI_R_SEQ:
        note_read(c, TY_REL, in->b, stage);
        /* fall through */
    case CI_S_DOMAIN: case CI_S_RANGE: case CI_R_COMPL: case CI_R_INV:
    case CI_R_PLUS: case CI_R_STAR: case CI_R_OPT:
        note_read(c, TY_REL, in->a, stage);
        break;
    case CI_R_RESTRICT:
        note_read(c, TY_REL, in->a, stage);
        note_read(c, TY_SET, in->b, stage);
        note_read(c, TY_SET, in->c, stage);
        break;
    case CI_R_UPDATE:
        note_read(c, TY_REL, in->b, stage);
        break;
    case CI_CHECK:
        note_read(c, c->m->checks[in->b].is_set ? TY_SET : TY_REL, in->a, stage);
        break;
    case CI_CHECK_FUSED:
        note_read(c, TY_REL, in->a, stage);
        note_read(c, TY_REL, in->b, stage);
        break;
    default:
        break;
    }
}

static void note_rel_write(compiler *c, int slot, int stage)
{
    while (slot >= c->rel_writer_cap)
        c->rel_writer = grow(c->rel_writer, c->rel_writer_cap, &c->rel_writer_cap, sizeof *c->rel_writer);
    c->rel_writer[slot] = stage;
}

static void emit(compiler *c, int op, int dst, int a, int b, int cc, int stage)
{
    if (c->dry)
        return;
    cat_instr in = {op, dst, a, b, cc};
    stage = max_int(stage, c->floor);
    note_operands(c, &in, stage);
    if (op >= CI_R_EMPTY && op <= CI_R_UPDATE)
        note_rel_write(c, op == CI_R_UPDATE ? a : dst, stage);
    c->cur_stage = grow(c->cur_stage, c->cur.ncode, &c->cur_stage_cap, sizeof *c->cur_stage);
    c->cur_stage[c->cur.ncode] = stage;
    push_instr(&c->cur, in);
}

static int alloc_slot(compiler *c, ctype ty, int stage)
{
    if (c->dry)
        return 0;
    slot_pool *p = pool_of(c, ty);
    int k = stage_index(max_int(stage, c->floor));
    free_list *f = k < p->nstages ? &p->free[k] : NULL;
    int slot = f && f->n ? f->slot[--f->n] : p->next++;
    if (slot < p->reader_cap)
        p->reader[slot] = NO_READER;
    return slot;
}

/* A slot that no other stage may write: with, let rec and fixed bindings. */
static int fresh_slot(compiler *c, ctype ty)
{
    return c->dry ? 0 : pool_of(c, ty)->next++;
}

/* Gives a temporary's slot back to its stage, unless code of a later stage
 * reads it: that code runs again, for every choice it depends on, after
 * this stage's block has moved on. */
static void release(compiler *c, value v)
{
    if (!v.temp || v.slot < 0 || c->dry)
        return;
    slot_pool *p = pool_of(c, v.ty);
    int stage = max_int(v.stage, c->floor);
    if (v.slot < p->reader_cap && p->reader[v.slot] > stage)
        return;
    int k = stage_index(stage);
    if (k >= p->nstages) {
        int old = p->nstages;
        p->nstages = k + 1;
        free_list *grown = GC_MALLOC(sizeof *grown * (size_t)p->nstages); /* zeroed */
        if (old)
            memcpy(grown, p->free, sizeof *grown * (size_t)old);
        p->free = grown;
    }
    free_list *f = &p->free[k];
    f->slot = grow(f->slot, f->n, &f->cap, sizeof *f->slot);
    f->slot[f->n++] = v.slot;
}

/* Operand v is read by code of `stage`, then given back if it may be. */
static void consume(compiler *c, value v, int stage)
{
    note_read(c, v.ty, v.slot, max_int(stage, c->floor));
    release(c, v);
}

static value empty_of(ctype ty, int stage)
{
    return (value){ty, -1, false, stage};
}

/* dst = op(a, b), a new temporary of `stage` (operands already consumed). */
static value emit_op(compiler *c, int op, ctype ty, int a, int b, int stage)
{
    stage = max_int(stage, c->floor);
    int dst = alloc_slot(c, ty, stage);
    emit(c, op, dst, a, b, 0, stage);
    return (value){ty, dst, !c->dry, stage};
}

/* ---- Expressions ---- */

static value compile_expr(compiler *c, const env *e, const cat_expr *x);

/* v, an operand of `op` at `at` already compiled, must be of type `want`. */
static value check_type(compiler *c, value v, ctype want, cat_pos at, const char *op)
{
    if (c->failed)
        return EMPTY_ANY;
    if (v.ty != TY_ANY && v.ty != want) {
        error_at(c, at, "type error: operand of '%s' must be %s, but it is %s", op,
                 type_name(want), type_name(v.ty));
        return EMPTY_ANY;
    }
    v.ty = want;
    return v;
}

static value need(compiler *c, const env *e, const cat_expr *x, ctype want, cat_pos at,
                  const char *op)
{
    return check_type(c, compile_expr(c, e, x), want, at, op);
}

static const char *op_text(enum cat_expr_kind kind)
{
    switch (kind) {
    case CE_UNION: return "|";
    case CE_SEQ: return ";";
    case CE_DIFF: return "\\";
    case CE_INTER: return "&";
    case CE_CART: return "*";
    case CE_COMPL: return "~";
    case CE_INV: return "^-1";
    case CE_PLUS: return "+";
    case CE_STAR: return "*";
    case CE_OPT: return "?";
    case CE_BRACKET: return "[...]";
    default: return "?";
    }
}

/* e | e, e & e, e \ e on two sets or two relations; `a` is the left
 * operand, compiled (see compile_expr). */
static value compile_boolean(compiler *c, const env *e, const cat_expr *x, value a)
{
    value b = compile_expr(c, e, x->b);
    if (c->failed)
        return EMPTY_ANY;
    if (a.ty != TY_ANY && b.ty != TY_ANY && a.ty != b.ty) {
        error_at(c, x->pos, "type error: operands of '%s' must both be sets or both be "
                 "relations, but the left one is %s and the right one %s",
                 op_text(x->kind), type_name(a.ty), type_name(b.ty));
        return EMPTY_ANY;
    }
    ctype ty = a.ty == TY_ANY ? b.ty : a.ty;
    int stage = max_int(a.stage, b.stage);
    bool ae = a.slot < 0, be = b.slot < 0;
    value r;
    if (x->kind == CE_UNION && (ae || be)) {
        r = ae ? b : a;
    } else if (x->kind == CE_DIFF && (ae || be)) {
        release(c, b);
        r = ae ? empty_of(ty, stage) : a;
    } else if (x->kind == CE_INTER && (ae || be)) {
        release(c, a);
        release(c, b);
        r = empty_of(ty, stage);
    } else {
        static const int ops[][2] = {[CE_UNION] = {CI_S_UNION, CI_R_UNION},
                                     [CE_INTER] = {CI_S_INTER, CI_R_INTER},
                                     [CE_DIFF] = {CI_S_DIFF, CI_R_DIFF}};
        consume(c, a, stage);
        consume(c, b, stage);
        return emit_op(c, ops[x->kind][ty == TY_REL], ty, a.slot, b.slot, stage);
    }
    r.ty = ty;
    r.stage = stage;
    return r;
}

/* [dom];v;[ran] */
static value emit_restrict(compiler *c, value v, value dom, value ran)
{
    int stage = max_int(max_int(v.stage, max_int(dom.stage, ran.stage)), c->floor);
    if (v.slot < 0 || dom.slot < 0 || ran.slot < 0) {
        release(c, v);
        release(c, dom);
        release(c, ran);
        return empty_of(TY_REL, stage);
    }
    consume(c, v, stage);
    consume(c, dom, stage);
    consume(c, ran, stage);
    int dst = alloc_slot(c, TY_REL, stage);
    emit(c, CI_R_RESTRICT, dst, v.slot, dom.slot, ran.slot, stage);
    return (value){TY_REL, dst, !c->dry, stage};
}

/* A relation from two operands (`a ; b`, `a * b`), at the later of their
 * stages; empty, with no instruction, when either is empty. */
static value emit_rel_pair(compiler *c, int op, value a, value b)
{
    int stage = max_int(a.stage, b.stage);
    if (a.slot < 0 || b.slot < 0) {
        release(c, a);
        release(c, b);
        return empty_of(TY_REL, stage);
    }
    consume(c, a, stage);
    consume(c, b, stage);
    return emit_op(c, op, TY_REL, a.slot, b.slot, stage);
}

static const value ALL_EVENTS = {TY_SET, CAT_SLOT_UNIV, false, STATIC_STAGE};

/* [S] ; r: the left operand is a set, not compiled as a relation. */
static value compile_restricted_seq(compiler *c, const env *e, const cat_expr *x)
{
    value dom = need(c, e, x->a->a, TY_SET, x->a->pos, "[...]");
    value v = need(c, e, x->b, TY_REL, x->pos, ";");
    return c->failed ? EMPTY_ANY : emit_restrict(c, v, dom, ALL_EVENTS);
}

/* a ; b, a ; [S], with the left operand compiled (not a bracket). */
static value compile_seq(compiler *c, const env *e, const cat_expr *x, value left)
{
    if (x->b->kind == CE_BRACKET) {
        value v = check_type(c, left, TY_REL, x->pos, ";");
        value ran = need(c, e, x->b->a, TY_SET, x->b->pos, "[...]");
        return c->failed ? EMPTY_ANY : emit_restrict(c, v, ALL_EVENTS, ran);
    }
    value a = check_type(c, left, TY_REL, x->pos, ";");
    value b = need(c, e, x->b, TY_REL, x->pos, ";");
    return c->failed ? EMPTY_ANY : emit_rel_pair(c, CI_R_SEQ, a, b);
}

static value compile_cart(compiler *c, const env *e, const cat_expr *x, value left)
{
    value a = check_type(c, left, TY_SET, x->pos, "*");
    value b = need(c, e, x->b, TY_SET, x->pos, "*");
    return c->failed ? EMPTY_ANY : emit_rel_pair(c, CI_R_CART, a, b);
}

static value compile_compl(compiler *c, value v)
{
    if (c->failed)
        return EMPTY_ANY;
    consume(c, v, v.stage);
    if (v.ty == TY_SET)
        return v.slot < 0 ? (value){TY_SET, CAT_SLOT_UNIV, false, v.stage}
                          : emit_op(c, CI_S_COMPL, TY_SET, v.slot, 0, v.stage);
    if (v.slot < 0)
        return emit_op(c, CI_R_CART, TY_REL, CAT_SLOT_UNIV, CAT_SLOT_UNIV, v.stage);
    return emit_op(c, CI_R_COMPL, TY_REL, v.slot, 0, v.stage);
}

/* r^-1, r+, r*, r? */
static value compile_postfix(compiler *c, const cat_expr *x, value operand)
{
    value v = check_type(c, operand, TY_REL, x->pos, op_text(x->kind));
    if (c->failed)
        return EMPTY_ANY;
    consume(c, v, v.stage);
    bool reflexive = x->kind == CE_STAR || x->kind == CE_OPT;
    if (v.slot < 0)
        return reflexive ? emit_op(c, CI_R_IDENT, TY_REL, CAT_SLOT_UNIV, 0, v.stage)
                         : empty_of(TY_REL, v.stage);
    int op = x->kind == CE_INV ? CI_R_INV : x->kind == CE_PLUS ? CI_R_PLUS
           : x->kind == CE_STAR ? CI_R_STAR : CI_R_OPT;
    return emit_op(c, op, TY_REL, v.slot, 0, v.stage);
}

static value compile_bracket(compiler *c, const env *e, const cat_expr *x)
{
    value v = need(c, e, x->a, TY_SET, x->pos, "[...]");
    if (c->failed)
        return EMPTY_ANY;
    consume(c, v, v.stage);
    if (v.slot < 0)
        return empty_of(TY_REL, v.stage);
    return emit_op(c, CI_R_IDENT, TY_REL, v.slot, 0, v.stage);
}

static const env *lookup(const env *e, const char *name)
{
    for (; e; e = e->next)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

static const env *bind(const env *next, const char *name, value v)
{
    env *b = GC_MALLOC(sizeof *b);
    b->name = name;
    b->v = v;
    b->next = next;
    return b;
}

/* rf and syncbar change per reads-from and barrier choice, co and fr per
 * coherence choice (when set apart); the rest per trace combination. */
static int base_stage(const compiler *c, int rel)
{
    if (rel == XR_CO || rel == XR_FR)
        return c->stage_co ? CO_STAGE : 0;
    return rel == XR_RF || rel == XR_SYNCBAR ? 0 : STATIC_STAGE;
}

/* herd's FW, the final writes: the writes, initial ones aside, that no
 * write follows in co (with total co, one per location written). */
static value compile_final_writes(compiler *c)
{
    int stage = base_stage(c, XR_CO);
    value followed = emit_op(c, CI_S_DOMAIN, TY_SET, XR_CO, 0, stage);
    value writes = emit_op(c, CI_S_DIFF, TY_SET, XS_W, XS_IW, STATIC_STAGE);
    consume(c, writes, stage);
    consume(c, followed, stage);
    return emit_op(c, CI_S_DIFF, TY_SET, writes.slot, followed.slot, stage);
}

/* let name = a in b (made by cat/lower.c for function arguments). */
static value compile_let_in(compiler *c, const env *e, const cat_expr *x)
{
    value v = compile_expr(c, e, x->a);
    if (c->failed)
        return EMPTY_ANY;
    value bound = v;
    bound.temp = false;
    value r = compile_expr(c, bind(e, x->name, bound), x->b);
    if (v.temp && !r.temp && r.slot == v.slot && r.ty == v.ty)
        r.temp = true; /* the result is the bound value: take it over */
    else
        release(c, v);
    return r;
}

static value compile_name(compiler *c, const env *e, const cat_expr *x)
{
    const env *b = lookup(e, x->name);
    if (b && b->is_func) {
        error_at(c, x->pos, "'%s' is a function: call it with arguments", x->name);
        return EMPTY_ANY;
    }
    if (b) {
        value v = b->v;
        v.temp = false;
        return v;
    }
    if (strcmp(x->name, "id") == 0)
        return emit_op(c, CI_R_IDENT, TY_REL, CAT_SLOT_UNIV, 0, STATIC_STAGE);
    if (strcmp(x->name, "FW") == 0)
        return compile_final_writes(c);
    int i = exec_find_set(x->name);
    if (i >= 0)
        return (value){TY_SET, i, false, STATIC_STAGE};
    i = exec_find_rel(x->name);
    if (i >= 0)
        return (value){TY_REL, i, false, base_stage(c, i)};
    error_at(c, x->pos, "unknown name '%s'", x->name);
    return EMPTY_ANY;
}

static value inline_call(compiler *c, const env *e, const cat_expr *x, const env *f)
{
    const cat_binding *fn = f->fn;
    if (x->nargs != fn->nparams) {
        error_at(c, x->pos, "function '%s' takes %d argument%s, but %d %s given", x->name,
                 fn->nparams, fn->nparams == 1 ? "" : "s", x->nargs,
                 x->nargs == 1 ? "is" : "are");
        return EMPTY_ANY;
    }
    value *args = GC_MALLOC(sizeof *args * (size_t)(x->nargs + 1));
    const env *inner = f->fn_env;
    for (int i = 0; i < x->nargs && !c->failed; i++) {
        args[i] = compile_expr(c, e, x->args[i]);
        value param = args[i];
        param.temp = false;
        inner = bind(inner, fn->params[i], param);
    }
    if (c->failed)
        return EMPTY_ANY;
    if (c->call_depth >= CAT_MAX_CALL_DEPTH) {
        error_at(c, x->pos, "function calls nested too deeply (more than %d) at '%s'",
                 CAT_MAX_CALL_DEPTH, x->name);
        return EMPTY_ANY;
    }
    c->call_depth++;
    value r = compile_expr(c, inner, fn->body);
    c->call_depth--;
    for (int i = 0; i < x->nargs; i++) {
        if (args[i].temp && !r.temp && r.slot == args[i].slot && r.ty == args[i].ty)
            r.temp = true; /* the result is that argument: take it over */
        else
            release(c, args[i]);
    }
    return r;
}

static value compile_call(compiler *c, const env *e, const cat_expr *x)
{
    const env *f = lookup(e, x->name);
    if (f && f->is_func)
        return inline_call(c, e, x, f);
    if (f) {
        error_at(c, x->pos, "'%s' is not a function", x->name);
        return EMPTY_ANY;
    }
    bool dom = strcmp(x->name, "domain") == 0;
    if (!dom && strcmp(x->name, "range") != 0) {
        error_at(c, x->pos, "unknown function '%s'", x->name);
        return EMPTY_ANY;
    }
    if (x->nargs != 1) {
        error_at(c, x->pos, "'%s' takes one argument", x->name);
        return EMPTY_ANY;
    }
    value v = need(c, e, x->args[0], TY_REL, x->pos, x->name);
    if (c->failed)
        return EMPTY_ANY;
    consume(c, v, v.stage);
    if (v.slot < 0)
        return empty_of(TY_SET, v.stage);
    return emit_op(c, dom ? CI_S_DOMAIN : CI_S_RANGE, TY_SET, v.slot, 0, v.stage);
}

/* An operator whose left (or only) operand is compiled by compile_expr's
 * loop rather than by recursion: binary operators (but `[S] ; r`, whose
 * left operand is a set) and unary ones.  Their chains (`a | b | ...`,
 * `r^-1^-1...`) nest to the left as deep as they are long. */
static bool on_left_spine(const cat_expr *x)
{
    switch (x->kind) {
    case CE_SEQ: return x->a->kind != CE_BRACKET;
    case CE_UNION: case CE_INTER: case CE_DIFF: case CE_CART:
    case CE_COMPL: case CE_INV: case CE_PLUS: case CE_STAR: case CE_OPT:
        return true;
    default:
        return false;
    }
}

/* What is not on a left spine: names, constants, calls, brackets, `[S] ; r`,
 * let-in. */
static value compile_leaf(compiler *c, const env *e, const cat_expr *x)
{
    switch (x->kind) {
    case CE_NAME: return compile_name(c, e, x);
    case CE_UNIV: return ALL_EVENTS;
    case CE_BRACKET: return compile_bracket(c, e, x);
    case CE_CALL: return compile_call(c, e, x);
    case CE_SEQ: return compile_restricted_seq(c, e, x);
    case CE_LET_IN: return compile_let_in(c, e, x);
    case CE_ZERO: return EMPTY_ANY;
    default:
        error_at(c, x->pos, "internal: surface expression given to the compiler");
        return EMPTY_ANY;
    }
}

/* Operator x of the spine, its left operand compiled into `left`. */
static value compile_on_left(compiler *c, const env *e, const cat_expr *x, value left)
{
    switch (x->kind) {
    case CE_SEQ: return compile_seq(c, e, x, left);
    case CE_CART: return compile_cart(c, e, x, left);
    case CE_COMPL: return compile_compl(c, left);
    case CE_INV: case CE_PLUS: case CE_STAR: case CE_OPT: return compile_postfix(c, x, left);
    default: return compile_boolean(c, e, x, left);
    }
}

/* The left spine of x is compiled bottom up by a loop, so that a chain of
 * any length takes no stack; recursion is left to right operands and
 * brackets, which the parser bounds (CAT_MAX_EXPR_DEPTH), and to calls,
 * bounded here.  The order of compilation, and so the code, is that of
 * plain recursion (left operand first). */
static value compile_spine(compiler *c, const env *e, const cat_expr *x);

static value compile_expr(compiler *c, const env *e, const cat_expr *x)
{
    if (c->failed)
        return EMPTY_ANY;
    if (++c->nodes > CAT_MAX_COMPILED_NODES) {
        error_at(c, x->pos, "the model is too large once its functions are expanded "
                 "(more than %d operations)", CAT_MAX_COMPILED_NODES);
        return EMPTY_ANY;
    }
    /* Nesting in one expression is bounded by the parser, calls in calls
     * here; an expression nested in the body of a function nested in ...
     * multiplies the two: this bounds the product. */
    if (c->depth >= CAT_MAX_COMPILE_DEPTH) {
        error_at(c, x->pos, "expression nested too deeply once its functions are expanded "
                 "(more than %d levels)", CAT_MAX_COMPILE_DEPTH);
        return EMPTY_ANY;
    }
    c->depth++;
    value v = on_left_spine(x) ? compile_spine(c, e, x) : compile_leaf(c, e, x);
    c->depth--;
    return v;
}

static value compile_spine(compiler *c, const env *e, const cat_expr *x)
{
    size_t n = 0;
    for (const cat_expr *y = x; on_left_spine(y); y = y->a)
        n++;
    const cat_expr *few[8];
    const cat_expr **spine = n <= 8 ? few : GC_MALLOC(sizeof *spine * n);
    if (!spine) {
        error_at(c, x->pos, "out of memory");
        return EMPTY_ANY;
    }
    n = 0;
    for (const cat_expr *y = x; on_left_spine(y); y = y->a)
        spine[n++] = y;
    c->nodes += (long)n;
    value v = compile_leaf(c, e, spine[n - 1]->a);
    for (size_t i = n; i-- > 0 && !c->failed;)
        v = compile_on_left(c, e, spine[i], v);
    return c->failed ? EMPTY_ANY : v;
}

/* ---- Statements ---- */

static cat_block *block_of(compiler *c, int stage)
{
    if (stage == STATIC_STAGE)
        return &c->static_block;
    return stage == CO_STAGE ? &c->co_block : &c->m->blocks[stage];
}

/* Moves the current statement's code to the ends of the blocks of its
 * instructions' stages, keeping their order. */
static void finish_stmt(compiler *c)
{
    for (int i = 0; i < c->cur.ncode; i++)
        push_instr(block_of(c, c->cur_stage[i]), c->cur.code[i]);
    c->cur.ncode = 0;
}

static void compile_let(compiler *c, const env **e, const cat_stmt *s)
{
    const env *scope = *e;
    for (int i = 0; i < s->nbinds && !c->failed; i++) {
        const cat_binding *b = &s->binds[i];
        if (b->is_func) {
            env *f = GC_MALLOC(sizeof *f);
            f->name = b->name;
            f->is_func = true;
            f->fn = b;
            f->fn_env = *e;
            f->next = scope;
            scope = f;
            continue;
        }
        value v = compile_expr(c, *e, b->body);
        v.temp = false; /* the binding owns it for good */
        scope = bind(scope, b->name, v);
    }
    *e = scope;
    finish_stmt(c);
}

/* Types of the variables of `let rec`, and the stage of the whole
 * definition: iterate from "unknown" and "static" until stable. */
static ctype *infer_rec_types(compiler *c, const env *e, const cat_stmt *s, int *stage)
{
    ctype *ty = GC_MALLOC_ATOMIC(sizeof *ty * (size_t)s->nbinds);
    for (int i = 0; i < s->nbinds; i++)
        ty[i] = TY_ANY;
    *stage = STATIC_STAGE;
    c->dry = true;
    for (bool changed = true; changed && !c->failed;) {
        changed = false;
        const env *inner = e;
        for (int i = 0; i < s->nbinds; i++)
            inner = bind(inner, s->binds[i].name,
                         (value){ty[i], ty[i] == TY_ANY ? -1 : 0, false, *stage});
        for (int i = 0; i < s->nbinds && !c->failed; i++) {
            value v = compile_expr(c, inner, s->binds[i].body);
            if (c->failed)
                continue;
            if (v.stage > *stage) {
                *stage = v.stage;
                changed = true;
            }
            if (v.ty == TY_ANY || v.ty == ty[i])
                continue;
            if (ty[i] != TY_ANY) {
                error_at(c, s->binds[i].pos, "type error: '%s' is both a set and a relation",
                         s->binds[i].name);
                break;
            }
            ty[i] = v.ty;
            changed = true;
        }
    }
    c->dry = false;
    return ty;
}

static void compile_rec(compiler *c, const env **e, const cat_stmt *s)
{
    int n = s->nbinds;
    for (int i = 0; i < n; i++)
        if (s->binds[i].is_func) {
            error_at(c, s->binds[i].pos, "recursive functions are not supported");
            return;
        }
    int stage;
    ctype *ty = infer_rec_types(c, *e, s, &stage);
    if (c->failed)
        return;
    /* The loop jumps back over its body: every instruction of the
     * definition stays in the block of its stage, none is hoisted. */
    c->floor = stage;
    int *slot = GC_MALLOC_ATOMIC(sizeof *slot * (size_t)n);
    const env *inner = *e;
    int nvars = 0;
    for (int i = 0; i < n; i++) {
        slot[i] = ty[i] == TY_ANY ? -1 : fresh_slot(c, ty[i]);
        if (slot[i] >= 0) {
            nvars++;
            emit(c, ty[i] == TY_SET ? CI_S_EMPTY : CI_R_EMPTY, slot[i], 0, 0, 0, stage);
        }
        inner = bind(inner, s->binds[i].name, (value){ty[i], slot[i], false, stage});
    }
    if (nvars > 0)
        emit(c, CI_FIX_START, 0, 0, 0, 0, stage);
    int loop_start = c->cur.ncode;
    value *nv = GC_MALLOC_ATOMIC(sizeof *nv * (size_t)n);
    for (int i = 0; i < n && !c->failed; i++)
        nv[i] = compile_expr(c, inner, s->binds[i].body);
    if (c->failed)
        return;
    for (int i = 0; i < n; i++) {
        if (slot[i] < 0)
            continue;
        if (nv[i].slot < 0)
            nv[i] = emit_op(c, ty[i] == TY_SET ? CI_S_EMPTY : CI_R_EMPTY, ty[i], 0, 0, stage);
        emit(c, ty[i] == TY_SET ? CI_S_UPDATE : CI_R_UPDATE, 0, slot[i], nv[i].slot, 0, stage);
    }
    for (int i = 0; i < n; i++)
        if (slot[i] >= 0)
            release(c, nv[i]);
    /* A monotone definition adds a pair per round: the evaluator bounds
     * the rounds by nvars times the square of the execution's size. */
    if (nvars > 0)
        emit(c, CI_FIX_LOOP, 0, c->cur.ncode - loop_start, nvars, 0, stage);
    c->floor = STATIC_STAGE;
    for (int i = 0; i < n; i++)
        *e = bind(*e, s->binds[i].name, (value){ty[i], slot[i], false, stage});
    finish_stmt(c);
}

/* `empty (a & b)`, `empty (a \ b)` and `irreflexive (a ; b)` need not
 * build the relation: when the instruction just emitted made the checked
 * temporary, the check takes its place and reads its operands.  Flags keep
 * the relation (race reports list its pairs). */
static int rel_stage(const compiler *c, int slot)
{
    return slot < XR_COUNT ? base_stage(c, slot) : c->rel_writer[slot];
}

/* irreflexive (a ; b) holds exactly when a & b^-1 is empty, and when b & a^-1
 * is: with the inverse of the operand of the earlier stage made there, the
 * check at the later stage is one pass over rows (Causality in ptx6:
 * cause is known per reads-from choice, rf | fr per coherence choice). */
static void fuse_split_irreflexive(compiler *c, const cat_instr *seq, int check, int stage)
{
    bool a_first = rel_stage(c, seq->a) < rel_stage(c, seq->b);
    int early = a_first ? seq->a : seq->b, late = a_first ? seq->b : seq->a;
    int early_stage = rel_stage(c, early);
    int inverse = alloc_slot(c, TY_REL, early_stage); /* read later: never given back */
    emit(c, CI_R_INV, inverse, early, 0, 0, early_stage);
    emit(c, CI_CHECK_FUSED, check, late, inverse, CI_R_INTER, stage);
}

static bool fuse_check(compiler *c, value v, const cat_check_info *ci, int check)
{
    if (c->explain || !v.temp || v.slot < 0 || ci->is_set || ci->flag >= 0 || c->cur.ncode == 0)
        return false;
    const cat_instr *last = &c->cur.code[c->cur.ncode - 1];
    if (last->dst != v.slot || c->cur_stage[c->cur.ncode - 1] != v.stage)
        return false;
    bool fits = ci->kind == CK_EMPTY ? last->op == CI_R_INTER || last->op == CI_R_DIFF
              : ci->kind == CK_IRREFLEXIVE && last->op == CI_R_SEQ;
    if (!fits)
        return false;
    cat_instr made = *last;
    c->cur.ncode--;
    if (made.op == CI_R_SEQ && rel_stage(c, made.a) != rel_stage(c, made.b))
        fuse_split_irreflexive(c, &made, check, v.stage);
    else
        emit(c, CI_CHECK_FUSED, check, made.a, made.b, made.op, v.stage);
    return true;
}

static void compile_check(compiler *c, const env *e, const cat_stmt *s)
{
    value v = compile_expr(c, e, s->expr);
    if (c->failed)
        return;
    static const char *const kinds[] = {"acyclic", "irreflexive", "empty", "show"};
    if (s->check != CK_EMPTY && s->check != CK_SHOW && v.ty == TY_SET) {
        error_at(c, s->pos, "type error: '%s' needs a relation, but this is a set",
                 kinds[s->check]);
        return;
    }
    cat_model *m = c->m;
    cat_check_info info = {s->check, s->negate, v.ty == TY_SET, -1, s->name ? s->name : s->text};
    if (s->flag) {
        if (m->nflags == CAT_MAX_FLAGS) {
            error_at(c, s->pos, "too many flags (at most %d)", CAT_MAX_FLAGS);
            return;
        }
        info.flag = m->nflags;
        if (s->undefined)
            m->undefined_flags |= 1u << m->nflags;
        m->flag_names[m->nflags++] = info.name;
    }
    m->checks = grow(m->checks, m->nchecks, &c->check_cap, sizeof *m->checks);
    m->checks[m->nchecks] = info;
    if (!fuse_check(c, v, &info, m->nchecks))
        emit(c, CI_CHECK, 0, v.slot, m->nchecks, 0, v.stage);
    m->nchecks++;
    release(c, v);
    finish_stmt(c);
}

static void add_block(compiler *c)
{
    cat_model *m = c->m;
    m->blocks = grow(m->blocks, m->nblocks, &c->block_cap, sizeof *m->blocks);
    m->blocks[m->nblocks++] = (cat_block){NULL, 0, 0, -1};
}

static void compile_with(compiler *c, const env **e, const cat_stmt *s)
{
    /* Both operands keep their slots for good: they are read during the
     * whole enumeration. */
    value set = need(c, *e, s->set, TY_SET, s->set->pos, "linearisations");
    value rel = need(c, *e, s->rel, TY_REL, s->rel->pos, "linearisations");
    if (c->failed)
        return;
    cat_model *m = c->m;
    if (m->nwiths == CAT_MAX_WITHS) {
        error_at(c, s->pos, "too many 'with' statements (at most %d)", CAT_MAX_WITHS);
        return;
    }
    int k = m->nblocks - 1;
    if (set.stage == CO_STAGE || rel.stage == CO_STAGE)
        c->co_conflict = true;
    finish_stmt(c);
    cat_with_info w = {set.slot, rel.slot, s->per_loc, fresh_slot(c, TY_REL), fresh_slot(c, TY_REL),
                       k + 1, s->text};
    note_rel_write(c, w.var, k + 1);
    note_rel_write(c, w.pred, k);
    m->withs = grow(m->withs, m->nwiths, &c->with_cap, sizeof *m->withs);
    m->withs[m->nwiths] = w;
    m->blocks[k].with = m->nwiths++;
    add_block(c);
    *e = bind(*e, s->var, (value){TY_REL, w.var, false, k + 1});
}

static const char *title_from(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".cat") == 0)
        n -= 4;
    char *t = GC_MALLOC_ATOMIC(n + 1);
    memcpy(t, base, n);
    t[n] = '\0';
    return t;
}

static cat_model *compile_model(const cat_ast *ast, const char *default_title, FILE *errors,
                                bool stage_co, bool explain, bool *co_conflict)
{
    compiler c;
    memset(&c, 0, sizeof c);
    c.errors = errors;
    c.explain = explain;
    c.stage_co = stage_co;
    c.floor = STATIC_STAGE;
    c.rels.next = XR_COUNT;
    c.sets.next = CAT_SLOT_UNIV + 1;
    cat_model *m = c.m = GC_MALLOC(sizeof *m);
    m->title = ast->title ? ast->title : title_from(default_title);
    m->co_mode = ast->co_mode;
    m->thread_coherent = ast->thread_coherent;
    m->thin_air = ast->thin_air;
    m->flags_undefined = ast->flags_undefined;
    add_block(&c);
    const env *e = NULL;
    for (int i = 0; i < ast->nstmts && !c.failed; i++) {
        const cat_stmt *s = &ast->stmts[i];
        switch (s->kind) {
        case CS_LET: compile_let(&c, &e, s); break;
        case CS_LET_REC: compile_rec(&c, &e, s); break;
        case CS_CHECK: compile_check(&c, e, s); break;
        case CS_WITH: compile_with(&c, &e, s); break;
        default: error_at(&c, s->pos, "internal: surface statement given to the compiler"); break;
        }
    }
    if (c.failed)
        return NULL;
    *co_conflict = c.co_conflict;
    m->co_block = -1;
    if (stage_co) {
        add_block(&c);
        m->co_block = m->nblocks - 1;
        m->blocks[m->co_block] = c.co_block;
        m->blocks[m->co_block].with = -1;
    }
    add_block(&c);
    m->static_block = m->nblocks - 1;
    m->blocks[m->static_block] = c.static_block;
    m->blocks[m->static_block].with = -1;
    m->nrel_slots = c.rels.next;
    m->nset_slots = c.sets.next;
    return m;
}

static cat_model *compile_staged(const cat_ast *ast, const char *default_title, bool explain, FILE *errors)
{
    bool conflict = false;
    cat_model *m = compile_model(ast, default_title, errors, true, explain, &conflict);
    if (m && conflict)
        m = compile_model(ast, default_title, errors, false, explain, &conflict);
    return m;
}

cat_model *cat_compile(const cat_ast *ast, const char *default_title, FILE *errors)
{
    cat_model *m = compile_staged(ast, default_title, false, errors);
    if (m)
        cat_find_prunable(m);
    return m;
}

cat_model *cat_compile_explain(const cat_ast *ast, const char *default_title, FILE *errors)
{
    return compile_staged(ast, default_title, true, errors);
}
