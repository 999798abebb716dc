/*
 * enumerate/thread_paths.c: per-thread event traces by value guessing (see
 * enumerate/thread_paths.h).
 *
 * Each read branches over the values its location may hold.  Those value
 * sets start from the initial values and grow by what the traces write,
 * round after round, until nothing new appears: a value that no chain of
 * writes can compute never shows up, which is what rules out thin-air
 * values such as 42 in LB+data.
 */
#include "enumerate/thread_paths.h"
#include "litmus/ops.h"

#include <gc.h>
#include <string.h>

#include "base/diag.h"

#define MAX_REGS 64
#define MAX_INSTRS 256
#define MAX_DOMAIN 64
#define MAX_ROUNDS 32

/* The values a location may hold, each with the length of the shortest
 * chain of writes, linked by data dependencies, that computes it. */
typedef struct domain {
    int count;
    lit_value values[MAX_DOMAIN];
    uint8_t depth[MAX_DOMAIN];
} domain;

/* What a round learns about one location, to bound the chains of the next:
 * in one execution a chain passes through distinct writes, all to
 * locations whose values flow into this one. */
typedef struct loc_flow {
    int writes;          /* most writes to it in one execution */
    uint64_t sources;    /* locations whose reads feed its writes' values */
    int bound;           /* longest possible chain ending at it */
} loc_flow;

/* The state of one path: copied at every read, where the path forks. */
typedef struct path_state {
    lit_value regs[MAX_REGS];
    uint64_t deps[MAX_REGS];
    uint64_t ctrl;
    int nevents;
    uint8_t taken[MAX_INSTRS];
    int nvisits;            /* liveness mode: loop-head visits on this path */
    int steps;              /* liveness mode: instructions run on this path */
} path_state;

/* Liveness mode: what a thread's loops look like, computed once. */
typedef struct loop_info {
    bool head[MAX_INSTRS];      /* the target of a backward branch */
    uint64_t live[MAX_INSTRS];  /* registers whose value can still matter there */
} loop_info;

/* Liveness mode: one visit of a loop head on the current path.  The
 * visits form a stack shared by the depth-first walk, as the events do. */
typedef struct head_visit {
    int pc;
    int nevents;               /* events before the visit */
    lit_value regs[MAX_REGS];
} head_visit;

typedef struct walker {
    const litmus_test *test;
    const lit_thread *thread;
    const tp_limits *lim;
    const domain *dom;       /* per location, indexed by physical location */
    domain *written;         /* values written, per physical location */
    tp_event events[TP_MAX_EVENTS];
    tp_thread *out;
    long capacity;
    bool unroll_cut;
    bool values_cut;
    bool too_many;
    bool too_long;
    int max_writes;          /* most writes on one path */
    uint8_t depth[TP_MAX_EVENTS]; /* per event of the current path: chain length of its value */
    const loc_flow *flow;    /* bounds from the previous round, or NULL */
    loc_flow *next_flow;     /* what this round learns */
    int *path_writes;        /* per location, most writes on one path of this thread */
    const loop_info *loops;  /* liveness mode, else NULL */
    head_visit *visits;      /* liveness mode: LIVE_MAX_VISITS */
    const char *live_unknown;
    bool live_cut;
    lit_value vmin, vmax;    /* every value a path of this round handled */
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

static bool domain_add(domain *d, lit_value v, int depth)
{
    for (int i = 0; i < d->count; i++)
        if (d->values[i] == v) {
            if (depth < d->depth[i])
                d->depth[i] = (uint8_t)depth;
            return true;
        }
    if (d->count == MAX_DOMAIN)
        return false;
    d->depth[d->count] = (uint8_t)depth;
    d->values[d->count++] = v;
    return true;
}

static lit_value operand_value(const path_state *s, const lit_operand *o, uint64_t *deps)
{
    switch (o->kind) {
    case OPND_REG:
        *deps |= s->deps[o->reg];
        return s->regs[o->reg];
    case OPND_IMM:
        return o->imm;
    case OPND_NONE:
        break;
    }
    return 0;
}

static void emit_trace(walker *w, const path_state *s, enum tp_end end, int spin_from, int loop_pc);

/* Liveness mode: the path is cut here by a bound (LIVE_MAX_*, the
 * repetitions of a loop that writes); the enumerator then asks whether any
 * consistent execution reaches the cut. */
static void live_cut(walker *w, const path_state *s, int pc)
{
    w->live_cut = true;
    emit_trace(w, s, TP_END_CUT, s->nevents, pc);
}

static tp_event *push_event(walker *w, path_state *s, const lit_instr *in, int pc, enum tp_kind kind)
{
    if (s->nevents == TP_MAX_EVENTS) {
        if (w->loops)
            live_cut(w, s, pc);
        else
            w->too_long = true;
        return NULL;
    }
    tp_event *e = &w->events[s->nevents++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->order = (uint8_t)in->order;
    e->scope = (uint8_t)in->scope;
    e->proxy = (uint8_t)in->proxy;
    e->loc = in->loc;
    e->count = -1;
    e->remote = in->remote;
    e->regions = in->regions;
    e->ctrl_deps = s->ctrl;
    e->instr = pc;
    return e;
}

/* Counts the writes of a path, whole or dropped at the loop bound, into
 * the round's bounds (the most writes a thread makes, per location and in
 * all).  A dropped path counts too: in the first rounds a spin loop may
 * wait for a value nobody has written yet, so every path of its thread is
 * dropped; its writes must still count, or the rounds stop before the
 * awaited value reaches the loop (two spinning threads then had no trace). */
static void count_path_writes(walker *w, const path_state *s)
{
    int writes = 0;
    for (int i = 0; i < s->nevents; i++)
        writes += w->events[i].kind == EV_WRITE;
    if (writes > w->max_writes)
        w->max_writes = writes;
    for (int l = 0; l < w->test->nlocs; l++) {
        int n = 0;
        for (int i = 0; i < s->nevents; i++)
            n += w->events[i].kind == EV_WRITE && w->test->locs[w->events[i].loc].physical == l;
        if (n > w->path_writes[l])
            w->path_writes[l] = n;
    }
}

static void emit_trace(walker *w, const path_state *s, enum tp_end end, int spin_from, int loop_pc)
{
    tp_thread *t = w->out;
    count_path_writes(w, s);
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
    tr->nevents = s->nevents;
    tr->events = GC_MALLOC_ATOMIC(sizeof(tp_event) * (size_t)(s->nevents ? s->nevents : 1));
    memcpy(tr->events, w->events, sizeof(tp_event) * (size_t)s->nevents);
    int nregs = w->thread->nregs;
    tr->regs = GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(nregs ? nregs : 1));
    memcpy(tr->regs, s->regs, sizeof(lit_value) * (size_t)nregs);
    tr->end = (uint8_t)end;
    tr->spin_from = spin_from;
    tr->loop_pc = loop_pc;
    tr->progress = false;
    for (int i = spin_from; end == TP_END_SPIN && i < s->nevents; i++)
        tr->progress |= w->thread->instrs[w->events[i].instr].progress;
}

/* Liveness mode with prefixes: the thread may be starved here. */
static void emit_prefix(walker *w, const path_state *s)
{
    if (w->loops && w->lim->prefixes)
        emit_trace(w, s, TP_END_PREFIX, s->nevents, -1);
}

static bool stopped(const walker *w) { return w->too_many || w->too_long; }

static void walk(walker *w, path_state *s, int pc);

/* Adds a written value to the next round's values, unless the chain that
 * computes it is longer than any execution can have. */
static void record_write(walker *w, const tp_event *e, uint64_t feeds)
{
    int phys = w->test->locs[e->loc].physical;
    int depth = 0;
    for (uint64_t f = feeds; f; f &= f - 1) {
        int i = __builtin_ctzll(f);
        if (w->depth[i] > depth)
            depth = w->depth[i];
        if (w->events[i].kind == EV_READ)
            w->next_flow[phys].sources |= (uint64_t)1 << (w->test->locs[w->events[i].loc].physical & 63);
    }
    depth++;
    if (w->flow && depth > w->flow[phys].bound)
        return;
    note_value(w, e->value);      /* a value no execution can write is not in the range */
    if (!domain_add(&w->written[phys], e->value, depth))
        w->values_cut = true;
}

/* The values a read may guess: what writes can compute and, for an atomic
 * read when the model allows thin air, the seed values too (a non-atomic
 * read in a thin-air cycle would race, so it must read a computed value). */
static const domain *read_values(walker *w, const lit_instr *in, domain *scratch)
{
    const domain *d = &w->dom[w->test->locs[in->loc].physical];
    if (w->lim->nseeds == 0 || in->order == ORD_WEAK)
        return d;
    *scratch = *d;
    for (int i = 0; i < w->lim->nseeds; i++)
        domain_add(scratch, w->lim->seeds[i], 0);
    return scratch;
}

/* A read forks the path: one continuation per value the location may hold. */
static void walk_read(walker *w, const path_state *s, int pc)
{
    const lit_instr *in = &w->thread->instrs[pc];
    domain scratch;
    const domain *d = read_values(w, in, &scratch);
    emit_prefix(w, s);
    for (int i = 0; i < d->count && !stopped(w); i++) {
        path_state next = *s;
        lit_value old = d->values[i];
        int read_index = next.nevents;
        tp_event *r = push_event(w, &next, in, pc, EV_READ);
        if (!r)
            return;
        r->value = old;
        note_value(w, old);
        w->depth[read_index] = d->depth[i];
        uint64_t read_bit = (uint64_t)1 << read_index;
        if (in->op == OP_LOAD) {
            r->order = (uint8_t)in->order;
        } else {
            r->in_rmw = true;
            r->order = (uint8_t)(in->order == ORD_SC ? ORD_SC
                                 : (in->order == ORD_ACQUIRE || in->order == ORD_ACQ_REL) ? ORD_ACQUIRE
                                                                                          : ORD_RELAXED);
            uint64_t deps = 0;
            lit_value a = operand_value(&next, &in->a, &deps);
            lit_value b = operand_value(&next, &in->b, &deps);
            tp_event *wr = push_event(w, &next, in, pc, EV_WRITE);
            if (!wr)
                return;
            wr->in_rmw = true;
            wr->rmw_write = true;
            wr->order = (uint8_t)(in->order == ORD_SC ? ORD_SC
                                  : (in->order == ORD_RELEASE || in->order == ORD_ACQ_REL) ? ORD_RELEASE
                                                                                           : ORD_RELAXED);
            wr->value = lit_rmw_result(in, old, a, b);
            wr->data_deps = deps;
            record_write(w, wr, deps | read_bit);
        }
        if (in->dst >= 0) {
            next.regs[in->dst] = old;
            next.deps[in->dst] = read_bit;
        }
        walk(w, &next, pc + 1);
    }
}

/* Follows a taken branch; false when the loop bound drops the path. */
static bool take_branch(walker *w, path_state *s, int pc, int *next_pc)
{
    int target = w->thread->instrs[pc].target;
    if (target <= pc && !w->loops) {
        if (s->taken[pc] >= w->lim->unroll) {
            w->unroll_cut = true;
            count_path_writes(w, s);
            return false;
        }
        s->taken[pc]++;
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

static bool same_live_regs(const lit_value *a, const lit_value *b, uint64_t live)
{
    for (; live; live &= live - 1) {
        int r = __builtin_ctzll(live);
        if (a[r] != b[r])
            return false;
    }
    return true;
}

/* Liveness mode, before instruction pc: bounds the path and, at a loop
 * head, ends it where its state repeats.  False when the path ends here. */
static bool live_step(walker *w, path_state *s, int pc)
{
    if (++s->steps > LIVE_MAX_STEPS) {
        live_cut(w, s, pc);
        return false;
    }
    if (!w->loops->head[pc])
        return true;
    uint64_t live = w->loops->live[pc];
    for (int k = s->nvisits - 1; k >= 0; k--) {
        const head_visit *v = &w->visits[k];
        if (v->pc != pc || !same_live_regs(v->regs, s->regs, live))
            continue;
        /* The thread is back in the same state.  After a pure iteration
         * it would read the same values again: a spin.  After one that
         * wrote (or passed a barrier), memory has changed, so the path goes
         * on, up to lim->live_repeats such iterations at this head. */
        if (pure_iteration(w, v->nevents, s->nevents)) {
            emit_trace(w, s, TP_END_SPIN, v->nevents, pc);
            return false;
        }
        if (s->taken[pc]++ >= w->lim->live_repeats) {
            live_cut(w, s, pc);
            return false;
        }
        break;
    }
    if (s->nvisits == LIVE_MAX_VISITS) {
        live_cut(w, s, pc);
        return false;
    }
    head_visit *v = &w->visits[s->nvisits++];
    v->pc = pc;
    v->nevents = s->nevents;
    memcpy(v->regs, s->regs, sizeof v->regs);
    return true;
}

static void walk(walker *w, path_state *s, int pc)
{
    const lit_thread *th = w->thread;
    while (pc < th->ninstrs && !stopped(w)) {
        const lit_instr *in = &th->instrs[pc];
        uint64_t deps = 0;
        if (w->loops && !live_step(w, s, pc))
            return;
        switch (in->op) {
        case OP_LOAD:
        case OP_RMW:
        case OP_RED:
            walk_read(w, s, pc);
            return;
        case OP_STORE: {
            lit_value v = operand_value(s, &in->a, &deps);
            emit_prefix(w, s);
            tp_event *e = push_event(w, s, in, pc, EV_WRITE);
            if (!e)
                return;
            e->value = v;
            e->data_deps = deps;
            record_write(w, e, deps);
            break;
        }
        case OP_FENCE:
            emit_prefix(w, s);
            if (!push_event(w, s, in, pc, EV_FENCE))
                return;
            break;
        case OP_BARRIER: {
            lit_value id = operand_value(s, &in->a, &deps);
            lit_value count = in->b.kind == OPND_NONE ? -1 : operand_value(s, &in->b, &deps);
            emit_prefix(w, s);
            tp_event *e = push_event(w, s, in, pc, EV_BARRIER);
            if (!e)
                return;
            e->value = id;
            e->count = count;
            e->waits = in->barrier_waits;
            e->addr_deps = deps;
            if (w->loops && in->barrier_waits)
                emit_trace(w, s, TP_END_BLOCKED, s->nevents, pc);
            break;
        }
        case OP_MOV:
            s->regs[in->dst] = operand_value(s, &in->a, &deps);
            note_value(w, s->regs[in->dst]);
            s->deps[in->dst] = deps;
            break;
        case OP_ALU: {
            lit_value a = operand_value(s, &in->a, &deps);
            lit_value b = operand_value(s, &in->b, &deps);
            s->regs[in->dst] = lit_alu_result(in->alu_op, a, b);
            note_value(w, s->regs[in->dst]);
            s->deps[in->dst] = deps;
            break;
        }
        case OP_BRANCH: {
            lit_value a = operand_value(s, &in->a, &deps);
            lit_value b = operand_value(s, &in->b, &deps);
            s->ctrl |= deps;
            bool equal = a == b;
            if (equal == (in->cmp == CMP_EQ)) {
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

static uint64_t operand_reg(const lit_operand *o)
{
    return o->kind == OPND_REG ? (uint64_t)1 << o->reg : 0;
}

/* The registers whose value instruction `in` reads in a way that can
 * matter, given those live after it: operands of branches, stores,
 * read-modify-writes and barriers always; sources of a register move or
 * arithmetic only when its destination is live (so a counter that feeds
 * nothing but itself does not keep a loop from repeating). */
static uint64_t used_regs(const lit_instr *in, uint64_t live_out)
{
    uint64_t both = operand_reg(&in->a) | operand_reg(&in->b);
    switch (in->op) {
    case OP_STORE: return operand_reg(&in->a);
    case OP_RMW:
    case OP_RED:
    case OP_BARRIER:
    case OP_BRANCH: return both;
    case OP_MOV:
    case OP_ALU: return in->dst >= 0 && (live_out >> in->dst & 1) ? both : 0;
    default: return 0;
    }
}

static uint64_t defined_regs(const lit_instr *in)
{
    bool defines = in->op == OP_LOAD || in->op == OP_RMW || in->op == OP_MOV || in->op == OP_ALU;
    return defines && in->dst >= 0 ? (uint64_t)1 << in->dst : 0;
}

/* Backward dataflow to a fixpoint over the thread's control flow. */
static void find_loops(const lit_thread *th, loop_info *li)
{
    memset(li, 0, sizeof *li);
    int n = th->ninstrs;
    for (int pc = 0; pc < n; pc++) {
        const lit_instr *in = &th->instrs[pc];
        if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= pc)
            li->head[in->target] = true;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int pc = n - 1; pc >= 0; pc--) {
            const lit_instr *in = &th->instrs[pc];
            uint64_t out = 0;
            if (in->op != OP_GOTO && pc + 1 < n)
                out |= li->live[pc + 1];
            if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target < n)
                out |= li->live[in->target];
            uint64_t live = (out & ~defined_regs(in)) | used_regs(in, out);
            changed |= live != li->live[pc];
            li->live[pc] = live;
        }
    }
}

static void start_state(const lit_thread *th, path_state *s)
{
    memset(s, 0, sizeof *s);
    for (int r = 0; r < th->nregs; r++)
        s->regs[r] = th->reg_init ? th->reg_init[r] : 0;
}

static bool check_shape(const litmus_test *t, FILE *errors)
{
    for (int i = 0; i < t->nthreads; i++) {
        const lit_thread *th = &t->threads[i];
        if (th->nregs > MAX_REGS || th->ninstrs > MAX_INSTRS) {
            diag_error(errors, t->file, 1, 1, "thread %s is too large (at most %d registers and %d instructions)",
                       th->name, MAX_REGS, MAX_INSTRS);
            return false;
        }
    }
    return true;
}

/* One round: every thread's traces under the value sets `dom`.  *writes
 * receives the most writes one execution can have (a sum over threads),
 * next_flow (zeroed by the caller) what the round learned per location. */
static bool run_round(const litmus_test *t, const tp_limits *lim, const domain *dom, domain *written,
                      const loc_flow *flow, loc_flow *next_flow, const loop_info *loops, tp_result *out,
                      int *writes, FILE *errors)
{
    head_visit *visits = loops ? GC_MALLOC_ATOMIC(sizeof *visits * LIVE_MAX_VISITS) : NULL;
    out->live_unknown = NULL;
    out->live_cut = false;
    *writes = 0;
    for (int i = 0; i < t->nthreads; i++) {
        /* on the stack: one per thread and round, gone with the round */
        walker wk;
        memset(&wk, 0, sizeof wk);
        walker *w = &wk;
        w->test = t;
        w->thread = &t->threads[i];
        w->lim = lim;
        w->dom = dom;
        w->written = written;
        w->flow = flow;
        w->next_flow = next_flow;
        w->path_writes = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(t->nlocs ? t->nlocs : 1));
        memset(w->path_writes, 0, sizeof(int) * (size_t)t->nlocs);
        w->vmin = out->vmin;
        w->vmax = out->vmax;
        w->out = &out->threads[i];
        w->out->ntraces = 0;
        w->out->traces = NULL;
        w->loops = loops ? &loops[i] : NULL;
        w->visits = visits;
        path_state s;
        start_state(w->thread, &s);
        if (w->loops && lim->empty_prefix && !lim->prefixes)
            emit_trace(w, &s, TP_END_PREFIX, 0, -1);
        walk(w, &s, 0);
        if (w->live_unknown && !out->live_unknown)
            out->live_unknown = w->live_unknown;
        out->live_cut |= w->live_cut;
        *writes += w->max_writes;
        out->vmin = w->vmin;
        out->vmax = w->vmax;
        for (int l = 0; l < t->nlocs; l++)
            next_flow[l].writes += w->path_writes[l];
        out->unroll_cut |= w->unroll_cut;
        out->values_cut |= w->values_cut;
        if (w->too_many && w->loops) {
            out->live_unknown = "a thread has too many paths";
        } else if (w->too_many || w->too_long) {
            const lit_instr *first = w->thread->ninstrs ? &w->thread->instrs[0] : NULL;
            diag_error(errors, t->file, first ? first->line : 1, first ? first->col : 1,
                       w->too_many ? "thread %s has more than %ld paths; lower --unroll"
                                   : "thread %s runs more than %ld events on some path; lower --unroll",
                       w->thread->name, w->too_many ? lim->max_traces : (long)TP_MAX_EVENTS);
            return false;
        }
    }
    return true;
}

/* The longest chain ending at each location: the writes, in one execution,
 * to every location whose values can flow into it. */
static void compute_bounds(const litmus_test *t, loc_flow *flow)
{
    int n = t->nlocs;
    if (n > 64) {
        for (int l = 0; l < n; l++)
            flow[l].bound = 255;
        return;
    }
    uint64_t *reach = GC_MALLOC_ATOMIC(sizeof(uint64_t) * (size_t)n);
    for (int l = 0; l < n; l++)
        reach[l] = flow[l].sources | ((uint64_t)1 << l);
    for (bool changed = true; changed;) {
        changed = false;
        for (int l = 0; l < n; l++) {
            uint64_t grown = reach[l];
            for (uint64_t m = reach[l]; m; m &= m - 1)
                grown |= reach[__builtin_ctzll(m)];
            changed |= grown != reach[l];
            reach[l] = grown;
        }
    }
    for (int l = 0; l < n; l++) {
        int bound = 0;
        for (uint64_t m = reach[l]; m; m &= m - 1)
            bound += flow[__builtin_ctzll(m)].writes;
        flow[l].bound = bound < 255 ? bound : 255;
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

bool thread_paths_build(const litmus_test *t, const tp_limits *lim, tp_result *out, FILE *errors)
{
    memset(out, 0, sizeof *out);
    if (!check_shape(t, errors))
        return false;
    out->threads = GC_MALLOC(sizeof(tp_thread) * (size_t)(t->nthreads ? t->nthreads : 1));
    int nlocs = t->nlocs ? t->nlocs : 1;
    size_t dom_size = sizeof(domain) * (size_t)nlocs;
    size_t flow_size = sizeof(loc_flow) * (size_t)nlocs;
    domain *dom = GC_MALLOC_ATOMIC(dom_size);
    domain *written = GC_MALLOC_ATOMIC(dom_size);
    loc_flow *flow = NULL;
    loop_info *loops = NULL;
    if (lim->liveness) {
        loops = GC_MALLOC_ATOMIC(sizeof *loops * (size_t)(t->nthreads ? t->nthreads : 1));
        for (int i = 0; i < t->nthreads; i++)
            find_loops(&t->threads[i], &loops[i]);
    }
    memset(dom, 0, dom_size);
    for (int l = 0; l < t->nlocs; l++)
        if (t->locs[l].physical == l) {
            domain_add(&dom[l], t->locs[l].init, 0);
        }
    /* Rounds grow the values until nothing new appears.  A value is kept
     * only if the chain of writes that computes it fits in one execution:
     * in an execution a value passes through distinct writes only.  That
     * stops a value read back by an atom.add from growing forever; so does
     * the backstop, twice the most writes an execution can have: a write
     * first reached in round r is kept from round r + 1 on (its chain bound
     * comes from the round before, which did not reach it), so a chain
     * grows by one write every two rounds.  (With one round per write, two
     * threads that each wait for the other's write, FP-handshake in
     * litmus/ptx-liveness, stopped a round early and had no outcome.) */
    for (int round = 0; round < MAX_ROUNDS; round++) {
        loc_flow *next_flow = GC_MALLOC_ATOMIC(flow_size);
        memset(next_flow, 0, flow_size);
        memcpy(written, dom, dom_size);
        out->unroll_cut = false;
        if (lim->track_values)
            static_range(t, &out->vmin, &out->vmax);
        int writes;
        if (!run_round(t, lim, dom, written, flow, next_flow, loops, out, &writes, errors))
            return false;
        compute_bounds(t, next_flow);
        bool stable = memcmp(written, dom, dom_size) == 0 && flow && same_bounds(flow, next_flow, t->nlocs);
        if (stable || round > 2 * writes)
            return true;
        memcpy(dom, written, dom_size);
        flow = next_flow;
    }
    out->values_cut = true;
    return true;
}
