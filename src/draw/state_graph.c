/* draw/state_graph.c: the reachable state graph through libcgraph/libgvc
 * (see draw/state_graph.h). */
#include "draw/state_graph.h"

#include <gc.h>
#include <graphviz/gvc.h>
#include <stdlib.h>
#include <string.h>

#include "base/output_file.h"
#include "verify/state_text.h"
#include "protocol/step.h"
#include "report/report.h"
#include "search/bfs.h"

#define MAX_TARGETS 16

/* One transition: stored states `from` -> `to` by `rule`. */
typedef struct gedge {
    uint32_t from, to;
    int rule;
    Agedge_t *e;
} gedge;

/* What the second pass over the stored states collects. */
typedef struct graph_data {
    const nsi_model *m;
    const state_store *st;
    uint32_t nstates;
    uint32_t from;            /* the state being expanded */
    gedge *edges;
    size_t nedges, cap;
    size_t *first;            /* edges of state i: first[i] .. first[i+1]-1 */
    size_t dropped;           /* successors not in the store (partial search) */
    bool oom;
    unsigned char *kind;      /* per state: K_* bits */
    Agnode_t **node;          /* NULL: not drawn */
    uint32_t nshown;
    bool neighbourhood;       /* only the highlighted paths' neighbourhood is drawn */
} graph_data;

enum { K_FINAL = 1, K_DEADLOCK = 2, K_UNSOUND = 4, K_SHOWN = 8, K_PATH = 16, K_CUT = 32 };

/* A state whose shortest path is highlighted, why, and in which colour. */
typedef struct target {
    uint32_t state;
    const char *why;
    const char *color;
    int rank;        /* which verify lists first: unsound 0, invariant 1, deadlock 2, a run 3 */
} target;

typedef struct graph_run {
    const graph_input *in;
    bfs_search *bfs;
    bfs_result res;
    graph_data g;
    target targets[MAX_TARGETS];
    int ntargets;
    int unsound, deadlocks;
    proto_state_field *initial;     /* the initial state's fields, for labels */
    int nfields;
} graph_run;

/* ---- edges -------------------------------------------------------------------- */
static void on_successor(void *cb_ctx, const uint8_t *next, int rule)
{
    graph_data *g = cb_ctx;
    uint32_t to;
    if (!ss_find(g->st, next, &to)) {
        g->dropped++;
        return;
    }
    if (g->nedges == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 1024;
        gedge *grown = realloc(g->edges, sizeof *grown * cap);
        if (!grown) {
            g->oom = true;
            return;
        }
        g->edges = grown;
        g->cap = cap;
    }
    g->edges[g->nedges++] = (gedge){g->from, to, rule, NULL};
}

/* Edges and state kinds; false when out of memory. */
static bool collect_edges(graph_data *g)
{
    g->first = malloc(sizeof *g->first * ((size_t)g->nstates + 1));
    g->kind = calloc(g->nstates ? g->nstates : 1, 1);
    g->node = calloc(g->nstates ? g->nstates : 1, sizeof *g->node);
    if (!g->first || !g->kind || !g->node)
        return false;
    for (uint32_t i = 0; i < g->nstates; i++) {
        const uint8_t *s = ss_state(g->st, i);
        g->first[i] = g->nedges;
        g->from = i;
        int emitted = g->m->successors(g->m->ctx, s, on_successor, g);
        if (g->oom)
            return false;
        bool final = g->m->is_final && g->m->is_final(g->m->ctx, s);
        if (final)
            g->kind[i] |= K_FINAL;
        else if (emitted == 0)
            g->kind[i] |= K_DEADLOCK;
    }
    g->first[g->nstates] = g->nedges;
    return true;
}

/* ---- text ---------------------------------------------------------------------- */
/* `s` made safe for a graphviz label (which reads backslash escapes);
 * newlines become `eol` ("\\n" centred, "\\l" left-justified). */
static char *label_text_eol(const char *s, const char *eol)
{
    size_t n = strlen(s);
    char *out = GC_MALLOC_ATOMIC(3 * n + 1), *q = out;
    for (; *s; s++) {
        if (*s == '\n') {
            memcpy(q, eol, 2);
            q += 2;
            continue;
        }
        if (*s == '\\')
            *q++ = '\\';
        *q++ = *s;
    }
    *q = '\0';
    return out;
}

static char *label_text(const char *s) { return label_text_eol(s, "\\n"); }

/* Text written by fn(ctx, FILE) as a GC string. */
static char *text_of(void (*fn)(void *, FILE *), void *ctx)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return GC_STRDUP("");
    fn(ctx, mem);
    fclose(mem);
    char *copy = GC_STRDUP(text ? text : "");
    free(text);
    return copy;
}

typedef struct step_ctx { const graph_run *r; const gedge *e; } step_ctx;

static void write_step(void *ctx, FILE *out)
{
    const step_ctx *c = ctx;
    const graph_data *g = &c->r->g;
    proto_step_desc d;
    proto_describe_step(c->r->in->inst, ss_state(g->st, c->e->from), c->e->rule, ss_state(g->st, c->e->to), &d);
    fputs(d.text, out);
    if (d.row_file)
        fprintf(out, "\n(row %s:%d)", d.row_file, d.row_line);
}

/* The edge label: the description up to its " -> " (what happened, not
 * every action's effect, which stays in the tooltip), at most
 * LABEL_MAX characters. */
#define LABEL_MAX 48
static char *short_label(const char *full)
{
    const char *arrow = strstr(full, " -> ");
    size_t n = arrow ? (size_t)(arrow - full) : strcspn(full, "\n");
    if (n <= LABEL_MAX)
        return GC_STRNDUP(full, n);
    char *out = GC_MALLOC_ATOMIC(LABEL_MAX + 4);
    memcpy(out, full, LABEL_MAX - 3);
    strcpy(out + LABEL_MAX - 3, "...");
    return out;
}

typedef struct outcome_ctx { const litmus_test *t; const lit_value *values; } outcome_ctx;

static void write_outcome(void *ctx, FILE *out)
{
    const outcome_ctx *c = ctx;
    report_state(out, c->t, c->values);
}

typedef struct fields_ctx { const proto_state_field *now, *before; int n; } fields_ctx;

static void write_fields(void *ctx, FILE *out)
{
    const fields_ctx *c = ctx;
    state_text_write(out, c->now, c->before, c->n, "");
}

static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, "");
}

/* ---- what to highlight and what to draw ---------------------------------------------- */
static void add_target(graph_run *r, uint32_t state, const char *why, const char *color, int rank)
{
    if (r->ntargets < MAX_TARGETS)
        r->targets[r->ntargets++] = (target){state, why, color, rank};
}

/* Final outcomes (unsound ones marked), deadlocks and the invariant
 * violation as targets; with none and a graph too large to draw whole,
 * the first final state (the shortest complete run).  A graph too large
 * to draw whole keeps only its first target, whose neighbourhood is
 * drawn: the shortest unsound outcome, else the violation, else the
 * first deadlock, as verify lists them. */
static void classify(graph_run *r)
{
    graph_data *g = &r->g;
    int width = r->in->t->nobserved;
    lit_value *values = GC_MALLOC_ATOMIC(sizeof *values * (size_t)(width ? width : 1));
    outcome_set *seen = outcome_set_new(width), *all = outcome_set_new(width);
    uint32_t first_final = 0;
    int nfirst = 0;
    for (uint32_t i = 0; i < g->nstates; i++) {
        if (g->kind[i] & K_FINAL) {
            proto_final_values(r->in->inst, ss_state(g->st, i), values);
            int before = outcome_count(all);
            if (outcome_add(all, values) >= before && nfirst++ == 0)
                first_final = i;
            if (verify_classify_outcome(r->in->verdict, values) == VERIFY_OUTCOME_UNSOUND) {
                g->kind[i] |= K_UNSOUND;
                before = outcome_count(seen);
                if (outcome_add(seen, values) >= before) {
                    r->unsound++;
                    add_target(r, i, "unsound outcome", "red", 0);
                }
            }
        }
        if ((g->kind[i] & K_DEADLOCK) && r->deadlocks++ < BFS_KEEP_DEADLOCKS)
            add_target(r, i, "deadlock", "red", 2);
    }
    if (r->res.stop == BFS_VIOLATION)
        add_target(r, r->res.violation_index, "invariant violation", "red", 1);
    if (g->nstates <= STATE_GRAPH_DRAW_ALL || r->in->full)
        return;
    if (r->ntargets == 0 && nfirst)
        add_target(r, first_final, "shortest complete run", "blue", 3);
    for (int i = 1; i < r->ntargets; i++)
        if (r->targets[i].rank < r->targets[0].rank)
            r->targets[0] = r->targets[i];
    r->ntargets = r->ntargets ? 1 : 0;
}

/* Marks the states on the shortest path to `index` K_PATH. */
static bool mark_path(graph_data *g, const bfs_search *s, uint32_t index)
{
    size_t len = 0;
    bfs_step *steps = bfs_trace(s, index, &len);
    if (!steps)
        return false;
    for (size_t k = 0; k < len; k++)
        g->kind[steps[k].state] |= K_PATH;
    free(steps);
    return true;
}

/* Every state, or the highlighted paths and one transition around them
 * (successors and predecessors); drawn states with neighbours left out
 * are K_CUT. */
static bool select_shown(graph_run *r)
{
    graph_data *g = &r->g;
    bool all = g->nstates <= STATE_GRAPH_DRAW_ALL || r->in->full;
    g->kind[0] |= K_PATH;
    for (int i = 0; i < r->ntargets; i++)
        if (!mark_path(g, r->bfs, r->targets[i].state))
            return false;
    for (uint32_t i = 0; i < g->nstates; i++)
        if (all || (g->kind[i] & K_PATH))
            g->kind[i] |= K_SHOWN;
    g->neighbourhood = !all;
    for (size_t e = 0; e < g->nedges && !all; e++) {
        const gedge *ge = &g->edges[e];
        if (g->kind[ge->from] & K_PATH)
            g->kind[ge->to] |= K_SHOWN;
        if (g->kind[ge->to] & K_PATH)
            g->kind[ge->from] |= K_SHOWN;
    }
    g->nshown = 0;
    for (uint32_t i = 0; i < g->nstates; i++)
        g->nshown += (g->kind[i] & K_SHOWN) != 0;
    for (size_t e = 0; e < g->nedges; e++) {
        const gedge *ge = &g->edges[e];
        if ((g->kind[ge->from] ^ g->kind[ge->to]) & K_SHOWN)
            g->kind[(g->kind[ge->from] & K_SHOWN) ? ge->from : ge->to] |= K_CUT;
    }
    return true;
}

/* ---- nodes and edges -------------------------------------------------------------- */
/* The label: the state's number, in small graphs its fields that differ
 * from the initial state, a final state's outcome; the tooltip: every
 * field. */
static void node_text(graph_run *r, Agnode_t *n, uint32_t i, proto_state_field *fields)
{
    graph_data *g = &r->g;
    const uint8_t *s = ss_state(g->st, i);
    proto_state_fields(r->in->inst, s, fields);
    fields_ctx all = {fields, NULL, r->nfields};
    char *state = text_of(write_fields, &all);
    char head[64];
    snprintf(head, sizeof head, "state %u\n", i);
    char *tip = GC_MALLOC_ATOMIC(strlen(head) + strlen(state) + 1);
    sprintf(tip, "%s%s", head, state);
    set(n, "tooltip", label_text_eol(tip, "\\l"));
    char *label = GC_MALLOC_ATOMIC(32);
    snprintf(label, 32, "%u", i);
    if (g->nstates <= STATE_GRAPH_LABEL_MAX) {
        fields_ctx diff = {fields, r->initial, r->nfields};
        char *changed = i == 0 ? "initial state\n" : text_of(write_fields, &diff);
        char *full = GC_MALLOC_ATOMIC(strlen(label) + strlen(changed) + 2);
        sprintf(full, "%s\n%s", label, changed);
        label = label_text_eol(full, "\\l");
    }
    if (g->kind[i] & K_FINAL) {
        int width = r->in->t->nobserved;
        lit_value *values = GC_MALLOC_ATOMIC(sizeof *values * (size_t)(width ? width : 1));
        proto_final_values(r->in->inst, s, values);
        outcome_ctx oc = {r->in->t, values};
        char *outcome = label_text(text_of(write_outcome, &oc));
        char *text = GC_MALLOC_ATOMIC(strlen(label) + strlen(outcome) + 3);
        sprintf(text, "%s%s%s", label, g->nstates <= STATE_GRAPH_LABEL_MAX ? "" : "\\n", outcome);
        label = text;
    }
    set(n, "label", label);
}

static void build_nodes(graph_run *r, Agraph_t *graph)
{
    graph_data *g = &r->g;
    proto_state_field *fields = GC_MALLOC(sizeof *fields * (size_t)(r->nfields ? r->nfields : 1));
    char name[32];
    for (uint32_t i = 0; i < g->nstates; i++) {
        if (!(g->kind[i] & K_SHOWN))
            continue;
        snprintf(name, sizeof name, "s%u", i);
        Agnode_t *n = agnode(graph, name, 1);
        g->node[i] = n;
        node_text(r, n, i, fields);
        if (g->nstates <= STATE_GRAPH_LABEL_MAX)
            set(n, "shape", "box");
        if (g->kind[i] & K_FINAL)
            set(n, "shape", g->nstates <= STATE_GRAPH_LABEL_MAX ? "box" : "doublecircle");
        if (g->kind[i] & K_FINAL && g->nstates <= STATE_GRAPH_LABEL_MAX)
            set(n, "peripheries", "2");
        if (g->kind[i] & K_UNSOUND) {
            set(n, "fontcolor", "red");
            set(n, "style", "filled");
            set(n, "fillcolor", "mistyrose");
        }
        if (g->kind[i] & K_DEADLOCK) {
            set(n, "color", "red");
            set(n, "fontcolor", "red");
            set(n, "shape", "octagon");
        }
        if (g->kind[i] & K_CUT)
            set(n, "style", (g->kind[i] & K_UNSOUND) ? "filled,dashed" : "dashed");
        if (i == 0)
            set(n, "style", (g->kind[i] & K_UNSOUND) ? "filled,bold" : "bold");
    }
    if (r->res.stop == BFS_VIOLATION && g->node[r->res.violation_index])
        set(g->node[r->res.violation_index], "fontcolor", "red");
}

static void build_edges(graph_run *r, Agraph_t *graph)
{
    graph_data *g = &r->g;
    for (size_t e = 0; e < g->nedges; e++) {
        gedge *ge = &g->edges[e];
        if (!g->node[ge->from] || !g->node[ge->to])
            continue;
        ge->e = agedge(graph, g->node[ge->from], g->node[ge->to], NULL, 1);
        step_ctx sc = {r, ge};
        char *full = text_of(write_step, &sc);
        set(ge->e, "tooltip", label_text(full));
        set(ge->e, "label", label_text(short_label(full)));
    }
}

/* Colours the transitions of the shortest path to `index`. */
static bool highlight_path(graph_data *g, const bfs_search *s, uint32_t index, const char *color)
{
    size_t len = 0;
    bfs_step *steps = bfs_trace(s, index, &len);
    if (!steps)
        return false;
    for (size_t k = 0; k < len; k++) {
        uint32_t to = steps[k].state;
        set(g->node[to], "color", color);
        set(g->node[to], "penwidth", "3");
        if (k == 0)
            continue;
        uint32_t from = steps[k - 1].state;
        for (size_t e = g->first[from]; e < g->first[from + 1]; e++)
            if (g->edges[e].to == to && g->edges[e].rule == steps[k].rule && g->edges[e].e) {
                set(g->edges[e].e, "color", color);
                set(g->edges[e].e, "fontcolor", color);
                set(g->edges[e].e, "penwidth", "3");
                break;
            }
    }
    free(steps);
    return true;
}

static void write_title(void *ctx, FILE *mem)
{
    const graph_run *r = ctx;
    fprintf(mem, "%s on %s: %u states, %zu transitions", r->in->t->name, protocol_name(r->in->p), r->g.nstates,
            r->g.nedges);
    if (r->unsound)
        fprintf(mem, "; %d unsound outcome%s (model %s)", r->unsound, r->unsound > 1 ? "s" : "", r->in->model_name);
    if (r->deadlocks)
        fprintf(mem, "; %d deadlock%s", r->deadlocks, r->deadlocks > 1 ? "s" : "");
    if (r->res.stop == BFS_VIOLATION)
        fprintf(mem, "; invariant %s violated (search stopped there)", r->res.violated);
    if (r->ntargets)
        fprintf(mem, "; shortest %s in %s", r->targets[0].color[0] == 'r' ? "path" : "complete run",
                r->targets[0].color);
    if (r->g.neighbourhood)
        fprintf(mem, "\ndrawn: %u of %u states, the highlighted path and one transition around it "
                     "(dashed: more states beyond; --full draws every state)", r->g.nshown, r->g.nstates);
}

static void summary(const graph_run *r, FILE *out)
{
    const graph_data *g = &r->g;
    fprintf(out, "Graph %s protocol %s: %u states, %zu transitions, %d unsound outcome%s, %d deadlock%s",
            r->in->t->name, protocol_name(r->in->p), g->nstates, g->nedges, r->unsound, r->unsound == 1 ? "" : "s",
            r->deadlocks, r->deadlocks == 1 ? "" : "s");
    for (int i = 0; i < r->ntargets; i++)
        fprintf(out, "%s%s at state %u", i ? ", " : "; highlighted: ", r->targets[i].why, r->targets[i].state);
    if (g->neighbourhood)
        fprintf(out, "; drawn: %u of %u states (the highlighted path's neighbourhood; --full draws all)", g->nshown,
                g->nstates);
    fprintf(out, "\nWrote %s\n", r->in->output);
}

/* Renders the laid-out graph into memory (graphviz writing a file
 * itself calls exit() when the disk is full), then writes it whole. */
static int render(GVC_t *gvc, Agraph_t *graph, const char *format, const char *path, FILE *err)
{
    char *data = NULL;
    unsigned int len = 0;
    if (gvRenderData(gvc, graph, format, &data, &len) != 0 || !data) {
        fprintf(err, "scopecheck graph: error: graphviz could not render %s\n", format);
        return 2;
    }
    int status = output_write_data("graph", path, data, len, err);
    gvFreeRenderData(data);
    return status;
}

/* Builds and renders the graph; 0 or 2. */
static int draw(graph_run *r, FILE *out, FILE *err)
{
    graph_data *g = &r->g;
    GVC_t *gvc = gvContext();
    if (!gvc) {
        fputs("scopecheck graph: error: graphviz could not start\n", err);
        return 2;
    }
    Agraph_t *graph = agopen((char *)"scopecheck", Agdirected, NULL);
    agattr(graph, AGNODE, (char *)"shape", (char *)"circle");
    agattr(graph, AGNODE, (char *)"fontsize", (char *)"10");
    agattr(graph, AGEDGE, (char *)"fontsize", (char *)"8");
    r->nfields = proto_state_nfields(r->in->inst);
    r->initial = GC_MALLOC(sizeof *r->initial * (size_t)(r->nfields ? r->nfields : 1));
    proto_state_fields(r->in->inst, ss_state(g->st, 0), r->initial);
    bool ok = select_shown(r);
    if (ok) {
        build_nodes(r, graph);
        build_edges(r, graph);
    }
    for (int i = 0; i < r->ntargets && ok; i++)
        ok = highlight_path(g, r->bfs, r->targets[i].state, r->targets[i].color);
    set(graph, "label", label_text(text_of(write_title, r)));
    set(graph, "labelloc", "t");
    int status = 2;
    if (!ok) {
        fputs("scopecheck graph: error: out of memory\n", err);
    } else if (gvLayout(gvc, graph, "dot") != 0) {
        fputs("scopecheck graph: error: graphviz could not lay the graph out\n", err);
    } else {
        status = render(gvc, graph, r->in->format, r->in->output, err);
        gvFreeLayout(gvc, graph);
    }
    agclose(graph);
    gvFreeContext(gvc);
    if (status == 0)
        summary(r, out);
    return status;
}

int state_graph_draw(const graph_input *in, FILE *out, FILE *err)
{
    graph_run r;
    memset(&r, 0, sizeof r);
    r.in = in;
    const nsi_model *nm = proto_nsi(in->inst);
    /* one state past the limit tells "more than" from "exactly"; the
     * limit itself may be 2^64 - 1 (--max-states takes any size) */
    bfs_options bo = {.max_states = in->max_states < UINT64_MAX ? in->max_states + 1 : in->max_states};
    r.bfs = bfs_run(nm, &bo, &r.res);
    if (!r.bfs) {
        fprintf(err, "scopecheck graph: error: out of memory before the search of %s could start\n",
                in->litmus_path);
        return 2;
    }
    int status = 2;
    if (r.res.stop == BFS_MAX_STATES || r.res.states > in->max_states) {
        fprintf(err,
                "scopecheck graph: error: %s on %s has more than %llu states, too many to search "
                "(raise --max-states, or use a smaller test or configuration)\n",
                in->litmus_path, protocol_name(in->p), (unsigned long long)in->max_states);
    } else if (r.res.stop != BFS_EXHAUSTED && r.res.stop != BFS_VIOLATION) {
        fprintf(err, "scopecheck graph: error: the search stopped early (%s)\n", bfs_stop_name(r.res.stop));
    } else {
        r.g.m = nm;
        r.g.st = bfs_store(r.bfs);
        r.g.nstates = ss_count(r.g.st);
        if (!collect_edges(&r.g)) {
            fputs("scopecheck graph: error: out of memory\n", err);
        } else {
            classify(&r);
            status = draw(&r, out, err);
        }
    }
    free(r.g.edges);
    free(r.g.first);
    free(r.g.kind);
    free(r.g.node);
    bfs_free(r.bfs);
    return status;
}
