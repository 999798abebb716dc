/*
 * cli/herd_args.h: herd7's command-line habits.
 *
 * herd7 users type `-model ptx6 -unroll 3 -q -o out -show prop`.  The
 * commands parse with getopt_long_only, so every long option may be
 * written with one dash as herd writes it (`-model` is `--model`, not
 * `-m odel`).  herd7 options that scopecheck does not have are refused
 * here with a message that names what to use instead.
 *
 * Contract.  herd_option_advice() returns the advice for a herd7 option
 * that scopecheck does not take (the argument as typed, with one or two
 * dashes and without "=VALUE"), or NULL when it is not one; the command
 * prints "scopecheck CMD: error: herd7's option -X is not supported: ADVICE".
 */
#ifndef SCOPECHECK_CLI_HERD_ARGS_H
#define SCOPECHECK_CLI_HERD_ARGS_H

const char *herd_option_advice(const char *arg);

#endif
