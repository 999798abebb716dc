/* cli/export_cmd.c: `scopecheck export` (see cli/export_cmd.h).  The
 * checks are verify's own: this module builds verify's command line,
 * collects one record per test through verify_cmd_run's observer, and
 * writes the tables only when every record says pass. */
#include "cli/export_cmd.h"

#include <dirent.h>
#include <errno.h>
#include <gc.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/stamp.h"
#include "base/version.h"
#include "cli/model_path.h"
#include "protocol/program_json.h"
#include "cli/verify_cmd.h"
#include "protocol/export.h"
#include "protocol/options.h"

typedef struct export_opts {
    const char *protocol, *model, *output;
    const char *racy;           /* --racy: check (the default) or undefined */
    proto_options proto;
    const char **verify_argv;   /* verify's options, as given */
    int verify_argc;
    const char **files;         /* litmus files, directories expanded */
    int nfiles;
} export_opts;

/* What the observer collects: one JSON object per checked test. */
typedef struct collected {
    json_t *checks;
    bool all_passed;
    proto_shape covered;        /* the largest of each dimension over the tests */
} collected;

static void usage(FILE *to)
{
    fputs("usage: scopecheck export --protocol NAME|FILE.proto [--model NAME|FILE.cat] [--const NAME=VALUE]...\n"
          "                         [--net fifo|unordered] [--max-states N] [--max-memory BYTES]\n"
          "                         [--timeout SECONDS] [--racy check|undefined] LITMUS|DIR... -o OUT.tables.json\n"
          "  Runs verify on every test (a directory: its *.litmus files) and, only when every\n"
          "  check passes, writes the protocol's tables with a stamp for scopesim\n"
          "  (docs/tables-format.md).  Exit 0 written, 1 a violation (verify's report is\n"
          "  printed, nothing is written), 2 unusable input, 3 a search was incomplete.\n"
          "  --racy undefined: as verify's (a test the model flags as racy allows every\n"
          "  outcome); recorded in the stamped configuration.\n",
          to);
}

static int fail(FILE *err, const char *fmt, const char *arg)
{
    fputs("scopecheck export: error: ", err);
    fprintf(err, fmt, arg);
    fputc('\n', err);
    return 2;
}

static void push_arg(export_opts *o, const char *a) { o->verify_argv[o->verify_argc++] = a; }

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* A directory's *.litmus files, sorted; false when it cannot be read. */
static bool add_directory(export_opts *o, const char *dir, int *cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    int first = o->nfiles;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 8 || strcmp(e->d_name + n - 7, ".litmus") != 0)
            continue;
        if (o->nfiles == *cap) {
            *cap *= 2;
            const char **grown = GC_MALLOC(sizeof *grown * (size_t)*cap);
            memcpy(grown, o->files, sizeof *grown * (size_t)o->nfiles);
            o->files = grown;
        }
        char *path = GC_MALLOC_ATOMIC(strlen(dir) + n + 2);
        sprintf(path, "%s/%s", dir, e->d_name);
        o->files[o->nfiles++] = path;
    }
    closedir(d);
    qsort(o->files + first, (size_t)(o->nfiles - first), sizeof *o->files, by_name);
    return true;
}

static int collect_files(export_opts *o, int argc, char **argv, FILE *err)
{
    int cap = 64;
    o->files = GC_MALLOC(sizeof *o->files * (size_t)cap);
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (!add_directory(o, argv[i], &cap))
                return fail(err, "cannot read directory '%s'", argv[i]);
            continue;
        }
        if (o->nfiles == cap) {
            cap *= 2;
            const char **grown = GC_MALLOC(sizeof *grown * (size_t)cap);
            memcpy(grown, o->files, sizeof *grown * (size_t)o->nfiles);
            o->files = grown;
        }
        o->files[o->nfiles++] = argv[i];
    }
    if (o->nfiles == 0)
        return fail(err, "%s", "no litmus test given (or the directories hold none)");
    return -1;
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
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->model = "ptx6";
    o->racy = "check";
    o->verify_argv = GC_MALLOC(sizeof *o->verify_argv * (size_t)(2 * argc + 4));
    push_arg(o, "verify");
    optind = 1;
    opterr = 0;
    int ch, index = -1;
    while ((ch = getopt_long(argc, argv, "p:m:o:", longopts, &index)) != -1) {
        const char *name = NULL;    /* the option verify takes, by its long name */
        switch (ch) {
        case 'h': usage(out); return 0;
        case 'o': o->output = optarg; continue;
        case 'p': o->protocol = optarg; name = "--protocol"; break;
        case 'm': o->model = optarg; name = "--model"; break;
        case 'c':
            if (!proto_options_const(&o->proto, optarg))
                return fail(err, "--const takes NAME=NUMBER, not '%s'", optarg);
            name = "--const";
            break;
        case 'n':
            if (!proto_options_net(&o->proto, optarg))
                return fail(err, "--net takes fifo or unordered, not '%s'", optarg);
            name = "--net";
            break;
        case 's': name = "--max-states"; break;
        case 'M': name = "--max-memory"; break;
        case 't': name = "--timeout"; break;
        case 'R':
            if (strcmp(optarg, "check") != 0 && strcmp(optarg, "undefined") != 0)
                return fail(err, "--racy takes check or undefined, not '%s'", optarg);
            o->racy = optarg;
            name = "--racy";
            break;
        default:
            fail(err, "unknown or incomplete option '%s'", argv[optind - 1]);
            usage(err);
            return 2;
        }
        push_arg(o, name);
        push_arg(o, optarg);
    }
    if (!o->protocol)
        return fail(err, "%s", "--protocol is required");
    if (!o->output)
        return fail(err, "%s", "-o OUT.tables.json is required");
    return collect_files(o, argc, argv, err);
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
    c->all_passed &= r->status == 0 && r->complete;
}

/* ---- the document -------------------------------------------------------------- */

static json_t *configuration_json(const export_opts *o)
{
    json_t *overrides = json_object();
    for (int i = 0; i < o->proto.noverrides; i++)
        json_object_set_new(overrides, o->proto.override_name[i], json_integer(o->proto.override_value[i]));
    const char *net = o->proto.net == PROTO_NET_FIFO ? "fifo" : o->proto.net == PROTO_NET_UNORDERED ? "unordered"
                                                                                                    : "as-declared";
    return json_pack("{s:s, s:s, s:o}", "net", net, "racy", o->racy, "overrides", overrides);
}

static json_t *document(json_t *content, const export_opts *o, collected *c)
{
    json_t *verification = json_pack("{s:s, s:s, s:o, s:o, s:o}", "scopecheck_version", SCOPECHECK_VERSION, "model",
                                     o->model, "configuration", configuration_json(o), "covered",
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

/* Writes beside the target under a temporary name, then renames: a
 * failure leaves nothing behind. */
static bool write_document(const json_t *doc, const char *path, FILE *err)
{
    char *tmp = GC_MALLOC_ATOMIC(strlen(path) + 16);
    sprintf(tmp, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(err, "scopecheck export: error: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    mode_t mask = umask(0);     /* mkstemp makes 0600; a written file gets the usual 0666 & ~umask */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "w");
    bool ok = f && json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII) == 0;
    ok &= f && fputc('\n', f) != EOF;
    if (f)
        ok &= fclose(f) == 0;
    else
        close(fd);
    if (ok && rename(tmp, path) == 0)
        return true;
    fprintf(err, "scopecheck export: error: cannot write '%s': %s\n", path, strerror(errno));
    unlink(tmp);
    return false;
}

static void print_summary(FILE *out, const collected *c)
{
    size_t i;
    json_t *r;
    json_array_foreach(c->checks, i, r)
        fprintf(out, "Checked %s: %s (%lld states)\n", json_string_value(json_object_get(r, "test")),
                json_string_value(json_object_get(r, "result")),
                (long long)json_integer_value(json_object_get(r, "states")));
}

/* Runs verify with its report in memory: printed only when a check failed. */
static int run_verify(export_opts *o, collected *c, FILE *out, FILE *err)
{
    char **argv = GC_MALLOC(sizeof *argv * (size_t)(o->verify_argc + o->nfiles + 1));
    int argc = 0;
    for (int i = 0; i < o->verify_argc; i++)
        argv[argc++] = (char *)o->verify_argv[i];
    for (int i = 0; i < o->nfiles; i++)
        argv[argc++] = (char *)o->files[i];
    char *report = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&report, &len);
    if (!mem)
        return fail(err, "%s", "out of memory");
    int status = verify_cmd_run(argc, argv, mem, err, on_record, c);
    fclose(mem);
    if (status != 0 || !c->all_passed)
        fputs(report, out);
    free(report);
    if (status == 0 && !c->all_passed)
        status = 3;
    return status;
}

int export_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    export_opts o;
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    const char *path = model_path_find(o.protocol, ".proto");
    if (!path)
        return fail(err, "no protocol '%s' (a name in models/, or a .proto file)", o.protocol);
    protocol *p = protocol_load(path, err);
    if (!p)
        return 2;
    collected c = {.checks = json_array(), .all_passed = true};
    status = run_verify(&o, &c, out, err);
    if (status != 0) {
        json_decref(c.checks);
        fprintf(err, "scopecheck export: %s: nothing written (%s)\n", o.output,
                status == 1 ? "a check failed" : status == 3 ? "a search was incomplete" : "unusable input");
        return status;
    }
    json_t *content = proto_export_content(p, &o.proto, err);
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
