/* cli/herd_args.c: see cli/herd_args.h. */
#include "cli/herd_args.h"

#include <gc.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define FIGURE_ONLY "it only styles herd7's pictures; scopecheck draws its own (docs/drawings.md)"
#define LIBDIR_ADVICE \
    "scopecheck takes herd's library as -I DIR or -set-libdir DIR (litmus and verify), or reads $HERDLIB"

/* A herd7 option (herd7 7.58's -help, legacy herd's): `same` is the value
 * that asks for what scopecheck does anyway ("*": any value; "": the option
 * takes none), NULL when the option is refused whatever its value. */
typedef struct herd_option {
    const char *name;
    const char *same;
    const char *advice;
} herd_option;

static const herd_option herd_options[] = {
    {"conf", NULL, "scopecheck reads no configuration file; give the options on the command line (-model, -unroll)"},
    {"c11", NULL, "scopecheck reads no configuration file; give the options on the command line (-model, -unroll)"},
    {"web", NULL, "scopecheck reads no configuration file; give the options on the command line (-model, -unroll)"},
    {"set-libdir", NULL, LIBDIR_ADVICE},
    {"libdir", NULL, LIBDIR_ADVICE},
    {"I", NULL, LIBDIR_ADVICE},
    {"version", NULL, "run `scopecheck version`"},
    {"v", "", "scopecheck has no verbose mode; warnings are printed unless -q"},
    {"bell", NULL, "scopecheck has no bell files: scopes come from the litmus test's placement"},
    {"macros", NULL, "scopecheck has no macro files"},
    {"through", NULL, "only consistent executions are counted; litmus -show all -through invalid -o DIR draws the others"},
    {"throughflag", NULL, "flags are reported for every consistent execution; use --races to list racing pairs"},
    {"showflag", NULL, "draw with -show prop|neg|all; --races lists the racing pairs"},
    {"skipcheck", NULL, "edit a copy of the .cat file and give it with -model PATH.cat"},
    {"skipchecks", NULL, "edit a copy of the .cat file and give it with -model PATH.cat"},
    {"strictskip", "false", "edit a copy of the .cat file and give it with -model PATH.cat"},
    {"initwrites", "true", "initial writes are always events (the set IW) in scopecheck's models"},
    {"speedcheck", "false", "scopecheck always lists every final state"},
    {"variant", NULL, "verify's variants are part of the model: choose it with -model (ptx6, ptx75, opencl, ...); litmus takes --variant V"},
    {"hexa", "false", "values are printed in decimal"},
    {"gv", NULL, "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"evince", NULL, "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"preview", NULL, "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"view", NULL, "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"showone", "false", "draw one execution with -show prop -o DIR -nshow 1"},
    {"dumpes", "false", "event structures are not dumped; use --json for the final states"},
    {"optace", "*", "scopecheck builds its candidates its own way; the verdicts do not depend on it"},
    {"morefences", "*", "herd7 says it does nothing (deprecated)"},
    {"machsize", "auto", "values are 64-bit integers"},
    {"endian", NULL, "values are integers; there is no byte order"},
    {"archcheck", "true", "the dialect is read from the test's first word (PTX, OPENCL, C)"},
    {"cycles", NULL, "use -show prop -o DIR to draw the executions"},
    {"suffix", NULL, "files written with -o DIR are named DIR/TEST.dot and DIR/TEST-N.svg"},
    {"debug", NULL, "scopecheck has no debug switches"},
    {"switch", NULL, "scopecheck has no such switch"},
    {"statelessrc11", "false", "scopecheck has no RC11-specific checker"},
    {"maxphantom", NULL, "scopecheck has no phantom updates"},
    {"checkfilter", "true", "a test's filter is always applied, as herd7 does by default"},
    {"badexecs", "true", "flagged executions are always reported (Flag lines); --races lists the racing pairs"},
    {"badflag", NULL, "use --races to list the racing pairs of flagged executions"},
    {"names", NULL, "name the tests (files or directories) on the command line"},
    {"excl", NULL, "name the tests (files or directories) on the command line"},
    {"rename", NULL, "name the tests (files or directories) on the command line"},
    {"kinds", NULL, "the test's own quantifier is used"},
    {"conds", NULL, "the test's own condition is used"},
    {"restrict", "none", "every final state is listed"},
    {"outcomereads", "false", "the final state lists the registers and locations the condition names"},
    {"candidates", "false", "--json gives \"candidates\" and \"consistent\" counts"},
    {"dumpallfaults", NULL, "scopecheck has no faults"},
    {"exit", "false", "every file is checked, and the exit status says what happened (0, 2, 3; docs/exit-status.md)"},
    /* figure styling: what is drawn does not change */
    {"graph", "*", FIGURE_ONLY},          {"dotmode", "*", FIGURE_ONLY},      {"dotcom", "*", FIGURE_ONLY},
    {"showevents", "*", FIGURE_ONLY},     {"mono", "*", FIGURE_ONLY},         {"scale", "*", FIGURE_ONLY},
    {"xscale", "*", FIGURE_ONLY},         {"yscale", "*", FIGURE_ONLY},       {"dsiy", "*", FIGURE_ONLY},
    {"siwidth", "*", FIGURE_ONLY},        {"ptscale", "*", FIGURE_ONLY},      {"boxscale", "*", FIGURE_ONLY},
    {"showthread", "*", FIGURE_ONLY},     {"shift", "*", FIGURE_ONLY},        {"edgemerge", "*", FIGURE_ONLY},
    {"labelinit", "*", FIGURE_ONLY},      {"showlegend", "*", FIGURE_ONLY},   {"showkind", "*", FIGURE_ONLY},
    {"shortlegend", "*", FIGURE_ONLY},    {"squished", "*", FIGURE_ONLY},     {"fixedsize", "*", FIGURE_ONLY},
    {"extrachars", "*", FIGURE_ONLY},     {"showobserved", "*", FIGURE_ONLY}, {"brackets", "*", FIGURE_ONLY},
    {"texmacros", "*", FIGURE_ONLY},      {"tikz", "*", FIGURE_ONLY},         {"showpo", "*", FIGURE_ONLY},
    {"showinitrf", "*", FIGURE_ONLY},     {"showfinalrf", "*", FIGURE_ONLY},  {"initrfpos", "*", FIGURE_ONLY},
    {"finalrfpos", "*", FIGURE_ONLY},     {"oneinit", "*", FIGURE_ONLY},      {"initpos", "*", FIGURE_ONLY},
    {"showinitwrites", "*", FIGURE_ONLY}, {"threadposy", "*", FIGURE_ONLY},   {"doshow", "*", FIGURE_ONLY},
    {"unshow", "*", FIGURE_ONLY},         {"symetric", "*", FIGURE_ONLY},     {"noid", "*", FIGURE_ONLY},
    {"classes", "*", FIGURE_ONLY},        {"showraw", "*", FIGURE_ONLY},      {"splines", "*", FIGURE_ONLY},
    {"margin", "*", FIGURE_ONLY},         {"pad", "*", FIGURE_ONLY},          {"sep", "*", FIGURE_ONLY},
    {"fontname", "*", FIGURE_ONLY},       {"fontsize", "*", FIGURE_ONLY},     {"edgefontsizedelta", "*", FIGURE_ONLY},
    {"penwidth", "*", FIGURE_ONLY},       {"arrowsize", "*", FIGURE_ONLY},    {"edgeattr", "*", FIGURE_ONLY},
    {"overlap", "*", FIGURE_ONLY},        {"relabel", "*", FIGURE_ONLY},      {"withbox", "*", FIGURE_ONLY},
    {"labelbox", "*", FIGURE_ONLY},       {"movelabel", "*", FIGURE_ONLY},    {"dotheader", "*", FIGURE_ONLY},
};

#define NHERD (sizeof herd_options / sizeof herd_options[0])

/* The option's name as typed: after one or two dashes, before '='. */
static const char *option_name(const char *arg, size_t *len)
{
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    *len = strcspn(name, "=");
    return name;
}

static bool name_is(const char *want, const char *name, size_t len)
{
    return strlen(want) == len && strncmp(want, name, len) == 0;
}

static const herd_option *herd_find(const char *name, size_t len)
{
    for (size_t i = 0; i < NHERD; i++)
        if (name_is(herd_options[i].name, name, len))
            return &herd_options[i];
    return NULL;
}

const char *herd_option_advice(const char *arg)
{
    if (!arg || arg[0] != '-')
        return NULL;
    size_t len;
    const char *name = option_name(arg, &len);
    const herd_option *h = herd_find(name, len);
    return h ? h->advice : NULL;
}

static const struct option *long_find(const struct option *longopts, const char *name, size_t len)
{
    for (const struct option *o = longopts; o->name; o++)
        if (name_is(o->name, name, len))
            return o;
    return NULL;
}

/* ':' after the letter in getopt's string: the short option takes a value. */
static int short_arity(const char *shortopts, char c)
{
    const char *p = c && c != ':' && c != '+' ? strchr(shortopts, c) : NULL;
    return !p ? -1 : p[1] == ':';
}

static size_t min3(size_t a, size_t b, size_t c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

/* Levenshtein distance of two short names (options are under 64 letters). */
static size_t distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1 / 2;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            row[j] = min3(row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1]));
            diag = up;
        }
    }
    return row[lb];
}

/* How far a typed name is from a known one: 0 when it begins it (an
 * abbreviation), else twice the edit distance, plus one when the first
 * letters differ (ties go to the option that starts alike). */
static size_t score(const char *name, size_t len, const char *known)
{
    if (len > 0 && strncmp(name, known, len) == 0)
        return 0;
    return 2 * distance(name, len, known) + (len == 0 || name[0] != known[0]);
}

/* The known option nearest to name (ours first, then herd7's), without its
 * dash; one-letter options only for a one-letter name. */
static const char *nearest(const char *name, size_t len, const struct option *longopts, const char *shortopts)
{
    const char *best = NULL;
    size_t best_score = (size_t)-1;
    char letter[2] = {0, 0};
    for (const char *s = len == 1 ? shortopts : ""; *s; s++) {
        letter[0] = *s;
        size_t d = *s == ':' || *s == '+' ? (size_t)-1 : score(name, len, letter);
        if (d < best_score) {
            best_score = d;
            best = GC_STRDUP(letter);
        }
    }
    for (const struct option *o = longopts; o->name; o++) {
        size_t d = score(name, len, o->name);
        if (d < best_score) {
            best_score = d;
            best = o->name;
        }
    }
    for (size_t i = 0; i < NHERD; i++) {
        size_t d = score(name, len, herd_options[i].name);
        if (d < best_score) {
            best_score = d;
            best = herd_options[i].name;
        }
    }
    return best ? best : "help";
}

static void append_note(const char **notes, const char *cmd, const char *arg, const char *value,
                        const char *advice)
{
    const char *old = *notes ? *notes : "";
    size_t size = strlen(old) + strlen(cmd) + strlen(arg) + strlen(value) + strlen(advice) + 64;
    char *s = GC_MALLOC_ATOMIC(size);
    snprintf(s, size, "%sscopecheck %s: note: herd7's option %s%s%s is ignored: %s\n", old, cmd, arg,
             *value ? " " : "", value, advice);
    *notes = s;
}

/* A herd7 option at argv[i]: 0 when it is accepted (and how many
 * arguments it spans in *span), 2 after its error. */
static int herd_option_at(const char *cmd, const herd_option *h, int argc, char **argv, int i, int *span,
                          const char **notes, FILE *err)
{
    const char *eq = strchr(argv[i], '=');
    bool takes_value = h->same && *h->same;
    const char *value = eq ? eq + 1 : takes_value && i + 1 < argc ? argv[i + 1] : "";
    if (h->same && (!strcmp(h->same, "*") || !strcmp(h->same, value)) && (takes_value || !eq)) {
        *span = takes_value && !eq ? 2 : 1;
        append_note(notes, cmd, GC_STRNDUP(argv[i], eq ? (size_t)(eq - argv[i]) : strlen(argv[i])), value,
                    h->advice);
        return 0;
    }
    fprintf(err, "scopecheck %s: error: herd7's option %.*s is not supported: %s", cmd,
            (int)(eq ? eq - argv[i] : (int)strlen(argv[i])), argv[i], h->advice);
    if (h->same && strcmp(h->same, "*") && *h->same)
        fprintf(err, " (only -%s %s, what scopecheck does anyway, is accepted)", h->name, h->same);
    fputc('\n', err);
    return 2;
}

/* How many arguments the option at argv[i] spans when getopt reads it as
 * typed; 0 when it is not one of ours. */
static int our_option_span(const char *arg, const struct option *longopts, const char *shortopts)
{
    size_t len;
    const char *name = option_name(arg, &len);
    const struct option *o = long_find(longopts, name, len);
    if (o)
        return o->has_arg == required_argument && !name[len] ? 2 : 1;
    if (arg[1] == '-')
        return 0;
    int arity = short_arity(shortopts, arg[1]);
    if (arity < 0)
        return 0;
    if (!arg[2])
        return 1 + arity;
    bool attached_value = arity == 1 && (strchr("0123456789/.", arg[2]) != NULL);
    return attached_value ? 1 : 0;
}

int herd_args_check(const char *cmd, int *argc, char **argv, const struct option *longopts,
                    const char *shortopts, const char **notes, FILE *err)
{
    *notes = NULL;
    int i = 1;
    while (i < *argc) {
        const char *arg = argv[i];
        if (arg[0] != '-' || !arg[1] || !strcmp(arg, "--"))
            break;
        int span = our_option_span(arg, longopts, shortopts);
        if (span > 0) {
            i += span;
            continue;
        }
        size_t len;
        const char *name = option_name(arg, &len);
        const herd_option *h = herd_find(name, len);
        if (!h) {
            fprintf(err, "scopecheck %s: error: unknown option '%s' (the nearest option is -%s; "
                    "scopecheck %s --help lists them)\n", cmd, arg, nearest(name, len, longopts, shortopts), cmd);
            return 2;
        }
        if (herd_option_at(cmd, h, *argc, argv, i, &span, notes, err) != 0)
            return 2;
        memmove(&argv[i], &argv[i + span], sizeof *argv * (size_t)(*argc - i - span + 1));
        *argc -= span;
    }
    return -1;
}
