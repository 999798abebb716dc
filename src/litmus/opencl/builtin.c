/*
 * litmus/opencl/builtin.c: the OpenCL builtin functions (atomics, fences,
 * barriers) compiled into loads, stores, read-modify-writes, fences and barriers.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus/lex.h"
#include "litmus/opencl/internal.h"
#include "litmus/litmus.h"

/* ---- builtin calls ------------------------------------------------------------ */

static bool node_is(const node *e, const char *name)
{
    return e->kind == N_VAR && strcmp(e->name, name) == 0;
}

static bool arg_order(oparser *p, node *e, enum lit_order *o)
{
    static const struct { const char *n; enum lit_order o; } orders[] = {
        { "memory_order_relaxed", ORD_RELAXED }, { "memory_order_acquire", ORD_ACQUIRE },
        { "memory_order_release", ORD_RELEASE }, { "memory_order_acq_rel", ORD_ACQ_REL },
        { "memory_order_seq_cst", ORD_SC },
    };
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (node_is(e, orders[i].n)) {
            *o = orders[i].o;
            return true;
        }
    lex_error(LX, e->line, e->col, "expected a memory order (memory_order_relaxed, _acquire, "
              "_release, _acq_rel or _seq_cst)");
    return false;
}

static bool arg_scope(oparser *p, node *e, enum lit_scope *s)
{
    static const struct { const char *n; enum lit_scope s; } scopes[] = {
        { "memory_scope_work_item", SCOPE_WI }, { "memory_scope_work_group", SCOPE_CTA },
        { "memory_scope_device", SCOPE_GPU }, { "memory_scope_all_svm_devices", SCOPE_SYS },
    };
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++)
        if (node_is(e, scopes[i].n)) {
            *s = scopes[i].s;
            return true;
        }
    lex_error(LX, e->line, e->col, "expected a memory scope (memory_scope_work_item, _work_group, "
              "_device or _all_svm_devices)");
    return false;
}

/* The regions that fence flags `A | B | ...` name, or -1 with *bad set to
 * the leftmost operand that is no flag.  The chain nests to the left as
 * deep as it is long: a loop walks it, recursion goes only into right
 * operands (parenthesised, so bounded by the parser's depth). */
static int flags_of(node *e, node **bad)
{
    int all = 0;
    for (; e->kind == N_BIN && e->op == B_OR; e = e->l) {
        int r = flags_of(e->r, bad);
        all = all < 0 || r < 0 ? -1 : all | r;
    }
    int r = node_is(e, "CLK_GLOBAL_MEM_FENCE") ? REGION_GLOBAL
          : node_is(e, "CLK_LOCAL_MEM_FENCE") ? REGION_LOCAL : -1;
    if (r < 0)
        *bad = e;       /* visited right to left: the last one is the leftmost */
    return all < 0 || r < 0 ? -1 : all | r;
}

static bool arg_flags(oparser *p, node *e, uint8_t *regions)
{
    node *bad = NULL;
    int r = flags_of(e, &bad);
    if (r >= 0) {
        *regions = (uint8_t)r;
        return true;
    }
    lex_error(LX, bad->line, bad->col, "expected fence flags (CLK_GLOBAL_MEM_FENCE, "
              "CLK_LOCAL_MEM_FENCE, or both joined by '|')");
    return false;
}

/* The location an atomic's object argument names: x or &x (the location
 * x), &y[i] or y[i] (an element of array y). */
static int arg_loc(oparser *p, node *e, const char *fn)
{
    if ((e->kind == N_VAR || e->kind == N_ADDR) && !e->index && ocl_local_index(p, e->name) < 0)
        return ocl_deref_loc(p, e->name, e->line, e->col);
    if ((e->kind == N_ADDR || e->kind == N_INDEX) && e->index)
        return ocl_node_loc(p, e, "the first argument");
    lex_error(LX, e->line, e->col, "the first argument of '%s' must be a location (a pointer parameter)",
              fn);
    return -1;
}

enum fn_kind { F_LOAD, F_STORE, F_RMW, F_CAS, F_INIT, F_FENCE, F_BARRIER };

/* A builtin call, classified: its name, kind and form, and once its
 * arguments are read the location, memory order and scope it uses. */
typedef struct call {
    const char *fn;
    enum fn_kind kind;
    enum lit_rmw_op rop;     /* F_RMW */
    bool remote, explicit;   /* ..._remote, ..._explicit */
    int nvals;               /* value arguments before the order arguments */
    int loc;
    enum lit_order order;
    enum lit_scope scope;
} call;

/* ---- classifying a call ---------------------------------------------------------- */

/* Take `suffix` off the first *n characters of s, if they end with it. */
static bool ends_with(const char *s, size_t *n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (*n > k && memcmp(s + *n - k, suffix, k) == 0) {
        *n -= k;
        return true;
    }
    return false;
}

/* The first n characters of fn are `name`. */
static bool base_is(const char *fn, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(fn, name, n) == 0;
}

/* Fences and barriers, which have no _explicit or _remote forms. */
static bool classify_sync(call *c)
{
    if (strcmp(c->fn, "atomic_init") == 0)
        c->kind = F_INIT;
    else if (strcmp(c->fn, "atomic_work_item_fence") == 0 || strcmp(c->fn, "fence") == 0)
        c->kind = F_FENCE;   /* fence(...): herd's name for it */
    else if (strcmp(c->fn, "barrier") == 0 || strcmp(c->fn, "work_group_barrier") == 0)
        c->kind = F_BARRIER;
    else
        return false;
    return true;
}

/* atomic_load, atomic_store, the read-modify-writes and compare-exchanges,
 * each with optional _explicit (orders and scope as arguments) and _remote
 * (remote-scope promotion) suffixes, in that order. */
static bool classify_atomic(call *c)
{
    static const struct { const char *n; enum lit_rmw_op op; } rmws[] = {
        { "atomic_exchange", RMW_EXCH }, { "atomic_fetch_add", RMW_ADD },
        { "atomic_fetch_sub", RMW_SUB }, { "atomic_fetch_and", RMW_AND },
        { "atomic_fetch_or", RMW_OR }, { "atomic_fetch_xor", RMW_XOR },
        { "atomic_fetch_min", RMW_MIN }, { "atomic_fetch_max", RMW_MAX },
    };
    const char *fn = c->fn;
    size_t n = strlen(fn);
    c->remote = ends_with(fn, &n, "_remote");
    c->explicit = ends_with(fn, &n, "_explicit");
    for (size_t i = 0; i < sizeof rmws / sizeof rmws[0]; i++)
        if (base_is(fn, n, rmws[i].n)) {
            c->kind = F_RMW;
            c->rop = rmws[i].op;
            return true;
        }
    if (base_is(fn, n, "atomic_load"))
        c->kind = F_LOAD;
    else if (base_is(fn, n, "atomic_store"))
        c->kind = F_STORE;
    else if (base_is(fn, n, "atomic_compare_exchange_strong") || base_is(fn, n, "atomic_compare_exchange_weak"))
        c->kind = F_CAS;
    else
        return false;
    return true;
}

/* The kind of the call by its name ("unknown function" if none). */
static bool classify(oparser *p, node *e, call *c)
{
    c->fn = e->name;
    c->rop = RMW_ADD;
    c->remote = c->explicit = false;
    if (classify_sync(c) || classify_atomic(c))
        return true;
    lex_error(LX, e->line, e->col, "unknown function '%s'", c->fn);
    return false;
}

/* The number of arguments, which depends on the kind and form. */
static bool check_arity(oparser *p, node *e, call *c)
{
    const char *fn = c->fn;
    enum fn_kind kind = c->kind;
    /* argument counts: values before the order arguments */
    int nvals = kind == F_LOAD ? 1 : kind == F_CAS ? 3 : kind == F_FENCE ? 3 : 2;
    int lo = nvals, hi = nvals;
    if (kind == F_BARRIER) { lo = 1; hi = strcmp(fn, "barrier") == 0 ? 1 : 2; }
    else if (c->explicit) { lo = nvals + (kind == F_CAS ? 2 : 1); hi = lo + 1; }
    if (e->nargs < lo || e->nargs > hi) {
        if (lo == hi)
            lex_error(LX, e->line, e->col, "'%s' takes %d argument%s, not %d", fn, lo, lo == 1 ? "" : "s",
                      e->nargs);
        else
            lex_error(LX, e->line, e->col, "'%s' takes %d or %d arguments, not %d", fn, lo, hi, e->nargs);
        return false;
    }
    c->nvals = nvals;
    return true;
}

/* A call whose value is used must have one. */
static bool check_value_use(oparser *p, node *e, const call *c, int dst)
{
    bool has_value = c->kind == F_LOAD || c->kind == F_RMW || c->kind == F_CAS;
    if (dst >= 0 && !has_value) {
        lex_error(LX, e->line, e->col, "'%s' has no value", c->fn);
        return false;
    }
    return true;
}

/* The memory order and scope of an atomic access: SC and device scope
 * unless explicit, none for atomic_init. */
static bool order_and_scope(oparser *p, node *e, call *c)
{
    enum fn_kind kind = c->kind;
    int nvals = c->nvals;
    enum lit_order order = ORD_SC;
    enum lit_scope scope = SCOPE_GPU;       /* OpenCL 2.0: memory_scope_device by default */
    if (kind == F_INIT) {
        order = ORD_WEAK;
        scope = SCOPE_NONE;
    } else if (c->explicit) {
        if (!arg_order(p, e->args[nvals], &order))
            return false;
        int nord = kind == F_CAS ? 2 : 1;
        if (kind == F_CAS) {
            enum lit_order fail;
            if (!arg_order(p, e->args[nvals + 1], &fail))
                return false;
        }
        if (e->nargs == nvals + nord + 1 && !arg_scope(p, e->args[nvals + nord], &scope))
            return false;
        /* herd accepts any order on a load or store (its suite has
         * release loads and acquire stores): the model sees the order */
        if (!p->herd && kind == F_LOAD && (order == ORD_RELEASE || order == ORD_ACQ_REL)) {
            lex_error(LX, e->args[1]->line, e->args[1]->col,
                      "a load cannot have memory order release or acq_rel");
            return false;
        }
        if (!p->herd && kind == F_STORE && (order == ORD_ACQUIRE || order == ORD_ACQ_REL)) {
            lex_error(LX, e->args[2]->line, e->args[2]->col,
                      "a store cannot have memory order acquire or acq_rel");
            return false;
        }
    }

    c->order = order;
    c->scope = scope;
    return true;
}

/* ---- compiling a call ------------------------------------------------------------- */

/* The id of a barrier call: the k-th barrier of the thread's text meets the
 * k-th of the other work-items of its work group; in herd's format a
 * labelled barrier ("B1: barrier(...)") meets the barriers of the same
 * label instead, as herd's same_B does. */
static lit_value barrier_id(oparser *p)
{
    enum { LABELLED = 1 << 20 };
    if (!p->herd || !p->stmt_label)
        return p->nbarriers++;
    for (int i = 0; i < p->nbarrier_labels; i++)
        if (strcmp(p->barrier_labels[i], p->stmt_label) == 0)
            return LABELLED + i;
    const char **n = ocl_append(p->barrier_labels, p->nbarrier_labels, sizeof *n);
    if (!n)
        return LABELLED + p->nbarrier_labels;
    p->barrier_labels = n;
    p->barrier_labels[p->nbarrier_labels] = p->stmt_label;
    return LABELLED + p->nbarrier_labels++;
}

/* atomic_work_item_fence(flags, order, scope), barrier(flags),
 * work_group_barrier(flags[, scope]) */
static bool gen_fence_barrier(oparser *p, node *e, enum fn_kind kind)
{
    uint8_t regions = 0;
    if (!arg_flags(p, e->args[0], &regions))
        return false;
    if (kind == F_BARRIER) {
        enum lit_scope s = SCOPE_CTA;
        if (e->nargs == 2 && !arg_scope(p, e->args[1], &s))
            return false;
        lit_instr *in = ocl_emit(p, OP_BARRIER, e->line, e->col);
        if (!in)
            return false;
        in->barrier_waits = true;
        in->scope = SCOPE_CTA;
        in->a = imm(barrier_id(p));
        in->b.kind = OPND_NONE;
        in->regions = regions;
        return true;
    }
    enum lit_order o;
    enum lit_scope s;
    if (!arg_order(p, e->args[1], &o) || !arg_scope(p, e->args[2], &s))
        return false;
    lit_instr *in = ocl_emit(p, OP_FENCE, e->line, e->col);
    if (!in)
        return false;
    in->order = o;
    in->scope = s;
    in->regions = regions;
    return true;
}

/* An instruction that accesses the call's location with its order, scope
 * and form (NULL after reporting). */
static lit_instr *emit_access(oparser *p, enum lit_opcode op, const node *e, const call *c)
{
    lit_instr *in = ocl_emit(p, op, e->line, e->col);
    if (in) {
        in->loc = c->loc;
        in->order = c->order;
        in->scope = c->scope;
        in->remote = c->remote;
        in->addr = ocl_node_addr(e->args[0]);
    }
    return in;
}

/* atomic_load(object): a statement's load still needs a register. */
static bool gen_load(oparser *p, node *e, const call *c, int dst)
{
    if (dst < 0)
        dst = ocl_new_temp(p);
    lit_instr *in = emit_access(p, OP_LOAD, e, c);
    if (!in)
        return false;
    in->dst = dst;
    return true;
}

/* atomic_store(object, v), atomic_init(object, v) and the
 * read-modify-writes atomic_fetch_OP(object, v), atomic_exchange(object, v). */
static bool gen_store_or_rmw(oparser *p, node *e, const call *c, int dst, ocl_value_compiler gen_value)
{
    lit_operand v;
    if (!gen_value(p, e->args[1], &v))
        return false;
    lit_instr *in = emit_access(p, c->kind == F_RMW ? OP_RMW : OP_STORE, e, c);
    if (!in)
        return false;
    in->a = v;
    if (c->kind == F_RMW) {
        in->rmw_op = c->rop;
        in->dst = dst;
    }
    return true;
}

/* ---- compare-exchange ------------------------------------------------------------- */

/* The expected argument of a compare-exchange: a location (x or &x, for a
 * pointer parameter x) or a variable (&v); the compare-exchange reads it
 * and, when it fails, writes the value it found there. */
typedef struct cas_expected {
    node *arg;
    int loc;                 /* the location, or -1 */
    int reg;                 /* the variable's register, or -1 */
} cas_expected;

static bool cas_expected_arg(oparser *p, node *ex, const char *fn, cas_expected *x)
{
    x->arg = ex;
    x->loc = x->reg = -1;
    if ((ex->kind == N_ADDR || ex->kind == N_INDEX) && ex->index) {
        x->loc = ocl_node_loc(p, ex, "the expected argument");
        return x->loc >= 0;
    }
    if (ex->kind == N_ADDR && ocl_local_index(p, ex->name) >= 0) {
        x->reg = ocl_local_index(p, ex->name);
        return true;
    }
    if ((ex->kind == N_VAR || ex->kind == N_ADDR) && ocl_location_named(p, ex->name) >= 0) {
        x->loc = ocl_location_named(p, ex->name);
        return true;
    }
    lex_error(LX, ex->line, ex->col, "the expected argument of '%s' must be a location "
              "(a pointer parameter) or &variable", fn);
    return false;
}

/* The expected value, in a fresh temporary: a copy even of a variable, so
 * that writing the variable back on failure cannot disturb the comparison. */
static bool read_expected(oparser *p, const cas_expected *x, lit_operand *out)
{
    int t = ocl_new_temp(p);
    *out = regop(t);
    if (x->loc >= 0)
        return ocl_emit_plain_load(p, t, x->loc, x->arg->line, x->arg->col) != NULL;
    return ocl_emit_mov(p, t, regop(x->reg), x->arg->line, x->arg->col) != NULL;
}

/* On failure the value found (in register old) goes to the expected object. */
static bool write_back_expected(oparser *p, const cas_expected *x, int old)
{
    if (x->loc >= 0)
        return ocl_emit_plain_store(p, x->loc, regop(old), x->arg->line, x->arg->col) != NULL;
    return ocl_emit_mov(p, x->reg, regop(old), x->arg->line, x->arg->col) != NULL;
}

/* dst = v, when the call's value is used (dst >= 0). */
static bool set_result(oparser *p, const node *e, int dst, lit_value v)
{
    return dst < 0 || ocl_emit_mov(p, dst, imm(v), e->line, e->col) != NULL;
}

/* if (old != expected) goto fail; dst = 1; goto end;
 * fail: expected object = old; dst = 0; end: */
static bool cas_outcome(oparser *p, node *e, const cas_expected *x, lit_operand expv, int old, int dst)
{
    int lfail = ocl_new_label(p), lend = ocl_new_label(p);
    if (lfail < 0 || lend < 0 || !ocl_emit_branch(p, CMP_NE, regop(old), expv, lfail, e->line, e->col) ||
        !set_result(p, e, dst, 1) || !ocl_emit_goto(p, lend, e->line, e->col))
        return false;
    ocl_place_label(p, lfail);
    if (!write_back_expected(p, x, old) || !set_result(p, e, dst, 0))
        return false;
    ocl_place_label(p, lend);
    return true;
}

/* compare-exchange(object, expected, desired, ...): C semantics over the
 * expected object; dst (if >= 0) receives 1 on success, 0 on failure. */
static bool gen_cas(oparser *p, node *e, const call *c, int dst, ocl_value_compiler gen_value)
{
    cas_expected x;
    lit_operand expv, des;
    if (!cas_expected_arg(p, e->args[1], c->fn, &x) || !read_expected(p, &x, &expv) ||
        !gen_value(p, e->args[2], &des))
        return false;
    int old = ocl_new_temp(p);
    lit_instr *in = emit_access(p, OP_RMW, e, c);
    if (!in)
        return false;
    in->rmw_op = RMW_CAS;
    in->dst = old;
    in->a = expv;
    in->b = des;
    return cas_outcome(p, e, &x, expv, old, dst);
}

bool ocl_call(oparser *p, node *e, int dst, ocl_value_compiler gen_value)
{
    return (p->gen_call ? p->gen_call : ocl_gen_call)(p, e, dst, gen_value);
}

/* Compile a call; `dst` is the register that receives its value, or -1
 * when the value is unused (a call statement). */
typedef struct call_ctx {
    node *e;
    int dst;
    ocl_value_compiler gen_value;
} call_ctx;

static bool gen_call_for_element(oparser *p, void *ctx)
{
    call_ctx *c = ctx;
    return ocl_gen_call(p, c->e, c->dst, c->gen_value);
}

bool ocl_gen_call(oparser *p, node *e, int dst, ocl_value_compiler gen_value)
{
    call c;
    if (!classify(p, e, &c) || !check_arity(p, e, &c) || !check_value_use(p, e, &c, dst))
        return false;
    if (c.kind == F_FENCE || c.kind == F_BARRIER)
        return gen_fence_barrier(p, e, c.kind);
    /* an object (or compare-exchange expected) argument y[r]: one copy of
     * the call per element of y */
    int nloc = c.kind == F_CAS ? 2 : 1;
    for (int i = 0; i < nloc; i++)
        if (ocl_needs_dispatch(e->args[i])) {
            call_ctx cc = { e, dst, gen_value };
            return ocl_each_element(p, e->args[i], gen_value, gen_call_for_element, &cc);
        }
    c.loc = arg_loc(p, e->args[0], c.fn);
    if (c.loc < 0 || !order_and_scope(p, e, &c))
        return false;
    if (c.kind == F_LOAD)
        return gen_load(p, e, &c, dst);
    if (c.kind == F_CAS)
        return gen_cas(p, e, &c, dst, gen_value);
    return gen_store_or_rmw(p, e, &c, dst, gen_value);
}
