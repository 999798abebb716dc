/* protocol/html.c: a protocol's tables as HTML (see protocol/html.h). */
#include "protocol/html.h"

#include <ctype.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/textfile.h"
#include "protocol/internal.h"

/* The source file cut into lines, comments and surrounding blanks dropped. */
typedef struct src_lines {
    int n;
    char **line;    /* line[i] is line i+1 of the file */
} src_lines;

static char *trim(char *s)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    return s;
}

/* The file read again (through base/textfile.h, as the parser read it),
 * cut into lines. */
static bool read_lines(const char *path, src_lines *out, FILE *err)
{
    size_t len;
    const char *why;
    char *text = textfile_read(path, PROTO_MAX_FILE_BYTES, &len, &why);
    if (!text) {
        diag_error(err, path, 1, 1, "%s", why);
        return false;
    }
    int cap = 64;
    out->n = 0;
    out->line = GC_MALLOC(sizeof *out->line * (size_t)cap);
    for (char *s = text, *next; s < text + len; s = next) {
        char *nl = memchr(s, '\n', (size_t)(text + len - s));
        next = nl ? nl + 1 : text + len;
        if (nl)
            *nl = '\0';
        if (out->n == cap) {
            cap *= 2;
            out->line = GC_REALLOC(out->line, sizeof *out->line * (size_t)cap);
        }
        out->line[out->n++] = trim(s);
    }
    return true;
}

static void put_escaped_n(FILE *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(s[i], out);
        }
    }
}

static void put_escaped(FILE *out, const char *s) { put_escaped_n(out, s, strlen(s)); }

/* The first word of `s` equals `w`. */
static bool first_word_is(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && (s[n] == '\0' || isspace((unsigned char)s[n]));
}

/* The `k`th word (0-based) of `s` as a GC string, or "". */
static const char *word(const char *s, int k)
{
    for (int i = 0;; i++) {
        while (isspace((unsigned char)*s))
            s++;
        const char *start = s;
        while (*s && !isspace((unsigned char)*s) && *s != ':')
            s++;
        if (s == start)
            return "";
        if (i == k)
            return GC_STRNDUP(start, (size_t)(s - start));
        if (*s == ':')
            s++;
    }
}

static int ctrl_index(const protocol *p, const char *name)
{
    for (int c = 0; c < p->nctrls; c++)
        if (strcmp(p->ctrls[c].name, name) == 0)
            return c;
    return -1;
}

/* owner[i]: -2 not a declaration (blank, table), -1 protocol-wide, else a controller. */
static int *classify(const protocol *p, const src_lines *src)
{
    int *owner = GC_MALLOC_ATOMIC(sizeof *owner * (size_t)(src->n ? src->n : 1));
    int cur = -1;
    bool in_table = false;
    for (int i = 0; i < src->n; i++) {
        const char *s = src->line[i];
        owner[i] = -2;
        if (in_table) {
            if (strcmp(s, "end") == 0)
                in_table = false;
            continue;
        }
        if (!*s)
            continue;
        if (first_word_is(s, "table")) {
            in_table = true;
        } else if (first_word_is(s, "controller")) {
            cur = ctrl_index(p, word(s, 1));
            owner[i] = cur;
        } else if (first_word_is(s, "states") || first_word_is(s, "field") || first_word_is(s, "var") ||
                   first_word_is(s, "final") || first_word_is(s, "hold")) {
            owner[i] = cur;
        } else if (first_word_is(s, "invariant")) {
            owner[i] = ctrl_index(p, word(s, 2));
        } else {
            owner[i] = -1;
        }
    }
    return owner;
}

/* What a declaration line declares, for telling which ones a variant
 * replaces: "final L1", "invariant NAME", "const NAME", "channel NAME",
 * "home NAME", "value", "memory"; NULL for the others (controller,
 * states, field, var add to the base rather than replace it). */
static const char *decl_key(const protocol *p, const char *s, int ctrl)
{
    char *key = NULL;
    if ((first_word_is(s, "final") || first_word_is(s, "hold")) && ctrl >= 0)
        key = GC_MALLOC_ATOMIC(strlen(p->ctrls[ctrl].name) + 8),
        sprintf(key, "%s %s", word(s, 0), p->ctrls[ctrl].name);
    else if (first_word_is(s, "value") || first_word_is(s, "memory"))
        key = GC_STRDUP(word(s, 0));
    else if (first_word_is(s, "invariant") || first_word_is(s, "const") || first_word_is(s, "channel") ||
             first_word_is(s, "home")) {
        const char *w0 = word(s, 0), *w1 = word(s, 1);
        key = GC_MALLOC_ATOMIC(strlen(w0) + strlen(w1) + 2);
        sprintf(key, "%s %s", w0, w1);
    }
    return key;
}

/* Declarations of a base that a later file (its variant) declares again
 * are left out (owner -2): the variant replaced them. */
static void drop_replaced(const protocol *p, const src_lines *src, int **owner)
{
    for (int k = 0; k + 1 < p->nsources; k++)
        for (int i = 0; i < src[k].n; i++) {
            if (owner[k][i] == -2)
                continue;
            const char *key = decl_key(p, src[k].line[i], owner[k][i]);
            for (int later = k + 1; key && later < p->nsources; later++)
                for (int j = 0; j < src[later].n; j++) {
                    const char *other = owner[later][j] == -2 ? NULL
                                      : decl_key(p, src[later].line[j], owner[later][j]);
                    if (other && strcmp(key, other) == 0) {
                        owner[k][i] = -2;
                        key = NULL;
                        break;
                    }
                }
        }
}

/* Splits a row at the '|' that are not part of '||'; up to `max` cells. */
static int split_row(const char *s, const char **cell, size_t *len, int max)
{
    int n = 0;
    const char *start = s;
    for (const char *q = s;; q++) {
        if (*q == '|' && q[1] == '|') {
            q++;
            continue;
        }
        if (*q == '|' || *q == '\0') {
            if (n == max)
                return max + 1;
            const char *a = start, *b = q;
            while (a < b && isspace((unsigned char)*a))
                a++;
            while (b > a && isspace((unsigned char)b[-1]))
                b--;
            cell[n] = a;
            len[n++] = (size_t)(b - a);
            if (!*q)
                return n;
            start = q + 1;
        }
    }
}

static void write_decls(FILE *out, const src_lines *src, const int *owner, int who)
{
    bool any = false;
    for (int i = 0; i < src->n; i++) {
        if (owner[i] != who)
            continue;
        fputs(any ? "\n" : "<pre class=\"decls\">", out);
        put_escaped(out, src->line[i]);
        any = true;
    }
    if (any)
        fputs("</pre>\n", out);
}

/* The source lines of the file a row was written in (a variant's rows
 * come from its base or from itself). */
static const src_lines *row_source(const protocol *p, const src_lines *srcs, const prow *row)
{
    for (int k = 0; k < p->nsources; k++)
        if (row->path && strcmp(p->sources[k], row->path) == 0)
            return &srcs[k];
    return &srcs[p->nsources - 1];
}

/* Rows not written in the root base: a variant's own (changed or added). */
static bool row_changed(const protocol *p, const prow *row)
{
    return p->nsources > 1 && row->path && strcmp(row->path, p->sources[0]) != 0;
}

static void write_table(FILE *out, const protocol *p, const pctrl *c, const src_lines *srcs)
{
    static const char *const head[5] = {"state", "event", "guard", "actions", "next"};
    fprintf(out, "<table>\n<tr>");
    for (int k = 0; k < 5; k++)
        fprintf(out, "<th>%s</th>", head[k]);
    fputs("<th>line</th></tr>\n", out);
    for (int r = 0; r < c->nrows; r++) {
        const prow *row = &c->rows[r];
        const src_lines *src = row_source(p, srcs, row);
        const char *text = row->line >= 1 && row->line <= src->n ? src->line[row->line - 1] : "";
        if (text[0] == '+')     /* a row a variant adds */
            text++;
        const char *cell[5];
        size_t len[5];
        int n = split_row(text, cell, len, 5);
        fputs(row_changed(p, row) ? "<tr class=\"changed\">" : "<tr>", out);
        if (n == 5) {
            for (int k = 0; k < 5; k++) {
                fputs("<td><code>", out);
                put_escaped_n(out, cell[k], len[k]);
                fputs("</code></td>", out);
            }
        } else {
            fputs("<td colspan=\"5\"><code>", out);
            put_escaped(out, text);
            fputs("</code></td>", out);
        }
        fputs("<td class=\"ln\">", out);
        if (row->path && strcmp(row->path, p->path) != 0) {     /* inherited from the base */
            const char *slash = strrchr(row->path, '/');
            put_escaped(out, slash ? slash + 1 : row->path);
            fputc(':', out);
        }
        fprintf(out, "%d</td></tr>\n", row->line);
    }
    fputs("</table>\n", out);
}

/* ---- the state x event matrix ------------------------------------------------- */
/* A row's five cells as written (a variant's '+' dropped); false when
 * the source line does not split into five. */
static bool row_cells(const protocol *p, const src_lines *srcs, const prow *row, const char **cell, size_t *len)
{
    const src_lines *src = row_source(p, srcs, row);
    const char *text = row->line >= 1 && row->line <= src->n ? src->line[row->line - 1] : "";
    if (text[0] == '+')
        text++;
    return split_row(text, cell, len, 5) == 5;
}

/* The text of a cell with runs of blanks made one (column keys). */
static char *squeezed(const char *s, size_t n)
{
    char *out = GC_MALLOC_ATOMIC(n + 1), *q = out;
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]) || (q > out && q[-1] != ' '))
            *q++ = isspace((unsigned char)s[i]) ? ' ' : s[i];
    *q = '\0';
    return out;
}

/* Whether row `row` applies to state `st`. */
static bool row_has_state(const prow *row, int st) { return row->states >> st & 1; }

/* One cell: every row of (state, event) in the order they are tried,
 * "[guard] actions -> next" ("-" for no action, "-> S" when the state
 * changes), a variant's rows marked. */
static void write_cell(FILE *out, const protocol *p, const pctrl *c, const src_lines *srcs, int st, const char *event)
{
    for (int r = 0; r < c->nrows; r++) {
        const prow *row = &c->rows[r];
        const char *cell[5];
        size_t len[5];
        if (!row_has_state(row, st) || !row_cells(p, srcs, row, cell, len) || strcmp(squeezed(cell[1], len[1]), event))
            continue;
        fprintf(out, "<div class=\"%s\" title=\"", row_changed(p, row) ? "rule changed" : "rule");
        put_escaped(out, row->path ? row->path : "");
        fprintf(out, ":%d\"><code>", row->line);
        if (len[2]) {
            fputs("<span class=\"guard\">[", out);
            put_escaped_n(out, cell[2], len[2]);
            fputs("]</span> ", out);
        }
        if (len[3])
            put_escaped_n(out, cell[3], len[3]);
        else
            fputs("-", out);
        if (row->next >= 0)
            fprintf(out, " <b>&rarr; %s</b>", c->states[row->next]);
        fputs("</code></div>", out);
    }
}

/* The seeds' form: rows are states, columns events (as the table writes
 * their patterns, in order of first use), cells what the rows do. */
static void write_matrix(FILE *out, const protocol *p, const pctrl *c, const src_lines *srcs)
{
    const char **events = GC_MALLOC(sizeof *events * (size_t)(c->nrows ? c->nrows : 1));
    int nev = 0;
    for (int r = 0; r < c->nrows; r++) {
        const char *cell[5];
        size_t len[5];
        if (!row_cells(p, srcs, &c->rows[r], cell, len))
            continue;
        const char *ev = squeezed(cell[1], len[1]);
        int k = 0;
        while (k < nev && strcmp(events[k], ev))
            k++;
        if (k == nev)
            events[nev++] = ev;
    }
    fputs("<table class=\"matrix\">\n<tr><th>state \\ event</th>", out);
    for (int k = 0; k < nev; k++) {
        fputs("<th><code>", out);
        put_escaped(out, events[k]);
        fputs("</code></th>", out);
    }
    fputs("</tr>\n", out);
    for (int st = 0; st < c->nstates; st++) {
        fputs("<tr><th><code>", out);
        put_escaped(out, c->states[st]);
        fputs("</code></th>", out);
        for (int k = 0; k < nev; k++) {
            fputs("<td>", out);
            write_cell(out, p, c, srcs, st, events[k]);
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

bool proto_html_write(const protocol *p, FILE *out, FILE *err)
{
    src_lines *src = GC_MALLOC(sizeof *src * (size_t)p->nsources);
    int **owner = GC_MALLOC(sizeof *owner * (size_t)p->nsources);
    for (int k = 0; k < p->nsources; k++) {
        if (!read_lines(p->sources[k], &src[k], err))
            return false;
        owner[k] = classify(p, &src[k]);
    }
    drop_replaced(p, src, owner);
    fputs("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    put_escaped(out, p->name);
    fputs(" transition tables</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 2em; }\n"
          "table { border-collapse: collapse; margin-bottom: 2em; }\n"
          "th, td { border: 1px solid #999; padding: 2px 8px; text-align: left; vertical-align: top; }\n"
          "th { background: #eee; }\n"
          "tr:nth-child(even) td { background: #f7f7f7; }\n"
          "td.ln { color: #888; font-size: smaller; }\n"
          "pre.decls { background: #f4f4f4; padding: 0.5em; }\n"
          "table.matrix td div.rule + div.rule { border-top: 1px dotted #999; }\n"
          "div.changed, tr.changed td { background: #fff3b0 !important; }\n"
          "span.guard { color: #555; }\n"
          "</style>\n</head>\n<body>\n<h1>protocol ",
          out);
    put_escaped(out, p->name);
    fputs("</h1>\n<p>Source: <code>", out);
    for (int k = p->nsources - 1; k >= 0; k--) {    /* a variant, then what it extends */
        put_escaped(out, p->sources[k]);
        fputs(k ? "</code>, extending <code>" : "", out);
    }
    fputs("</code></p>\n", out);
    if (p->nsources > 1)
        fputs("<p>Rows the variant changed or added are <span class=\"changed\">highlighted</span>; the "
              "base's declarations it replaced are left out.</p>\n", out);
    fputs("<h2>Declarations</h2>\n", out);
    for (int k = 0; k < p->nsources; k++)
        write_decls(out, &src[k], owner[k], -1);
    for (int c = 0; c < p->nctrls; c++) {
        const pctrl *pc = &p->ctrls[c];
        fputs("<h2 id=\"", out);
        put_escaped(out, pc->name);
        fputs("\">controller ", out);
        put_escaped(out, pc->name);
        fputs("</h2>\n", out);
        for (int k = 0; k < p->nsources; k++)
            write_decls(out, &src[k], owner[k], c);
        write_table(out, p, pc, src);
        fputs("<h3>", out);
        put_escaped(out, pc->name);
        fputs(" as a state &times; event matrix</h3>\n", out);
        write_matrix(out, p, pc, src);
    }
    fputs("</body>\n</html>\n", out);
    return !ferror(out);
}
