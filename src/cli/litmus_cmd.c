/* cli/litmus_cmd.c: `scopecheck litmus` (see cli/litmus_cmd.h). */
#include "cli/litmus_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"
#include "cli/draw_load.h"
#include "cli/file_list.h"
#include "cli/herd_args.h"
#include "base/interrupt.h"
#include "verify/limit_args.h"
#include "cli/json_error.h"
#include "cli/model_path.h"
#include "verify/schedule_opts.h"
#include "report/live.h"
#include "cli/output.h"
#include "cli/parallel.h"
#include "report/report.h"
#include "report/status.h"

#define MAX_UNROLL 64

/* A run checks file after file and keeps almost nothing from one to the
 * next.  From the collector's smallest heap that is a collection every few
 * files, about 0.1 ms each (it scans the data of every loaded library); a
 * heap of 2 MiB from the start spaces them out.  With the reader's buffer
 * sized to the file, 2 MiB costs 0.6% more instructions than 8 MiB over the
 * ptx6 corpus at half the peak memory (5.5 against 11.3 MiB;
 * docs/PERFORMANCE.md). */
#define BATCH_HEAP_BYTES ((size_t)2 << 20)

#define MAX_JOBS 256
/* --report draws this many executions unless -nshow says otherwise: a page
 * of pictures to step through, not every candidate of a large test. */
#define LITMUS_REPORT_NSHOW 64

typedef struct litmus_opts {
    const char *model;       /* NULL: chosen by the test's language (model_for) */
    int unroll;
    bool json;
    bool races;
    file_list cat_dirs;      /* -I: herd's search path for models and includes */
    file_list lib_dirs;      /* -set-libdir: searched after $HERDLIB, as herd7 does */
    file_list variants;      /* --variant: herd's variants for `if "name"` */
    schedule_opts sched;
    enum bar_reading barriers;   /* --barriers dat3m (default) | hardware */
    double timeout_s;     /* per test; 0: none */
    size_t max_memory;    /* bytes of collected heap in use; 0: none */
    bool quiet;          /* -q: no warnings on stderr (herd's -q) */
    int jobs;            /* -j N: files checked in N processes */
    enum exec_show show; /* -show prop|neg|all: executions drawn into -o DIR */
    bool through;        /* -through invalid: rejected executions drawn too */
    const char *out_dir;
    const char *report;          /* --report FILE.html: the executions drawn into one page */
    int nshow;
    const draw_plugin *draw;     /* the drawing plugin, loaded with -show only */
    exec_renderer *renderer;     /* the run's one graphviz context, with -show */
    const volatile sig_atomic_t *stop;
    const char *herd_notes;      /* herd7 options taken as no-ops (cli/herd_args.h) */
} litmus_opts;

/* "prop", "neg", "all", "none" (herd's -show words; "cond" and "wit" are
 * herd's names for prop); false for any other word. */
static bool exec_show_parse(const char *word, enum exec_show *out)
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

/* herd's -through words: "invalid" and "all" (true: draw rejected
 * executions too), "none" (false); false for any other word. */
static bool exec_through_parse(const char *word, bool *out)
{
    if (strcmp(word, "invalid") == 0 || strcmp(word, "all") == 0)
        *out = true;
    else if (strcmp(word, "none") == 0)
        *out = false;
    else
        return false;
    return true;
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: scopecheck litmus [--model NAME|PATH.cat] [--unroll N] [--json] [--races] [-q] [-j N]\n"
            "                         [--timeout SECONDS] [--max-memory SIZE] [-I DIR] [--variant V]\n"
            "                         [--liveness] [--fairness F] [--occupancy N] [--barriers R] FILE|DIR...\n"
            "  --model M   memory model: %s;\n"
            "              or the path of a .cat file (names are looked up in $SCOPECHECK_MODELS first,\n"
            "              then in ., the -I directories, $HERDLIB and -set-libdir, as herd7 does).\n"
            "              Without --model, a C test runs under herd7's default for C, c11_partialSC.cat,\n"
            "              from herd's library (-I DIR or $HERDLIB), and PTX and OpenCL tests under ptx6.\n"
            "  --unroll N  times a loop's backward branch may be taken per path (default %d)\n"
            "  --json      one JSON object per test and line instead of herd's block\n"
            "  --races     list every racing pair the model flags (JSON: \"races\")\n"
            "  -q          no warnings on standard error\n"
            "  -j N        check the files in N processes (output in the same order)\n"
            "  --timeout S        stop checking a test after S seconds (per test)\n"
            "  --max-memory SIZE  stop checking a test when the heap in use exceeds SIZE (suffix K, M, G, T)\n"
            "  -show prop|neg|all -o DIR [-nshow N]\n"
            "              draw the executions that satisfy the condition (prop), the others (neg)\n"
            "              or all: DIR/TEST.dot (one graph each) and DIR/TEST-K.svg, with the\n"
            "              relations of the model's show statements\n"
            "  -through invalid|all|none\n"
            "              with -show: draw the executions the model rejects too, with the relation\n"
            "              of the first check each fails (the verdict does not change)\n"
            "  --report FILE.html\n"
            "              one self-contained page of one test's executions, drawn as -show all\n"
            "              -through invalid draws them (the first %d unless -nshow), one at a time\n"
            "              (keys left, right, home, end); the failed check's relation in crimson\n"
            "  -I DIR      where .cat models, their includes and herd's stdlib.cat are also\n"
            "              looked for (herd's -I / -set-libdir; repeatable)\n"
            "  --variant V a variant that the model's `if \"V\"` tests (herd's -variant; repeatable)\n"
            "  --barriers dat3m|hardware\n"
            "              which arrivals a bar.cta.sync waits for, in verdicts and liveness alike:\n"
            "              dat3m (default) the threads whose code holds it, a count's first quorum;\n"
            "              hardware the whole CTA, exactly count arrivals per use (docs/liveness.md)\n",
            model_path_bundled_names(), ENUM_DEFAULT_UNROLL, LITMUS_REPORT_NSHOW);
    schedule_usage(to, false);
    fputs("herd7's spellings work: -model M, -cat M, -unroll N, -show, -o, -nshow, -through, -q, -set-libdir,\n"
          "-variant, -timeout; herd7 options that ask for what scopecheck does anyway (-v, -hexa false,\n"
          "-initwrites true, figure styling such as -unshow po) are ignored with a note; the others are\n"
          "refused.\n"
          "Exit status: 0 every file checked and every verdict established; 2 unusable input,\n"
          "arguments or output; 3 some verdict unknown (a limit, an execution too large to check, a\n"
          "signal: the verdict is Unknown unless what was found settles it; the loop bound: herd7's\n"
          "Loop verdict, unless a witness settles it; --liveness: a liveness answer Unknown).\n",
          to);
}

static bool parse_unroll(const char *text, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 0 || v > MAX_UNROLL)
        return false;
    *out = (int)v;
    return true;
}

/* A limit option's value into o, or the exit status of its error. */
static int limit_option(int ch, litmus_opts *o, FILE *err)
{
    uint64_t size;
    if (ch == 't' && strcmp(optarg, "none") == 0) { /* herd7's -timeout none */
        o->timeout_s = 0;
        return -1;
    }
    enum limit_arg r = ch == 't' ? limit_parse_seconds(optarg, &o->timeout_s) : limit_parse_size(optarg, &size);
    const char *name = ch == 't' ? "--timeout" : "--max-memory";
    if (r == LIMIT_OK) {
        if (ch == 'M')
            o->max_memory = (size_t)size;
        return -1;
    }
    if (r == LIMIT_TOO_LARGE)
        fprintf(err, "scopecheck litmus: error: %s '%s' is too large\n", name, optarg);
    else
        fprintf(err, "scopecheck litmus: error: %s takes %s, not '%s'\n", name,
                ch == 't' ? "a positive number of seconds" : "a size such as 512M", optarg);
    return 2;
}

static bool parse_jobs(const char *text, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > MAX_JOBS)
        return false;
    *out = (int)v;
    return true;
}

static bool parse_barriers(const char *text, enum bar_reading *out)
{
    if (strcmp(text, "dat3m") == 0)
        *out = BAR_READ_DAT3M;
    else if (strcmp(text, "hardware") == 0)
        *out = BAR_READ_HARDWARE;
    else
        return false;
    return true;
}

static int unknown_option(const char *arg, FILE *err)
{
    const char *advice = herd_option_advice(arg);
    if (advice) {
        fprintf(err, "scopecheck litmus: error: herd7's option %s is not supported: %s\n", arg, advice);
        return 2;
    }
    fprintf(err, "scopecheck litmus: error: option '%s' needs a value (scopecheck litmus --help lists the "
            "options)\n", arg);
    return 2;
}

/* --report: every execution, the rejected ones too (unless -show or
 * -through say otherwise), at most LITMUS_REPORT_NSHOW unless -nshow, into
 * the page rather than a directory. */
static bool report_options(litmus_opts *o, FILE *err)
{
    if (o->out_dir) {
        fputs("scopecheck litmus: error: --report draws into the page: not with -o DIR\n", err);
        return false;
    }
    if (o->show == SHOW_NONE) {
        o->show = SHOW_ALL;
        o->through = true;
    }
    if (!o->nshow)
        o->nshow = LITMUS_REPORT_NSHOW;
    return true;
}

/* Returns -1 to go on, else the exit status; *argc loses the herd7 options
 * taken as no-ops.  Long options may be written with one dash, as herd7
 * users do (getopt_long_only), after herd_args_check has refused what
 * getopt would guess at (cli/herd_args.h). */
static int parse_options(int *argc, char **argv, litmus_opts *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},
        {"cat", required_argument, NULL, 'm'},
        {"unroll", required_argument, NULL, 'u'},
        {"json", no_argument, NULL, 'J'},
        {"races", no_argument, NULL, 'r'},
        {"variant", required_argument, NULL, 'V'},
        {"set-libdir", required_argument, NULL, 'D'},
        {"liveness", no_argument, NULL, 'L'},
        {"fairness", required_argument, NULL, 'F'},
        {"occupancy", required_argument, NULL, 'O'},
        {"barriers", required_argument, NULL, 'B'},
        {"timeout", required_argument, NULL, 't'},
        {"max-memory", required_argument, NULL, 'M'},
        {"quiet", no_argument, NULL, 'q'},
        {"jobs", required_argument, NULL, 'j'},
        {"show", required_argument, NULL, 'S'},
        {"output-dir", required_argument, NULL, 'o'},
        {"nshow", required_argument, NULL, 'N'},
        {"through", required_argument, NULL, 'T'},
        {"report", required_argument, NULL, 'H'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static const char shortopts[] = "+m:u:rqj:o:hI:";
    memset(o, 0, sizeof *o);
    o->unroll = ENUM_DEFAULT_UNROLL;
    o->jobs = 1;
    schedule_defaults(&o->sched);
    int status = herd_args_check("litmus", argc, argv, longopts, shortopts, &o->herd_notes, err);
    if (status >= 0)
        return status;
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long_only(*argc, argv, shortopts, longopts, NULL)) != -1) {
        switch (ch) {
        case 'm': o->model = optarg; break;
        case 'u':
            if (!parse_unroll(optarg, &o->unroll)) {
                fprintf(err, "scopecheck litmus: error: --unroll takes a whole number from 0 to %d, not '%s'\n",
                        MAX_UNROLL, optarg);
                return 2;
            }
            break;
        case 'J': o->json = true; break;
        case 'r': o->races = true; break;
        case 'I': file_list_add(&o->cat_dirs, optarg); break;
        case 'D': file_list_add(&o->lib_dirs, optarg); break;
        case 'V': file_list_add(&o->variants, optarg); break;
        case 'L': o->sched.liveness = true; break;
        case 'F':
            if (!schedule_fairness(&o->sched, "litmus", optarg, err))
                return 2;
            break;
        case 'O':
            if (!schedule_occupancy(&o->sched, "litmus", optarg, err))
                return 2;
            o->sched.liveness = true;
            break;
        case 'B':
            if (!parse_barriers(optarg, &o->barriers)) {
                fprintf(err, "scopecheck litmus: error: --barriers takes dat3m or hardware, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 't':
        case 'M': {
            int limit_status = limit_option(ch, o, err);
            if (limit_status >= 0)
                return limit_status;
            break;
        }
        case 'q': o->quiet = true; break;
        case 'j':
            if (!parse_jobs(optarg, &o->jobs)) {
                fprintf(err, "scopecheck litmus: error: -j takes a number of processes from 1 to %d, not '%s'\n",
                        MAX_JOBS, optarg);
                return 2;
            }
            break;
        case 'S':
            if (!exec_show_parse(optarg, &o->show)) {
                fprintf(err, "scopecheck litmus: error: -show takes prop, neg, all or none, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'T':
            if (!exec_through_parse(optarg, &o->through)) {
                fprintf(err, "scopecheck litmus: error: -through takes invalid, all or none, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'o': o->out_dir = optarg; break;
        case 'H': o->report = optarg; break;
        case 'N':
            if (!parse_jobs(optarg, &o->nshow)) {
                fprintf(err, "scopecheck litmus: error: -nshow takes a number from 1 to %d, not '%s'\n",
                        MAX_JOBS, optarg);
                return 2;
            }
            break;
        case 'h': usage(out); return 0;
        default: return unknown_option(argv[optind - 1], err);
        }
    }
    if (o->report && !report_options(o, err))
        return 2;
    if (o->through && o->show == SHOW_NONE) {
        fputs("scopecheck litmus: error: -through draws the executions the model rejects: give -show and -o DIR "
              "(verdicts count only consistent executions)\n", err);
        return 2;
    }
    if (o->show != SHOW_NONE && !o->out_dir && !o->report) {
        fputs("scopecheck litmus: error: -show draws into a directory: give -o DIR\n", err);
        return 2;
    }
    if (o->herd_notes && !o->quiet)
        fputs(o->herd_notes, err);
    if (optind >= *argc) {
        fputs("scopecheck litmus: error: no litmus file or directory given\n", err);
        usage(err);
        return 2;
    }
    return -1;
}

/* The liveness answer of one test (docs/liveness.md), under the limits
 * of the test: what is left of --timeout since the test's `start`
 * (clock_now; the safety half spent some), --max-memory, and the signal
 * flag. */
static report_live *check_liveness(const litmus_test *t, const litmus_opts *o, const cat_model *m,
                                   cat_workspace *ws, double start)
{
    report_live *live = GC_MALLOC(sizeof *live);
    live->options.fairness = o->sched.fair_weak ? LIVE_FAIR_WEAK : LIVE_FAIR_NONE;
    live->options.occupancy = o->sched.occupancy;
    enum_options eo = {.unroll = o->unroll, .max_traces = ENUM_MAX_TRACES, .stop = o->stop, .max_memory = o->max_memory,
                       .barriers = o->barriers};
    eo.timeout_s = limit_seconds_left(o->timeout_s, start);
    enumerate_liveness(t, m, ws, &eo, &live->options, &live->result);
    return live;
}

/* A model of the run: the name it was asked by, the model and its
 * workspace, and the JSON of the options with that name. */
typedef struct run_model {
    const char *name;
    cat_model *m;
    cat_workspace *ws;
    const char *options_json;
    bool failed;         /* tried and not usable: not tried again */
} run_model;

/* What every file of a run shares.  Without --model, a model per language
 * is loaded when the first test of that language comes (in each process of
 * -j N). */
typedef struct run_ctx {
    const litmus_opts *o;
    file_list search;    /* herd7's order: -I dirs, $HERDLIB, -set-libdir */
    const char *herdlib; /* $HERDLIB, or NULL */
    run_model given;     /* --model */
    run_model ptx;       /* no --model: PTX and OpenCL tests */
    run_model c;         /* no --model: C tests */
    const file_list *files;
} run_ctx;

/* herd7's model for C tests when none is given (herd7 7.58 -help:
 * "defaults ... C=c11_partialSC.cat"; its -debug files shows it read). */
#define HERD_C_DEFAULT "c11_partialSC.cat"
#define PTX_DEFAULT "ptx6"

/* Every option that changes a result, as one JSON object (GC string), so
 * that a JSON line says how it was obtained. */
static const char *options_json(const litmus_opts *o, const char *model)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fputs("{\"model\":", f);
    report_json_string(f, model);
    fprintf(f, ",\"unroll\":%d,\"races\":%s,\"timeout\":", o->unroll, o->races ? "true" : "false");
    if (o->timeout_s > 0)
        fprintf(f, "%g", o->timeout_s);
    else
        fputs("null", f);
    fputs(",\"max_memory\":", f);
    if (o->max_memory)
        fprintf(f, "%zu", o->max_memory);
    else
        fputs("null", f);
    fputs(",\"variants\":[", f);
    for (int i = 0; i < o->variants.count; i++) {
        if (i)
            fputc(',', f);
        report_json_string(f, o->variants.paths[i]);
    }
    fprintf(f, "],\"liveness\":%s", o->sched.liveness ? "true" : "false");
    if (o->barriers == BAR_READ_HARDWARE)
        fputs(",\"barriers\":\"hardware\"", f);
    if (o->sched.liveness)
        fprintf(f, ",\"fairness\":\"%s\",\"occupancy\":%d", o->sched.fair_weak ? "weak" : "none",
                o->sched.occupancy);
    fputc('}', f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    char *s = GC_STRNDUP(buf, len);
    free(buf);
    return s;
}

/* The model file `name` names: the bundled models and ./NAME first
 * (cli/model_path.h), then the search directories; NULL when none. */
static const char *find_model(const char *name, const file_list *search)
{
    const char *path = model_path_resolve(name);
    for (int i = 0; !path && i < search->count; i++)
        path = model_path_in(search->paths[i], name);
    return path;
}

/* Where herd's models were looked for, and how to point at them. */
static void herd_lib_hint(FILE *err, const char *prefix, const run_ctx *rc)
{
    fprintf(err, "%s: herd's models (rc11.cat, c11_simp.cat, c11_partialSC.cat, ...) are looked for in ., ", prefix);
    if (rc->o->cat_dirs.count == 0)
        fputs("the -I directories (none given)", err);
    for (int i = 0; i < rc->o->cat_dirs.count; i++)
        fprintf(err, "%s-I %s", i ? ", " : "", rc->o->cat_dirs.paths[i]);
    if (rc->herdlib)
        fprintf(err, ", $HERDLIB (%s)", rc->herdlib);
    else
        fputs(", $HERDLIB (not set)", err);
    for (int i = 0; i < rc->o->lib_dirs.count; i++)
        fprintf(err, ", -set-libdir %s", rc->o->lib_dirs.paths[i]);
    fputs("; give -I DIR or set HERDLIB=DIR, DIR being herd's library (`herd7 -libdir` prints it, e.g. "
          "herdtools7/herd/libdir), or -model PATH.cat\n", err);
}

/* Loads `name` into rm once; false (after a message) when it cannot be. */
static bool load_model(run_ctx *rc, run_model *rm, const char *name, FILE *err)
{
    if (rm->m || rm->failed)
        return rm->m != NULL;
    rm->failed = true;
    rm->name = name;
    const char *path = find_model(name, &rc->search);
    if (!path) {
        model_path_unknown(err, "litmus", name);
        herd_lib_hint(err, "scopecheck litmus: hint", rc);
        return false;
    }
    const litmus_opts *o = rc->o;
    cat_load_options lo = {rc->search.paths, rc->search.count, o->variants.paths, o->variants.count,
                           model_path_cache_dir()};
    rm->m = cat_load_opts(path, &lo, err);
    if (!rm->m)
        return false;
    rm->ws = cat_workspace_new(rm->m);
    rm->options_json = o->json ? options_json(o, name) : NULL;
    rm->failed = false;
    return true;
}

/* The model test t runs under: --model, or without it herd7's default for
 * C tests (from herd's library) and ptx6 for the others.  NULL after a
 * message placed at the file. */
static run_model *model_for(run_ctx *rc, const litmus_test *t, const char *path, FILE *err)
{
    if (rc->o->model)
        return rc->given.m ? &rc->given : NULL;
    bool is_c = strcmp(t->arch, "C") == 0;
    run_model *rm = is_c ? &rc->c : &rc->ptx;
    if (rm->m)
        return rm;
    if (!is_c)
        return load_model(rc, rm, PTX_DEFAULT, err) ? rm : NULL;
    if (!rm->failed && find_model(HERD_C_DEFAULT, &rc->search))
        return load_model(rc, rm, HERD_C_DEFAULT, err) ? rm : NULL;
    if (!rm->failed) {
        rm->failed = true;
        fprintf(err, "%s:1:1: error: a C test needs a C model and no --model was given: herd7 would run it under "
                "its default for C, " HERD_C_DEFAULT ", which is not found (ptx6, the default for PTX, would "
                "give wrong verdicts)\n", path);
        herd_lib_hint(err, "scopecheck litmus: hint", rc);
    } else {
        fprintf(err, "%s:1:1: error: a C test needs a C model and no --model was given (see above)\n", path);
    }
    return NULL;
}

/* --report: the page of the test's executions, with its herd block. */
static void write_report(const char *path, const run_ctx *rc, const run_model *rm, const litmus_test *t,
                         check_result *r, const report_info *info, const exec_drawing *drawing, FILE *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        report_herd(mem, t, r, info);
        fclose(mem);
    }
    litmus_page_input in = {.t = t, .litmus_path = path, .model_name = rm->name, .text = text ? text : "",
                            .drawing = drawing, .more = rc->o->draw->draw_count(drawing) >= rc->o->nshow};
    rc->o->draw->litmus_report_page(&in, rc->o->report, err);
    free(text);
}

/* Checks one file: 0 checked with its verdict established, 2 unusable,
 * 3 its verdict not established (a limit, an execution too large, a
 * signal, the loop bound: report_established). */
static int check_file(const char *path, run_ctx *rc, FILE *out, FILE *err)
{
    const litmus_opts *o = rc->o;
    litmus_test *t = litmus_read_file(path, err);
    if (!t)
        return SC_STATUS_UNUSABLE;
    run_model *rm = model_for(rc, t, path, err);
    if (!rm)
        return SC_STATUS_UNUSABLE;
    const cat_model *m = rm->m;
    cat_workspace *ws = rm->ws;
    double start = clock_now();
    enum_options eo = {.unroll = o->unroll, .max_traces = ENUM_MAX_TRACES, .races = o->races, .stop = o->stop,
                       .timeout_s = o->timeout_s, .max_memory = o->max_memory, .barriers = o->barriers};
    exec_drawing *drawing = NULL;
    if (o->show != SHOW_NONE) {
        drawing = o->draw->draw_begin(o->renderer, o->report ? NULL : o->out_dir, t, m, o->show, o->through,
                                      o->nshow, err);
        if (!drawing)
            return SC_STATUS_UNUSABLE;
        eo.on_execution = o->draw->draw_execution;
        if (o->draw->draw_through(drawing))
            eo.on_rejected = o->draw->draw_rejected;
        eo.execution_ctx = drawing;
    }
    check_result r;
    bool checked = enumerate_check(t, m, ws, &eo, &r, err);
    bool drawn = !drawing || o->draw->draw_end(drawing);    /* the verdict is reported all the same */
    if (!checked)
        return SC_STATUS_UNUSABLE;
    report_info info = {.model = rm->name, .cat = m, .unroll = o->unroll, .races = o->races,
                        .options_json = rm->options_json};
    bool live_unknown = false;
    if (o->sched.liveness) {
        report_live *live = check_liveness(t, o, m, ws, start);
        info.extra_herd = report_live_herd;
        info.extra_json = report_live_json;
        info.extra = live;
        live_unknown = live->result.verdict == LIVE_UNKNOWN;
        if (live_unknown)
            info.extra_incomplete = live->result.incomplete;
    }
    info.seconds = clock_now() - start;
    if (o->json)
        report_json(out, t, &r, &info);
    else
        report_herd(out, t, &r, &info);
    if (o->report && drawn)     /* its own status is in its message: the check's status stands */
        write_report(path, rc, rm, t, &r, &info, drawing, err);
    if (!drawn)
        return SC_STATUS_UNUSABLE;
    return report_established(t, &r, m) && !live_unknown ? SC_STATUS_OK : SC_STATUS_INCOMPLETE;
}

/* parallel_work_fn: file `i` of the run.  In a JSON run an unusable file
 * also gets a JSON error object; -q drops the warnings (lines that are
 * not errors) from the messages. */
static int check_item(void *vctx, int i, FILE *out, FILE *err)
{
    run_ctx *rc = vctx;
    const char *path = rc->files->paths[i];
    if (!rc->o->json && !rc->o->quiet)     /* nothing to filter or copy: no capture */
        return check_file(path, rc, out, err);
    errors_capture cap;
    FILE *errs = errors_begin(&cap, err);
    int status = check_file(path, rc, out, errs);
    if (cap.mem) {
        fclose(cap.mem);
        cap.mem = NULL;
        const char *text = cap.buf ? cap.buf : "";
        for (const char *p = text; *p;) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
            if (!rc->o->quiet || strstr(p, ": error: ") < p + len)
                fwrite(p, 1, len, err);
            p += len;
        }
        if (status == SC_STATUS_UNUSABLE && rc->o->json)
            json_error_object(out, path, text);
        free(cap.buf);
    }
    return status;
}

/* One argument into the list; in a JSON run an argument that cannot be
 * read (a missing file) also gets its JSON error object, as an unusable
 * file does. */
static bool add_argument(file_list *files, const char *arg, const litmus_opts *o, FILE *out, FILE *err)
{
    if (!o->json)
        return file_list_add_arg(files, arg, err);
    errors_capture cap;
    FILE *errs = errors_begin(&cap, err);
    bool ok = file_list_add_arg(files, arg, errs);
    const char *text = errors_end(&cap);
    if (!ok)
        json_error_object(out, arg, text);
    return ok;
}

int litmus_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    litmus_opts o;
    int status = parse_options(&argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    run_ctx rc = {.o = &o, .herdlib = getenv("HERDLIB")};
    if (rc.herdlib && !*rc.herdlib)
        rc.herdlib = NULL;
    for (int i = 0; i < o.cat_dirs.count; i++)
        file_list_add(&rc.search, o.cat_dirs.paths[i]);
    if (rc.herdlib)
        file_list_add(&rc.search, rc.herdlib);
    for (int i = 0; i < o.lib_dirs.count; i++)
        file_list_add(&rc.search, o.lib_dirs.paths[i]);
    /* the drawing libraries are loaded only by a run that draws, and
     * before anything is checked: a run that cannot draw stops here */
    if (o.show != SHOW_NONE && !(o.draw = draw_load("litmus", err)))
        return 2;
    /* the heap hint comes first: loading a model with herd's stdlib and
     * functions makes garbage enough for a collection or two */
    GC_expand_hp(BATCH_HEAP_BYTES); /* a hint: the run goes on without it */
    if (o.model && !load_model(&rc, &rc.given, o.model, err))
        return 2;
    file_list files = {0};
    status = SC_STATUS_OK;
    for (int i = optind; i < argc; i++)
        if (!add_argument(&files, argv[i], &o, out, err))
            status = SC_STATUS_UNUSABLE;
    if (o.report && files.count > 1) {
        fprintf(err, "scopecheck litmus: error: --report writes the page of one litmus test; %d were given\n",
                files.count);
        return SC_STATUS_UNUSABLE;
    }
    o.stop = interrupt_watch();
    rc.files = &files;
    if (o.draw)
        o.renderer = o.draw->renderer_new();
    int skipped = 0;
    status = sc_status_merge(status, parallel_run(files.count, o.jobs, check_item, &rc, o.stop, out, err, &skipped));
    if (*o.stop || skipped) {
        fprintf(err, "scopecheck litmus: interrupted; %d of %d file%s not checked\n", skipped, files.count,
                files.count == 1 ? "" : "s");
        status = sc_status_merge(status, SC_STATUS_INCOMPLETE);
    }
    if (o.draw)
        o.draw->renderer_free(o.renderer);
    interrupt_release();
    return status;
}
