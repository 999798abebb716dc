/*
 * enumerate/reads_from.c: each read's reads-from options in one combination
 * of thread traces (see enumerate/internal.h): the writes of its location
 * with the value it read, less those thread coherence rules out.
 */
#include <gc.h>
#include <string.h>

#include "enumerate/internal.h"

/* Whether the read at event i may read from write w, as thread coherence
 * has it (when the model asks for it): not from a write of its own thread
 * after it, nor, when its thread wrote the location before it (last, else
 * -1), from any write of the thread but the latest or from the initial
 * write (each is coherence-before that latest write, which the read
 * follows: forbid_reading_back); and only from a write of its value. */
static inline bool may_read_from(const ev_info *ev, bool thread_coherent, int last, int i, int w)
{
    const ev_info *we = &ev[w];
    bool same_thread = we->thread == ev[i].thread;
    if (thread_coherent) {
        if (same_thread && w > i)
            return false;
        if (last >= 0 && w != last && (same_thread || we->thread < 0))
            return false;
    }
    return we->wvalue == ev[i].value;
}

/* Appends w to the options (used of them so far). */
static inline void add_option(rf_state *rf, int *used, int w)
{
    if (*used == rf->opts_cap) {
        rf->opts_cap = 2 * rf->opts_cap;
        int *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)rf->opts_cap);
        memcpy(grown, rf->opts, sizeof *grown * (size_t)*used);
        rf->opts = grown;
    }
    rf->opts[(*used)++] = w;
}

/* Each location's writes in the combination, as sets. */
static void writes_by_location(rf_state *rf, const enum_exec *ex)
{
    int n = ex->n;
    const ev_info *ev = ex->ev;
    if (ex->stride == 1) {
        evword *writes = rf->loc_writes_now;
        for (int l = 0; l < ex->t->nlocs; l++)
            writes[l] = 0;
        for (int w = 0; w < n; w++)
            if (ev[w].write)
                writes[ev[w].phys] |= evword_bit(w);
    } else {
        for (int l = 0; l < ex->t->nlocs; l++)
            set_clear(set_at(rf->loc_writes_now, ex->stride, l), n);
        for (int w = 0; w < n; w++)
            if (ev[w].write)
                set_add(set_at(rf->loc_writes_now, ex->stride, ev[w].phys), w);
    }
}

bool rf_collect_options(rf_state *rf, const enum_exec *ex)
{
    int n = ex->n, stride = ex->stride, nreads = 0, nrmw_reads = 0, used = 0;
    const ev_info *ev = ex->ev;
    bool coherent = ex->thread_coherent;
    writes_by_location(rf, ex);
    bool served = true;
    for (int i = 0; i < n && served; i++) {
        if (!ev[i].read)
            continue;
        nrmw_reads += ev[i].write;
        int r = nreads++, last = ev[i].last_write, before = used;
        rf->read_ev[r] = i;
        rf->opt_at[r] = used;
        rf->last_write[r] = last;
        const evword *writes = set_at(rf->loc_writes_now, stride, ev[i].phys);
        /* never event i itself: a C read-modify-write does not read its own write */
        if (n <= 64) {
            for (evword ws = writes[0] & ~evword_bit(i); ws; ws &= ws - 1)
                if (may_read_from(ev, coherent, last, i, __builtin_ctzll(ws)))
                    add_option(rf, &used, __builtin_ctzll(ws));
        } else {
            for (int w = set_next(writes, 0, n); w >= 0; w = set_next(writes, w + 1, n))
                if (w != i && may_read_from(ev, coherent, last, i, w))
                    add_option(rf, &used, w);
        }
        rf->nopts[r] = used - before;
        served = used > before;
    }
    rf->nreads = nreads;
    rf->nrmw_reads = nrmw_reads;
    return served;
}
