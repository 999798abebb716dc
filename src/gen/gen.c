/* gen/gen.c: random litmus tests (see gen.h). */
#include "gen/gen.h"

#include <gc.h>
#include <stdio.h>
#include <string.h>

/* ---- a counter-based random stream (splitmix64) ------------------------------- */

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t next_u64(rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n > 0); the bias of the modulo is irrelevant here. */
static int below(rng *r, int n) { return (int)(next_u64(r) % (uint64_t)n); }

static bool chance(rng *r, int percent) { return below(r, 100) < percent; }

/* ---- features ------------------------------------------------------------------ */

static const struct {
    const char *name;
    unsigned bit;
} feature_table[] = {
    {"weak", GEN_WEAK},       {"relaxed", GEN_RELAXED}, {"acqrel", GEN_ACQREL}, {"fences", GEN_FENCES},
    {"rmw", GEN_RMW},         {"cas", GEN_CAS},         {"red", GEN_RED},       {"barriers", GEN_BARRIERS},
    {"loops", GEN_LOOPS},     {"deps", GEN_DEPS},       {"sys", GEN_SYS},       {"cycles", GEN_CYCLES},
};

unsigned gen_feature_bit(const char *name)
{
    for (size_t i = 0; i < sizeof feature_table / sizeof feature_table[0]; i++)
        if (strcmp(feature_table[i].name, name) == 0)
            return feature_table[i].bit;
    return 0;
}

const char *gen_feature_names(void)
{
    return "weak, relaxed, acqrel, fences, rmw, cas, red, barriers, loops, deps, sys, cycles";
}

void gen_defaults(gen_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->max_threads = 3;
    o->max_locations = 2;
    o->max_ops = 4;
    o->max_ctas = 2;
    o->max_gpus = 1;
    o->features = GEN_ALL & ~GEN_SYS;
}

/* ---- building a test ------------------------------------------------------------- */

/* What the generator remembers while it builds one test. */
typedef struct builder {
    rng r;
    const gen_options *o;
    litmus_test *t;
    lit_value *next_value;     /* per location: the next value a store writes */
    int ninstrs_cap;
} builder;

static lit_operand imm(lit_value v) { return (lit_operand){OPND_IMM, -1, v}; }
static lit_operand reg(int r) { return (lit_operand){OPND_REG, r, 0}; }

static lit_instr *append(builder *b, lit_thread *th, enum lit_opcode op)
{
    lit_instr *grown = GC_MALLOC(sizeof *grown * (size_t)(th->ninstrs + 1));
    if (th->ninstrs)
        memcpy(grown, th->instrs, sizeof *grown * (size_t)th->ninstrs);
    th->instrs = grown;
    lit_instr *in = &th->instrs[th->ninstrs++];
    memset(in, 0, sizeof *in);
    in->op = op;
    in->dst = in->loc = in->target = -1;
    in->text = "";
    (void)b;
    return in;
}

static enum lit_scope pick_scope(builder *b)
{
    int n = (b->o->features & GEN_SYS) ? 3 : 2;
    static const enum lit_scope scopes[] = {SCOPE_CTA, SCOPE_GPU, SCOPE_SYS};
    return scopes[below(&b->r, n)];
}

/* An access order for a load (acquire) or a store (release) among the
 * enabled ones; ORD_WEAK when only weak accesses are enabled. */
static enum lit_order pick_access_order(builder *b, enum lit_order strong)
{
    enum lit_order choice[3];
    int n = 0;
    unsigned f = b->o->features;
    if (f & GEN_WEAK)
        choice[n++] = ORD_WEAK;
    if (f & GEN_RELAXED)
        choice[n++] = ORD_RELAXED;
    if (f & GEN_ACQREL)
        choice[n++] = strong;
    return n ? choice[below(&b->r, n)] : ORD_WEAK;
}

static enum lit_order pick_rmw_order(builder *b)
{
    if (!(b->o->features & GEN_ACQREL))
        return ORD_RELAXED;
    static const enum lit_order orders[] = {ORD_RELAXED, ORD_ACQUIRE, ORD_RELEASE, ORD_ACQ_REL};
    return orders[below(&b->r, 4)];
}

static int new_register(lit_thread *th)
{
    char name[16];
    snprintf(name, sizeof name, "r%d", th->nregs);
    return litmus_add_reg(th, GC_STRDUP(name), 0);
}

static void set_order_scope(builder *b, lit_instr *in, enum lit_order order)
{
    in->order = order;
    in->scope = order == ORD_WEAK ? SCOPE_NONE : pick_scope(b);
}

static void gen_store(builder *b, lit_thread *th, int loc)
{
    lit_instr *in = append(b, th, OP_STORE);
    in->loc = loc;
    set_order_scope(b, in, pick_access_order(b, ORD_RELEASE));
    in->a = imm(b->next_value[loc]++);
}

static void gen_load(builder *b, lit_thread *th, int loc)
{
    lit_instr *in = append(b, th, OP_LOAD);
    in->loc = loc;
    set_order_scope(b, in, pick_access_order(b, ORD_ACQUIRE));
    in->dst = new_register(th);
}

static void gen_rmw(builder *b, lit_thread *th, int loc, enum lit_rmw_op op)
{
    lit_instr *in = append(b, th, op == RMW_ADD && (b->o->features & GEN_RED) && chance(&b->r, 30) ? OP_RED : OP_RMW);
    in->loc = loc;
    in->rmw_op = op;
    set_order_scope(b, in, pick_rmw_order(b));
    if (in->op == OP_RMW)
        in->dst = new_register(th);
    switch (op) {
    case RMW_ADD: in->a = imm(1); break;
    case RMW_EXCH: in->a = imm(b->next_value[loc]++); break;
    default: /* RMW_CAS: expect a value the location may hold */
        in->a = imm(below(&b->r, (int)b->next_value[loc]));
        in->b = imm(b->next_value[loc]++);
        break;
    }
}

static void gen_fence(builder *b, lit_thread *th)
{
    lit_instr *in = append(b, th, OP_FENCE);
    in->order = chance(&b->r, 50) ? ORD_SC : ORD_ACQ_REL;
    in->scope = pick_scope(b);
}

/* The last register a load or RMW of this thread wrote, or -1. */
static int last_loaded(const lit_thread *th)
{
    for (int i = th->ninstrs - 1; i >= 0; i--)
        if ((th->instrs[i].op == OP_LOAD || th->instrs[i].op == OP_RMW) && th->instrs[i].dst >= 0)
            return th->instrs[i].dst;
    return -1;
}

/* A store of a loaded value (a data dependency), or a load that runs only
 * when a loaded register holds 1 (a control dependency). */
static bool gen_dependency(builder *b, lit_thread *th, int loc)
{
    int r = last_loaded(th);
    if (r < 0)
        return false;
    if (chance(&b->r, 50)) {
        lit_instr *in = append(b, th, OP_STORE);
        in->loc = loc;
        set_order_scope(b, in, pick_access_order(b, ORD_RELEASE));
        in->a = reg(r);
        return true;
    }
    lit_instr *br = append(b, th, OP_BRANCH);
    br->cmp = CMP_NE;
    br->a = reg(r);
    br->b = imm(1);
    int at = th->ninstrs - 1;
    gen_load(b, th, loc);
    th->instrs[at].target = th->ninstrs;
    return true;
}

/* One operation of the enabled kinds on a random location. */
static void gen_operation(builder *b, lit_thread *th)
{
    unsigned f = b->o->features;
    int loc = below(&b->r, b->t->nlocs);
    for (;;) {
        switch (below(&b->r, 8)) {
        case 0:
        case 1: gen_store(b, th, loc); return;
        case 2:
        case 3: gen_load(b, th, loc); return;
        case 4:
            if (f & GEN_RMW) {
                gen_rmw(b, th, loc, chance(&b->r, 50) ? RMW_ADD : RMW_EXCH);
                return;
            }
            break;
        case 5:
            if (f & GEN_CAS) {
                gen_rmw(b, th, loc, RMW_CAS);
                return;
            }
            break;
        case 6:
            if (f & GEN_FENCES) {
                gen_fence(b, th);
                return;
            }
            break;
        default:
            if ((f & GEN_DEPS) && gen_dependency(b, th, loc))
                return;
            break;
        }
    }
}

/* ---- placement, barriers, loops ---------------------------------------------------- */

static void place_threads(builder *b)
{
    int ngpus = 1 + below(&b->r, b->o->max_gpus);
    for (int i = 0; i < b->t->nthreads; i++) {
        lit_thread *th = &b->t->threads[i];
        th->gpu = below(&b->r, ngpus);
        th->cta = th->gpu * b->o->max_ctas + below(&b->r, b->o->max_ctas);
    }
}

static bool is_branch(const lit_instr *in) { return in->op == OP_BRANCH || in->op == OP_GOTO; }

/* Inserts `in` before instruction `at`; branch targets from `at` on move
 * with the instructions they name. */
static void insert_at(lit_thread *th, int at, const lit_instr *in)
{
    lit_instr *grown = GC_MALLOC(sizeof *grown * (size_t)(th->ninstrs + 1));
    memcpy(grown, th->instrs, sizeof *grown * (size_t)at);
    grown[at] = *in;
    memcpy(grown + at + 1, th->instrs + at, sizeof *grown * (size_t)(th->ninstrs - at));
    th->instrs = grown;
    th->ninstrs++;
    for (int i = 0; i < th->ninstrs; i++)
        if (i != at && is_branch(&grown[i]) && grown[i].target >= at)
            grown[i].target++;
}

/* Would an instruction inserted at `at` be skipped by a forward branch or
 * repeated by a backward one? */
static bool inside_branch(const lit_thread *th, int at)
{
    for (int i = 0; i < th->ninstrs; i++) {
        const lit_instr *in = &th->instrs[i];
        if (!is_branch(in))
            continue;
        if (in->target > i ? at > i && at <= in->target : at > in->target && at <= i)
            return true;
    }
    return false;
}

/* A position outside every branch's reach; position 0 always is. */
static int free_position(builder *b, const lit_thread *th)
{
    for (int tries = 0; tries < 8; tries++) {
        int at = below(&b->r, th->ninstrs + 1);
        if (!inside_branch(th, at))
            return at;
    }
    return 0;
}

/* One bar.cta.sync for every thread of each CTA that has two or more. */
static void add_barriers(builder *b)
{
    litmus_test *t = b->t;
    for (int i = 0; i < t->nthreads; i++) {
        bool first_of_cta = true, shared = false;
        for (int j = 0; j < t->nthreads; j++)
            if (j != i && t->threads[j].cta == t->threads[i].cta && t->threads[j].gpu == t->threads[i].gpu) {
                shared = true;
                first_of_cta &= j > i;
            }
        if (!shared || !first_of_cta || !chance(&b->r, 50))
            continue;
        for (int j = i; j < t->nthreads; j++) {
            lit_thread *th = &t->threads[j];
            if (th->cta != t->threads[i].cta || th->gpu != t->threads[i].gpu)
                continue;
            lit_instr bar;
            memset(&bar, 0, sizeof bar);
            bar.op = OP_BARRIER;
            bar.barrier_waits = true;
            bar.scope = SCOPE_CTA;
            bar.a = imm(0);
            bar.dst = bar.loc = bar.target = -1;
            bar.text = "";
            insert_at(th, free_position(b, th), &bar);
        }
    }
}

/* A value of location loc that some thread other than `self` stores, or -1. */
static lit_value value_stored_by_other(builder *b, int self, int loc)
{
    const litmus_test *t = b->t;
    int count = 0;
    lit_value pick = -1;
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; i != self && k < t->threads[i].ninstrs; k++) {
            const lit_instr *in = &t->threads[i].instrs[k];
            if (in->op == OP_STORE && in->loc == loc && in->a.kind == OPND_IMM && below(&b->r, ++count) == 0)
                pick = in->a.imm;
        }
    return pick;
}

/* Turns one load into a spin loop `L: ld r, x; bne r, V, L` waiting for a
 * value V another thread stores to x. */
static void add_loop(builder *b)
{
    litmus_test *t = b->t;
    int th_index = below(&b->r, t->nthreads);
    lit_thread *th = &t->threads[th_index];
    for (int k = 0; k < th->ninstrs; k++) {
        lit_instr *in = &th->instrs[k];
        if (in->op != OP_LOAD)
            continue;
        lit_value v = value_stored_by_other(b, th_index, in->loc);
        if (v < 0)
            continue;
        lit_instr br;
        memset(&br, 0, sizeof br);
        br.op = OP_BRANCH;
        br.cmp = CMP_NE;
        br.a = reg(in->dst);
        br.b = imm(v);
        br.dst = br.loc = -1;
        br.text = "";
        insert_at(th, k + 1, &br);
        th->instrs[k + 1].target = k;
        return;
    }
}

/* ---- the condition ------------------------------------------------------------------ */

static lit_cond *atom_eq(lit_term lhs, lit_value v)
{
    lit_cond *c = GC_MALLOC(sizeof *c);
    c->kind = COND_EQ;
    c->lhs = lhs;
    c->rhs = (lit_term){.kind = TERM_CONST, .thread = -1, .reg = -1, .loc = -1, .value = v};
    return c;
}

static lit_cond *and_cond(lit_cond *a, lit_cond *b)
{
    if (!a)
        return b;
    lit_cond *c = GC_MALLOC(sizeof *c);
    c->kind = COND_AND;
    c->left = a;
    c->right = b;
    return c;
}

/* A value location loc may plausibly hold: its initial value or one stored. */
static lit_value plausible(builder *b, int loc) { return below(&b->r, (int)b->next_value[loc]); }

static void build_condition(builder *b)
{
    litmus_test *t = b->t;
    lit_cond *c = NULL;
    for (int i = 0; i < t->nthreads; i++) {
        const lit_thread *th = &t->threads[i];
        for (int k = 0; k < th->ninstrs; k++) {
            const lit_instr *in = &th->instrs[k];
            if ((in->op == OP_LOAD || in->op == OP_RMW) && in->dst >= 0) {
                lit_term term = {.kind = TERM_REG, .thread = i, .reg = in->dst, .loc = -1};
                c = and_cond(c, atom_eq(term, plausible(b, in->loc)));
            }
        }
    }
    for (int l = 0; l < t->nlocs; l++) {
        lit_term term = {.kind = TERM_LOC, .thread = -1, .reg = -1, .loc = l};
        c = and_cond(c, atom_eq(term, plausible(b, l)));
    }
    t->quant = QUANT_EXISTS;
    t->cond = c;
    litmus_observe_cond(t, c);
}

/* ---- critical cycles, as diy7 builds them --------------------------------------- */

/* A cycle of events: each thread holds one or two consecutive events, a
 * program-order edge joins the two events of a thread (to another location,
 * Pod, or the same, Pos), and a communication edge joins the last event of
 * a thread to the first of the next (Rfe: W to R, Fre: R to W, Coe: W to
 * W).  The condition asks for the outcome in which every communication
 * edge holds, the one SC forbids: MP, SB, LB, IRIW, WRC, ISA2, 2+2W, R, S
 * and their relatives, with random orders, scopes, fences and
 * dependencies on the program-order edges. */
typedef struct cyc_event {
    bool write;
    int thread, loc, reg;
    lit_value value;
} cyc_event;

enum { MAX_CYCLE = 16 };

typedef struct cycle {
    int nevents;
    cyc_event ev[MAX_CYCLE];
    int first_of[MAX_CYCLE / 2 + 1]; /* per thread: index of its first event */
    int count_of[MAX_CYCLE / 2 + 1]; /* per thread: 1 or 2 events */
    bool pod[MAX_CYCLE / 2 + 1];      /* per two-event thread: another location */
} cycle;

/* Event kinds such that no communication edge goes from a read to a read,
 * and at least two threads whose program-order edge changes location: with
 * one location the coherence order the cycle asks for would itself be a
 * cycle, which no numbering of the writes expresses. */
static void cycle_kinds(builder *b, cycle *c, int nthreads)
{
    for (;;) {
        c->nevents = 0;
        for (int i = 0; i < nthreads; i++) {
            c->first_of[i] = c->nevents;
            c->count_of[i] = chance(&b->r, 25) ? 1 : 2;
            c->pod[i] = chance(&b->r, 85);
            for (int k = 0; k < c->count_of[i]; k++) {
                cyc_event *e = &c->ev[c->nevents++];
                memset(e, 0, sizeof *e);
                e->thread = i;
                e->write = k > 0 && c->count_of[i] == 1 ? c->ev[c->nevents - 2].write : chance(&b->r, 50);
            }
        }
        int pods = 0;
        for (int i = 0; i < nthreads; i++)
            pods += c->count_of[i] == 2 && c->pod[i];
        bool ok = pods >= 2;
        for (int i = 0; i < nthreads && ok; i++) {
            const cyc_event *last = &c->ev[c->first_of[i] + c->count_of[i] - 1];
            const cyc_event *next = &c->ev[c->first_of[(i + 1) % nthreads]];
            ok = last->write || next->write;
        }
        if (ok)
            return;
    }
}

/* Locations: a Pod edge moves to the next location, modulo their number,
 * so that the cycle closes on the location it started from. */
static int cycle_locations(cycle *c, int nthreads)
{
    int pods = 0;
    for (int i = 0; i < nthreads; i++)
        pods += c->count_of[i] == 2 && c->pod[i];
    int nlocs = pods, cur = 0;
    for (int i = 0; i < nthreads; i++) {
        c->ev[c->first_of[i]].loc = cur;
        if (c->count_of[i] == 2) {
            if (c->pod[i])
                cur = (cur + 1) % nlocs;
            c->ev[c->first_of[i] + 1].loc = cur;
        }
    }
    return nlocs;
}

/* Writes are numbered per location along the cycle from the start of the
 * location's segment (the event after a change of location), which is the
 * coherence order the cycle asks for. */
static void cycle_values(cycle *c, int nlocs, lit_value *last_value)
{
    int start = 0;
    for (int j = 0; j < c->nevents; j++)
        if (c->ev[j].loc != c->ev[(j + c->nevents - 1) % c->nevents].loc)
            start = j;
    for (int l = 0; l < nlocs; l++)
        last_value[l] = 0;
    for (int k = 0; k < c->nevents; k++) {
        cyc_event *e = &c->ev[(start + k) % c->nevents];
        if (e->write)
            e->value = ++last_value[e->loc];
    }
}

/* Half of the time the order that synchronizes along the cycle: acquire
 * on a read that starts a thread's program-order edge, release on a write
 * that ends one (the message-passing idiom); otherwise any enabled order. */
static enum lit_order cycle_order(builder *b, bool write, bool idiom)
{
    if (idiom && (b->o->features & GEN_ACQREL) && chance(&b->r, 50))
        return write ? ORD_RELEASE : ORD_ACQUIRE;
    return pick_access_order(b, write ? ORD_RELEASE : ORD_ACQUIRE);
}

/* The instruction of one cycle event (`idiom`: see cycle_order); a data
 * dependency makes a write's value go through the register `dep` (and 0,
 * then add the value: the value stays the same). */
static void cycle_access(builder *b, lit_thread *th, cyc_event *e, int dep, bool idiom)
{
    if (!e->write) {
        lit_instr *in = append(b, th, OP_LOAD);
        in->loc = e->loc;
        set_order_scope(b, in, cycle_order(b, false, idiom));
        in->dst = e->reg = new_register(th);
        return;
    }
    lit_operand v = imm(e->value);
    if (dep >= 0) {
        int t = new_register(th);
        lit_instr *and = append(b, th, OP_ALU);
        and->alu_op = ALU_AND, and->dst = t, and->a = reg(dep), and->b = imm(0);
        lit_instr *add = append(b, th, OP_ALU);
        add->alu_op = ALU_ADD, add->dst = t, add->a = reg(t), add->b = imm(e->value);
        v = reg(t);
    }
    lit_instr *in = append(b, th, OP_STORE);
    in->loc = e->loc;
    set_order_scope(b, in, cycle_order(b, true, idiom));
    in->a = v;
}

/* Between the two events of a thread: nothing, a fence, a data dependency
 * (read to write) or a control dependency (from a read).  Returns the
 * register a data dependency goes through, or -1. */
static int cycle_po_edge(builder *b, lit_thread *th, const cyc_event *first, const cyc_event *second)
{
    unsigned f = b->o->features;
    int pick = below(&b->r, 4);
    if (pick == 1 && (f & GEN_FENCES)) {
        gen_fence(b, th);
    } else if (pick == 2 && (f & GEN_DEPS) && !first->write && second->write) {
        return first->reg;
    } else if (pick == 3 && (f & GEN_DEPS) && !first->write) {
        lit_instr *br = append(b, th, OP_BRANCH);
        br->cmp = CMP_EQ, br->a = reg(first->reg), br->b = imm(0);
        br->target = th->ninstrs;
    }
    return -1;
}

static void cycle_condition(builder *b, const cycle *c, int nlocs, const lit_value *last_value)
{
    litmus_test *t = b->t;
    lit_cond *cond = NULL;
    for (int j = 0; j < c->nevents; j++) {
        const cyc_event *e = &c->ev[j], *prev = &c->ev[(j + c->nevents - 1) % c->nevents];
        if (e->write || prev->thread == e->thread)
            continue;
        /* e reads, at the end of a communication edge from prev */
        lit_term r = {.kind = TERM_REG, .thread = e->thread, .reg = e->reg, .loc = -1};
        cond = and_cond(cond, atom_eq(r, prev->write ? prev->value : 0));
    }
    for (int j = 0; j < c->nevents; j++) {
        const cyc_event *e = &c->ev[j], *next = &c->ev[(j + 1) % c->nevents];
        if (e->write || next->thread == e->thread || !next->write)
            continue;
        /* e reads, at the start of Fre to next: it read the write before next */
        lit_term r = {.kind = TERM_REG, .thread = e->thread, .reg = e->reg, .loc = -1};
        if (c->ev[(j + c->nevents - 1) % c->nevents].thread == e->thread)
            cond = and_cond(cond, atom_eq(r, next->value - 1));
    }
    for (int l = 0; l < nlocs; l++)
        if (last_value[l] > 1) {
            lit_term x = {.kind = TERM_LOC, .thread = -1, .reg = -1, .loc = l};
            cond = and_cond(cond, atom_eq(x, last_value[l]));
        }
    if (!cond)
        cond = atom_eq((lit_term){.kind = TERM_LOC, .thread = -1, .reg = -1, .loc = 0}, 0);
    t->quant = QUANT_EXISTS;
    t->cond = cond;
    litmus_observe_cond(t, cond);
}

/* A load of the location a thread reads last, before its events: a copy of
 * the old value in the thread's L1, which a protocol must not serve after
 * an acquire. */
static void warm_up(builder *b, lit_thread *th, const cycle *c, int i)
{
    const cyc_event *last = &c->ev[c->first_of[i] + c->count_of[i] - 1];
    if (!last->write && c->count_of[i] == 2 && chance(&b->r, 60)) {
        lit_instr *in = append(b, th, OP_LOAD);
        in->loc = last->loc;
        in->dst = new_register(th);
    }
}

/* diy's name of the cycle, e.g. "PodWW Rfe PodRR Fre" for MP. */
static const char *cycle_name(const cycle *c, int nthreads)
{
    char buf[256];
    size_t at = 0;
    for (int i = 0; i < nthreads; i++) {
        const cyc_event *first = &c->ev[c->first_of[i]], *last = first + c->count_of[i] - 1;
        const cyc_event *next = &c->ev[c->first_of[(i + 1) % nthreads]];
        if (c->count_of[i] == 2)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%c%c ", c->pod[i] ? "Pod" : "Pos",
                                   first->write ? 'W' : 'R', last->write ? 'W' : 'R');
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", !last->write ? "Fre" : next->write ? "Coe" : "Rfe",
                               i + 1 < nthreads ? " " : "");
    }
    return GC_STRDUP(buf);
}

static void gen_cycle(builder *b)
{
    litmus_test *t = b->t;
    cycle c;
    cycle_kinds(b, &c, t->nthreads);
    t->doc = cycle_name(&c, t->nthreads);
    int nlocs = cycle_locations(&c, t->nthreads);
    lit_value last_value[MAX_CYCLE];
    cycle_values(&c, nlocs, last_value);
    static const char *const loc_names[] = {"x", "y", "z", "w", "u", "v", "s", "q"};
    for (int l = 0; l < nlocs; l++)
        litmus_add_loc(t, loc_names[l], 0);
    for (int i = 0; i < t->nthreads; i++) {
        lit_thread *th = &t->threads[i];
        warm_up(b, th, &c, i);
        cyc_event *first = &c.ev[c.first_of[i]];
        bool two = c.count_of[i] == 2;
        cycle_access(b, th, first, -1, two && !first->write);
        if (two) {
            int dep = cycle_po_edge(b, th, first, first + 1);
            cycle_access(b, th, first + 1, dep, first[1].write);
        }
    }
    place_threads(b);
    cycle_condition(b, &c, nlocs, last_value);
}

/* ---- one test ---------------------------------------------------------------------- */

static void gen_random(builder *b)
{
    litmus_test *t = b->t;
    const gen_options *o = b->o;
    static const char *const loc_names[] = {"x", "y", "z", "w", "u", "v"};
    int nlocs = 1 + below(&b->r, o->max_locations);
    b->next_value = GC_MALLOC_ATOMIC(sizeof *b->next_value * (size_t)nlocs);
    for (int l = 0; l < nlocs; l++) {
        litmus_add_loc(t, loc_names[l], 0);
        b->next_value[l] = 1;
    }
    for (int i = 0; i < t->nthreads; i++) {
        int nops = 1 + below(&b->r, o->max_ops);
        for (int k = 0; k < nops; k++)
            gen_operation(b, &t->threads[i]);
    }
    place_threads(b);
    if ((o->features & GEN_BARRIERS))
        add_barriers(b);
    if ((o->features & GEN_LOOPS) && chance(&b->r, 40))
        add_loop(b);
    build_condition(b);
}

litmus_test *gen_test(const gen_options *o, long index)
{
    builder b = {.o = o};
    b.r.state = o->seed * 0x9e3779b97f4a7c15u ^ (uint64_t)index * 0xd1b54a32d192ed03u;
    next_u64(&b.r);
    litmus_test *t = GC_MALLOC(sizeof *t);
    b.t = t;
    char name[64];
    snprintf(name, sizeof name, "G%llu_%ld", (unsigned long long)o->seed, index);
    t->name = GC_STRDUP(name);
    t->arch = "PTX";
    t->file = t->name;
    bool cyc = (o->features & GEN_CYCLES) && chance(&b.r, 60);
    int max_threads = cyc && o->max_threads > MAX_CYCLE / 2 ? MAX_CYCLE / 2 : o->max_threads;
    t->nthreads = 2 + below(&b.r, max_threads - 1);
    t->threads = GC_MALLOC(sizeof *t->threads * (size_t)t->nthreads);
    for (int i = 0; i < t->nthreads; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "P%d", i);
        t->threads[i].name = GC_STRDUP(buf);
    }
    if (cyc)
        gen_cycle(&b);
    else
        gen_random(&b);
    return t;
}
