/* cli/compare_cmd.c: `scopecheck compare` (see cli/compare_cmd.h). */
#include "cli/compare_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOGS 32
#define MAX_LINE 65536

typedef struct test_entry {
    const char *name;
    const char *verdict;     /* "Ok", "No", "Undef", "Unknown", or "?" */
    int nstates;
    const char **states;     /* normalised, sorted */
    const char *hash;
} test_entry;

typedef struct log_file {
    const char *path;
    int count, cap;
    test_entry *tests;
} log_file;

/* "[x]=0x1;" -> "x=1;": herd7 brackets locations and may print hex. */
static const char *normalise_state(const char *line)
{
    size_t n = strlen(line);
    char *out = GC_MALLOC_ATOMIC(n * 3 + 2);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (line[i] == '[' || line[i] == ']') {
            i++;
            continue;
        }
        if (line[i] == '=' && i + 2 < n && line[i + 1] == '0' && line[i + 2] == 'x') {
            char *end;
            long long v = strtoll(line + i + 1, &end, 16);
            o += (size_t)snprintf(out + o, 32, "=%lld", v);
            i = (size_t)(end - line);
            continue;
        }
        out[o++] = line[i++];
    }
    while (o > 0 && (out[o - 1] == ' ' || out[o - 1] == '\r'))
        o--;
    out[o] = '\0';
    return out;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static test_entry *add_test(log_file *l, const char *name)
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
    e->name = GC_STRDUP(name);
    e->verdict = "?";
    return e;
}

static bool is_verdict(const char *s)
{
    return !strcmp(s, "Ok") || !strcmp(s, "No") || !strcmp(s, "Undef") || !strcmp(s, "Unknown");
}

static char *chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Reads the blocks of one log. */
static bool read_log(log_file *l, FILE *err)
{
    FILE *f = fopen(l->path, "r");
    if (!f) {
        fprintf(err, "%s: error: cannot open: %s\n", l->path, strerror(errno));
        return false;
    }
    char *line = malloc(MAX_LINE);
    test_entry *cur = NULL;
    int want_states = 0;
    while (line && fgets(line, MAX_LINE, f)) {
        chomp(line);
        if (want_states > 0) {
            cur->states[cur->nstates++] = normalise_state(line);
            want_states--;
            continue;
        }
        char name[4096];
        int k;
        if (sscanf(line, "Test %4095s", name) == 1 && strncmp(line, "Test ", 5) == 0) {
            cur = add_test(l, name);
        } else if (cur && sscanf(line, "States %d", &k) == 1 && k >= 0 && k < 1000000) {
            cur->states = GC_MALLOC(sizeof *cur->states * (size_t)(k ? k : 1));
            cur->nstates = 0;
            want_states = k;
        } else if (cur && is_verdict(line)) {
            cur->verdict = GC_STRDUP(line);
        } else if (cur && strncmp(line, "Hash=", 5) == 0) {
            cur->hash = GC_STRDUP(line + 5);
        }
    }
    free(line);
    fclose(f);
    for (int i = 0; i < l->count; i++)
        if (l->tests[i].nstates > 1)
            qsort(l->tests[i].states, (size_t)l->tests[i].nstates, sizeof(char *), compare_strings);
    if (l->count == 0) {
        fprintf(err, "%s: error: no test block (a line \"Test NAME KIND\") in this log\n", l->path);
        return false;
    }
    return true;
}

static const test_entry *find(const log_file *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (!strcmp(l->tests[i].name, name))
            return &l->tests[i];
    return NULL;
}

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

/* Every test name of every log, sorted, once. */
static const char **all_names(const log_file *logs, int nlogs, int *n)
{
    int total = 0;
    for (int i = 0; i < nlogs; i++)
        total += logs[i].count;
    const char **names = GC_MALLOC(sizeof *names * (size_t)(total ? total : 1));
    int k = 0;
    for (int i = 0; i < nlogs; i++)
        for (int j = 0; j < logs[i].count; j++)
            names[k++] = logs[i].tests[j].name;
    qsort(names, (size_t)k, sizeof *names, compare_strings);
    int u = 0;
    for (int i = 0; i < k; i++)
        if (u == 0 || strcmp(names[u - 1], names[i]))
            names[u++] = names[i];
    *n = u;
    return names;
}

static void usage(FILE *to)
{
    fputs("usage: scopecheck compare [--states] [--diff] LOG LOG...\n"
          "  LOG        a log in herd's format: scopecheck litmus, herd7 or legacy herd output\n"
          "  --states   list the final states one log has and another lacks\n"
          "  --diff     only the tests on which the logs disagree\n"
          "One row per test, one column per log (verdict and number of states); \"!=\" marks a\n"
          "disagreement on the verdict or on the final states.  scripts/compare_models.sh runs\n"
          "several models (and herd7, given its log) and compares them.  Exit status: 0 the logs\n"
          "agree, 1 some test differs, 2 unusable input.\n",
          to);
}

static void print_state_diffs(FILE *out, const log_file *logs, int nlogs, const char *name)
{
    for (int i = 0; i < nlogs; i++) {
        const test_entry *a = find(&logs[i], name);
        if (!a)
            continue;
        for (int j = 0; j < nlogs; j++) {
            const test_entry *b = find(&logs[j], name);
            if (j == i || !b)
                continue;
            for (int s = 0; s < a->nstates; s++)
                if (!has_state(b, a->states[s]))
                    fprintf(out, "    only in %s (not in %s): %s\n", logs[i].path, logs[j].path, a->states[s]);
        }
    }
}

int compare_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"states", no_argument, NULL, 's'}, {"diff", no_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
    };
    bool states = false, only_diff = false;
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long_only(argc, argv, "+h", longopts, NULL)) != -1) {
        if (ch == 's')
            states = true;
        else if (ch == 'd')
            only_diff = true;
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
    log_file *logs = GC_MALLOC(sizeof *logs * (size_t)nlogs);
    for (int i = 0; i < nlogs; i++) {
        memset(&logs[i], 0, sizeof logs[i]);
        logs[i].path = argv[optind + i];
        if (!read_log(&logs[i], err))
            return 2;
    }
    int nnames;
    const char **names = all_names(logs, nlogs, &nnames);
    int width = 4;
    for (int i = 0; i < nnames; i++)
        if ((int)strlen(names[i]) > width)
            width = (int)strlen(names[i]);
    fprintf(out, "%-*s", width, "Test");
    for (int i = 0; i < nlogs; i++)
        fprintf(out, " | %d:%s", i + 1, logs[i].path);
    fputc('\n', out);
    int differing = 0;
    for (int n = 0; n < nnames; n++) {
        const test_entry *first = NULL;
        bool differ = false;
        for (int i = 0; i < nlogs; i++) {
            const test_entry *e = find(&logs[i], names[n]);
            if (!e)
                continue;
            if (first && (strcmp(first->verdict, e->verdict) || !same_states(first, e)))
                differ = true;
            if (!first)
                first = e;
        }
        differing += differ;
        if (only_diff && !differ)
            continue;
        fprintf(out, "%-*s", width, names[n]);
        for (int i = 0; i < nlogs; i++) {
            const test_entry *e = find(&logs[i], names[n]);
            char cell[64];
            if (e)
                snprintf(cell, sizeof cell, "%s %d", e->verdict, e->nstates);
            else
                snprintf(cell, sizeof cell, "-");
            fprintf(out, " | %-10s", cell);
        }
        fputs(differ ? " !=\n" : "\n", out);
        if (differ && states)
            print_state_diffs(out, logs, nlogs, names[n]);
    }
    fprintf(out, "%d test%s, %d differ%s\n", nnames, nnames == 1 ? "" : "s", differing,
            differing == 1 ? "s" : "");
    return differing ? 1 : 0;
}
