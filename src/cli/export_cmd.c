/* cli/export_cmd.c: `scopecheck export` (see cli/export_cmd.h).  The
 * checks are verify's own: this module runs the verification library
 * through verify's loop over files (cli/verify_cmd.h, with the same
 * recursive file list), collects one record per test through its
 * observer, and writes the tables only when every record says pass. */
#include "cli/export_cmd.h"

#include <errno.h>
#include <gc.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/stamp.h"
#include "base/version.h"
#include "cli/check_args.h"
#include "cli/herd_args.h"
#include "cli/model_path.h"
#include "base/output_file.h"
#include "protocol/program_json.h"
#include "cli/verify_cmd.h"
#include "protocol/export.h"
#include "litmus/read.h"
#include "protocol/options.h"
#include "protocol/runnable.h"

typedef struct export_opts {
    const char *protocol, *output;
    verify_settings s;          /* --model, --const, --net, limits, --racy */
    char **args;                /* litmus files and directories */
    int nargs;
} export_opts;

/* What the observer collects: one JSON object per checked test. */
typedef struct collected {
    FILE *report;               /* verify's reports, shown only when a check failed */
    off_t mark;                 /* where the report of the next test begins */
    json_t *checks;
    bool all_passed;
    int count;
    proto_shape covered;        /* the largest of each dimension over the tests */
} collected;

static void usage(FILE *to)
{
    fputs("usage: scopecheck export --protocol NAME|FILE.proto [--model NAME|FILE.cat] [--const NAME=VALUE]...\n"
          "                         [--net fifo|unordered] [--max-states N] [--max-memory BYTES]\n"
          "                         [--timeout SECONDS] [--racy check|undefined] [--threads N]\n"
          "                         LITMUS|DIR... -o OUT.tables.json\n"
          "  Runs verify on every test (a directory: every *.litmus below it, as verify\n"
          "  reads it) and, only when every check passes, writes the protocol's tables\n"
          "  with a stamp for scopesim (docs/tables-format.md): one line per test.  Every\n"
          "  test is read first: one the protocol cannot run is refused before any search.\n"
          "  Exit 0 written, 1 a violation (verify's report of each failing test is\n"
          "  printed, one line for each passing one; nothing is written), 2 unusable\n"
          "  input, 3 a search was incomplete.\n"
          "  --racy undefined: as verify's (a test the model flags as racy allows every\n"
          "  outcome); recorded in the stamped configuration.\n"
          "  --threads N: search with N threads (default: the cores available), as verify's.\n",
          to);
}

static int fail(FILE *err, const char *fmt, const char *arg)
{
    fputs("scopecheck export: error: ", err);
    fprintf(err, fmt, arg);
    fputc('\n', err);
    return 2;
}

static int parse_one(int ch, export_opts *o, FILE *err)
{
    int shared = check_args_option(ch, "export", &o->s, err);
    if (shared)
        return shared;
    switch (ch) {
    case 'o': o->output = optarg; return -1;
    case 'p': o->protocol = optarg; return -1;
    case 'm': o->s.model_name = optarg; return -1;
    default:     /* getopt's '?' and ':' are handled by the caller */
        return 2;
    }
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, export_opts *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"protocol", required_argument, NULL, 'p'}, {"model", required_argument, NULL, 'm'},
        {"const", required_argument, NULL, 'c'},    {"net", required_argument, NULL, 'n'},
        {"max-states", required_argument, NULL, 's'}, {"max-memory", required_argument, NULL, 'M'},
        {"timeout", required_argument, NULL, 't'},  {"output", required_argument, NULL, 'o'},
        {"racy", required_argument, NULL, 'R'},     {"help", no_argument, NULL, 'h'},
        {"threads", required_argument, NULL, 'J'},  {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    verify_settings_default(&o->s);
    /* herd7's habits (`-hexa true`, `-v`) are read exactly as typed, as
     * litmus reads them: never taken for -h (cli/herd_args.h) */
    const char *herd_notes = NULL;
    int herd_status = herd_args_check("export", &argc, argv, longopts, "p:m:o:", &herd_notes, err);
    if (herd_status >= 0)
        return herd_status;
    if (herd_notes)
        fputs(herd_notes, err);
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "p:m:o:", longopts, NULL)) != -1) {
        if (ch == 'h') {
            usage(out);
            return 0;
        }
        if (ch == '?' || ch == ':') {
            fail(err, "unknown or incomplete option '%s'", argv[optind - 1]);
            usage(err);
            return 2;
        }
        int status = parse_one(ch, o, err);
        if (status >= 0)
            return status;
    }
    if (!o->protocol)
        return fail(err, "%s", "--protocol is required");
    if (!o->output)
        return fail(err, "%s", "-o OUT.tables.json is required");
    o->args = argv + optind;
    o->nargs = argc - optind;
    if (o->nargs == 0)
        return fail(err, "%s", "no litmus test given (or the directories hold none)");
    return -1;
}

/* ---- the observer: one record per test --------------------------------------- */

static const char *status_word(int status)
{
    return status == 0 ? "pass" : status == 1 ? "fail" : status == 3 ? "incomplete" : "unusable";
}

static void widen(proto_shape *covered, const proto_shape *s)
{
    covered->ncu = s->ncu > covered->ncu ? s->ncu : covered->ncu;
    covered->ngpu = s->ngpu > covered->ngpu ? s->ngpu : covered->ngpu;
    covered->naddr = s->naddr > covered->naddr ? s->naddr : covered->naddr;
    covered->maxops = s->maxops > covered->maxops ? s->maxops : covered->maxops;
    if (s->max_threads_per_cu > covered->max_threads_per_cu)
        covered->max_threads_per_cu = s->max_threads_per_cu;
}

static json_t *shape_json(const proto_shape *s)
{
    return json_pack("{s:i, s:i, s:i, s:i, s:i}", "ncu", s->ncu, "ngpu", s->ngpu, "naddr", s->naddr,
                     "max_threads_per_cu", s->max_threads_per_cu, "maxops", s->maxops);
}

/* "Checked TEST: pass (N states)": a test's line in the summary. */
static void print_checked(FILE *out, const json_t *record)
{
    fprintf(out, "Checked %s: %s (%lld states)\n", json_string_value(json_object_get(record, "test")),
            json_string_value(json_object_get(record, "result")),
            (long long)json_integer_value(json_object_get(record, "states")));
}

static void on_record(void *ctx, const verify_record *r)
{
    collected *c = ctx;
    proto_shape shape;
    proto_instance_shape(r->inst, &shape);
    widen(&c->covered, &shape);
    json_t *checks = json_object();
    for (int k = 0; k < r->nchecks; k++)
        json_object_set_new(checks, r->checks[k].name, json_string(r->checks[k].passed ? "pass" : "fail"));
    const char *slash = strrchr(r->test->file, '/');
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:I, s:I, s:o, s:o, s:o}", "test", r->test->name, "file",
                          slash ? slash + 1 : r->test->file, "model", r->model, "result", status_word(r->status),
                          "complete", r->complete, "states", (json_int_t)r->states, "transitions",
                          (json_int_t)r->transitions, "checks", checks, "shape", shape_json(&shape), "program",
                          program_json(r->test));
    json_array_append_new(c->checks, o);
    bool passed = r->status == 0 && r->complete;
    c->all_passed &= passed;
    c->count++;
    /* a passing test's full report gives way to its one line */
    if (passed && fseeko(c->report, c->mark, SEEK_SET) == 0)
        print_checked(c->report, o);
    c->mark = ftello(c->report);
}

/* ---- the document -------------------------------------------------------------- */

static json_t *configuration_json(const export_opts *o)
{
    json_t *overrides = json_object();
    const proto_options *po = &o->s.proto;
    for (int i = 0; i < po->noverrides; i++)
        json_object_set_new(overrides, po->override_name[i], json_integer(po->override_value[i]));
    const char *net = po->net == PROTO_NET_FIFO ? "fifo" : po->net == PROTO_NET_UNORDERED ? "unordered"
                                                                                          : "as-declared";
    return json_pack("{s:s, s:s, s:o}", "net", net, "racy", o->s.racy_undefined ? "undefined" : "check",
                     "overrides", overrides);
}

static json_t *document(json_t *content, const export_opts *o, collected *c)
{
    json_t *verification = json_pack("{s:s, s:s, s:o, s:o, s:o}", "scopecheck_version", SCOPECHECK_VERSION, "model",
                                     o->s.model_name, "configuration", configuration_json(o), "covered",
                                     shape_json(&c->covered), "checks", c->checks);
    json_t *doc = json_pack("{s:s, s:i, s:o, s:o}", "format", PROTO_EXPORT_FORMAT, "version",
                            PROTO_EXPORT_VERSION, "content", content, "verification", verification);
    json_t *stamp = doc ? stamp_make(doc) : NULL;
    if (!stamp) {
        json_decref(doc);
        return NULL;
    }
    json_object_set_new(doc, "stamp", stamp);
    return doc;
}

static bool dump_document(void *doc, FILE *f, FILE *err)
{
    (void)err;      /* a failed write is found by output_write_stream */
    return json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII) == 0 &&
           fputc('\n', f) != EOF;
}

/* Whole or not at all, and never in place of a device or a FIFO
 * (base/output_file.h). */
static bool write_document(json_t *doc, const char *path, FILE *err)
{
    return output_write_stream("export", path, dump_document, doc, err) == 0;
}

static void print_summary(FILE *out, const collected *c)
{
    size_t i;
    json_t *r;
    json_array_foreach(c->checks, i, r)
        print_checked(out, r);
}

/* Every test is one the protocol can run (protocol/runnable.h), checked
 * before any is verified: a refusal costs no search.  0, or 2 after the
 * errors on `err`. */
static int check_runnable(const export_opts *o, FILE *err)
{
    file_list files = {0};
    bool ok = true;
    for (int i = 0; i < o->nargs; i++)
        ok &= file_list_add_arg(&files, o->args[i], err);
    for (int i = 0; i < files.count; i++) {
        litmus_test *t = litmus_read_file(files.paths[i], err);
        ok &= t && proto_test_runnable(t, files.paths[i], err);
    }
    return ok ? 0 : 2;
}

/* Runs verify with its report in memory: printed only when a check
 * failed, and then with one line for each test that passed. */
static int run_verify(export_opts *o, const protocol *p, collected *c, FILE *out, FILE *err)
{
    char *report = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&report, &len);
    if (!mem)
        return fail(err, "%s", "out of memory");
    c->report = mem;
    verify_run r = {.settings = &o->s, .p = p, .observe = on_record, .observe_ctx = c};
    int status = verify_files(&r, o->args, o->nargs, mem, err);
    fclose(mem);
    if (status != 0 || !c->all_passed)
        fputs(report, out);
    free(report);
    if (status == 0 && !c->all_passed)
        status = 3;
    if (status == 0 && c->count == 0)
        return fail(err, "%s", "no litmus test given (or the directories hold none)");
    return status;
}

int export_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    export_opts o;
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    protocol *p = check_args_protocol("export", o.protocol, err);
    if (!p)
        return 2;
    collected c = {.checks = json_array(), .all_passed = true};
    status = check_runnable(&o, err);
    if (status == 0)
        status = run_verify(&o, p, &c, out, err);
    if (status != 0) {
        json_decref(c.checks);
        fprintf(err, "scopecheck export: %s: nothing written (%s)\n", o.output,
                status == 1 ? "a check failed" : status == 3 ? "a search was incomplete" : "unusable input");
        return status;
    }
    json_t *content = proto_export_content(p, &o.s.proto, err);
    json_t *doc = content ? document(content, &o, &c) : NULL;
    if (!doc) {
        json_decref(c.checks);
        return content ? fail(err, "%s", "out of memory") : 2;
    }
    bool written = write_document(doc, o.output, err);
    if (written) {
        print_summary(out, &c);
        fprintf(out, "Wrote %s (sha256 %s)\n", o.output,
                json_string_value(json_object_get(json_object_get(doc, "stamp"), "digest")));
    }
    json_decref(doc);
    return written ? 0 : 2;
}
