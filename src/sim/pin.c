/* sim/pin.c: the addresses an internal event can fire on (see
 * sim_tables_pin in sim/tables.h).  The checker offers every internal
 * event on every line; a simulator with thousands of lines cannot, so it
 * offers one where the guard names the line: a conjunct `addr + k == E`
 * (either side; `addr`, `addr + N`, `N + addr`, `addr - N`) whose E reads
 * neither the line nor the event decides the only address the row can
 * fire on (sRSP's `sfifo[0] % NADDR == addr`, `sfa == addr + 1`). */
#include <gc.h>

#include "sim/tables.h"

/* e is addr + k; sets k. */
static bool affine_addr(const sim_expr *e, long *k)
{
    if (e->kind == SX_ADDR) {
        *k = 0;
        return true;
    }
    if (e->kind != SX_BIN || (e->op != OPX_ADD && e->op != OPX_SUB))
        return false;
    if (e->l->kind == SX_ADDR && e->r->kind == SX_NUM) {
        *k = e->op == OPX_ADD ? e->r->num : -e->r->num;
        return true;
    }
    if (e->op == OPX_ADD && e->l->kind == SX_NUM && e->r->kind == SX_ADDR) {
        *k = e->l->num;
        return true;
    }
    return false;
}

/* e reads only constants and the instance's variables. */
static bool line_free(const sim_expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case SX_ADDR:
    case SX_FIELD:
    case SX_MSG:
    case SX_VALUE:
    case SX_STATE:
    case SX_ORDER:
    case SX_RMW: return false;
    case SX_INDEX:
    case SX_LEN:
    case SX_HAS:
    case SX_LAST:
        if (e->on_line)
            return false;
        break;
    default: break;
    }
    return line_free(e->l) && line_free(e->r) && line_free(e->r2);
}

/* The pin among the conjuncts of guard g, if any. */
static bool find_pin(const sim_expr *g, sim_expr **pin, long *k)
{
    if (!g)
        return false;
    if (g->kind == SX_BIN && g->op == OPX_AND)
        return find_pin(g->l, pin, k) || find_pin(g->r, pin, k);
    if (g->kind != SX_BIN || g->op != OPX_EQ)
        return false;
    if (affine_addr(g->l, k) && line_free(g->r)) {
        *pin = g->r;
        return true;
    }
    if (affine_addr(g->r, k) && line_free(g->l)) {
        *pin = g->l;
        return true;
    }
    return false;
}

void sim_tables_pin(sim_tables *t)
{
    for (int c = 0; c < t->nctrls; c++) {
        sim_ctrl *ct = &t->ctrls[c];
        ct->pinned = GC_MALLOC_ATOMIC(sizeof *ct->pinned * (size_t)(ct->ninternal + 1));
        for (int x = 0; x < ct->ninternal; x++)
            ct->pinned[x] = true;
        for (int r = 0; r < ct->nrows; r++) {
            sim_row *row = &ct->rows[r];
            if (row->ev != SE_INTERNAL || row->internal < 0)
                continue;
            row->pin = NULL;
            if (!find_pin(row->guard, &row->pin, &row->pin_k))
                ct->pinned[row->internal] = false;
        }
    }
}

bool sim_ctrl_has_internal(const sim_ctrl *ct)
{
    return ct->ninternal > (ct->evict >= 0);
}
