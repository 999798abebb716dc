/* draw/exec_draw.c: see draw/exec_draw.h.  The DOT text is written by hand
 * (it is the file herd users open); the pictures are that text read back
 * by libcgraph, laid out by dot and rendered by libgvc. */
#include "draw/exec_draw.h"

#include <errno.h>
#include <gc.h>
#include <graphviz/gvc.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cat/explain.h"
#include "base/output_file.h"
#include "enumerate/event_name.h"
#include "report/report.h"

struct exec_renderer {
    GVC_t *gvc;             /* made at the first picture, freed once */
};

exec_renderer *exec_renderer_new(void)
{
    exec_renderer *r = GC_MALLOC(sizeof *r);
    r->gvc = NULL;
    return r;
}

void exec_renderer_free(exec_renderer *r)
{
    if (r && r->gvc)
        gvFreeContext(r->gvc);
    if (r)
        r->gvc = NULL;
}

static GVC_t *renderer_context(exec_renderer *r)
{
    if (!r->gvc)
        r->gvc = gvContext();
    return r->gvc;
}

struct exec_drawing {
    const char *dir;
    const litmus_test *t;
    const cat_model *m;
    enum exec_show show;
    bool through;           /* also the executions the model rejects */
    cat_explainer *explainer;
    int nshow, drawn;
    FILE *dot;              /* DIR/TEST.dot's text, in memory until the end */
    char *dot_text, *dot_path;
    size_t dot_len;
    exec_renderer *renderer;
    bool failed;
    FILE *err;
    bool in_memory;         /* dir NULL: pictures kept for a page, no file */
    int npictures;
    exec_picture *pictures;
};

static char *path_in(const char *dir, const char *name, const char *suffix)
{
    size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 2;
    char *p = GC_MALLOC_ATOMIC(n);
    snprintf(p, n, "%s/%s%s", dir, name, suffix);
    return p;
}

/* A test name as a file name: anything but [A-Za-z0-9._+-] becomes '_'. */
static const char *file_stem(const char *name)
{
    char *s = GC_STRDUP(name && *name ? name : "test");
    for (char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
              *p == '_' || *p == '+' || *p == '-'))
            *p = '_';
    return s;
}

exec_drawing *exec_draw_begin(exec_renderer *renderer, const char *dir, const litmus_test *t, const cat_model *m,
                              enum exec_show show, bool through, int nshow, FILE *err)
{
    cat_explainer *explainer = cat_explainer_new(m, err);
    if (!explainer) {
        fputs("scopecheck litmus: error: the model's show statements cannot be drawn\n", err);
        return NULL;
    }
    struct stat st;
    if (dir && stat(dir, &st) != 0 && mkdir(dir, 0755) != 0) {
        fprintf(err, "scopecheck litmus: error: cannot create directory '%s': %s\n", dir, strerror(errno));
        return NULL;
    }
    exec_drawing *d = GC_MALLOC(sizeof *d);
    memset(d, 0, sizeof *d);
    d->dir = dir;
    d->t = t;
    d->m = m;
    d->show = show;
    d->through = through;
    d->explainer = explainer;
    d->nshow = nshow;
    d->err = err;
    d->in_memory = !dir;
    d->dot_path = path_in(dir ? dir : ".", file_stem(t->name), ".dot");
    d->renderer = renderer;
    d->dot = open_memstream(&d->dot_text, &d->dot_len);
    if (!d->dot) {
        fprintf(err, "scopecheck litmus: error: cannot draw '%s': %s\n", d->dot_path, strerror(errno));
        return NULL;
    }
    return d;
}

/* DOT string contents: quotes and backslashes escaped. */
static void dot_escaped(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
}

static void event_label(FILE *f, const litmus_test *t, const enum_event_info *e, int i)
{
    char name[ENUM_EVENT_NAME_SIZE];
    enum_event_name(i, name);
    fprintf(f, "%s: ", name);
    if (e->kind == 'R' || e->kind == 'W') {
        fprintf(f, "%c[", e->kind);
        dot_escaped(f, e->loc >= 0 && e->loc < t->nlocs ? t->locs[e->loc].name : "?");
        fprintf(f, "]=%" PRId64, e->value);
    } else if (e->kind == 'U') {   /* herd's single-event RMW: value read, then written */
        fputs("RMW[", f);
        dot_escaped(f, e->loc >= 0 && e->loc < t->nlocs ? t->locs[e->loc].name : "?");
        fprintf(f, "]=%" PRId64 "->%" PRId64, e->value, e->wvalue);
    } else {
        fputs(e->kind == 'F' ? "F" : "B", f);
    }
    if (e->thread >= 0 && e->instr >= 0 && e->instr < t->threads[e->thread].ninstrs) {
        const char *text = t->threads[e->thread].instrs[e->instr].text;
        if (text && *text) {
            fputs("\\n", f);
            dot_escaped(f, text);
        }
    }
}

/* The immediate steps of a strict order r within `within`: pairs not
 * implied by two others (a transitive reduction, as herd draws po and co). */
static bool immediate(const relation *r, int a, int b, int n)
{
    if (!rel_has(r, a, b, n))
        return false;
    for (int c = 0; c < n; c++)
        if (c != a && c != b && rel_has(r, a, c, n) && rel_has(r, c, b, n))
            return false;
    return true;
}

/* xlabel, not label: graphviz 2.42's dot frees an edge label twice when
 * the graph is laid out and freed in process (ASan finds it; the `dot`
 * program exits before freeing). */
static void edge_styled(FILE *f, int a, int b, const char *label, const char *color, const char *style)
{
    fprintf(f, "  e%d -> e%d [xlabel=\"", a, b);
    dot_escaped(f, label);
    fprintf(f, "\", color=\"%s\", fontcolor=\"%s\"%s%s];\n", color, color, style ? ", " : "", style ? style : "");
}

static void edge(FILE *f, int a, int b, const char *label, const char *color)
{
    edge_styled(f, a, b, label, color, NULL);
}

/* Pairs of r that herd leaves out of a picture of a shown relation: (a, b)
 * when a reaches b in r through another event z (a r z, z r+ b). */
static bool implied(const relation *r, const relation *plus, int a, int b, int n)
{
    for (int z = 0; z < n; z++)
        if (z != a && z != b && rel_has(r, a, z, n) && rel_has(plus, z, b, n))
            return true;
    return false;
}

static relation *closure(const relation *r, int n)
{
    relation *plus = GC_MALLOC_ATOMIC(rel_bytes(n));
    rel_plus(plus, r, n);
    return plus;
}

/* A shortest cycle of r as each event's successor on it (-1 off the
 * cycle); false when r is acyclic.  Breadth first from each event: the
 * first event met that r relates back to the start closes a shortest
 * cycle through it. */
static bool shortest_cycle(const relation *r, int n, int *next)
{
    int *parent = GC_MALLOC_ATOMIC(sizeof *parent * (size_t)n), *dist = GC_MALLOC_ATOMIC(sizeof *dist * (size_t)n);
    int *queue = GC_MALLOC_ATOMIC(sizeof *queue * (size_t)n), *best_parent = GC_MALLOC_ATOMIC(sizeof *best_parent * (size_t)n);
    int best = n + 1, best_start = -1, best_last = -1;
    for (int s = 0; s < n; s++) {
        for (int i = 0; i < n; i++)
            dist[i] = -1;
        int head = 0, tail = 0, last = -1;
        queue[tail++] = s;
        dist[s] = 0;
        parent[s] = -1;
        while (head < tail && last < 0) {
            int u = queue[head++];
            if (dist[u] + 1 >= best)
                break;
            if (rel_has(r, u, s, n)) {
                last = u;
                break;
            }
            for (int v = 0; v < n; v++)
                if (dist[v] < 0 && rel_has(r, u, v, n)) {
                    dist[v] = dist[u] + 1;
                    parent[v] = u;
                    queue[tail++] = v;
                }
        }
        if (last >= 0) {
            best = dist[last] + 1;
            best_start = s;
            best_last = last;
            memcpy(best_parent, parent, sizeof *parent * (size_t)n);
        }
    }
    if (best_start < 0)
        return false;
    for (int i = 0; i < n; i++)
        next[i] = -1;
    next[best_last] = best_start;
    for (int v = best_last; v != best_start; v = best_parent[v])
        next[best_parent[v]] = v;
    return true;
}

/* A shown relation, as herd draws one: its pairs less the implied ones;
 * po, rf, co and fr are drawn already (herd draws them once too). */
static void draw_shown(FILE *f, const cat_explained *it, int n)
{
    static const char *const drawn[] = {"po", "rf", "co", "fr"};
    for (size_t i = 0; i < sizeof drawn / sizeof drawn[0]; i++)
        if (strcmp(it->name, drawn[i]) == 0)
            return;
    if (!it->rel)
        return;
    const relation *plus = closure(it->rel, n);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (rel_has(it->rel, a, b, n) && (a == b || !implied(it->rel, plus, a, b, n)))
                edge(f, a, b, it->name, "brown");
}

#define FAILED_COLOR "crimson"
#define FAILED_BOLD "penwidth=3, style=bold"

/* The failed check's relation: for acyclic, a shortest cycle in bold and
 * the other pairs (less the implied ones) dashed; for irreflexive, the
 * events related to themselves; for empty, every pair (or every event of a
 * set). */
static void draw_failed(FILE *f, const cat_explained *it, int n)
{
    if (it->kind == CAT_FAILED_EMPTY && it->set) {
        for (int e = set_next(it->set, 0, n); e >= 0; e = set_next(it->set, e + 1, n)) {
            fprintf(f, "  e%d [color=\"" FAILED_COLOR "\", penwidth=3, xlabel=\"", e);
            dot_escaped(f, it->name);
            fputs("\"];\n", f);
        }
        return;
    }
    if (!it->rel || it->kind == CAT_FAILED_NONEMPTY)
        return;
    int *next = GC_MALLOC_ATOMIC(sizeof *next * (size_t)n);
    bool cycle = it->kind == CAT_FAILED_ACYCLIC && shortest_cycle(it->rel, n, next);
    const relation *plus = it->kind == CAT_FAILED_ACYCLIC ? closure(it->rel, n) : NULL;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (!rel_has(it->rel, a, b, n))
                continue;
            if (it->kind == CAT_FAILED_IRREFLEXIVE) {
                if (a == b)
                    edge_styled(f, a, b, it->name, FAILED_COLOR, FAILED_BOLD);
            } else if (it->kind == CAT_FAILED_EMPTY) {
                edge_styled(f, a, b, it->name, FAILED_COLOR, FAILED_BOLD);
            } else if (cycle && next[a] == b) {
                edge_styled(f, a, b, it->name, FAILED_COLOR, FAILED_BOLD);
            } else if (a == b || !implied(it->rel, plus, a, b, n)) {
                edge_styled(f, a, b, it->name, FAILED_COLOR, "style=dashed");
            }
        }
}

/* What the graph's label says of a rejected execution. */
static void failed_label(FILE *f, const cat_explained *items, int count, const char *other)
{
    static const char *const verbs[] = {
        [CAT_FAILED_ACYCLIC] = "cyclic", [CAT_FAILED_IRREFLEXIVE] = "reflexive",
        [CAT_FAILED_EMPTY] = "not empty", [CAT_FAILED_NONEMPTY] = "fails",
    };
    fputs(", forbidden", f);
    for (int i = 0; i < count; i++)
        if (items[i].kind != CAT_SHOWN) {
            fputs(": ", f);
            dot_escaped(f, items[i].name);
            fprintf(f, " %s", verbs[items[i].kind]);
            return;
        }
    if (other) {
        fputs(": ", f);
        dot_escaped(f, other);
    }
}

static void write_graph(exec_drawing *d, FILE *f, const exec *x, const enum_event_info *ev, int n,
                        const lit_value *state, unsigned flags, bool forbidden)
{
    const litmus_test *t = d->t;
    const cat_explained *items;
    const char *other_failure;
    int nitems = cat_explain(d->explainer, x, &items, &other_failure);
    fprintf(f, "digraph \"%s_%d\" {\n  label=\"", file_stem(t->name), d->drawn + 1);
    dot_escaped(f, t->name);
    fprintf(f, ": execution %d, final state ", d->drawn + 1);
    char *st = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&st, &len);
    if (mem) {
        report_state(mem, t, state);
        fclose(mem);
        dot_escaped(f, st);
        free(st);
    }
    for (int k = 0; k < cat_model_flag_count(d->m); k++)
        if (flags & (1u << k)) {
            fputs(", flag ", f);
            dot_escaped(f, cat_model_flag_name(d->m, k));
        }
    if (forbidden)
        failed_label(f, items, nitems, other_failure);
    fputs("\";\n  labelloc=t;\n  forcelabels=true;\n  node [shape=box, fontname=\"monospace\"];\n", f);
    fputs("  subgraph cluster_init {\n    label=\"init\";\n    style=dashed;\n", f);
    for (int i = 0; i < n; i++)
        if (ev[i].thread < 0) {
            fprintf(f, "    e%d [label=\"", i);
            event_label(f, t, &ev[i], i);
            fputs("\"];\n", f);
        }
    fputs("  }\n", f);
    for (int th = 0; th < t->nthreads; th++) {
        fprintf(f, "  subgraph cluster_%d {\n    label=\"", th);
        dot_escaped(f, t->threads[th].name);
        fputs("\";\n", f);
        for (int i = 0; i < n; i++)
            if (ev[i].thread == th) {
                fprintf(f, "    e%d [label=\"", i);
                event_label(f, t, &ev[i], i);
                fputs("\"];\n", f);
            }
        fputs("  }\n", f);
    }
    const relation *po = x->rel[XR_PO], *rf = x->rel[XR_RF], *co = x->rel[XR_CO];
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            if (immediate(po, a, b, n))
                edge(f, a, b, "po", "black");
            if (rel_has(rf, a, b, n))
                edge(f, a, b, "rf", "red");
            if (immediate(co, a, b, n))
                edge(f, a, b, "co", "blue");
            /* fr to the immediate co successor of the write read from */
            for (int w = 0; w < n; w++)
                if (rel_has(rf, w, a, n) && immediate(co, w, b, n))
                    edge(f, a, b, "fr", "darkorange");
        }
    /* a consistent execution passes every check (with some `with` order,
     * maybe not the first one cat_explain took): only shows are drawn */
    for (int i = 0; i < nitems; i++)
        if (items[i].kind == CAT_SHOWN)
            draw_shown(f, &items[i], n);
        else if (forbidden)
            draw_failed(f, &items[i], n);
    fputs("}\n", f);
}

/* A picture for the page (its SVG text, a GC copy); the execution's kind
 * is set by draw(). */
static void keep_picture(exec_drawing *d, const char *data, unsigned int len)
{
    exec_picture *more = GC_MALLOC(sizeof *more * (size_t)(d->npictures + 1));
    if (d->npictures)
        memcpy(more, d->pictures, sizeof *more * (size_t)d->npictures);
    char *svg = GC_MALLOC_ATOMIC((size_t)len + 1);
    memcpy(svg, data, len);
    svg[len] = '\0';
    more[d->npictures++] = (exec_picture){.svg = svg};
    d->pictures = more;
}

/* Lays out and renders one graph into memory (graphviz writes no file, so
 * a full disk cannot make it exit), then writes the picture whole or not
 * at all (base/output_file.h). */
static void render_svg(exec_drawing *d, const char *dot_text)
{
    char number[24];
    snprintf(number, sizeof number, "-%d.svg", d->drawn + 1);
    char *path = path_in(d->dir ? d->dir : ".", file_stem(d->t->name), number);
    GVC_t *gvc = renderer_context(d->renderer);
    Agraph_t *g = gvc ? agmemread(dot_text) : NULL;
    char *data = NULL;
    unsigned int len = 0;
    bool ok = g && gvLayout(gvc, g, "dot") == 0;
    if (ok) {
        ok = gvRenderData(gvc, g, "svg", &data, &len) == 0 && data;
        gvFreeLayout(gvc, g);
    }
    if (g)
        agclose(g);
    if (!ok)
        fprintf(d->err, "scopecheck litmus: error: cannot draw '%s'\n", path);
    else if (d->in_memory)
        keep_picture(d, data, len);
    else if (output_write_data("litmus", path, data, len, d->err) != 0)
        ok = false;
    if (data)
        gvFreeRenderData(data);
    d->failed = !ok;
}

static void draw(exec_drawing *d, const exec *x, const enum_event_info *events, int n, const lit_value *state,
                 bool holds, unsigned flags, bool forbidden)
{
    if (d->failed || d->show == SHOW_NONE || (d->show == SHOW_PROP && !holds) || (d->show == SHOW_NEG && holds))
        return;
    if (d->nshow > 0 && d->drawn >= d->nshow)
        return;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        d->failed = true;
        return;
    }
    write_graph(d, mem, x, events, n, state, flags, forbidden);
    fclose(mem);
    if (fputs(text, d->dot) == EOF)
        d->failed = true;
    if (!d->failed)
        render_svg(d, text);
    free(text);
    if (!d->failed && d->in_memory) {
        d->pictures[d->npictures - 1].forbidden = forbidden;
        d->pictures[d->npictures - 1].holds = holds;
    }
    if (!d->failed)
        d->drawn++;
}

void exec_draw_execution(void *drawing, const exec *x, const enum_event_info *events, int n,
                         const lit_value *state, bool holds, unsigned flags)
{
    draw(drawing, x, events, n, state, holds, flags, false);
}

void exec_draw_rejected(void *drawing, const exec *x, const enum_event_info *events, int n,
                        const lit_value *state, bool holds, unsigned flags)
{
    draw(drawing, x, events, n, state, holds, flags, true);
}

bool exec_draw_through(const exec_drawing *d) { return d && d->through; }

int exec_draw_count(const exec_drawing *d) { return d ? d->drawn : 0; }

int exec_draw_pictures(const exec_drawing *d, const exec_picture **out)
{
    *out = d ? d->pictures : NULL;
    return d ? d->npictures : 0;
}

bool exec_draw_end(exec_drawing *d)
{
    if (!d)
        return false;
    bool ok = !d->failed && fflush(d->dot) == 0 && !ferror(d->dot);
    fclose(d->dot);
    if (d->in_memory) {
        free(d->dot_text);
        if (!ok)
            fprintf(d->err, "scopecheck litmus: error: %s: drawing stopped after %d picture%s\n",
                    d->t->name ? d->t->name : "test", d->drawn, d->drawn == 1 ? "" : "s");
        return ok;
    }
    if (ok && output_write_data("litmus", d->dot_path, d->dot_text, d->dot_len, d->err) != 0)
        ok = false;
    free(d->dot_text);
    if (!ok)
        fprintf(d->err, "scopecheck litmus: error: %s: drawing stopped after %d picture%s; '%s' not written\n",
                d->t->name ? d->t->name : "test", d->drawn, d->drawn == 1 ? "" : "s", d->dot_path);
    return ok;
}
