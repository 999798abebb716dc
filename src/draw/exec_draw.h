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
 * exec_draw_end() closes the files; it returns false, with a message on
 * `err`, when a file could not be written, and removes what it left
 * half-written.  Files are written through temporaries and renamed.
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

/* "prop", "neg", "all", "none" (herd's -show words; "cond" and "wit" are
 * herd's names for prop); false for any other word. */
bool exec_show_parse(const char *word, enum exec_show *out);
/* herd's -through words: "invalid" and "all" (true: draw rejected
 * executions too), "none" (false); false for any other word. */
bool exec_through_parse(const char *word, bool *out);

exec_drawing *exec_draw_begin(const char *dir, const litmus_test *t, const cat_model *m, enum exec_show show,
                              bool through, int nshow, FILE *err);
/* enum_options.on_execution and, when exec_draw_through(), on_rejected. */
void exec_draw_execution(void *drawing, const exec *x, const enum_event_info *events, int n,
                         const lit_value *state, bool holds, unsigned flags);
void exec_draw_rejected(void *drawing, const exec *x, const enum_event_info *events, int n,
                        const lit_value *state, bool holds, unsigned flags);
bool exec_draw_through(const exec_drawing *d);
/* How many executions were drawn. */
int exec_draw_count(const exec_drawing *d);
bool exec_draw_end(exec_drawing *d);

#endif
