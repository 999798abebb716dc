/*
 * enumerate/co_orders.c: every strict order on k writes (see enumerate/co_orders.h).
 */
#include "enumerate/co_orders.h"

#include <gc.h>
#include <string.h>

static bool closed_and_strict(const uint8_t *rows, int k)
{
    for (int i = 0; i < k; i++) {
        if (rows[i] & (1u << i))
            return false;
        for (int j = 0; j < k; j++)
            if ((rows[i] & (1u << j)) && (rows[j] & ~rows[i]))
                return false;
    }
    return true;
}

/* Every assignment of each pair to {unordered, i<j, j<i} that is already a
 * strict order: each strict partial order appears exactly once. */
static void build_partial(order_table *tab, int k)
{
    int pairs = k * (k - 1) / 2;
    long assignments = 1;
    for (int p = 0; p < pairs; p++)
        assignments *= 3;
    tab->count = 0;
    tab->index = NULL;
    tab->rows = GC_MALLOC_ATOMIC(sizeof *tab->rows * (size_t)assignments);
    for (long a = 0; a < assignments; a++) {
        uint8_t rows[MAX_TOTAL_K] = {0};
        long rest = a;
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++) {
                int pick = (int)(rest % 3);
                rest /= 3;
                if (pick == 1)
                    rows[i] |= (uint8_t)(1u << j);
                else if (pick == 2)
                    rows[j] |= (uint8_t)(1u << i);
            }
        if (closed_and_strict(rows, k))
            memcpy(tab->rows[tab->count++], rows, sizeof rows);
    }
}

static void build_total(order_table *tab, int k)
{
    /* Total orders by permutation: the 3^pairs search is too slow at k=8. */
    int perm[MAX_TOTAL_K];
    long count = 1;
    for (int i = 2; i <= k; i++)
        count *= i;
    tab->count = 0;
    tab->index = NULL;
    tab->rows = GC_MALLOC_ATOMIC(sizeof *tab->rows * (size_t)count);
    for (int i = 0; i < k; i++)
        perm[i] = i;
    for (;;) {
        uint8_t *rows = tab->rows[tab->count++];
        memset(rows, 0, MAX_TOTAL_K);
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++)
                rows[perm[i]] |= (uint8_t)(1u << perm[j]);
        /* next permutation in lexicographic order */
        int i = k - 2;
        while (i >= 0 && perm[i] > perm[i + 1])
            i--;
        if (i < 0)
            break;
        int j = k - 1;
        while (perm[j] < perm[i])
            j--;
        int tmp = perm[i]; perm[i] = perm[j]; perm[j] = tmp;
        for (int a = i + 1, b = k - 1; a < b; a++, b--) {
            tmp = perm[a]; perm[a] = perm[b]; perm[b] = tmp;
        }
    }
}

void order_table_build(order_table *tab, int k, bool partial)
{
    if (partial)
        build_partial(tab, k);
    else
        build_total(tab, k);
}

/* ---- orders that contain given pairs ---- */

typedef struct builder {
    order_table *tab;
    int k;
    const uint8_t *must;
    long limit, cap;
    bool over;
    uint8_t rows[MAX_TOTAL_K];
} builder;

static void emit(builder *b)
{
    if (b->tab->count == b->limit) {
        b->over = true;
        return;
    }
    if (b->tab->count == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        uint8_t(*grown)[MAX_TOTAL_K] = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)b->cap);
        if (b->tab->count)
            memcpy(grown, b->tab->rows, sizeof *grown * (size_t)b->tab->count);
        b->tab->rows = grown;
    }
    memcpy(b->tab->rows[b->tab->count++], b->rows, MAX_TOTAL_K);
}

/* Total orders: every sequence that places a write after those it must
 * follow; each order is one sequence. */
static void place_total(builder *b, unsigned placed)
{
    if (b->over)
        return;
    unsigned all = (1u << b->k) - 1;
    if (placed == all) {
        emit(b);
        return;
    }
    for (int e = 0; e < b->k; e++) {
        if (placed & (1u << e))
            continue;
        bool ready = true;
        for (int i = 0; i < b->k && ready; i++)
            ready = !(b->must[i] & (1u << e)) || (placed & (1u << i));
        if (!ready)
            continue;
        for (unsigned p = placed; p; p &= p - 1)
            b->rows[__builtin_ctz(p)] |= (uint8_t)(1u << e);
        place_total(b, placed | (1u << e));
        for (unsigned p = placed; p; p &= p - 1)
            b->rows[__builtin_ctz(p)] &= (uint8_t)~(1u << e);
    }
}

/* Partial orders, one write at a time: an order on writes 0..m extends
 * one on 0..m-1 by the writes below m (a down-closed set D holding those m
 * must follow) and above it (an up-closed set U apart from D, every write
 * of D already below every write of U).  Each order comes from exactly
 * one (order on 0..m-1, D, U). */
static void place_partial(builder *b, int m)
{
    if (b->over)
        return;
    if (m == b->k) {
        emit(b);
        return;
    }
    unsigned earlier = (1u << m) - 1, need = 0, pred[MAX_TOTAL_K];
    for (int i = 0; i < m; i++) {
        if (b->must[i] & (1u << m))
            need |= 1u << i;
        pred[i] = 0;
    }
    for (int i = 0; i < m; i++)
        for (unsigned s = b->rows[i] & earlier; s; s &= s - 1)
            pred[__builtin_ctz(s)] |= 1u << i;
    unsigned free = earlier & ~need;
    for (unsigned sub = free;; sub = (sub - 1) & free) {
        unsigned down = need | sub;
        bool closed = true;
        for (unsigned d = down; d && closed; d &= d - 1)
            closed = (pred[__builtin_ctz(d)] & ~down) == 0;
        if (closed) {
            unsigned rest = earlier & ~down;
            for (unsigned up = rest;; up = (up - 1) & rest) {
                bool ok = true;
                for (unsigned u = up; u && ok; u &= u - 1)
                    ok = (b->rows[__builtin_ctz(u)] & earlier & ~up) == 0;
                for (unsigned d = down; d && ok; d &= d - 1)
                    ok = (b->rows[__builtin_ctz(d)] & up) == up;
                if (ok) {
                    for (unsigned d = down; d; d &= d - 1)
                        b->rows[__builtin_ctz(d)] |= (uint8_t)(1u << m);
                    b->rows[m] = (uint8_t)up;
                    place_partial(b, m + 1);
                    b->rows[m] = 0;
                    for (unsigned d = down; d; d &= d - 1)
                        b->rows[__builtin_ctz(d)] &= (uint8_t)~(1u << m);
                }
                if (!up)
                    break;
            }
        }
        if (!sub)
            break;
    }
}

bool order_table_build_containing(order_table *tab, int k, bool partial, const uint8_t *must, long limit)
{
    builder b;
    memset(&b, 0, sizeof b);
    b.tab = tab;
    b.k = k;
    b.must = must;
    b.limit = limit;
    tab->count = 0;
    tab->index = NULL;
    tab->rows = NULL;
    if (partial)
        place_partial(&b, 0);
    else
        place_total(&b, 0);
    if (!tab->rows)
        tab->rows = GC_MALLOC_ATOMIC(sizeof *tab->rows);
    return !b.over;
}

/* ---- filtering by forbidden pairs ---- */

struct order_index {
    int k, words;
    uint64_t **with;       /* per pair i * k + j: the orders with i before j (NULL: none) */
    uint64_t *scratch;     /* `words` words */
};

static struct order_index *index_build(const order_table *tab, int k)
{
    struct order_index *x = GC_MALLOC(sizeof *x);
    x->k = k;
    x->words = (tab->count + 63) / 64;
    x->with = GC_MALLOC(sizeof *x->with * (size_t)(k * k));
    x->scratch = GC_MALLOC_ATOMIC(sizeof *x->scratch * (size_t)x->words);
    for (int o = 0; o < tab->count; o++)
        for (int i = 0; i < k; i++)
            for (unsigned succ = tab->rows[o][i]; succ; succ &= succ - 1) {
                uint64_t **set = &x->with[i * k + __builtin_ctz(succ)];
                if (!*set) {
                    *set = GC_MALLOC_ATOMIC(sizeof **set * (size_t)x->words);
                    memset(*set, 0, sizeof **set * (size_t)x->words);
                }
                (*set)[o / 64] |= (uint64_t)1 << (o % 64);
            }
    return x;
}

static int filter_by_scan(const order_table *tab, int k, const uint8_t *never, int *out)
{
    int n = 0;
    for (int o = 0; o < tab->count; o++) {
        bool ok = true;
        for (int i = 0; i < k && ok; i++)
            ok = (tab->rows[o][i] & never[i]) == 0;
        if (ok)
            out[n++] = o;
    }
    return n;
}

int order_table_filter(order_table *tab, int k, const uint8_t *never, int *out)
{
    if (tab->count < ORDER_INDEX_MIN)
        return filter_by_scan(tab, k, never, out);
    if (!tab->index || tab->index->k != k)
        tab->index = index_build(tab, k);
    struct order_index *x = tab->index;
    uint64_t *left = x->scratch;
    memset(left, 0xff, sizeof *left * (size_t)x->words);
    if (tab->count % 64)
        left[x->words - 1] = ((uint64_t)1 << (tab->count % 64)) - 1;
    for (int i = 0; i < k; i++)
        for (unsigned bad = never[i]; bad; bad &= bad - 1) {
            const uint64_t *with = x->with[i * k + __builtin_ctz(bad)];
            if (!with)
                continue;
            for (int w = 0; w < x->words; w++)
                left[w] &= ~with[w];
        }
    int n = 0;
    for (int w = 0; w < x->words; w++)
        for (uint64_t bits = left[w]; bits; bits &= bits - 1)
            out[n++] = 64 * w + __builtin_ctzll(bits);
    return n;
}
