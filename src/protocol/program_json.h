/*
 * protocol/program_json.h: a litmus program as JSON, for the tables that
 * `scopecheck export` stamps (docs/tables-format.md, "Programs"): scopesim
 * runs any checked test in a loop from it, and never reads litmus files.
 * The protocol layer writes the whole tables format: protocol/export.h the
 * tables, this the programs.
 *
 * Contract: returns a new JSON object (the caller owns it) with the
 * test's locations (name, initial value) and threads (name, CTA, GPU,
 * registers with initial values, instructions as the register machine of
 * litmus/litmus.h: opcode, order, scope, operation, destination register,
 * location, operands, branch target).  Deterministic; NULL when out of
 * memory.
 */
#ifndef SCOPECHECK_PROTOCOL_PROGRAM_JSON_H
#define SCOPECHECK_PROTOCOL_PROGRAM_JSON_H

#include <jansson.h>

#include "litmus/litmus.h"

json_t *program_json(const litmus_test *t);

#endif
