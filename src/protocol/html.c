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
                   first_word_is(s, "final")) {
            owner[i] = cur;
        } else if (first_word_is(s, "invariant")) {
            owner[i] = ctrl_index(p, word(s, 2));
        } else {
            owner[i] = -1;
        }
    }
    return owner;
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
        fputs("<tr>", out);
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

bool proto_html_write(const protocol *p, FILE *out, FILE *err)
{
    src_lines *src = GC_MALLOC(sizeof *src * (size_t)p->nsources);
    int **owner = GC_MALLOC(sizeof *owner * (size_t)p->nsources);
    for (int k = 0; k < p->nsources; k++) {
        if (!read_lines(p->sources[k], &src[k], err))
            return false;
        owner[k] = classify(p, &src[k]);
    }
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
          "</style>\n</head>\n<body>\n<h1>protocol ",
          out);
    put_escaped(out, p->name);
    fputs("</h1>\n<p>Source: <code>", out);
    for (int k = p->nsources - 1; k >= 0; k--) {    /* a variant, then what it extends */
        put_escaped(out, p->sources[k]);
        fputs(k ? "</code>, extending <code>" : "", out);
    }
    fputs("</code></p>\n<h2>Declarations</h2>\n", out);
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
    }
    fputs("</body>\n</html>\n", out);
    return !ferror(out);
}
