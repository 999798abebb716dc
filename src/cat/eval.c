/*
 * cat/eval.c: evaluation of a compiled cat model on one execution (see
 * cat.h and cat/ast.h).  Nothing here allocates except cat_workspace_new.
 */
#include "cat/ast.h"

#include <gc.h>
#include <string.h>

struct cat_workspace {
    const relation **rp;   /* every relation slot, for reading */
    relation *rel;         /* workspace relation slots (slot - XR_COUNT) */
    evset *set;            /* every set slot */
    relation *flag_rel;    /* per flag: its relation when last raised */
    /* the static block on the execution last prepared (cat_prepare) */
    bool static_ok;
    unsigned static_flags;
    const char *static_failed;
};

cat_workspace *cat_workspace_new(const cat_model *m)
{
    cat_workspace *ws = GC_MALLOC(sizeof *ws);
    int own = m->nrel_slots - XR_COUNT;
    ws->rel = GC_MALLOC_ATOMIC(sizeof *ws->rel * (size_t)(own > 0 ? own : 1));
    ws->rp = GC_MALLOC(sizeof *ws->rp * (size_t)m->nrel_slots);
    for (int i = 0; i < own; i++)
        ws->rp[XR_COUNT + i] = &ws->rel[i];
    ws->set = GC_MALLOC_ATOMIC(sizeof *ws->set * (size_t)m->nset_slots);
    ws->flag_rel = GC_MALLOC_ATOMIC(sizeof *ws->flag_rel * (size_t)(m->nflags ? m->nflags : 1));
    return ws;
}

const relation *cat_flag_relation(const cat_model *m, const cat_workspace *ws, int flag)
{
    for (int i = 0; i < m->nchecks; i++)
        if (m->checks[i].flag == flag)
            return m->checks[i].is_set ? NULL : &ws->flag_rel[flag];
    return NULL;
}

typedef struct eval_ctx {
    const cat_model *m;
    cat_workspace *ws;
    int n;
    evset all;
    const char *failed;    /* first failing check */
    unsigned flags;        /* flags of the passing choice */
    const cat_co_source *co; /* cat_check_co: the coherence choices */
    bool done;             /* the co source needs nothing more */
} eval_ctx;

static relation *wr(const eval_ctx *c, int slot)
{
    return &c->ws->rel[slot - XR_COUNT];
}

static bool check_holds(const eval_ctx *c, const cat_check_info *ci, int slot)
{
    bool holds;
    if (slot < 0)
        holds = true; /* empty: acyclic, irreflexive and empty */
    else if (ci->is_set)
        holds = c->ws->set[slot] == 0;
    else if (ci->kind == CK_ACYCLIC)
        holds = rel_is_acyclic(c->ws->rp[slot], c->n);
    else if (ci->kind == CK_IRREFLEXIVE)
        holds = rel_is_irreflexive(c->ws->rp[slot], c->n);
    else
        holds = rel_is_empty(c->ws->rp[slot], c->n);
    return holds != ci->negate;
}

/* Is `a op b` empty (op & or \) or irreflexive (op ;)?  See CI_CHECK_FUSED. */
static bool fused_holds(const eval_ctx *c, const cat_instr *in)
{
    const relation *a = c->ws->rp[in->a], *b = c->ws->rp[in->b];
    int n = c->n;
    if (in->c == CI_R_SEQ) {
        for (int i = 0; i < n; i++)
            for (evset mid = a->row[i]; mid; mid &= mid - 1)
                if (evset_has(b->row[__builtin_ctzll(mid)], i))
                    return false;
        return true;
    }
    evset flip = in->c == CI_R_DIFF ? ~(evset)0 : 0;
    row_pair flips = {flip, flip}, any = {0, 0};
    int i = 0;
    for (; i + 1 < n; i += 2)
        any |= rows_at(a, i) & (rows_at(b, i) ^ flips);
    evset last = i < n ? a->row[i] & (b->row[i] ^ flip) : 0;
    return (any[0] | any[1] | last) == 0;
}

static void set_op(eval_ctx *c, const cat_instr *in)
{
    evset *s = c->ws->set;
    switch (in->op) {
    case CI_S_EMPTY: s[in->dst] = 0; break;
    case CI_S_UNION: s[in->dst] = s[in->a] | s[in->b]; break;
    case CI_S_INTER: s[in->dst] = s[in->a] & s[in->b]; break;
    case CI_S_DIFF: s[in->dst] = s[in->a] & ~s[in->b]; break;
    case CI_S_COMPL: s[in->dst] = c->all & ~s[in->a]; break;
    case CI_S_DOMAIN: s[in->dst] = rel_domain(c->ws->rp[in->a], c->n); break;
    case CI_S_RANGE: s[in->dst] = rel_range(c->ws->rp[in->a], c->n); break;
    default: break;
    }
}

static void rel_op(eval_ctx *c, const cat_instr *in)
{
    const relation **rp = c->ws->rp;
    const evset *s = c->ws->set;
    relation *d = wr(c, in->dst);
    int n = c->n;
    switch (in->op) {
    case CI_R_EMPTY: rel_clear(d, n); break;
    case CI_R_UNION: rel_union(d, rp[in->a], rp[in->b], n); break;
    case CI_R_INTER: rel_inter(d, rp[in->a], rp[in->b], n); break;
    case CI_R_DIFF: rel_diff(d, rp[in->a], rp[in->b], n); break;
    case CI_R_SEQ: rel_seq(d, rp[in->a], rp[in->b], n); break;
    case CI_R_COMPL: rel_complement(d, rp[in->a], c->all, n); break;
    case CI_R_INV: rel_inverse(d, rp[in->a], n); break;
    case CI_R_PLUS: rel_plus(d, rp[in->a], n); break;
    case CI_R_STAR: rel_star(d, rp[in->a], c->all, n); break;
    case CI_R_OPT: rel_opt(d, rp[in->a], c->all, n); break;
    case CI_R_IDENT: rel_identity(d, s[in->a], n); break;
    case CI_R_CART: rel_cartesian(d, s[in->a], s[in->b], n); break;
    case CI_R_RESTRICT: rel_restrict(d, rp[in->a], s[in->b], s[in->c], n); break;
    default: break;
    }
}

/* Runs the straight-line code of a block; false at the first failing check. */
static bool run_code(eval_ctx *c, const cat_block *b, unsigned *flags)
{
    bool changed = false;
    int rounds = 0;
    for (int pc = 0; pc < b->ncode; pc++) {
        const cat_instr *in = &b->code[pc];
        /* relation operations are most of the code: one dispatch for them */
        if (in->op >= CI_R_EMPTY && in->op < CI_R_UPDATE) {
            rel_op(c, in);
            continue;
        }
        switch (in->op) {
        case CI_S_UPDATE:
            if (c->ws->set[in->a] != c->ws->set[in->b]) {
                c->ws->set[in->a] = c->ws->set[in->b];
                changed = true;
            }
            break;
        case CI_R_UPDATE:
            if (!rel_equal(c->ws->rp[in->a], c->ws->rp[in->b], c->n)) {
                rel_copy(wr(c, in->a), c->ws->rp[in->b], c->n);
                changed = true;
            }
            break;
        case CI_FIX_START:
            changed = false;
            rounds = 0;
            break;
        case CI_FIX_LOOP:
            if (changed) {
                changed = false;
                if (++rounds > in->b) {
                    c->failed = "let rec: no fixpoint reached";
                    return false;
                }
                pc -= in->a + 1;
            }
            break;
        case CI_CHECK: {
            const cat_check_info *ci = &c->m->checks[in->b];
            bool holds = check_holds(c, ci, in->a);
            if (ci->flag >= 0) {
                if (holds) {
                    *flags |= 1u << ci->flag;
                    if (!ci->is_set && in->a >= 0)
                        rel_copy(&c->ws->flag_rel[ci->flag], c->ws->rp[in->a], c->n);
                }
            } else if (!holds) {
                if (!c->failed)
                    c->failed = ci->name;
                return false;
            }
            break;
        }
        case CI_CHECK_FUSED: {
            const cat_check_info *ci = &c->m->checks[in->dst]; /* never a flag */
            if (fused_holds(c, in) == ci->negate) {
                if (!c->failed)
                    c->failed = ci->name;
                return false;
            }
            break;
        }
        default:
            set_op(c, in);
        }
    }
    return true;
}

static bool run_block(eval_ctx *c, int k, unsigned flags);

/* Extends the partial order `ord` (on `placed`) by every minimal event of
 * `left`, depth first; true when some complete order passes. */
static bool linearise(eval_ctx *c, const cat_with_info *w, const relation *pred,
                      relation *ord, evset left, evset placed, unsigned flags)
{
    if (!left)
        return run_block(c, w->next, flags);
    bool found = false;
    evset minimal = 0;
    for (evset s = left; s; s &= s - 1) {
        int e = __builtin_ctzll(s);
        if (!(pred->row[e] & left))
            minimal |= evset_of(e);
    }
    for (; minimal; minimal &= minimal - 1) {
        int e = __builtin_ctzll(minimal);
        for (evset p = placed; p; p &= p - 1)
            ord->row[__builtin_ctzll(p)] |= evset_of(e);
        bool passed = linearise(c, w, pred, ord, left & ~evset_of(e), placed | evset_of(e), flags);
        found |= passed;
        /* one passing order is enough, unless each order may accept other
         * coherence choices */
        if (passed && (!c->co || c->done))
            return true;
        for (evset p = placed; p; p &= p - 1)
            ord->row[__builtin_ctzll(p)] &= ~evset_of(e);
    }
    return found;
}

/* linearise for herd's generate_orders: one order per location class, so
 * events are placed class after class (the class of the lowest event left
 * first) and ordered only after the placed events of their own class. */
static bool linearise_classes(eval_ctx *c, const cat_with_info *w, const relation *pred,
                              relation *ord, evset left, evset placed, unsigned flags)
{
    if (!left)
        return run_block(c, w->next, flags);
    const relation *loc = c->ws->rp[XR_LOC];
    int first = __builtin_ctzll(left);
    evset class = (loc->row[first] | evset_of(first)) & left;
    bool found = false;
    evset minimal = 0;
    for (evset s = class; s; s &= s - 1) {
        int e = __builtin_ctzll(s);
        if (!(pred->row[e] & class))
            minimal |= evset_of(e);
    }
    for (; minimal; minimal &= minimal - 1) {
        int e = __builtin_ctzll(minimal);
        evset before = placed & loc->row[e];
        for (evset p = before; p; p &= p - 1)
            ord->row[__builtin_ctzll(p)] |= evset_of(e);
        bool passed = linearise_classes(c, w, pred, ord, left & ~evset_of(e), placed | evset_of(e), flags);
        found |= passed;
        if (passed && (!c->co || c->done))
            return true;
        for (evset p = before; p; p &= p - 1)
            ord->row[__builtin_ctzll(p)] &= ~evset_of(e);
    }
    return found;
}

static bool block_is_trivial(const cat_model *m, const cat_block *b)
{
    bool co_code = m->co_block >= 0 && m->blocks[m->co_block].ncode > 0;
    return b->ncode == 0 && b->with < 0 && !co_code;
}

static bool run_with(eval_ctx *c, const cat_with_info *w, unsigned flags)
{
    int n = c->n;
    evset set = w->set >= 0 ? c->ws->set[w->set] : 0;
    relation *pred = wr(c, w->pred), *ord = wr(c, w->var);
    if (w->rel >= 0) {
        rel_restrict(pred, c->ws->rp[w->rel], set, set, n);
        rel_inverse(pred, pred, n);
    } else {
        rel_clear(pred, n);
    }
    rel_clear(ord, n);
    if (w->per_loc)
        rel_inter(pred, pred, c->ws->rp[XR_LOC], n);
    bool ok;
    if (block_is_trivial(c->m, &c->m->blocks[w->next]))
        ok = rel_is_acyclic(pred, n) && run_block(c, w->next, flags); /* any order will do */
    else if (w->per_loc)
        ok = linearise_classes(c, w, pred, ord, set, 0, flags);
    else
        ok = linearise(c, w, pred, ord, set, 0, flags);
    if (!ok && !c->failed)
        c->failed = w->text;
    return ok;
}

/* The innermost level: the code that depends on co, once for the
 * execution's own co (cat_check) or once per choice of the co source. */
static bool run_co(eval_ctx *c, unsigned flags)
{
    const cat_block *cb = c->m->co_block >= 0 ? &c->m->blocks[c->m->co_block] : NULL;
    if (!c->co) {
        if (cb && !run_code(c, cb, &flags))
            return false;
        c->flags = flags;
        return true;
    }
    bool any = false;
    for (long k = 0; k < c->co->count && !c->done; k++) {
        if (!c->co->apply(c->co->ctx, k))
            continue;
        unsigned f = flags;
        if (cb && !run_code(c, cb, &f))
            continue;
        any = true;
        c->flags = f;
        c->done = c->co->accept(c->co->ctx, k, f);
    }
    return any;
}

static bool run_block(eval_ctx *c, int k, unsigned flags)
{
    const cat_block *b = &c->m->blocks[k];
    if (!run_code(c, b, &flags))
        return false;
    if (b->with >= 0)
        return run_with(c, &c->m->withs[b->with], flags);
    return run_co(c, flags);
}

bool cat_model_co_staged(const cat_model *m) { return m->co_block >= 0; }

static void bind_execution(cat_workspace *ws, const exec *x)
{
    for (int i = 0; i < XR_COUNT; i++)
        ws->rp[i] = &x->rel[i];
}

void cat_prepare(const cat_model *m, cat_workspace *ws, const exec *x)
{
    eval_ctx c = {m, ws, x->n, evset_universe(x->n), NULL, 0, NULL, false};
    bind_execution(ws, x);
    memcpy(ws->set, x->set, sizeof x->set);
    ws->set[CAT_SLOT_UNIV] = c.all;
    unsigned flags = 0;
    ws->static_ok = run_code(&c, &m->blocks[m->static_block], &flags);
    ws->static_flags = ws->static_ok ? flags : 0;
    ws->static_failed = c.failed;
}

bool cat_check_co(const cat_model *m, cat_workspace *ws, const exec *x, const cat_co_source *src)
{
    if (!ws->static_ok)
        return false;
    eval_ctx c = {m, ws, x->n, evset_universe(x->n), NULL, 0, src, false};
    bind_execution(ws, x);
    return run_block(&c, 0, ws->static_flags);
}

cat_verdict cat_check_prepared(const cat_model *m, cat_workspace *ws, const exec *x)
{
    cat_verdict v = {false, 0, ws->static_failed ? ws->static_failed : "?"};
    if (!ws->static_ok)
        return v;
    eval_ctx c = {m, ws, x->n, evset_universe(x->n), NULL, 0, NULL, false};
    bind_execution(ws, x);
    v.consistent = run_block(&c, 0, ws->static_flags);
    v.flags = v.consistent ? c.flags : 0;
    v.failed_check = v.consistent ? NULL : c.failed ? c.failed : "?";
    return v;
}

cat_verdict cat_check(const cat_model *m, cat_workspace *ws, const exec *x)
{
    cat_prepare(m, ws, x);
    return cat_check_prepared(m, ws, x);
}
