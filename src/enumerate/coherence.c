/*
 * enumerate/coherence.c: coherence in one combination of thread traces (see
 * enumerate/internal.h): each location's writes and the orders on them to
 * choose from (built once per pattern), the orders thread coherence leaves
 * to each reads-from choice, and co and fr from a choice.
 */
#include <gc.h>
#include <string.h>

#include "enumerate/internal.h"

/* The most coherence orders listed for one location: every partial order
 * of six writes from six threads fits (130,023), and two threads' chains of
 * four (1,764); more writes are skipped, and the result says so. */
#define MAX_CO_ORDERS 131072

typedef struct order_cache {
    int k;
    uint8_t must[MAX_TOTAL_K];
    bool too_many;
    order_table tab;
} order_cache;

/* The orders on a location's writes that keep each thread's writes in
 * program order (with thread coherence; all orders without), built once
 * per pattern; NULL when there are more than MAX_CO_ORDERS. */
static order_table *orders_for(co_state *co, const loc_writes *lw)
{
    for (int i = 0; i < co->norders; i++) {
        order_cache *oc = co->orders[i];
        if (oc->k == lw->k && memcmp(oc->must, lw->must, sizeof oc->must) == 0)
            return oc->too_many ? NULL : &oc->tab;
    }
    if (co->norders == co->orders_cap) {
        co->orders_cap = co->orders_cap ? 2 * co->orders_cap : 8;
        order_cache **grown = GC_MALLOC(sizeof *grown * (size_t)co->orders_cap);
        if (co->norders)
            memcpy(grown, co->orders, sizeof *grown * (size_t)co->norders);
        co->orders = grown;
    }
    order_cache *oc = co->orders[co->norders++] = GC_MALLOC(sizeof *oc);
    oc->k = lw->k;
    memcpy(oc->must, lw->must, sizeof oc->must);
    oc->too_many = !order_table_build_containing(&oc->tab, lw->k, co->partial, lw->must, MAX_CO_ORDERS);
    return oc->too_many ? NULL : &oc->tab;
}

/* Room for every order of every location in the allowed lists. */
static void make_room_for_orders(co_state *co)
{
    long need = 0;
    for (int p = 0; p < co->nphys; p++) {
        co->allowed_at[p] = need;
        need += co->locw[co->phys_list[p]].orders->count;
    }
    if (need > co->allowed_cap) {
        co->allowed_cap = 2 * need;
        co->allowed = GC_MALLOC_ATOMIC(sizeof *co->allowed * (size_t)co->allowed_cap);
        co->identity = GC_MALLOC_ATOMIC(sizeof *co->identity * (size_t)co->allowed_cap);
        for (long i = 0; i < co->allowed_cap; i++)
            co->identity[i] = (int)i;
    }
}

/* Each location's writes (w[], with write_pos), after its initial write
 * (the first events); false when a location has more than MAX_TOTAL_K. */
static bool group_writes(co_state *co, const enum_exec *ex)
{
    const ev_info *ev = ex->ev;
    loc_writes *locw = co->locw;
    int8_t *write_pos = co->write_pos;
    int n = ex->n, ninit = ex->ninit;
    for (int i = 0; i < ninit; i++) {
        loc_writes *lw = &locw[ev[i].phys];
        lw->init = i;
        lw->k = 0;
    }
    for (int i = ninit; i < n; i++) {
        if (!ev[i].write)
            continue;
        loc_writes *lw = &locw[ev[i].phys];
        int k = lw->k;
        if (k == MAX_TOTAL_K)
            return false;
        write_pos[i] = (int8_t)k;
        lw->w[k] = i;
        lw->k = k + 1;
    }
    return true;
}

/* Thread coherence: each thread's writes to a location in program order. */
static void program_order_pairs(loc_writes *lw, const ev_info *ev, bool thread_coherent)
{
    memset(lw->must, 0, sizeof lw->must);
    for (int i = 0; i < lw->k && thread_coherent; i++)
        for (int j = i + 1; j < lw->k; j++)
            if (ev[lw->w[i]].thread == ev[lw->w[j]].thread)
                lw->must[i] |= (uint8_t)(1u << j);
}

/* Each location's writes, and their program-order constraints; false when
 * a location has more writes than coherence orders are listed for (the
 * combination is then skipped, and the result says so). */
bool co_collect_writes(co_state *co, const enum_exec *ex, check_result *r)
{
    co->nphys = 0;
    if (!group_writes(co, ex)) {
        r->writes_cut = true;
        return false;
    }
    const litmus_test *t = ex->t;
    for (int l = 0; l < t->nlocs; l++) {
        loc_writes *lw = &co->locw[l];
        if (t->locs[l].physical != l || lw->k == 0)
            continue;
        program_order_pairs(lw, ex->ev, ex->thread_coherent);
        lw->orders = orders_for(co, lw);
        if (!lw->orders) {
            r->writes_cut = true;
            return false;
        }
        co->phys_list[co->nphys++] = l;
    }
    make_room_for_orders(co);
    return true;
}

/* Thread coherence: no read may read from a write that is coherence-before
 * a write its own thread made earlier to the same location.  For the
 * current reads-from choice that forbids pairs of each location's order
 * (lw->never); false when a read reads the initial value after its own
 * thread wrote the location, which every order forbids. */
static bool forbid_reading_back(co_state *co, const rf_state *rf, const enum_exec *ex)
{
    for (int p = 0; p < co->nphys; p++) {
        loc_writes *lw = &co->locw[co->phys_list[p]];
        memset(lw->never, 0, sizeof lw->never);
    }
    for (int r = 0; r < rf->nreads; r++) {
        int last = rf->last_write[r], source = rf->rf_choice[r];
        if (last < 0 || last == source)
            continue;
        loc_writes *lw = &co->locw[ex->ev[last].phys];
        if (source == lw->init)
            return false;
        lw->never[co->write_pos[source]] |= (uint8_t)(1u << co->write_pos[last]);
    }
    return true;
}

/* A location's allowed orders depend only on its table and the masks
 * (thread coherence's and liveness's), and the same masks come back for
 * many reads-from choices: a large table's filtered list is kept, by a
 * direct-mapped slot, instead of filtering its thousands of orders again
 * (PriorSem-bool's liveness pass: tens of millions of reads-from choices,
 * 80,000 orders of the lock, 99.9% of them masks seen before; litmus/ptx
 * under ptx6, 11% fewer instructions).  The memo is allocated at its first
 * use, so a test without a large table pays nothing.  A replaced list is
 * not reused: a location's list[p] may still point at it. */
#define ORDER_MEMO 256
#define ORDER_MEMO_MIN 64       /* smaller tables are filtered again: cheaper than a copy */

struct order_memo {
    const order_table *tab;
    uint64_t key;
    const int *list;
    int n;
};

static struct order_memo *memo_slot(co_state *co, const order_table *tab, uint64_t key)
{
    if (!co->memo)
        co->memo = GC_MALLOC(sizeof *co->memo * ORDER_MEMO);
    uint64_t h = (key ^ (uint64_t)(uintptr_t)tab) * 0x9e3779b97f4a7c15ull;
    return &co->memo[h >> 56];
}

/* The orders of each location that thread coherence allows with the
 * current reads-from choice; false when some location has none, so no
 * coherence choice is left.  Every choice is then one of these, so none is
 * built only to be thrown away (most were, on Ticketlock). */
bool co_allow_orders(co_state *co, const rf_state *rf, const enum_exec *ex, live_ctx *live)
{
    if (ex->thread_coherent && !forbid_reading_back(co, rf, ex))
        return false;
    for (int p = 0; p < co->nphys; p++) {
        const loc_writes *lw = &co->locw[co->phys_list[p]];
        order_table *tab = lw->orders;
        uint8_t mask[MAX_TOTAL_K], never = 0;
        memcpy(mask, lw->never, sizeof mask);
        if (live && !live_order_never(live, lw->w, lw->k, lw->init, mask))
            return false;
        for (int i = 0; i < lw->k; i++)
            never |= mask[i];
        int *list = co->allowed + co->allowed_at[p];
        int n = 0;
        if (!never) {
            co->list[p] = co->identity;
            n = tab->count;
        } else {
            uint64_t key = 0;
            for (int i = 0; i < lw->k; i++)
                key |= (uint64_t)mask[i] << (8 * i);
            struct order_memo *m = tab->count >= ORDER_MEMO_MIN ? memo_slot(co, tab, key) : NULL;
            if (m && m->list && m->tab == tab && m->key == key) {
                co->list[p] = m->list;
                n = m->n;
            } else {
                n = order_table_filter(tab, lw->k, mask, list);
                co->list[p] = list;
                if (m) {
                    int *kept = n ? GC_MALLOC_ATOMIC(sizeof *kept * (size_t)n) : co->identity;
                    if (n)
                        memcpy(kept, list, sizeof *kept * (size_t)n);
                    *m = (struct order_memo){tab, key, kept, n};
                }
            }
        }
        co->nallowed[p] = n;
        if (n == 0)
            return false;
    }
    return true;
}

/* co from the chosen order of each location, and fr = rf^-1;co, which is,
 * since each read reads from one write, the co row of that write.  Only
 * the rows of writes and reads are written: the others were cleared with
 * the static relations, and a combination that keeps them keeps its
 * events in place, so a location's rows also stay right while its order
 * does (consecutive choices mostly change one location). */
static void set_co_narrow(co_state *co, const rf_state *rf, exec *x)
{
    evword *co_rows = rel_w(x->rel[XR_CO]);
    for (int p = 0; p < co->nphys; p++) {
        if (co->applied[p] == co->choice[p])
            continue;
        co->applied[p] = co->choice[p];
        const loc_writes *lw = &co->locw[co->phys_list[p]];
        const uint8_t *rows = lw->orders->rows[co->choice[p]];
        evword all = 0;
        for (int i = 0; i < lw->k; i++) {
            all |= evword_bit(lw->w[i]);
            evword after = 0;
            for (unsigned later = rows[i]; later; later &= later - 1)
                after |= evword_bit(lw->w[__builtin_ctz(later)]);
            co_rows[lw->w[i]] = after;
        }
        co_rows[lw->init] = all;
    }
    evword *fr = rel_w(x->rel[XR_FR]);
    for (int r = 0; r < rf->nreads; r++)
        fr[rf->read_ev[r]] = co_rows[rf->rf_choice[r]];
    if (rf->nrmw_reads) /* a C read-modify-write is not fr-before itself */
        for (int r = 0; r < rf->nreads; r++)
            fr[rf->read_ev[r]] &= ~evword_bit(rf->read_ev[r]);
}

void co_apply(co_state *co, const rf_state *rf, exec *x, int n)
{
    if (n <= 64) {
        set_co_narrow(co, rf, x);
        return;
    }
    relation *co_rel = x->rel[XR_CO];
    for (int p = 0; p < co->nphys; p++) {
        if (co->applied[p] == co->choice[p])
            continue;
        co->applied[p] = co->choice[p];
        const loc_writes *lw = &co->locw[co->phys_list[p]];
        const uint8_t *rows = lw->orders->rows[co->choice[p]];
        evword *init_row = rel_row(co_rel, lw->init, n);
        set_clear(init_row, n);
        for (int i = 0; i < lw->k; i++) {
            set_add(init_row, lw->w[i]);
            evword *row = rel_row(co_rel, lw->w[i], n);
            set_clear(row, n);
            for (unsigned later = rows[i]; later; later &= later - 1)
                set_add(row, lw->w[__builtin_ctz(later)]);
        }
    }
    relation *fr = x->rel[XR_FR];
    for (int r = 0; r < rf->nreads; r++)
        set_copy(rel_row(fr, rf->read_ev[r], n), rel_crow(co_rel, rf->rf_choice[r], n), n);
    if (rf->nrmw_reads) /* a C read-modify-write is not fr-before itself */
        for (int r = 0; r < rf->nreads; r++)
            set_remove(rel_row(fr, rf->read_ev[r], n), rf->read_ev[r]);
}
