/* search/par_bfs.c: level-synchronous multi-threaded breadth-first search
 * (see search/par_bfs.h; the store: search/par_store.h). */
#include "search/par_bfs.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "search/par_store.h"

#define CHUNK 64u      /* states a thread claims at once */
#define BATCH 16       /* successors hashed and prefetched together, as bfs.c */

/* ---- small growable arrays (per thread, per level) ---- */

typedef struct u32vec {
    uint32_t *v;
    size_t n, cap;
} u32vec;

/* False when out of memory (the value is dropped). */
static bool push(u32vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        uint32_t *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return false;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return true;
}

typedef struct violation {
    uint32_t index;
    const char *name;
} violation;

/* ---- a barrier that can shrink before first use (a thread that could not
 * be created) ---- */

typedef struct barrier {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int parties, waiting;
    unsigned generation;
} barrier;

static void barrier_wait(barrier *b)
{
    pthread_mutex_lock(&b->mu);
    unsigned gen = b->generation;
    if (++b->waiting == b->parties) {
        b->waiting = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cv);
    } else {
        while (gen == b->generation)
            pthread_cond_wait(&b->cv, &b->mu);
    }
    pthread_mutex_unlock(&b->mu);
}

/* ---- the search ---- */

typedef struct par_bfs par_bfs;

typedef struct worker {
    par_bfs *p;
    pthread_t tid;
    uint8_t *batch;                 /* BATCH successors, canonical */
    uint64_t hash[BATCH], key[BATCH];
    int nbatch;
    uint32_t cur;                   /* the state being expanded */
    uint32_t position;              /* its successors so far */
    bool aborted;                   /* the table filled up: expand `cur` again later */
    uint64_t expanded, transitions; /* not yet added to the shared counts */
    u32vec finals, deadlocks;       /* this level's, by index */
    u32vec retry;                   /* ranges [lo, hi) left by an abort */
    violation *viol;                /* new states that violate an invariant */
    size_t nviol, capviol;
} worker;

struct par_bfs {
    const nsi_model *m;
    const bfs_options *opt;
    bfs_result *res;
    par_store *store;
    int nthreads;
    worker *w;
    barrier go, done;
    bool quit;                      /* main thread, before `go` */
    bool rehash;                    /* the round rehashes into a grown table, not a level */
    _Atomic uint32_t rehash_claim;  /* next unclaimed index to rehash */
    uint32_t lo, hi, level;         /* the level being expanded (main thread, between barriers) */
    _Atomic uint32_t claim;         /* next unclaimed index of the level */
    _Atomic int stop;               /* 0, or 1 + the bfs_stop of the first limit met */
    _Atomic bool table_full;
    _Atomic uint64_t expanded, transitions;
    double t0, next_report;
    bool reporting;
};

static bool stopping(par_bfs *p) { return atomic_load_explicit(&p->stop, memory_order_relaxed) != 0; }

static void set_stop(par_bfs *p, bfs_stop why)
{
    int none = 0;
    atomic_compare_exchange_strong(&p->stop, &none, (int)why + 1);
}

static bfs_stop refusal(ps_status st) { return st == PS_FULL_STATES ? BFS_MAX_STATES : BFS_MAX_MEMORY; }

static void note_violation(worker *w, uint32_t index, const char *name)
{
    if (w->nviol == w->capviol) {
        size_t cap = w->capviol ? 2 * w->capviol : 16;
        violation *v = realloc(w->viol, cap * sizeof *v);
        if (!v)
            return;
        w->viol = v;
        w->capviol = cap;
    }
    w->viol[w->nviol++] = (violation){index, name};
}

/* Inserts the batched successors of w->cur in emission order. */
static void flush_batch(worker *w)
{
    par_bfs *p = w->p;
    size_t sb = p->m->state_bytes;
    for (int k = 0; k < w->nbatch && !w->aborted && !stopping(p); k++) {
        const uint8_t *next = w->batch + (size_t)k * sb;
        uint32_t index;
        ps_status st = ps_insert(p->store, next, w->hash[k], w->key[k], &index);
        if (st == PS_NEW) {
            const char *name = p->m->violated ? p->m->violated(p->m->ctx, next) : NULL;
            if (name)
                note_violation(w, index, name);
        } else if (st == PS_TABLE_FULL) {
            w->aborted = true;
            atomic_store(&p->table_full, true);
        } else if (st != PS_OLD) {
            set_stop(p, refusal(st));
        }
    }
    w->nbatch = 0;
}

/* nsi_emit: canonicalizes a copy of the successor, hashes it, prefetches
 * its slot and queues it with its sort key. */
static void on_successor(void *ctx, const uint8_t *next, int rule)
{
    worker *w = ctx;
    par_bfs *p = w->p;
    uint32_t position = w->position++;
    if (w->aborted || stopping(p))
        return;
    if (rule < 0 || rule >= p->m->nrules) {
        set_stop(p, BFS_BAD_MODEL);
        return;
    }
    size_t sb = p->m->state_bytes;
    uint8_t *copy = w->batch + (size_t)w->nbatch * sb;
    memcpy(copy, next, sb);
    if (p->m->canonicalize)
        p->m->canonicalize(p->m->ctx, copy);
    uint64_t h = ss_hash(copy, sb);
    ps_prefetch(p->store, h);
    w->hash[w->nbatch] = h;
    w->key[w->nbatch++] = ps_key(w->cur, position, rule);
    if (w->nbatch == BATCH)
        flush_batch(w);
}

/* Expands state i; false when the table filled up first (nothing of it is
 * counted; it is expanded again after the table grows). */
static bool expand(worker *w, uint32_t i)
{
    par_bfs *p = w->p;
    const nsi_model *m = p->m;
    const uint8_t *state = ps_state(p->store, i);
    w->cur = i;
    w->position = 0;
    w->aborted = false;
    m->successors(m->ctx, state, on_successor, w);
    flush_batch(w);
    if (w->aborted)
        return false;
    w->expanded++;
    w->transitions += w->position;
    bool final = m->is_final && m->is_final(m->ctx, state);
    if (final)
        push(&w->finals, i);
    if (w->position == 0 && !final)
        push(&w->deadlocks, i);
    return true;
}

static void add_counts(worker *w)
{
    atomic_fetch_add_explicit(&w->p->expanded, w->expanded, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->p->transitions, w->transitions, memory_order_relaxed);
    w->expanded = w->transitions = 0;
}

/* Where the search stands, for the progress callback (main thread). */
static void report_progress(par_bfs *p, double t)
{
    uint32_t count = ps_count(p->store), claim = atomic_load(&p->claim);
    bfs_progress pr = {
        .states = count,
        .expanded = atomic_load(&p->expanded),
        .queue = count - (claim < p->hi ? claim : p->hi),
        .transitions = atomic_load(&p->transitions),
        .depth = p->level,
        .seconds = t - p->t0,
        .store_bytes = ps_bytes(p->store),
    };
    pr.states_per_s = pr.seconds > 0 ? (double)pr.states / pr.seconds : 0.0;
    p->opt->progress(p->opt->progress_ctx, &pr);
}

/* Limits polled between chunks: the stop flag, the timeout, and (main
 * thread) the time for a progress line. */
static void poll_limits(worker *w)
{
    par_bfs *p = w->p;
    const bfs_options *opt = p->opt;
    if (opt->stop && *opt->stop)
        set_stop(p, BFS_INTERRUPTED);
    bool is_main = w == p->w;
    if (opt->timeout_s <= 0 && !(is_main && p->reporting))
        return;
    double t = clock_now();
    if (opt->timeout_s > 0 && t - p->t0 >= opt->timeout_s)
        set_stop(p, BFS_TIMEOUT);
    if (is_main && p->reporting && t >= p->next_report) {
        p->next_report = t + opt->progress_every_s;
        add_counts(w);
        report_progress(p, t);
    }
}

/* One round: claim chunks of the level until it is done, a limit stops
 * the search or the table is full. */
static void work(worker *w)
{
    par_bfs *p = w->p;
    while (!stopping(p) && !atomic_load_explicit(&p->table_full, memory_order_relaxed)) {
        uint32_t a = atomic_fetch_add(&p->claim, CHUNK);
        if (a >= p->hi)
            break;
        uint32_t b = p->hi - a < CHUNK ? p->hi : a + CHUNK;
        poll_limits(w);
        for (uint32_t i = a; i < b && !stopping(p); i++)
            if (!expand(w, i)) {
                push(&w->retry, i);
                push(&w->retry, b);
                break;
            }
        add_counts(w);
    }
}

#define REHASH_CHUNK 4096u

/* A rehash round: claim ranges of stored states and place them in the new
 * table. */
static void rehash_part(par_bfs *p)
{
    uint32_t n = ps_count(p->store);
    for (;;) {
        uint32_t a = atomic_fetch_add(&p->rehash_claim, REHASH_CHUNK);
        if (a >= n)
            return;
        ps_grow_part(p->store, a, n - a < REHASH_CHUNK ? n : a + REHASH_CHUNK);
    }
}

/* Doubles the table with every thread rehashing (the others wait at `go`
 * whenever the main thread runs this).  False when it cannot grow. */
static bool grow(par_bfs *p)
{
    if (!ps_grow_begin(p->store))
        return false;
    atomic_store(&p->rehash_claim, 0);
    p->rehash = true;
    barrier_wait(&p->go);
    rehash_part(p);
    barrier_wait(&p->done);
    p->rehash = false;
    ps_grow_end(p->store);
    return true;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    par_bfs *p = w->p;
    for (;;) {
        barrier_wait(&p->go);
        if (p->quit)
            return NULL;
        if (p->rehash)
            rehash_part(p);
        else
            work(w);
        barrier_wait(&p->done);
    }
}

/* ---- between rounds and levels (main thread only) ---- */

/* After a round the table filled: grow it and expand, on this thread, the
 * states the others left.  False when the search must stop. */
static bool redo_aborted(par_bfs *p)
{
    if (!grow(p)) {
        set_stop(p, refusal(ps_grow_refusal(p->store)));
        return false;
    }
    worker *w0 = &p->w[0];
    for (int t = 0; t < p->nthreads; t++) {
        u32vec *r = &p->w[t].retry;
        for (size_t k = 0; k + 1 < r->n && !stopping(p); k += 2)
            for (uint32_t i = r->v[k]; i < r->v[k + 1] && !stopping(p); i++)
                while (!expand(w0, i))
                    if (!grow(p)) {
                        set_stop(p, refusal(ps_grow_refusal(p->store)));
                        break;
                    }
        r->n = 0;
    }
    add_counts(w0);
    return !stopping(p);
}

static void run_level(par_bfs *p)
{
    for (;;) {
        atomic_store(&p->table_full, false);
        barrier_wait(&p->go);
        work(&p->w[0]);
        barrier_wait(&p->done);
        if (!atomic_load(&p->table_full) || stopping(p) || !redo_aborted(p))
            return;
        if (atomic_load(&p->claim) >= p->hi)
            return;
    }
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Every thread's list `which` of this level, in one sorted array (*n). */
static uint32_t *gather(par_bfs *p, size_t offset, size_t *n)
{
    size_t total = 0;
    for (int t = 0; t < p->nthreads; t++)
        total += ((u32vec *)((char *)&p->w[t] + offset))->n;
    *n = total;
    uint32_t *all = malloc((total ? total : 1) * sizeof *all);
    size_t k = 0;
    for (int t = 0; t < p->nthreads; t++) {
        u32vec *v = (u32vec *)((char *)&p->w[t] + offset);
        if (all && v->n)     /* an empty list may have no array (memcpy wants one) */
            memcpy(all + k, v->v, v->n * sizeof *all);
        k += v->n;
        v->n = 0;
    }
    if (all)
        qsort(all, total, sizeof *all, compare_u32);
    return all;
}

/* The level's final states to on_final, in index order (as one thread
 * meets them), and its deadlocks: the smallest indices kept. */
static void deliver_finals_and_deadlocks(par_bfs *p)
{
    bfs_result *r = p->res;
    size_t n;
    uint32_t *finals = gather(p, offsetof(worker, finals), &n);
    r->finals += n;
    for (size_t k = 0; finals && k < n && p->opt->on_final; k++)
        p->opt->on_final(p->opt->final_ctx, ps_state(p->store, finals[k]), finals[k]);
    free(finals);
    uint32_t *dead = gather(p, offsetof(worker, deadlocks), &n);
    r->deadlocks += n;
    for (size_t k = 0; dead && k < n && r->deadlocks_kept < BFS_KEEP_DEADLOCKS; k++)
        r->deadlock_index[r->deadlocks_kept++] = dead[k];
    free(dead);
}

/* The violating state of the new level with the smallest (renumbered)
 * index: the one a single thread meets first. */
static void pick_violation(par_bfs *p, const uint32_t *moved)
{
    uint32_t ls = ps_level_start(p->store);
    bool found = false;
    for (int t = 0; t < p->nthreads; t++) {
        worker *w = &p->w[t];
        for (size_t k = 0; k < w->nviol; k++) {
            uint32_t i = moved ? moved[w->viol[k].index - ls] : w->viol[k].index;
            if (!found || i < p->res->violation_index) {
                p->res->violation_index = i;
                p->res->violated = w->viol[k].name;
                found = true;
            }
        }
        w->nviol = 0;
    }
    if (found)
        p->res->stop = BFS_VIOLATION;
}

static void end_level(par_bfs *p)
{
    uint32_t *moved = NULL;
    ps_end_level(p->store, &moved);
    pick_violation(p, moved);
    free(moved);
    deliver_finals_and_deadlocks(p);
    if (ps_count(p->store) > ps_level_start(p->store))
        p->res->depth = p->level + 1;
    if (p->reporting && clock_now() >= p->next_report)
        poll_limits(&p->w[0]);
}

static void explore(par_bfs *p)
{
    p->lo = 0;
    p->hi = 1;
    for (;;) {
        ps_begin_level(p->store);
        atomic_store(&p->claim, p->lo);
        run_level(p);
        end_level(p);
        uint32_t count = ps_count(p->store);
        if (stopping(p) || p->res->stop == BFS_VIOLATION || count == p->hi)
            return;
        while (ps_should_grow(p->store, count - p->hi) && grow(p))
            ;
        p->lo = p->hi;
        p->hi = count;
        p->level++;
    }
}

/* ---- set-up ---- */

static bool model_ok(const nsi_model *m)
{
    return m && m->state_bytes > 0 && m->nrules >= 0 && m->nrules <= SS_MAX_RULE + 1 && m->initial &&
           m->successors;
}

/* Stores the initial state (level 0) and checks it; false when the store
 * refuses it. */
static bool store_initial(par_bfs *p)
{
    uint8_t *init = calloc(1, p->m->state_bytes);
    if (!init) {
        set_stop(p, BFS_MAX_MEMORY);
        return false;
    }
    p->m->initial(p->m->ctx, init);
    if (p->m->canonicalize)
        p->m->canonicalize(p->m->ctx, init);
    ps_begin_level(p->store);
    uint32_t index;
    ps_status st = ps_insert(p->store, init, ss_hash(init, p->m->state_bytes),
                             ps_key(SS_NO_PARENT, 0xFFFFu, SS_NO_RULE), &index);
    uint32_t *moved = NULL;
    ps_end_level(p->store, &moved);
    free(moved);
    if (st != PS_NEW)
        set_stop(p, refusal(st));
    const char *name = st == PS_NEW && p->m->violated ? p->m->violated(p->m->ctx, init) : NULL;
    if (name) {
        p->res->stop = BFS_VIOLATION;
        p->res->violated = name;
        p->res->violation_index = 0;
    }
    free(init);
    return st == PS_NEW;
}

static bool make_workers(par_bfs *p, int threads)
{
    p->w = calloc((size_t)threads, sizeof *p->w);
    if (!p->w)
        return false;
    p->nthreads = threads;
    for (int t = 0; t < threads; t++) {
        p->w[t].p = p;
        p->w[t].batch = malloc(BATCH * p->m->state_bytes);
        if (!p->w[t].batch)
            return false;
    }
    return true;
}

/* Starts threads 1..n-1 with SIGINT and SIGTERM blocked, so that a signal
 * is handled by the caller's thread; fewer when the system refuses. */
static void start_threads(par_bfs *p)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int started = 1;
    for (int t = 1; t < p->nthreads; t++, started++)
        if (pthread_create(&p->w[t].tid, NULL, worker_main, &p->w[t]) != 0)
            break;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_mutex_lock(&p->go.mu);      /* no thread is past `go` yet */
    p->nthreads = started;
    p->go.parties = p->done.parties = started;
    pthread_mutex_unlock(&p->go.mu);
}

static void stop_threads(par_bfs *p)
{
    p->quit = true;
    barrier_wait(&p->go);
    for (int t = 1; t < p->nthreads; t++)
        pthread_join(p->w[t].tid, NULL);
}

static void finish_stats(par_bfs *p)
{
    bfs_result *r = p->res;
    int why = atomic_load(&p->stop);
    if (why && r->stop != BFS_VIOLATION)
        r->stop = (bfs_stop)(why - 1);
    r->complete = r->stop == BFS_EXHAUSTED;
    r->seconds = clock_now() - p->t0;
    r->expanded = atomic_load(&p->expanded);
    r->transitions = atomic_load(&p->transitions);
    r->threads = p->nthreads;
    if (p->store) {
        r->states = ps_count(p->store);
        r->store_bytes = ps_bytes(p->store);
        r->store_peak_bytes = ps_peak_bytes(p->store);
        r->bytes_per_state = r->states ? (double)r->store_bytes / (double)r->states : 0.0;
    }
    r->states_per_s = r->seconds > 0 ? (double)r->states / r->seconds : 0.0;
}

static par_bfs *new_search(const nsi_model *model, const bfs_options *opt, int threads, bfs_result *res)
{
    par_bfs *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    *p = (par_bfs){.m = model, .opt = opt, .res = res, .t0 = clock_now()};
    p->go = p->done = (barrier){PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, threads, 0, 0};
    p->reporting = opt->progress && opt->progress_every_s > 0;
    p->next_report = p->t0 + (p->reporting ? opt->progress_every_s : 0);
    ss_limits lim = {.max_bytes = opt->max_memory, .max_states = opt->max_states};
    p->store = ps_create(model->state_bytes, &lim);
    if (!make_workers(p, threads) || !p->store) {
        set_stop(p, BFS_MAX_MEMORY);
        finish_stats(p);
        par_bfs_free(p);
        return NULL;
    }
    return p;
}

par_bfs *par_bfs_run(const nsi_model *model, const bfs_options *opt, int threads, bfs_result *res)
{
    static const bfs_options none;
    memset(res, 0, sizeof *res);
    res->stop = BFS_EXHAUSTED;
    if (!opt)
        opt = &none;
    if (!model_ok(model)) {
        res->stop = BFS_BAD_MODEL;
        return NULL;
    }
    threads = threads < 1 ? 1 : threads > PAR_BFS_MAX_THREADS ? PAR_BFS_MAX_THREADS : threads;
    par_bfs *p = new_search(model, opt, threads, res);
    if (!p)
        return NULL;
    if (!store_initial(p)) {
        finish_stats(p);
        par_bfs_free(p);
        return NULL;
    }
    if (res->stop != BFS_VIOLATION) {
        start_threads(p);
        explore(p);
        stop_threads(p);
    }
    finish_stats(p);
    p->res = NULL;
    p->opt = NULL;
    return p;
}

void par_bfs_free(par_bfs *p)
{
    if (!p)
        return;
    for (int t = 0; p->w && t < p->nthreads; t++) {
        worker *w = &p->w[t];
        free(w->batch);
        free(w->finals.v);
        free(w->deadlocks.v);
        free(w->retry.v);
        free(w->viol);
    }
    free(p->w);
    ps_destroy(p->store);
    pthread_mutex_destroy(&p->go.mu);
    pthread_cond_destroy(&p->go.cv);
    pthread_mutex_destroy(&p->done.mu);
    pthread_cond_destroy(&p->done.cv);
    free(p);
}

const uint8_t *par_bfs_state(const par_bfs *p, uint32_t index) { return ps_state(p->store, index); }
uint32_t par_bfs_parent(const par_bfs *p, uint32_t index) { return ps_parent(p->store, index); }
int par_bfs_rule(const par_bfs *p, uint32_t index) { return ps_rule(p->store, index); }
uint32_t par_bfs_count(const par_bfs *p) { return ps_count(p->store); }

int par_bfs_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
