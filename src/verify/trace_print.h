/*
 * verify/trace_print.h: counterexample traces as `verify` prints them.
 *
 * Contract.  trace_print writes the shortest path to a stored state, one
 * numbered line per step (the protocol's step description, as
 * bfs_print_trace does).  With TRACE_FULL it also writes, under step 0,
 * every field of the initial state, and under each later step the table row
 * that fired (file:line; a variant's inherited rows name the base file)
 * and the fields the step changed, grouped by component ("L1 (CU 1) [x]:
 * state = V, val = 1").  trace_print_stuck writes why a state has no
 * successor (protocol/step.h's proto_stuck_reasons), one line per reason.
 * Both only read the search and the instance.
 */
#ifndef SCOPECHECK_VERIFY_TRACE_PRINT_H
#define SCOPECHECK_VERIFY_TRACE_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "protocol/protocol.h"
#include "search/bfs.h"
#include "search/fair_cycle.h"

typedef enum trace_detail { TRACE_SHORT, TRACE_FULL } trace_detail;

/* "short" or "full" into *out; false for anything else. */
bool trace_detail_parse(const char *text, trace_detail *out);

void trace_print(FILE *out, const bfs_search *s, const proto_instance *in, uint32_t index, trace_detail d);
/* The same for a concrete path of model m (bfs_path_to, or verify's
 * verify_trace_path under symmetry reduction); NULL: a line saying that
 * the trace is unavailable. */
void trace_print_path(FILE *out, const nsi_model *m, const proto_instance *in, const bfs_path *p, trace_detail d);

/* A liveness violation's lasso (search/fair_cycle.h): short, as
 * fc_print_lasso writes it; full, the stem as trace_print writes it, the
 * marker line, then each cycle step with its row and the fields it
 * changed. */
void trace_print_lasso(FILE *out, const bfs_search *s, const proto_instance *in, const fc_cycle *c, trace_detail d);

void trace_print_stuck(FILE *out, const proto_instance *in, const uint8_t *state);

#endif
