/*
 * protocol/options.h: the command-line options that bind a protocol to a
 * litmus test (--net, --const), shared by `verify` and `graph`.
 *
 * Contract: each function parses one option's argument into a
 * proto_options (protocol.h) and returns false, changing nothing, when the
 * argument is not valid; the caller reports the error.
 */
#ifndef SCOPECHECK_PROTOCOL_OPTIONS_H
#define SCOPECHECK_PROTOCOL_OPTIONS_H

#include <stdbool.h>

#include "protocol/protocol.h"

/* --net fifo|unordered */
bool proto_options_net(proto_options *p, const char *text);
/* --const NAME=NUMBER (at most PROTO_MAX_OVERRIDES), |NUMBER| <= PROTO_MAX_CONST:
 * the numbers of a protocol file have at most 9 digits, and every sum the
 * layout makes of them must fit. */
#define PROTO_MAX_CONST 999999999L
bool proto_options_const(proto_options *p, const char *text);

#endif
