/*
 * exec_build.h: building small candidate executions by hand in unit tests.
 *
 * Every execution a unit test builds has at most 64 events, so each set and
 * each row of a relation is one word (cat/relation.h): a set is a word and
 * pairs are added with the width of 64 events, whatever the final count.
 */
#ifndef SCOPECHECK_TESTS_EXEC_BUILD_H
#define SCOPECHECK_TESTS_EXEC_BUILD_H

#include "cat/exec.h"

#define TX_EVENTS 64

static inline void tx_init(exec *x) { exec_init(x, TX_EVENTS); }
static inline evword *tx_set(exec *x, int set) { return x->sets + set; }
static inline void tx_add(exec *x, int rel, int from, int to) { rel_add(x->rel[rel], from, to, TX_EVENTS); }
static inline evword tx_row(const exec *x, int rel, int i) { return rel_crow(x->rel[rel], i, TX_EVENTS)[0]; }
static inline evword tx_universe(int n) { return n >= 64 ? ~(evword)0 : ((evword)1 << n) - 1; }
static inline bool tx_has(evword s, int e) { return (s >> e) & 1u; }

#endif
