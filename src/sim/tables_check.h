/*
 * sim/tables_check.h: what the bound tables state, checked against the
 * simulated system before a run, so that scopesim refuses what it would
 * otherwise turn into a silent wait.
 *
 * Contract.  sim_tables_check runs after sim_tables_bind.  Every
 * assignment, push and message field whose value reads only numbers and
 * constants (hmg_lite's `flush := NGPU * NGPU`) must fall in the range
 * its target states (`0..MAXFLUSH`) with this system's built-in
 * constants: otherwise the row could never fire, and the run would stop
 * as a deadlock after simulating up to it.  The first that does not fit
 * is written to `errors` as one line "FILE: content.controllers.C: the
 * row at line N sets ... : FIX", the fix naming the constant to export
 * again (`--const MAXFLUSH=16`) or the system setting (`maxops`), and
 * false is returned.  Values of a wrapping value range always fit.
 */
#ifndef SCOPECHECK_SIM_TABLES_CHECK_H
#define SCOPECHECK_SIM_TABLES_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/tables.h"

bool sim_tables_check(const sim_tables *t, FILE *errors);

#endif
