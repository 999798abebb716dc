/*
 * enumerate/co_orders.h: the coherence orders a location's writes may take.
 *
 * Contract: order_table_build lists, once each, every strict total order
 * (k! of them) or every strict partial order (19 at k=3, 219 at k=4, 4231
 * at k=5) on k writes numbered 0..k-1; rows[o][i] has bit j when write i
 * comes before write j in order o.  Tables depend only on k, so the
 * enumerator builds each once per run.  Allocation: Boehm GC.
 */
#ifndef SCOPECHECK_ENUMERATE_CO_ORDERS_H
#define SCOPECHECK_ENUMERATE_CO_ORDERS_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_TOTAL_K 8    /* writes to one location: a row of an order is one byte */
#define MAX_PARTIAL_K 5  /* ... partial orders by order_table_build */

struct order_index;

/* All strict orders of one kind on k writes; rows[i] holds i's successors.
 * `index` is order_table_filter's, built at its first use on a large
 * table (NULL until then; the builders set it NULL). */
typedef struct order_table {
    int count;
    uint8_t (*rows)[MAX_TOTAL_K];
    struct order_index *index;
} order_table;

void order_table_build(order_table *tab, int k, bool partial);

/* The strict orders (total, or every strict partial order) on k writes
 * (k <= MAX_TOTAL_K) that contain the pairs of `must` (must[i] has bit j
 * when write i comes before write j in every order wanted: i < j, closed
 * transitively), each once, built directly rather than filtered from all
 * orders: two threads' chains of four writes have 1,764 partial orders
 * out of 431,723,379.  false when there are more than `limit`. */
bool order_table_build_containing(order_table *tab, int k, bool partial, const uint8_t *must, long limit);

/* Writes to out[] the numbers, in increasing order, of the orders of
 * `tab` (on k writes) that contain no pair of `never` (never[i] has bit j
 * when write i must not come before write j), and returns how many.  A
 * table of ORDER_INDEX_MIN orders or more gets, at its first call, a bit
 * set of its orders per pair (i, j) (k * k sets of count bits): each call
 * then costs a few word operations per order / 64 and per pair of `never`,
 * instead of a test of every order (the liveness pass of a CAS lock tries
 * tens of thousands of masks on 80,000 orders).  Not reentrant on one
 * table (the index holds its scratch). */
#define ORDER_INDEX_MIN 256
int order_table_filter(order_table *tab, int k, const uint8_t *never, int *out);

#endif
