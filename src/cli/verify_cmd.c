/* cli/verify_cmd.c: `scopecheck verify` (see cli/verify_cmd.h). */
#include "cli/verify_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <gc.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "cli/file_list.h"
#include "cli/herd_args.h"
#include "cli/interrupt.h"
#include "cli/json_error.h"
#include "cli/output.h"
#include "verify/trace_json.h"
#include "verify/value_range.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"
#include "verify/limit_args.h"
#include "cli/model_path.h"
#include "verify/progress.h"
#include "verify/trace_print.h"
#include "verify/schedule_opts.h"
#include "verify/verify_live.h"
#include "verify/verify_mca.h"
#include "litmus/outcome.h"
#include "protocol/options.h"
#include "protocol/protocol.h"
#include "report/report.h"
#include "report/status.h"
#include "search/bfs.h"
#include "search/state_store.h"
#include "verify/witness.h"

#define MAX_UNHANDLED 32

typedef struct verify_opts {
    const char *protocol;
    const char *model;
    bool json;
    int unroll;
    bfs_options bfs;
    proto_options proto;
    trace_detail trace;
    progress_mode progress;
    double progress_every_s;
    schedule_opts sched;
    verify_mca *mca;             /* --write-atomicity, else NULL */
    bool racy_undefined;         /* --racy undefined: a test the model flags allows every outcome */
    bool complete;               /* --complete: the protocol must reach every model outcome */
    verify_observer observe;     /* verify_cmd_run's caller, or NULL */
    void *observe_ctx;
} verify_opts;

/* What one test's check found. */
typedef struct verdict {
    const litmus_test *t;
    outcome_set *protocol_outcomes;
    uint32_t *witness;           /* per protocol outcome: a final state reaching it */
    int witness_cap;
    outcome_set *model_outcomes;
    check_result model;          /* the model's check of the test: flags, races */
    bool undefined;              /* the model leaves the test undefined (a race): every outcome is allowed */
    enum sc_cut cut;             /* why the search stopped early (SC_CUT_NONE: it did not) */
    bool overflow;               /* a step would have left the value range: not taken */
    long overflow_value;
    int unsound;                 /* protocol outcomes the model forbids */
    /* Why the model's outcomes are incomplete (enumerate_incomplete), or
     * NULL.  Then a protocol outcome outside them is not established as
     * unsound: it is counted in `unsure`, and the result is Incomplete. */
    const char *model_cut;
    int unsure;
    int unobserved;              /* model outcomes the protocol never reaches */
    bool complete;               /* --complete: an unobserved outcome is a violation */
    witness_set *missing_why;    /* --complete: an execution per unobserved outcome */
    int nunhandled;
    proto_unhandled_pair unhandled[MAX_UNHANDLED];
    uint32_t unhandled_at[MAX_UNHANDLED];  /* the first state (BFS order) that meets it */
    bfs_result search;
    bfs_search *bfs;
    const proto_instance *inst;
    lit_value *scratch;
    trace_detail trace;
    verify_live live;            /* --liveness, --occupancy, --preempt */
    verify_mca *mca;             /* --write-atomicity */
} verdict;

static void usage(FILE *to)
{
    fprintf(to,
            "usage: scopecheck verify --protocol NAME|FILE.proto [--model NAME|FILE.cat] [--json]\n"
            "                         [--max-states N] [--max-memory BYTES] [--timeout SECONDS]\n"
            "                         [--net fifo|unordered] [--const NAME=VALUE] [--unroll N]\n"
            "                         [--trace short|full] [--progress[=SECONDS] | --no-progress] [--complete]\n"
            "                         [--racy check|undefined] LITMUS|DIR...\n"
            "  --protocol P   protocol tables (models/P.proto), e.g. gpu_vi\n"
            "  --model M      memory model to compare outcomes with: %s;\n"
            "                 or the path of a .cat file; none: compare nothing (deadlocks,\n"
            "                 invariants and liveness only)\n"
            "  --json         one JSON object per test and line\n"
            "  --max-states N, --max-memory BYTES (suffix K, M, G), --timeout SECONDS:\n"
            "                 stop the search there, with partial statistics (Result Incomplete);\n"
            "                 --timeout is one budget per test for the model's outcomes and the\n"
            "                 search, and --max-memory bounds the model's enumeration too\n"
            "  --net          make every channel of the protocol fifo or unordered\n"
            "  --const N=V    override a configuration constant of the protocol; the value\n"
            "                 range is the one each test needs unless N is its constant\n"
            "  --unroll N     loop bound for the model's executions and the value range (default 2)\n"
            "  --trace full   under each trace step, the table row that fired (file:line) and the\n"
            "                 fields the step changed (the whole state at step 0); short (default):\n"
            "                 one line per step\n"
            "  --progress[=S] a progress line on stderr every S seconds (default 2) while a search\n"
            "                 runs; the default prints them only when stderr is a terminal\n"
            "  --no-progress  never print progress lines\n"
            "  --racy undefined  a test on which the model raises a flag (an OpenCL data or scope\n"
            "                 race) has undefined behaviour: its outcomes are not compared (deadlocks,\n"
            "                 invariants and unhandled events still are); check (default): compared\n"
            "                 unless the model says option flags = undefined\n"
            "  --complete     the protocol's outcomes must equal the model's: a model outcome the\n"
            "                 protocol never produces is a violation, shown with an execution\n",
            model_path_bundled_names());
    schedule_usage(to, true);
    fputs("  --write-atomicity  also report the outcomes that only a non-multi-copy-atomic\n"
          "                 machine produces (reference models/" VERIFY_MCA_MODEL ".cat)\n"
          "A directory stands for every *.litmus below it.  Exit status: 0 every test passed;\n"
          "1 a violation (it stands even if the search was cut); 2 unusable input, arguments\n"
          "or output; 3 some search incomplete (a limit, a signal, the value range) or some\n"
          "liveness answer unknown.\n",
          to);
}

static int option_error(FILE *err, const char *what, const char *value)
{
    fprintf(err, "scopecheck verify: error: %s '%s'\n", what, value);
    return 2;
}

/* A size option's value into *out, or the exit status of its error. */
static int size_option(FILE *err, const char *name, const char *example, uint64_t *out)
{
    enum limit_arg r = limit_parse_size(optarg, out);
    if (r == LIMIT_OK)
        return -1;
    if (r == LIMIT_TOO_LARGE) {
        fprintf(err, "scopecheck verify: error: %s '%s' is too large (at most %" PRIu64 ")\n", name, optarg,
                limit_max_size());
        return 2;
    }
    fprintf(err, "scopecheck verify: error: %s takes %s, not '%s'\n", name, example, optarg);
    return 2;
}

/* --progress[=SECONDS]: report, every SECONDS (default 2). */
static int parse_progress(verify_opts *o, FILE *err)
{
    char *end;
    o->progress = PROGRESS_ON;
    if (!optarg)
        return -1;
    errno = 0;
    o->progress_every_s = strtod(optarg, &end);
    if (errno || end == optarg || *end || !(o->progress_every_s > 0))
        return option_error(err, "--progress takes a positive number of seconds, not", optarg);
    return -1;
}

static int parse_one(int ch, verify_opts *o, FILE *err)
{
    uint64_t n;
    int status;
    switch (ch) {
    case 'p': o->protocol = optarg; return -1;
    case 'm': o->model = optarg; return -1;
    case 'j': o->json = true; return -1;
    case 's':
        if ((status = size_option(err, "--max-states", "a positive number", &n)) >= 0)
            return status;
        o->bfs.max_states = n;
        return -1;
    case 'M':
        if ((status = size_option(err, "--max-memory", "a size such as 512M", &n)) >= 0)
            return status;
        o->bfs.max_memory = (size_t)n;
        return -1;
    case 't':
        if (limit_parse_seconds(optarg, &o->bfs.timeout_s) != LIMIT_OK)
            return option_error(err, "--timeout takes a positive number of seconds, not", optarg);
        return -1;
    case 'n':
        if (!proto_options_net(&o->proto, optarg))
            return option_error(err, "--net takes fifo or unordered, not", optarg);
        return -1;
    case 'c':
        if (!proto_options_const(&o->proto, optarg))
            return option_error(err, "--const takes NAME=NUMBER (at most 9 digits), not", optarg);
        return -1;
    case 'T':
        if (!trace_detail_parse(optarg, &o->trace))
            return option_error(err, "--trace takes short or full, not", optarg);
        return -1;
    case 'P':
        return parse_progress(o, err);
    case 'Q':
        o->progress = PROGRESS_OFF;
        return -1;
    case 'R':
        if (strcmp(optarg, "undefined") && strcmp(optarg, "check"))
            return option_error(err, "--racy takes check or undefined, not", optarg);
        o->racy_undefined = !strcmp(optarg, "undefined");
        return -1;
    case 'C':
        o->complete = true;
        return -1;
    case 'u': {
        char *end;
        errno = 0;
        long u = strtol(optarg, &end, 10);
        if (errno || end == optarg || *end || u < 0 || u > 64)
            return option_error(err, "--unroll takes a whole number from 0 to 64, not", optarg);
        o->unroll = (int)u;
        return -1;
    }
    case 'L': o->sched.liveness = true; return -1;
    case 'F': return schedule_fairness(&o->sched, "verify", optarg, err) ? -1 : 3;
    case 'O': return schedule_occupancy(&o->sched, "verify", optarg, err) ? -1 : 3;
    case 'E': o->sched.preempt = true; return -1;
    case 'W':
        o->mca = GC_MALLOC(sizeof *o->mca);
        return -1;
    default:
        return 2;
    }
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
        {"racy", required_argument, NULL, 'R'},
        {"liveness", no_argument, NULL, 'L'},       {"fairness", required_argument, NULL, 'F'},
        {"occupancy", required_argument, NULL, 'O'}, {"preempt", no_argument, NULL, 'E'},
        {"write-atomicity", no_argument, NULL, 'W'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    schedule_defaults(&o->sched);
    o->model = "ptx6";
    o->unroll = 2;
    o->progress_every_s = PROGRESS_DEFAULT_EVERY_S;
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long_only(argc, argv, "+p:m:j", longopts, NULL)) != -1) {
        if (ch == 'h') {
            usage(out);
            return 0;
        }
        int status = parse_one(ch, o, err);
        if (status == 3)     /* a scheduling option's own message is out */
            return 2;
        if (status == 2 && ch != 's' && ch != 'M' && ch != 't' && ch != 'n' && ch != 'c' && ch != 'u' &&
            ch != 'T' && ch != 'P' && ch != 'R') {
            const char *advice = herd_option_advice(argv[optind - 1]);
            if (advice) {
                fprintf(err, "scopecheck verify: error: herd7's option %s is not supported: %s\n",
                        argv[optind - 1], advice);
            } else {
                fprintf(err, "scopecheck verify: error: unknown or incomplete option '%s'\n", argv[optind - 1]);
                usage(err);
            }
        }
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

/* ---- collecting outcomes ----------------------------------------------- */

static void on_final(void *ctx, const uint8_t *state, uint32_t index)
{
    verdict *v = ctx;
    proto_final_values(v->inst, state, v->scratch);
    int before = outcome_count(v->protocol_outcomes);
    int i = outcome_add(v->protocol_outcomes, v->scratch);
    if (i < before)
        return;
    if (i == v->witness_cap) {
        v->witness_cap = v->witness_cap ? 2 * v->witness_cap : 16;
        uint32_t *grown = GC_MALLOC_ATOMIC(sizeof *grown * (size_t)v->witness_cap);
        if (i)
            memcpy(grown, v->witness, sizeof *grown * (size_t)i);
        v->witness = grown;
    }
    v->witness[i] = index;
}

static void compare_outcomes(verdict *v)
{
    int width = v->t->nobserved;
    if (!v->model_outcomes)       /* --model none */
        return;
    if (v->undefined) {           /* herd's Undef: the model allows anything */
        v->unsound = v->unobserved = 0;
        return;
    }
    const lit_value *mine = outcome_values(v->protocol_outcomes);
    for (int i = 0; i < outcome_count(v->protocol_outcomes); i++)
        if (outcome_find(v->model_outcomes, &mine[(size_t)i * (size_t)width]) < 0) {
            if (v->model_cut)
                v->unsure++;
            else
                v->unsound++;
        }
    const lit_value *allowed = outcome_values(v->model_outcomes);
    for (int i = 0; i < outcome_count(v->model_outcomes); i++)
        if (outcome_find(v->protocol_outcomes, &allowed[(size_t)i * (size_t)width]) < 0)
            v->unobserved++;
}

/* A deadlock in a search where a step was dropped for its value may come
 * from the dropped step: it is shown, but it is not an established
 * violation. */
/* With --complete, a model outcome the protocol never reaches is a
 * violation only when the whole state space was explored (and no step was
 * dropped for its value): otherwise the protocol might reach it beyond the
 * cut. */
static bool missing_established(const verdict *v)
{
    return v->complete && v->model_outcomes && v->unobserved && !v->undefined && !v->model_cut &&
           v->cut == SC_CUT_NONE && !v->overflow;
}

static bool has_violation(const verdict *v)
{
    return v->unsound || missing_established(v) || v->nunhandled || (v->search.deadlocks && !v->overflow) ||
           v->search.stop == BFS_VIOLATION || verify_live_failed(&v->live) || (v->mca && v->mca->violations);
}

static enum sc_cut cut_of(bfs_stop stop)
{
    switch (stop) {
    case BFS_EXHAUSTED: return SC_CUT_NONE;
    case BFS_VIOLATION: return SC_CUT_VIOLATION;
    case BFS_MAX_STATES: return SC_CUT_MAX_STATES;
    case BFS_MAX_MEMORY: return SC_CUT_MAX_MEMORY;
    case BFS_TIMEOUT: return SC_CUT_TIMEOUT;
    case BFS_INTERRUPTED: return SC_CUT_INTERRUPTED;
    case BFS_BAD_MODEL: return SC_CUT_MAX_MEMORY;
    }
    return SC_CUT_MAX_MEMORY;
}

/* Fail when a violation was found (it stands even if the search was cut),
 * Incomplete when the search was cut before finding one, else Pass. */
static int verdict_status(const verdict *v)
{
    if (has_violation(v))
        return SC_STATUS_VIOLATION;
    return v->cut != SC_CUT_NONE || v->model_cut || verify_live_unknown(&v->live) || (v->mca && v->mca->cut)
               ? SC_STATUS_INCOMPLETE
               : SC_STATUS_OK;
}

static const char *result_word(const verdict *v)
{
    int s = verdict_status(v);
    return s == SC_STATUS_VIOLATION ? "Fail" : s == SC_STATUS_INCOMPLETE ? "Incomplete" : "Pass";
}

/* ---- where unhandled events happen ------------------------------------------ */

static void ignore_successor(void *ctx, const uint8_t *next, int rule)
{
    (void)ctx, (void)next, (void)rule;
}

/* The interpreter only lists the unhandled (state, event) pairs.  To give
 * each a shortest trace, a fresh instance of the protocol (with an empty
 * list) re-expands the stored states in BFS order until it has met them
 * all: the first state that meets a pair is one of the shallowest. */
static void locate_unhandled(verdict *v, const protocol *p, const proto_options *po)
{
    int n = v->nunhandled < MAX_UNHANDLED ? v->nunhandled : MAX_UNHANDLED;
    if (n == 0)
        return;
    proto_instance *fresh = proto_instantiate(p, v->t, po, stderr);
    if (!fresh || n == 0)
        return;
    const nsi_model *m = proto_nsi(fresh);
    const state_store *store = bfs_store(v->bfs);
    int seen = 0;
    proto_unhandled_pair found[MAX_UNHANDLED];
    for (uint32_t i = 0; i < ss_count(store) && seen < n; i++) {
        m->successors(m->ctx, ss_state(store, i), ignore_successor, NULL);
        int now = proto_unhandled(fresh, found, MAX_UNHANDLED);
        for (int k = seen; k < now && k < MAX_UNHANDLED; k++) {
            v->unhandled[k] = found[k];
            v->unhandled_at[k] = i;
        }
        seen = now;
    }
    v->nunhandled = seen < n ? seen : n;
}

/* ---- printing ------------------------------------------------------------ */

static void print_outcomes(FILE *out, const litmus_test *t, outcome_set *set, const char *title)
{
    int count = outcome_count(set);
    const lit_value *sorted = outcome_sorted(set);
    const char *paren = strchr(title, '(');
    if (paren)    /* "Protocol outcomes (why)": the count goes before the reason */
        fprintf(out, "%.*s%d %s\n", (int)(paren - title), title, count, paren);
    else
        fprintf(out, "%s %d\n", title, count);
    for (int i = 0; i < count; i++) {
        report_state(out, t, &sorted[(size_t)i * (size_t)t->nobserved]);
        fputc('\n', out);
    }
}

static void print_trace(FILE *out, const verdict *v, uint32_t index)
{
    fputs("Trace\n", out);
    trace_print(out, v->bfs, v->inst, index, v->trace);
}

static void print_unsound(FILE *out, const verdict *v)
{
    int width = v->t->nobserved;
    if (v->undefined || !v->model_outcomes)
        return;
    const lit_value *mine = outcome_values(v->protocol_outcomes);
    for (int i = 0; i < outcome_count(v->protocol_outcomes) && !v->undefined; i++) {
        const lit_value *state = &mine[(size_t)i * (size_t)width];
        if (outcome_find(v->model_outcomes, state) >= 0)
            continue;
        if (v->model_cut) {
            fputs("Unknown outcome: ", out);
            report_state(out, v->t, state);
            fprintf(out, " (not among the model's outcomes found; they are incomplete: %s)\n", v->model_cut);
            continue;
        }
        fputs("Violation unsound outcome: ", out);
        report_state(out, v->t, state);
        fputs(" (the model forbids it)\n", out);
        print_trace(out, v, v->witness[i]);
    }
}

/* --complete: each model outcome the protocol never reached, with an
 * execution of the model that produces it. */
static void print_missing(FILE *out, const verdict *v)
{
    if (!missing_established(v))
        return;
    int width = v->t->nobserved;
    const lit_value *allowed = outcome_values(v->model_outcomes);
    for (int i = 0; i < outcome_count(v->model_outcomes); i++) {
        const lit_value *state = &allowed[(size_t)i * (size_t)width];
        if (outcome_find(v->protocol_outcomes, state) >= 0)
            continue;
        fputs("Violation missing outcome: ", out);
        report_state(out, v->t, state);
        fputs(" (the model allows it; the protocol never produces it)\n", out);
        const char *why = witness_text(v->missing_why, state);
        if (why)
            fprintf(out, "Execution\n%s", why);
        else
            fputs("Execution not kept (the values were wrapped into the protocol's range)\n", out);
    }
}

/* What may be said about soundness: an unsound outcome found is "no"
 * whatever else happened; "yes" needs every reachable state explored (or
 * a test the model leaves undefined); otherwise it is unknown. */
static void print_sound(FILE *out, const verdict *v)
{
    if (!v->model_outcomes) {
        fputs("Model outcomes unchecked (--model none)\n", out);
        return;
    }
    if (v->unsound)
        fputs("Sound no\n", out);
    else if (v->model_cut && !v->undefined)
        fprintf(out, "Sound unknown (the model's outcomes are incomplete: %s; %d protocol outcome%s outside them)\n",
                v->model_cut, v->unsure, v->unsure == 1 ? "" : "s");
    else if (v->undefined)
        fputs("Sound yes (the model leaves the test undefined: every outcome is allowed)\n", out);
    else if (v->cut == SC_CUT_NONE)
        fputs("Sound yes\n", out);
    else
        fprintf(out, "Sound unknown (no unsound outcome among the %" PRIu64 " states explored; %s)\n",
                v->search.states, sc_cut_phrase(v->cut));
    if (v->cut != SC_CUT_NONE)
        fprintf(out, "Unobserved unknown (the search was cut: %s)\n", sc_cut_phrase(v->cut));
    else if (!v->undefined)
        fprintf(out, "Unobserved %d (allowed by the model, never produced by the protocol)\n", v->unobserved);
}

/* herd's Undef: the flags the model raised and the racing pairs. */
static void print_undefined(FILE *out, const verdict *v, const cat_model *m)
{
    if (!v->undefined)
        return;
    fputs("Undefined: the model flags", out);
    for (int f = 0; f < cat_model_flag_count(m); f++)
        if (v->model.flags & (1u << f))
            fprintf(out, " %s", cat_model_flag_name(m, f));
    fputs(" (herd's Undef: a racy program has no defined behaviour, so every protocol outcome is allowed)\n", out);
    report_flags_text(out, v->t, &v->model, m, true);
}

/* Values are never wrapped or dropped silently. */
static void print_value_notes(FILE *out, const verdict *v)
{
    long lo, hi;
    proto_value_range(v->inst, &lo, &hi);
    if (v->overflow)
        fprintf(out, "Warning value range: a step would have made the value %ld, outside %ld..%ld, and was not "
                "taken; the states beyond it are unexplored and deadlocks may come from it (a loop beyond "
                "--unroll computes values the range does not hold: raise --unroll)\n", v->overflow_value, lo, hi);
    if (proto_value_wrapped(v->inst))
        fprintf(out, "Warning value range: values were wrapped into %ld..%ld (the protocol declares `value ... "
                "wrap` and --const set its range)\n", lo, hi);
}

static void print_result(FILE *out, const verdict *v)
{
    fprintf(out, "Result %s", result_word(v));
    if (v->cut == SC_CUT_VIOLATION)
        fputs(" (the search stopped at the invariant violation; states beyond it were not explored)", out);
    else if (v->cut != SC_CUT_NONE && has_violation(v))
        fprintf(out, " (the search was cut: %s; the violations above stand)", sc_cut_phrase(v->cut));
    else if (v->cut != SC_CUT_NONE)
        fprintf(out, " (%s: no violation among the %" PRIu64 " states explored; the rest is unknown)",
                sc_cut_phrase(v->cut), v->search.states);
    else if (v->model_cut && !has_violation(v))
        fprintf(out, " (the model's outcomes are incomplete: %s)", v->model_cut);
    fputs("\n\n", out);
}

static void print_text(FILE *out, const verdict *v, const verify_opts *o, const char *proto_name, const cat_model *m)
{
    fprintf(out, "Verify %s protocol %s model %s\n", v->t->name, proto_name, o->model);
    print_outcomes(out, v->t, v->protocol_outcomes,
                   v->cut == SC_CUT_NONE ? "Protocol outcomes" : "Protocol outcomes (found before the search was cut)");
    if (v->model_outcomes)
        print_outcomes(out, v->t, v->model_outcomes, "Model outcomes");
    print_undefined(out, v, m);
    print_sound(out, v);
    print_unsound(out, v);
    if (v->mca)
        verify_mca_text(out, v->mca, v->t, v->protocol_outcomes, v->model_outcomes, v->witness, v->bfs);
    print_missing(out, v);
    if (v->search.stop == BFS_VIOLATION) {
        fprintf(out, "Violation invariant %s\n", v->search.violated);
        print_trace(out, v, v->search.violation_index);
    }
    for (int i = 0; i < v->search.deadlocks_kept; i++) {
        fprintf(out, "Violation deadlock (%" PRIu64 " deadlock states in all)\n", v->search.deadlocks);
        print_trace(out, v, v->search.deadlock_index[i]);
        trace_print_stuck(out, v->inst, ss_state(bfs_store(v->bfs), v->search.deadlock_index[i]));
    }
    for (int i = 0; i < v->nunhandled && i < MAX_UNHANDLED; i++) {
        fprintf(out, "Violation unhandled: controller %s in state %s has no row for %s\n",
                v->unhandled[i].controller, v->unhandled[i].state, v->unhandled[i].event);
        print_trace(out, v, v->unhandled_at[i]);
    }
    print_value_notes(out, v);
    verify_live_text(out, &v->live, v->bfs, v->inst, v->trace);
    bfs_print_stats(&v->search, out);
    fprintf(out, "state bits: %d (%d bytes)\n", proto_state_bits(v->inst), (proto_state_bits(v->inst) + 7) / 8);
    print_result(out, v);
}

static void json_outcomes(FILE *out, const litmus_test *t, outcome_set *set)
{
    int count = outcome_count(set);
    const lit_value *sorted = outcome_sorted(set);
    fputc('[', out);
    for (int i = 0; i < count; i++) {
        if (i)
            fputc(',', out);
        report_json_state(out, t, &sorted[(size_t)i * (size_t)t->nobserved]);
    }
    fputc(']', out);
}

/* The trace as a JSON list of step objects (verify/trace_json.h). */
static void json_trace(FILE *out, const verdict *v, uint32_t index)
{
    fputs("\"trace\":", out);
    trace_json(out, v->bfs, bfs_model(v->bfs), index);    /* the scheduler's, with --occupancy */
}

static void json_violations(FILE *out, const verdict *v)
{
    bool first = true;
    int width = v->t->nobserved;
    const lit_value *mine = outcome_values(v->protocol_outcomes);
    fputs(",\"violations\":[", out);
    for (int i = 0; !v->undefined && v->model_outcomes && !v->model_cut && i < outcome_count(v->protocol_outcomes);
         i++) {
        const lit_value *state = &mine[(size_t)i * (size_t)width];
        if (outcome_find(v->model_outcomes, state) >= 0)
            continue;
        fputs(first ? "{\"kind\":\"unsound\",\"outcome\":" : ",{\"kind\":\"unsound\",\"outcome\":", out);
        report_json_state(out, v->t, state);
        fputc(',', out);
        json_trace(out, v, v->witness[i]);
        fputc('}', out);
        first = false;
    }
    const lit_value *allowed = v->model_outcomes ? outcome_values(v->model_outcomes) : NULL;
    for (int i = 0; missing_established(v) && i < outcome_count(v->model_outcomes); i++) {
        const lit_value *state = &allowed[(size_t)i * (size_t)width];
        if (outcome_find(v->protocol_outcomes, state) >= 0)
            continue;
        fputs(first ? "{\"kind\":\"missing\",\"outcome\":" : ",{\"kind\":\"missing\",\"outcome\":", out);
        report_json_state(out, v->t, state);
        fputs(",\"execution\":", out);
        const char *why = witness_text(v->missing_why, state);
        if (why)
            report_json_string(out, why);
        else
            fputs("null", out);
        fputc('}', out);
        first = false;
    }
    if (v->search.stop == BFS_VIOLATION) {
        fputs(first ? "{\"kind\":\"invariant\",\"name\":" : ",{\"kind\":\"invariant\",\"name\":", out);
        report_json_string(out, v->search.violated);
        fputc(',', out);
        json_trace(out, v, v->search.violation_index);
        fputc('}', out);
        first = false;
    }
    for (int i = 0; i < v->nunhandled && i < MAX_UNHANDLED; i++) {
        fputs(first ? "{\"kind\":\"unhandled\",\"controller\":" : ",{\"kind\":\"unhandled\",\"controller\":", out);
        report_json_string(out, v->unhandled[i].controller);
        fputs(",\"state\":", out);
        report_json_string(out, v->unhandled[i].state);
        fputs(",\"event\":", out);
        report_json_string(out, v->unhandled[i].event);
        fputc(',', out);
        json_trace(out, v, v->unhandled_at[i]);
        fputc('}', out);
        first = false;
    }
    fputc(']', out);
}

/* Every option that changes a result, so that a JSON line says how it
 * was obtained. */
static void json_options(FILE *out, const verdict *v, const verify_opts *o)
{
    fputs(",\"options\":{\"model\":", out);
    report_json_string(out, o->model);
    fprintf(out, ",\"unroll\":%d,\"net\":\"%s\",\"const\":{", o->unroll,
            o->proto.net == PROTO_NET_FIFO ? "fifo" : o->proto.net == PROTO_NET_UNORDERED ? "unordered" : "as-declared");
    for (int i = 0; i < o->proto.noverrides; i++) {
        if (i)
            fputc(',', out);
        report_json_string(out, o->proto.override_name[i]);
        fprintf(out, ":%ld", o->proto.override_value[i]);
    }
    long lo, hi;
    proto_value_range(v->inst, &lo, &hi);
    fprintf(out, "},\"value_range\":[%ld,%ld],\"value_range_from\":\"%s\"", lo, hi,
            proto_values_derived(v->inst) ? "test" : "protocol");
    fprintf(out, ",\"complete_outcomes\":%s", o->complete ? "true" : "false");
    fputs(",\"max_states\":", out);
    if (o->bfs.max_states)
        fprintf(out, "%" PRIu64, o->bfs.max_states);
    else
        fputs("null", out);
    fputs(",\"max_memory\":", out);
    if (o->bfs.max_memory)
        fprintf(out, "%zu", o->bfs.max_memory);
    else
        fputs("null", out);
    fputs(",\"timeout\":", out);
    if (o->bfs.timeout_s > 0)
        fprintf(out, "%g", o->bfs.timeout_s);
    else
        fputs("null", out);
    fputc('}', out);
}

static void print_json(FILE *out, const verdict *v, const verify_opts *o, const char *proto_name, const cat_model *m)
{
    fputs("{\"test\":", out);
    report_json_string(out, v->t->name);
    fputs(",\"file\":", out);
    report_json_string(out, v->t->file);
    fputs(",\"protocol\":", out);
    report_json_string(out, proto_name);
    fputs(",\"model\":", out);
    report_json_string(out, o->model);
    fprintf(out, ",\"result\":\"%s\",\"sound\":%s,\"complete\":%s", result_word(v),
            !v->model_outcomes ? "null"
            : v->unsound       ? "false"
            : v->undefined || (v->cut == SC_CUT_NONE && !v->model_cut) ? "true"
                                                                        : "null",
            v->cut == SC_CUT_NONE && !v->model_cut ? "true" : "false");
    if (v->cut != SC_CUT_NONE)
        fprintf(out, ",\"incomplete\":\"%s\"", sc_cut_name(v->cut));
    else if (v->model_cut)
        fprintf(out, ",\"incomplete\":\"%s\"", v->model_cut);
    if (v->model_cut)
        fprintf(out, ",\"model_incomplete\":\"%s\"", v->model_cut);
    fprintf(out, ",\"undefined\":%s,\"value_overflow\":%s,\"value_wrapped\":%s", v->undefined ? "true" : "false",
            v->overflow ? "true" : "false", proto_value_wrapped(v->inst) ? "true" : "false");
    if (m)
        report_flags_json(out, v->t, &v->model, m, v->undefined);
    else
        fputs(",\"flags\":[]", out);
    json_options(out, v, o);
    fputs(",\"protocol_outcomes\":", out);
    json_outcomes(out, v->t, v->protocol_outcomes);
    fputs(",\"model_outcomes\":", out);
    if (v->model_outcomes)
        json_outcomes(out, v->t, v->model_outcomes);
    else
        fputs("null", out);
    fputs(",\"deadlocks\":[", out);
    for (int i = 0; i < v->search.deadlocks_kept; i++) {
        fputs(i ? ",{" : "{", out);
        json_trace(out, v, v->search.deadlock_index[i]);
        fputc('}', out);
    }
    fputc(']', out);
    json_violations(out, v);
    verify_live_json(out, &v->live, v->bfs);
    if (v->mca)
        verify_mca_json(out, v->mca, v->t, v->protocol_outcomes, v->model_outcomes, v->witness, v->bfs);
    if (v->cut == SC_CUT_NONE && !v->undefined && v->model_outcomes)
        fprintf(out, ",\"unobserved\":%d", v->unobserved);
    else
        fputs(",\"unobserved\":null", out);
    const bfs_result *s = &v->search;
    fprintf(out,
            ",\"stats\":{\"stop\":\"%s\",\"states\":%" PRIu64 ",\"transitions\":%" PRIu64
            ",\"depth\":%u,\"seconds\":%.4f,\"states_per_s\":%.0f,\"bytes_per_state\":%.1f"
            ",\"peak_rss\":%zu,\"deadlock_states\":%" PRIu64 ",\"state_bits\":%d}}\n",
            bfs_stop_name(s->stop), s->states, s->transitions, s->depth, s->seconds, s->states_per_s,
            s->bytes_per_state, s->peak_rss, s->deadlocks, proto_state_bits(v->inst));
}

/* ---- one test ------------------------------------------------------------- */

/* x taken into lo..hi modulo its size. */
static lit_value wrap_value(lit_value x, long lo, long hi)
{
    long span = hi - lo + 1, r = ((long)x - lo) % span;
    return (lit_value)(lo + (r < 0 ? r + span : r));
}

/* With a range set by --const, the model may allow values the protocol
 * cannot hold (x = 2 after two increments, with values 0..1).  A protocol
 * whose arithmetic wraps (the Rumur baseline) is compared modulo its
 * range, with a warning; one that does not wrap cannot run the test: an
 * error, since every comparison would be meaningless.  The derived range
 * (verify/value_range.h) holds every value a run can compute, so a model value
 * outside it (a thin-air value some models allow) is simply one the
 * protocol cannot produce. */
static bool fit_model_outcomes(verdict *v, const char *path, const char *proto_name, FILE *err)
{
    if (!v->model_outcomes)       /* --model none */
        return true;
    long lo, hi;
    bool wraps = proto_value_range(v->inst, &lo, &hi);
    if (proto_values_derived(v->inst))
        return true;      /* the range holds every value a run computes: other model values are thin air */
    int width = v->t->nobserved, n = outcome_count(v->model_outcomes);
    const lit_value *all = outcome_values(v->model_outcomes);
    int bad = -1;
    for (int i = 0; i < n * width && bad < 0; i++)
        if (all[i] < lo || all[i] > hi)
            bad = i;
    if (bad < 0)
        return true;
    fprintf(err, "%s: %s: the model allows the value %lld, outside protocol %s's value range %ld..%ld; %s (raise its constant, e.g. --const MAXV=N)\n",
            path, wraps ? "warning" : "error", (long long)all[bad], proto_name, lo, hi,
            wraps ? "the protocol wraps values, so outcomes are compared modulo the range" : "the outcomes cannot be compared");
    if (!wraps)
        return false;
    outcome_set *wrapped = outcome_set_new(width);
    lit_value *one = GC_MALLOC_ATOMIC(sizeof *one * (size_t)(width ? width : 1));
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < width; k++)
            one[k] = wrap_value(all[(size_t)i * (size_t)width + (size_t)k], lo, hi);
        outcome_add(wrapped, one);
    }
    v->model_outcomes = wrapped;
    return true;
}

/* The model's enumeration under the test's limits: what is left of
 * --timeout since `start` (one budget for the model's outcomes, the
 * write-atomicity reference and the search), --max-memory, the signal. */
static enum_options model_enum_options(const verify_opts *o, const cat_model *m, double start)
{
    /* flagged undefined: the model's flags (flag ~empty) or its undefined_unless
     * checks; --racy undefined treats the model as if it said option flags = undefined */
    return (enum_options){.unroll = o->unroll, .max_traces = 100000,
                          .races = cat_model_flags_make_undefined(m, ~0u) || o->racy_undefined,
                          .stop = o->bfs.stop, .timeout_s = limit_seconds_left(o->bfs.timeout_s, start),
                          .max_memory = o->bfs.max_memory};
}

static bool model_outcomes(verdict *v, const verify_opts *o, const cat_model *m, cat_workspace *ws, double start,
                           FILE *err)
{
    if (!m) {                     /* --model none: deadlocks, invariants, liveness only */
        v->model_outcomes = NULL;
        return true;
    }
    enum_options eo = model_enum_options(o, m, start);
    if (!enumerate_check(v->t, m, ws, &eo, &v->model, err))
        return false;
    v->model_outcomes = v->model.states;
    v->undefined = v->model.flags && (o->racy_undefined || cat_model_flags_make_undefined(m, v->model.flags));
    v->model_cut = enumerate_incomplete(&v->model);
    if (v->model_cut && !v->model.interrupted)
        fprintf(err, "%s: warning: the model's outcomes are incomplete (%s): protocol outcomes outside them are "
                "not reported as violations\n", v->t->file, v->model_cut);
    return true;
}

/* The protocol interpreter runs a read-modify-write as a read and a write
 * and knows the orders of PTX and OpenCL; the C dialect's read-modify-writes
 * are herd's single events with a success flag (litmus.h), and C has
 * memory_order_consume.  Such tests are refused rather than misread. */
static bool protocols_can_run(const litmus_test *t, const char *path, FILE *err)
{
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].ninstrs; k++) {
            const lit_instr *in = &t->threads[i].instrs[k];
            if (in->single_event || in->order == ORD_CONSUME || in->order_fail == ORD_CONSUME) {
                fprintf(err, "%s:%d:%d: error: verify does not run C read-modify-writes or "
                        "memory_order_consume yet (scopecheck litmus checks them)\n", path, in->line, in->col);
                return false;
            }
        }
    return true;
}

/* ---- the observer of verify_cmd_run ------------------------------------------ */

/* A search cut by any limit (value range included) is not complete: the
 * record's status is verdict_status's, 3 for a cut without a violation. */
static void observe_verdict(const verdict *v, const verify_opts *o, int status)
{
    verify_record r = {.test = v->t, .inst = v->inst, .model = o->model, .complete = v->cut == SC_CUT_NONE,
                       .states = v->search.states, .transitions = v->search.transitions, .status = status};
    r.checks[r.nchecks++] = (verify_check_result){"outcomes", v->unsound == 0};
    r.checks[r.nchecks++] = (verify_check_result){"deadlock", v->search.deadlocks == 0};
    r.checks[r.nchecks++] = (verify_check_result){"unhandled", v->nunhandled == 0};
    r.checks[r.nchecks++] = (verify_check_result){"invariants", v->search.stop != BFS_VIOLATION};
    o->observe(o->observe_ctx, &r);
}

/* The status of one file: 0 pass, 1 violation, 2 unusable, 3 incomplete.
 * Errors go to `err`; the file's report (or, for an unusable file in a
 * JSON run, nothing: the caller writes the error object) to `out`. */
static int verify_file(const char *path, const verify_opts *o, const protocol *p, const cat_model *m,
                       cat_workspace *ws, FILE *out, FILE *err)
{
    double start = limit_now();
    litmus_test *t = litmus_read_file(path, err);
    if (!t || !protocols_can_run(t, path, err))
        return 2;
    proto_options po = o->proto;
    /* A --const of the value constant sets the range: the test's own (which
     * needs its paths up to --unroll, too many for some spin loops) is not
     * derived. */
    enum_options range_limits = {.unroll = o->unroll, .stop = o->bfs.stop,
                                 .timeout_s = limit_seconds_left(o->bfs.timeout_s, start),
                                 .max_memory = o->bfs.max_memory};
    if (!proto_value_range_overridden(p, &po) && !test_value_range(t, &range_limits, &po, err))
        return 2;
    proto_instance *inst = proto_instantiate(p, t, &po, err);
    if (!inst)
        return 2;
    verdict *v = GC_MALLOC(sizeof *v);
    v->t = t;
    v->inst = inst;
    v->trace = o->trace;
    v->complete = o->complete;
    v->scratch = GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(t->nobserved ? t->nobserved : 1));
    v->protocol_outcomes = outcome_set_new(t->nobserved);
    if (!model_outcomes(v, o, m, ws, start, err) || !fit_model_outcomes(v, path, protocol_name(p), err))
        return 2;
    if (v->model.interrupted) {
        fprintf(err, "%s: interrupted while the model's outcomes were computed; not checked\n", path);
        return SC_STATUS_INCOMPLETE;
    }
    v->mca = o->mca;
    if (v->mca) {
        long lo, hi;
        bool wraps = proto_value_range(inst, &lo, &hi);
        enum_options limits = model_enum_options(o, m, start);
        if (!verify_mca_outcomes(v->mca, t, &limits, lo, hi, wraps, err))
            return 2;
    }
    bfs_options bo = o->bfs;
    bo.timeout_s = limit_seconds_left(o->bfs.timeout_s, start);
    bo.on_final = on_final;
    bo.final_ctx = v;
    progress_sink sink = {err, t->name};
    if (progress_wanted(o->progress, err)) {
        bo.progress = progress_print;
        bo.progress_ctx = &sink;
        bo.progress_every_s = o->progress_every_s;
    }
    const nsi_model *model = verify_live_prepare(&v->live, &o->sched, proto_nsi(inst), protocol_name(p), &bo, err);
    if (!model)
        return 2;
    v->bfs = bfs_run(model, &bo, &v->search);
    if (!v->bfs) {
        verify_live_free(&v->live);
        if (v->search.stop == BFS_BAD_MODEL)
            fprintf(err, "%s: error: the search could not start (%s)\n", path, bfs_stop_name(v->search.stop));
        else if (o->bfs.max_memory)
            fprintf(err, "scopecheck verify: error: --max-memory %zu bytes is too small for the search "
                    "to store its first state\n", o->bfs.max_memory);
        else
            fprintf(err, "scopecheck verify: error: out of memory before the search of %s could start\n", path);
        return 2;
    }
    v->cut = cut_of(v->search.stop);
    v->overflow = proto_value_overflow(inst, &v->overflow_value);
    if (v->overflow && v->cut == SC_CUT_NONE)
        v->cut = SC_CUT_VALUE_RANGE;
    compare_outcomes(v);
    if (v->mca)
        verify_mca_compare(v->mca, v->protocol_outcomes, v->model_outcomes);
    if (v->overflow)
        verify_live_undecided(&v->live, "a step would have left the value range and was not taken");
    else
        verify_live_decide(&v->live, v->bfs, &v->search);
    if (missing_established(v)) {
        enum_options eo = model_enum_options(o, m, start);
        v->missing_why = witness_collect(t, m, ws, &eo, v->model_outcomes, err);
    }
    v->nunhandled = proto_unhandled(inst, v->unhandled, MAX_UNHANDLED);
    locate_unhandled(v, p, &po);
    if (o->json)
        print_json(out, v, o, protocol_name(p), m);
    else
        print_text(out, v, o, protocol_name(p), m);
    int status = verdict_status(v);
    if (o->observe)
        observe_verdict(v, o, status);
    bfs_free(v->bfs);
    verify_live_free(&v->live);
    return status;
}

/* One file of a JSON run: an unusable file gets a JSON error object on
 * `out` besides its message on `err`. */
static int verify_file_json(const char *path, const verify_opts *o, const protocol *p, const cat_model *m,
                            cat_workspace *ws, FILE *out, FILE *err)
{
    errors_capture cap;
    FILE *errs = errors_begin(&cap, err);
    int status = verify_file(path, o, p, m, ws, out, errs);
    const char *messages = errors_end(&cap);
    if (status == SC_STATUS_UNUSABLE)
        json_error_object(out, path, messages);
    return status;
}

int verify_cmd_main(int argc, char **argv, FILE *out, FILE *err)
{
    return verify_cmd_run(argc, argv, out, err, NULL, NULL);
}

int verify_cmd_run(int argc, char **argv, FILE *out, FILE *err, verify_observer observe, void *ctx)
{
    verify_opts o;
    int status = parse_options(argc, argv, &o, out, err);
    if (status >= 0)
        return status;
    o.observe = observe;
    o.observe_ctx = ctx;
    const char *proto_path = model_path_find(o.protocol, ".proto");
    if (!proto_path) {
        fprintf(err, "scopecheck verify: error: no protocol '%s' (a name in models/, or a .proto file)\n", o.protocol);
        return 2;
    }
    protocol *p = protocol_load(proto_path, err);
    bool no_model = strcmp(o.model, "none") == 0;
    const char *model_path = no_model ? "" : model_path_resolve(o.model);
    if (!model_path) {
        model_path_unknown(err, "verify", o.model);
        return 2;
    }
    cat_model *m = no_model ? NULL : cat_load(model_path, err);
    if (!p || (!m && !no_model))
        return 2;
    if (o.mca && no_model) {
        fputs("scopecheck verify: error: --write-atomicity compares with a base model: not with --model none\n", err);
        return 2;
    }
    if (o.mca && !verify_mca_load(o.mca, model_path_resolve(VERIFY_MCA_MODEL), err))
        return 2;
    cat_workspace *ws = m ? cat_workspace_new(m) : NULL;
    file_list files = {0};
    int worst = SC_STATUS_OK;
    for (int i = optind; i < argc; i++)
        if (!file_list_add_arg(&files, argv[i], err))
            worst = SC_STATUS_UNUSABLE;
    o.bfs.stop = interrupt_watch();
    int done = 0;
    for (; done < files.count && !*o.bfs.stop; done++) {
        int s = (o.json ? verify_file_json : verify_file)(files.paths[done], &o, p, m, ws, out, err);
        worst = sc_status_merge(worst, s);
        if (output_broken(out))
            break;
    }
    if (*o.bfs.stop) {
        fprintf(err, "scopecheck verify: interrupted; %d of %d file%s not checked\n", files.count - done,
                files.count, files.count == 1 ? "" : "s");
        worst = sc_status_merge(worst, SC_STATUS_INCOMPLETE);
    }
    interrupt_release();
    return worst;
}
