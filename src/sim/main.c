/* sim/main.c: scopesim, the timing simulator over exported tables
 * (docs/simulator.md).  Reads the tables (refusing edited or unstamped
 * ones unless --unverified), a system and a workload, runs, and reports. */
#include <errno.h>
#include <gc.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "base/data_path.h"
#include "base/interrupt.h"
#include "base/version.h"
#include "sim/config.h"
#include "sim/machine.h"
#include "sim/results.h"
#include "sim/tables.h"
#include "sim/workload.h"

#define MAX_EXTRA 64

typedef struct sim_opts {
    const char *tables, *system, *workload, *json, *csv;
    const char *sys_lines[MAX_EXTRA], *work_lines[MAX_EXTRA];
    int nsys, nwork;
    sim_run_opts run;
    bool quiet;
} sim_opts;

static void usage(FILE *to)
{
    fputs("usage: scopesim --tables P.tables.json --system S.sys --workload W.wl [options]\n"
          "  --tables FILE     tables written by `scopecheck export` (docs/tables-format.md)\n"
          "  --system FILE     a system configuration (docs/simulator.md), or a bundled one\n"
          "                    by name (hmg4x1 is models/sim/hmg4x1.sys)\n"
          "  --workload FILE   a workload, or a bundled one by name (sharing: models/sim/sharing.wl)\n"
          "  --sys 'LINE'      one more system setting, e.g. --sys 'link gpu latency 400 bandwidth 16'\n"
          "  --work 'LINE'     one more workload setting, e.g. --work 'kernels 4'\n"
          "  --seed N          random seed (default 1); a run is deterministic for a seed\n"
          "  --ideal           issue every access weak and drop fences: caching with no coherence cost\n"
          "  --unverified      accept unstamped or edited tables, or a system larger than was verified;\n"
          "                    every result is then marked unverified\n"
          "  --max-cycles N    stop there (exit 3, results marked incomplete)\n"
          "  --json FILE       append the results as one JSON object (one line)\n"
          "  --csv FILE        append the results as one CSV line (a header first when FILE is new)\n"
          "  --quiet           no summary on standard output\n"
          "  --no-progress     no progress line on a terminal\n"
          "Exit status: 0 done, 1 the tables met an event they do not handle or deadlocked,\n"
          "2 unusable input, 3 cut by --max-cycles.\n",
          to);
}

static int opt_error(const char *fmt, const char *arg)
{
    fputs("scopesim: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 2;
}

static bool parse_u64(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-')
        return false;
    *out = v;
    return true;
}

static int parse_options(int argc, char **argv, sim_opts *o)
{
    static const struct option longopts[] = {
        {"tables", required_argument, NULL, 't'},   {"system", required_argument, NULL, 's'},
        {"workload", required_argument, NULL, 'w'}, {"sys", required_argument, NULL, 'S'},
        {"work", required_argument, NULL, 'W'},     {"seed", required_argument, NULL, 'r'},
        {"ideal", no_argument, NULL, 'i'},          {"unverified", no_argument, NULL, 'u'},
        {"max-cycles", required_argument, NULL, 'm'}, {"json", required_argument, NULL, 'j'},
        {"csv", required_argument, NULL, 'c'},      {"quiet", no_argument, NULL, 'q'},
        {"no-progress", no_argument, NULL, 'n'},    {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'v'},        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->run.seed = 1;
    o->run.progress = true;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (ch) {
        case 't': o->tables = optarg; break;
        case 's': o->system = optarg; break;
        case 'w': o->workload = optarg; break;
        case 'S':
        case 'W':
            if ((ch == 'S' ? o->nsys : o->nwork) == MAX_EXTRA)
                return opt_error("too many --sys or --work settings (at most 64): '%s'", optarg);
            if (ch == 'S')
                o->sys_lines[o->nsys++] = optarg;
            else
                o->work_lines[o->nwork++] = optarg;
            break;
        case 'r':
            if (!parse_u64(optarg, &o->run.seed))
                return opt_error("--seed takes a number, not '%s'", optarg);
            break;
        case 'm':
            if (!parse_u64(optarg, &o->run.max_cycles) || o->run.max_cycles == 0)
                return opt_error("--max-cycles takes a positive number, not '%s'", optarg);
            break;
        case 'i': o->run.ideal = true; break;
        case 'u': o->run.unverified = true; break;
        case 'j': o->json = optarg; break;
        case 'c': o->csv = optarg; break;
        case 'q': o->quiet = true; break;
        case 'n': o->run.progress = false; break;
        case 'h': usage(stdout); return 0;
        case 'v': printf("scopesim %s\n", SCOPECHECK_VERSION); return 0;
        default:
            opt_error("unknown or incomplete option '%s'", argv[optind - 1]);
            usage(stderr);
            return 2;
        }
    }
    if (optind < argc)
        return opt_error("unexpected argument '%s'", argv[optind]);
    if (!o->tables || !o->system || !o->workload)
        return opt_error("%s", "--tables, --system and --workload are required (scopesim --help)");
    o->system = data_path_named(o->system, "models/sim", ".sys");
    o->workload = data_path_named(o->workload, "models/sim", ".wl");
    return -1;
}

/* Appends text to a file in one write; a CSV header first when the file is new. */
static bool append(const char *path, const char *header, const char *text)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return false;
    bool ok = true;
    if (header && ftell(f) == 0)
        ok = fputs(header, f) >= 0;
    ok &= fputs(text, f) >= 0;
    return (fclose(f) == 0) && ok;
}

static bool write_outputs(const sim_opts *o, const sim_results *r)
{
    char *text = NULL, *head = NULL;
    size_t len = 0, hlen = 0;
    bool ok = true;
    if (o->json) {
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            return false;
        results_json(mem, r);
        fclose(mem);
        ok &= append(o->json, NULL, text);
        free(text);
        if (!ok)
            return opt_error("cannot write '%s'", o->json) == 0;
    }
    if (o->csv) {
        FILE *mem = open_memstream(&text, &len), *hm = open_memstream(&head, &hlen);
        if (!mem || !hm)
            return false;
        results_csv(mem, r);
        results_csv_header(hm, r);
        fclose(mem);
        fclose(hm);
        ok &= append(o->csv, head, text);
        free(text);
        free(head);
        if (!ok)
            return opt_error("cannot write '%s'", o->csv) == 0;
    }
    return true;
}

/* A directory named where a file is expected is refused by name: the
 * readers would otherwise report it as an empty or malformed file. */
static bool inputs_are_files(const sim_opts *o)
{
    const char *paths[] = {o->tables, o->system, o->workload};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: error: is a directory, not a file\n", paths[i]);
            return false;
        }
    }
    return true;
}

/* The text summary on standard output, checked: a full disk or a closed
 * pipe is an error (exit 2) that says why, never a silent success.  The
 * summary is made in memory and written in one call, so nothing is
 * written before it is complete. */
static bool write_summary(const sim_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return opt_error("%s", "out of memory") == 0;
    results_text(mem, r);
    fclose(mem);
    errno = 0;
    bool ok = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 && !ferror(stdout);
    int e = errno;
    free(text);
    if (!ok)
        return opt_error("cannot write the results on standard output: %s", e ? strerror(e) : "write error") == 0;
    return true;
}

int main(int argc, char **argv)
{
    GC_INIT();
    sim_opts o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    if (!inputs_are_files(&o))
        return 2;
    sim_tables *t = sim_tables_load(o.tables, o.run.unverified, stderr);
    if (!t)
        return 2;
    sim_system *s = sys_config_read(o.system, o.sys_lines, o.nsys, stderr);
    sim_workload *w = s ? workload_read(o.workload, o.work_lines, o.nwork, stderr) : NULL;
    if (!s || !w)
        return 2;
    sim_results *r = GC_MALLOC(sizeof *r);
    o.run.stop = interrupt_watch();
    status = machine_run(t, s, w, &o.run, r, stderr);
    if (status == 2)
        return 2;
    if (interrupt_signal())
        fprintf(stderr, "scopesim: interrupted by %s at cycle %llu: the results below are partial\n",
                interrupt_signal() == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)r->cycles);
    if (!o.quiet && !write_summary(r))
        return 2;
    if (!write_outputs(&o, r))
        return 2;
    return status;
}
