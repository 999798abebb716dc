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
