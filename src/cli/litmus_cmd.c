/* cli/litmus_cmd.c: `scopecheck litmus` (see cli/litmus_cmd.h). */
#include "cli/litmus_cmd.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"
#include "cli/model_path.h"
#include "cli/schedule_opts.h"
#include "report/live.h"
#include "report/report.h"

#define DEFAULT_UNROLL 2
#define MAX_UNROLL 64

/* A run checks file after file and keeps almost nothing from one to the
 * next.  From the collector's smallest heap that is a collection every few
 * files, about 0.1 ms each (it scans the data of every loaded library); a
 * heap of 2 MiB from the start spaces them out.  With the reader's buffer
 * sized to the file, 2 MiB costs 0.6% more instructions than 8 MiB over the
 * ptx6 corpus at half the peak memory (5.5 against 11.3 MiB;
 * docs/PERFORMANCE.md). */
#define BATCH_HEAP_BYTES ((size_t)2 << 20)

typedef struct file_list {
    int count, capacity;
    const char **paths;
} file_list;

typedef struct litmus_opts {
    const char *model;
    int unroll;
    bool json;
    bool races;
    schedule_opts sched;
} litmus_opts;

static void usage(FILE *to)
{
    fputs("usage: scopecheck litmus [--model NAME|PATH.cat] [--unroll N] [--json] FILE|DIR...\n"
          "  --model M   memory model: ptx6 (default), ptx75, sc, or a .cat file\n"
          "  --unroll N  times a loop's backward branch may be taken per path (default 2)\n"
          "  --json      one JSON object per test and line instead of herd's block\n"
          "  --races     list every racing pair the model flags (JSON: \"races\")\n",
          to);
    schedule_usage(to, false);
}

static void list_add(file_list *l, const char *path)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2 * l->capacity : 64;
        const char **grown = GC_MALLOC(sizeof *grown * (size_t)l->capacity);
        if (l->count)
            memcpy(grown, l->paths, sizeof *grown * (size_t)l->count);
        l->paths = grown;
    }
    l->paths[l->count++] = path;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Adds every *.litmus below dir, sorted, so runs are reproducible. */
static bool collect_dir(const char *dir, file_list *l, FILE *err, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(err, "%s: error: cannot open directory: %s\n", dir, strerror(errno));
        return false;
    }
    file_list here = {0};
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        size_t size = strlen(dir) + strlen(ent->d_name) + 2;
        char *path = GC_MALLOC_ATOMIC(size);
        snprintf(path, size, "%s/%s", dir, ent->d_name);
        list_add(&here, path);
    }
    closedir(d);
    qsort(here.paths, (size_t)here.count, sizeof *here.paths, compare_paths);
    bool ok = true;
    for (int i = 0; i < here.count; i++) {
        struct stat st;
        if (stat(here.paths[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth < 32)
            ok &= collect_dir(here.paths[i], l, err, depth + 1);
        else if (S_ISREG(st.st_mode) && has_suffix(here.paths[i], ".litmus"))
            list_add(l, here.paths[i]);
    }
    return ok;
}

static bool collect_arg(const char *arg, file_list *l, FILE *err)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(err, "%s: error: %s\n", arg, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode))
        return collect_dir(arg, l, err, 0);
    list_add(l, GC_STRDUP(arg));
    return true;
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

/* Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, litmus_opts *o, FILE *out, FILE *err)
{
    static const struct option longopts[] = {
        {"model", required_argument, NULL, 'm'},
        {"unroll", required_argument, NULL, 'u'},
        {"json", no_argument, NULL, 'j'},
        {"races", no_argument, NULL, 'r'},
        {"liveness", no_argument, NULL, 'L'},
        {"fairness", required_argument, NULL, 'F'},
        {"occupancy", required_argument, NULL, 'O'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    o->model = "ptx6";
    o->unroll = DEFAULT_UNROLL;
    o->json = false;
    o->races = false;
    schedule_defaults(&o->sched);
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "+m:u:jrh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'm': o->model = optarg; break;
        case 'u':
            if (!parse_unroll(optarg, &o->unroll)) {
                fprintf(err, "scopecheck litmus: error: --unroll takes a whole number from 0 to %d, not '%s'\n",
                        MAX_UNROLL, optarg);
                return 2;
            }
            break;
        case 'j': o->json = true; break;
        case 'r': o->races = true; break;
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
        case 'h': usage(out); return 0;
        default:
            fprintf(err, "scopecheck litmus: error: unknown or incomplete option '%s'\n", argv[optind - 1]);
            usage(err);
            return 2;
        }
    }
    if (optind >= argc) {
        fputs("scopecheck litmus: error: no litmus file or directory given\n", err);
        usage(err);
        return 2;
    }
    return -1;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The liveness answer of one test (docs/liveness.md). */
static report_live *check_liveness(const litmus_test *t, const litmus_opts *o, const cat_model *m,
                                   cat_workspace *ws)
{
    report_live *live = GC_MALLOC(sizeof *live);
    live->options.fairness = o->sched.fair_weak ? LIVE_FAIR_WEAK : LIVE_FAIR_NONE;
    live->options.occupancy = o->sched.occupancy;
    enum_options eo = {.unroll = o->unroll, .max_traces = 100000};
    enumerate_liveness(t, m, ws, &eo, &live->options, &live->result);
    return live;
}

/* Checks one file; false when it was unusable.  *unknown: some answer
 * (liveness) was not established. */
static bool check_file(const char *path, const litmus_opts *o, const cat_model *m, cat_workspace *ws,
                       FILE *out, FILE *err, bool *unknown)
{
    litmus_test *t = litmus_read_file(path, err);
    if (!t)
        return false;
    double start = now_seconds();
    enum_options eo = {.unroll = o->unroll, .max_traces = 100000, .races = o->races};
    check_result r;
    if (!enumerate_check(t, m, ws, &eo, &r, err))
        return false;
    report_info info = {.model = o->model, .cat = m, .unroll = o->unroll, .races = o->races};
    if (o->sched.liveness) {
        report_live *live = check_liveness(t, o, m, ws);
        info.extra_herd = report_live_herd;
        info.extra_json = report_live_json;
        info.extra = live;
        *unknown |= live->result.verdict == LIVE_UNKNOWN;
    }
    info.seconds = now_seconds() - start;
    if (o->json)
        report_json(out, t, &r, &info);
    else
        report_herd(out, t, &r, &info);
    return true;
}

int litmus_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    litmus_opts o;
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    const char *path = model_path_resolve(o.model);
    if (!path) {
        fprintf(err, "scopecheck litmus: error: no model '%s' (names: ptx6, ptx75, sc; or a path to a .cat file)\n",
                o.model);
        return 2;
    }
    cat_model *m = cat_load(path, err);
    if (!m)
        return 2;
    cat_workspace *ws = cat_workspace_new(m);
    GC_expand_hp(BATCH_HEAP_BYTES); /* a hint: the run goes on without it */
    file_list files = {0};
    bool ok = true, unknown = false;
    for (int i = optind; i < argc; i++)
        ok &= collect_arg(argv[i], &files, err);
    for (int i = 0; i < files.count; i++) {
        ok &= check_file(files.paths[i], &o, m, ws, out, err, &unknown);
        fflush(out);
    }
    return !ok ? 2 : unknown ? 3 : 0;
}
