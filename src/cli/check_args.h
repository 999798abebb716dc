/*
 * cli/check_args.h: the options of the commands that run a litmus test on
 * a protocol (verify, graph, export), parsed once for all of them.
 *
 * Contract.  check_args_protocol() finds and loads --protocol NAME|FILE
 * (NULL after "scopecheck CMD: error: ..." or the parser's own message);
 * check_args_protocol_path() only finds it (NULL after the message).
 * check_args_option() parses one option into the verification settings:
 * 'n' --net, 'c' --const, 's' --max-states, 'M' --max-memory, 't'
 * --timeout, 'R' --racy, 'J' --threads, 'Y' --symmetry (optarg: its value).  It returns -1 when parsed,
 * 2 after writing "scopecheck CMD: error: ..." to `err`, and 0 for any
 * other option (the command's own).
 */
#ifndef SCOPECHECK_CLI_CHECK_ARGS_H
#define SCOPECHECK_CLI_CHECK_ARGS_H

#include <stdio.h>

#include "protocol/protocol.h"
#include "verify/verify.h"

const char *check_args_protocol_path(const char *cmd, const char *name, FILE *err);
protocol *check_args_protocol(const char *cmd, const char *name, FILE *err);
int check_args_option(int ch, const char *cmd, verify_settings *s, FILE *err);

#endif
