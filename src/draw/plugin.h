/*
 * draw/plugin.h: the drawings as a plugin, the one boundary between
 * bin/scopecheck and graphviz.
 *
 * Contract.  Everything in src/draw/ is built into a shared object,
 * scopecheck-draw.so (beside the program in the build tree, in
 * PREFIX/lib/scopecheck/ once installed: base/data_path.h's
 * data_path_plugin), linked with graphviz (libgvc, libcgraph, libcdt);
 * the program is not, so that the commands that draw nothing (all but
 * `graph`, `litmus -show` and `--report`) neither load nor initialise graphviz's eight
 * libraries.  The plugin defines one symbol, DRAW_PLUGIN_SYMBOL, a
 * draw_plugin whose members are the functions of draw/exec_draw.h,
 * draw/state_graph.h, draw/graph_msc.h and draw/report_page.h, with those
 * headers' contracts;
 * the program calls the drawings through this table only
 * (cli/draw_load.h opens the plugin on demand).
 *
 * What the plugin calls of the program's own code (the verification
 * library, the protocol interpreter, the search, base/output_file.h...)
 * it takes from the program that loaded it: the program exports exactly
 * the functions the plugin's objects leave undefined (the Makefile's
 * dynamic list), so there is one copy of each and of its state (the
 * output file being written, for the signal handlers).  A plugin and a
 * program from different builds are refused: `abi` must be
 * DRAW_PLUGIN_ABI and `version` SCOPECHECK_VERSION of the program, and a
 * function the plugin needs and the program lacks fails the load.
 * Raise DRAW_PLUGIN_ABI whenever this table or a type it passes changes.
 */
#ifndef SCOPECHECK_DRAW_PLUGIN_H
#define SCOPECHECK_DRAW_PLUGIN_H

#include <stdbool.h>
#include <stdio.h>

#include "draw/exec_draw.h"
#include "draw/graph_input.h"
#include "draw/report_page.h"

#define DRAW_PLUGIN_ABI 2
#define DRAW_PLUGIN_FILE "scopecheck-draw.so"
#define DRAW_PLUGIN_SYMBOL "scopecheck_draw_plugin"

typedef struct draw_plugin {
    int abi;             /* DRAW_PLUGIN_ABI of the plugin's build */
    const char *version; /* SCOPECHECK_VERSION of the plugin's build */
    /* `litmus -show`: draw/exec_draw.h */
    exec_renderer *(*renderer_new)(void);
    void (*renderer_free)(exec_renderer *r);
    exec_drawing *(*draw_begin)(exec_renderer *renderer, const char *dir, const litmus_test *t,
                                const cat_model *m, enum exec_show show, bool through, int nshow, FILE *err);
    void (*draw_execution)(void *drawing, const exec *x, const enum_event_info *events, int n,
                           const lit_value *state, bool holds, unsigned flags);
    void (*draw_rejected)(void *drawing, const exec *x, const enum_event_info *events, int n,
                          const lit_value *state, bool holds, unsigned flags);
    bool (*draw_through)(const exec_drawing *d);
    bool (*draw_end)(exec_drawing *d);
    int (*draw_count)(const exec_drawing *d);
    /* `graph`: draw/state_graph.h and `graph --msc`: draw/graph_msc.h */
    int (*state_graph)(const graph_input *g, FILE *out, FILE *err);
    int (*msc)(const graph_input *g, FILE *out, FILE *err);
    /* `verify --report` and `litmus --report`: draw/report_page.h */
    int (*report_page)(const report_page_input *in, const char *path, FILE *err);
    int (*litmus_report_page)(const litmus_page_input *in, const char *path, FILE *err);
} draw_plugin;

#endif
