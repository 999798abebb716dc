/*
 * protocol/export.h: a protocol's tables in the JSON form a simulator
 * reads (docs/tables-format.md, the "content" member), and the shape of an
 * instance (what a verified configuration covered).
 *
 * Contract.  proto_export_content returns a new JSON object (jansson;
 * the caller owns the reference) describing the protocol as resolved by
 * the parser, with the configuration `o` applied: named constants with
 * their values (overrides included; an unknown override name is an error
 * written to `errors`, and NULL is returned), the value range, homes,
 * messages, controllers (states, fields, variables, final expression,
 * internal events, rows as trees: event pattern, guard, actions, next
 * state), channels (ordering as forced by o->net), the memory
 * declaration and invariants.  A row whose guard or action nests deeper
 * than PROTO_EXPORT_MAX_DEPTH is an error (file:line:col) and NULL.  Names are kept (every reference is by
 * name); expressions are trees, never source text.  The built-in
 * constants (NCU, NGPU, NADDR, NTHREADS, MAXOPS) stay symbolic in bounds,
 * for the consumer to bind.  Deterministic: the same protocol and options
 * give the same value.  NULL also when out of memory.
 *
 * proto_instance_shape tells what an instance binds: its CUs, GPUs,
 * locations, the most threads on one CU, and MAXOPS.
 */
#ifndef SCOPECHECK_PROTOCOL_EXPORT_H
#define SCOPECHECK_PROTOCOL_EXPORT_H

#include <jansson.h>
#include <stdio.h>

#include "protocol/protocol.h"

#define PROTO_EXPORT_FORMAT "scopecheck-tables"
#define PROTO_EXPORT_VERSION 1
/* The deepest expression export writes (a row's guard or action, in JSON
 * levels; a chain of n operators is n deep): a located error beyond, since
 * JSON readers bound nesting (jansson: 2048). */
#define PROTO_EXPORT_MAX_DEPTH 1000

typedef struct proto_shape {
    int ncu, ngpu, naddr, max_threads_per_cu, maxops;
} proto_shape;

json_t *proto_export_content(const protocol *p, const proto_options *o, FILE *errors);
void proto_instance_shape(const proto_instance *in, proto_shape *out);

#endif
