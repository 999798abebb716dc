/*
 * litmus/c/builtin.c: C11's atomic operations and fences, compiled as
 * herd7's C semantics has them (herd/CSem.ml of herdtools7 7.58):
 *
 *   - a load or store with a memory order is one atomic access with that
 *     order; the forms without _explicit are memory_order_seq_cst (herd
 *     reads them through its macro file c11.def);
 *   - exchange and fetch-OP are one event that reads and writes
 *     (lit_instr.single_event), ordered as the call says;
 *   - compare-exchange(obj, exp, des, succ, fail) reads *exp non-atomically,
 *     then either succeeds, one read-modify-write of obj that reads the
 *     expected value and writes des with order succ, or fails, an atomic
 *     read of obj with order fail followed by a non-atomic write of what it
 *     read into *exp; the strong form fails only on a different value, the
 *     weak one may also fail on an equal value; its value is 1 on success
 *     and 0 on failure;
 *   - atomic_thread_fence(mo) is a fence with order mo.
 */
#include <stdio.h>
#include <string.h>

#include "litmus/c/internal.h"
#include "litmus/lex.h"
#include "litmus/litmus.h"

bool c_is_type_word(const lex_token *t)
{
    static const char *const types[] = {
        "int", "long", "char", "short", "unsigned", "signed", "_Atomic",
        "atomic_int", "atomic_uint", "atomic_long", "atomic_ulong", "atomic_char", "atomic_short",
        "atomic_llong", "atomic_ullong",
        "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
        "intptr_t", "uintptr_t", "__int128", "__int128_t", "__uint128_t", NULL,
    };
    for (int i = 0; types[i]; i++)
        if (lex_is_ident(t, types[i]))
            return true;
    return false;
}

enum c_kind { C_LOAD, C_STORE, C_RMW, C_CAS, C_FENCE, C_INIT };

/* A call, classified by its name. */
typedef struct c_call {
    const char *fn;
    enum c_kind kind;
    enum lit_rmw_op rop;
    bool explicit, weak;
    int nvals;               /* arguments before the memory orders */
    int loc;
    enum lit_order order, fail;
} c_call;

static bool strip_suffix(const char *s, size_t *n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (*n > k && memcmp(s + *n - k, suffix, k) == 0) {
        *n -= k;
        return true;
    }
    return false;
}

static bool name_is(const char *fn, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(fn, name, n) == 0;
}

static bool classify(oparser *p, const node *e, c_call *c)
{
    static const struct { const char *n; enum lit_rmw_op op; } rmws[] = {
        { "atomic_exchange", RMW_EXCH }, { "atomic_fetch_add", RMW_ADD }, { "atomic_fetch_sub", RMW_SUB },
        { "atomic_fetch_and", RMW_AND }, { "atomic_fetch_or", RMW_OR }, { "atomic_fetch_xor", RMW_XOR },
    };
    memset(c, 0, sizeof *c);
    c->fn = e->name;
    if (strcmp(c->fn, "atomic_thread_fence") == 0) {
        c->kind = C_FENCE;
        return true;
    }
    if (strcmp(c->fn, "atomic_init") == 0) {
        c->kind = C_INIT;
        c->nvals = 2;
        return true;
    }
    size_t n = strlen(c->fn);
    c->explicit = strip_suffix(c->fn, &n, "_explicit");
    for (size_t i = 0; i < sizeof rmws / sizeof *rmws; i++)
        if (name_is(c->fn, n, rmws[i].n)) {
            c->kind = C_RMW;
            c->rop = rmws[i].op;
            c->nvals = 2;
            return true;
        }
    c->nvals = 1;
    if (name_is(c->fn, n, "atomic_load")) {
        c->kind = C_LOAD;
        return true;
    }
    c->nvals = 2;
    if (name_is(c->fn, n, "atomic_store")) {
        c->kind = C_STORE;
        return true;
    }
    c->nvals = 3;
    c->weak = name_is(c->fn, n, "atomic_compare_exchange_weak");
    if (c->weak || name_is(c->fn, n, "atomic_compare_exchange_strong")) {
        c->kind = C_CAS;
        return true;
    }
    if (strstr(c->fn, "lock"))
        lex_error(LX, e->line, e->col, "'%s': locks are not supported in the C dialect", c->fn);
    else
        lex_error(LX, e->line, e->col, "unknown function '%s'", c->fn);
    return false;
}

static bool check_arity(oparser *p, const node *e, const c_call *c)
{
    int want = c->kind == C_FENCE ? 1 : c->nvals + (c->explicit ? (c->kind == C_CAS ? 2 : 1) : 0);
    if (e->nargs != want) {
        lex_error(LX, e->line, e->col, "'%s' takes %d argument%s, not %d", c->fn, want, want == 1 ? "" : "s",
                  e->nargs);
        return false;
    }
    return true;
}

static bool arg_order(oparser *p, const node *e, enum lit_order *o)
{
    static const struct { const char *n; enum lit_order o; } orders[] = {
        { "memory_order_relaxed", ORD_RELAXED }, { "memory_order_consume", ORD_CONSUME },
        { "memory_order_acquire", ORD_ACQUIRE }, { "memory_order_release", ORD_RELEASE },
        { "memory_order_acq_rel", ORD_ACQ_REL }, { "memory_order_seq_cst", ORD_SC },
    };
    for (size_t i = 0; e->kind == N_VAR && i < sizeof orders / sizeof *orders; i++)
        if (strcmp(e->name, orders[i].n) == 0) {
            *o = orders[i].o;
            return true;
        }
    lex_error(LX, e->line, e->col, "expected a memory order (memory_order_relaxed, _consume, _acquire, "
              "_release, _acq_rel or _seq_cst)");
    return false;
}

/* The orders each kind of access may have.  C11 (7.17.7) forbids a release
 * load and an acquire store, but herd7 reads them, tagging the event with
 * the order it names, and Dat3M's C11 suite has them (a1+Rrel+rel,
 * a1+Wacq+rel): they are kept, and the model decides, as in herd's legacy
 * OpenCL format.  A compare-exchange's failure order stays checked. */
static bool check_order(oparser *p, const node *e, const c_call *c)
{
    const char *bad = NULL;
    if (c->kind == C_CAS && (c->fail == ORD_RELEASE || c->fail == ORD_ACQ_REL))
        bad = "the failure order of a compare-exchange cannot be release or acq_rel";
    if (bad) {
        const node *at = e->args[c->nvals < e->nargs ? c->nvals : 0];
        lex_error(LX, at->line, at->col, "%s", bad);
        return false;
    }
    return true;
}

/* The orders: seq_cst unless explicit. */
static bool read_orders(oparser *p, const node *e, c_call *c)
{
    c->order = c->fail = ORD_SC;
    if (c->kind == C_INIT) {
        c->order = ORD_WEAK;
        return true;
    }
    if (c->explicit) {
        if (!arg_order(p, e->args[c->nvals], &c->order))
            return false;
        if (c->kind == C_CAS && !arg_order(p, e->args[c->nvals + 1], &c->fail))
            return false;
    }
    return check_order(p, e, c);
}

/* The location an object argument names: x or &x for a pointer parameter,
 * x + i (an element of an array, or herd7's location x + i: index.c). */
static int object_loc(oparser *p, node *e, const char *fn)
{
    if (e->kind == N_ADDR && e->index)
        return ocl_node_loc(p, e, "the first argument");
    if ((e->kind == N_VAR || e->kind == N_ADDR) && ocl_local_index(p, e->name) < 0)
        return ocl_deref_loc(p, e->name, e->line, e->col);
    lex_error(LX, e->line, e->col, "the first argument of '%s' must be a location (a pointer parameter)", fn);
    return -1;
}

static lit_instr *emit_access(oparser *p, enum lit_opcode op, const node *e, const c_call *c)
{
    lit_instr *in = ocl_emit(p, op, e->line, e->col);
    if (in) {
        in->loc = c->loc;
        in->order = c->order;
        in->scope = SCOPE_NONE;
        in->addr = ocl_node_addr(e->args[0]);
    }
    return in;
}

/* atomic_thread_fence(mo) */
static bool gen_fence(oparser *p, const node *e, int dst)
{
    if (dst >= 0) {
        lex_error(LX, e->line, e->col, "'atomic_thread_fence' has no value");
        return false;
    }
    enum lit_order o;
    if (!arg_order(p, e->args[0], &o))
        return false;
    lit_instr *in = ocl_emit(p, OP_FENCE, e->line, e->col);
    if (!in)
        return false;
    in->order = o;
    in->scope = SCOPE_NONE;
    return true;
}

/* The expected object of a compare-exchange: a location (x, &x) or a
 * variable (&v). */
typedef struct expected {
    const node *arg;
    int loc, reg;
} expected;

static bool expected_arg(oparser *p, const node *ex, const char *fn, expected *x)
{
    x->arg = ex;
    x->loc = x->reg = -1;
    if (ex->kind == N_ADDR && ocl_local_index(p, ex->name) >= 0) {
        x->reg = ocl_local_index(p, ex->name);
        return true;
    }
    if ((ex->kind == N_VAR || ex->kind == N_ADDR) && ocl_local_index(p, ex->name) < 0 &&
        ocl_param_loc(p, ex->name) >= 0) {
        x->loc = ocl_param_loc(p, ex->name);
        return true;
    }
    lex_error(LX, ex->line, ex->col, "the expected argument of '%s' must be a location "
              "(a pointer parameter) or &variable", fn);
    return false;
}

/* t.e = *exp; CAS event (or failing read); if (!ok) *exp = old; dst = ok */
static bool gen_cas(oparser *p, const node *e, const c_call *c, int dst, ocl_value_compiler gen_value)
{
    expected x;
    lit_operand des;
    if (!expected_arg(p, e->args[1], c->fn, &x))
        return false;
    int want = ocl_new_temp(p);
    bool read = x.loc >= 0 ? ocl_emit_plain_load(p, want, x.loc, e->line, e->col) != NULL
                           : ocl_emit_mov(p, want, regop(x.reg), e->line, e->col) != NULL;
    if (!read || !gen_value(p, e->args[2], &des))
        return false;
    int old = ocl_new_temp(p), ok = dst >= 0 ? dst : ocl_new_temp(p);
    lit_instr *in = emit_access(p, OP_RMW, e, c);
    if (!in)
        return false;
    in->rmw_op = RMW_CAS;
    in->single_event = true;
    in->cas_weak = c->weak;
    in->order_fail = c->fail;
    in->dst = old;
    in->flag_dst = ok;
    in->a = regop(want);
    in->b = des;
    int done = ocl_new_label(p);
    if (done < 0 || !ocl_emit_branch(p, CMP_NE, regop(ok), imm(0), done, e->line, e->col))
        return false;
    bool back = x.loc >= 0 ? ocl_emit_plain_store(p, x.loc, regop(old), e->line, e->col) != NULL
                           : ocl_emit_mov(p, x.reg, regop(old), e->line, e->col) != NULL;
    ocl_place_label(p, done);
    return back;
}

typedef struct call_ctx {
    node *e;
    int dst;
    ocl_value_compiler gen_value;
} call_ctx;

static bool gen_call_for_element(oparser *p, void *ctx)
{
    call_ctx *c = ctx;
    return c_gen_call(p, c->e, c->dst, c->gen_value);
}

bool c_gen_call(oparser *p, node *e, int dst, ocl_value_compiler gen_value)
{
    c_call c;
    if (!classify(p, e, &c) || !check_arity(p, e, &c))
        return false;
    if (c.kind == C_FENCE)
        return gen_fence(p, e, dst);
    /* an object at a register offset, x + r: one copy of the call per
     * location it may name */
    if (ocl_needs_dispatch(e->args[0])) {
        call_ctx cc = { e, dst, gen_value };
        return ocl_each_element(p, e->args[0], gen_value, gen_call_for_element, &cc);
    }
    if (dst >= 0 && (c.kind == C_STORE || c.kind == C_INIT)) {
        lex_error(LX, e->line, e->col, "'%s' has no value", c.fn);
        return false;
    }
    c.loc = object_loc(p, e->args[0], c.fn);
    if (c.loc < 0 || !read_orders(p, e, &c))
        return false;
    if (c.kind == C_CAS)
        return gen_cas(p, e, &c, dst, gen_value);
    if (c.kind == C_LOAD) {
        lit_instr *in = emit_access(p, OP_LOAD, e, &c);
        if (in)
            in->dst = dst >= 0 ? dst : ocl_new_temp(p);
        return in != NULL;
    }
    lit_operand v;
    if (!gen_value(p, e->args[1], &v))
        return false;
    lit_instr *in = emit_access(p, c.kind == C_RMW ? OP_RMW : OP_STORE, e, &c);
    if (!in)
        return false;
    in->a = v;
    if (c.kind == C_RMW) {
        in->rmw_op = c.rop;
        in->single_event = true;
        in->flag_dst = -1;
        in->dst = dst;
    }
    return true;
}
