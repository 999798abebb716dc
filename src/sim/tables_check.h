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
 * false is returned.  Values of a wrapping value range always fit.  A
 * constant expression that overflows int64 or divides by 0 is refused
 * too: the checker (base/arith.h) disables the row that computes it.
 */
#ifndef SCOPECHECK_SIM_TABLES_CHECK_H
#define SCOPECHECK_SIM_TABLES_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/config.h"
#include "sim/tables.h"

bool sim_tables_check(const sim_tables *t, FILE *errors);

/* The constants the system states it needs (`const NAME VALUE`, e.g.
 * stc8.sys's NSLICE 4: its L2 in 4 banks) against the tables' values: a
 * constant the tables have with another value is refused ("SYS: const:
 * ... export them again with --const NAME=VALUE"); one they lack is
 * ignored, so that one system serves several protocols. */
bool sim_tables_check_system(const sim_tables *t, const sim_system *s, FILE *errors);

#endif
