/*
 * enumerate/internal.h: the enumerator's context, as the records its
 * modules own, shared by the modules of src/enumerate/ that make up
 * enumerate_check (enumerate.c and the ones below).  Not for other folders:
 * they use enumerate.h.
 *
 * One enumeration (enum_ctx) is a static execution (enum_exec: the events
 * of one combination of thread traces and the relations that depend only
 * on them), three choice states on top of it (rf_state, co_state,
 * bar_state), the limits (enum_budget) and the final states found
 * (enum_results).  Each module takes the records it works on:
 *
 *   budget.c        limits: time, memory, the caller's stop flag
 *   static_exec.c   one combination's events, sets and static relations
 *   reads_from.c    each read's reads-from options
 *   coherence.c     each location's writes and coherence orders; co and fr
 *   barrier_choice.c  the barrier events and syncbar of a combination
 *   choices.c       the innermost loops: barrier, rf and co choices, and
 *                   the model on each candidate
 *   co_staged.c     coherence choices handed to the model at once
 *   final_states.c  the final states, races and hooks of an execution
 *   combination.c   one combination of thread traces, end to end
 *   condition.c     the final condition
 *   enumerate.c     the test: storage, seeds, the entry points
 *
 * The few helpers the innermost loops call per candidate or per
 * combination across modules are static inline here (out_of_budget,
 * co_allowed_choices, bar_set_syncbar, final_states_record, ...): the
 * split must not cost the litmus path instructions (docs/PERFORMANCE.md).
 * Allocation: Boehm GC, per test and per combination, never per candidate.
 */
#ifndef SCOPECHECK_ENUMERATE_INTERNAL_H
#define SCOPECHECK_ENUMERATE_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/clock.h"
#include "cat/relation.h"
#include "enumerate/barriers.h"
#include "enumerate/co_orders.h"
#include "enumerate/enumerate.h"
#include "enumerate/liveness.h"
#include "litmus/thread_paths.h"

#define MAX_THREADS ENUM_MAX_THREADS
#define STOP_CHECK_MASK 255u   /* look at the clock and the heap every 256 steps */
#define NSCOPES (SCOPE_WI + 1)

/* The liveness pass's barrier groups given to the checker, per combination. */
#define LIVE_GROUPS 16
#define LIVE_ALTS 64
#define LIVE_GROUP_EVENTS 64

/* ---- limits (budget.c) --------------------------------------------------------- */

typedef struct enum_budget {
    bool stop;             /* a limit was reached: stop everything */
    double deadline;       /* monotonic seconds, 0: none */
    size_t max_memory;
    unsigned ticks;
    const volatile sig_atomic_t *interrupt; /* the caller's stop flag (a signal), or NULL */
    check_result *r;       /* says which limit was reached */
} enum_budget;

/* Whether a limit has been reached, asked now (sets b->stop and says which
 * in b->r). */
bool budget_exhausted(enum_budget *b);

/* thread_paths' and the trace filter's stop hook (ctx: an enum_budget):
 * they ask rarely, so the limits are looked at each time. */
bool budget_should_stop(void *ctx);

/* Whether a time or memory limit has been reached (checked every
 * STOP_CHECK_MASK + 1 calls); once it has, everything stops. */
static inline bool out_of_budget(enum_budget *b)
{
    if (b->stop)
        return true;
    if ((++b->ticks & STOP_CHECK_MASK) != 0)
        return false;
    return budget_exhausted(b);
}

/* ---- the static execution (static_exec.c) --------------------------------------- */

typedef struct ev_info {
    int thread;            /* -1 for initial writes */
    int last_write;        /* reads: the latest earlier write of its thread to its location, or -1 */
    int phys;              /* physical location, memory events */
    int vloc;              /* location as addressed */
    int index;             /* position in its thread's trace */
    bool write, read;      /* both for herd's C read-modify-writes (EV_RMW) */
    lit_value value;       /* read, or written by a plain write */
    lit_value wvalue;      /* written (writes and EV_RMW) */
    const tp_event *ev;    /* NULL for initial writes */
} ev_info;

/* Threads as bits: the CTA, GPU and scope instances each thread shares. */
typedef struct thread_peers {
    uint32_t cta[MAX_THREADS];
    uint32_t gpu[MAX_THREADS];
    uint32_t scope[MAX_THREADS][NSCOPES]; /* inside the instance of scope s of the thread */
} thread_peers;

/* The events of the combination of traces at hand (choice[]: one trace
 * per thread of paths) and the execution x the model sees: its sets and
 * static relations are written here, rf, co, fr and syncbar by the choices. */
typedef struct enum_exec {
    const litmus_test *t;
    tp_result paths;
    int choice[MAX_THREADS];
    /* the traces whose static relations x holds and the model has prepared */
    bool has_prepared;
    const tp_trace *prepared[MAX_THREADS];
    bool thread_coherent;  /* the model asks for it, and the shortcuts it allows hold */
    bool unsequenced;      /* some thread has unsequenced operands (litmus_has_unsequenced) */
    int ninit;             /* initial writes: one per physical location */
    int cap;               /* most events of a combination (storage size) */
    int stride;            /* rel_words(cap): words between two sets of an array */
    int n;
    ev_info *ev;
    exec x;
    thread_peers peers;
    /* sets, `stride` words apart: per location its memory events (physical,
     * as addressed); per thread its events, the events of its CTA and GPU
     * peers, and per scope the events that sr relates it to */
    evword *loc_events, *vloc_events;
    evword *thread_events, *cta_events, *gpu_events, *scope_events, *threads_events;
    evword *scoped;        /* per thread and scope: its events of that scope */
    int *latest;           /* per location: see add_thread_events (static_exec.c) */
    long *latest_at, stamp;
} enum_exec;

static inline const tp_trace *chosen_trace(const enum_exec *ex, int th)
{
    return &ex->paths.threads[th].traces[ex->choice[th]];
}

/* Set i of an array of sets `stride` words apart. */
static inline evword *set_at(evword *base, int stride, int i) { return base + (size_t)i * (size_t)stride; }

/* Which threads share a CTA, a GPU or a scope instance: once per test. */
void exec_find_peers(const litmus_test *t, thread_peers *p);

/* Events of the combination: the initial writes, then (the caller checked
 * that they fit) the chosen traces' events; first[th] is thread th's first. */
void exec_add_events(enum_exec *ex, int *first);

/* The events of the combination: its initial writes and chosen traces. */
static inline int exec_combination_events(const enum_exec *ex)
{
    int n = ex->ninit;
    for (int th = 0; th < ex->t->nthreads; th++)
        n += chosen_trace(ex, th)->nevents;
    return n;
}

/* The sets and static relations of x (rf, co, fr, syncbar cleared). */
void exec_fill_static(enum_exec *ex, const int *first);

/* ---- reads-from (reads_from.c) --------------------------------------------------- */

typedef struct rf_state {
    int nreads;
    int nrmw_reads;        /* reads that also write (C read-modify-writes): co_apply drops their fr to themselves */
    int *read_ev;
    int *nopts, *opt_at;   /* per read: its options, at opts + opt_at */
    int *opts;
    int opts_cap;
    int *rf_choice;
    int *last_write;       /* per read: latest po-earlier write to its location in its thread, or -1 */
    evword *loc_writes_now; /* per location, `stride` words apart: the combination's writes to it */
} rf_state;

/* Reads-from options: writes to the same location with the read's value;
 * false when some read has none. */
bool rf_collect_options(rf_state *rf, const enum_exec *ex);

/* ---- coherence (coherence.c) ----------------------------------------------------- */

typedef struct loc_writes {
    int init;              /* event index of the initial write */
    int k;                 /* other writes */
    order_table *orders;   /* every order of w[] to choose from */
    int w[MAX_TOTAL_K];
    uint8_t must[MAX_TOTAL_K]; /* thread coherence: w[i] co-before these */
    uint8_t never[MAX_TOTAL_K]; /* ... and, for the current reads-from choice, not these */
} loc_writes;

typedef struct co_state {
    bool partial;          /* the model's co is a partial order (CAT_CO_PARTIAL) */
    int nphys;
    loc_writes *locw;      /* per physical location (indexed by location) */
    int *phys_list;
    int *choice;
    int *applied;          /* per location: the order x's co rows hold, or -1 */
    int8_t *write_pos;     /* per write event: its index in its location's w[] */
    /* per location (phys_list index), for the current reads-from choice:
     * the indices in its table of the orders thread coherence allows
     * (list[p], nallowed[p]): all of them (identity), or some, at
     * allowed + allowed_at[p] */
    int *allowed;
    int *identity;         /* 0, 1, 2, ...: every order of a table */
    long allowed_cap;
    long *allowed_at;
    const int **list;
    int *nallowed;
    struct order_memo *memo; /* lists already filtered, by (table, masks) */
    /* coherence orders, one table per (number of writes, program-order
     * pairs) met so far in the test */
    struct order_cache **orders; /* one by one: locations point into them */
    int norders, orders_cap;
    /* coherence choices handed to the model (cat_check_co: co_staged.c) */
    bool staged;
    long count;            /* choices of the whole order tables; -1: too many to
                            * hand over, or not staged (then choose_co) */
    uint8_t *tried, *seen; /* bitmaps over choices, per rf choice */
    size_t bytes;          /* their size, grown as tests need */
} co_state;

/* Each location's writes and the orders to choose from; false (with
 * r->writes_cut) when a location has more writes than orders are listed for. */
bool co_collect_writes(co_state *co, const enum_exec *ex, check_result *r);

/* The orders of each location that thread coherence (and the liveness
 * pass, when live) allows with the current reads-from choice; false when
 * some location has none. */
bool co_allow_orders(co_state *co, const rf_state *rf, const enum_exec *ex, live_ctx *live);

/* co from the chosen order of each location, and fr. */
void co_apply(co_state *co, const rf_state *rf, exec *x, int n);

/* x's co rows hold no location's order (the static relations were rebuilt). */
static inline void co_forget_applied(co_state *co, int nlocs)
{
    for (int p = 0; p < nlocs; p++)
        co->applied[p] = -1;
}

/* The product of the locations' allowed orders: the choices of this rf choice. */
static inline long co_allowed_choices(const co_state *co)
{
    long count = 1;
    for (int p = 0; p < co->nphys; p++)
        count *= co->nallowed[p];
    return count;
}

/* ---- barriers (barrier_choice.c) ------------------------------------------------- */

typedef struct bar_state {
    barrier_set *bars;
    enum bar_reading reading;  /* enum_options.barriers */
    uint32_t *mates;           /* per thread and barrier id, bar_event.mates (barrier_choice.c) */
    int ngroups;           /* groups of the current combination */
    bar_event *ev;
    int *choice;
    relation *scratch[3];  /* deadlock check */
    /* the liveness pass: its barrier groups (those with a blocked or
     * unfinished sync) and their syncbar alternatives (LIVE_ALTS per
     * group, nlive_groups of them) */
    int nlive_groups;
    relation **live_alts;
    int *live_nalts;
    int *live_choice;
} bar_state;

/* The combination's barrier events, grouped into syncbar choices; false
 * when they make no execution (r says why). */
bool bar_collect(bar_state *bar, const enum_exec *ex, live_ctx *live, check_result *r);

/* syncbar from the current choices of the groups (and of the first
 * nlive liveness groups). */
static inline void bar_set_syncbar(const bar_state *b, relation *sb, int n, int nlive)
{
    rel_clear(sb, n);
    for (int i = 0; i < b->ngroups; i++)
        barriers_apply(b->bars, i, b->choice[i], sb, n);
    for (int i = 0; i < nlive; i++)
        rel_union(sb, sb, b->live_alts[i * LIVE_ALTS + b->live_choice[i]], n);
}

/* Whether the barrier choice in x deadlocks. */
bool bar_deadlock(const bar_state *bar, const exec *x, int n);

/* ---- the final states (final_states.c) ------------------------------------------- */

typedef struct enum_results {
    lit_value *state;
    bool collect_races;
    int races_cap;
    /* per final state (outcome_add's index): whether the condition's
     * proposition holds, once known */
    bool *holds;
    int nholds, holds_cap;
    enum_execution_fn on_execution;
    enum_execution_fn on_rejected;
    void *execution_ctx;
    bool rejecting;        /* record_state walks a rejected execution's final states */
    unsigned exec_flags;   /* flags of the execution being recorded */
} enum_results;

/* ---- one enumeration ------------------------------------------------------------- */

typedef struct enum_ctx {
    const cat_model *model;
    cat_workspace *ws;
    check_result *r;
    FILE *errors;
    enum_budget budget;
    enum_exec ex;
    rf_state rf;
    co_state co;
    bar_state bar;
    enum_results res;
    /* the liveness pass (enumerate_liveness), else NULL; its numbering of
     * the combination's events */
    live_ctx *live;
    int *live_thread;
    lit_value *live_value;
} enum_ctx;

/* choices.c: every barrier, reads-from and coherence choice of the
 * combination in c->ex, each candidate checked by the model. */
void choose_barriers(enum_ctx *c, int g);

/* co_staged.c: how many coherence choices the locations make together, or
 * -1 when too many to hand to the model at once. */
long co_choice_count(const co_state *co);

/* co_staged.c: every coherence choice of the current reads-from choice,
 * handed to the model at once (cat_check_co). */
void evaluate_all_co(enum_ctx *c);

/* co_staged.c: whether some coherence choice may pass the model with the
 * current reads-from choice (else they are counted as rejected). */
bool co_may_pass(enum_ctx *c);

/* final_states.c: the pairs of the relation-valued flags in `flags` of
 * the execution in c->ex.x, into the result's races. */
void final_states_races(enum_ctx *c, unsigned flags);

/* final_states.c: the final states of the consistent execution in
 * c->ex.x, into the result (and to on_execution). */
void final_states_walk(enum_ctx *c);

/* A consistent execution with model flags `flags`: its races and final states. */
static inline void final_states_record(enum_ctx *c, unsigned flags)
{
    c->r->flags |= flags;
    if (c->res.collect_races && flags)
        final_states_races(c, flags);
    c->res.exec_flags = flags;
    final_states_walk(c);
}

/* final_states.c: a rejected execution's final states, to on_rejected. */
void final_states_rejected(enum_ctx *c);

/* combination.c: the hook of trace_filter_each (ctx: enum_ctx): one
 * combination of traces, c->ex.choice; false to stop. */
bool visit_combination(void *ctx);

/* condition.c: the distinct constants of a condition into out[n..max),
 * left to right; with out NULL, counted with repeats (an upper bound). */
int condition_constants(const lit_cond *c, lit_value *out, int n, int max);

#endif
