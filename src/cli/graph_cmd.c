/* cli/graph_cmd.c: `scopecheck graph` (see cli/graph_cmd.h). */
#include "cli/graph_cmd.h"

#include <errno.h>
#include <gc.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/data_path.h"
#include "base/size.h"
#include "cat/cat.h"
#include "litmus/read.h"
#include "cli/herd_args.h"
#include "cli/model_path.h"
#include "base/output_file.h"
#include "cli/draw_load.h"
#include "draw/graph_input.h"
#include "litmus/outcome.h"
#include "protocol/html.h"
#include "protocol/options.h"
#include "protocol/protocol.h"
#include "cli/check_args.h"
#include "verify/verify.h"

#define DEFAULT_MAX_STATES 200000

typedef struct graph_opts {
    const char *protocol, *model, *output, *litmus, *format;
    bool tables, msc, full;
    uint64_t max_states;
    verify_settings s;       /* --model, --net, --const */
} graph_opts;





static void usage(FILE *to)
{
    fputs("usage: scopecheck graph --protocol NAME|FILE.proto [--model NAME|FILE.cat] [--max-states N]\n"
          "                        [--const NAME=VALUE] [--net fifo|unordered] [--msc | --full]\n"
          "                        LITMUS -o OUT.{dot,svg,png}\n"
          "       scopecheck graph --protocol NAME|FILE.proto --tables -o OUT.html\n"
          "  --protocol P     protocol tables (models/P.proto), e.g. gpu_vi\n"
          "  --model M        memory model that decides which outcomes are unsound (default ptx6)\n"
          "  --max-states N   refuse state spaces of more than N states (default 200000)\n"
          "  --msc            draw the counterexample as a message-sequence chart (one lifeline per\n"
          "                   thread and controller instance); with none, the shortest complete run\n"
          "  --full           draw every state; by default a graph of more than 300 states shows\n"
          "                   the highlighted paths and one transition around them\n"
          "  --const N=V      override a configuration constant of the protocol\n"
          "  --net            make every channel of the protocol fifo or unordered\n"
          "  --tables         write each controller's transition table as HTML instead, as written\n"
          "                   and as a state x event matrix\n"
          "  -o, --output F   the file to write; its extension names the format\n",
          to);
}

static int option_error(FILE *err, const char *what, const char *value)
{
    fprintf(err, "scopecheck graph: error: %s '%s'\n", what, value);
    return 2;
}

/* The format named by the output's extension, or NULL. */
static const char *output_format(const char *path, bool tables)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot || dot[1] == '\0')
        return NULL;
    const char *ext = dot + 1;
    if (tables)
        return strcmp(ext, "html") == 0 || strcmp(ext, "htm") == 0 ? "html" : NULL;
    if (strcmp(ext, "dot") == 0 || strcmp(ext, "gv") == 0)
        return "dot";
    if (strcmp(ext, "svg") == 0)
        return "svg";
    if (strcmp(ext, "png") == 0)
        return "png";
    return NULL;
}

static int parse_one(int ch, graph_opts *o, FILE *err)
{
    switch (ch) {
    case 'p': o->protocol = optarg; return -1;
    case 'm': o->model = optarg; return -1;
    case 'o': o->output = optarg; return -1;
    case 'T': o->tables = true; return -1;
    case 'S': o->msc = true; return -1;
    case 'F': o->full = true; return -1;
    case 's': {
        uint64_t n;
        if (!size_parse(optarg, &n) || n == 0)
            return option_error(err, "--max-states takes a positive number below 2^64 (suffix K, M, G allowed), not", optarg);
        o->max_states = n;
        return -1;
    }
    case 'n': case 'c':
        return check_args_option(ch, "graph", &o->s, err);
    default:
        fputs("scopecheck graph: error: unknown or incomplete option\n", err);
        usage(err);
        return 2;
    }
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, graph_opts *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"protocol", required_argument, NULL, 'p'}, {"model", required_argument, NULL, 'm'},
        {"output", required_argument, NULL, 'o'},   {"max-states", required_argument, NULL, 's'},
        {"net", required_argument, NULL, 'n'},      {"const", required_argument, NULL, 'c'},
        {"tables", no_argument, NULL, 'T'},         {"help", no_argument, NULL, 'h'},
        {"msc", no_argument, NULL, 'S'},            {"full", no_argument, NULL, 'F'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    verify_settings_default(&o->s);
    o->model = o->s.model_name;
    o->max_states = DEFAULT_MAX_STATES;
    /* herd7's habits (`-hexa true`, `-v`) are read exactly as typed, as
     * litmus reads them: never taken for -h (cli/herd_args.h) */
    const char *herd_notes = NULL;
    int herd_status = herd_args_check("graph", &argc, argv, longopts, "p:m:o:h", &herd_notes, err);
    if (herd_status >= 0)
        return herd_status;
    if (herd_notes)
        fputs(herd_notes, err);
    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "p:m:o:h", longopts, NULL)) != -1) {
        if (ch == 'h') {
            usage(out);
            return 0;
        }
        int status = parse_one(ch, o, err);
        if (status >= 0)
            return status;
    }
    if (!o->protocol) {
        fputs("scopecheck graph: error: --protocol is required\n", err);
        return 2;
    }
    if (!o->output) {
        fputs("scopecheck graph: error: -o OUT is required\n", err);
        return 2;
    }
    if ((o->tables && (o->msc || o->full)) || (o->msc && o->full)) {
        fputs("scopecheck graph: error: --tables, --msc and --full do not go together\n", err);
        return 2;
    }
    int want = o->tables ? 0 : 1;
    if (argc - optind != want) {
        fputs(o->tables ? "scopecheck graph: error: --tables takes no litmus file\n"
                        : "scopecheck graph: error: give exactly one litmus file\n",
              err);
        return 2;
    }
    if (!o->tables)
        o->litmus = data_path_arg(argv[optind]);     /* a bundled test by its path in the tree */
    o->format = output_format(o->output, o->tables);
    if (!o->format) {
        fprintf(err, "scopecheck graph: error: cannot tell the format of '%s': use %s\n", o->output,
                o->tables ? ".html" : ".dot, .svg or .png");
        return 2;
    }
    return -1;
}

/* ---- tables -------------------------------------------------------------- */

static bool write_html(void *ctx, FILE *f, FILE *err)
{
    return proto_html_write(ctx, f, err);
}

/* ---- the state graph and the chart -------------------------------------------- */

/* Reads the litmus test, binds it to the protocol and computes the
 * model's outcomes through the verification library (so that graph
 * refuses what verify refuses and judges outcomes by verify's rules),
 * then draws the state graph or the chart through the drawing plugin
 * (loaded first: without it nothing is read); 0 or 2. */
static int state_graph(graph_opts *o, const protocol *p, FILE *out, FILE *err)
{
    const draw_plugin *draw = draw_load("graph", err);
    if (!draw)
        return 2;
    graph_input in = {.litmus_path = o->litmus, .model_name = o->model, .format = o->format, .output = o->output,
                      .p = p, .max_states = o->max_states, .full = o->full};
    litmus_test *t = litmus_read_file(o->litmus, err);
    if (!t)
        return 2;
    in.t = t;
    const char *model_path = model_path_resolve(o->model);
    if (!model_path) {
        model_path_unknown(err, "graph", o->model);
        return 2;
    }
    cat_model *m = cat_load(model_path, err);
    if (!m)
        return 2;
    o->s.model_name = o->model;
    verify_result *v = GC_MALLOC(sizeof *v);
    if (verify_prepare(&o->s, t, o->litmus, p, m, cat_workspace_new(m), v, err) != SC_STATUS_OK)
        return 2;
    in.inst = v->inst;
    in.verdict = v;
    return o->msc ? draw->msc(&in, out, err) : draw->state_graph(&in, out, err);
}

int graph_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    graph_opts o;
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    output_guard_signals();
    protocol *p = check_args_protocol("graph", o.protocol, err);
    if (!p)
        return 2;
    if (o.tables) {
        status = output_write_stream("graph", o.output, write_html, p, err);
        if (status == 0)
            fprintf(out, "Wrote %s\n", o.output);
        return status;
    }
    return state_graph(&o, p, out, err);
}
