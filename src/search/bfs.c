/* search/bfs.c: breadth-first search over the next-state interface; the
 * queue is the store's index order (see search/bfs.h). */
#include "search/bfs.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"

#define TIMEOUT_CHECK_MASK 4095u   /* look at the clock every 4096 states */
#define PROGRESS_CHECK_MASK 255u   /* and every 256 when reporting progress */
#define BATCH 16                   /* successors hashed and prefetched together */

static void print_step(const nsi_model *m, const uint8_t *from, int rule, const uint8_t *to, FILE *out);

struct bfs_search {
    const nsi_model *m;
    const bfs_options *opt;
    state_store *store;
    bfs_result *res;
    uint32_t cur;           /* the state being expanded */
    uint32_t cur_level;     /* its BFS level */
    uint64_t emitted;       /* successors of `cur` so far */
    bool stopping;
    /* Successors waiting to be inserted: their bytes, hashes and rules. */
    uint8_t *batch;
    uint64_t batch_hash[BATCH];
    int batch_rule[BATCH];
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
static void store_successor(bfs_search *s, const uint8_t *next, uint64_t hash, int rule)
{
    uint32_t index;
    ss_status st = ss_insert_hashed(s->store, next, hash, s->cur, rule, &index);
    if (st != SS_NEW && st != SS_OLD) {
        stop_with(s, refusal(st));
        return;
    }
    if (s->opt->on_edge)
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
    for (int k = 0; k < s->nbatch && !s->stopping; k++)
        store_successor(s, s->batch + (size_t)k * sb, s->batch_hash[k], s->batch_rule[k]);
    s->nbatch = 0;
}

/* nsi_emit: queues one successor of s->cur, hashing it and prefetching its
 * table slot; the batch is inserted when full or when the state is done. */
static void on_successor(void *ctx, const uint8_t *next, int rule)
{
    bfs_search *s = ctx;
    s->emitted++;
    if (s->stopping)
        return;
    if (rule < 0 || rule >= s->m->nrules) {
        stop_with(s, BFS_BAD_MODEL);
        return;
    }
    size_t sb = s->m->state_bytes;
    uint8_t *slot = s->batch + (size_t)s->nbatch * sb;
    memcpy(slot, next, sb);
    if (s->m->canonicalize)     /* `next` is the model's: canonicalize the copy */
        s->m->canonicalize(s->m->ctx, slot);
    uint64_t h = ss_hash(slot, sb);
    ss_prefetch(s->store, h);
    s->batch_hash[s->nbatch] = h;
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
    const uint8_t *state = ss_state(s->store, index);
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
    ss_status st = ss_insert(s->store, init, SS_NO_PARENT, SS_NO_RULE, &index);
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
        .states = ss_count(s->store),
        .expanded = s->res->expanded,
        .queue = ss_count(s->store) - i,
        .transitions = s->res->transitions,
        .depth = s->cur_level,
        .seconds = t - t0,
        .store_bytes = ss_bytes(s->store),
    };
    p.states_per_s = p.seconds > 0 ? (double)p.states / p.seconds : 0.0;
    opt->progress(opt->progress_ctx, &p);
}

static void explore(bfs_search *s, const bfs_options *opt, double t0)
{
    uint32_t level_end = 1;
    bool reporting = opt->progress && opt->progress_every_s > 0;
    double next_report = t0 + (reporting ? opt->progress_every_s : 0);
    for (uint32_t i = 0; i < ss_count(s->store) && !s->stopping; i++) {
        if (i == level_end) {
            s->cur_level++;
            level_end = ss_count(s->store);
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
    r->complete = r->stop == BFS_EXHAUSTED;
    r->seconds = clock_now() - t0;
    if (s->store) {
        r->states = ss_count(s->store);
        r->store_bytes = ss_bytes(s->store);
        r->store_peak_bytes = ss_peak_bytes(s->store);
        r->bytes_per_state = ss_bytes_per_state(s->store);
    }
    r->states_per_s = r->seconds > 0 ? (double)r->states / r->seconds : 0.0;
    r->peak_rss = bfs_peak_rss();
    r->canonical = s->m->canonicalize != NULL;
}

bfs_search *bfs_run(const nsi_model *model, const bfs_options *opt, bfs_result *res)
{
    static const bfs_options none;
    double t0 = clock_now();
    memset(res, 0, sizeof *res);
    res->stop = BFS_EXHAUSTED;
    if (!opt)
        opt = &none;
    bfs_search *s = calloc(1, sizeof *s);
    if (!s || !model_ok(model)) {
        res->stop = s ? BFS_BAD_MODEL : BFS_MAX_MEMORY;
        free(s);
        return NULL;
    }
    s->m = model;
    s->opt = opt;
    s->res = res;
    s->batch = malloc(BATCH * model->state_bytes);
    ss_limits lim = {.max_bytes = opt->max_memory, .max_states = opt->max_states};
    s->store = ss_create(model->state_bytes, &lim);
    if (!s->store || !s->batch) {
        ss_destroy(s->store);
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
    ss_destroy(s->store);
    free(s->batch);
    free(s);
}

const state_store *bfs_store(const bfs_search *s)
{
    return s->store;
}

bfs_step *bfs_trace(const bfs_search *s, uint32_t index, size_t *len)
{
    size_t n = 1;
    for (uint32_t i = index; ss_parent(s->store, i) != SS_NO_PARENT; i = ss_parent(s->store, i))
        n++;
    bfs_step *steps = malloc(n * sizeof *steps);
    if (!steps)
        return NULL;
    uint32_t i = index;
    for (size_t k = n; k-- > 0; i = ss_parent(s->store, i)) {
        steps[k].state = i;
        steps[k].rule = ss_rule(s->store, i);
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
    print_step(s->m, ss_state(s->store, from), rule, ss_state(s->store, to), out);
}

/* One step's description on one line: the model's text with any trailing
 * newlines removed, or the rule id. */
static void print_step(const nsi_model *m, const uint8_t *from, int rule, const uint8_t *to, FILE *out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = m->describe ? open_memstream(&buf, &len) : NULL;
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
    const uint8_t **targets = p ? malloc(n * sizeof *targets) : NULL;
    bool ok = targets != NULL;
    for (size_t k = 0; ok && k < n; k++) {
        targets[k] = ss_state(s->store, steps[k].state);
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

static void print_stop(const bfs_result *r, FILE *out)
{
    if (r->stop == BFS_EXHAUSTED)
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
