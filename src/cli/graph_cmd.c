/* cli/graph_cmd.c: `scopecheck graph` (see cli/graph_cmd.h). */
#include "cli/graph_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <graphviz/gvc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/size.h"
#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"
#include "cli/model_path.h"
#include "litmus/outcome.h"
#include "protocol/html.h"
#include "protocol/options.h"
#include "protocol/protocol.h"
#include "report/report.h"
#include "search/bfs.h"

#define DEFAULT_MAX_STATES 2000
#define MAX_TARGETS 16

typedef struct graph_opts {
    const char *protocol, *model, *output, *litmus, *format;
    bool tables;
    uint64_t max_states;
    proto_options proto;
} graph_opts;

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
    Agnode_t **node;
} graph_data;

enum { K_FINAL = 1, K_DEADLOCK = 2, K_UNSOUND = 4, K_TARGET = 8, K_VIOLATION = 16 };

/* A state whose shortest path is highlighted, and why. */
typedef struct target {
    uint32_t state;
    const char *why;
} target;

static void usage(FILE *to)
{
    fputs("usage: scopecheck graph --protocol NAME|FILE.proto [--model NAME|FILE.cat] [--max-states N]\n"
          "                        [--const NAME=VALUE] [--net fifo|unordered] LITMUS -o OUT.{dot,svg,png}\n"
          "       scopecheck graph --protocol NAME|FILE.proto --tables -o OUT.html\n"
          "  --protocol P     protocol tables (models/P.proto), e.g. gpu_vi\n"
          "  --model M        memory model that decides which outcomes are unsound (default ptx6)\n"
          "  --max-states N   refuse graphs with more than N states (default 2000)\n"
          "  --const N=V      override a configuration constant of the protocol\n"
          "  --net            make every channel of the protocol fifo or unordered\n"
          "  --tables         write each controller's transition table as HTML instead\n"
          "  -o, --output F   the file to write; its extension names the format\n",
          to);
}

static int option_error(FILE *err, const char *what, const char *value)
{
    fprintf(err, "scopecheck graph: error: %s '%s'\n", what, value);
    return 2;
}

/* The format named by the output's extension, or NULL. */
static const char *output_format(const char *path, bool tables)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot || dot[1] == '\0')
        return NULL;
    const char *ext = dot + 1;
    if (tables)
        return strcmp(ext, "html") == 0 || strcmp(ext, "htm") == 0 ? "html" : NULL;
    if (strcmp(ext, "dot") == 0 || strcmp(ext, "gv") == 0)
        return "dot";
    if (strcmp(ext, "svg") == 0)
        return "svg";
    if (strcmp(ext, "png") == 0)
        return "png";
    return NULL;
}

static int parse_one(int ch, graph_opts *o, FILE *err)
{
    switch (ch) {
    case 'p': o->protocol = optarg; return -1;
    case 'm': o->model = optarg; return -1;
    case 'o': o->output = optarg; return -1;
    case 'T': o->tables = true; return -1;
    case 's': {
        uint64_t n;
        if (!size_parse(optarg, &n) || n == 0)
            return option_error(err, "--max-states takes a positive number below 2^64 (suffix K, M, G allowed), not", optarg);
        o->max_states = n;
        return -1;
    }
    case 'n':
        if (!proto_options_net(&o->proto, optarg))
            return option_error(err, "--net takes fifo or unordered, not", optarg);
        return -1;
    case 'c':
        if (!proto_options_const(&o->proto, optarg))
            return option_error(err, "--const takes NAME=NUMBER (at most 9 digits), not", optarg);
        return -1;
    default:
        fputs("scopecheck graph: error: unknown or incomplete option\n", err);
        usage(err);
        return 2;
    }
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, graph_opts *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"protocol", required_argument, NULL, 'p'}, {"model", required_argument, NULL, 'm'},
        {"output", required_argument, NULL, 'o'},   {"max-states", required_argument, NULL, 's'},
        {"net", required_argument, NULL, 'n'},      {"const", required_argument, NULL, 'c'},
        {"tables", no_argument, NULL, 'T'},         {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->model = "ptx6";
    o->max_states = DEFAULT_MAX_STATES;
    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "p:m:o:h", longopts, NULL)) != -1) {
        if (ch == 'h') {
            usage(out);
            return 0;
        }
        int status = parse_one(ch, o, err);
        if (status >= 0)
            return status;
    }
    if (!o->protocol) {
        fputs("scopecheck graph: error: --protocol is required\n", err);
        return 2;
    }
    if (!o->output) {
        fputs("scopecheck graph: error: -o OUT is required\n", err);
        return 2;
    }
    int want = o->tables ? 0 : 1;
    if (argc - optind != want) {
        fputs(o->tables ? "scopecheck graph: error: --tables takes no litmus file\n"
                        : "scopecheck graph: error: give exactly one litmus file\n",
              err);
        return 2;
    }
    if (!o->tables)
        o->litmus = argv[optind];
    o->format = output_format(o->output, o->tables);
    if (!o->format) {
        fprintf(err, "scopecheck graph: error: cannot tell the format of '%s': use %s\n", o->output,
                o->tables ? ".html" : ".dot, .svg or .png");
        return 2;
    }
    return -1;
}

/* ---- writing through a temporary file ------------------------------------ */

typedef bool (*write_fn)(void *ctx, const char *tmp_path, FILE *err);

/* Calls fn on a fresh temporary file beside `path`, then renames it to
 * `path`; on any failure the temporary file is removed.  0 or 2. */
static int write_atomically(const char *path, write_fn fn, void *ctx, FILE *err)
{
    size_t n = strlen(path) + 16;
    char *tmp = GC_MALLOC_ATOMIC(n);
    snprintf(tmp, n, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(err, "scopecheck graph: error: cannot write '%s': %s\n", path, strerror(errno));
        return 2;
    }
    fchmod(fd, 0644);
    close(fd);
    if (!fn(ctx, tmp, err)) {
        unlink(tmp);
        return 2;
    }
    if (rename(tmp, path) != 0) {
        fprintf(err, "scopecheck graph: error: cannot write '%s': %s\n", path, strerror(errno));
        unlink(tmp);
        return 2;
    }
    return 0;
}

/* ---- tables -------------------------------------------------------------- */

static bool write_html(void *ctx, const char *tmp, FILE *err)
{
    const protocol *p = ctx;
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(err, "scopecheck graph: error: cannot write '%s': %s\n", tmp, strerror(errno));
        return false;
    }
    bool ok = proto_html_write(p, f, err);
    if (fclose(f) != 0 || !ok) {
        if (ok)
            fprintf(err, "scopecheck graph: error: cannot write '%s'\n", tmp);
        return false;
    }
    return true;
}

/* ---- the state graph -------------------------------------------------------- */

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
    if (!g->first || !g->kind)
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

/* One line of the model's describe, without its newline; GC string. */
static char *describe_rule(const nsi_model *m, const state_store *st, const gedge *e)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return GC_STRDUP("?");
    if (m->describe)
        m->describe(m->ctx, ss_state(st, e->from), e->rule, ss_state(st, e->to), mem);
    else
        fprintf(mem, "rule %d", e->rule);
    fclose(mem);
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
        text[--len] = '\0';
    char *nl = strchr(text, '\n');
    if (nl)
        *nl = '\0';
    char *copy = GC_STRDUP(text);
    free(text);
    return copy;
}

/* `s` made safe for a graphviz label (which reads backslash escapes). */
static char *label_text(const char *s)
{
    size_t n = strlen(s);
    char *out = GC_MALLOC_ATOMIC(2 * n + 1), *q = out;
    for (; *s; s++) {
        if (*s == '\\')
            *q++ = '\\';
        *q++ = *s;
    }
    *q = '\0';
    return out;
}

/* The edge label: the description up to its " -> " (what happened, not
 * every action's effect, which stays in the tooltip), at most
 * LABEL_MAX characters. */
#define LABEL_MAX 48
static char *short_label(const char *full)
{
    const char *arrow = strstr(full, " -> ");
    size_t n = arrow ? (size_t)(arrow - full) : strlen(full);
    if (n <= LABEL_MAX)
        return GC_STRNDUP(full, n);
    char *out = GC_MALLOC_ATOMIC(LABEL_MAX + 4);
    memcpy(out, full, LABEL_MAX - 3);
    strcpy(out + LABEL_MAX - 3, "...");
    return out;
}

static char *outcome_text(const litmus_test *t, const lit_value *values)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return GC_STRDUP("");
    report_state(mem, t, values);
    fclose(mem);
    char *copy = label_text(text);
    free(text);
    return copy;
}

static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, "");
}

/* Marks the transitions of the shortest path to `index` red. */
static bool highlight_path(graph_data *g, const bfs_search *s, uint32_t index)
{
    size_t len = 0;
    bfs_step *steps = bfs_trace(s, index, &len);
    if (!steps)
        return false;
    for (size_t k = 0; k < len; k++) {
        uint32_t to = steps[k].state;
        Agnode_t *n = g->node[to];
        set(n, "color", "red");
        set(n, "penwidth", "3");
        if (k == 0)
            continue;
        uint32_t from = steps[k - 1].state;
        for (size_t e = g->first[from]; e < g->first[from + 1]; e++)
            if (g->edges[e].to == to && g->edges[e].rule == steps[k].rule) {
                set(g->edges[e].e, "color", "red");
                set(g->edges[e].e, "fontcolor", "red");
                set(g->edges[e].e, "penwidth", "3");
                break;
            }
    }
    free(steps);
    return true;
}

typedef struct render_job {
    GVC_t *gvc;
    Agraph_t *graph;
    const char *format;
} render_job;

static bool render(void *ctx, const char *tmp, FILE *err)
{
    render_job *job = ctx;
    if (gvRenderFilename(job->gvc, job->graph, job->format, tmp) != 0) {
        fprintf(err, "scopecheck graph: error: graphviz could not render %s to '%s'\n", job->format, tmp);
        return false;
    }
    return true;
}

typedef struct graph_run {
    const graph_opts *o;
    const litmus_test *t;
    proto_instance *inst;
    const protocol *p;
    outcome_set *model_outcomes;
    bfs_search *bfs;
    bfs_result res;
    graph_data g;
    target targets[MAX_TARGETS];
    int ntargets;
    int unsound, deadlocks;
} graph_run;

static void add_target(graph_run *r, uint32_t state, const char *why)
{
    if (r->ntargets < MAX_TARGETS)
        r->targets[r->ntargets++] = (target){state, why};
}

/* Node labels and kinds; targets (unsound outcomes, deadlocks). */
static void build_nodes(graph_run *r, Agraph_t *graph)
{
    graph_data *g = &r->g;
    int width = r->t->nobserved;
    lit_value *values = GC_MALLOC_ATOMIC(sizeof *values * (size_t)(width ? width : 1));
    outcome_set *seen = outcome_set_new(width);
    char name[32];
    for (uint32_t i = 0; i < g->nstates; i++) {
        snprintf(name, sizeof name, "s%u", i);
        Agnode_t *n = agnode(graph, name, 1);
        g->node[i] = n;
        const uint8_t *s = ss_state(g->st, i);
        char label[64];
        snprintf(label, sizeof label, "%u", i);
        if (g->kind[i] & K_FINAL) {
            proto_final_values(r->inst, s, values);
            char *outcome = outcome_text(r->t, values);
            char *text = GC_MALLOC_ATOMIC(strlen(label) + strlen(outcome) + 3);
            sprintf(text, "%s\\n%s", label, outcome);
            set(n, "label", text);
            set(n, "shape", "doublecircle");
            if (outcome_find(r->model_outcomes, values) < 0) {
                g->kind[i] |= K_UNSOUND;
                set(n, "fontcolor", "red");
                set(n, "style", "filled");
                set(n, "fillcolor", "mistyrose");
                int before = outcome_count(seen);
                if (outcome_add(seen, values) >= before) {
                    r->unsound++;
                    add_target(r, i, "unsound outcome");
                }
            }
        } else {
            set(n, "label", label);
        }
        if (g->kind[i] & K_DEADLOCK) {
            set(n, "color", "red");
            set(n, "fontcolor", "red");
            set(n, "shape", "octagon");
            if (r->deadlocks++ < BFS_KEEP_DEADLOCKS)
                add_target(r, i, "deadlock");
        }
        if (i == 0)
            set(n, "style", (g->kind[i] & K_UNSOUND) ? "filled,bold" : "bold");
    }
    if (r->res.stop == BFS_VIOLATION) {
        set(g->node[r->res.violation_index], "fontcolor", "red");
        add_target(r, r->res.violation_index, "invariant violation");
    }
}

static void build_edges(graph_run *r, Agraph_t *graph)
{
    graph_data *g = &r->g;
    for (size_t e = 0; e < g->nedges; e++) {
        gedge *ge = &g->edges[e];
        ge->e = agedge(graph, g->node[ge->from], g->node[ge->to], NULL, 1);
        char *full = label_text(describe_rule(g->m, g->st, ge));
        set(ge->e, "tooltip", full);
        set(ge->e, "label", short_label(full));
    }
}

static char *graph_title(const graph_run *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return GC_STRDUP("");
    fprintf(mem, "%s on %s: %u states, %zu transitions", r->t->name, protocol_name(r->p), r->g.nstates,
            r->g.nedges);
    if (r->unsound)
        fprintf(mem, "; %d unsound outcome%s (model %s)", r->unsound, r->unsound > 1 ? "s" : "", r->o->model);
    if (r->deadlocks)
        fprintf(mem, "; %d deadlock%s", r->deadlocks, r->deadlocks > 1 ? "s" : "");
    if (r->res.stop == BFS_VIOLATION)
        fprintf(mem, "; invariant %s violated (search stopped there)", r->res.violated);
    if (r->ntargets)
        fputs("; shortest path in red", mem);
    fclose(mem);
    char *copy = label_text(text);
    free(text);
    return copy;
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
    g->node = calloc(g->nstates ? g->nstates : 1, sizeof *g->node);
    if (!g->node) {
        agclose(graph);
        gvFreeContext(gvc);
        fputs("scopecheck graph: error: out of memory\n", err);
        return 2;
    }
    build_nodes(r, graph);
    build_edges(r, graph);
    bool ok = true;
    for (int i = 0; i < r->ntargets && ok; i++)
        ok = highlight_path(g, r->bfs, r->targets[i].state);
    set(graph, "label", graph_title(r));
    set(graph, "labelloc", "t");
    int status = 2;
    if (!ok) {
        fputs("scopecheck graph: error: out of memory\n", err);
    } else if (gvLayout(gvc, graph, "dot") != 0) {
        fputs("scopecheck graph: error: graphviz could not lay the graph out\n", err);
    } else {
        render_job job = {gvc, graph, r->o->format};
        status = write_atomically(r->o->output, render, &job, err);
        gvFreeLayout(gvc, graph);
    }
    free(g->node);
    agclose(graph);
    gvFreeContext(gvc);
    if (status == 0) {
        fprintf(out, "Graph %s protocol %s: %u states, %zu transitions, %d unsound outcome%s, %d deadlock%s",
                r->t->name, protocol_name(r->p), g->nstates, g->nedges, r->unsound, r->unsound == 1 ? "" : "s",
                r->deadlocks, r->deadlocks == 1 ? "" : "s");
        for (int i = 0; i < r->ntargets; i++)
            fprintf(out, "%s%s at state %u", i ? ", " : "; highlighted: ", r->targets[i].why, r->targets[i].state);
        fprintf(out, "\nWrote %s\n", r->o->output);
    }
    return status;
}

static int state_graph(const graph_opts *o, const protocol *p, FILE *out, FILE *err)
{
    graph_run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.p = p;
    litmus_test *t = litmus_read_file(o->litmus, err);
    if (!t)
        return 2;
    r.t = t;
    r.inst = proto_instantiate(p, t, &o->proto, err);
    if (!r.inst)
        return 2;
    const char *model_path = model_path_resolve(o->model);
    if (!model_path) {
        fprintf(err, "scopecheck graph: error: no model '%s'\n", o->model);
        return 2;
    }
    cat_model *m = cat_load(model_path, err);
    if (!m)
        return 2;
    enum_options eo = {.unroll = 2, .max_traces = 100000};
    check_result cr;
    if (!enumerate_check(t, m, cat_workspace_new(m), &eo, &cr, err))
        return 2;
    r.model_outcomes = cr.states;

    const nsi_model *nm = proto_nsi(r.inst);
    bfs_options bo = {.max_states = o->max_states < UINT64_MAX ? o->max_states + 1 : o->max_states};
    r.bfs = bfs_run(nm, &bo, &r.res);
    if (!r.bfs) {
        fprintf(err, "scopecheck graph: error: out of memory before the search of %s could start\n", o->litmus);
        return 2;
    }
    int status = 2;
    if (r.res.stop == BFS_MAX_STATES || r.res.states > o->max_states) {
        fprintf(err,
                "scopecheck graph: error: %s on %s has more than %llu states, too many to draw "
                "(raise --max-states, or use a smaller test or configuration)\n",
                o->litmus, protocol_name(p), (unsigned long long)o->max_states);
    } else if (r.res.stop != BFS_EXHAUSTED && r.res.stop != BFS_VIOLATION) {
        fprintf(err, "scopecheck graph: error: the search stopped early (%s)\n", bfs_stop_name(r.res.stop));
    } else {
        r.g.m = nm;
        r.g.st = bfs_store(r.bfs);
        r.g.nstates = ss_count(r.g.st);
        if (!collect_edges(&r.g))
            fputs("scopecheck graph: error: out of memory\n", err);
        else
            status = draw(&r, out, err);
    }
    free(r.g.edges);
    free(r.g.first);
    free(r.g.kind);
    bfs_free(r.bfs);
    return status;
}

int graph_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    graph_opts o;
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    const char *proto_path = model_path_find(o.protocol, ".proto");
    if (!proto_path) {
        fprintf(err, "scopecheck graph: error: no protocol '%s' (a name in models/, or a .proto file)\n",
                o.protocol);
        return 2;
    }
    protocol *p = protocol_load(proto_path, err);
    if (!p)
        return 2;
    if (o.tables) {
        status = write_atomically(o.output, write_html, p, err);
        if (status == 0)
            fprintf(out, "Wrote %s\n", o.output);
        return status;
    }
    return state_graph(&o, p, out, err);
}
