/*
 * cat/eval.c: evaluation of a compiled cat model on one execution (see
 * cat.h and cat/ast.h).  Nothing here allocates except cat_workspace_new.
 */
#include "cat/ast.h"

#include <gc.h>
#include <string.h>

/* The events one `with` orders, by local index 0..k-1, with their
 * predecessors as local bits: the orders are built over at most 64 events
 * whatever the execution's width (more would be beyond enumerating). */
#define LINEAR_MAX 64
typedef struct cat_linear {
    int k;
    int ev[LINEAR_MAX];
    uint64_t pred[LINEAR_MAX];
    uint64_t loc[LINEAR_MAX]; /* per_loc withs: the events of its location, itself included */
} cat_linear;

/* Storage for executions of up to `cap` events; it grows (cat_prepare)
 * when an execution needs more, which happens once per test at most. */
struct cat_workspace {
    const cat_model *m;
    int cap;
    const relation **rp;   /* every relation slot, for reading */
    relation **own;        /* workspace relation slots (slot - XR_COUNT) */
    evword *set;           /* every set slot, rel_words(n) words each */
    relation *scratch;     /* for an operation whose output is one of its inputs */
    relation **flag_rel;   /* per flag: its relation when last raised */
    cat_linear *linear;    /* per with: the events being ordered */
    bool undecided;        /* since cat_prepare: some candidate could not be decided */
    /* the static block on the execution last prepared (cat_prepare) */
    bool static_ok;
    unsigned static_flags;
    const char *static_failed;
};

static relation *new_relation(int cap)
{
    return GC_MALLOC_ATOMIC(rel_bytes(cap));
}

/* (Re)allocates every slot for executions of up to `cap` events. */
static void workspace_size(cat_workspace *ws, int cap)
{
    const cat_model *m = ws->m;
    int own = m->nrel_slots - XR_COUNT;
    ws->cap = cap;
    for (int i = 0; i < own; i++)
        ws->rp[XR_COUNT + i] = ws->own[i] = new_relation(cap);
    int words = rel_words(cap) ? rel_words(cap) : 1;
    ws->set = GC_MALLOC_ATOMIC(sizeof *ws->set * (size_t)m->nset_slots * (size_t)words);
    ws->scratch = new_relation(cap);
    for (int f = 0; f < m->nflags; f++)
        ws->flag_rel[f] = new_relation(cap);
}

cat_workspace *cat_workspace_new(const cat_model *m)
{
    cat_workspace *ws = GC_MALLOC(sizeof *ws);
    int own = m->nrel_slots - XR_COUNT;
    ws->m = m;
    ws->own = GC_MALLOC(sizeof *ws->own * (size_t)(own > 0 ? own : 1));
    ws->rp = GC_MALLOC(sizeof *ws->rp * (size_t)m->nrel_slots);
    ws->flag_rel = GC_MALLOC(sizeof *ws->flag_rel * (size_t)(m->nflags ? m->nflags : 1));
    ws->linear = GC_MALLOC_ATOMIC(sizeof *ws->linear * (size_t)(m->nwiths ? m->nwiths : 1));
    workspace_size(ws, 64);
    return ws;
}

size_t cat_workspace_bytes(const cat_model *m, int cap)
{
    int words = rel_words(cap) ? rel_words(cap) : 1;
    return rel_bytes(cap) * (size_t)(m->nrel_slots - XR_COUNT + 1 + m->nflags) +
           sizeof(evword) * (size_t)m->nset_slots * (size_t)words;
}

bool cat_undecided(const cat_workspace *ws) { return ws->undecided; }

const relation *cat_flag_relation(const cat_model *m, const cat_workspace *ws, int flag)
{
    for (int i = 0; i < m->nchecks; i++)
        if (m->checks[i].flag == flag)
            return m->checks[i].is_set ? NULL : ws->flag_rel[flag];
    return NULL;
}

typedef struct eval_ctx {
    const cat_model *m;
    cat_workspace *ws;
    int n;
    int words;             /* rel_words(n): the size of a set */
    const char *failed;    /* first failing check */
    unsigned flags;        /* flags of the passing choice */
    const cat_co_source *co; /* cat_check_co: the coherence choices */
    bool done;             /* the co source needs nothing more */
    cat_explain_rec *rec;  /* cat_eval_explain: record every check, fail none */
    bool prune;            /* cat_co_may_pass: the co block fails only on prunable checks */
    bool co_reached;       /* ... and it was run */
} eval_ctx;

static eval_ctx context(const cat_model *m, cat_workspace *ws, const exec *x, const cat_co_source *co)
{
    return (eval_ctx){m, ws, x->n, rel_words(x->n), NULL, 0, co, false, NULL, false, false};
}

static relation *wr(const eval_ctx *c, int slot)
{
    return c->ws->own[slot - XR_COUNT];
}

static evword *set_slot(const eval_ctx *c, int slot)
{
    return c->ws->set + (size_t)slot * (size_t)c->words;
}

/* The operations below take the execution's size n as an argument, and
 * are inlined into two copies of run_code: one where the compiler knows
 * that 1 <= n <= 64, so that every rel_words(n) is 1 and every wide
 * branch of relation.h drops out (the code nearly every test runs), and
 * one for any n. */
#define INLINE static inline __attribute__((always_inline))

INLINE evword *set_at_n(const eval_ctx *c, int slot, int n)
{
    return c->ws->set + (size_t)slot * (size_t)rel_words(n);
}

INLINE bool check_holds(const eval_ctx *c, const cat_check_info *ci, int slot, int n)
{
    bool holds;
    if (slot < 0)
        holds = true; /* empty: acyclic, irreflexive and empty */
    else if (ci->is_set)
        holds = set_is_empty(set_at_n(c, slot, n), n);
    else if (ci->kind == CK_ACYCLIC)
        holds = rel_is_acyclic(c->ws->rp[slot], n);
    else if (ci->kind == CK_IRREFLEXIVE)
        holds = rel_is_irreflexive(c->ws->rp[slot], n);
    else
        holds = rel_is_empty(c->ws->rp[slot], n);
    return holds != ci->negate;
}

/* Is `a op b` empty (op & or \) or irreflexive (op ;)?  See CI_CHECK_FUSED. */
INLINE bool fused_holds(const eval_ctx *c, const cat_instr *in, int n)
{
    const relation *a = c->ws->rp[in->a], *b = c->ws->rp[in->b];
    if (in->c == CI_R_SEQ)
        return rel_seq_is_irreflexive(a, b, n);
    return rel_meet_is_empty(a, b, in->c == CI_R_DIFF, n);
}

INLINE void set_op(eval_ctx *c, const cat_instr *in, int n)
{
    evword *d = set_at_n(c, in->dst, n);
    switch (in->op) {
    case CI_S_EMPTY: set_clear(d, n); break;
    case CI_S_UNION: set_union(d, set_at_n(c, in->a, n), set_at_n(c, in->b, n), n); break;
    case CI_S_INTER: set_inter(d, set_at_n(c, in->a, n), set_at_n(c, in->b, n), n); break;
    case CI_S_DIFF: set_diff(d, set_at_n(c, in->a, n), set_at_n(c, in->b, n), n); break;
    case CI_S_COMPL: set_diff(d, set_at_n(c, CAT_SLOT_UNIV, n), set_at_n(c, in->a, n), n); break;
    case CI_S_DOMAIN: rel_domain(d, c->ws->rp[in->a], n); break;
    case CI_S_RANGE: rel_range(d, c->ws->rp[in->a], n); break;
    default: break;
    }
}

/* a;b and a^-1 cannot write over the operand they read whole: they go
 * through the scratch relation when they would. */
INLINE void seq_into(eval_ctx *c, relation *d, const relation *a, const relation *b, int n)
{
    if (d != b) {
        rel_seq(d, a, b, n);
        return;
    }
    rel_seq(c->ws->scratch, a, b, n);
    rel_copy(d, c->ws->scratch, n);
}

INLINE void inverse_into(eval_ctx *c, relation *d, const relation *a, int n)
{
    if (d != a) {
        rel_inverse(d, a, n);
        return;
    }
    rel_inverse(c->ws->scratch, a, n);
    rel_copy(d, c->ws->scratch, n);
}

INLINE void rel_op(eval_ctx *c, const cat_instr *in, int n)
{
    const relation **rp = c->ws->rp;
    relation *d = wr(c, in->dst);
    switch (in->op) {
    case CI_R_EMPTY: rel_clear(d, n); break;
    case CI_R_UNION: rel_union(d, rp[in->a], rp[in->b], n); break;
    case CI_R_INTER: rel_inter(d, rp[in->a], rp[in->b], n); break;
    case CI_R_DIFF: rel_diff(d, rp[in->a], rp[in->b], n); break;
    case CI_R_SEQ: seq_into(c, d, rp[in->a], rp[in->b], n); break;
    case CI_R_COMPL: rel_complement(d, rp[in->a], set_at_n(c, CAT_SLOT_UNIV, n), n); break;
    case CI_R_INV: inverse_into(c, d, rp[in->a], n); break;
    case CI_R_PLUS: rel_plus(d, rp[in->a], n); break;
    case CI_R_STAR: rel_star(d, rp[in->a], set_at_n(c, CAT_SLOT_UNIV, n), n); break;
    case CI_R_OPT: rel_opt(d, rp[in->a], set_at_n(c, CAT_SLOT_UNIV, n), n); break;
    case CI_R_IDENT: rel_identity(d, set_at_n(c, in->a, n), n); break;
    case CI_R_CART: rel_cartesian(d, set_at_n(c, in->a, n), set_at_n(c, in->b, n), n); break;
    case CI_R_RESTRICT: rel_restrict(d, rp[in->a], set_at_n(c, in->b, n), set_at_n(c, in->c, n), n); break;
    default: break;
    }
}

/* A monotone definition adds a pair per round: nvars * n * n rounds bound it. */
static long fixpoint_bound(int n, int nvars)
{
    return (long)nvars * (long)n * (long)n + 2;
}

static void explain_check(eval_ctx *c, const cat_instr *in, int n);

/* Runs the straight-line code of a block on n events; false at the first
 * failing check.  With `explain` (a constant: the checking copies never
 * test it), every check is recorded in c->rec and none stops the run. */
INLINE bool run_code_n(eval_ctx *c, const cat_block *b, unsigned *flags, int n, bool explain, bool prune)
{
    bool changed = false;
    long rounds = 0;
    for (int pc = 0; pc < b->ncode; pc++) {
        const cat_instr *in = &b->code[pc];
        if (prune && c->m->prune_skip[pc])
            continue;
        /* relation operations are most of the code: one dispatch for them */
        if (in->op >= CI_R_EMPTY && in->op < CI_R_UPDATE) {
            rel_op(c, in, n);
            continue;
        }
        switch (in->op) {
        case CI_S_UPDATE:
            if (!set_equal(set_at_n(c, in->a, n), set_at_n(c, in->b, n), n)) {
                set_copy(set_at_n(c, in->a, n), set_at_n(c, in->b, n), n);
                changed = true;
            }
            break;
        case CI_R_UPDATE:
            if (!rel_equal(c->ws->rp[in->a], c->ws->rp[in->b], n)) {
                rel_copy(wr(c, in->a), c->ws->rp[in->b], n);
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
                if (++rounds > fixpoint_bound(n, in->b)) {
                    c->failed = "let rec: no fixpoint reached";
                    return false;
                }
                pc -= in->a + 1;
            }
            break;
        case CI_CHECK: {
            if (explain) {
                explain_check(c, in, n);
                break;
            }
            const cat_check_info *ci = &c->m->checks[in->b];
            if (prune && !c->m->prunable[in->b])
                break;
            bool holds = check_holds(c, ci, in->a, n);
            if (ci->flag >= 0) {
                if (holds) {
                    *flags |= 1u << ci->flag;
                    if (!ci->is_set && in->a >= 0)
                        rel_copy(c->ws->flag_rel[ci->flag], c->ws->rp[in->a], n);
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
            if (prune && !c->m->prunable[in->dst])
                break;
            if (fused_holds(c, in, n) == ci->negate) {
                if (!c->failed)
                    c->failed = ci->name;
                return false;
            }
            break;
        }
        default:
            set_op(c, in, n);
        }
    }
    return true;
}

/* noinline: one copy each, out of run_code, as before the explain copy
 * came (inlined, the ptx6 corpus took 0.02% more instructions). */
static __attribute__((noinline)) bool run_code_one_word(eval_ctx *c, const cat_block *b, unsigned *flags)
{
    int n = c->n;
    if (n < 1 || n > 64)
        __builtin_unreachable();
    return run_code_n(c, b, flags, n, false, false);
}

static __attribute__((noinline)) bool run_code_wide(eval_ctx *c, const cat_block *b, unsigned *flags)
{
    return run_code_n(c, b, flags, c->n, false, false);
}

static __attribute__((noinline, cold)) bool run_code_explain(eval_ctx *c, const cat_block *b, unsigned *flags)
{
    return run_code_n(c, b, flags, c->n, true, false);
}

/* The co block of cat_co_may_pass: flags are not raised (no choice is
 * accepted here) and only prunable checks fail. */
static __attribute__((noinline)) bool run_code_prune(eval_ctx *c, const cat_block *b)
{
    unsigned flags = 0;
    return run_code_n(c, b, &flags, c->n, false, true);
}

static bool run_code(eval_ctx *c, const cat_block *b, unsigned *flags)
{
    if (__builtin_expect(c->rec != NULL, 0))
        return run_code_explain(c, b, flags);
    return c->n >= 1 && c->n <= 64 ? run_code_one_word(c, b, flags) : run_code_wide(c, b, flags);
}

/* A check met by cat_eval_explain: its operand's value as it is now (the
 * slot may be reused later), and whether it holds. */
static void explain_check(eval_ctx *c, const cat_instr *in, int n)
{
    const cat_check_info *ci = &c->m->checks[in->b];
    cat_explain_rec *r = c->rec;
    int k = in->b;
    r->reached[k] = true;
    if (ci->is_set) {
        if (in->a >= 0)
            set_copy(r->set[k], set_at_n(c, in->a, n), n);
    } else if (in->a >= 0) {
        rel_copy(r->rel[k], c->ws->rp[in->a], n);
    }
    bool holds = ci->kind == CK_SHOW || check_holds(c, ci, in->a, n);
    r->held[k] = holds;
    if (!holds && ci->flag < 0 && r->first_failed < 0)
        r->first_failed = k;
}

static bool run_block(eval_ctx *c, int k, unsigned flags);

/* Adds (or removes) local event e after every placed one in the order. */
static void order_after(eval_ctx *c, const cat_linear *lin, relation *ord, uint64_t placed, int e, bool add)
{
    if (c->words == 1) {
        evword *rows = rel_w(ord), bit = evword_bit(lin->ev[e]);
        for (uint64_t p = placed; p; p &= p - 1) {
            evword *row = &rows[lin->ev[__builtin_ctzll(p)]];
            *row = add ? *row | bit : *row & ~bit;
        }
        return;
    }
    for (uint64_t p = placed; p; p &= p - 1) {
        evword *row = rel_row(ord, lin->ev[__builtin_ctzll(p)], c->n);
        if (add)
            set_add(row, lin->ev[e]);
        else
            set_remove(row, lin->ev[e]);
    }
}

/* Extends the partial order `ord` (on the local events `placed`) by every
 * minimal local event of `left`, depth first; true when some complete
 * order passes. */
static bool linearise(eval_ctx *c, const cat_with_info *w, const cat_linear *lin, relation *ord,
                      uint64_t left, uint64_t placed, unsigned flags)
{
    if (!left)
        return run_block(c, w->next, flags);
    bool found = false;
    uint64_t minimal = 0;
    for (uint64_t s = left; s; s &= s - 1) {
        int e = __builtin_ctzll(s);
        if (!(lin->pred[e] & left))
            minimal |= (uint64_t)1 << e;
    }
    for (; minimal; minimal &= minimal - 1) {
        int e = __builtin_ctzll(minimal);
        uint64_t bit = (uint64_t)1 << e;
        order_after(c, lin, ord, placed, e, true);
        bool passed = linearise(c, w, lin, ord, left & ~bit, placed | bit, flags);
        found |= passed;
        /* one passing order is enough, unless each order may accept other
         * coherence choices */
        if (passed && (!c->co || c->done))
            return true;
        order_after(c, lin, ord, placed, e, false);
    }
    return found;
}

/* linearise for herd's generate_orders (`with ... from` over a set of
 * orders per location): one order per location class, so events are
 * placed class after class (the class of the lowest event left first)
 * and ordered only after the placed events of their own class.  pred
 * holds only same-location pairs (run_with). */
static bool linearise_classes(eval_ctx *c, const cat_with_info *w, const cat_linear *lin, relation *ord,
                              uint64_t left, uint64_t placed, unsigned flags)
{
    if (!left)
        return run_block(c, w->next, flags);
    uint64_t class = lin->loc[__builtin_ctzll(left)] & left;
    bool found = false;
    uint64_t minimal = 0;
    for (uint64_t s = class; s; s &= s - 1) {
        int e = __builtin_ctzll(s);
        if (!(lin->pred[e] & class))
            minimal |= (uint64_t)1 << e;
    }
    for (; minimal; minimal &= minimal - 1) {
        int e = __builtin_ctzll(minimal);
        uint64_t bit = (uint64_t)1 << e, before = placed & lin->loc[e];
        order_after(c, lin, ord, before, e, true);
        bool passed = linearise_classes(c, w, lin, ord, left & ~bit, placed | bit, flags);
        found |= passed;
        if (passed && (!c->co || c->done))
            return true;
        order_after(c, lin, ord, before, e, false);
    }
    return found;
}

static bool block_is_trivial(const cat_model *m, const cat_block *b)
{
    bool co_code = m->co_block >= 0 && m->blocks[m->co_block].ncode > 0;
    return b->ncode == 0 && b->with < 0 && !co_code;
}

/* The events of `set` as local indices, each with its predecessors;
 * false when there are more than LINEAR_MAX. */
static bool localise(const eval_ctx *c, const evword *set, const relation *pred, bool per_loc, cat_linear *lin)
{
    int n = c->n;
    lin->k = 0;
    for (int e = set_next(set, 0, n); e >= 0; e = set_next(set, e + 1, n)) {
        if (lin->k == LINEAR_MAX)
            return false;
        lin->ev[lin->k++] = e;
    }
    for (int i = 0; i < lin->k; i++) {
        const evword *row = rel_crow(pred, lin->ev[i], n);
        lin->pred[i] = 0;
        for (int j = 0; j < lin->k; j++)
            if (set_has(row, lin->ev[j]))
                lin->pred[i] |= (uint64_t)1 << j;
    }
    if (per_loc) {
        const relation *loc = c->ws->rp[XR_LOC];
        for (int i = 0; i < lin->k; i++) {
            const evword *row = rel_crow(loc, lin->ev[i], n);
            lin->loc[i] = (uint64_t)1 << i;
            for (int j = 0; j < lin->k; j++)
                if (set_has(row, lin->ev[j]))
                    lin->loc[i] |= (uint64_t)1 << j;
        }
    }
    return true;
}

static bool run_with(eval_ctx *c, const cat_with_info *w, unsigned flags)
{
    int n = c->n;
    relation *pred = wr(c, w->pred), *ord = wr(c, w->var);
    rel_clear(ord, n);
    bool ok;
    if (w->set < 0 || set_is_empty(set_slot(c, w->set), n)) {
        ok = run_block(c, w->next, flags); /* nothing to order: the empty order */
    } else {
        const evword *set = set_slot(c, w->set);
        if (w->rel >= 0) {
            rel_restrict(c->ws->scratch, c->ws->rp[w->rel], set, set, n);
            rel_inverse(pred, c->ws->scratch, n);
        } else {
            rel_clear(pred, n);
        }
        if (w->per_loc)
            rel_inter(pred, pred, c->ws->rp[XR_LOC], n);
        cat_linear *lin = &c->ws->linear[w - c->m->withs];
        uint64_t all = 0;
        if (block_is_trivial(c->m, &c->m->blocks[w->next])) {
            ok = rel_is_acyclic(pred, n) && run_block(c, w->next, flags); /* any order will do */
        } else if (localise(c, set, pred, w->per_loc, lin)) {
            all = lin->k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << lin->k) - 1;
            ok = w->per_loc ? linearise_classes(c, w, lin, ord, all, 0, flags) : linearise(c, w, lin, ord, all, 0, flags);
        } else {
            c->ws->undecided = true; /* more orders than could ever be listed */
            ok = false;
        }
    }
    if (!ok && !c->failed)
        c->failed = w->text;
    return ok;
}

/* The innermost level: the code that depends on co, once for the
 * execution's own co (cat_check) or once per choice of the co source. */
static bool run_co(eval_ctx *c, unsigned flags)
{
    const cat_block *cb = c->m->co_block >= 0 ? &c->m->blocks[c->m->co_block] : NULL;
    if (c->prune) {
        c->co_reached = true;
        return !cb || run_code_prune(c, cb);
    }
    if (!c->co) {
        if (cb && !run_code(c, cb, &flags))
            return false;
        c->flags = flags;
        return true;
    }
    if (cb && c->co->clear && c->m->any_prunable) {
        c->co->clear(c->co->ctx);
        if (!run_code_prune(c, cb)) {
            c->co->rejected_all(c->co->ctx);
            return false;
        }
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
        ws->rp[i] = x->rel[i];
}

void cat_prepare(const cat_model *m, cat_workspace *ws, const exec *x)
{
    if (x->n > ws->cap)
        workspace_size(ws, x->n);
    eval_ctx c = context(m, ws, x, NULL);
    bind_execution(ws, x);
    memcpy(ws->set, x->sets, sizeof *ws->set * (size_t)XS_COUNT * (size_t)c.words);
    set_universe(set_slot(&c, CAT_SLOT_UNIV), x->n);
    unsigned flags = 0;
    ws->static_ok = run_code(&c, &m->blocks[m->static_block], &flags);
    ws->static_flags = ws->static_ok ? flags : 0;
    ws->static_failed = c.failed;
}

bool cat_check_co(const cat_model *m, cat_workspace *ws, const exec *x, const cat_co_source *src)
{
    if (!ws->static_ok)
        return false;
    eval_ctx c = context(m, ws, x, src);
    bind_execution(ws, x);
    ws->undecided = false;
    return run_block(&c, 0, ws->static_flags);
}

bool cat_co_may_pass(const cat_model *m, cat_workspace *ws, const exec *x, bool *co_reached)
{
    *co_reached = false;
    if (!ws->static_ok)
        return false;
    if (!m->any_prunable)
        return true;
    eval_ctx c = context(m, ws, x, NULL);
    c.prune = true;
    bind_execution(ws, x);
    ws->undecided = false;
    bool may = run_block(&c, 0, ws->static_flags);
    *co_reached = c.co_reached;
    /* a `with` that could not list its orders decides nothing */
    if (ws->undecided) {
        ws->undecided = false;
        return true;
    }
    return may;
}

cat_verdict cat_check_prepared(const cat_model *m, cat_workspace *ws, const exec *x)
{
    cat_verdict v = {false, 0, ws->static_failed ? ws->static_failed : "?"};
    if (!ws->static_ok)
        return v;
    eval_ctx c = context(m, ws, x, NULL);
    bind_execution(ws, x);
    ws->undecided = false;
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

void cat_eval_explain(const cat_model *m, cat_workspace *ws, const exec *x, cat_explain_rec *rec)
{
    if (x->n > ws->cap)
        workspace_size(ws, x->n);
    eval_ctx c = context(m, ws, x, NULL);
    c.rec = rec;
    bind_execution(ws, x);
    memcpy(ws->set, x->sets, sizeof *ws->set * (size_t)XS_COUNT * (size_t)c.words);
    set_universe(set_slot(&c, CAT_SLOT_UNIV), x->n);
    unsigned flags = 0;
    ws->undecided = false;
    if (run_code(&c, &m->blocks[m->static_block], &flags))
        run_block(&c, 0, flags);
    rec->failed_other = c.failed;
}
