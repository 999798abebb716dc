/* cli/exec_draw.c: see cli/exec_draw.h.  The DOT text is written by hand
 * (it is the file herd users open); the pictures are that text read back
 * by libcgraph, laid out by dot and rendered by libgvc. */
#include "cli/exec_draw.h"

#include <errno.h>
#include <gc.h>
#include <graphviz/gvc.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"

struct exec_drawing {
    const char *dir;
    const litmus_test *t;
    const cat_model *m;
    enum exec_show show;
    int nshow, drawn;
    FILE *dot;              /* the temporary beside DIR/TEST.dot */
    char *dot_tmp, *dot_path;
    GVC_t *gvc;
    bool failed;
    FILE *err;
};

bool exec_show_parse(const char *word, enum exec_show *out)
{
    static const struct { const char *word; enum exec_show show; } words[] = {
        {"prop", SHOW_PROP}, {"cond", SHOW_PROP}, {"wit", SHOW_PROP},
        {"neg", SHOW_NEG}, {"all", SHOW_ALL}, {"none", SHOW_NONE},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(word, words[i].word) == 0) {
            *out = words[i].show;
            return true;
        }
    return false;
}

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

exec_drawing *exec_draw_begin(const char *dir, const litmus_test *t, const cat_model *m, enum exec_show show,
                              int nshow, FILE *err)
{
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0755) != 0) {
        fprintf(err, "scopecheck litmus: error: cannot create directory '%s': %s\n", dir, strerror(errno));
        return NULL;
    }
    exec_drawing *d = GC_MALLOC(sizeof *d);
    memset(d, 0, sizeof *d);
    d->dir = dir;
    d->t = t;
    d->m = m;
    d->show = show;
    d->nshow = nshow;
    d->err = err;
    d->dot_path = path_in(dir, file_stem(t->name), ".dot");
    d->dot_tmp = path_in(dir, file_stem(t->name), ".dot.tmp-XXXXXX");
    int fd = mkstemp(d->dot_tmp);
    if (fd < 0 || !(d->dot = fdopen(fd, "w"))) {
        fprintf(err, "scopecheck litmus: error: cannot write '%s': %s\n", d->dot_path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(d->dot_tmp);
        }
        return NULL;
    }
    fchmod(fd, 0644);
    d->gvc = gvContext();
    return d;
}

/* herd names events a, b, ..., z, then aa, ab, ... */
static void event_name(int i, char *out)
{
    if (i < 26)
        snprintf(out, 4, "%c", 'a' + i);
    else
        snprintf(out, 4, "%c%c", 'a' + i / 26 - 1, 'a' + i % 26);
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
    char name[4];
    event_name(i, name);
    fprintf(f, "%s: ", name);
    if (e->kind == 'R' || e->kind == 'W') {
        fprintf(f, "%c[", e->kind);
        dot_escaped(f, e->loc >= 0 && e->loc < t->nlocs ? t->locs[e->loc].name : "?");
        fprintf(f, "]=%" PRId64, e->value);
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
static void edge(FILE *f, int a, int b, const char *label, const char *color)
{
    fprintf(f, "  e%d -> e%d [xlabel=\"%s\", color=\"%s\", fontcolor=\"%s\"];\n", a, b, label, color, color);
}

static void write_graph(exec_drawing *d, FILE *f, const exec *x, const enum_event_info *ev, int n,
                        const lit_value *state, unsigned flags)
{
    const litmus_test *t = d->t;
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
    fputs("}\n", f);
}

static void render_svg(exec_drawing *d, const char *dot_text)
{
    if (!d->gvc)
        return;
    char number[24];
    snprintf(number, sizeof number, "-%d.svg", d->drawn + 1);
    char *path = path_in(d->dir, file_stem(d->t->name), number);
    char *tmp = path_in(d->dir, file_stem(d->t->name), ".svg.tmp-XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(d->err, "scopecheck litmus: error: cannot write '%s': %s\n", path, strerror(errno));
        d->failed = true;
        return;
    }
    fchmod(fd, 0644);
    close(fd);
    Agraph_t *g = agmemread(dot_text);
    bool ok = g && gvLayout(d->gvc, g, "dot") == 0;
    if (ok) {
        ok = gvRenderFilename(d->gvc, g, "svg", tmp) == 0;
        gvFreeLayout(d->gvc, g);
    }
    if (g)
        agclose(g);
    if (!ok || rename(tmp, path) != 0) {
        fprintf(d->err, "scopecheck litmus: error: cannot draw '%s'\n", path);
        unlink(tmp);
        d->failed = true;
    }
}

void exec_draw_execution(void *drawing, const exec *x, const enum_event_info *events, int n,
                         const lit_value *state, bool holds, unsigned flags)
{
    exec_drawing *d = drawing;
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
    write_graph(d, mem, x, events, n, state, flags);
    fclose(mem);
    if (fputs(text, d->dot) == EOF)
        d->failed = true;
    render_svg(d, text);
    free(text);
    d->drawn++;
}

int exec_draw_count(const exec_drawing *d) { return d ? d->drawn : 0; }

bool exec_draw_end(exec_drawing *d)
{
    if (!d)
        return false;
    if (d->gvc)
        gvFreeContext(d->gvc);
    bool ok = !d->failed && fflush(d->dot) == 0 && !ferror(d->dot);
    if (fclose(d->dot) != 0)
        ok = false;
    if (ok && rename(d->dot_tmp, d->dot_path) != 0)
        ok = false;
    if (!ok) {
        fprintf(d->err, "scopecheck litmus: error: cannot write '%s'\n", d->dot_path);
        unlink(d->dot_tmp);
    }
    return ok;
}
