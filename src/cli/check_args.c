/* cli/check_args.c: see cli/check_args.h. */
#include "cli/check_args.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model_path.h"
#include "protocol/options.h"
#include "search/par_bfs.h"
#include "search/visited.h"
#include "verify/limit_args.h"

const char *check_args_protocol_path(const char *cmd, const char *name, FILE *err)
{
    const char *path = model_path_find(name, ".proto");
    if (path)
        return path;
    const char *names = model_path_protocol_names();
    fprintf(err, "scopecheck %s: error: no protocol '%s' (bundled protocols: %s; or a mutant of models/mutants/ "
            "by name; or the path of a .proto file; protocols are looked up in $SCOPECHECK_MODELS, then beside "
            "the program)\n", cmd, name, names ? names : "none found");
    return path;
}

protocol *check_args_protocol(const char *cmd, const char *name, FILE *err)
{
    const char *path = check_args_protocol_path(cmd, name, err);
    return path ? protocol_load(path, err) : NULL;
}

static int option_error(FILE *err, const char *cmd, const char *what, const char *value)
{
    fprintf(err, "scopecheck %s: error: %s '%s'\n", cmd, what, value);
    return 2;
}

/* A size option's value into *out, or the exit status of its error. */
static int size_option(FILE *err, const char *cmd, const char *name, const char *example, uint64_t *out)
{
    enum limit_arg r = limit_parse_size(optarg, out);
    if (r == LIMIT_OK)
        return -1;
    if (r == LIMIT_TOO_LARGE) {
        fprintf(err, "scopecheck %s: error: %s '%s' is too large (at most %" PRIu64 ")\n", cmd, name, optarg,
                limit_max_size());
        return 2;
    }
    fprintf(err, "scopecheck %s: error: %s takes %s, not '%s'\n", cmd, name, example, optarg);
    return 2;
}

static int limit_option(int ch, const char *cmd, verify_settings *s, FILE *err)
{
    uint64_t n;
    int status;
    if (ch == 't')
        return limit_parse_seconds(optarg, &s->bfs.timeout_s) == LIMIT_OK
                   ? -1
                   : option_error(err, cmd, "--timeout takes a positive number of seconds, not", optarg);
    if (ch == 's') {
        if ((status = size_option(err, cmd, "--max-states", "a positive number", &n)) >= 0)
            return status;
        s->bfs.max_states = n;
        return -1;
    }
    if ((status = size_option(err, cmd, "--max-memory", "a size such as 512M", &n)) >= 0)
        return status;
    s->bfs.max_memory = (size_t)n;
    return -1;
}

/* --threads N: 1..PAR_BFS_MAX_THREADS. */
static int threads_option(const char *cmd, verify_settings *s, FILE *err)
{
    char *end;
    errno = 0;
    long n = strtol(optarg, &end, 10);
    if (errno || end == optarg || *end || n < 1 || n > PAR_BFS_MAX_THREADS) {
        fprintf(err, "scopecheck %s: error: --threads takes a whole number from 1 to %d, not '%s'\n", cmd,
                PAR_BFS_MAX_THREADS, optarg);
        return 2;
    }
    s->bfs.threads = (int)n;
    return -1;
}

int check_args_option(int ch, const char *cmd, verify_settings *s, FILE *err)
{
    switch (ch) {
    case 'J':
        return threads_option(cmd, s, err);
    case 'n':
        if (!proto_options_net(&s->proto, optarg))
            return option_error(err, cmd, "--net takes fifo or unordered, not", optarg);
        return -1;
    case 'c':
        if (!proto_options_const(&s->proto, optarg))
            return option_error(err, cmd, "--const takes NAME=NUMBER (at most 9 digits), not", optarg);
        return -1;
    case 's': case 'M': case 't':
        return limit_option(ch, cmd, s, err);
    case 'S':
        if (!vs_kind_parse(optarg, &s->bfs.store))
            return option_error(err, cmd, "--store takes plain, tree, hash-compact or bitstate, not", optarg);
        return -1;
    case 'R':
        if (strcmp(optarg, "undefined") && strcmp(optarg, "check"))
            return option_error(err, cmd, "--racy takes check or undefined, not", optarg);
        s->racy_undefined = !strcmp(optarg, "undefined");
        return -1;
    case 'Y':
        if (!verify_symmetry_parse(optarg, &s->symmetry))
            return option_error(err, cmd, "--symmetry takes on, off or auto, not", optarg);
        return -1;
    default:
        return 0;
    }
}
