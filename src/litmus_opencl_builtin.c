/*
 * litmus_opencl_builtin.c: the OpenCL builtin functions (atomics, fences,
 * barriers) compiled into loads, stores, read-modify-writes, fences and barriers.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus_lex.h"
#include "litmus_opencl_impl.h"
#include "litmus_read.h"

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

static bool arg_flags(oparser *p, node *e, uint8_t *regions)
{
    if (e->kind == N_BIN && e->op == B_OR) {
        uint8_t a = 0, b = 0;
        if (!arg_flags(p, e->l, &a) || !arg_flags(p, e->r, &b))
            return false;
        *regions = a | b;
        return true;
    }
    if (node_is(e, "CLK_GLOBAL_MEM_FENCE")) { *regions = REGION_GLOBAL; return true; }
    if (node_is(e, "CLK_LOCAL_MEM_FENCE")) { *regions = REGION_LOCAL; return true; }
    lex_error(LX, e->line, e->col, "expected fence flags (CLK_GLOBAL_MEM_FENCE, "
              "CLK_LOCAL_MEM_FENCE, or both joined by '|')");
    return false;
}

/* The location an atomic's object argument names. */
static int arg_loc(oparser *p, node *e, const char *fn)
{
    node *x = e;                    /* x or &x: the location x */
    if ((x->kind == N_VAR || x->kind == N_ADDR) && ocl_local_index(p, x->name) < 0) {
        int l = ocl_param_loc(p, x->name);
        if (l >= 0)
            return l;
        lex_error(LX, x->line, x->col, "undeclared location '%s' (not a parameter of thread %s)",
                  x->name, p->th->name);
        return -1;
    }
    lex_error(LX, e->line, e->col, "the first argument of '%s' must be a location (a pointer parameter)",
              fn);
    return -1;
}

enum fn_kind { F_LOAD, F_STORE, F_RMW, F_CAS, F_INIT, F_FENCE, F_BARRIER };

static bool ends_with(const char *s, size_t *n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (*n > k && memcmp(s + *n - k, suffix, k) == 0) {
        *n -= k;
        return true;
    }
    return false;
}

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

/* The kind of the call by its name ("unknown function" if none). */
static bool classify(oparser *p, node *e, call *c)
{
    const char *fn = e->name;
    size_t n = strlen(fn);
    bool remote = ends_with(fn, &n, "_remote");
    bool explicit = ends_with(fn, &n, "_explicit");
    char base[64];
    if (n >= sizeof base)
        n = sizeof base - 1;
    memcpy(base, fn, n);
    base[n] = '\0';

    enum fn_kind kind;
    enum lit_rmw_op rop = RMW_ADD;
    static const struct { const char *n; enum lit_rmw_op op; } rmws[] = {
        { "atomic_exchange", RMW_EXCH }, { "atomic_fetch_add", RMW_ADD },
        { "atomic_fetch_sub", RMW_SUB }, { "atomic_fetch_and", RMW_AND },
        { "atomic_fetch_or", RMW_OR }, { "atomic_fetch_xor", RMW_XOR },
        { "atomic_fetch_min", RMW_MIN }, { "atomic_fetch_max", RMW_MAX },
    };
    int k = -1;
    for (size_t i = 0; i < sizeof rmws / sizeof rmws[0]; i++)
        if (strcmp(base, rmws[i].n) == 0)
            k = (int)i;
    if (k >= 0) { kind = F_RMW; rop = rmws[k].op; }
    else if (strcmp(base, "atomic_load") == 0) kind = F_LOAD;
    else if (strcmp(base, "atomic_store") == 0) kind = F_STORE;
    else if (strcmp(base, "atomic_compare_exchange_strong") == 0 ||
             strcmp(base, "atomic_compare_exchange_weak") == 0) kind = F_CAS;
    else if (strcmp(fn, "atomic_init") == 0) kind = F_INIT;
    else if (strcmp(fn, "atomic_work_item_fence") == 0) kind = F_FENCE;
    else if (strcmp(fn, "barrier") == 0 || strcmp(fn, "work_group_barrier") == 0) kind = F_BARRIER;
    else {
        lex_error(LX, e->line, e->col, "unknown function '%s'", fn);
        return false;
    }
    if ((remote || explicit) && (kind == F_INIT || kind == F_FENCE || kind == F_BARRIER)) {
        lex_error(LX, e->line, e->col, "unknown function '%s'", fn);
        return false;
    }

    c->fn = fn;
    c->kind = kind;
    c->rop = rop;
    c->remote = remote;
    c->explicit = explicit;
    return true;
}

/* The number of arguments, which depends on the kind and form. */
static bool check_arity(oparser *p, node *e, call *c)
{
    const char *fn = c->fn;
    enum fn_kind kind = c->kind;
    bool explicit = c->explicit;
    /* argument counts: values before the order arguments */
    int nvals = kind == F_LOAD ? 1 : kind == F_CAS ? 3 : kind == F_FENCE ? 3 : 2;
    int lo = nvals, hi = nvals;
    if (kind == F_BARRIER) { lo = 1; hi = strcmp(fn, "barrier") == 0 ? 1 : 2; }
    else if (explicit) { lo = nvals + (kind == F_CAS ? 2 : 1); hi = lo + 1; }
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
        /* the k-th barrier of the thread's text meets the k-th of
         * the other work-items of its work group */
        in->a = imm(p->nbarriers++);
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
        if (kind == F_LOAD && (order == ORD_RELEASE || order == ORD_ACQ_REL)) {
            lex_error(LX, e->args[1]->line, e->args[1]->col,
                      "a load cannot have memory order release or acq_rel");
            return false;
        }
        if (kind == F_STORE && (order == ORD_ACQUIRE || order == ORD_ACQ_REL)) {
            lex_error(LX, e->args[2]->line, e->args[2]->col,
                      "a store cannot have memory order acquire or acq_rel");
            return false;
        }
    }

    c->order = order;
    c->scope = scope;
    return true;
}

/* compare-exchange(object, expected, desired, ...): C semantics over the
 * expected object; dst (if >= 0) receives 1 on success, 0 on failure. */
static bool gen_cas(oparser *p, node *e, const call *c, int dst)
{
    const char *fn = c->fn;
    int loc = c->loc;
    enum lit_order order = c->order;
    enum lit_scope scope = c->scope;
    bool remote = c->remote;
    node *ex = e->args[1];
    int exp_loc = -1, exp_reg = -1;
    if (ex->kind == N_ADDR && ocl_local_index(p, ex->name) >= 0) {
        exp_reg = ocl_local_index(p, ex->name);
    } else if ((ex->kind == N_VAR || ex->kind == N_ADDR) && ocl_local_index(p, ex->name) < 0 &&
               ocl_param_loc(p, ex->name) >= 0) {
        exp_loc = ocl_param_loc(p, ex->name);
    } else {
        lex_error(LX, ex->line, ex->col, "the expected argument of '%s' must be a location "
                  "(a pointer parameter) or &variable", fn);
        return false;
    }
    lit_operand expv;
    if (exp_loc >= 0) {
        int t = ocl_new_temp(p);
        lit_instr *ld = ocl_emit(p, OP_LOAD, ex->line, ex->col);
        if (!ld)
            return false;
        ld->dst = t;
        ld->loc = exp_loc;
        ld->order = ORD_WEAK;
        ld->scope = SCOPE_NONE;
        expv = regop(t);
    } else {
        /* copy, so that writing the variable back cannot disturb the comparison */
        int t = ocl_new_temp(p);
        lit_instr *mv = ocl_emit(p, OP_MOV, ex->line, ex->col);
        if (!mv)
            return false;
        mv->dst = t;
        mv->a = regop(exp_reg);
        expv = regop(t);
    }
    lit_operand des;
    if (!ocl_gen_value(p, e->args[2], &des))
        return false;
    int old = ocl_new_temp(p);
    lit_instr *in = ocl_emit(p, OP_RMW, e->line, e->col);
    if (!in)
        return false;
    in->rmw_op = RMW_CAS;
    in->loc = loc;
    in->dst = old;
    in->a = expv;
    in->b = des;
    in->order = order;
    in->scope = scope;
    in->remote = remote;
    int lfail = ocl_new_label(p), lend = ocl_new_label(p);
    if (lfail < 0 || lend < 0)
        return false;
    lit_instr *br = ocl_emit(p, OP_BRANCH, e->line, e->col);
    if (!br)
        return false;
    br->cmp = CMP_NE;
    br->a = regop(old);
    br->b = expv;
    br->target = lfail;
    if (dst >= 0) {
        lit_instr *one = ocl_emit(p, OP_MOV, e->line, e->col);
        if (!one)
            return false;
        one->dst = dst;
        one->a = imm(1);
    }
    lit_instr *go = ocl_emit(p, OP_GOTO, e->line, e->col);
    if (!go)
        return false;
    go->target = lend;
    ocl_place_label(p, lfail);
    if (exp_loc >= 0) {
        lit_instr *st = ocl_emit(p, OP_STORE, ex->line, ex->col);
        if (!st)
            return false;
        st->loc = exp_loc;
        st->a = regop(old);
        st->order = ORD_WEAK;
        st->scope = SCOPE_NONE;
    } else {
        lit_instr *mv = ocl_emit(p, OP_MOV, ex->line, ex->col);
        if (!mv)
            return false;
        mv->dst = exp_reg;
        mv->a = regop(old);
    }
    if (dst >= 0) {
        lit_instr *zero = ocl_emit(p, OP_MOV, e->line, e->col);
        if (!zero)
            return false;
        zero->dst = dst;
        zero->a = imm(0);
    }
    ocl_place_label(p, lend);
    return true;
}

/* Compile a call; `dst` is the register that receives its value, or -1
 * when the value is unused (a call statement). */
bool ocl_gen_call(oparser *p, node *e, int dst)
{
    call c;
    if (!classify(p, e, &c) || !check_arity(p, e, &c))
        return false;
    const char *fn = c.fn;
    enum fn_kind kind = c.kind;
    bool has_value = kind == F_LOAD || kind == F_RMW || kind == F_CAS;
    if (dst >= 0 && !has_value) {
        lex_error(LX, e->line, e->col, "'%s' has no value", fn);
        return false;
    }

    if (kind == F_FENCE || kind == F_BARRIER)
        return gen_fence_barrier(p, e, kind);

    c.loc = arg_loc(p, e->args[0], fn);
    if (c.loc < 0 || !order_and_scope(p, e, &c))
        return false;
    int loc = c.loc;
    enum lit_order order = c.order;
    enum lit_scope scope = c.scope;
    bool remote = c.remote;

    if (kind == F_LOAD) {
        if (dst < 0)
            dst = ocl_new_temp(p);
        lit_instr *in = ocl_emit(p, OP_LOAD, e->line, e->col);
        if (!in)
            return false;
        in->dst = dst;
        in->loc = loc;
        in->order = order;
        in->scope = scope;
        in->remote = remote;
        return true;
    }
    if (kind == F_STORE || kind == F_INIT || kind == F_RMW) {
        lit_operand v;
        if (!ocl_gen_value(p, e->args[1], &v))
            return false;
        lit_instr *in = ocl_emit(p, kind == F_RMW ? OP_RMW : OP_STORE, e->line, e->col);
        if (!in)
            return false;
        in->loc = loc;
        in->a = v;
        in->order = order;
        in->scope = scope;
        in->remote = remote;
        if (kind == F_RMW) {
            in->rmw_op = c.rop;
            in->dst = dst;
        }
        return true;
    }

    return gen_cas(p, e, &c, dst);
}

