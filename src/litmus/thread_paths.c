/*
 * litmus/thread_paths.c: per-thread event traces by value guessing (see
 * litmus/thread_paths.h).
 *
 * Each read branches over the values its location may hold.  Those value
 * sets start from the initial values and grow by what the traces write,
 * round after round, until nothing new appears: a value that no chain of
 * writes can compute never shows up, which is what rules out thin-air
 * values such as 42 in LB+data.
 *
 * Dependencies are sets of earlier events of the path, one word per 64
 * events.  A thread is walked with one word first; a path that outgrows
 * the width makes the walk start over with twice as many (a test with
 * short threads never pays for long ones).
 */
#include "litmus/thread_paths.h"
#include "litmus/ops.h"

#include <gc.h>
#include <string.h>


#define MAX_DOMAIN 4096
#define MAX_ROUNDS 64
#define MAX_DEPTH 65535
#define STOP_CHECK_MASK 1023u   /* ask lim->stop every 1024 forks */

/* The values a location may hold, each with the length of the shortest
 * chain of writes, linked by data dependencies, that computes it. */
typedef struct domain {
    int count, cap;
    lit_value *values;
    uint16_t *depth;
} domain;

/* What a round learns about one location, to bound the chains of the next:
 * in one execution a chain passes through distinct writes, all to
 * locations whose values flow into this one. */
typedef struct loc_flow {
    int writes;          /* most writes to it in one execution */
    uint64_t *sources;   /* locations whose reads feed its writes' values (a set) */
    int bound;           /* longest possible chain ending at it */
} loc_flow;

/* The state of one path, copied at every read, where the path forks.  Its
 * size depends on the thread: the registers' values, their dependencies
 * and the control dependency (dep_words words each), and a count per
 * backward branch (path_regs and the others find them). */
typedef struct path_state {
    int nevents;
    int depth;           /* index in walker.states */
    int nvisits;         /* liveness mode: loop-head visits on this path */
    int steps;           /* liveness mode: instructions run on this path */
} path_state;

/* Liveness mode: what a thread's loops look like, computed once. */
typedef struct loop_info {
    int words;           /* words per register set: (nregs + 63) / 64 */
    bool *head;          /* per instruction: the target of a backward branch */
    uint64_t *live;      /* per instruction: registers whose value can still matter there */
} loop_info;

typedef struct walker {
    const litmus_test *test;
    const lit_thread *thread;
    const tp_limits *lim;
    const domain *dom;       /* per location, indexed by physical location */
    domain *written;         /* values written, per physical location */
    int dep_words;           /* words per dependency set */
    int max_events;          /* events those words can name */
    tp_event *events;        /* the current path's events */
    uint64_t *ev_deps;       /* their dependencies: DEP_KINDS sets per event */
    uint64_t *ev_unseq;      /* the events unsequenced with them (tp_trace.unseq) */
    bool unseq;              /* the thread has unsequenced operands */
    uint16_t *depth;         /* per event of the current path: chain length of its value */
    uint64_t *scratch;       /* the dependencies of the operands of one instruction */
    uint64_t *feeds;         /* what a written value depends on */
    int *back_index;         /* per instruction: its index among backward branches, or -1 */
    int nback;
    size_t state_bytes;
    path_state **states;     /* one per depth of the walk, made on first use */
    int nstates;
    tp_thread *out;
    long capacity;
    bool unroll_cut;
    bool values_cut;
    bool too_many;
    bool too_narrow;         /* a path outgrew dep_words: walk again, wider */
    bool too_long;           /* a path outgrew TP_MAX_EVENTS and was dropped */
    bool stopped;            /* lim->stop said stop */
    bool rejected;           /* this round kept a written value out by its chain bound */
    unsigned ticks;
    const loc_flow *flow;    /* bounds from the previous round, or NULL */
    loc_flow *next_flow;     /* what this round learns */
    int dep_words_made;      /* the event buffers' width */
    size_t state_bytes_made; /* the size of the states made */
    int *path_writes;        /* per location, most writes on one path of this thread */
    int *count_scratch;      /* per location: writes on the path being counted */
    const int *writer;       /* per location: the one thread that writes it, -1 none, -2 several */
    int index;               /* of the thread */
    bool reads_own;          /* the thread reads a location only it writes (see reads_served) */
    lit_value vmin, vmax;    /* every value a path of this round handled */
    /* liveness mode (else loops is NULL): the loop-head visits of the
     * current path, a stack shared by the depth-first walk as the events
     * are (LIVE_MAX_VISITS of them; visit_regs: nregs values each) */
    const loop_info *loops;
    int *visit_pc;
    int *visit_nevents;
    lit_value *visit_regs;
    bool live_cut;           /* some path ended TP_END_CUT */
} walker;

static void note_value(walker *w, lit_value v)
{
    if (!w->lim->track_values)
        return;
    if (v < w->vmin)
        w->vmin = v;
    if (v > w->vmax)
        w->vmax = v;
}

/* ---- the parts of a path state ---- */

static lit_value *path_regs(path_state *s) { return (lit_value *)(s + 1); }

static uint64_t *reg_deps(const walker *w, path_state *s, int reg)
{
    return (uint64_t *)(path_regs(s) + w->thread->nregs) + (size_t)reg * (size_t)w->dep_words;
}

static uint64_t *ctrl_deps(const walker *w, path_state *s) { return reg_deps(w, s, w->thread->nregs); }

/* Per unsequenced operand pair of the thread: the number of events of the
 * path when it last began the pair's first operand. */
static int *operand_starts(const walker *w, path_state *s)
{
    return (int *)reg_deps(w, s, w->thread->nregs + 1);
}

static uint8_t *path_taken(const walker *w, path_state *s)
{
    return (uint8_t *)(operand_starts(w, s) + w->thread->nunseq);
}

static size_t state_size(const lit_thread *th, int dep_words, int nback)
{
    return sizeof(path_state) + sizeof(lit_value) * (size_t)th->nregs +
           sizeof(uint64_t) * (size_t)(th->nregs + 1) * (size_t)dep_words + sizeof(int) * (size_t)th->nunseq +
           (size_t)nback;
}

/* The state at walk depth d (made on first use; kept for the walk). */
static path_state *state_at(walker *w, int d)
{
    if (d >= w->nstates) {
        int cap = w->nstates ? 2 * w->nstates : 16;
        while (cap <= d)
            cap *= 2;
        path_state **grown = GC_MALLOC(sizeof *grown * (size_t)cap);
        if (w->nstates)
            memcpy(grown, w->states, sizeof *grown * (size_t)w->nstates);
        w->states = grown;
        w->nstates = cap;
    }
    if (!w->states[d])
        w->states[d] = GC_MALLOC_ATOMIC(w->state_bytes_made);
    return w->states[d];
}

static uint64_t *event_deps(const walker *w, int e, enum tp_dep kind)
{
    return w->ev_deps + ((size_t)e * DEP_KINDS + (size_t)kind) * (size_t)w->dep_words;
}

/* Nearly always one word: that case first, loops otherwise. */
static inline void deps_clear(uint64_t *d, int words)
{
    if (words == 1) {
        d[0] = 0;
        return;
    }
    for (int i = 0; i < words; i++)
        d[i] = 0;
}

static inline void deps_copy(uint64_t *to, const uint64_t *from, int words)
{
    if (words == 1) {
        to[0] = from[0];
        return;
    }
    for (int i = 0; i < words; i++)
        to[i] = from[i];
}

static inline void deps_or(uint64_t *to, const uint64_t *from, int words)
{
    if (words == 1) {
        to[0] |= from[0];
        return;
    }
    for (int i = 0; i < words; i++)
        to[i] |= from[i];
}

/* ---- values ---- */

static bool domain_add(domain *d, lit_value v, int depth)
{
    for (int i = 0; i < d->count; i++)
        if (d->values[i] == v) {
            if (depth < d->depth[i])
                d->depth[i] = (uint16_t)depth;
            return true;
        }
    if (d->count == MAX_DOMAIN)
        return false;
    if (d->count == d->cap) {
        int cap = d->cap ? 2 * d->cap : 4;
        lit_value *values = GC_MALLOC_ATOMIC(sizeof *values * (size_t)cap);
        uint16_t *depths = GC_MALLOC_ATOMIC(sizeof *depths * (size_t)cap);
        if (d->count) {
            memcpy(values, d->values, sizeof *values * (size_t)d->count);
            memcpy(depths, d->depth, sizeof *depths * (size_t)d->count);
        }
        d->values = values;
        d->depth = depths;
        d->cap = cap;
    }
    d->depth[d->count] = (uint16_t)depth;
    d->values[d->count++] = v;
    return true;
}

static void domains_copy(domain *to, const domain *from, int n)
{
    for (int l = 0; l < n; l++) {
        const domain *f = &from[l];
        domain *d = &to[l];
        if (d->cap < f->count) {
            d->cap = f->cap;
            d->values = GC_MALLOC_ATOMIC(sizeof *d->values * (size_t)d->cap);
            d->depth = GC_MALLOC_ATOMIC(sizeof *d->depth * (size_t)d->cap);
        }
        d->count = f->count;
        if (f->count) {
            memcpy(d->values, f->values, sizeof *d->values * (size_t)f->count);
            memcpy(d->depth, f->depth, sizeof *d->depth * (size_t)f->count);
        }
    }
}

static bool domains_equal(const domain *a, const domain *b, int n)
{
    for (int l = 0; l < n; l++) {
        if (a[l].count != b[l].count)
            return false;
        for (int i = 0; i < a[l].count; i++)
            if (a[l].values[i] != b[l].values[i] || a[l].depth[i] != b[l].depth[i])
                return false;
    }
    return true;
}

static lit_value operand_value(const walker *w, path_state *s, const lit_operand *o, uint64_t *deps)
{
    switch (o->kind) {
    case OPND_REG:
        deps_or(deps, reg_deps(w, s, o->reg), w->dep_words);
        return path_regs(s)[o->reg];
    case OPND_IMM:
        return o->imm;
    case OPND_NONE:
        break;
    }
    return 0;
}

static bool stopped(const walker *w) { return w->too_many || w->too_narrow || w->stopped; }

static void emit_trace(walker *w, path_state *s, enum tp_end end, int spin_from, int loop_pc);

/* Liveness mode: the path is cut here by a bound (LIVE_MAX_*, the
 * repetitions of a loop that writes); the enumerator then asks whether any
 * consistent execution reaches the cut. */
__attribute__((cold, noinline)) static void live_cut(walker *w, path_state *s, int pc)
{
    w->live_cut = true;
    emit_trace(w, s, TP_END_CUT, s->nevents, pc);
}

/* An event of instruction pc, in the second operand of some unsequenced
 * pairs: the events the path made since it began that pair's first
 * operand, in the first operand, are unsequenced with it.  (Operands hold
 * no backward branch, so one evaluation of a pair is one stretch of the
 * path.) */
__attribute__((cold, noinline)) static tp_event *mark_unsequenced(walker *w, path_state *s, tp_event *e)
{
    const lit_thread *th = w->thread;
    int index = s->nevents - 1, pc = e->instr;
    uint64_t *unseq = w->ev_unseq + (size_t)index * (size_t)w->dep_words;
    deps_clear(unseq, w->dep_words);
    const int *start = operand_starts(w, s);
    for (int k = 0; k < th->nunseq; k++) {
        const lit_unseq *u = &th->unseq[k];
        if (pc < u->a1 || pc >= u->b1)
            continue;
        for (int j = start[k]; j < index; j++)
            if (w->events[j].instr >= u->a0 && w->events[j].instr < u->a1)
                unseq[j >> 6] |= 1ull << (j & 63);
    }
    return e;
}

/* The path begins the first operand of these pairs at pc. */
__attribute__((cold, noinline)) static void note_operand_starts(const walker *w, path_state *s, int pc)
{
    const lit_thread *th = w->thread;
    int *start = operand_starts(w, s);
    for (int k = 0; k < th->nunseq; k++)
        if (th->unseq[k].a0 == pc)
            start[k] = s->nevents;
}

static tp_event *push_event(walker *w, path_state *s, const lit_instr *in, int pc, enum tp_kind kind)
{
    if (s->nevents == w->max_events) {
        if (w->max_events < TP_MAX_EVENTS)
            w->too_narrow = true;
        else if (w->loops)
            live_cut(w, s, pc);
        else
            w->too_long = true;
        return NULL;
    }
    int index = s->nevents++;
    tp_event *e = &w->events[index];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->order = (uint8_t)in->order;
    e->scope = (uint8_t)in->scope;
    e->proxy = (uint8_t)in->proxy;
    e->loc = in->loc;
    e->count = -1;
    e->remote = in->remote;
    e->regions = in->regions;
    e->instr = pc;
    if (__builtin_expect(in->addr.kind == OPND_REG, 0) && kind != EV_FENCE)
        deps_copy(event_deps(w, index, DEP_ADDR), reg_deps(w, s, in->addr.reg), w->dep_words);
    else
        deps_clear(event_deps(w, index, DEP_ADDR), w->dep_words);
    deps_clear(event_deps(w, index, DEP_DATA), w->dep_words);
    deps_copy(event_deps(w, index, DEP_CTRL), ctrl_deps(w, s), w->dep_words);
    if (__builtin_expect(w->unseq, 0))
        return mark_unsequenced(w, s, e);
    return e;
}

/* A seq_cst access is preceded by an implicit fence event of its scope
 * (see thread_paths.h); false when the trace is full. */
static bool push_implicit_sc_fence(walker *w, path_state *s, const lit_instr *in, int pc)
{
    if (in->order != ORD_SC || in->op == OP_FENCE)
        return true;
    tp_event *f = push_event(w, s, in, pc, EV_FENCE);
    if (!f)
        return false;
    f->loc = -1;
    f->implicit_sc = true;
    return true;
}

/* Counts the writes of a path, whole or dropped at the loop bound, into
 * the round's bounds (the most writes a thread makes to each location).  A dropped path counts too: in the first rounds a spin loop may
 * wait for a value nobody has written yet, so every path of its thread is
 * dropped; its writes must still count, or the rounds stop before the
 * awaited value reaches the loop (two spinning threads then had no trace). */
static bool is_write(const tp_event *e) { return e->kind == EV_WRITE || e->kind == EV_RMW; }

static void count_path_writes(walker *w, const path_state *s)
{
    for (int i = 0; i < s->nevents; i++)
        if (is_write(&w->events[i]))
            w->count_scratch[w->test->locs[w->events[i].loc].physical]++;
    for (int i = 0; i < s->nevents; i++)
        if (is_write(&w->events[i])) {
            int l = w->test->locs[w->events[i].loc].physical;
            if (w->count_scratch[l] > w->path_writes[l])
                w->path_writes[l] = w->count_scratch[l];
            w->count_scratch[l] = 0;
        }
}

/* Can each read of the path have a source?  A read of a location that no
 * other thread writes can read only its initial value or a value that a
 * write of this very path writes (any of them: a model need not forbid
 * reading a later write).  A path with another such read has no execution,
 * so it is not kept: a thread that reads back its own read-modify-writes
 * would otherwise keep every combination of guessed values. */
static bool reads_served(const walker *w, const path_state *s)
{
    const litmus_test *t = w->test;
    for (int i = 0; i < s->nevents; i++) {
        const tp_event *r = &w->events[i];
        if (r->kind != EV_READ && r->kind != EV_RMW)
            continue;
        int phys = t->locs[r->loc].physical;
        if (w->writer[phys] != w->index || r->value == t->locs[phys].init)
            continue; /* (a location nobody writes holds only its initial value) */
        bool found = false;
        for (int j = 0; j < s->nevents && !found; j++) {
            const tp_event *e = &w->events[j];
            if (j != i && is_write(e) && t->locs[e->loc].physical == phys)
                found = (e->kind == EV_RMW ? e->wvalue : e->value) == r->value;
        }
        if (!found)
            return false;
    }
    return true;
}

static void emit_trace(walker *w, path_state *s, enum tp_end end, int spin_from, int loop_pc)
{
    tp_thread *t = w->out;
    count_path_writes(w, s);
    if (w->reads_own && !reads_served(w, s))
        return;
    if (t->ntraces == w->lim->max_traces) {
        w->too_many = true;
        return;
    }
    if (t->ntraces == w->capacity) {
        w->capacity = w->capacity ? 2 * w->capacity : 16;
        tp_trace *grown = GC_MALLOC(sizeof *grown * (size_t)w->capacity);
        if (t->ntraces)
            memcpy(grown, t->traces, sizeof *grown * (size_t)t->ntraces);
        t->traces = grown;
    }
    tp_trace *tr = &t->traces[t->ntraces++];
    int n = s->nevents;
    tr->nevents = n;
    tr->events = GC_MALLOC_ATOMIC(sizeof(tp_event) * (size_t)(n ? n : 1));
    memcpy(tr->events, w->events, sizeof(tp_event) * (size_t)n);
    int nregs = w->thread->nregs;
    tr->regs = GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(nregs ? nregs : 1));
    memcpy(tr->regs, path_regs(s), sizeof(lit_value) * (size_t)nregs);
    tr->dep_words = w->dep_words;
    size_t dep_bytes = sizeof(uint64_t) * (size_t)n * DEP_KINDS * (size_t)w->dep_words;
    tr->deps = GC_MALLOC_ATOMIC(dep_bytes ? dep_bytes : 1);
    memcpy(tr->deps, w->ev_deps, dep_bytes);
    tr->unseq = NULL;
    if (w->unseq) {
        size_t unseq_bytes = sizeof(uint64_t) * (size_t)n * (size_t)w->dep_words;
        tr->unseq = GC_MALLOC_ATOMIC(unseq_bytes ? unseq_bytes : 1);
        memcpy(tr->unseq, w->ev_unseq, unseq_bytes);
    }
    tr->end = (uint8_t)end;
    tr->spin_from = spin_from;
    tr->loop_pc = loop_pc;
    tr->progress = false;
    for (int i = spin_from; end == TP_END_SPIN && i < n; i++)
        tr->progress |= w->thread->instrs[w->events[i].instr].progress;
}

/* Liveness mode with prefixes: the thread may be starved here. */
static inline void emit_prefix(walker *w, const path_state *s)
{
    if (__builtin_expect(w->loops != NULL, 0) && w->lim->prefixes)
        emit_trace(w, (path_state *)s, TP_END_PREFIX, s->nevents, -1);
}

static void walk(walker *w, path_state *s, int pc);
static void follow_rmw_single(walker *w, const path_state *s, int pc, lit_value old, int depth);

/* Adds a written value to the next round's values, unless the chain that
 * computes it is longer than any execution can have.  `feeds`: the events
 * of the path the value depends on. */
static void record_write(walker *w, const tp_event *e, const uint64_t *feeds)
{
    int phys = w->test->locs[e->loc].physical;
    int depth = 0;
    for (int k = 0; k < w->dep_words; k++)
        for (uint64_t f = feeds[k]; f; f &= f - 1) {
            int i = k * 64 + __builtin_ctzll(f);
            if (w->depth[i] > depth)
                depth = w->depth[i];
            if (w->events[i].kind == EV_READ || w->events[i].kind == EV_RMW) {
                int src = w->test->locs[w->events[i].loc].physical;
                w->next_flow[phys].sources[src >> 6] |= (uint64_t)1 << (src & 63);
            }
        }
    depth++;
    if (depth > MAX_DEPTH || (w->flow && depth > w->flow[phys].bound)) {
        w->rejected = true;
        return;
    }
    lit_value written = e->kind == EV_RMW ? e->wvalue : e->value;
    note_value(w, written);       /* a value no execution can write is not in the range */
    if (!domain_add(&w->written[phys], written, depth))
        w->values_cut = true;
}

/* The read of instruction `in` returning `old` (chain length `depth`): its
 * event, and for an RMW the write; then the rest of the path. */
static void follow_read(walker *w, const path_state *s, int pc, lit_value old, int depth)
{
    const lit_instr *in = &w->thread->instrs[pc];
    path_state *next = state_at(w, s->depth + 1);
    memcpy(next, s, w->state_bytes);
    next->depth = s->depth + 1;
    if (!push_implicit_sc_fence(w, next, in, pc))
        return;
    int read_index = next->nevents;
    tp_event *r = push_event(w, next, in, pc, EV_READ);
    if (!r)
        return;
    r->value = old;
    note_value(w, old);
    w->depth[read_index] = (uint16_t)depth;
    if (in->op == OP_LOAD) {
        r->order = (uint8_t)in->order;
    } else {
        r->in_rmw = true;
        r->order = (uint8_t)(in->order == ORD_SC ? ORD_SC
                             : (in->order == ORD_ACQUIRE || in->order == ORD_ACQ_REL) ? ORD_ACQUIRE
                                                                                      : ORD_RELAXED);
        uint64_t *deps = w->scratch;
        deps_clear(deps, w->dep_words);
        lit_value a = operand_value(w, next, &in->a, deps);
        lit_value b = operand_value(w, next, &in->b, deps);
        int write_index = next->nevents;
        tp_event *wr = push_event(w, next, in, pc, EV_WRITE);
        if (!wr)
            return;
        wr->in_rmw = true;
        wr->rmw_write = true;
        wr->order = (uint8_t)(in->order == ORD_SC ? ORD_SC
                              : (in->order == ORD_RELEASE || in->order == ORD_ACQ_REL) ? ORD_RELEASE
                                                                                       : ORD_RELAXED);
        wr->value = lit_rmw_result(in, old, a, b);
        deps_copy(event_deps(w, write_index, DEP_DATA), deps, w->dep_words);
        deps_copy(w->feeds, deps, w->dep_words);
        w->feeds[read_index >> 6] |= (uint64_t)1 << (read_index & 63);
        w->depth[write_index] = 0;
        record_write(w, wr, w->feeds);
    }
    if (in->dst >= 0) {
        path_regs(next)[in->dst] = old;
        uint64_t *d = reg_deps(w, next, in->dst);
        deps_clear(d, w->dep_words);
        d[read_index >> 6] |= (uint64_t)1 << (read_index & 63);
    }
    walk(w, next, pc + 1);
}

static bool in_list(const lit_value *values, int n, lit_value v)
{
    for (int i = 0; i < n; i++)
        if (values[i] == v)
            return true;
    return false;
}

/* A read forks the path: one continuation per value the location may hold,
 * and, for an atomic read when the model allows thin air, per seed value
 * too (a non-atomic read in a thin-air cycle would race, so it must read a
 * computed value; and a location that no other thread writes closes no
 * cycle through other threads: a guess there could only be justified by a
 * later write of the reading thread, which coherence forbids). */
static void walk_read(walker *w, const path_state *s, int pc)
{
    const lit_instr *in = &w->thread->instrs[pc];
    const domain *d = &w->dom[w->test->locs[in->loc].physical];
    if ((++w->ticks & STOP_CHECK_MASK) == 0 && w->lim->stop && w->lim->stop(w->lim->stop_ctx))
        w->stopped = true;
    int nseeds = in->order == ORD_WEAK ? 0 : w->lim->nseeds;
    if (nseeds) {
        int writer = w->writer[w->test->locs[in->loc].physical];
        if (writer == -1 || writer == w->index)
            nseeds = 0;
    }
    const lit_value *seeds = w->lim->seeds;
    void (*follow)(walker *, const path_state *, int, lit_value, int) =
        in->single_event && in->op == OP_RMW ? follow_rmw_single : follow_read;
    emit_prefix(w, s);
    for (int i = 0; i < d->count && !stopped(w); i++) {
        lit_value v = d->values[i];
        follow(w, s, pc, v, nseeds && in_list(seeds, nseeds, v) ? 0 : d->depth[i]);
    }
    for (int i = 0; i < nseeds && !stopped(w); i++)
        if (!in_list(d->values, d->count, seeds[i]))
            follow(w, s, pc, seeds[i], 0);
}

/* herd's C read-modify-write (lit_instr.single_event) that read `old`
 * (chain length `depth`): a compare-exchange forks into success, an EV_RMW
 * that read the expected value, and failure, a plain read with the failure
 * order (never on equal values unless the exchange is weak); any other
 * operation always succeeds. */
static void follow_rmw_single(walker *w, const path_state *s, int pc, lit_value old, int depth)
{
    const lit_instr *in = &w->thread->instrs[pc];
    bool cas = in->rmw_op == RMW_CAS;
    for (int fails = 0; fails < 2 && !stopped(w); fails++) {
        path_state *next = state_at(w, s->depth + 1);
        memcpy(next, s, w->state_bytes);
        next->depth = s->depth + 1;
        uint64_t *deps = w->scratch;
        deps_clear(deps, w->dep_words);
        lit_value a = operand_value(w, next, &in->a, deps);
        lit_value b = operand_value(w, next, &in->b, deps);
        if (fails ? !cas || (old == a && !in->cas_weak) : cas && old != a)
            continue;
        int index = next->nevents;
        tp_event *e = push_event(w, next, in, pc, fails ? EV_READ : EV_RMW);
        if (!e)
            return;
        e->value = old;
        note_value(w, old);
        w->depth[index] = (uint16_t)depth;
        if (fails) {
            e->order = (uint8_t)in->order_fail;
        } else {
            e->in_rmw = true;
            e->wvalue = lit_rmw_result(in, old, a, b);
            deps_copy(event_deps(w, index, DEP_DATA), deps, w->dep_words);
            deps_copy(w->feeds, deps, w->dep_words);
            w->feeds[index >> 6] |= (uint64_t)1 << (index & 63);
            record_write(w, e, w->feeds);
        }
        if (in->dst >= 0) {
            path_regs(next)[in->dst] = old;
            uint64_t *d = reg_deps(w, next, in->dst);
            deps_clear(d, w->dep_words);
            d[index >> 6] |= (uint64_t)1 << (index & 63);
        }
        if (in->flag_dst >= 0) {
            path_regs(next)[in->flag_dst] = !fails;
            uint64_t *d = reg_deps(w, next, in->flag_dst);
            deps_copy(d, deps, w->dep_words);
            d[index >> 6] |= (uint64_t)1 << (index & 63);
        }
        walk(w, next, pc + 1);
    }
}

/* Follows a taken branch; false when the loop bound drops the path. */
static bool take_branch(walker *w, path_state *s, int pc, int *next_pc)
{
    int target = w->thread->instrs[pc].target;
    if (target <= pc && !w->loops) {
        uint8_t *taken = &path_taken(w, s)[w->back_index[pc]];
        if (*taken >= w->lim->unroll) {
            w->unroll_cut = true;
            count_path_writes(w, s);
            return false;
        }
        (*taken)++;
    }
    *next_pc = target;
    return true;
}

/* Is the iteration events[from..to) one that can repeat forever unchanged?
 * Its writes must be silent (a read-modify-write that writes back what it
 * read, a failing CAS) and it may hold no barrier. */
static bool pure_iteration(const walker *w, int from, int to)
{
    for (int i = from; i < to; i++) {
        const tp_event *e = &w->events[i];
        if (e->kind == EV_BARRIER)
            return false;
        if (e->kind == EV_WRITE && !(e->rmw_write && i > from && w->events[i - 1].value == e->value))
            return false;
    }
    return true;
}

static bool same_live_regs(const lit_value *a, const lit_value *b, const uint64_t *live, int words)
{
    for (int k = 0; k < words; k++)
        for (uint64_t m = live[k]; m; m &= m - 1) {
            int r = k * 64 + __builtin_ctzll(m);
            if (a[r] != b[r])
                return false;
        }
    return true;
}

/* Liveness mode, before instruction pc: bounds the path and, at a loop
 * head, ends it where its state repeats.  False when the path ends here.
 * path_taken counts, per instruction, the iterations that wrote. */
static bool live_step(walker *w, path_state *s, int pc)
{
    if (++s->steps > LIVE_MAX_STEPS) {
        live_cut(w, s, pc);
        return false;
    }
    const loop_info *li = w->loops;
    if (!li->head[pc])
        return true;
    int nregs = w->thread->nregs;
    const uint64_t *live = li->live + (size_t)pc * (size_t)li->words;
    for (int k = s->nvisits - 1; k >= 0; k--) {
        if (w->visit_pc[k] != pc ||
            !same_live_regs(w->visit_regs + (size_t)k * (size_t)nregs, path_regs(s), live, li->words))
            continue;
        /* The thread is back in the same state.  After a pure iteration
         * it would read the same values again: a spin.  After one that
         * wrote (or passed a barrier), memory has changed, so the path goes
         * on, up to lim->live_repeats such iterations at this head. */
        if (pure_iteration(w, w->visit_nevents[k], s->nevents)) {
            emit_trace(w, s, TP_END_SPIN, w->visit_nevents[k], pc);
            return false;
        }
        uint8_t *taken = &path_taken(w, s)[pc];
        if ((*taken)++ >= w->lim->live_repeats) {
            live_cut(w, s, pc);
            return false;
        }
        break;
    }
    if (s->nvisits == LIVE_MAX_VISITS) {
        live_cut(w, s, pc);
        return false;
    }
    int v = s->nvisits++;
    w->visit_pc[v] = pc;
    w->visit_nevents[v] = s->nevents;
    if (nregs)
        memcpy(w->visit_regs + (size_t)v * (size_t)nregs, path_regs(s), sizeof(lit_value) * (size_t)nregs);
    return true;
}

static void walk(walker *w, path_state *s, int pc)
{
    const lit_thread *th = w->thread;
    uint64_t *deps = w->scratch;
    while (pc < th->ninstrs && !stopped(w)) {
        const lit_instr *in = &th->instrs[pc];
        if (__builtin_expect(w->loops != NULL, 0) && !live_step(w, s, pc))
            return;
        if (__builtin_expect(w->unseq, 0))
            note_operand_starts(w, s, pc);
        deps_clear(deps, w->dep_words);
        switch (in->op) {
        case OP_LOAD:
        case OP_RMW:
        case OP_RED:
            walk_read(w, s, pc);
            return;
        case OP_STORE: {
            lit_value v = operand_value(w, s, &in->a, deps);
            emit_prefix(w, s);
            if (!push_implicit_sc_fence(w, s, in, pc))
                return;
            int index = s->nevents;
            tp_event *e = push_event(w, s, in, pc, EV_WRITE);
            if (!e)
                return;
            e->value = v;
            deps_copy(event_deps(w, index, DEP_DATA), deps, w->dep_words);
            w->depth[index] = 0;
            record_write(w, e, deps);
            break;
        }
        case OP_FENCE:
            emit_prefix(w, s);
            if (!push_event(w, s, in, pc, EV_FENCE))
                return;
            break;
        case OP_BARRIER: {
            lit_value id = operand_value(w, s, &in->a, deps);
            lit_value count = in->b.kind == OPND_NONE ? -1 : operand_value(w, s, &in->b, deps);
            emit_prefix(w, s);
            int index = s->nevents;
            tp_event *e = push_event(w, s, in, pc, EV_BARRIER);
            if (!e)
                return;
            e->value = id;
            e->count = count;
            e->waits = in->barrier_waits;
            deps_copy(event_deps(w, index, DEP_ADDR), deps, w->dep_words);
            if (w->loops && in->barrier_waits)
                emit_trace(w, s, TP_END_BLOCKED, s->nevents, pc);
            break;
        }
        case OP_MOV:
            path_regs(s)[in->dst] = operand_value(w, s, &in->a, deps);
            note_value(w, path_regs(s)[in->dst]);
            deps_copy(reg_deps(w, s, in->dst), deps, w->dep_words);
            break;
        case OP_ALU: {
            lit_value a = operand_value(w, s, &in->a, deps);
            lit_value b = operand_value(w, s, &in->b, deps);
            path_regs(s)[in->dst] = lit_alu_result(in->alu_op, a, b);
            note_value(w, path_regs(s)[in->dst]);
            deps_copy(reg_deps(w, s, in->dst), deps, w->dep_words);
            break;
        }
        case OP_BRANCH: {
            lit_value a = operand_value(w, s, &in->a, deps);
            lit_value b = operand_value(w, s, &in->b, deps);
            if (!in->addr_select)
                deps_or(ctrl_deps(w, s), deps, w->dep_words);
            if (lit_cmp_holds(in->cmp, a, b)) {
                if (!take_branch(w, s, pc, &pc))
                    return;
                continue;
            }
            break;
        }
        case OP_GOTO:
            if (!take_branch(w, s, pc, &pc))
                return;
            continue;
        }
        pc++;
    }
    if (!stopped(w))
        emit_trace(w, s, TP_END_DONE, s->nevents, -1);
}

/* ---- liveness mode: loop heads and the registers live at them ----------- */

static void reg_set_add(uint64_t *set, const lit_operand *o)
{
    if (o->kind == OPND_REG)
        set[o->reg >> 6] |= (uint64_t)1 << (o->reg & 63);
}

/* Adds to `live` the registers whose value instruction `in` reads in a way
 * that can matter, given `live_out`, those live after it: operands of
 * branches, stores, read-modify-writes and barriers always; sources of a
 * register move or arithmetic only when its destination is live (so a
 * counter that feeds nothing but itself does not keep a loop from
 * repeating). */
static void add_used_regs(const lit_instr *in, const uint64_t *live_out, uint64_t *live)
{
    switch (in->op) {
    case OP_STORE:
        reg_set_add(live, &in->a);
        break;
    case OP_RMW:
    case OP_RED:
    case OP_BARRIER:
    case OP_BRANCH:
        reg_set_add(live, &in->a);
        reg_set_add(live, &in->b);
        break;
    case OP_MOV:
    case OP_ALU:
        if (in->dst >= 0 && (live_out[in->dst >> 6] >> (in->dst & 63) & 1)) {
            reg_set_add(live, &in->a);
            reg_set_add(live, &in->b);
        }
        break;
    default:
        break;
    }
}

static bool defines_reg(const lit_instr *in)
{
    bool defines = in->op == OP_LOAD || in->op == OP_RMW || in->op == OP_MOV || in->op == OP_ALU;
    return defines && in->dst >= 0;
}

/* Backward dataflow to a fixpoint over the thread's control flow. */
static void find_loops(const lit_thread *th, loop_info *li)
{
    int n = th->ninstrs, words = (th->nregs + 63) / 64;
    li->words = words ? words : 1;
    li->head = GC_MALLOC_ATOMIC(sizeof *li->head * (size_t)(n ? n : 1));
    memset(li->head, 0, sizeof *li->head * (size_t)(n ? n : 1));
    size_t live_words = (size_t)(n ? n : 1) * (size_t)li->words;
    li->live = GC_MALLOC_ATOMIC(sizeof *li->live * live_words);
    memset(li->live, 0, sizeof *li->live * live_words);
    uint64_t *out = GC_MALLOC_ATOMIC(sizeof *out * (size_t)li->words);
    uint64_t *now = GC_MALLOC_ATOMIC(sizeof *now * (size_t)li->words);
    for (int pc = 0; pc < n; pc++) {
        const lit_instr *in = &th->instrs[pc];
        if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= pc)
            li->head[in->target] = true;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int pc = n - 1; pc >= 0; pc--) {
            const lit_instr *in = &th->instrs[pc];
            memset(out, 0, sizeof *out * (size_t)li->words);
            for (int k = 0; k < li->words; k++) {
                if (in->op != OP_GOTO && pc + 1 < n)
                    out[k] |= li->live[(size_t)(pc + 1) * (size_t)li->words + (size_t)k];
                if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target < n)
                    out[k] |= li->live[(size_t)in->target * (size_t)li->words + (size_t)k];
            }
            memcpy(now, out, sizeof *now * (size_t)li->words);
            if (defines_reg(in))
                now[in->dst >> 6] &= ~((uint64_t)1 << (in->dst & 63));
            add_used_regs(in, out, now);
            uint64_t *at = li->live + (size_t)pc * (size_t)li->words;
            if (memcmp(at, now, sizeof *now * (size_t)li->words)) {
                memcpy(at, now, sizeof *now * (size_t)li->words);
                changed = true;
            }
        }
    }
}

/* ---- one thread, one round ---- */

/* Per physical location: the one thread whose program writes it, -1 when
 * none does, -2 when several do. */
static const int *location_writers(const litmus_test *t)
{
    int *writer = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(t->nlocs ? t->nlocs : 1));
    for (int l = 0; l < t->nlocs; l++)
        writer[l] = -1;
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].ninstrs; k++) {
            const lit_instr *in = &t->threads[i].instrs[k];
            if (in->op != OP_STORE && in->op != OP_RMW && in->op != OP_RED)
                continue;
            int phys = t->locs[in->loc].physical;
            writer[phys] = writer[phys] == -1 || writer[phys] == i ? i : -2;
        }
    return writer;
}

/* Does thread i read a location that only it writes? */
static bool reads_own_location(const litmus_test *t, int i, const int *writer)
{
    for (int k = 0; k < t->threads[i].ninstrs; k++) {
        const lit_instr *in = &t->threads[i].instrs[k];
        if ((in->op == OP_LOAD || in->op == OP_RMW || in->op == OP_RED) && writer[t->locs[in->loc].physical] == i)
            return true;
    }
    return false;
}

static int *number_backward_branches(const lit_thread *th, int *nback)
{
    int *index = GC_MALLOC_ATOMIC(sizeof *index * (size_t)(th->ninstrs ? th->ninstrs : 1));
    *nback = 0;
    for (int pc = 0; pc < th->ninstrs; pc++) {
        const lit_instr *in = &th->instrs[pc];
        bool back = (in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= pc;
        index[pc] = back ? (*nback)++ : -1;
    }
    return index;
}

/* Storage for paths of up to 64 * dep_words events of the current thread:
 * kept from one thread and round to the next while it is large enough. */
static void size_walker(walker *w, int dep_words)
{
    size_t state_bytes = state_size(w->thread, dep_words, w->nback);
    if (dep_words > w->dep_words_made) {
        size_t n = (size_t)(64 * dep_words < TP_MAX_EVENTS ? 64 * dep_words : TP_MAX_EVENTS);
        w->events = GC_MALLOC_ATOMIC(sizeof *w->events * n);
        w->ev_deps = GC_MALLOC_ATOMIC(sizeof *w->ev_deps * n * DEP_KINDS * (size_t)dep_words);
        w->ev_unseq = GC_MALLOC_ATOMIC(sizeof *w->ev_unseq * n * (size_t)dep_words);
        w->depth = GC_MALLOC_ATOMIC(sizeof *w->depth * n);
        w->scratch = GC_MALLOC_ATOMIC(sizeof *w->scratch * (size_t)dep_words);
        w->feeds = GC_MALLOC_ATOMIC(sizeof *w->feeds * (size_t)dep_words);
        w->dep_words_made = dep_words;
    }
    if (state_bytes > w->state_bytes_made) {
        w->states = NULL;   /* states of the old size are dropped */
        w->nstates = 0;
        w->state_bytes_made = state_bytes;
    }
    w->dep_words = dep_words;
    w->max_events = 64 * dep_words < TP_MAX_EVENTS ? 64 * dep_words : TP_MAX_EVENTS;
    w->state_bytes = state_bytes;
}

/* Walks the thread's every path, or as many as lim->max_traces, or until
 * lim->stop says stop (then w->too_many or w->stopped). */
static void walk_thread(walker *w, tp_result *out)
{
    int nlocs = w->test->nlocs ? w->test->nlocs : 1;
    for (int words = 1;; words *= 2) {
        size_walker(w, words);
        memset(w->path_writes, 0, sizeof(int) * (size_t)nlocs);
        w->out->ntraces = 0;
        w->out->traces = NULL;
        w->capacity = 0;
        w->too_narrow = false;
        w->live_cut = false;
        path_state *s = state_at(w, 0);
        memset(s, 0, w->state_bytes);
        for (int r = 0; r < w->thread->nregs; r++)
            path_regs(s)[r] = w->thread->reg_init ? w->thread->reg_init[r] : 0;
        if (w->loops && w->lim->empty_prefix && !w->lim->prefixes)
            emit_trace(w, s, TP_END_PREFIX, 0, -1);
        walk(w, s, 0);
        if (!w->too_narrow)
            break;
    }
    out->unroll_cut |= w->unroll_cut;
    out->values_cut |= w->values_cut;
    out->too_long |= w->too_long;
    out->stopped |= w->stopped;
    out->live_cut |= w->live_cut;
}

/* One round: every thread's traces under the value sets `dom`; next_flow
 * (zeroed by the caller) receives what the round learned per location. */
static void run_round(walker *w, int *const *back_index, const int *nback, const loop_info *loops,
                      const domain *dom, domain *written, const loc_flow *flow, loc_flow *next_flow, tp_result *out)
{
    const litmus_test *t = w->test;
    out->live_cut = false;
    for (int i = 0; i < t->nthreads; i++) {
        w->thread = &t->threads[i];
        w->unseq = w->thread->nunseq != 0;
        w->back_index = back_index[i];
        w->nback = nback[i];
        w->loops = loops ? &loops[i] : NULL;
        if (loops) {
            /* liveness mode counts iterations per loop head (path_taken by
             * instruction), not per backward branch */
            w->nback = w->thread->ninstrs;
            int nregs = w->thread->nregs ? w->thread->nregs : 1;
            w->visit_regs = GC_MALLOC_ATOMIC(sizeof *w->visit_regs * (size_t)nregs * LIVE_MAX_VISITS);
        }
        w->dom = dom;
        w->written = written;
        w->flow = flow;
        w->next_flow = next_flow;
        w->out = &out->threads[i];
        w->index = i;
        /* that pruning takes the latest earlier write as program-order latest */
        w->reads_own = reads_own_location(t, i, w->writer) && !w->thread->nunseq;
        w->unroll_cut = w->values_cut = w->too_many = w->too_long = false;
        w->vmin = out->vmin;
        w->vmax = out->vmax;
        walk_thread(w, out);
        out->vmin = w->vmin;
        out->vmax = w->vmax;
        for (int l = 0; l < t->nlocs; l++)
            next_flow[l].writes += w->path_writes[l];
        if (w->stopped)
            return;
        /* a thread with more paths than lim->max_traces keeps the ones
         * found: the rounds stop after this one, the result says so */
        out->too_many |= w->too_many;
    }
}

static walker *new_walker(const litmus_test *t, const tp_limits *lim)
{
    int nlocs = t->nlocs ? t->nlocs : 1;
    walker *w = GC_MALLOC(sizeof *w);
    w->test = t;
    w->lim = lim;
    w->path_writes = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)nlocs);
    w->count_scratch = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)nlocs);
    memset(w->count_scratch, 0, sizeof(int) * (size_t)nlocs);
    w->writer = location_writers(t);
    return w;
}

/* ---- the rounds ---- */

static loc_flow *new_flow(int nlocs)
{
    int n = nlocs > 0 ? nlocs : 1, words = (n + 63) / 64;
    loc_flow *flow = GC_MALLOC(sizeof *flow * (size_t)n);
    uint64_t *sets = GC_MALLOC_ATOMIC(sizeof *sets * (size_t)n * (size_t)words);
    memset(sets, 0, sizeof *sets * (size_t)n * (size_t)words);
    for (int l = 0; l < n; l++)
        flow[l] = (loc_flow){0, sets + (size_t)l * (size_t)words, 0};
    return flow;
}

/* The longest chain ending at each location: the writes, in one execution,
 * to every location whose values can flow into it (depth first over the
 * sources; a location with no sources is its own bound). */
static void compute_bounds(const litmus_test *t, loc_flow *flow)
{
    int n = t->nlocs, words = (n + 63) / 64;
    uint64_t *seen = GC_MALLOC_ATOMIC(sizeof *seen * (size_t)(words ? words : 1));
    int *stack = GC_MALLOC_ATOMIC(sizeof *stack * (size_t)(n ? n : 1));
    for (int l = 0; l < n; l++) {
        memset(seen, 0, sizeof *seen * (size_t)words);
        seen[l >> 6] |= (uint64_t)1 << (l & 63);
        long bound = 0;
        int top = 0;
        stack[top++] = l;
        while (top) {
            int at = stack[--top];
            bound += flow[at].writes;
            for (int k = 0; k < words; k++)
                for (uint64_t m = flow[at].sources[k] & ~seen[k]; m; m &= m - 1) {
                    int next = k * 64 + __builtin_ctzll(m);
                    seen[k] |= (uint64_t)1 << (next & 63);
                    stack[top++] = next;
                }
        }
        flow[l].bound = bound < MAX_DEPTH ? (int)bound : MAX_DEPTH;
    }
}

static bool same_bounds(const loc_flow *a, const loc_flow *b, int n)
{
    for (int l = 0; l < n; l++)
        if (a[l].bound != b[l].bound)
            return false;
    return true;
}

/* The values a test names: initial values of locations and registers,
 * and every immediate operand. */
static void static_range(const litmus_test *t, lit_value *lo, lit_value *hi)
{
    lit_value mn = 0, mx = 0;
    bool any = false;
#define NOTE(v) do { lit_value v_ = (v); if (!any || v_ < mn) mn = v_; if (!any || v_ > mx) mx = v_; any = true; } while (0)
    for (int l = 0; l < t->nlocs; l++)
        NOTE(t->locs[l].init);
    for (int i = 0; i < t->nthreads; i++) {
        const lit_thread *th = &t->threads[i];
        for (int r = 0; r < th->nregs; r++)
            NOTE(th->reg_init ? th->reg_init[r] : 0);
        for (int k = 0; k < th->ninstrs; k++) {
            if (th->instrs[k].a.kind == OPND_IMM)
                NOTE(th->instrs[k].a.imm);
            if (th->instrs[k].b.kind == OPND_IMM)
                NOTE(th->instrs[k].b.imm);
        }
    }
#undef NOTE
    *lo = mn;
    *hi = mx;
}

void thread_paths_build(const litmus_test *t, const tp_limits *lim, tp_result *out)
{
    memset(out, 0, sizeof *out);
    out->threads = GC_MALLOC(sizeof(tp_thread) * (size_t)(t->nthreads ? t->nthreads : 1));
    int nlocs = t->nlocs ? t->nlocs : 1;
    domain *dom = GC_MALLOC(sizeof *dom * (size_t)nlocs);
    domain *written = GC_MALLOC(sizeof *written * (size_t)nlocs);
    loc_flow *flow = NULL;
    walker *w = new_walker(t, lim);
    loop_info *loops = NULL;
    if (lim->liveness) {
        loops = GC_MALLOC(sizeof *loops * (size_t)(t->nthreads ? t->nthreads : 1));
        for (int i = 0; i < t->nthreads; i++)
            find_loops(&t->threads[i], &loops[i]);
        w->visit_pc = GC_MALLOC_ATOMIC(sizeof *w->visit_pc * LIVE_MAX_VISITS);
        w->visit_nevents = GC_MALLOC_ATOMIC(sizeof *w->visit_nevents * LIVE_MAX_VISITS);
    }
    int **back_index = GC_MALLOC(sizeof *back_index * (size_t)(t->nthreads ? t->nthreads : 1));
    int *nback = GC_MALLOC_ATOMIC(sizeof *nback * (size_t)(t->nthreads ? t->nthreads : 1));
    for (int i = 0; i < t->nthreads; i++)
        back_index[i] = number_backward_branches(&t->threads[i], &nback[i]);
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].physical == l && t->locs[l].init != LIT_NO_VALUE)
            domain_add(&dom[l], t->locs[l].init, 0);
    /* Rounds grow the values until nothing new appears.  A value is kept
     * only if the chain of writes that computes it fits in one execution:
     * in an execution a value passes through distinct writes only.  That
     * stops a value read back by an atom.add from growing forever.  The
     * bounds a round applies are the previous round's, so a write that a
     * new value has just made reachable may be kept out for a round (its
     * location had no writes before); the rounds go on until neither the
     * values nor the bounds change.  (A backstop that stopped after as
     * many rounds as an execution has writes lost the last hand-off of a
     * chain of four spinning threads: each hop took two rounds.) */
    for (int round = 0; round < MAX_ROUNDS; round++) {
        loc_flow *next_flow = new_flow(t->nlocs);
        domains_copy(written, dom, t->nlocs);
        out->unroll_cut = false;
        if (lim->track_values)
            static_range(t, &out->vmin, &out->vmax);
        w->rejected = false;
        run_round(w, back_index, nback, loops, dom, written, flow, next_flow, out);
        if (out->stopped || out->too_many) {
            if (loops)
                out->live_unknown = out->stopped ? "a limit stopped the thread paths' walk"
                                                 : "a thread has too many paths";
            return;
        }
        compute_bounds(t, next_flow);
        /* no new value, and none kept out by a bound that may still grow */
        if (domains_equal(written, dom, t->nlocs) && (!w->rejected || (flow && same_bounds(flow, next_flow, t->nlocs))))
            return;
        domain *swap = dom;
        dom = written;
        written = swap;
        flow = next_flow;
    }
    out->values_cut = true;
    if (loops)
        out->live_unknown = "the value search stopped before closing";
}
