/*
 * cli/draw_load.h: the drawing plugin (draw/plugin.h), opened on demand.
 *
 * Contract.  draw_load opens scopecheck-draw.so where base/data_path.h's
 * data_path_plugin finds it (beside the program, or PREFIX/lib/scopecheck)
 * and returns its table; only the drawing commands call it (`graph`,
 * `litmus -show`), so no other command loads graphviz.  When the plugin is
 * missing, cannot be loaded (dlopen's reason: a missing library, a
 * function of the program it needs and does not find) or comes from
 * another build (its ABI or version differs from the program's), it
 * returns NULL after one line on `err`, "scopecheck CMD: error: cannot
 * draw: ...", naming the file or the places looked in; the caller exits
 * with status 2.  Opened with RTLD_NOW, so that every such failure shows
 * here rather than as a crash in the middle of a drawing; the plugin stays
 * loaded for the process's life.
 */
#ifndef SCOPECHECK_CLI_DRAW_LOAD_H
#define SCOPECHECK_CLI_DRAW_LOAD_H

#include <stdio.h>

#include "draw/plugin.h"

const draw_plugin *draw_load(const char *cmd, FILE *err);

#endif
