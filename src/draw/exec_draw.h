/*
 * draw/exec_draw.h: executions drawn as herd7 draws them (`litmus -show
 * prop -o DIR`).
 *
 * Contract.  exec_draw_begin() prepares to draw the executions of one test
 * that `show` selects: "prop" those whose final state satisfies the
 * condition's proposition, "neg" those that do not, "all" every consistent
 * one; at most `nshow` of them (0: all).  exec_draw_execution() is an
 * enum_execution_fn (enumerate.h): each selected execution becomes one
 * `digraph` in DIR/TEST.dot (herd7 writes DIR/TEST.dot too) and one picture
 * DIR/TEST-K.svg rendered with libgvc.  A graph shows the events by thread
 * (and the initial writes), labelled as herd labels them ("a: W[x]=1"
 * with the instruction), po (immediate steps), rf (red), co (blue,
 * immediate steps) and fr (orange, to the immediate co successor); then
 * each relation the model's `show` statements name (brown, labelled with
 * the show's name, less the pairs implied through another event, as herd
 * draws them).  With `through` (herd's -through invalid), the executions
 * the model rejects are drawn as well (exec_draw_rejected), selected by
 * `show` in the same way; their label says "forbidden: NAME cyclic" (or
 * reflexive, not empty) for the first check they fail, whose relation is
 * drawn in crimson, labelled NAME: for `acyclic r` a shortest cycle of r
 * in bold and r's other pairs (less the implied ones) dashed; for
 * `irreflexive r` the events r relates to themselves; for `empty r` every
 * pair (a set: its events outlined).
 * exec_draw_end() writes DIR/TEST.dot; it returns false, with a message on
 * `err` naming how many pictures were written, when a file could not be
 * written.  Every file is written whole or not at all, and never in place
 * of a device or a FIFO (base/output_file.h): a picture is rendered into
 * memory first (graphviz writes no file, so a full disk cannot make it
 * exit the process), the DOT text is kept in memory until the end.  After
 * a failure nothing more of the test is drawn.
 *
 * With `dir` NULL nothing is written: each picture is kept in memory, as
 * SVG text, for a report page (exec_draw_pictures; draw/report_page.h),
 * and exec_draw_end writes no DOT file.
 *
 * An exec_renderer holds the one graphviz context of a run, made at the
 * first picture: every test drawn in the run (and process) uses it, since
 * graphviz keeps state that outlives a context and reads freed memory if
 * one context per test is made and freed.  exec_renderer_free() frees it,
 * once, at the end of the run.
 */
#ifndef SCOPECHECK_DRAW_EXEC_DRAW_H
#define SCOPECHECK_DRAW_EXEC_DRAW_H

#include <stdbool.h>
#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/litmus.h"

enum exec_show { SHOW_NONE, SHOW_PROP, SHOW_NEG, SHOW_ALL };

typedef struct exec_drawing exec_drawing;
typedef struct exec_renderer exec_renderer;

exec_renderer *exec_renderer_new(void);
void exec_renderer_free(exec_renderer *r);

exec_drawing *exec_draw_begin(exec_renderer *renderer, const char *dir, const litmus_test *t, const cat_model *m,
                              enum exec_show show, bool through, int nshow, FILE *err);
/* enum_options.on_execution and, when exec_draw_through(), on_rejected. */
void exec_draw_execution(void *drawing, const exec *x, const enum_event_info *events, int n,
                         const lit_value *state, bool holds, unsigned flags);
void exec_draw_rejected(void *drawing, const exec *x, const enum_event_info *events, int n,
                        const lit_value *state, bool holds, unsigned flags);
bool exec_draw_through(const exec_drawing *d);
/* How many executions were drawn. */
int exec_draw_count(const exec_drawing *d);

/* A picture kept in memory (dir NULL): the SVG, whether the model rejects
 * the execution (its label names the failed check, drawn in crimson) and
 * whether its final state satisfies the condition's proposition. */
typedef struct exec_picture {
    const char *svg;
    bool forbidden, holds;
} exec_picture;

/* The pictures kept (dir NULL), in the order drawn; their number. */
int exec_draw_pictures(const exec_drawing *d, const exec_picture **out);
bool exec_draw_end(exec_drawing *d);

#endif
