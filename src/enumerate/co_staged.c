/*
 * enumerate/co_staged.c: coherence choices evaluated by the model itself
 * (see enumerate/internal.h): with a model that stages its co checks
 * (cat_model_co_staged), every coherence choice of a reads-from choice is
 * handed to cat_check_co at once, numbered in mixed radix over the
 * locations' allowed orders, and each consistent one comes back once;
 * over MAX_STAGED_CO choices the model is only asked first whether any
 * may pass (co_may_pass) and the choices are listed one by one (choices.c).
 */
#include <gc.h>
#include <string.h>

#include "enumerate/internal.h"

#define MAX_STAGED_CO 65536

static bool bit_test_and_set(uint8_t *bits, long k)
{
    bool was = bits[k >> 3] & (1u << (k & 7));
    bits[k >> 3] |= (uint8_t)(1u << (k & 7));
    return was;
}

/* Below this many coherence choices for one reads-from choice, asking
 * the model first whether any can pass costs more than it saves. */
#define CO_PRECHECK_MIN 4

/* co and fr empty, for the model's prune check; the rows of co are
 * rewritten by the next co_apply (their orders forgotten). */
static void clear_co(void *ctx)
{
    enum_ctx *c = ctx;
    rel_clear(c->ex.x.rel[XR_CO], c->ex.n);
    rel_clear(c->ex.x.rel[XR_FR], c->ex.n);
    co_forget_applied(&c->co, c->co.nphys);
}

/* The model's prune check rejected every choice: each is a candidate, as
 * if it had been applied (apply_co_choice's count). */
static void reject_all_co(void *ctx)
{
    enum_ctx *c = ctx;
    long count = co_allowed_choices(&c->co);
    for (long k = 0; k < count; k++)
        if (!bit_test_and_set(c->co.tried, k))
            c->r->candidates++;
}

/* Choice k, in mixed radix over the locations' allowed orders. */
static bool apply_co_choice(void *ctx, long k)
{
    enum_ctx *c = ctx;
    if (out_of_budget(&c->budget))
        return false;
    long rest = k;
    for (int p = 0; p < c->co.nphys; p++) {
        c->co.choice[p] = c->co.list[p][rest % c->co.nallowed[p]];
        rest /= c->co.nallowed[p];
    }
    co_apply(&c->co, &c->rf, &c->ex.x, c->ex.n);
    if (!bit_test_and_set(c->co.tried, k))
        c->r->candidates++;
    return true;
}

static bool accept_co_choice(void *ctx, long k, unsigned flags)
{
    enum_ctx *c = ctx;
    if (bit_test_and_set(c->co.seen, k))
        return c->budget.stop;
    c->r->consistent++;
    if (c->live) {
        live_record(c->live, &c->ex.x);
        return c->budget.stop || live_cut_reached(c->live) || live_combination_done(c->live);
    }
    final_states_record(c, flags);
    return c->budget.stop;
}

long co_choice_count(const co_state *co)
{
    long count = 1;
    for (int p = 0; p < co->nphys; p++) {
        count *= co->locw[co->phys_list[p]].orders->count;
        if (count > MAX_STAGED_CO)
            return -1;
    }
    return count;
}

void evaluate_all_co(enum_ctx *c)
{
    long count = co_allowed_choices(&c->co);
    size_t bytes = (size_t)(count + 7) / 8;
    if (bytes > c->co.bytes) {
        c->co.bytes = bytes;
        c->co.tried = GC_MALLOC_ATOMIC(bytes);
        c->co.seen = GC_MALLOC_ATOMIC(bytes);
    }
    memset(c->co.tried, 0, bytes);
    memset(c->co.seen, 0, bytes);
    cat_co_source src = {count, apply_co_choice, accept_co_choice, c, NULL, NULL};
    if (count >= CO_PRECHECK_MIN) {
        src.clear = clear_co;
        src.rejected_all = reject_all_co;
    }
    cat_check_co(c->model, c->ws, &c->ex.x, &src);
    if (cat_undecided(c->ws))
        c->r->undecided = true;
}

/* Whether some coherence choice may pass the model with the current
 * reads-from choice, asked of the model before the choices are listed one
 * by one (choose_co: more than MAX_STAGED_CO of them): the model's checks
 * that can only fail more as co grows are run once with co and fr empty
 * (cat_co_may_pass). */
bool co_may_pass(enum_ctx *c)
{
    long choices = 1;
    for (int p = 0; p < c->co.nphys && choices < CO_PRECHECK_MIN; p++)
        choices *= c->co.nallowed[p];
    if (choices < CO_PRECHECK_MIN)
        return true;
    clear_co(c);
    bool co_reached;
    if (cat_co_may_pass(c->model, c->ws, &c->ex.x, &co_reached))
        return true;
    if (!co_reached) /* rejected before any coherence choice would be tried */
        return false;
    /* every choice is a candidate the model rejects, as each would have been tried */
    uint64_t all = 1;
    for (int p = 0; p < c->co.nphys; p++)
        all = all > UINT64_MAX / (uint64_t)c->co.nallowed[p] ? UINT64_MAX : all * (uint64_t)c->co.nallowed[p];
    c->r->candidates = all > UINT64_MAX - c->r->candidates ? UINT64_MAX : c->r->candidates + all;
    return false;
}
