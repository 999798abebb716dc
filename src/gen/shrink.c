/* gen/shrink.c: one-step reductions of a litmus test (see gen.h).
 *
 * The candidates, in the order a driver tries them: remove a thread (last
 * first), remove one instruction (threads in order, last instruction
 * first), replace one equality of the condition by `true`.  Larger steps
 * first, so that a driver that restarts after each success converges in
 * few rounds. */
#include "gen/gen.h"

#include <gc.h>
#include <stdio.h>
#include <string.h>

static litmus_test *copy_test(const litmus_test *t)
{
    litmus_test *c = GC_MALLOC(sizeof *c);
    *c = *t;
    c->threads = GC_MALLOC(sizeof *c->threads * (size_t)(t->nthreads ? t->nthreads : 1));
    memcpy(c->threads, t->threads, sizeof *c->threads * (size_t)t->nthreads);
    return c;
}

/* ---- the condition after a change ------------------------------------------------ */

static lit_cond *cond_true(void)
{
    lit_cond *c = GC_MALLOC(sizeof *c);
    c->kind = COND_TRUE;
    return c;
}

/* A copy of c in which the `drop`-th equality (counting left to right, from
 * *seen) and every equality on a register of thread `gone` become true,
 * registers of later threads are renumbered, and true is simplified out of
 * conjunctions. */
static lit_cond *rewrite(const lit_cond *c, int gone, int drop, int *seen)
{
    lit_cond *n = GC_MALLOC(sizeof *n);
    *n = *c;
    if (c->kind == COND_AND || c->kind == COND_OR) {
        n->left = rewrite(c->left, gone, drop, seen);
        n->right = rewrite(c->right, gone, drop, seen);
        if (c->kind == COND_AND && n->left->kind == COND_TRUE)
            return n->right;
        if (c->kind == COND_AND && n->right->kind == COND_TRUE)
            return n->left;
        return n;
    }
    if (c->kind == COND_NOT) {
        n->left = rewrite(c->left, gone, drop, seen);
        return n;
    }
    if (c->kind != COND_EQ && c->kind != COND_NE)
        return n;
    if ((*seen)++ == drop)
        return cond_true();
    lit_term *side[2] = {&n->lhs, &n->rhs};
    for (int s = 0; s < 2; s++) {
        if (side[s]->kind != TERM_REG || gone < 0)
            continue;
        if (side[s]->thread == gone)
            return cond_true();
        if (side[s]->thread > gone)
            side[s]->thread--;
    }
    return n;
}

static int count_atoms(const lit_cond *c)
{
    if (c->kind == COND_AND || c->kind == COND_OR)
        return count_atoms(c->left) + count_atoms(c->right);
    if (c->kind == COND_NOT)
        return count_atoms(c->left);
    return c->kind == COND_EQ || c->kind == COND_NE;
}

static void set_condition(litmus_test *c, const litmus_test *t, int gone, int drop)
{
    int seen = 0;
    c->cond = rewrite(t->cond, gone, drop, &seen);
    c->nobserved = 0;
    c->observed = NULL;
    litmus_observe_cond(c, c->cond);
}

/* ---- the candidates ------------------------------------------------------------------ */

static litmus_test *without_thread(const litmus_test *t, int gone)
{
    litmus_test *c = copy_test(t);
    memmove(&c->threads[gone], &c->threads[gone + 1], sizeof *c->threads * (size_t)(t->nthreads - gone - 1));
    c->nthreads--;
    for (int i = 0; i < c->nthreads; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        c->threads[i].name = GC_STRDUP(name);
    }
    set_condition(c, t, gone, -1);
    return c;
}

static litmus_test *without_instruction(const litmus_test *t, int th, int k)
{
    litmus_test *c = copy_test(t);
    lit_thread *nt = &c->threads[th];
    const lit_thread *ot = &t->threads[th];
    nt->instrs = GC_MALLOC(sizeof *nt->instrs * (size_t)(ot->ninstrs ? ot->ninstrs : 1));
    memcpy(nt->instrs, ot->instrs, sizeof *nt->instrs * (size_t)k);
    memcpy(nt->instrs + k, ot->instrs + k + 1, sizeof *nt->instrs * (size_t)(ot->ninstrs - k - 1));
    nt->ninstrs--;
    for (int i = 0; i < nt->ninstrs; i++) {
        lit_instr *in = &nt->instrs[i];
        if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target > k)
            in->target--;
    }
    if (ot->nunseq) { /* the operand ranges lose instruction k too */
        lit_unseq *u = GC_MALLOC_ATOMIC(sizeof *u * (size_t)ot->nunseq);
        for (int i = 0; i < ot->nunseq; i++)
            u[i] = (lit_unseq){ot->unseq[i].a0 - (ot->unseq[i].a0 > k), ot->unseq[i].a1 - (ot->unseq[i].a1 > k),
                               ot->unseq[i].b1 - (ot->unseq[i].b1 > k)};
        nt->unseq = u;
    }
    return c;
}

static litmus_test *without_atom(const litmus_test *t, int drop)
{
    litmus_test *c = copy_test(t);
    set_condition(c, t, -1, drop);
    return c;
}

litmus_test *shrink_candidate(const litmus_test *t, int k)
{
    if (k < 0)
        return NULL;
    if (t->nthreads > 1) {
        if (k < t->nthreads)
            return without_thread(t, t->nthreads - 1 - k);
        k -= t->nthreads;
    }
    for (int th = 0; th < t->nthreads; th++) {
        int n = t->threads[th].ninstrs;
        if (k < n)
            return without_instruction(t, th, n - 1 - k);
        k -= n;
    }
    if (k < count_atoms(t->cond))
        return without_atom(t, k);
    return NULL;
}
