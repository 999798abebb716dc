/* search/bfs.c: breadth-first search over the next-state interface; the
 * queue is the store's index order (see search/bfs.h). */
#include "search/bfs.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "search/par_bfs.h"
#include "search/prob_store.h"

#define TIMEOUT_CHECK_MASK 4095u   /* look at the clock every 4096 states */
#define PROGRESS_CHECK_MASK 255u   /* and every 256 when reporting progress */
#define BATCH VS_BATCH             /* successors hashed and prefetched together */

static void print_step(const nsi_model *m, const uint8_t *from, int rule, const uint8_t *to, FILE *out);

struct bfs_search {
    const nsi_model *m;
    const bfs_options *opt;
    visited *store;
    par_bfs *par;           /* instead of `store` when several threads searched */
    bool batch_keys;        /* vs_batch_keys: keys computed per batch */
    bfs_result *res;
    uint32_t cur;           /* the state being expanded */
    uint32_t cur_level;     /* its BFS level */
    uint64_t emitted;       /* successors of `cur` so far */
    bool stopping;
    /* Successors waiting to be inserted: their bytes, keys (vs_key), rules and ordinals. */
    uint8_t *batch;
    uint64_t batch_hash[BATCH];
    int batch_rule[BATCH];
    unsigned batch_ordinal[BATCH];
    int nbatch;
};

size_t bfs_peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    size_t kb = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtoull(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb * 1024;
}

static void stop_with(bfs_search *s, bfs_stop why)
{
    if (!s->stopping) {
        s->stopping = true;
        s->res->stop = why;
    }
}

/* Checks a newly stored state against the model's invariants. */
static void check_new(bfs_search *s, const uint8_t *state, uint32_t index)
{
    if (!s->m->violated)
        return;
    const char *name = s->m->violated(s->m->ctx, state);
    if (name) {
        stop_with(s, BFS_VIOLATION);
        s->res->violated = name;
        s->res->violation_index = index;
    }
}

static bfs_stop refusal(ss_status st)
{
    return st == SS_FULL_STATES ? BFS_MAX_STATES : BFS_MAX_MEMORY;
}

/* Inserts one successor of s->cur. */
static void store_successor(bfs_search *s, const uint8_t *next, uint64_t hash, int rule, unsigned ordinal)
{
    uint32_t index;
    ss_status st = vs_insert(s->store, next, hash, s->cur, rule, ordinal, &index);
    if (st != SS_NEW && st != SS_OLD) {
        stop_with(s, refusal(st));
        return;
    }
    if (s->opt->on_edge)   /* never with a probabilistic store (bfs_run) */
        s->opt->on_edge(s->opt->edge_ctx, s->cur, index, rule);
    if (st == SS_OLD)
        return;
    s->res->depth = s->cur_level + 1;
    check_new(s, next, index);
}

/* Inserts the batched successors in emission order. */
static void flush_batch(bfs_search *s)
{
    size_t sb = s->m->state_bytes;
    if (s->nbatch > 0 && !s->stopping && s->batch_keys) {
        ss_status st = vs_keys(s->store, s->batch, sb, s->nbatch, s->batch_hash);
        if (st != SS_NEW)
            stop_with(s, refusal(st));
    }
    for (int k = 0; k < s->nbatch && !s->stopping; k++)
        store_successor(s, s->batch + (size_t)k * sb, s->batch_hash[k], s->batch_rule[k], s->batch_ordinal[k]);
    s->nbatch = 0;
}

/* nsi_emit: queues one successor of s->cur, hashing it and prefetching its
 * table slot; the batch is inserted when full or when the state is done. */
static void on_successor(void *ctx, const uint8_t *next, int rule)
{
    bfs_search *s = ctx;
    unsigned ordinal = (unsigned)s->emitted++;
    if (s->stopping)
        return;
    /* A probabilistic store replays paths by ordinal (16 bits). */
    if (rule < 0 || rule >= s->m->nrules || (s->res->probabilistic && ordinal >= PB_MAX_ORDINAL)) {
        stop_with(s, BFS_BAD_MODEL);
        return;
    }
    size_t sb = s->m->state_bytes;
    uint8_t *slot = s->batch + (size_t)s->nbatch * sb;
    memcpy(slot, next, sb);
    if (s->m->canonicalize)     /* `next` is the model's: canonicalize the copy */
        s->m->canonicalize(s->m->ctx, slot);
    uint64_t h = 0;
    if (!s->batch_keys) {   /* else the whole batch's, in flush_batch */
        ss_status st = vs_key(s->store, slot, &h);
        if (st != SS_NEW) {
            stop_with(s, refusal(st));
            return;
        }
        vs_prefetch(s->store, h);
    }
    s->batch_hash[s->nbatch] = h;
    s->batch_ordinal[s->nbatch] = ordinal;
    s->batch_rule[s->nbatch++] = rule;
    if (s->nbatch == BATCH)
        flush_batch(s);
}

static void note_deadlock(bfs_result *r, uint32_t index)
{
    if (r->deadlocks_kept < BFS_KEEP_DEADLOCKS)
        r->deadlock_index[r->deadlocks_kept++] = index;
    r->deadlocks++;
}

static void expand(bfs_search *s, uint32_t index, const bfs_options *opt)
{
    const nsi_model *m = s->m;
    const uint8_t *state = vs_load(s->store, index);
    s->cur = index;
    s->emitted = 0;
    m->successors(m->ctx, state, on_successor, s);
    flush_batch(s);
    s->res->expanded++;
    s->res->transitions += s->emitted;
    bool final = m->is_final && m->is_final(m->ctx, state);
    if (final) {
        s->res->finals++;
        if (opt->on_final)
            opt->on_final(opt->final_ctx, state, index);
    }
    if (s->emitted == 0 && !final)
        note_deadlock(s->res, index);
    if (opt->on_expanded)
        opt->on_expanded(opt->expanded_ctx, index);
}

static bool model_ok(const nsi_model *m)
{
    return m && m->state_bytes > 0 && m->nrules >= 0 && m->nrules <= SS_MAX_RULE + 1 &&
           m->initial && m->successors;
}

/* Stores the initial state; false when the store refuses it. */
static bool store_initial(bfs_search *s)
{
    uint8_t *init = calloc(1, s->m->state_bytes);
    if (!init) {
        stop_with(s, BFS_MAX_MEMORY);
        return false;
    }
    s->m->initial(s->m->ctx, init);
    if (s->m->canonicalize)
        s->m->canonicalize(s->m->ctx, init);
    uint32_t index;
    uint64_t key;
    ss_status st = vs_key(s->store, init, &key);
    if (st == SS_NEW)
        st = vs_insert(s->store, init, key, SS_NO_PARENT, SS_NO_RULE, 0, &index);
    if (st == SS_NEW)
        check_new(s, init, index);
    else
        stop_with(s, refusal(st));
    free(init);
    return st == SS_NEW;
}

/* Calls the progress callback when its time has come; `i` is the index
 * of the state about to be expanded. */
static void report_progress(bfs_search *s, const bfs_options *opt, uint32_t i, double t0, double *next)
{
    double t = clock_now();
    if (t < *next)
        return;
    *next = t + opt->progress_every_s;
    bfs_progress p = {
        .states = vs_count(s->store),
        .expanded = s->res->expanded,
        .queue = vs_count(s->store) - i,
        .transitions = s->res->transitions,
        .depth = s->cur_level,
        .seconds = t - t0,
        .store_bytes = vs_bytes(s->store),
    };
    p.states_per_s = p.seconds > 0 ? (double)p.states / p.seconds : 0.0;
    opt->progress(opt->progress_ctx, &p);
}

static void explore(bfs_search *s, const bfs_options *opt, double t0)
{
    uint32_t level_end = 1;
    bool reporting = opt->progress && opt->progress_every_s > 0;
    double next_report = t0 + (reporting ? opt->progress_every_s : 0);
    for (uint32_t i = 0; i < vs_count(s->store) && !s->stopping; i++) {
        if (i == level_end) {
            s->cur_level++;
            level_end = vs_count(s->store);
        }
        if (reporting && (i & PROGRESS_CHECK_MASK) == 0)
            report_progress(s, opt, i, t0, &next_report);
        if (opt->stop && *opt->stop) {
            stop_with(s, BFS_INTERRUPTED);
            break;
        }
        if ((i & TIMEOUT_CHECK_MASK) == 0 && opt->timeout_s > 0 &&
            clock_now() - t0 >= opt->timeout_s) {
            stop_with(s, BFS_TIMEOUT);
            break;
        }
        expand(s, i, opt);
    }
}

static void finish_stats(bfs_search *s, double t0)
{
    bfs_result *r = s->res;
    r->complete = r->stop == BFS_EXHAUSTED && !r->probabilistic;
    r->seconds = clock_now() - t0;
    if (s->store) {
        r->states = vs_count(s->store);
        r->store_bytes = vs_bytes(s->store);
        r->store_peak_bytes = vs_peak_bytes(s->store);
        r->bytes_per_state = r->states ? (double)r->store_bytes / (double)r->states : 0.0;
        r->omission = vs_omission(s->store);
        r->bitstate_bits = vs_bits(s->store);
    }
    r->states_per_s = r->seconds > 0 ? (double)r->states / r->seconds : 0.0;
    r->peak_rss = bfs_peak_rss();
    r->threads = 1;
    r->canonical = s->m->canonicalize != NULL;
}

/* Several threads: search/par_bfs.h does the search, this object serves
 * its states. */
static bfs_search *run_parallel(const nsi_model *model, const bfs_options *opt, bfs_result *res)
{
    bfs_search *s = calloc(1, sizeof *s);
    if (!s) {
        memset(res, 0, sizeof *res);
        res->stop = BFS_MAX_MEMORY;
        return NULL;
    }
    s->m = model;
    s->par = par_bfs_run(model, opt, opt->threads, res);
    res->peak_rss = bfs_peak_rss();
    res->canonical = model->canonicalize != NULL;
    if (!s->par) {
        free(s);
        return NULL;
    }
    return s;
}

bfs_search *bfs_run(const nsi_model *model, const bfs_options *opt, bfs_result *res)
{
    static const bfs_options none;
    double t0 = clock_now();
    memset(res, 0, sizeof *res);
    res->stop = BFS_EXHAUSTED;
    if (!opt)
        opt = &none;
    /* the parallel search has the plain store's layout only (par_store.h) */
    if (opt->threads > 1 && !opt->on_edge && opt->store == VISITED_PLAIN)
        return run_parallel(model, opt, res);
    bfs_search *s = calloc(1, sizeof *s);
    if (!s || !model_ok(model)) {
        res->stop = s ? BFS_BAD_MODEL : BFS_MAX_MEMORY;
        free(s);
        return NULL;
    }
    s->m = model;
    s->opt = opt;
    s->res = res;
    res->store = opt->store;
    res->probabilistic = vs_kind_probabilistic(opt->store);
    if (res->probabilistic && opt->on_edge) {   /* no index for a state seen before */
        res->stop = BFS_BAD_MODEL;
        free(s);
        return NULL;
    }
    s->batch = malloc(BATCH * model->state_bytes);
    ss_limits lim = {.max_bytes = opt->max_memory, .max_states = opt->max_states};
    s->store = vs_create(opt->store, model->state_bytes, &lim);
    s->batch_keys = s->store && vs_batch_keys(s->store);
    if (!s->store || !s->batch) {
        vs_destroy(s->store);
        s->store = NULL;
        stop_with(s, BFS_MAX_MEMORY);
    }
    if (!s->store || !store_initial(s)) {
        finish_stats(s, t0);
        bfs_free(s);
        return NULL;
    }
    explore(s, opt, t0);
    finish_stats(s, t0);
    s->res = NULL;
    s->opt = NULL;
    return s;
}

void bfs_free(bfs_search *s)
{
    if (!s)
        return;
    vs_destroy(s->store);
    par_bfs_free(s->par);
    free(s->batch);
    free(s);
}

const state_store *bfs_store(const bfs_search *s)
{
    return s->par ? NULL : vs_plain(s->store);
}

uint32_t bfs_count(const bfs_search *s)
{
    return s->par ? par_bfs_count(s->par) : vs_count(s->store);
}

static uint32_t parent_of(const bfs_search *s, uint32_t index)
{
    return s->par ? par_bfs_parent(s->par, index) : vs_parent(s->store, index);
}

static int rule_of(const bfs_search *s, uint32_t index)
{
    return s->par ? par_bfs_rule(s->par, index) : vs_rule(s->store, index);
}

/* Replay: the successor with ordinal `want` of one state. */
typedef struct replay_step {
    unsigned want, seen;
    int rule;
    size_t bytes;
    uint8_t *out;
    bool found;
} replay_step;

static void on_replay(void *ctx, const uint8_t *next, int rule)
{
    replay_step *r = ctx;
    if (r->seen++ != r->want)
        return;
    memcpy(r->out, next, r->bytes);
    r->found = rule == r->rule;
}

/* The states of a path of a probabilistic store, rebuilt from the initial
 * state: each step takes the successor with the stored ordinal and checks
 * its rule.  `out` holds n states. */
static bool replay_path(const bfs_search *s, const bfs_step *steps, size_t n, uint8_t *out)
{
    const nsi_model *m = s->m;
    size_t sb = m->state_bytes;
    memset(out, 0, sb);
    m->initial(m->ctx, out);
    if (m->canonicalize)
        m->canonicalize(m->ctx, out);
    for (size_t k = 1; k < n; k++) {
        uint8_t *next = out + k * sb;
        replay_step r = {.want = vs_ordinal(s->store, steps[k].state), .rule = steps[k].rule, .bytes = sb,
                         .out = next};
        m->successors(m->ctx, out + (k - 1) * sb, on_replay, &r);
        if (!r.found)
            return false;
        if (m->canonicalize)
            m->canonicalize(m->ctx, next);
    }
    return true;
}

static bool replay_state(const bfs_search *s, uint32_t index, uint8_t *out)
{
    size_t n = 0;
    bfs_step *steps = bfs_trace(s, index, &n);
    uint8_t *path = steps ? malloc(n * s->m->state_bytes) : NULL;
    bool ok = path && replay_path(s, steps, n, path);
    if (ok)
        memcpy(out, path + (n - 1) * s->m->state_bytes, s->m->state_bytes);
    free(steps);
    free(path);
    return ok;
}

uint8_t *bfs_trace_states(const bfs_search *s, const bfs_step *steps, size_t n)
{
    size_t sb = s->m->state_bytes;
    uint8_t *out = malloc((n ? n : 1) * sb);
    if (!out || n == 0)
        return out;
    if (!s->par && vs_kind_probabilistic(vs_kind(s->store))) {
        if (replay_path(s, steps, n, out))
            return out;
        free(out);
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        const uint8_t *st = bfs_state(s, steps[k].state, out + k * sb);
        if (st != out + k * sb)
            memcpy(out + k * sb, st, sb);
    }
    return out;
}

const uint8_t *bfs_state(const bfs_search *s, uint32_t index, uint8_t *buf)
{
    if (s->par)
        return par_bfs_state(s->par, index);
    const state_store *plain = vs_plain(s->store);
    if (plain)
        return ss_state(plain, index);
    if (vs_get(s->store, index, buf))
        return buf;
    return replay_state(s, index, buf) ? buf : NULL;
}

bfs_step *bfs_trace(const bfs_search *s, uint32_t index, size_t *len)
{
    size_t n = 1;
    for (uint32_t i = index; parent_of(s, i) != SS_NO_PARENT; i = parent_of(s, i))
        n++;
    bfs_step *steps = malloc(n * sizeof *steps);
    if (!steps)
        return NULL;
    uint32_t i = index;
    for (size_t k = n; k-- > 0; i = parent_of(s, i)) {
        steps[k].state = i;
        steps[k].rule = rule_of(s, i);
    }
    *len = n;
    return steps;
}

const nsi_model *bfs_model(const bfs_search *s)
{
    return s->m;
}

void bfs_print_step(const bfs_search *s, uint32_t from, uint32_t to, int rule, FILE *out)
{
    uint8_t *states = malloc(2 * s->m->state_bytes);
    const uint8_t *a = states ? bfs_state(s, from, states) : NULL;
    const uint8_t *b = a ? bfs_state(s, to, states + s->m->state_bytes) : NULL;
    print_step(s->m, a, rule, b, out);
    free(states);
}

/* One step's description on one line: the model's text with any trailing
 * newlines removed, or the rule id. */
static void print_step(const nsi_model *m, const uint8_t *from, int rule, const uint8_t *to, FILE *out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = m->describe && from && to ? open_memstream(&buf, &len) : NULL;
    if (mem) {
        m->describe(m->ctx, from, rule, to, mem);
        fclose(mem);
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        fprintf(out, "%s\n", buf);
    } else {
        fprintf(out, "rule %d\n", rule);
    }
    free(buf);
}

void bfs_print_path(const nsi_model *m, const bfs_path *p, FILE *out)
{
    fprintf(out, "  0: initial state\n");
    for (size_t k = 1; k < p->len; k++) {
        fprintf(out, "  %zu: ", k);
        print_step(m, bfs_path_state(p, k - 1), p->rules[k], bfs_path_state(p, k), out);
    }
}

void bfs_print_trace(const bfs_search *s, uint32_t index, FILE *out)
{
    bfs_path *p = bfs_path_to(s, index);
    if (!p) {
        fprintf(out, "(trace unavailable: out of memory, or no concrete step matches a stored one)\n");
        return;
    }
    bfs_print_path(s->m, p, out);
    bfs_path_free(p);
}

/* ---- concrete paths ------------------------------------------------------------ */

static bfs_path *path_new(size_t len, size_t state_bytes)
{
    bfs_path *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->len = len;
    p->state_bytes = state_bytes;
    p->states = malloc(len * state_bytes);
    p->rules = malloc(len * sizeof *p->rules);
    if (!p->states || !p->rules) {
        bfs_path_free(p);
        return NULL;
    }
    return p;
}

void bfs_path_free(bfs_path *p)
{
    if (!p)
        return;
    free(p->states);
    free(p->rules);
    free(p);
}

/* What a replay looks for among the successors of one concrete state: the
 * first whose bytes (canonicalized, when `canon`) equal `want`. */
typedef struct replay_ctx {
    const nsi_model *m;
    const uint8_t *want;
    uint8_t *found;         /* receives the successor as emitted */
    uint8_t *scratch;
    bool canon, hit;
    int rule;
} replay_ctx;

static void replay_successor(void *ctx, const uint8_t *next, int rule)
{
    replay_ctx *r = ctx;
    if (r->hit)
        return;
    size_t sb = r->m->state_bytes;
    const uint8_t *cmp = next;
    if (r->canon && r->m->canonicalize) {
        memcpy(r->scratch, next, sb);
        r->m->canonicalize(r->m->ctx, r->scratch);
        cmp = r->scratch;
    }
    if (memcmp(cmp, r->want, sb) != 0)
        return;
    memcpy(r->found, next, sb);
    r->rule = rule;
    r->hit = true;
}

/* Fills states 1.. of p: from each state, the successor that matches
 * targets[k] (canonical targets: its canonical form does). */
static bool replay(const nsi_model *m, bfs_path *p, const uint8_t *const *targets, bool canon)
{
    uint8_t *scratch = malloc(m->state_bytes);
    if (!scratch)
        return false;
    bool ok = true;
    for (size_t k = 1; k < p->len && ok; k++) {
        replay_ctx r = {m, targets[k], p->states + k * p->state_bytes, scratch, canon, false, -1};
        m->successors(m->ctx, bfs_path_state(p, k - 1), replay_successor, &r);
        p->rules[k] = r.rule;
        ok = r.hit;
    }
    free(scratch);
    return ok;
}

bfs_path *bfs_path_to(const bfs_search *s, uint32_t index)
{
    size_t n = 0;
    bfs_step *steps = bfs_trace(s, index, &n);
    bfs_path *p = steps ? path_new(n, s->m->state_bytes) : NULL;
    uint8_t *stored = p ? bfs_trace_states(s, steps, n) : NULL;    /* any store, any thread count */
    const uint8_t **targets = stored ? malloc(n * sizeof *targets) : NULL;
    bool ok = targets != NULL;
    for (size_t k = 0; ok && k < n; k++) {
        targets[k] = stored + k * s->m->state_bytes;
        p->rules[k] = steps[k].rule;
        if (!s->m->canonicalize || k == 0)
            memcpy(p->states + k * p->state_bytes, targets[k], p->state_bytes);
    }
    if (ok && s->m->canonicalize) {     /* the stored initial state is canonical: start from the model's */
        s->m->initial(s->m->ctx, p->states);
        ok = replay(s->m, p, targets, true);
    }
    free(steps);
    free(targets);
    free(stored);
    if (!ok) {
        bfs_path_free(p);
        return NULL;
    }
    return p;
}

bool bfs_path_rerule(const nsi_model *m, bfs_path *p)
{
    const uint8_t **targets = malloc(p->len * sizeof *targets);
    uint8_t *copy = malloc(p->len * p->state_bytes);
    bool ok = targets && copy;
    if (ok) {
        memcpy(copy, p->states, p->len * p->state_bytes);
        for (size_t k = 0; k < p->len; k++)
            targets[k] = copy + k * p->state_bytes;
        ok = replay(m, p, targets, false);
    }
    free(targets);
    free(copy);
    return ok;
}

const char *bfs_stop_name(bfs_stop stop)
{
    switch (stop) {
    case BFS_EXHAUSTED: return "exhausted";
    case BFS_VIOLATION: return "violation";
    case BFS_MAX_STATES: return "max-states";
    case BFS_MAX_MEMORY: return "max-memory";
    case BFS_TIMEOUT: return "timeout";
    case BFS_BAD_MODEL: return "bad-model";
    case BFS_INTERRUPTED: return "interrupted";
    }
    return "unknown";
}

/* What a probabilistic store may have missed, in words. */
static void print_omission(const bfs_result *r, FILE *out)
{
    if (r->store == VISITED_BITSTATE)
        fprintf(out, "bit-state: %llu bits, %d per state, hash factor %.1f, expected states missed %.3g "
                "(coverage about %.4f%%)\n", (unsigned long long)r->bitstate_bits, PB_BITSTATE_K,
                r->states ? (double)r->bitstate_bits / (double)r->states : 0.0, r->omission,
                r->states ? 100.0 * (double)r->states / ((double)r->states + r->omission) : 100.0);
    else
        fprintf(out, "hash compaction: 64-bit fingerprints, probability that a state was missed at most %.3g\n",
                r->omission);
}

static void print_stop(const bfs_result *r, FILE *out)
{
    if (r->stop == BFS_EXHAUSTED && r->probabilistic)
        fprintf(out, "search: probabilistic (every state the %s store took as new explored; it may have missed "
                "states)\n", vs_kind_name(r->store));
    else if (r->stop == BFS_EXHAUSTED)
        fprintf(out, "search: complete (every reachable state explored)\n");
    else if (r->stop == BFS_VIOLATION)
        fprintf(out, "search: stopped at a violation of %s (partial statistics)\n",
                r->violated ? r->violated : "an invariant");
    else if (r->stop == BFS_INTERRUPTED)
        fprintf(out, "search: interrupted (partial statistics)\n");
    else
        fprintf(out, "search: stopped by the %s limit (partial statistics)\n",
                bfs_stop_name(r->stop));
}

void bfs_print_stats(const bfs_result *r, FILE *out)
{
    print_stop(r, out);
    if (r->probabilistic)
        print_omission(r, out);
    if (r->store != VISITED_PLAIN)
        fprintf(out, "store: %s\n", vs_kind_name(r->store));
    fprintf(out, "threads: %d\n", r->threads);
    fprintf(out, "states: %llu%s\n", (unsigned long long)r->states,
            r->canonical ? " (canonical: one per symmetry orbit; transitions and deadlocks counted alike)" : "");
    fprintf(out, "transitions: %llu\n", (unsigned long long)r->transitions);
    fprintf(out, "depth: %u\n", r->depth);
    fprintf(out, "deadlocks: %llu\n", (unsigned long long)r->deadlocks);
    fprintf(out, "final states: %llu\n", (unsigned long long)r->finals);
    fprintf(out, "seconds: %.3f\n", r->seconds);
    fprintf(out, "states/s: %.0f\n", r->states_per_s);
    fprintf(out, "bytes/state: %.1f\n", r->bytes_per_state);
    fprintf(out, "store MiB: %.1f (peak %.1f)\n", (double)r->store_bytes / 1048576.0,
            (double)r->store_peak_bytes / 1048576.0);
    fprintf(out, "peak RSS MiB: %.1f\n", (double)r->peak_rss / 1048576.0);
}
