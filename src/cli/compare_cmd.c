/* cli/compare_cmd.c: `scopecheck compare` (see cli/compare_cmd.h). */
#include "cli/compare_cmd.h"

#include <getopt.h>
#include <gc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/textfile.h"

#define MAX_LOGS 32
/* A herd7 log of the 20,913 diy7 C tests is about 9 MB. */
#define MAX_LOG_BYTES ((size_t)256 << 20)

typedef struct test_entry {
    const char *name;
    const char *verdict;     /* "Ok", "No", "Undef", "Unknown", or "?" */
    bool loop;               /* herd7's "Loop " before the verdict: under a loop bound */
    int nstates, cap;
    const char **states;     /* normalised, sorted */
} test_entry;

typedef struct log_file {
    const char *path;
    int count, cap;
    test_entry *tests;
    int duplicates;          /* blocks of a test already seen in this log (ignored) */
} log_file;

/* A row of the table: the test in each log (NULL where it is absent). */
typedef struct row {
    const char *name;
    test_entry **in;         /* one per log */
    int present;             /* logs that have it */
    bool merged;             /* matched into another row (a name cut at '|') */
} row;

/* ---- a string-keyed hash table (open addressing), linear in all ---- */

typedef struct name_table {
    size_t cap, count;
    const char **keys;
    void **values;
} name_table;

static uint64_t hash_string(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static size_t table_slot(const name_table *t, const char *key)
{
    size_t i = (size_t)hash_string(key) & (t->cap - 1);
    while (t->keys[i] && strcmp(t->keys[i], key))
        i = (i + 1) & (t->cap - 1);
    return i;
}

static void table_init(name_table *t, size_t expected)
{
    t->cap = 64;
    while (t->cap < 2 * expected + 2)
        t->cap *= 2;
    t->count = 0;
    t->keys = GC_MALLOC(sizeof *t->keys * t->cap);
    t->values = GC_MALLOC(sizeof *t->values * t->cap);
}

static void *table_get(const name_table *t, const char *key)
{
    size_t i = table_slot(t, key);
    return t->keys[i] ? t->values[i] : NULL;
}

/* Sets key's value; the table was sized for every key (table_init). */
static void table_put(name_table *t, const char *key, void *value)
{
    size_t i = table_slot(t, key);
    if (!t->keys[i]) {
        t->keys[i] = key;
        t->count++;
    }
    t->values[i] = value;
}

/* ---- reading a log ---- */

/* len bytes of s as a GC string (GC_STRNDUP measures all of s first: over
 * a whole log that is quadratic). */
static char *copy_n(const char *s, size_t len)
{
    char *out = GC_MALLOC_ATOMIC(len + 1);
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One binding "[x]=0x1" -> "x=1": herd7 brackets locations and may print
 * hexadecimal (-hexa). */
static char *normalise_binding(const char *b, size_t n)
{
    while (n > 0 && (*b == ' ' || *b == '\t'))
        b++, n--;
    while (n > 0 && (b[n - 1] == ' ' || b[n - 1] == '\t' || b[n - 1] == '\r'))
        n--;
    const char *eq = memchr(b, '=', n);
    size_t lhs = eq ? (size_t)(eq - b) : n;
    const char *l = b;
    size_t ln = lhs;
    if (ln >= 2 && l[0] == '[' && l[ln - 1] == ']')
        l++, ln -= 2;
    const char *v = eq ? eq + 1 : "";
    size_t vn = eq ? n - lhs - 1 : 0;
    char num[32];
    if (vn > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') && vn < 20) {
        char hex[24];
        memcpy(hex, v, vn);
        hex[vn] = '\0';
        char *end;
        unsigned long long x = strtoull(hex, &end, 16);
        if (*end == '\0') {
            snprintf(num, sizeof num, "%lld", (long long)x);
            v = num;
            vn = strlen(num);
        }
    }
    char *out = GC_MALLOC_ATOMIC(ln + vn + 2);
    memcpy(out, l, ln);
    size_t o = ln;
    if (eq)
        out[o++] = '=';
    memcpy(out + o, v, vn);
    out[o + vn] = '\0';
    return out;
}

/* "1:r0=0; [x]=0x1;" -> "1:r0=0; x=1;", the bindings sorted: herd7 and
 * scopecheck list them in different orders (mcompare7 compares them as
 * sets too). */
static const char *normalise_state(const char *line, size_t len)
{
    const char *bindings[64];
    int n = 0;
    const char *p = line, *end = line + len;
    while (p < end) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *stop = semi ? semi : end;
        char *b = normalise_binding(p, (size_t)(stop - p));
        if (*b) {
            if (n == 64)
                return copy_n(line, len);   /* wider than any test: compared as written */
            bindings[n++] = b;
        }
        p = semi ? semi + 1 : end;
    }
    qsort(bindings, (size_t)n, sizeof *bindings, compare_strings);
    size_t size = 1;
    for (int i = 0; i < n; i++)
        size += strlen(bindings[i]) + 2;
    char *out = GC_MALLOC_ATOMIC(size);
    size_t o = 0;
    for (int i = 0; i < n; i++)
        o += (size_t)sprintf(out + o, "%s%s;", i ? " " : "", bindings[i]);
    out[o] = '\0';
    return out;
}

static test_entry *add_test(log_file *l, const char *name, size_t len)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        test_entry *grown = GC_MALLOC(sizeof *grown * (size_t)l->cap);
        if (l->count)
            memcpy(grown, l->tests, sizeof *grown * (size_t)l->count);
        l->tests = grown;
    }
    test_entry *e = &l->tests[l->count++];
    memset(e, 0, sizeof *e);
    e->name = copy_n(name, len);
    e->verdict = "?";
    return e;
}

static void add_state(test_entry *e, const char *line, size_t len)
{
    if (e->nstates == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 4;
        const char **grown = GC_MALLOC(sizeof *grown * (size_t)e->cap);
        if (e->nstates)
            memcpy(grown, e->states, sizeof *grown * (size_t)e->nstates);
        e->states = grown;
    }
    e->states[e->nstates++] = normalise_state(line, len);
}

static bool starts(const char *line, size_t len, const char *word)
{
    size_t n = strlen(word);
    return len >= n && memcmp(line, word, n) == 0;
}

static bool line_is(const char *line, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(line, word, len) == 0;
}

/* herd7's verdict line: [Loop ](Ok|No|Undef), and scopecheck's Unknown. */
static bool read_verdict(test_entry *e, const char *line, size_t len)
{
    static const char *const verdicts[] = {"Ok", "No", "Undef", "Unknown"};
    bool loop = starts(line, len, "Loop ");
    if (loop)
        line += 5, len -= 5;
    for (size_t i = 0; i < sizeof verdicts / sizeof verdicts[0]; i++)
        if (line_is(line, len, verdicts[i])) {
            e->verdict = verdicts[i];
            e->loop = loop;
            return true;
        }
    return false;
}

/* The line's start and length, without its end of line; the next line. */
static const char *next_line(const char *p, const char *end, size_t *len)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    *len = (size_t)(stop - p);
    if (*len > 0 && p[*len - 1] == '\r')
        (*len)--;
    return nl ? nl + 1 : end;
}

/* "Test NAME KIND": the name's start and length, or NULL. */
static const char *test_name(const char *line, size_t len, size_t *nlen)
{
    if (!starts(line, len, "Test "))
        return NULL;
    const char *name = line + 5;
    const char *end = line + len;
    while (name < end && *name == ' ')
        name++;
    const char *stop = name;
    while (stop < end && *stop != ' ' && *stop != '\t')
        stop++;
    *nlen = (size_t)(stop - name);
    return *nlen ? name : NULL;
}

/* "States N": N, at most what the rest of the text could hold. */
static long states_count(const char *line, size_t len, size_t left)
{
    long n = 0;
    for (size_t i = 7; i < len && line[i] >= '0' && line[i] <= '9'; i++)
        n = n * 10 + (line[i] - '0') > (long)left ? (long)left : n * 10 + (line[i] - '0');
    return n;
}

/* Reads the blocks of a log held in memory: Test, States and the N state
 * lines after it, the verdict.  Linear in the text. */
static void parse_log(log_file *l, const char *text, size_t size)
{
    const char *p = text, *end = text + size;
    test_entry *cur = NULL;
    long want = 0;          /* state lines still to come */
    while (p < end) {
        size_t len;
        const char *line = p;
        p = next_line(p, end, &len);
        size_t nlen;
        const char *name = test_name(line, len, &nlen);
        if (name) {
            cur = add_test(l, name, nlen);
            want = 0;
        } else if (!cur) {
            continue;
        } else if (read_verdict(cur, line, len)) {
            want = 0;
        } else if (want > 0) {
            add_state(cur, line, len);
            want--;
        } else if (starts(line, len, "States ")) {
            want = states_count(line, len, (size_t)(end - p));
        }
    }
}

/* Reads one log (bounded: a device such as /dev/zero or a huge file is
 * refused before reading it whole). */
static bool read_log(log_file *l, FILE *err)
{
    size_t size;
    const char *why;
    char *text = textfile_read(l->path, MAX_LOG_BYTES, &size, &why);
    if (!text) {
        diag_error(err, l->path, 1, 1, "%s", why);
        return false;
    }
    const char *nul = memchr(text, '\0', size);
    if (nul) {
        int line, col;
        textfile_position(text, (size_t)(nul - text), &line, &col);
        diag_error(err, l->path, line, col, "binary data (a NUL byte): not a log of herd's format");
        return false;
    }
    parse_log(l, text, size);
    for (int i = 0; i < l->count; i++)
        if (l->tests[i].nstates > 1)
            qsort(l->tests[i].states, (size_t)l->tests[i].nstates, sizeof(char *), compare_strings);
    if (l->count == 0) {
        diag_error(err, l->path, 1, 1, "no test block (a line \"Test NAME KIND\") in this log");
        return false;
    }
    return true;
}

/* ---- matching tests across logs ---- */

static row *new_row(const char *name, int nlogs)
{
    row *r = GC_MALLOC(sizeof *r);
    r->name = name;
    r->in = GC_MALLOC(sizeof *r->in * (size_t)nlogs);
    return r;
}

/* One row per distinct name, in order of first appearance. */
static row **rows_by_name(log_file *logs, int nlogs, int *nrows)
{
    size_t total = 0;
    for (int i = 0; i < nlogs; i++)
        total += (size_t)logs[i].count;
    row **rows = GC_MALLOC(sizeof *rows * (total ? total : 1));
    name_table byname;
    table_init(&byname, total);
    int n = 0;
    for (int i = 0; i < nlogs; i++)
        for (int j = 0; j < logs[i].count; j++) {
            test_entry *e = &logs[i].tests[j];
            row *r = table_get(&byname, e->name);
            if (!r) {
                r = rows[n++] = new_row(e->name, nlogs);
                table_put(&byname, e->name, r);
            }
            if (r->in[i]) {
                logs[i].duplicates++;
                continue;
            }
            r->in[i] = e;
            r->present++;
        }
    *nrows = n;
    return rows;
}

static bool disjoint(const row *a, const row *b, int nlogs)
{
    for (int i = 0; i < nlogs; i++)
        if (a->in[i] && b->in[i])
            return false;
    return true;
}

/* Legacy herd cuts a test's name at its first '|' ("3LB_..._0|1||2" is
 * "3LB_..._0" in its log): a row named so is matched with the one row whose
 * name begins so and goes on with '|', when no log has both. */
static void match_cut_names(row **rows, int nrows, int nlogs)
{
    name_table bycut;
    table_init(&bycut, (size_t)nrows);
    row ambiguous;          /* the value of a cut name that two rows share */
    for (int i = 0; i < nrows; i++) {
        const char *bar = strchr(rows[i]->name, '|');
        if (!bar)
            continue;
        const char *cut = copy_n(rows[i]->name, (size_t)(bar - rows[i]->name));
        table_put(&bycut, cut, table_get(&bycut, cut) ? (void *)&ambiguous : rows[i]);
    }
    for (int i = 0; i < nrows; i++) {
        row *cut = rows[i];
        if (strchr(cut->name, '|') || cut->present == nlogs)
            continue;
        row *full = table_get(&bycut, cut->name);
        if (!full || full == (void *)&ambiguous || !disjoint(cut, full, nlogs))
            continue;
        for (int l = 0; l < nlogs; l++)
            if (cut->in[l]) {
                full->in[l] = cut->in[l];
                full->present++;
            }
        cut->merged = true;
    }
}

static int compare_rows(const void *a, const void *b)
{
    return strcmp((*(row *const *)a)->name, (*(row *const *)b)->name);
}

/* The rows of the table, sorted by name, each test matched once. */
static row **build_rows(log_file *logs, int nlogs, int *nrows)
{
    int n;
    row **rows = rows_by_name(logs, nlogs, &n);
    match_cut_names(rows, n, nlogs);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!rows[i]->merged)
            rows[kept++] = rows[i];
    qsort(rows, (size_t)kept, sizeof *rows, compare_rows);
    *nrows = kept;
    return rows;
}

/* ---- comparing and printing ---- */

static bool same_states(const test_entry *a, const test_entry *b)
{
    if (a->nstates != b->nstates)
        return false;
    for (int i = 0; i < a->nstates; i++)
        if (strcmp(a->states[i], b->states[i]))
            return false;
    return true;
}

static bool has_state(const test_entry *e, const char *s)
{
    return bsearch(&s, e->states, (size_t)e->nstates, sizeof(char *), compare_strings) != NULL;
}

/* The logs that have the test disagree on the verdict (Loop aside) or on
 * the set of final states. */
static bool row_differs(const row *r, int nlogs)
{
    const test_entry *first = NULL;
    for (int i = 0; i < nlogs; i++) {
        const test_entry *e = r->in[i];
        if (!e)
            continue;
        if (first && (strcmp(first->verdict, e->verdict) || !same_states(first, e)))
            return true;
        if (!first)
            first = e;
    }
    return false;
}

static void usage(FILE *to)
{
    fputs("usage: scopecheck compare [--states] [--diff] LOG LOG...\n"
          "  LOG        a log in herd's format: scopecheck litmus, herd7 or legacy herd output\n"
          "  --states   list the final states one log has and another lacks\n"
          "  --diff     only the tests on which the logs disagree or that some log lacks\n"
          "One row per test, one column per log (verdict and number of states); \"!=\" marks a\n"
          "disagreement on the verdict or on the final states (compared as sets, each state's\n"
          "bindings in any order, herd7's [x] and 0x1 as x and 1; herd7's \"Loop\" before a verdict\n"
          "is shown, not compared); \"not in N\" marks a test that log N lacks.  A name legacy\n"
          "herd cut at '|' matches the full name.  scripts/compare_models.sh runs several models\n"
          "(and herd7, given its log) and compares them.  Exit status: 0 the logs list the same\n"
          "tests and agree on each, 1 some test differs or is missing from a log, 2 unusable\n"
          "input (or no test in common).\n",
          to);
}

static void print_state_diffs(FILE *out, const log_file *logs, int nlogs, const row *r)
{
    for (int i = 0; i < nlogs; i++) {
        const test_entry *a = r->in[i];
        for (int j = 0; a && j < nlogs; j++) {
            const test_entry *b = r->in[j];
            if (j == i || !b)
                continue;
            for (int s = 0; s < a->nstates; s++)
                if (!has_state(b, a->states[s]))
                    fprintf(out, "    only in %s (not in %s): %s\n", logs[i].path, logs[j].path, a->states[s]);
        }
    }
}

static void print_row(FILE *out, const row *r, int nlogs, int width, bool differ)
{
    fprintf(out, "%-*s", width, r->name);
    for (int i = 0; i < nlogs; i++) {
        const test_entry *e = r->in[i];
        char cell[64];
        if (e)
            snprintf(cell, sizeof cell, "%s%s %d", e->loop ? "Loop " : "", e->verdict, e->nstates);
        else
            snprintf(cell, sizeof cell, "-");
        fprintf(out, " | %-10s", cell);
    }
    if (differ)
        fputs(" !=", out);
    if (r->present < nlogs) {
        fputs(" not in", out);
        for (int i = 0, k = 0; i < nlogs; i++)
            if (!r->in[i])
                fprintf(out, "%s%d", k++ ? "," : " ", i + 1);
    }
    fputc('\n', out);
}

/* Options into *states and *only_diff; -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, bool *states, bool *only_diff, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"states", no_argument, NULL, 's'}, {"diff", no_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
    };
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long_only(argc, argv, "+h", longopts, NULL)) != -1) {
        if (ch == 's')
            *states = true;
        else if (ch == 'd')
            *only_diff = true;
        else if (ch == 'h') {
            usage(out);
            return 0;
        } else {
            fprintf(err, "scopecheck compare: error: unknown option '%s'\n", argv[optind - 1]);
            usage(err);
            return 2;
        }
    }
    int nlogs = argc - optind;
    if (nlogs < 1 || nlogs > MAX_LOGS) {
        fprintf(err, "scopecheck compare: error: give 1 to %d logs\n", MAX_LOGS);
        usage(err);
        return 2;
    }
    return -1;
}

/* Two logs or more with no test in common: nothing was compared. */
static bool no_test_in_common(row **rows, int nrows, int nlogs)
{
    if (nlogs < 2)
        return false;
    for (int i = 0; i < nrows; i++)
        if (rows[i]->present > 1)
            return false;
    return true;
}

int compare_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    bool states = false, only_diff = false;
    int status = parse_options(argc, argv, &states, &only_diff, out, err);
    if (status >= 0)
        return status;
    int nlogs = argc - optind;
    log_file *logs = GC_MALLOC(sizeof *logs * (size_t)nlogs);
    for (int i = 0; i < nlogs; i++) {
        logs[i].path = argv[optind + i];
        if (!read_log(&logs[i], err))
            return 2;
    }
    int nrows;
    row **rows = build_rows(logs, nlogs, &nrows);
    for (int i = 0; i < nlogs; i++)
        if (logs[i].duplicates)
            fprintf(err, "scopecheck compare: warning: %s: %d test%s listed twice; the first block of each is "
                    "compared\n", logs[i].path, logs[i].duplicates, logs[i].duplicates == 1 ? "" : "s");
    if (no_test_in_common(rows, nrows, nlogs)) {
        fprintf(err, "scopecheck compare: error: the logs have no test in common (%s: %d test%s, first %s; %s: "
                "%d test%s, first %s): nothing was compared\n", logs[0].path, logs[0].count,
                logs[0].count == 1 ? "" : "s", logs[0].tests[0].name, logs[1].path, logs[1].count,
                logs[1].count == 1 ? "" : "s", logs[1].tests[0].name);
        return 2;
    }
    int width = 4;
    for (int i = 0; i < nrows; i++)
        if ((int)strlen(rows[i]->name) > width)
            width = (int)strlen(rows[i]->name);
    fprintf(out, "%-*s", width, "Test");
    for (int i = 0; i < nlogs; i++)
        fprintf(out, " | %d:%s", i + 1, logs[i].path);
    fputc('\n', out);
    int differing = 0, missing = 0, agree = 0;
    for (int n = 0; n < nrows; n++) {
        bool differ = row_differs(rows[n], nlogs);
        differing += differ;
        missing += rows[n]->present < nlogs;
        agree += !differ && rows[n]->present == nlogs;
        if (only_diff && !differ && rows[n]->present == nlogs)
            continue;
        print_row(out, rows[n], nlogs, width, differ);
        if (differ && states)
            print_state_diffs(out, logs, nlogs, rows[n]);
    }
    fprintf(out, "%d test%s, %d agree%s, %d differ%s", nrows, nrows == 1 ? "" : "s", agree, agree == 1 ? "s" : "",
            differing, differing == 1 ? "s" : "");
    if (missing)
        fprintf(out, ", %d not in every log", missing);
    fputc('\n', out);
    return differing || missing ? 1 : 0;
}
