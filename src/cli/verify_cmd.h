/*
 * cli/verify_cmd.h: the `scopecheck verify` command.
 *
 * Contract: runs each litmus test on a protocol (protocol tables through
 * the next-state interface, explored breadth first), collects the final
 * outcomes, and compares them with the outcomes the memory model allows.
 * Reports per test: protocol outcomes, model outcomes, soundness, deadlocks,
 * unhandled (state, event) pairs and invariant violations, each violation
 * with its shortest trace; herd-like text or one JSON object per line.
 * Returns the exit status: 0 all checks passed, 1 a violation was found,
 * 2 unusable input or arguments.
 */
#ifndef SCOPECHECK_CLI_VERIFY_CMD_H
#define SCOPECHECK_CLI_VERIFY_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "litmus/litmus.h"
#include "protocol/protocol.h"

int verify_cmd_main(int argc, char **argv, FILE *out, FILE *err);

/* What verify established for one test, for a caller that needs more than
 * the printed report (`scopecheck export` stamps its tables with it).
 * `checks` names each property verify checked on the test and whether it
 * held; a new kind of check (liveness, ...) adds an entry, so a consumer
 * lists whatever was checked without knowing the kinds in advance.  The
 * pointers live as long as the GC keeps them (they are GC memory). */
#define VERIFY_MAX_CHECKS 8
typedef struct verify_check_result {
    const char *name;       /* "outcomes", "deadlock", "unhandled", "invariants", ... */
    bool passed;
} verify_check_result;

typedef struct verify_record {
    const litmus_test *test;
    const proto_instance *inst;
    const char *model;
    int status;             /* this test's exit status: 0 pass, 1 violation, 3 incomplete */
    bool complete;          /* the search explored every reachable state */
    uint64_t states, transitions;
    int nchecks;
    verify_check_result checks[VERIFY_MAX_CHECKS];
} verify_record;

typedef void (*verify_observer)(void *ctx, const verify_record *r);

/* verify_cmd_main with an observer called once per test that was checked
 * (a test refused as unusable input is reported only on `err`). */
int verify_cmd_run(int argc, char **argv, FILE *out, FILE *err, verify_observer observe, void *ctx);

#endif
