/*
 * cli/herd_args.h: herd7's command-line habits.
 *
 * herd7 users type `-model ptx6 -unroll 3 -q -o out -show prop`.  The
 * commands parse with getopt_long_only, so every long option may be
 * written with one dash as herd writes it (`-model` is `--model`).
 * getopt_long_only alone guesses: it takes an unknown `-hexa` for `-h`
 * (help, exit 0), `-v FILE` for an abbreviation of `--variant`, and
 * `-unshow po` for `-u nshow`.  herd_args_check runs first and leaves
 * getopt only options it reads exactly as typed.
 *
 * Contract.
 *
 * herd_args_check(cmd, &argc, argv, longopts, shortopts, &notes, err)
 * looks at the options of argv (from argv[1] up to "--" or the first
 * operand, shortopts starting with '+' as getopt's do) and accepts:
 *  - "--NAME", "--NAME=V", "-NAME", "-NAME=V" where NAME is exactly the
 *    name of one of longopts (no abbreviation); its value, when it takes
 *    one and none follows '=', is the next argument;
 *  - "-C" for a letter C of shortopts, and "-CVALUE" for such a letter
 *    that takes a value when VALUE starts with a digit, '/' or '.'
 *    (`-j2`, `-I../lib`);
 *  - herd7's options that ask for what scopecheck does anyway (`-v`,
 *    `-hexa false`, `-initwrites true`, figure styling such as
 *    `-unshow po`): they are removed from argv (with their value) and a
 *    note per option is appended to *notes (a GC string, NULL when none),
 *    which the caller prints unless -q.
 * Anything else is refused: a herd7 option scopecheck does not take, or
 * takes only with another value, gets "scopecheck CMD: error: herd7's
 * option -X is not supported: ADVICE"; an unknown option gets
 * "scopecheck CMD: error: unknown option '-X' (the nearest option is -Y;
 * scopecheck CMD --help lists them)".  Returns -1 to go on, 2 after such
 * an error.  *argc is updated when options were removed.
 *
 * herd_option_advice() returns the advice for a herd7 option that
 * scopecheck does not take (the argument as typed, with one or two
 * dashes and without "=VALUE"), or NULL when it is not one.
 */
#ifndef SCOPECHECK_CLI_HERD_ARGS_H
#define SCOPECHECK_CLI_HERD_ARGS_H

#include <getopt.h>
#include <stdio.h>

const char *herd_option_advice(const char *arg);

int herd_args_check(const char *cmd, int *argc, char **argv, const struct option *longopts,
                    const char *shortopts, const char **notes, FILE *err);

#endif
