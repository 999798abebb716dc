/* cli/verify_cmd.c: `scopecheck verify` (see cli/verify_cmd.h): its
 * options and its loop over files; the checks are the verification
 * library's (verify/verify.h). */
#include "cli/verify_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "cli/check_args.h"
#include "cli/herd_args.h"
#include "base/interrupt.h"
#include "cli/draw_load.h"
#include "cli/json_error.h"
#include "cli/model_path.h"
#include "cli/output.h"
#include "litmus/read.h"
#include "report/status.h"
#include "search/par_bfs.h"

typedef struct verify_opts {
    const char *protocol;
    const char *report;          /* --report FILE.html */
    bool json;
    file_list cat_dirs;          /* -I DIR: where models and their includes are also looked for */
    verify_settings s;
} verify_opts;

static void usage(FILE *to)
{
    fprintf(to,
            "usage: scopecheck verify --protocol NAME|FILE.proto [--model NAME|FILE.cat] [--json]\n"
            "                         [--max-states N] [--max-memory BYTES] [--timeout SECONDS] [--threads N]\n"
            "                         [--net fifo|unordered] [--const NAME=VALUE] [--unroll N]\n"
            "                         [--trace short|full] [--progress[=SECONDS] | --no-progress] [--complete]\n"
            "                         [--racy check|undefined] [--store KIND] [--symmetry auto|on|off]\n"
            "                         [--report FILE.html] LITMUS|DIR...\n"
            "  --protocol P   protocol tables (models/P.proto), e.g. gpu_vi\n"
            "  --model M      memory model to compare outcomes with: %s;\n"
            "                 or the path of a .cat file; none: compare nothing (deadlocks,\n"
            "                 invariants and liveness only)\n"
            "  --json         one JSON object per test and line\n"
            "  --max-states N, --max-memory BYTES (suffix K, M, G), --timeout SECONDS:\n"
            "                 stop the search there, with partial statistics (Result Incomplete);\n"
            "                 --timeout is one budget per test for the model's outcomes and the\n"
            "                 search, and --max-memory bounds the model's enumeration too\n"
            "  --threads N    search with N threads (default: the cores this process may use, %d\n"
            "                 here); the same states, transitions, verdicts and traces as one\n"
            "                 thread.  The liveness pass (--liveness) runs on one thread\n"
            "  --store KIND   the visited-state store: plain (every state whole, the default),\n"
            "                 tree (lossless tree compression: fewer bytes a state), or the\n"
            "                 probabilistic hash-compact (a 64-bit fingerprint a state) and\n"
            "                 bitstate (3 bits a state in a bit array of half --max-memory, else\n"
            "                 128 MiB): these may miss states, print the bound, and never pass\n"
            "                 (Result Incomplete, 'probabilistic', exit 3); what they find is real\n"
            "  --net          make every channel of the protocol fifo or unordered\n"
            "  --const N=V    override a configuration constant of the protocol; the value\n"
            "                 range is the one each test needs unless N is its constant\n"
            "  --unroll N     loop bound for the model's executions and the value range (default %d)\n"
            "  --trace full   under each trace step, the table row that fired (file:line) and the\n"
            "                 fields the step changed (the whole state at step 0); short (default):\n"
            "                 one line per step\n"
            "  --report FILE.html  one self-contained page to step through each violation's\n"
            "                 shortest trace (chart, state, row, messages in flight, why stuck);\n"
            "                 one litmus file only; nothing is written when there is no violation\n"
            "                 with a trace, and the exit status stays the check's\n"
            "  --progress[=S] a progress line on stderr every S seconds (default 2) while a search\n"
            "                 runs; the default prints them only when stderr is a terminal\n"
            "  --no-progress  never print progress lines\n"
            "  --racy undefined  a test on which the model raises a flag (an OpenCL data or scope\n"
            "                 race) has undefined behaviour: its outcomes are not compared (deadlocks,\n"
            "                 invariants and unhandled events still are); check (default): compared\n"
            "                 unless the model says option flags = undefined\n"
            "  --symmetry S   symmetry reduction: store one state per orbit of interchangeable CUs\n"
            "                 (identical thread programs, same GPU) and collect outcomes over each\n"
            "                 orbit, with the same verdicts; auto (default): where the protocol keeps\n"
            "                 no CU id in its state and no --liveness, --occupancy, --preempt or\n"
            "                 --write-atomicity runs; on: the same, said in the report when refused;\n"
            "                 off: never.  State counts are then of orbits\n"
            "  --complete     the protocol's outcomes must equal the model's: a model outcome the\n"
            "                 protocol never produces is a violation, shown with an execution\n"
            "  -I DIR         where .cat models, their includes and herd's stdlib.cat are also\n"
            "                 looked for (herd's -I / -set-libdir; repeatable), as litmus -I\n",
            model_path_bundled_names(), par_bfs_cores(), ENUM_DEFAULT_UNROLL);
    schedule_usage(to, true);
    fputs("  --write-atomicity  also report the outcomes that only a non-multi-copy-atomic\n"
          "                 machine produces (reference models/" VERIFY_MCA_MODEL ".cat)\n"
          "A directory stands for every *.litmus below it.  Exit status: 0 every test passed;\n"
          "1 a violation (it stands even if the search was cut); 2 unusable input, arguments\n"
          "or output; 3 some search incomplete (a limit, a signal, the value range, a\n"
          "probabilistic store) or some\n"
          "liveness answer unknown.\n",
          to);
}

static int option_error(FILE *err, const char *what, const char *value)
{
    fprintf(err, "scopecheck verify: error: %s '%s'\n", what, value);
    return 2;
}

/* --progress[=SECONDS]: report, every SECONDS (default 2). */
static int parse_progress(verify_settings *s, FILE *err)
{
    char *end;
    s->progress = PROGRESS_ON;
    if (!optarg)
        return -1;
    errno = 0;
    s->progress_every_s = strtod(optarg, &end);
    if (errno || end == optarg || *end || !(s->progress_every_s > 0))
        return option_error(err, "--progress takes a positive number of seconds, not", optarg);
    return -1;
}

static int parse_unroll(verify_settings *s, FILE *err)
{
    char *end;
    errno = 0;
    long u = strtol(optarg, &end, 10);
    if (errno || end == optarg || *end || u < 0 || u > 64)
        return option_error(err, "--unroll takes a whole number from 0 to 64, not", optarg);
    s->unroll = (int)u;
    return -1;
}

static int parse_one(int ch, verify_opts *o, FILE *err)
{
    verify_settings *s = &o->s;
    int shared = check_args_option(ch, "verify", s, err);
    if (shared)
        return shared;
    switch (ch) {
    case 'p': o->protocol = optarg; return -1;
    case 'm': s->model_name = optarg; return -1;
    case 'j': o->json = true; return -1;
    case 'H': o->report = optarg; return -1;
    case 'T':
        if (!trace_detail_parse(optarg, &s->trace))
            return option_error(err, "--trace takes short or full, not", optarg);
        return -1;
    case 'P': return parse_progress(s, err);
    case 'Q': s->progress = PROGRESS_OFF; return -1;
    case 'C': s->complete = true; return -1;
    case 'u': return parse_unroll(s, err);
    case 'L': s->sched.liveness = true; return -1;
    case 'F': return schedule_fairness(&s->sched, "verify", optarg, err) ? -1 : 3;
    case 'O': return schedule_occupancy(&s->sched, "verify", optarg, err) ? -1 : 3;
    case 'E': s->sched.preempt = true; return -1;
    case 'W':
        s->mca = GC_MALLOC(sizeof *s->mca);
        return -1;
    case 'I': file_list_add(&o->cat_dirs, optarg); return -1;
    default:
        return 2;
    }
}

/* An option verify does not have: herd7's advice for it, or the usage. */
static void unknown_option(const char *arg, FILE *err)
{
    const char *advice = herd_option_advice(arg);
    if (advice) {
        fprintf(err, "scopecheck verify: error: herd7's option %s is not supported: %s\n", arg, advice);
        return;
    }
    fprintf(err, "scopecheck verify: error: unknown or incomplete option '%s'\n", arg);
    usage(err);
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, verify_opts *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"protocol", required_argument, NULL, 'p'}, {"model", required_argument, NULL, 'm'},
        {"json", no_argument, NULL, 'j'},           {"max-states", required_argument, NULL, 's'},
        {"max-memory", required_argument, NULL, 'M'}, {"timeout", required_argument, NULL, 't'},
        {"net", required_argument, NULL, 'n'},      {"const", required_argument, NULL, 'c'},
        {"trace", required_argument, NULL, 'T'},    {"progress", optional_argument, NULL, 'P'},
        {"no-progress", no_argument, NULL, 'Q'},    {"unroll", required_argument, NULL, 'u'},
        {"cat", required_argument, NULL, 'm'},      {"complete", no_argument, NULL, 'C'},
        {"racy", required_argument, NULL, 'R'},     {"threads", required_argument, NULL, 'J'},
        {"report", required_argument, NULL, 'H'},
        {"store", required_argument, NULL, 'S'},
        {"symmetry", required_argument, NULL, 'Y'},
        {"liveness", no_argument, NULL, 'L'},       {"fairness", required_argument, NULL, 'F'},
        {"occupancy", required_argument, NULL, 'O'}, {"preempt", no_argument, NULL, 'E'},
        {"write-atomicity", no_argument, NULL, 'W'}, {"set-libdir", required_argument, NULL, 'I'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    verify_settings_default(&o->s);
    o->s.symmetry = VERIFY_SYMMETRY_AUTO;      /* verify reduces where it is sound; graph and export never */
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long_only(argc, argv, "+p:m:jI:", longopts, NULL)) != -1) {
        if (ch == 'h') {
            usage(out);
            return 0;
        }
        int status = parse_one(ch, o, err);
        if (status == 3)     /* a scheduling option's own message is out */
            return 2;
        if (status == 2 && !strchr("sMtncuTPRJSY", ch))     /* these wrote their own message */
            unknown_option(argv[optind - 1], err);
        if (status >= 0)
            return status;
    }
    if (!o->protocol) {
        fputs("scopecheck verify: error: --protocol is required\n", err);
        return 2;
    }
    if (optind >= argc) {
        fputs("scopecheck verify: error: no litmus file given\n", err);
        return 2;
    }
    return -1;
}

/* ---- one test ------------------------------------------------------------- */

/* The status of one file: 0 pass, 1 violation, 2 unusable, 3 incomplete.
 * Errors go to `err`; the file's report (or, for an unusable file in a
 * JSON run, nothing: the caller writes the error object) to `out`; what
 * the observer is to be told, in *rec (rec->test NULL when nothing was
 * checked), for the caller to pass on once the report is out. */
static int verify_file(const char *path, const verify_run *r, FILE *out, FILE *err, verify_record *rec)
{
    rec->test = NULL;
    litmus_test *t = litmus_read_file(path, err);
    if (!t)
        return SC_STATUS_UNUSABLE;
    verify_result *v = GC_MALLOC(sizeof *v);
    int status = verify_test(r->settings, t, path, r->p, r->m, r->ws, v, err);
    if (!v->searched)
        return status;
    (r->json ? verify_print_json : verify_print_text)(out, v);
    if (r->report)   /* its own status is in its message: the check's status stands */
        r->draw->report_page(&(report_page_input){.v = v, .litmus_path = path, .cmd = "verify"}, r->report, err);
    verify_record_of(v, status, rec);
    verify_result_release(v);
    return status;
}

/* One file of a JSON run: an unusable file gets a JSON error object on
 * `out` besides its message on `err`. */
static int verify_file_json(const char *path, const verify_run *r, FILE *out, FILE *err, verify_record *rec)
{
    errors_capture cap;
    FILE *errs = errors_begin(&cap, err);
    int status = verify_file(path, r, out, errs, rec);
    const char *messages = errors_end(&cap);
    if (status == SC_STATUS_UNUSABLE)
        json_error_object(out, path, messages);
    return status;
}

/* The model named by the settings (NULL for none, which *ok allows) and
 * the write-atomicity reference; false after an error. */
static bool load_models(verify_run *r, FILE *err)
{
    const verify_settings *s = r->settings;
    bool no_model = strcmp(s->model_name, "none") == 0;
    const char *model_path = no_model ? "" : model_path_resolve(s->model_name);
    for (int i = 0; !model_path && i < r->ncat_dirs; i++)
        model_path = model_path_in(r->cat_dirs[i], s->model_name);
    if (!model_path) {
        model_path_unknown(err, "verify", s->model_name);
        return false;
    }
    cat_load_options lo = {r->cat_dirs, r->ncat_dirs, NULL, 0, model_path_cache_dir()};
    r->m = no_model ? NULL : cat_load_opts(model_path, &lo, err);
    if (!r->p || (!r->m && !no_model))
        return false;
    if (s->mca && no_model) {
        fputs("scopecheck verify: error: --write-atomicity compares with a base model: not with --model none\n", err);
        return false;
    }
    if (s->mca && !verify_mca_load(s->mca, model_path_resolve(VERIFY_MCA_MODEL), err))
        return false;
    r->ws = r->m ? cat_workspace_new(r->m) : NULL;
    return true;
}

int verify_files(verify_run *r, char **args, int nargs, FILE *out, FILE *err)
{
    if (!load_models(r, err))
        return SC_STATUS_UNUSABLE;
    file_list files = {0};
    int worst = SC_STATUS_OK;
    for (int i = 0; i < nargs; i++) {
        errors_capture cap;     /* a JSON run: a missing file gets its JSON error object too */
        FILE *errs = r->json ? errors_begin(&cap, err) : err;
        bool added = file_list_add_arg(&files, args[i], errs);
        const char *messages = r->json ? errors_end(&cap) : "";
        if (!added && r->json)
            json_error_object(out, args[i], messages);
        if (!added)
            worst = SC_STATUS_UNUSABLE;
    }
    if (r->report && files.count > 1) {
        fprintf(err, "scopecheck verify: error: --report writes the page of one litmus test; %d were given\n",
                files.count);
        return SC_STATUS_UNUSABLE;
    }
    verify_settings *s = r->settings;
    s->bfs.stop = interrupt_watch();
    int done = 0;
    for (; done < files.count && !*s->bfs.stop; done++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);     /* the file's report, written whole */
        verify_record rec;
        int st = (r->json ? verify_file_json : verify_file)(files.paths[done], r, mem ? mem : out, err, &rec);
        worst = sc_status_merge(worst, st);
        bool ok = true;
        if (mem) {
            ok = fclose(mem) == 0 && output_whole(out, buf, len);
            free(buf);
        }
        if (rec.test && r->observe)
            r->observe(r->observe_ctx, &rec);
        if (!ok || output_broken(out))
            break;
    }
    if (*s->bfs.stop) {
        fprintf(err, "scopecheck verify: interrupted; %d of %d file%s not checked\n", files.count - done,
                files.count, files.count == 1 ? "" : "s");
        worst = sc_status_merge(worst, SC_STATUS_INCOMPLETE);
    }
    interrupt_release();
    return worst;
}

int verify_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    verify_opts o;
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    const char *proto_path = check_args_protocol_path("verify", o.protocol, err);
    if (!proto_path)
        return 2;
    /* a protocol that does not load still lets the model's errors show */
    verify_run r = {.settings = &o.s, .p = protocol_load(proto_path, err), .json = o.json, .report = o.report,
                    .cat_dirs = o.cat_dirs.paths, .ncat_dirs = o.cat_dirs.count};
    if (o.report && !(r.draw = draw_load("verify", err)))
        return 2;
    return verify_files(&r, argv + optind, argc - optind, out, err);
}
