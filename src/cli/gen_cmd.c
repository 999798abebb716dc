/* cli/gen_cmd.c: `scopecheck gen`, `convert` and `shrink` (see cli/gen_cmd.h). */
#include "cli/gen_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/output_file.h"
#include "gen/gen.h"
#include "litmus/print.h"
#include "litmus/read.h"

enum dialect { DIALECT_PTX, DIALECT_OPENCL };

static bool parse_dialect(const char *s, enum dialect *d)
{
    if (strcmp(s, "ptx") == 0)
        *d = DIALECT_PTX;
    else if (strcmp(s, "opencl") == 0)
        *d = DIALECT_OPENCL;
    else
        return false;
    return true;
}

static bool print_test(FILE *out, const litmus_test *t, enum dialect d, const char **why)
{
    return d == DIALECT_PTX ? litmus_print_ptx(out, t, why) : litmus_print_opencl(out, t, why);
}

/* -o DIR: created when missing (its parent must exist), as diy7 does;
 * false, with a message, when it cannot be. */
static bool ensure_dir(const char *dir, FILE *err)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return true;
        fprintf(err, "%s: error: -o needs a directory, and this is not one\n", dir);
        return false;
    }
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return true;
    fprintf(err, "%s: error: cannot create the directory: %s\n", dir, strerror(errno));
    return false;
}

/* Writes t to DIR/NAME.litmus whole or not at all, never in place of a
 * device or a FIFO (base/output_file.h).  Returns 0, 1 (no exact form:
 * *why says why, nothing written) or 2 (an output error, reported). */
static int write_test(const char *dir, const litmus_test *t, enum dialect d, const char **why, FILE *err)
{
    size_t size = strlen(dir) + strlen(t->name) + 32;
    char *path = GC_MALLOC_ATOMIC(size);
    snprintf(path, size, "%s/%s.litmus", dir, t->name);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fprintf(err, "%s: error: cannot write: %s\n", path, strerror(errno));
        return 2;
    }
    bool exact = print_test(mem, t, d, why);
    fclose(mem);
    int status = exact ? output_write_data("gen", path, text, len, err) : 1;
    free(text);
    return status;
}

static bool parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* "fences,cas" adds (or, with `remove`, takes away) those features. */
static bool parse_features(const char *list, bool remove, unsigned *features, FILE *err)
{
    char *copy = GC_STRDUP(list), *save = NULL;
    for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        unsigned bit = strcmp(name, "all") == 0 ? (unsigned)GEN_ALL : gen_feature_bit(name);
        if (!bit) {
            fprintf(err, "scopecheck gen: error: unknown feature '%s' (features: all, %s)\n", name,
                    gen_feature_names());
            return false;
        }
        *features = remove ? *features & ~bit : *features | bit;
    }
    return true;
}

/* ---- gen ------------------------------------------------------------------------ */

static void gen_usage(FILE *to)
{
    fprintf(to,
            "usage: scopecheck gen [--seed S] [--count N] [--first I] [--threads N] [--locations N]\n"
            "                      [--ops N] [--ctas N] [--gpus N] [--only LIST] [--with LIST]\n"
            "                      [--without LIST] [--dialect ptx|opencl] [-o DIR]\n"
            "  writes tests I..I+N-1 of the family (default: 1 test, seed 1) to DIR, or one to stdout\n"
            "  --threads N     at most N threads (2..8, default 3); --locations N (1..6, default 2);\n"
            "  --ops N         operations per thread (1..16, default 4); --ctas N CTAs per GPU (default 2);\n"
            "  --gpus N        GPUs (default 1)\n"
            "  --only/--with/--without LIST: the features, from: all, %s\n"
            "                  (default: all but sys)\n"
            "  --dialect D     ptx (default) or opencl; a test OpenCL cannot express exactly is skipped\n",
            gen_feature_names());
}

typedef struct gen_run {
    gen_options g;
    long count, first;
    enum dialect dialect;
    const char *dir;
    bool help;
} gen_run;

static bool gen_number(int opt, const char *arg, gen_run *r, FILE *err)
{
    long v;
    long lo = 1, hi = 16;
    switch (opt) {
    case 'c': lo = 0, hi = LONG_MAX / 2; break;
    case 'f': lo = 0, hi = LONG_MAX / 2; break;
    case 't': lo = 2, hi = 8; break;
    case 'l': hi = 6; break;
    case 'g': hi = 4; break;
    case 'a': hi = 4; break;
    default: break;
    }
    if (!parse_count(arg, lo, hi, &v)) {
        fprintf(err, "scopecheck gen: error: bad number '%s' (expected %ld..%ld)\n", arg, lo, hi);
        return false;
    }
    switch (opt) {
    case 'c': r->count = v; break;
    case 'f': r->first = v; break;
    case 't': r->g.max_threads = (int)v; break;
    case 'l': r->g.max_locations = (int)v; break;
    case 'p': r->g.max_ops = (int)v; break;
    case 'a': r->g.max_ctas = (int)v; break;
    case 'g': r->g.max_gpus = (int)v; break;
    default: break;
    }
    return true;
}

static bool gen_parse(int argc, char **argv, gen_run *r, FILE *err)
{
    static const struct option longs[] = {
        {"seed", required_argument, 0, 's'},    {"count", required_argument, 0, 'c'},
        {"first", required_argument, 0, 'f'},   {"threads", required_argument, 0, 't'},
        {"locations", required_argument, 0, 'l'}, {"ops", required_argument, 0, 'p'},
        {"ctas", required_argument, 0, 'a'},    {"gpus", required_argument, 0, 'g'},
        {"only", required_argument, 0, 'O'},    {"with", required_argument, 0, 'W'},
        {"without", required_argument, 0, 'X'}, {"dialect", required_argument, 0, 'd'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0},
    };
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:", longs, NULL)) != -1) {
        switch (opt) {
        case 's': {
            char *end;
            errno = 0;
            r->g.seed = strtoull(optarg, &end, 10);
            if (errno || end == optarg || *end) {
                fprintf(err, "scopecheck gen: error: bad seed '%s'\n", optarg);
                return false;
            }
            break;
        }
        case 'O': r->g.features = 0; /* fall through */
        case 'W':
            if (!parse_features(optarg, false, &r->g.features, err))
                return false;
            break;
        case 'X':
            if (!parse_features(optarg, true, &r->g.features, err))
                return false;
            break;
        case 'd':
            if (!parse_dialect(optarg, &r->dialect)) {
                fprintf(err, "scopecheck gen: error: unknown dialect '%s' (ptx or opencl)\n", optarg);
                return false;
            }
            break;
        case 'o': r->dir = optarg; break;
        case 'h': r->help = true; return true;
        case ':': fprintf(err, "scopecheck gen: error: option '%s' needs a value\n", argv[optind - 1]); return false;
        case '?': fprintf(err, "scopecheck gen: error: unknown option '%s'\n", argv[optind - 1]); return false;
        default:
            if (!gen_number(opt, optarg, r, err))
                return false;
        }
    }
    if (optind < argc) {
        fprintf(err, "scopecheck gen: error: unexpected argument '%s'\n", argv[optind]);
        return false;
    }
    if (!r->dir && r->count != 1) {
        fprintf(err, "scopecheck gen: error: --count %ld needs -o DIR (only one test goes to stdout)\n", r->count);
        return false;
    }
    return !r->dir || ensure_dir(r->dir, err);
}

int gen_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    gen_run r = {.count = 1, .dialect = DIALECT_PTX};
    gen_defaults(&r.g);
    if (!gen_parse(argc, argv, &r, err)) {
        gen_usage(err);
        return 2;
    }
    if (r.help) {
        gen_usage(out);
        return 0;
    }
    long skipped = 0;
    for (long i = r.first; i < r.first + r.count; i++) {
        litmus_test *t = gen_test(&r.g, i);
        const char *why = NULL;
        int status = r.dir ? write_test(r.dir, t, r.dialect, &why, err) : (print_test(out, t, r.dialect, &why) ? 0 : 1);
        if (status == 2)
            return 2;
        skipped += status == 1;
    }
    if (skipped)
        fprintf(err, "scopecheck gen: %ld of %ld tests have no exact form in this dialect and were skipped\n",
                skipped, r.count);
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(err, "scopecheck gen: error: cannot write the output: %s\n", strerror(errno));
        return 2;
    }
    return r.count == 1 && skipped ? 1 : 0;
}

/* ---- convert ------------------------------------------------------------------- */

static void convert_usage(FILE *to)
{
    fputs("usage: scopecheck convert --to ptx|opencl FILE... [-o DIR]\n"
          "  writes each test in the other dialect, to DIR/NAME.litmus or (one file) to stdout;\n"
          "  exit 1 when some test has no exact form in that dialect (the reason is printed)\n",
          to);
}

int convert_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    static const struct option longs[] = {{"to", required_argument, 0, 't'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    enum dialect d = DIALECT_PTX;
    bool to_given = false;
    const char *dir = NULL;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":o:", longs, NULL)) != -1) {
        if (opt == 't' && parse_dialect(optarg, &d)) {
            to_given = true;
        } else if (opt == 'o') {
            dir = optarg;
        } else if (opt == 'h') {
            convert_usage(out);
            return 0;
        } else {
            fprintf(err, "scopecheck convert: error: bad option '%s'\n", argv[optind - 1]);
            convert_usage(err);
            return 2;
        }
    }
    if (!to_given || optind >= argc || (!dir && argc - optind > 1)) {
        convert_usage(err);
        return 2;
    }
    if (dir && !ensure_dir(dir, err))
        return 2;
    int status = 0;
    for (int i = optind; i < argc; i++) {
        litmus_test *t = litmus_read_file(argv[i], err);
        if (!t)
            return 2;
        const char *why = NULL;
        int s = dir ? write_test(dir, t, d, &why, err) : (print_test(out, t, d, &why) ? 0 : 1);
        if (s == 2)
            return 2;
        if (s == 1) {
            fprintf(err, "%s: no exact form in this dialect: %s\n", argv[i], why);
            status = 1;
        }
    }
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(err, "scopecheck convert: error: cannot write the output: %s\n", strerror(errno));
        return 2;
    }
    return status;
}

/* ---- shrink --------------------------------------------------------------------- */

static void shrink_usage(FILE *to)
{
    fputs("usage: scopecheck shrink FILE K\n"
          "  prints the K-th one-step reduction of the test (PTX); exit 1 when there is none\n",
          to);
}

int shrink_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    long k;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        shrink_usage(out);
        return 0;
    }
    if (argc != 3 || !parse_count(argv[2], 0, INT_MAX, &k)) {
        shrink_usage(err);
        return 2;
    }
    litmus_test *t = litmus_read_file(argv[1], err);
    if (!t)
        return 2;
    litmus_test *c = shrink_candidate(t, (int)k);
    if (!c)
        return 1;
    const char *why = NULL;
    if (!litmus_print_ptx(out, c, &why)) {
        fprintf(err, "%s: error: cannot print the reduction: %s\n", argv[1], why);
        return 2;
    }
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(err, "scopecheck shrink: error: cannot write the output: %s\n", strerror(errno));
        return 2;
    }
    return 0;
}
