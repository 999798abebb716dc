/* protocol/compile.c: the row dispatch of an instance (compile.h). */
#include <gc.h>
#include <string.h>

#include "protocol/compile.h"
#include "protocol/internal.h"

/* The processor event kinds are the first four (PCODE_PROC_KEYS counts them). */
_Static_assert(EVENT_LOAD == 0 && EVENT_STORE == 1 && EVENT_RMW == 2 && EVENT_FENCE == 3,
               "processor event kinds 0..3");

/* Whether row pattern r matches the event of key `key` (proto_code_key's
 * numbering, decoded). */
static bool pattern_has_key(const proto_code *k, const pevent *r, int key)
{
    if (key < PCODE_PROC_KEYS) {
        int remote = key % 2, scope = key / 2 % LIT_NSCOPES, order = key / 2 / LIT_NSCOPES % LIT_NORDERS;
        int kind = key / 2 / LIT_NSCOPES / LIT_NORDERS;
        pevent e = {(enum pev_kind)kind, order, scope, -1, -1, -1, remote};
        return proto_event_matches(r, &e);
    }
    if (key < k->internal_base) {
        int x = key - k->recv_base;
        pevent e = {EV_RECV, PEV_ANY, PEV_ANY, x / k->nmsgs, x % k->nmsgs, -1, 0};
        return proto_event_matches(r, &e);
    }
    pevent e = {EV_INTERNAL, PEV_ANY, PEV_ANY, -1, -1, key - k->internal_base, 0};
    return proto_event_matches(r, &e);
}

/* The (key, state) cells row `row` is a candidate of, ascending, in
 * `out` (room for nkeys * ns); cell = key * ns + state.  Returns how many. */
static int row_cells(const proto_code *k, const prow *row, int ns, int32_t *out)
{
    int n = 0;
    for (int key = 0; key < k->nkeys; key++)
        if (pattern_has_key(k, &row->ev, key))
            for (int st = 0; st < ns; st++)
                if (row->states >> st & 1)
                    out[n++] = key * ns + st;
    return n;
}

/* Controller pc's dispatch, by a counting sort of (cell, row) pairs: the
 * first pass counts the candidates of each cell, the second places the
 * rows, in table order within a cell. */
static pdispatch dispatch_of(const proto_code *k, const pctrl *pc)
{
    int ns = pc->nstates, ncell = k->nkeys * ns;
    int32_t *first = GC_MALLOC_ATOMIC(sizeof *first * (size_t)(ncell + 1));
    int32_t *next = GC_MALLOC_ATOMIC(sizeof *next * (size_t)(ncell + 1));
    int32_t *cells = GC_MALLOC_ATOMIC(sizeof *cells * (size_t)(ncell + 1));
    memset(first, 0, sizeof *first * (size_t)(ncell + 1));
    for (int r = 0; r < pc->nrows; r++)
        for (int i = 0, n = row_cells(k, &pc->rows[r], ns, cells); i < n; i++)
            first[cells[i] + 1]++;
    for (int cell = 0; cell < ncell; cell++)
        first[cell + 1] += first[cell];
    memcpy(next, first, sizeof *next * (size_t)(ncell + 1));
    int32_t *rows = GC_MALLOC_ATOMIC(sizeof *rows * (size_t)(first[ncell] ? first[ncell] : 1));
    for (int r = 0; r < pc->nrows; r++)
        for (int i = 0, n = row_cells(k, &pc->rows[r], ns, cells); i < n; i++)
            rows[next[cells[i]]++] = r;
    return (pdispatch){ns, first, rows};
}

const proto_code *proto_compile(const proto_instance *in)
{
    const protocol *p = in->p;
    proto_code *k = GC_MALLOC(sizeof *k);
    int ninternal = 0;
    for (int c = 0; c < p->nctrls; c++)
        ninternal = p->ctrls[c].ninternal > ninternal ? p->ctrls[c].ninternal : ninternal;
    k->nchans = p->nchans;
    k->nmsgs = p->nmsgs;
    k->recv_base = PCODE_PROC_KEYS;
    k->internal_base = k->recv_base + p->nchans * p->nmsgs;
    k->nkeys = k->internal_base + ninternal;
    pdispatch *d = GC_MALLOC(sizeof *d * (size_t)(p->nctrls ? p->nctrls : 1));
    for (int c = 0; c < p->nctrls; c++)
        d[c] = dispatch_of(k, &p->ctrls[c]);
    k->ctrl = d;
    return k;
}

const proto_code *proto_instance_code(const proto_instance *in) { return in->code; }
