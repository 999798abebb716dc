/* draw/report_page.c: the report page of `verify --report` (see
 * draw/report_page.h).  The page's data is built with jansson, its chart
 * by graphviz (draw/msc_draw.h); its style and script are
 * draw/report_assets.c's text. */
#include "draw/report_page.h"

#include <gc.h>
#include <inttypes.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "draw/msc_draw.h"
#include "base/output_file.h"
#include "draw/report_assets.h"
#include "protocol/msc.h"
#include "protocol/step.h"
#include "report/report.h"
#include "search/fair_cycle.h"
#include "search/state_store.h"

#define MAX_REASONS 64
#define SOURCE_LINE_MAX 400

/* One violation with a trace. */
typedef struct violation {
    const char *kind;        /* "unsound", "invariant", "deadlock", "unhandled", "livelock" */
    char *title;             /* GC string */
    uint32_t index;          /* the trace's last state (a livelock: the cycle's entry) */
    const fc_cycle *cycle;   /* a livelock's cycle, after the stem to `index`; else NULL */
} violation;

typedef struct page {
    const report_page_input *in;
    const verify_result *v;
    int nviolations;
    violation *violations;
    json_t *data;            /* the blob */
    char **svgs;             /* per violation: the chart, or NULL */
    char *text_report;       /* verify's text report */
} page;

/* ---- what the check found -------------------------------------------- */

/* Text written by `fn` into a GC string. */
static char *gc_text_of(void (*fn)(FILE *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return GC_STRDUP("");
    fn(mem, arg);
    fclose(mem);
    char *copy = GC_STRDUP(buf ? buf : "");
    free(buf);
    return copy;
}

static void write_outcome(FILE *out, const void *arg)
{
    const void *const *a = arg;
    report_state(out, a[0], a[1]);
}

static void add(page *p, const char *kind, char *title, uint32_t index)
{
    violation *nv = GC_MALLOC(sizeof *nv * (size_t)(p->nviolations + 1));
    if (p->nviolations)
        memcpy(nv, p->violations, sizeof *nv * (size_t)p->nviolations);
    nv[p->nviolations++] = (violation){kind, title, index, NULL};
    p->violations = nv;
}

static char *gc_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *gc_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *buf = NULL;
    int n = vasprintf(&buf, fmt, ap);
    va_end(ap);
    char *copy = GC_STRDUP(n >= 0 && buf ? buf : "");
    free(buf);
    return copy;
}

/* --liveness: each non-progress cycle, its stem and cycle as one trace. */
static void collect_lassos(page *p)
{
    const verify_live *vl = &p->v->live;
    if (!vl->graph || !vl->decided)
        return;
    for (int i = 0; i < vl->result.ncycles; i++) {
        const fc_cycle *c = &vl->result.cycles[i];
        const litmus_test *t = p->v->t;
        const char *who = c->thread >= 0 && c->thread < t->nthreads ? t->threads[c->thread].name : "a thread";
        add(p, "livelock",
            gc_format("non-progress cycle: %s never completes (a %scycle of %zu steps)", who,
                      vl->opts->fair_weak ? "weakly fair " : "", c->len),
            c->entry);
        p->violations[p->nviolations - 1].cycle = c;
    }
}

/* The violations that have a trace, in the order of the text report. */
static void collect(page *p)
{
    const verify_result *v = p->v;
    int width = v->t->nobserved;
    const lit_value *mine = outcome_values(v->found.outcomes);
    for (int i = 0; i < outcome_count(v->found.outcomes); i++) {
        const lit_value *state = &mine[(size_t)i * (size_t)width];
        if (verify_classify_outcome(v, state) != VERIFY_OUTCOME_UNSOUND)
            continue;
        const void *arg[2] = {v->t, state};
        char *o = gc_text_of(write_outcome, arg);
        add(p, "unsound", gc_format("unsound outcome %s (the model forbids it)", o), v->found.witness[i]);
    }
    if (v->search.stop == BFS_VIOLATION)
        add(p, "invariant", gc_format("invariant %s violated", v->search.violated), v->search.violation_index);
    for (int i = 0; i < v->search.deadlocks_kept; i++)
        add(p, "deadlock", gc_format("deadlock (%d of %" PRIu64 " deadlock states kept)", i + 1, v->search.deadlocks),
            v->search.deadlock_index[i]);
    for (int i = 0; i < v->nunhandled && i < VERIFY_MAX_UNHANDLED; i++) {
        const proto_unhandled_pair *u = &v->unhandled[i];
        add(p, "unhandled",
            gc_format("unhandled: controller %s in state %s has no row for %s", u->controller, u->state, u->event),
            v->unhandled_at[i]);
    }
    collect_lassos(p);
}

/* ---- one trace as data -------------------------------------------------- */

/* Line `line` of `file` (without its end), or NULL. */
static char *source_line(const char *file, int line)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return NULL;
    char buf[SOURCE_LINE_MAX];
    char *found = NULL;
    for (int n = 1; fgets(buf, sizeof buf, f); ) {
        size_t len = strlen(buf);
        bool whole = len > 0 && buf[len - 1] == '\n';
        if (n == line) {
            buf[whole ? len - 1 : len] = '\0';
            found = GC_STRDUP(buf);
            break;
        }
        if (whole)
            n++;
    }
    fclose(f);
    return found;
}

static void set_string(json_t *o, const char *key, const char *value)
{
    if (value)
        json_object_set_new(o, key, json_string(value));
}

static json_t *string_list(const char *const *items, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(items[i] ? items[i] : ""));
    return a;
}

/* The step's record (protocol/step.h), the members it filled. */
static json_t *record_json(const proto_instance *inst, const uint8_t *from, int rule, const uint8_t *to)
{
    proto_step_record r;
    json_t *o = json_object();
    if (!proto_step_record_of(inst, from, rule, to, &r))
        return o;
    set_string(o, "thread", r.thread);
    set_string(o, "instruction", r.instruction);
    set_string(o, "controller", r.controller);
    if (r.instance_kind) {
        char where[64];
        snprintf(where, sizeof where, "%s %d", r.instance_kind, r.instance);
        set_string(o, "instance", where);
    }
    set_string(o, "address", r.address);
    set_string(o, "event", r.event);
    set_string(o, "state", r.state);
    set_string(o, "next_state", r.next_state);
    if (r.nactions)
        json_object_set_new(o, "actions", string_list(r.actions, r.nactions));
    if (r.nsent)
        json_object_set_new(o, "sent", string_list(r.sent, r.nsent));
    if (r.nread)
        json_object_set_new(o, "read", string_list(r.read, r.nread));
    set_string(o, "note", r.note);
    return o;
}

/* The fields of `now` that differ from `before` (all with before NULL), as
 * [index, value] pairs. */
static json_t *changes_json(const proto_state_field *now, const proto_state_field *before, int nf)
{
    json_t *a = json_array();
    for (int i = 0; i < nf; i++)
        if (!before || strcmp(now[i].value, before[i].value) != 0)
            json_array_append_new(a, json_pack("[is]", i, now[i].value));
    return a;
}

typedef struct succ_ctx {
    const nsi_model *m;
    const uint8_t *state, *next_on_trace;
    json_t *list;
    int count;
} succ_ctx;

static void count_one(void *ctx, const uint8_t *next, int rule)
{
    (void)next, (void)rule;
    ++*(int *)ctx;
}

static char *describe(const nsi_model *m, const uint8_t *from, int rule, const uint8_t *to)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = m->describe ? open_memstream(&buf, &len) : NULL;
    if (!mem) {
        char t[32];
        snprintf(t, sizeof t, "rule %d", rule);
        return GC_STRDUP(t);
    }
    m->describe(m->ctx, from, rule, to, mem);
    fclose(mem);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
        buf[--len] = '\0';
    char *copy = GC_STRDUP(buf ? buf : "");
    free(buf);
    return copy;
}

/* One successor: [text, on the trace (0/1), a deadlock (0/1), how many
 * successors it has in turn]. */
static void on_successor(void *ctx, const uint8_t *next, int rule)
{
    succ_ctx *c = ctx;
    if (c->count++ >= REPORT_PAGE_MAX_SUCCESSORS)
        return;
    int after = 0;
    c->m->successors(c->m->ctx, next, count_one, &after);
    bool dead = after == 0 && !(c->m->is_final && c->m->is_final(c->m->ctx, next));
    bool on_trace = c->next_on_trace && memcmp(next, c->next_on_trace, c->m->state_bytes) == 0;
    json_array_append_new(c->list, json_pack("[siii]", describe(c->m, c->state, rule, next), on_trace, dead, after));
}

/* The state's neighbourhood: its successors, and how many there are. */
static void successors_json(json_t *step, const nsi_model *m, const uint8_t *state, const uint8_t *next)
{
    succ_ctx c = {m, state, next, json_array(), 0};
    m->successors(m->ctx, state, on_successor, &c);
    json_object_set_new(step, "succ", c.list);
    json_object_set_new(step, "nsucc", json_integer(c.count));
}

static json_t *step_json(const page *p, const uint8_t *from, int rule, const uint8_t *to)
{
    proto_step_desc d;
    proto_describe_step(p->v->inst, from, rule, to, &d);
    json_t *o = json_object();
    set_string(o, "text", d.text);
    if (d.row_file) {
        char row[PROTO_TEXT_MAX * 4];
        snprintf(row, sizeof row, "%s:%d", d.row_file, d.row_line);
        set_string(o, "row", row);
        set_string(o, "source", source_line(d.row_file, d.row_line));
    } else if (d.kind == PSTEP_BARRIER) {
        set_string(o, "norow", "a CTA barrier is run by the threads' CU");
    } else if (d.kind == PSTEP_LOCAL) {
        set_string(o, "norow", "local memory is the CU's scratchpad, not cached");
    }
    json_object_set_new(o, "rec", record_json(p->v->inst, from, rule, to));
    return o;
}

static json_t *stuck_json(const proto_instance *inst, const uint8_t *state)
{
    proto_reason *r = GC_MALLOC_ATOMIC(sizeof *r * MAX_REASONS);
    int n = proto_stuck_reasons(inst, state, r, MAX_REASONS);
    json_t *a = json_array();
    for (int i = 0; i < n && i < MAX_REASONS; i++)
        json_array_append_new(a, json_pack("[ss]", r[i].who, r[i].why));
    return a;
}

/* The steps of violation w's trace (malloc'd): the shortest path to its
 * state, then a livelock's cycle (*cycle_from: where it begins; 0: none). */
static bfs_step *violation_steps(const bfs_search *s, const violation *w, size_t *n, size_t *cycle_from)
{
    bfs_step *stem = bfs_trace(s, w->index, n);
    *cycle_from = 0;
    if (!stem || !w->cycle)
        return stem;
    bfs_step *all = realloc(stem, sizeof *all * (*n + w->cycle->len));
    if (!all)
        return free(stem), NULL;
    memcpy(all + *n, w->cycle->cycle, sizeof *all * w->cycle->len);
    *cycle_from = *n;
    *n += w->cycle->len;
    return all;
}

/* The trace to violation `w`'s state as data; NULL when out of memory.
 * *chart gets its message-sequence chart. */
static json_t *trace_json_of(const page *p, const violation *w, msc_chart **chart, int *nsteps)
{
    const bfs_search *s = p->v->bfs;
    const nsi_model *m = bfs_model(s);
    size_t n = 0, cycle_from = 0;
    bfs_step *steps = violation_steps(s, w, &n, &cycle_from);
    int nf = proto_state_nfields(p->v->inst);
    proto_state_field *a = GC_MALLOC_ATOMIC(sizeof *a * (size_t)(nf ? nf : 1));
    proto_state_field *b = GC_MALLOC_ATOMIC(sizeof *b * (size_t)(nf ? nf : 1));
    proto_step_desc *d = GC_MALLOC(sizeof *d * (n ? n : 1));     /* holds pointers: the chart keeps them */
    uint8_t *states = steps && n ? bfs_trace_states(s, steps, n) : NULL;
    if (!states)
        return free(steps), NULL;
    size_t sb = m->state_bytes;
    json_t *list = json_array();
    for (size_t k = 0; k < n; k++) {
        const uint8_t *to = states + k * sb;
        const uint8_t *next = k + 1 < n ? states + (k + 1) * sb : NULL;
        json_t *st;
        if (k == 0) {
            st = json_pack("{ss}", "text", "initial state");
        } else {
            const uint8_t *from = states + (k - 1) * sb;
            st = step_json(p, from, steps[k].rule, to);
            proto_describe_step(p->v->inst, from, steps[k].rule, to, &d[k - 1]);
        }
        proto_state_fields(p->v->inst, to, b);
        json_object_set_new(st, "ch", changes_json(b, k ? a : NULL, nf));
        successors_json(st, m, to, next);
        json_array_append_new(list, st);
        proto_state_field *t = a;
        a = b, b = t;
    }
    json_t *o = json_pack("{ss ss so}", "kind", w->kind, "title", w->title, "steps", list);
    if (strcmp(w->kind, "deadlock") == 0)
        json_object_set_new(o, "stuck", stuck_json(p->v->inst, states + (n - 1) * sb));
    if (cycle_from)
        json_object_set_new(o, "cycle_from", json_integer((json_int_t)cycle_from));
    *nsteps = (int)n - 1;
    *chart = msc_build(p->v->inst, d, *nsteps);
    free(steps);
    free(states);
    return o;
}

/* Field names, once for every trace: [component, name, is a channel]. */
static json_t *fields_json(const proto_instance *inst, const bfs_search *s)
{
    int nf = proto_state_nfields(inst);
    proto_state_field *f = GC_MALLOC_ATOMIC(sizeof *f * (size_t)(nf ? nf : 1));
    uint8_t *init = GC_MALLOC_ATOMIC(bfs_model(s)->state_bytes + 1);
    bfs_model(s)->initial(bfs_model(s)->ctx, init);
    proto_state_fields(inst, init, f);
    json_t *a = json_array();
    for (int i = 0; i < nf; i++)
        json_array_append_new(a, json_pack("[ssi]", f[i].component, f[i].name, f[i].name[0] == '\0'));
    return a;
}

static void write_text_report(FILE *out, const void *arg) { verify_print_text(out, arg); }

/* Builds the blob and the charts; false with a message on err. */
static bool build(page *p, FILE *err)
{
    const verify_result *v = p->v;
    const msc_chart **charts = GC_MALLOC(sizeof *charts * (size_t)p->nviolations);
    const char **titles = GC_MALLOC(sizeof *titles * (size_t)p->nviolations);
    int *nsteps = GC_MALLOC_ATOMIC(sizeof *nsteps * (size_t)p->nviolations);
    json_t *traces = json_array();
    for (int i = 0; i < p->nviolations; i++) {
        msc_chart *chart = NULL;
        nsteps[i] = 0;
        json_t *t = trace_json_of(p, &p->violations[i], &chart, &nsteps[i]);
        if (!t) {
            fprintf(err, "scopecheck %s: error: out of memory while building the report\n", p->in->cmd);
            json_decref(traces);
            return false;
        }
        json_array_append_new(traces, t);
        charts[i] = chart;
        titles[i] = gc_format("%s on %s: %s\n%d steps", v->t->name, protocol_name(v->p), p->violations[i].title,
                              nsteps[i]);
    }
    p->svgs = msc_svgs_marked(charts, titles, nsteps, p->nviolations, err);
    p->data = json_pack("{ss ss ss ss so so}", "test", v->t->name, "protocol", protocol_name(v->p), "model",
                        v->settings->model_name, "result", verify_result_word(v), "fields",
                        fields_json(v->inst, v->bfs), "traces", traces);
    p->text_report = gc_text_of(write_text_report, v);
    return p->data != NULL;
}

/* ---- the page --------------------------------------------------------- */

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* graphviz's SVG without its XML prologue and doctype (the page is HTML)
 * and without its namespace declarations, which HTML's parser supplies
 * (so that the page names no URL at all). */
static void inline_svg(FILE *f, const char *svg)
{
    static const char *const drop[] = {" xmlns=\"http://www.w3.org/2000/svg\"",
                                       " xmlns:xlink=\"http://www.w3.org/1999/xlink\""};
    const char *s = strstr(svg, "<svg");
    const char *end = s ? strchr(s, '>') : NULL;
    if (!end)
        return;
    while (s < end) {
        bool dropped = false;
        for (size_t i = 0; i < sizeof drop / sizeof *drop && !dropped; i++)
            if (strncmp(s, drop[i], strlen(drop[i])) == 0)
                s += strlen(drop[i]), dropped = true;
        if (!dropped)
            fputc(*s++, f);
    }
    fputs(end, f);
}

static void write_charts(FILE *f, const page *p)
{
    for (int i = 0; i < p->nviolations; i++) {
        fprintf(f, "<div class=\"msc\" id=\"msc%d\" hidden>", i);
        if (p->svgs[i])
            inline_svg(f, p->svgs[i]);
        else
            fputs("<p>(the chart could not be drawn)</p>", f);
        fputs("</div>\n", f);
    }
}

static void write_head(FILE *f, const page *p)
{
    const verify_result *v = p->v;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    html_text(f, v->t->name);
    fputs(" on ", f);
    html_text(f, protocol_name(v->p));
    fputs(": scopecheck report</title>\n<style>", f);
    fputs(report_page_css, f);
    fputs("</style></head>\n<body>\n<header><h1>", f);
    html_text(f, v->t->name);
    fputs(" on ", f);
    html_text(f, protocol_name(v->p));
    fputs(", model ", f);
    html_text(f, v->settings->model_name);
    fprintf(f, ": <span id=\"result\" class=\"r%s\">", verify_result_word(v));
    html_text(f, verify_result_word(v));
    fputs("</span></h1>\n<p class=\"file\">", f);
    html_text(f, p->in->litmus_path);
    fputs("</p>\n", f);
}

/* The blob as the content of a <script> element: '<' only occurs in
 * JSON strings, where \u003c stands for it, so no "</script>" or "<!--"
 * can end or change the element early. */
static bool write_blob(FILE *f, const json_t *data)
{
    char *text = json_dumps(data, JSON_COMPACT | JSON_ESCAPE_SLASH);
    if (!text)
        return false;
    for (const char *c = text; *c; c++)
        if (*c == '<')
            fputs("\\u003c", f);
        else
            fputc(*c, f);
    free(text);
    return true;
}

static bool write_page(void *ctx, FILE *f, FILE *err)
{
    (void)err;
    const page *p = ctx;
    write_head(f, p);
    fputs(report_page_body, f);
    fputs("<section id=\"charts\">\n", f);
    write_charts(f, p);
    fputs("</section>\n</main>\n<details id=\"text-report\"><summary>The text report</summary><pre>", f);
    html_text(f, p->text_report);
    fputs("</pre></details>\n<script type=\"application/json\" id=\"report-data\">", f);
    if (!write_blob(f, p->data))
        return false;
    fputs("</script>\n<script>", f);
    fputs(report_page_js, f);
    fputs("</script>\n</body></html>\n", f);
    return true;
}

int draw_report_page(const report_page_input *in, const char *path, FILE *err)
{
    page p = {.in = in, .v = in->v};
    collect(&p);
    if (p.nviolations == 0) {
        fprintf(err, "scopecheck %s: no report written to '%s': the check found no violation with a trace to show "
                "(Result %s)\n", in->cmd, path, verify_result_word(in->v));
        return 1;
    }
    if (!build(&p, err))
        return 2;
    int status = output_write_stream(in->cmd, path, write_page, &p, err);
    json_decref(p.data);
    return status;
}

/* ---- litmus --report -------------------------------------------------- */

static bool write_litmus_page(void *ctx, FILE *f, FILE *err)
{
    (void)err;
    const litmus_page_input *in = ctx;
    const exec_picture *pics;
    int n = exec_draw_pictures(in->drawing, &pics);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    html_text(f, in->t->name);
    fputs(": scopecheck executions</title>\n<style>", f);
    fputs(report_page_css, f);
    fputs("</style></head>\n<body>\n<header><h1>", f);
    html_text(f, in->t->name);
    fputs(", model ", f);
    html_text(f, in->model_name);
    fputs("</h1>\n<p class=\"file\">", f);
    html_text(f, in->litmus_path);
    fputs("</p></header>\n<details open id=\"text-report\"><summary>The verdict</summary><pre>", f);
    html_text(f, in->text);
    fputs("</pre></details>\n<nav id=\"executions\">", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "<button data-exec=\"%d\" class=\"%s\">%d %s</button>", i, pics[i].forbidden ? "forbidden" : "",
                i + 1, pics[i].forbidden ? "forbidden" : pics[i].holds ? "allowed, condition holds" : "allowed");
    if (in->more)
        fputs(" <span>(the drawing stopped at the -nshow limit: there may be more executions)</span>", f);
    fputs("</nav>\n<section id=\"execs\">\n", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "<div class=\"exec\" id=\"exec%d\" hidden>", i);
        inline_svg(f, pics[i].svg);
        fputs("</div>\n", f);
    }
    fputs("</section>\n<script>", f);
    fputs(report_litmus_js, f);
    fputs("</script>\n</body></html>\n", f);
    return true;
}

int draw_litmus_report_page(const litmus_page_input *in, const char *path, FILE *err)
{
    const exec_picture *pics;
    if (exec_draw_pictures(in->drawing, &pics) == 0) {
        fprintf(err, "scopecheck litmus: no report written to '%s': no execution to draw\n", path);
        return 1;
    }
    return output_write_stream("litmus", path, write_litmus_page, (void *)in, err);
}
