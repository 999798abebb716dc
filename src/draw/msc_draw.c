/* draw/msc_draw.c: a message-sequence chart through graphviz (see
 * draw/msc_draw.h). */
#include "draw/msc_draw.h"

#include <gc.h>
#include <stdbool.h>
#include <graphviz/gvc.h>
#include <string.h>

#include "base/output_file.h"

#define ROW_H 0.42          /* inches between rows */
#define CHAR_W 0.075        /* inches per character at the label size */
#define MIN_COL_W 1.7

typedef struct drawing {
    const msc_chart *c;
    Agraph_t *g;
    double col_w;
    Agnode_t **point;       /* [lifeline * (nrows + 2) + row] */
    int nodes;
    bool marks;             /* for a report page: step classes, step numbers, no tooltips */
} drawing;

static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, "");
}

/* `s` made safe for a graphviz label or tooltip (which read backslash
 * escapes). */
static char *escaped(const char *s)
{
    size_t n = strlen(s);
    char *out = GC_MALLOC_ATOMIC(2 * n + 1), *q = out;
    for (; *s; s++) {
        if (*s == '\\')
            *q++ = '\\';
        if (*s == '\n') {
            *q++ = '\\';
            *q++ = 'n';
            continue;
        }
        *q++ = *s;
    }
    *q = '\0';
    return out;
}

/* In a report page, the SVG element of an arrow or note carries the class
 * "sK" of each step K it belongs to (the page highlights them); its full
 * text is in the page beside the chart, so the tooltip is left out. */
static void mark(const drawing *d, void *obj, int step_a, int step_b, const char *detail)
{
    if (!d->marks) {
        set(obj, "tooltip", escaped(detail));
        return;
    }
    char cls[48];
    if (step_b > 0 && step_b != step_a)
        snprintf(cls, sizeof cls, "s%d s%d", step_a, step_b);
    else
        snprintf(cls, sizeof cls, "s%d", step_a);
    set(obj, "class", cls);
}

static Agnode_t *node_at(drawing *d, double x, double y, const char *shape)
{
    char name[32], pos[64];
    snprintf(name, sizeof name, "n%d", d->nodes++);
    Agnode_t *n = agnode(d->g, name, 1);
    snprintf(pos, sizeof pos, "%.3f,%.3f!", x, y);
    set(n, "pos", pos);
    set(n, "shape", shape);
    return n;
}

static double col_x(const drawing *d, int lane) { return lane * d->col_w; }
static double row_y(int row) { return -row * ROW_H; }

/* The point where lifeline `lane` meets row `row` (made once). */
static Agnode_t *lane_point(drawing *d, int lane, int row)
{
    Agnode_t **slot = &d->point[lane * (d->c->nrows + 2) + row];
    if (!*slot) {
        *slot = node_at(d, col_x(d, lane), row_y(row), "point");
        set(*slot, "width", "0.07");
    }
    return *slot;
}

/* Wide enough for the longest label of an arrow to a neighbouring column. */
static double column_width(const msc_chart *c)
{
    size_t longest = 0;
    for (int i = 0; i < c->narrows; i++) {
        int span = c->arrows[i].to - c->arrows[i].from;
        size_t n = strlen(c->arrows[i].label) / (size_t)(span < 0 ? -span : span ? span : 1);
        longest = n > longest ? n : longest;
    }
    for (int i = 0; i < c->nlifelines; i++) {
        size_t n = strlen(c->lifelines[i].name) + 2;
        longest = n > longest ? n : longest;
    }
    double w = (double)longest * CHAR_W + 0.4;
    return w > MIN_COL_W ? w : MIN_COL_W;
}

static void lifelines(drawing *d)
{
    const msc_chart *c = d->c;
    for (int i = 0; i < c->nlifelines; i++) {
        const proto_agent *a = &c->lifelines[i];
        Agnode_t *head = node_at(d, col_x(d, i), row_y(0) + 0.1, "box");
        set(head, "label", escaped(a->name));
        set(head, "style", "filled");
        set(head, "fillcolor", a->ctrl < 0 ? "#e3f4e1" : "#e1ebf7");
        Agnode_t *tail = node_at(d, col_x(d, i), row_y(c->nrows + 1), "point");
        set(tail, "width", "0.01");
        set(tail, "color", "gray60");
        Agedge_t *e = agedge(d->g, head, tail, NULL, 1);
        set(e, "style", "dashed");
        set(e, "color", "gray60");
        set(e, "arrowhead", "none");
    }
}

static const char *const arrow_color[] = {
    [MSC_CALL] = "blue3", [MSC_RETURN] = "darkgreen", [MSC_MESSAGE] = "black", [MSC_IN_FLIGHT] = "red3"};

/* A plaintext label just above an arrow: at the middle of a call or a
 * return, a third of the way from the sender for a message (long
 * diagonal messages cross other arrows in the middle, rarely near their
 * start). */
static void arrow_label(drawing *d, const msc_arrow *a, double x1, double y1, double x2, double y2)
{
    char text[256];
    snprintf(text, sizeof text, "%s%s", a->label, a->kind == MSC_IN_FLIGHT ? " (in flight)" : "");
    double f = y1 == y2 ? 0.5 : 0.33;
    Agnode_t *n = node_at(d, x1 + f * (x2 - x1), y1 + f * (y2 - y1) + 0.11, "plaintext");
    set(n, "label", escaped(text));
    set(n, "fontcolor", arrow_color[a->kind]);
    set(n, "fontsize", "9");
    set(n, "height", "0.15");
    set(n, "margin", "0");
    mark(d, n, a->step_from, a->step_to, a->detail);
}

static void arrows(drawing *d)
{
    const msc_chart *c = d->c;
    for (int i = 0; i < c->narrows; i++) {
        const msc_arrow *a = &c->arrows[i];
        Agedge_t *e = agedge(d->g, lane_point(d, a->from, a->row_from), lane_point(d, a->to, a->row_to), NULL, 1);
        set(e, "color", arrow_color[a->kind]);
        mark(d, e, a->step_from, a->step_to, a->detail);
        if (a->kind == MSC_RETURN)
            set(e, "style", "dashed");
        else if (a->kind == MSC_IN_FLIGHT)
            set(e, "style", "dotted");
        arrow_label(d, a, col_x(d, a->from), row_y(a->row_from), col_x(d, a->to), row_y(a->row_to));
    }
}

/* Whether an arrow leaves or reaches (lane, row) going down to the left
 * (side -1) or to the right (side 1): it would cross a note put below the
 * row on that side.  Arrows from above, and labels (above their arrows),
 * stay clear of it. */
static bool down_arrow_on(const msc_chart *c, int lane, int row, int side)
{
    for (int i = 0; i < c->narrows; i++) {
        const msc_arrow *a = &c->arrows[i];
        int other = -1, other_row = 0;
        if (a->from == lane && a->row_from == row)
            other = a->to, other_row = a->row_to;
        else if (a->to == lane && a->row_to == row)
            other = a->from, other_row = a->row_from;
        if (other >= 0 && other_row > row && (other - lane) * side > 0)
            return true;
    }
    return false;
}

static void notes(drawing *d)
{
    const msc_chart *c = d->c;
    for (int i = 0; i < c->nnotes; i++) {
        const msc_note *m = &c->notes[i];
        /* just below the row, on the side no arrow goes down from */
        int side = down_arrow_on(c, m->lifeline, m->row, -1) && !down_arrow_on(c, m->lifeline, m->row, 1) ? 1 : -1;
        double w = (double)strlen(m->text) * CHAR_W * 0.85;
        Agnode_t *n = node_at(d, col_x(d, m->lifeline) + side * (0.08 + w / 2), row_y(m->row) - 0.12, "plaintext");
        set(n, "label", escaped(m->text));
        set(n, "fontsize", "8");
        set(n, "fontcolor", "gray30");
        set(n, "height", "0.14");
        set(n, "margin", "0");
        mark(d, n, m->step, 0, m->detail);
        lane_point(d, m->lifeline, m->row);
    }
}

/* The row where step k begins: the first row of an arrow it sends or
 * takes, or of a note of it. */
static int step_row(const msc_chart *c, int k)
{
    int row = 0;
    for (int i = 0; i < c->narrows; i++) {
        const msc_arrow *a = &c->arrows[i];
        if (a->step_from == k && (!row || a->row_from < row))
            row = a->row_from;
        if (a->step_to == k && (!row || a->row_to < row))
            row = a->row_to;
    }
    for (int i = 0; i < c->nnotes; i++)
        if (c->notes[i].step == k && (!row || c->notes[i].row < row))
            row = c->notes[i].row;
    return row;
}

/* A report page's step numbers, left of the first lifeline, each of class
 * "sK step" with the id "msc-stepK" (the page scrolls to it). */
static void step_numbers(drawing *d, int nsteps)
{
    for (int k = 1; k <= nsteps; k++) {
        int row = step_row(d->c, k);
        if (!row)
            continue;
        char text[16], id[32], cls[32];
        snprintf(text, sizeof text, "%d", k);
        Agnode_t *n = node_at(d, col_x(d, 0) - 0.55 * d->col_w, row_y(row), "plaintext");
        set(n, "label", text);
        set(n, "fontsize", "9");
        set(n, "fontcolor", "gray40");
        snprintf(id, sizeof id, "msc-step%d", k);
        set(n, "id", id);
        snprintf(cls, sizeof cls, "s%d step", k);
        set(n, "class", cls);
    }
}

static void build(drawing *d, const char *title, int nsteps)
{
    const msc_chart *c = d->c;
    d->point = GC_MALLOC(sizeof *d->point * (size_t)(c->nlifelines ? c->nlifelines : 1) * (size_t)(c->nrows + 2));
    set(d->g, "label", escaped(title));
    set(d->g, "labelloc", "t");
    set(d->g, "fontsize", "12");
    set(d->g, "splines", "false");
    set(d->g, "overlap", "true");
    set(d->g, "outputorder", "edgesfirst");
    set(d->g, "pad", "0.3");
    agattr(d->g, AGNODE, (char *)"fontsize", (char *)"10");
    agattr(d->g, AGEDGE, (char *)"arrowsize", (char *)"0.7");
    lifelines(d);
    arrows(d);
    notes(d);
    if (d->marks)
        step_numbers(d, nsteps);
}

/* Lays out and renders one chart with `gvc` into *data (graphviz's
 * memory, freed with gvFreeRenderData); 0, or 2 with a message. */
static int render_with(GVC_t *gvc, const msc_chart *c, const char *title, const char *format, int nsteps,
                       char **data, unsigned int *len, FILE *err)
{
    drawing d = {c, agopen((char *)"msc", Agdirected, NULL), column_width(c), NULL, 0, nsteps > 0};
    build(&d, title, nsteps);
    int status = 2;
    *data = NULL;
    if (gvLayout(gvc, d.g, "neato") != 0) {
        fputs("scopecheck graph: error: graphviz could not lay the chart out\n", err);
    } else {
        if (gvRenderData(gvc, d.g, format, data, len) != 0 || !*data)
            fprintf(err, "scopecheck graph: error: graphviz could not render %s\n", format);
        else
            status = 0;
        gvFreeLayout(gvc, d.g);
    }
    agclose(d.g);
    return status;
}

int msc_draw(const msc_chart *c, const char *title, const char *format, const char *path, FILE *err)
{
    GVC_t *gvc = gvContext();
    if (!gvc) {
        fputs("scopecheck graph: error: graphviz could not start\n", err);
        return 2;
    }
    char *data = NULL;
    unsigned int len = 0;
    int status = render_with(gvc, c, title, format, 0, &data, &len, err);
    if (status == 0)
        status = output_write_data("graph", path, data, len, err);
    gvFreeRenderData(data);
    gvFreeContext(gvc);
    return status;
}

/* One graphviz context for every chart: graphviz keeps state that
 * outlives a context (its text-size cache), and a second context made
 * after the first was freed reads freed memory (draw/exec_draw.h). */
char **msc_svgs_marked(const msc_chart *const *charts, const char *const *titles, const int *nsteps, int n,
                       FILE *err)
{
    char **svgs = GC_MALLOC(sizeof *svgs * (size_t)(n ? n : 1));
    GVC_t *gvc = gvContext();
    if (!gvc) {
        fputs("scopecheck graph: error: graphviz could not start\n", err);
        return svgs;
    }
    for (int i = 0; i < n; i++) {
        char *data = NULL;
        unsigned int len = 0;
        if (charts[i] &&
            render_with(gvc, charts[i], titles[i], "svg", nsteps[i] > 0 ? nsteps[i] : 1, &data, &len, err) == 0) {
            svgs[i] = GC_MALLOC_ATOMIC((size_t)len + 1);
            memcpy(svgs[i], data, len);
            svgs[i][len] = '\0';
        }
        gvFreeRenderData(data);
    }
    gvFreeContext(gvc);
    return svgs;
}
