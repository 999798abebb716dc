/*
 * cat/prune.c: which checks of the co block can only fail more when co
 * grows (see cat_find_prunable in cat/ast.h).
 *
 * Each slot the co block writes gets a polarity in co: whether its value
 * can grow (POS) or shrink (NEG) when co and fr grow, both, or neither.
 * co and fr themselves are POS (fr = rf^-1;co); everything computed before
 * the co block is NONE.  Union, intersection, sequence, closures, inverse,
 * restriction, domain and range keep polarities; difference and complement
 * flip their subtracted operand.  A consistency check (acyclic, irreflexive,
 * empty; not negated, not a flag) of a NONE or POS operand holds less as
 * the operand grows: if it fails with co and fr empty, it fails for every
 * coherence choice.  A block with a `let rec` is left alone (no check is
 * marked): its slots are rewritten in a loop.
 */
#include "cat/ast.h"

#include <gc.h>
#include <string.h>

enum { POL_NONE = 0, POL_POS = 1, POL_NEG = 2 };

static unsigned flip(unsigned p) { return ((p & POL_POS) ? POL_NEG : 0) | ((p & POL_NEG) ? POL_POS : 0); }

typedef struct polarity {
    unsigned *rel, *set;
} polarity;

/* Slot -1 is the empty operand: no polarity. */
static unsigned R(const polarity *pol, int slot) { return slot >= 0 ? pol->rel[slot] : POL_NONE; }
static unsigned S(const polarity *pol, int slot) { return slot >= 0 ? pol->set[slot] : POL_NONE; }

static void step(polarity *pol, const cat_instr *in)
{
    unsigned *r = pol->rel, *s = pol->set;
    if (in->dst < 0 && in->op != CI_S_UPDATE && in->op != CI_R_UPDATE)
        return;
    switch (in->op) {
    case CI_S_EMPTY: s[in->dst] = POL_NONE; break;
    case CI_S_UNION:
    case CI_S_INTER: s[in->dst] = S(pol, in->a) | S(pol, in->b); break;
    case CI_S_DIFF: s[in->dst] = S(pol, in->a) | flip(S(pol, in->b)); break;
    case CI_S_COMPL: s[in->dst] = flip(S(pol, in->a)); break;
    case CI_S_DOMAIN:
    case CI_S_RANGE: s[in->dst] = R(pol, in->a); break;
    case CI_R_EMPTY: r[in->dst] = POL_NONE; break;
    case CI_R_UNION:
    case CI_R_INTER:
    case CI_R_SEQ: r[in->dst] = R(pol, in->a) | R(pol, in->b); break;
    case CI_R_DIFF: r[in->dst] = R(pol, in->a) | flip(R(pol, in->b)); break;
    case CI_R_COMPL: r[in->dst] = flip(R(pol, in->a)); break;
    case CI_R_INV:
    case CI_R_PLUS:
    case CI_R_STAR:
    case CI_R_OPT: r[in->dst] = R(pol, in->a); break;
    case CI_R_IDENT: r[in->dst] = S(pol, in->a); break;
    case CI_R_CART: r[in->dst] = S(pol, in->a) | S(pol, in->b); break;
    case CI_R_RESTRICT: r[in->dst] = R(pol, in->a) | S(pol, in->b) | S(pol, in->c); break;
    default: break; /* updates and fixpoints: cat_find_prunable leaves such blocks alone */
    }
}

/* The polarity of a check's operand, or of a fused check's `a op b`. */
static unsigned operand(const polarity *pol, const cat_model *m, const cat_instr *in, int *check)
{
    if (in->op == CI_CHECK) {
        *check = in->b;
        return m->checks[in->b].is_set ? S(pol, in->a) : R(pol, in->a);
    }
    *check = in->dst;
    unsigned a = R(pol, in->a), b = R(pol, in->b);
    return in->c == CI_R_DIFF ? a | flip(b) : a | b;
}

/* The operands an instruction reads: up to three, each a relation slot
 * (is_set false) or a set slot; returns how many. */
static int reads_of(const cat_model *m, const cat_instr *in, int *slot, bool *is_set)
{
    switch (in->op) {
    case CI_S_EMPTY:
    case CI_R_EMPTY: return 0;
    case CI_S_UNION:
    case CI_S_INTER:
    case CI_S_DIFF: slot[0] = in->a, slot[1] = in->b, is_set[0] = is_set[1] = true; return 2;
    case CI_S_COMPL: slot[0] = in->a, is_set[0] = true; return 1;
    case CI_S_DOMAIN:
    case CI_S_RANGE: slot[0] = in->a, is_set[0] = false; return 1;
    case CI_R_UNION:
    case CI_R_INTER:
    case CI_R_SEQ:
    case CI_R_DIFF: slot[0] = in->a, slot[1] = in->b, is_set[0] = is_set[1] = false; return 2;
    case CI_R_COMPL:
    case CI_R_STAR:
    case CI_R_OPT: slot[0] = in->a, is_set[0] = false, slot[1] = CAT_SLOT_UNIV, is_set[1] = true; return 2;
    case CI_R_INV:
    case CI_R_PLUS: slot[0] = in->a, is_set[0] = false; return 1;
    case CI_R_IDENT: slot[0] = in->a, is_set[0] = true; return 1;
    case CI_R_CART: slot[0] = in->a, slot[1] = in->b, is_set[0] = is_set[1] = true; return 2;
    case CI_R_RESTRICT:
        slot[0] = in->a, slot[1] = in->b, slot[2] = in->c;
        is_set[0] = false, is_set[1] = is_set[2] = true;
        return 3;
    case CI_CHECK:
        if (in->a < 0)
            return 0;
        slot[0] = in->a, is_set[0] = m->checks[in->b].is_set;
        return 1;
    case CI_CHECK_FUSED: slot[0] = in->a, slot[1] = in->b, is_set[0] = is_set[1] = false; return 2;
    default: return -1; /* anything else: keep everything */
    }
}

/* Marks m->prune_skip: the co block's instructions that no prunable check
 * needs (a backward pass over the straight-line block). */
static void find_skippable(cat_model *m, const cat_block *b)
{
    bool *rel = GC_MALLOC_ATOMIC((size_t)m->nrel_slots), *set = GC_MALLOC_ATOMIC((size_t)m->nset_slots);
    memset(rel, 0, (size_t)m->nrel_slots);
    memset(set, 0, (size_t)m->nset_slots);
    m->prune_skip = GC_MALLOC_ATOMIC((size_t)(b->ncode ? b->ncode : 1));
    for (int pc = b->ncode - 1; pc >= 0; pc--) {
        const cat_instr *in = &b->code[pc];
        int slot[3];
        bool is_set[3];
        int nreads = reads_of(m, in, slot, is_set);
        bool needed;
        if (nreads < 0)
            needed = true;
        else if (in->op == CI_CHECK)
            needed = m->prunable[in->b];
        else if (in->op == CI_CHECK_FUSED)
            needed = m->prunable[in->dst];
        else if (in->dst < 0) {
            needed = true;
        } else {
            bool dst_set = in->op < CI_R_EMPTY;
            bool *defined = dst_set ? &set[in->dst] : &rel[in->dst];
            needed = *defined;
            *defined = false; /* defined here: earlier values of the slot are not read through it */
        }
        m->prune_skip[pc] = !needed;
        if (needed && nreads > 0)
            for (int k = 0; k < nreads; k++)
                if (slot[k] >= 0)
                    (is_set[k] ? set : rel)[slot[k]] = true;
        if (needed && nreads < 0) { /* unknown instruction: every slot may matter */
            memset(rel, 1, (size_t)m->nrel_slots);
            memset(set, 1, (size_t)m->nset_slots);
        }
    }
}

void cat_find_prunable(cat_model *m)
{
    m->prunable = GC_MALLOC_ATOMIC(sizeof *m->prunable * (size_t)(m->nchecks ? m->nchecks : 1));
    memset(m->prunable, 0, sizeof *m->prunable * (size_t)(m->nchecks ? m->nchecks : 1));
    m->any_prunable = false;
    if (m->co_block < 0)
        return;
    const cat_block *b = &m->blocks[m->co_block];
    for (int pc = 0; pc < b->ncode; pc++)
        if (b->code[pc].op == CI_FIX_START || b->code[pc].op == CI_FIX_LOOP)
            return;
    polarity pol = {GC_MALLOC_ATOMIC(sizeof(unsigned) * (size_t)m->nrel_slots),
                    GC_MALLOC_ATOMIC(sizeof(unsigned) * (size_t)m->nset_slots)};
    memset(pol.rel, 0, sizeof(unsigned) * (size_t)m->nrel_slots);
    memset(pol.set, 0, sizeof(unsigned) * (size_t)m->nset_slots);
    pol.rel[XR_CO] = pol.rel[XR_FR] = POL_POS;
    for (int pc = 0; pc < b->ncode; pc++) {
        const cat_instr *in = &b->code[pc];
        if (in->op != CI_CHECK && in->op != CI_CHECK_FUSED) {
            step(&pol, in);
            continue;
        }
        int k;
        unsigned p = operand(&pol, m, in, &k);
        const cat_check_info *ci = &m->checks[k];
        if (ci->flag < 0 && !ci->negate && ci->kind != CK_SHOW && !(p & POL_NEG)) {
            m->prunable[k] = true;
            m->any_prunable = true;
        }
    }
    if (m->any_prunable)
        find_skippable(m, b);
}
