/*
 * report/report.h: how the result of checking one litmus test is printed.
 *
 * Folder src/report/: how litmus results are printed (herd7's block, JSON).
 * May include base/, litmus/, cat/, enumerate/.
 *
 * Contract: herd7's block (Test, States, Ok/No, Witnesses, Condition,
 * Observation, Time) or one JSON object per line.  Witnesses count as
 * herd7 does: Positive the executions that validate the condition (for
 * `~exists p` those where p fails), Negative the others; Observation and
 * JSON "positive"/"negative" count where the proposition p holds.  Printing never changes
 * the result; the verdict is decided here, from the condition's quantifier
 * and the positive/negative counts, exactly as herd7 decides it.
 */
#ifndef SCOPECHECK_REPORT_REPORT_H
#define SCOPECHECK_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/litmus.h"

/* True when the condition holds as herd7 means it ("Ok"). */
bool report_condition_ok(const litmus_test *t, const check_result *r);
/* NULL when every execution was checked whole; else why not, one word of
 * the JSON convention: enumerate_incomplete's words, or "loop-bound" when only
 * the loop bound cut some executions (herd7 then prefixes its verdict with
 * "Loop"; docs/exit-status.md). */
const char *report_incomplete(const check_result *r);
/* Whether the verdict stands although some executions were not checked
 * (report_incomplete, the loop bound included): an execution found
 * settles `exists` (Ok), `~exists` and `forall` (No), and a raised flag
 * settles Undef.  True when every execution was checked. */
bool report_established(const litmus_test *t, const check_result *r, const cat_model *m);
/* "Ok", "No", "Undef" when the model makes flagged programs undefined, or
 * "Unknown" when a limit other than the loop bound cut executions and what
 * was found does not settle the verdict.  Under the loop bound alone it is
 * the verdict within the bound (herd7's, which the block prints after
 * "Loop "); report_established says whether it stands beyond it. */
const char *report_verdict(const litmus_test *t, const check_result *r, const cat_model *m);
/* herd7's verdict line: report_verdict, prefixed "Loop " when the loop
 * bound cut some executions and the verdict is not Unknown (herd7 7.58
 * prints "Loop Ok" and "Loop No" so). */
void report_verdict_line(FILE *out, const litmus_test *t, const check_result *r, const cat_model *m);
/* herd7's Observation word: Always, Sometimes or Never from the counts of
 * executions where the proposition holds or not; "Unknown" when a limit
 * other than the loop bound cut executions and the counts found do not
 * settle it (only Sometimes, both kinds found, survives a cut).  Under the
 * loop bound alone, herd7's word within the bound. */
const char *report_observation(const check_result *r);

typedef struct report_info {
    const char *model;    /* model name as given */
    const cat_model *cat; /* the model itself: names of its flags */
    int unroll;
    bool races;           /* list racing pairs */
    double seconds;       /* time spent checking this test */
    /* Optional: a JSON object of every option of the run that changes a
     * result, printed as the member "options". */
    const char *options_json;
    /* Optional: lines another check adds to the herd block (before its
     * Time line) and members it adds to the JSON object (each starting
     * with a comma), from its own result `extra` (report/live.h). */
    void (*extra_herd)(FILE *out, const litmus_test *t, const void *extra);
    void (*extra_json)(FILE *out, const litmus_test *t, const void *extra);
    const void *extra;
    /* Optional: why that other check was cut (a word of the JSON
     * convention): the object then says "complete":false and, when the
     * enumeration itself was complete, "incomplete" with this word. */
    const char *extra_incomplete;
} report_info;

void report_herd(FILE *out, const litmus_test *t, check_result *r, const report_info *info);

/* One final state (values in t->observed order): herd's "0:r0=1; x=2;", or
 * a JSON object {"P0:r0":1,"x":2}. */
void report_state(FILE *out, const litmus_test *t, const lit_value *state);
void report_json_state(FILE *out, const litmus_test *t, const lit_value *state);
/* A JSON string literal, escaped. */
void report_json_string(FILE *out, const char *s);
void report_json(FILE *out, const litmus_test *t, check_result *r, const report_info *info);

/* The model flags raised ("Flag NAME" lines) and, with `races`, the pairs
 * each relation-valued flag relates ("Race NAME: P0 line 5 `...` and ...
 * on x"), as in herd's block; for other reports (verify) to share. */
void report_flags_text(FILE *out, const litmus_test *t, const check_result *r, const cat_model *m, bool races);
/* The same as JSON members: ,"flags":[...] and, with races, ,"races":[...]. */
void report_flags_json(FILE *out, const litmus_test *t, const check_result *r, const cat_model *m, bool races);

#endif
