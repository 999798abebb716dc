/*
 * cli/verify_cmd.h: the `scopecheck verify` command.
 *
 * Contract: runs each litmus test on a protocol through the verification
 * library (verify/verify.h): protocol outcomes, model outcomes, soundness,
 * deadlocks, unhandled (state, event) pairs and invariant violations, each
 * violation with its shortest trace; herd-like text or one JSON object per
 * line.  Returns the exit status: 0 all checks passed, 1 a violation was
 * found, 2 unusable input or arguments, 3 some search incomplete.
 */
#ifndef SCOPECHECK_CLI_VERIFY_CMD_H
#define SCOPECHECK_CLI_VERIFY_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/file_list.h"
#include "draw/plugin.h"
#include "verify/verify.h"

int verify_cmd_main(int argc, char **argv, FILE *out, FILE *err);

/* Called once per test that was checked, after the test's report has been
 * written to verify_files' `out` (a test refused as unusable input is
 * reported only on `err`). */
typedef void (*verify_observer)(void *ctx, const verify_record *r);

/* One run of verify over files, for verify and for `scopecheck export`.
 * The caller fills settings, p (NULL when it could not be loaded: exit 2
 * after the model's own messages), json and the observer; verify_files
 * loads the model the settings name and the write-atomicity reference. */
typedef struct verify_run {
    verify_settings *settings;
    const protocol *p;
    bool json;
    const char *const *cat_dirs; /* -I: where models and their includes are also looked for */
    int ncat_dirs;
    verify_observer observe;     /* or NULL */
    void *observe_ctx;
    const char *report;          /* --report FILE.html (one test), or NULL */
    const draw_plugin *draw;     /* the drawing plugin, loaded with --report only */
    const cat_model *m;          /* set by verify_files */
    cat_workspace *ws;
} verify_run;

/* Checks every file of `args` (a directory: every *.litmus below it,
 * cli/file_list.h), each report on `out`; the worst status. */
int verify_files(verify_run *r, char **args, int nargs, FILE *out, FILE *err);

#endif
