/*
 * sim/expr_text.h: table expressions and bounds written back as the
 * protocol spells them, for scopesim's messages (a refused constant, why
 * a run is stuck).
 *
 * Contract.  sim_expr_text writes e in the table language's syntax:
 * constants, variables and `line.` fields of controller `ctrl` by name,
 * message fields as `msg.NAME` of message `msg` (or `msg[i]` when msg is
 * NULL), operators with parentheses around every nested operation.
 * sim_bound_text writes a bound as the table states it ("NCU - 1").
 */
#ifndef SCOPECHECK_SIM_EXPR_TEXT_H
#define SCOPECHECK_SIM_EXPR_TEXT_H

#include <stdio.h>

#include "sim/tables.h"

void sim_expr_text(FILE *to, const sim_tables *t, const sim_ctrl *ctrl, const sim_msg *msg, const sim_expr *e);
void sim_bound_text(FILE *to, const sim_tables *t, sim_bound b);

#endif
