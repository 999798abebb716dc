/*
 * draw/report_page.h: `verify --report FILE.html`, one self-contained page
 * to step through the counterexamples of a check (docs/counterexamples.md).
 *
 * Contract.  draw_report_page writes one HTML file, whole or not at all
 * (base/output_file.h), that needs nothing else: no network, no external
 * script, style sheet or font.  It holds the verdict (the text report
 * as printed on standard output, folded), one entry per violation that has a
 * trace (each unsound outcome, the invariant violation, each deadlock kept,
 * each unhandled event, each non-progress cycle of --liveness; in the text
 * report's order), and for each its shortest trace (a cycle: the stem to
 * its entry, then the cycle, "cycle_from" saying where it begins) as:
 *  - the message-sequence chart as inline SVG (draw/msc_draw.h's
 *    msc_svgs_marked: the elements of step K carry the class "sK");
 *  - a JSON blob (<script type="application/json" id="report-data">,
 *    every "/" escaped so that no "</script>" can occur in it) with, per
 *    step, its text (the line `verify --trace full` prints after "K: "),
 *    the row that fired ("file:line") and that line of the file, the
 *    step's record (protocol/step.h's proto_step_record), the state fields
 *    it changed (all of them at step 0), and the state's successors in
 *    the searched model (their text, whether the trace takes it, whether
 *    it is a deadlock; REPORT_PAGE_MAX_SUCCESSORS at most); per trace the
 *    reasons its last state is stuck, for a deadlock;
 *  - a small script (written here, plain JavaScript) that renders step K
 *    of violation V from that blob: the chart with step K highlighted and
 *    scrolled to, the whole state with the changed fields highlighted, the
 *    messages in flight per channel, the row and its record, the state's
 *    neighbourhood, and "why stuck" at a deadlock's last step; keys left
 *    and right step, home and end go to either end; a search box finds the
 *    steps of the trace whose state has a field matching "FIELD=VALUE" or
 *    a text.  The page honours a URL fragment "#v=V&step=K" (both
 *    optional, from 0) on load and on change, and keeps it current.
 *
 * Returns 0 when the file was written; 1 (nothing written, a line on
 * `err`) when the check found no violation with a trace to show; 2 (a
 * message on `err`, nothing written) when the file could not be written.
 * The caller keeps the check's own exit status either way.  `v` must be a
 * finished check (v->searched) whose search is not released.
 */
#ifndef SCOPECHECK_DRAW_REPORT_PAGE_H
#define SCOPECHECK_DRAW_REPORT_PAGE_H

#include <stdio.h>

#include "draw/exec_draw.h"
#include "verify/verify.h"

#define REPORT_PAGE_MAX_SUCCESSORS 24

typedef struct report_page_input {
    const verify_result *v;     /* the finished check */
    const char *litmus_path;    /* the test's file, as named on the command line */
    const char *cmd;            /* the command, for messages ("verify") */
} report_page_input;

int draw_report_page(const report_page_input *in, const char *path, FILE *err);

/* `litmus --report FILE.html`: the page of one test's executions, drawn
 * as `-show` draws them (draw/exec_draw.h, kept in memory: dir NULL):
 * the herd block (`text`), then one picture at a time, the executions
 * the model rejects labelled with the check they fail and its relation
 * drawn in crimson; a button per execution, keys left and right, home and
 * end, and the URL fragment "#exec=K" (from 0).  `more` says that
 * executions beyond the drawn ones were left out.  Returns as
 * draw_report_page does: 1 when no execution was drawn. */
typedef struct litmus_page_input {
    const litmus_test *t;
    const char *litmus_path, *model_name;
    const char *text;            /* the herd block of the test */
    const exec_drawing *drawing;
    bool more;
} litmus_page_input;

int draw_litmus_report_page(const litmus_page_input *in, const char *path, FILE *err);

#endif
