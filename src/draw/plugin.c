/* draw/plugin.c: the table the program finds in scopecheck-draw.so (see
 * draw/plugin.h). */
#include "draw/plugin.h"

#include "base/version.h"
#include "draw/graph_msc.h"
#include "draw/state_graph.h"

/* The plugin's one exported definition of its own: not static, and named
 * by DRAW_PLUGIN_SYMBOL, which dlsym() looks up. */
extern const draw_plugin scopecheck_draw_plugin;

const draw_plugin scopecheck_draw_plugin = {
    .abi = DRAW_PLUGIN_ABI,
    .version = SCOPECHECK_VERSION,
    .renderer_new = exec_renderer_new,
    .renderer_free = exec_renderer_free,
    .draw_begin = exec_draw_begin,
    .draw_execution = exec_draw_execution,
    .draw_rejected = exec_draw_rejected,
    .draw_through = exec_draw_through,
    .draw_end = exec_draw_end,
    .draw_count = exec_draw_count,
    .state_graph = state_graph_draw,
    .msc = graph_msc,
    .report_page = draw_report_page,
    .litmus_report_page = draw_litmus_report_page,
};
