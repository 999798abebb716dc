/* cli/litmus_cmd.c: `scopecheck litmus` (see cli/litmus_cmd.h). */
#include "cli/litmus_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"
#include "draw/exec_draw.h"
#include "cli/file_list.h"
#include "cli/herd_args.h"
#include "cli/interrupt.h"
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

typedef struct litmus_opts {
    const char *model;
    int unroll;
    bool json;
    bool races;
    file_list cat_dirs;      /* -I: herd's search path for models and includes */
    file_list variants;      /* --variant: herd's variants for `if "name"` */
    schedule_opts sched;
    double timeout_s;     /* per test; 0: none */
    size_t max_memory;    /* bytes of collected heap in use; 0: none */
    bool quiet;          /* -q: no warnings on stderr (herd's -q) */
    int jobs;            /* -j N: files checked in N processes */
    enum exec_show show; /* -show prop|neg|all: executions drawn into -o DIR */
    bool through;        /* -through invalid: rejected executions drawn too */
    const char *out_dir;
    int nshow;
    exec_renderer *renderer;     /* the run's one graphviz context, with -show */
    const volatile sig_atomic_t *stop;
    const char *options_json;    /* the options that change a result, for --json */
} litmus_opts;

static void usage(FILE *to)
{
    fprintf(to,
            "usage: scopecheck litmus [--model NAME|PATH.cat] [--unroll N] [--json] [--races] [-q] [-j N]\n"
            "                         [--timeout SECONDS] [--max-memory SIZE] [-I DIR] [--variant V]\n"
            "                         [--liveness] [--fairness F] [--occupancy N] FILE|DIR...\n"
            "  --model M   memory model: %s;\n"
            "              or the path of a .cat file (names are looked up in $SCOPECHECK_MODELS first)\n"
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
            "  -I DIR      where .cat models, their includes and herd's stdlib.cat are also\n"
            "              looked for (herd's -I / -set-libdir; repeatable)\n"
            "  --variant V a variant that the model's `if \"V\"` tests (herd's -variant; repeatable)\n",
            model_path_bundled_names(), ENUM_DEFAULT_UNROLL);
    schedule_usage(to, false);
    fputs("herd7's spellings work: -model M, -cat M, -unroll N, -show, -o, -nshow, -through, -q, -set-libdir,\n"
          "-variant.\n"
          "Exit status: 0 every file checked and every verdict established; 2 unusable input,\n"
          "arguments or output; 3 some verdict unknown (a limit, an execution too large to check, a\n"
          "signal: the verdict is Unknown unless what was found settles it; --liveness: a liveness\n"
          "answer Unknown).\n",
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

static int unknown_option(const char *arg, FILE *err)
{
    const char *advice = herd_option_advice(arg);
    if (advice) {
        fprintf(err, "scopecheck litmus: error: herd7's option %s is not supported: %s\n", arg, advice);
        return 2;
    }
    fprintf(err, "scopecheck litmus: error: unknown or incomplete option '%s'\n", arg);
    usage(err);
    return 2;
}

/* Returns -1 to go on, else the exit status.  Long options may be written
 * with one dash, as herd7 users do (getopt_long_only). */
static int parse_options(int argc, char **argv, litmus_opts *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},
        {"cat", required_argument, NULL, 'm'},
        {"unroll", required_argument, NULL, 'u'},
        {"json", no_argument, NULL, 'J'},
        {"races", no_argument, NULL, 'r'},
        {"variant", required_argument, NULL, 'V'},
        {"set-libdir", required_argument, NULL, 'I'},
        {"liveness", no_argument, NULL, 'L'},
        {"fairness", required_argument, NULL, 'F'},
        {"occupancy", required_argument, NULL, 'O'},
        {"timeout", required_argument, NULL, 't'},
        {"max-memory", required_argument, NULL, 'M'},
        {"quiet", no_argument, NULL, 'q'},
        {"jobs", required_argument, NULL, 'j'},
        {"show", required_argument, NULL, 'S'},
        {"output-dir", required_argument, NULL, 'o'},
        {"nshow", required_argument, NULL, 'N'},
        {"through", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->model = "ptx6";
    o->unroll = ENUM_DEFAULT_UNROLL;
    o->jobs = 1;
    schedule_defaults(&o->sched);
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long_only(argc, argv, "+m:u:rqj:o:hI:", longopts, NULL)) != -1) {
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
        case 't':
        case 'M': {
            int status = limit_option(ch, o, err);
            if (status >= 0)
                return status;
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
    if (o->through && o->show == SHOW_NONE) {
        fputs("scopecheck litmus: error: -through draws the executions the model rejects: give -show and -o DIR "
              "(verdicts count only consistent executions)\n", err);
        return 2;
    }
    if (o->show != SHOW_NONE && !o->out_dir) {
        fputs("scopecheck litmus: error: -show draws into a directory: give -o DIR\n", err);
        return 2;
    }
    if (optind >= argc) {
        fputs("scopecheck litmus: error: no litmus file or directory given\n", err);
        usage(err);
        return 2;
    }
    return -1;
}

/* The liveness answer of one test (docs/liveness.md), under the limits
 * of the test: what is left of --timeout since the test's `start`
 * (limit_now; the safety half spent some), --max-memory, and the signal
 * flag. */
static report_live *check_liveness(const litmus_test *t, const litmus_opts *o, const cat_model *m,
                                   cat_workspace *ws, double start)
{
    report_live *live = GC_MALLOC(sizeof *live);
    live->options.fairness = o->sched.fair_weak ? LIVE_FAIR_WEAK : LIVE_FAIR_NONE;
    live->options.occupancy = o->sched.occupancy;
    enum_options eo = {.unroll = o->unroll, .max_traces = ENUM_MAX_TRACES, .stop = o->stop, .max_memory = o->max_memory};
    eo.timeout_s = limit_seconds_left(o->timeout_s, start);
    enumerate_liveness(t, m, ws, &eo, &live->options, &live->result);
    return live;
}

/* What every file of a run shares. */
typedef struct run_ctx {
    const litmus_opts *o;
    const cat_model *m;
    cat_workspace *ws;
    const file_list *files;
} run_ctx;

/* Every option that changes a result, as one JSON object (GC string), so
 * that a JSON line says how it was obtained. */
static const char *options_json(const litmus_opts *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fputs("{\"model\":", f);
    report_json_string(f, o->model);
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

/* Checks one file: 0 checked with its verdict established, 2 unusable,
 * 3 its verdict Unknown (a limit, an execution too large, a signal). */
static int check_file(const char *path, const litmus_opts *o, const cat_model *m, cat_workspace *ws,
                      FILE *out, FILE *err)
{
    litmus_test *t = litmus_read_file(path, err);
    if (!t)
        return SC_STATUS_UNUSABLE;
    double start = limit_now();
    enum_options eo = {.unroll = o->unroll, .max_traces = ENUM_MAX_TRACES, .races = o->races, .stop = o->stop,
                       .timeout_s = o->timeout_s, .max_memory = o->max_memory};
    exec_drawing *drawing = NULL;
    if (o->show != SHOW_NONE) {
        drawing = exec_draw_begin(o->renderer, o->out_dir, t, m, o->show, o->through, o->nshow, err);
        if (!drawing)
            return SC_STATUS_UNUSABLE;
        eo.on_execution = exec_draw_execution;
        if (exec_draw_through(drawing))
            eo.on_rejected = exec_draw_rejected;
        eo.execution_ctx = drawing;
    }
    check_result r;
    bool checked = enumerate_check(t, m, ws, &eo, &r, err);
    bool drawn = !drawing || exec_draw_end(drawing);    /* the verdict is reported all the same */
    if (!checked)
        return SC_STATUS_UNUSABLE;
    report_info info = {.model = o->model, .cat = m, .unroll = o->unroll, .races = o->races,
                        .options_json = o->options_json};
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
    info.seconds = limit_now() - start;
    if (o->json)
        report_json(out, t, &r, &info);
    else
        report_herd(out, t, &r, &info);
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
        return check_file(path, rc->o, rc->m, rc->ws, out, err);
    errors_capture cap;
    FILE *errs = errors_begin(&cap, err);
    int status = check_file(path, rc->o, rc->m, rc->ws, out, errs);
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
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    const char *path = model_path_resolve(o.model);
    for (int i = 0; !path && i < o.cat_dirs.count; i++)
        path = model_path_in(o.cat_dirs.paths[i], o.model);
    if (!path) {
        model_path_unknown(err, "litmus", o.model);
        return 2;
    }
    /* the heap hint comes first: loading a model with herd's stdlib and
     * functions makes garbage enough for a collection or two */
    GC_expand_hp(BATCH_HEAP_BYTES); /* a hint: the run goes on without it */
    cat_load_options lo = {o.cat_dirs.paths, o.cat_dirs.count, o.variants.paths, o.variants.count};
    cat_model *m = cat_load_opts(path, &lo, err);
    if (!m)
        return 2;
    cat_workspace *ws = cat_workspace_new(m);
    file_list files = {0};
    status = SC_STATUS_OK;
    for (int i = optind; i < argc; i++)
        if (!add_argument(&files, argv[i], &o, out, err))
            status = SC_STATUS_UNUSABLE;
    o.stop = interrupt_watch();
    if (o.show != SHOW_NONE)
        o.renderer = exec_renderer_new();
    if (o.json)
        o.options_json = options_json(&o);
    run_ctx rc = {&o, m, ws, &files};
    int skipped = 0;
    status = sc_status_merge(status, parallel_run(files.count, o.jobs, check_item, &rc, o.stop, out, err, &skipped));
    if (*o.stop || skipped) {
        fprintf(err, "scopecheck litmus: interrupted; %d of %d file%s not checked\n", skipped, files.count,
                files.count == 1 ? "" : "s");
        status = sc_status_merge(status, SC_STATUS_INCOMPLETE);
    }
    exec_renderer_free(o.renderer);
    interrupt_release();
    return status;
}
