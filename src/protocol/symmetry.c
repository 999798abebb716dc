/* protocol/symmetry.c: interchangeable CUs and the canonical form of a
 * state under their permutations (see protocol/symmetry.h). */
#include "protocol/symmetry.h"

#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "protocol/internal.h"

/* A class of interchangeable CUs holds at most this many (8! = 40320
 * permutations); a larger one is split. */
#define SYM_MAX_CLASS 8
/* Classes have two CUs or more and their factorials multiply to at most
 * PROTO_SYM_MAX_ORDER = 8!, so there are at most 15 of them. */
#define SYM_MAX_CLASSES 16

typedef struct proto_symmetry {
    bool sound;             /* a non-trivial group that is an automorphism */
    bool active;            /* canonicalize is set */
    const char *note;
    int nclasses;
    int *class_start;       /* class c: members[class_start[c] .. class_start[c+1]) */
    int *members;           /* CU numbers, ascending within a class */
    int *radix;             /* per class: its size's factorial */
    int order;
    int *block_len;         /* per CU: slots of its block */
    int **block;            /* per CU: its slots, in corresponding order */
    /* The block as runs of adjacent bits of the packed state, cut where
     * any CU of the class has a gap, so that run j has the same length
     * for every CU of a class: the canonical form compares these. */
    int *nseg;              /* per CU */
    uint32_t **seg_off;     /* per CU: each run's first bit */
    uint32_t **seg_bits;    /* per CU: each run's length in bits */
} proto_symmetry;

/* ---- what the tables do with CU ids -------------------------------------------- */

static bool uses_cu(const pexpr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_CU)
        return true;
    for (int i = 0; i < e->nterms; i++)
        if (uses_cu(e->terms[i]))
            return true;
    return uses_cu(e->l) || uses_cu(e->r) || uses_cu(e->r2);
}

static bool act_uses_cu(const pact *a)
{
    for (int i = 0; i < a->nargs; i++)
        if (uses_cu(a->args[i]))
            return true;
    return uses_cu(a->e) || uses_cu(a->index);
}

/* Why a row makes CU identity matter, or NULL. */
static const char *row_refusal(const protocol *p, const prow *r)
{
    if (uses_cu(r->guard))
        return "a guard reads the CU id `cu`";
    for (int k = 0; k < r->nacts; k++) {
        const pact *a = &r->acts[k];
        if (act_uses_cu(a))
            return "an action uses the CU id `cu`";
        if (a->kind == A_SEND && p->chans[a->idx].level == LV_CU && (a->dest == D_INDEX || a->dest == D_EACH))
            return "a send picks a CU by index or bit set";
    }
    return NULL;
}

static const char *chan_refusal(const protocol *p, const pchan *ch)
{
    enum plevel from = p->ctrls[ch->from].level, to = p->ctrls[ch->to].level;
    if (ch->per_source && from == LV_CU && ch->level == LV_CU)
        return "a channel from each CU to each CU";
    if (to == LV_CU && ch->level != LV_CU)
        return "a channel into a per-CU controller is not per CU";
    return NULL;
}

static const char *ctrl_refusal(const pctrl *c)
{
    if (uses_cu(c->final) || uses_cu(c->hold))
        return "a final or hold condition reads the CU id `cu`";
    return NULL;
}

/* The first construct of the tables that lets a CU id reach a value or
 * choose a CU, as a note; NULL when there is none. */
static const char *protocol_refusal(const protocol *p)
{
    char *note = GC_MALLOC_ATOMIC(512);
    for (int m = 0; m < p->nmsgs; m++)
        if (p->msgs[m].cu_field >= 0) {
            snprintf(note, 512, "message %s carries a CU id (field cu)", p->msgs[m].name);
            return note;
        }
    for (int c = 0; c < p->nchans; c++) {
        const char *why = chan_refusal(p, &p->chans[c]);
        if (why) {
            snprintf(note, 512, "%s (channel %s, %s:%d)", why, p->chans[c].name, p->chans[c].at.path,
                     p->chans[c].at.line);
            return note;
        }
    }
    for (int c = 0; c < p->nctrls; c++) {
        const pctrl *pc = &p->ctrls[c];
        const char *why = ctrl_refusal(pc);
        if (why) {
            snprintf(note, 512, "%s (controller %s)", why, pc->name);
            return note;
        }
        for (int r = 0; r < pc->nrows; r++)
            if ((why = row_refusal(p, &pc->rows[r]))) {
                snprintf(note, 512, "%s (%s:%d)", why, pc->rows[r].path, pc->rows[r].line);
                return note;
            }
    }
    for (int i = 0; i < p->ninvs; i++)
        if (uses_cu(p->invs[i].e)) {
            snprintf(note, 512, "invariant %s reads the CU id `cu`", p->invs[i].name);
            return note;
        }
    if (p->mem_ctrl >= 0 && p->ctrls[p->mem_ctrl].level == LV_CU)
        return "the memory is kept per CU";
    return NULL;
}

/* ---- interchangeable CUs ---------------------------------------------------------- */

static bool operands_equal(lit_operand a, lit_operand b)
{
    return a.kind == b.kind && (a.kind != OPND_REG || a.reg == b.reg) && (a.kind != OPND_IMM || a.imm == b.imm);
}

/* Everything of an instruction that the interpreter reads (not its text,
 * which names registers, nor its position). */
static bool instrs_equal(const lit_instr *a, const lit_instr *b)
{
    return a->op == b->op && a->order == b->order && a->scope == b->scope && a->proxy == b->proxy &&
           a->rmw_op == b->rmw_op && a->alu_op == b->alu_op && a->cmp == b->cmp &&
           a->barrier_waits == b->barrier_waits && a->dst == b->dst && a->loc == b->loc &&
           operands_equal(a->a, b->a) && operands_equal(a->b, b->b) && a->target == b->target &&
           a->remote == b->remote && a->regions == b->regions && a->single_event == b->single_event &&
           a->cas_weak == b->cas_weak && a->order_fail == b->order_fail && a->flag_dst == b->flag_dst &&
           a->progress == b->progress && operands_equal(a->addr, b->addr) && a->addr_select == b->addr_select;
}

static bool threads_equal(const lit_thread *a, const lit_thread *b)
{
    if (a->ninstrs != b->ninstrs || a->nregs != b->nregs)
        return false;
    for (int k = 0; k < a->ninstrs; k++)
        if (!instrs_equal(&a->instrs[k], &b->instrs[k]))
            return false;
    for (int r = 0; r < a->nregs; r++)
        if (a->reg_init[r] != b->reg_init[r])
            return false;
    return true;
}

static bool uses_local(const proto_instance *in, int cu)
{
    for (int k = 0; k < in->cu_size[cu]; k++) {
        const lit_thread *th = in->threads[in->cu_threads[cu][k]].th;
        for (int i = 0; i < th->ninstrs; i++)
            if (proto_scratchpad_serves(in, &th->instrs[i]))
                return true;
    }
    return false;
}

/* Appends slots first..first+n-1 to CU cu's block. */
static void block_add(proto_symmetry *s, int cu, int first, int n)
{
    for (int k = 0; k < n; k++)
        s->block[cu][s->block_len[cu]++] = first + k;
}

static int chan_inst_slots(const pchan_info *ci) { return 1 + ci->cap * ci->msg_slots; }

/* The CU that owns instance i of channel ch, or -1 (shared). */
static int chan_owner(const proto_instance *in, int ch, int i)
{
    const pchan *pc = &in->p->chans[ch];
    const pchan_info *ci = &in->chans[ch];
    if (pc->level == LV_CU)
        return i % ci->ndest;
    if (pc->per_source && in->p->ctrls[pc->from].level == LV_CU)
        return i / ci->ndest;
    return -1;
}

/* Every slot that belongs to a CU, in an order that corresponds between
 * CUs of the same shape: threads by slot in the CU, per-CU controller
 * instances, owned channel instances, barrier counters. */
static void build_blocks(const proto_instance *in, proto_symmetry *s)
{
    s->block_len = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)in->ncu);
    s->block = GC_MALLOC(sizeof(int *) * (size_t)in->ncu);
    for (int cu = 0; cu < in->ncu; cu++) {
        s->block_len[cu] = 0;
        s->block[cu] = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)in->nslots);
        for (int k = 0; k < in->cu_size[cu]; k++) {
            const pthread_info *ti = &in->threads[in->cu_threads[cu][k]];
            block_add(s, cu, ti->base, 2 + ti->th->nregs);
        }
        for (int c = 0; c < in->p->nctrls; c++) {
            const pctrl_info *ci = &in->ctrls[c];
            if (in->p->ctrls[c].level == LV_CU)
                block_add(s, cu, ci->base + cu * ci->inst_slots, ci->inst_slots);
        }
        for (int ch = 0; ch < in->p->nchans; ch++) {
            const pchan_info *ci = &in->chans[ch];
            for (int i = 0; i < ci->ninst; i++)
                if (chan_owner(in, ch, i) == cu)
                    block_add(s, cu, ci->base + i * chan_inst_slots(ci), chan_inst_slots(ci));
        }
        for (int b = 0; b < in->nbars; b++)
            if (in->bars[b].cu == cu)
                block_add(s, cu, in->bars[b].slot, 1);
    }
}

/* Whether CUs a and b may be swapped: same GPU, identical threads, blocks
 * of the same layout (the barrier ids too), no local memory. */
static bool interchangeable(const proto_instance *in, const proto_symmetry *s, int a, int b)
{
    if (in->cu_gpu[a] != in->cu_gpu[b] || in->cu_size[a] != in->cu_size[b] || s->block_len[a] != s->block_len[b])
        return false;
    for (int k = 0; k < in->cu_size[a]; k++)
        if (!threads_equal(in->threads[in->cu_threads[a][k]].th, in->threads[in->cu_threads[b][k]].th))
            return false;
    for (int k = 0; k < s->block_len[a]; k++) {
        const pslot *x = &in->slots[s->block[a][k]], *y = &in->slots[s->block[b][k]];
        if (x->lo != y->lo || x->hi != y->hi || x->bits != y->bits)
            return false;
    }
    int ba = 0, bb = 0;     /* the k-th barrier counter of each: the same id */
    for (;;) {
        while (ba < in->nbars && in->bars[ba].cu != a)
            ba++;
        while (bb < in->nbars && in->bars[bb].cu != b)
            bb++;
        if (ba == in->nbars || bb == in->nbars)
            return ba == in->nbars && bb == in->nbars;
        if (in->bars[ba].id != in->bars[bb].id)
            return false;
        ba++, bb++;
    }
}

static int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

/* Groups the CUs into classes (first member ascending), splitting a class
 * beyond SYM_MAX_CLASS and then the largest ones until the order fits. */
static void build_classes(const proto_instance *in, proto_symmetry *s)
{
    int n = in->ncu;
    int *cls = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(n + 1));
    int *size = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(n + 1));
    int ncls = 0;
    for (int cu = 0; cu < n; cu++) {
        cls[cu] = -1;
        for (int d = 0; d < cu && cls[cu] < 0; d++)
            if (size[cls[d]] < SYM_MAX_CLASS && !uses_local(in, cu) && !uses_local(in, d) &&
                interchangeable(in, s, d, cu))
                cls[cu] = cls[d];
        if (cls[cu] < 0) {
            cls[cu] = ncls;
            size[ncls++] = 0;
        }
        size[cls[cu]]++;
    }
    for (;;) {      /* the order must fit PROTO_SYM_MAX_ORDER: halve the largest class */
        double order = 1;
        int big = 0;
        for (int c = 0; c < ncls; c++) {
            order *= factorial(size[c]);
            if (size[c] > size[big])
                big = c;
        }
        if (order <= PROTO_SYM_MAX_ORDER)
            break;
        int keep = size[big] / 2, seen = 0;
        for (int cu = 0; cu < n; cu++)
            if (cls[cu] == big && ++seen > keep)
                cls[cu] = ncls;
        size[ncls++] = size[big] - keep;
        size[big] = keep;
    }
    s->nclasses = 0;
    s->class_start = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(ncls + 1));
    s->members = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(n + 1));
    s->radix = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(ncls + 1));
    s->order = 1;
    int m = 0;
    for (int c = 0; c < ncls; c++) {
        if (size[c] < 2)
            continue;
        s->class_start[s->nclasses] = m;
        for (int cu = 0; cu < n; cu++)
            if (cls[cu] == c)
                s->members[m++] = cu;
        s->radix[s->nclasses++] = factorial(size[c]);
        s->order *= factorial(size[c]);
    }
    s->class_start[s->nclasses] = m;
}

/* Cuts the blocks of class c's CUs into runs of adjacent bits. */
static void build_runs(const proto_instance *in, proto_symmetry *s, int c)
{
    const int *mem = s->members + s->class_start[c];
    int n = s->class_start[c + 1] - s->class_start[c], len = s->block_len[mem[0]];
    for (int i = 0; i < n; i++) {
        int cu = mem[i];
        s->nseg[cu] = 0;
        s->seg_off[cu] = GC_MALLOC_ATOMIC(sizeof(uint32_t) * (size_t)(len + 1));
        s->seg_bits[cu] = GC_MALLOC_ATOMIC(sizeof(uint32_t) * (size_t)(len + 1));
    }
    for (int k = 0; k < len; k++) {
        bool cut = k == 0;
        for (int i = 0; i < n && !cut; i++) {
            const pslot *prev = &in->slots[s->block[mem[i]][k - 1]], *cur = &in->slots[s->block[mem[i]][k]];
            cut = cur->off != prev->off + prev->bits;
        }
        for (int i = 0; i < n; i++) {
            int cu = mem[i];
            const pslot *cur = &in->slots[s->block[cu][k]];
            if (cut)
                s->seg_off[cu][s->nseg[cu]++] = cur->off, s->seg_bits[cu][s->nseg[cu] - 1] = 0;
            s->seg_bits[cu][s->nseg[cu] - 1] += cur->bits;
        }
    }
}

/* "CUs {1,2} (P1, P2) interchangeable, CUs {3,4} ... (4 permutations)" */
static const char *group_note(const proto_instance *in, const proto_symmetry *s)
{
    textbuf b = tb_over(GC_MALLOC_ATOMIC(1024), 1024);
    for (int c = 0; c < s->nclasses; c++) {
        tb_puts(&b, c ? "; CUs {" : "CUs {");
        for (int k = s->class_start[c]; k < s->class_start[c + 1]; k++)
            tb_printf(&b, "%s%d", k > s->class_start[c] ? "," : "", s->members[k]);
        tb_puts(&b, "} (");
        for (int k = s->class_start[c]; k < s->class_start[c + 1]; k++) {
            int cu = s->members[k];
            for (int t = 0; t < in->cu_size[cu]; t++)
                tb_printf(&b, "%s%s", k > s->class_start[c] || t ? "," : "", in->threads[in->cu_threads[cu][t]].th->name);
        }
        tb_puts(&b, ") interchangeable");
    }
    tb_printf(&b, " (%d permutations)", s->order);
    return b.text;
}

bool proto_symmetry_find(proto_instance *in, const char **note)
{
    if (!in->sym) {
        proto_symmetry *s = GC_MALLOC(sizeof *s);
        memset(s, 0, sizeof *s);
        s->order = 1;
        s->note = protocol_refusal(in->p);
        if (s->note) {
            char *why = GC_MALLOC_ATOMIC(640);
            snprintf(why, 640, "protocol %s: %s", in->p->name, s->note);
            s->note = why;
        } else {
            build_blocks(in, s);
            build_classes(in, s);
            s->nseg = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)in->ncu);
            s->seg_off = GC_MALLOC(sizeof(uint32_t *) * (size_t)in->ncu);
            s->seg_bits = GC_MALLOC(sizeof(uint32_t *) * (size_t)in->ncu);
            for (int c = 0; c < s->nclasses; c++)
                build_runs(in, s, c);
            s->sound = s->nclasses > 0;
            s->note = s->sound ? group_note(in, s) : "no two CUs run identical programs";
        }
        in->sym = s;
    }
    if (note)
        *note = in->sym->note;
    return in->sym->sound;
}

void proto_symmetry_enable(proto_instance *in)
{
    if (!proto_symmetry_find(in, NULL))
        return;
    in->sym->active = true;
    in->model.canonicalize = proto_symmetry_canonicalize;
}

bool proto_symmetry_active(const proto_instance *in) { return in->sym && in->sym->active; }

int proto_symmetry_order(const proto_instance *in) { return in->sym && in->sym->sound ? in->sym->order : 1; }

/* ---- the canonical form ---------------------------------------------------------- */

/* n <= 56 bits of the packed state from bit `off`. */
static uint64_t bits_at(const uint8_t *state, size_t bytes, uint32_t off, uint32_t n)
{
    uint64_t word = 0;
    size_t at = off >> 3;
    memcpy(&word, state + at, bytes - at < sizeof word ? bytes - at : sizeof word);
    return (word >> (off & 7)) & ((1ull << n) - 1);
}

/* proto_repack into a state of exactly state_bytes bytes: the repack
 * reads and writes PROTO_PACK_SLACK bytes past the state (internal.h),
 * which the caller's buffer (a search's batch slot, another thread's
 * neighbour) need not have, so it works on a padded copy. */
static void repack_into(const proto_instance *in, const int32_t *old, const int32_t *v, uint8_t *state)
{
    uint8_t padded[PROTO_MAX_SLOTS * 4 + PROTO_PACK_SLACK];
    size_t bytes = in->model.state_bytes;
    memcpy(padded, state, bytes);
    memset(padded + bytes, 0, PROTO_PACK_SLACK);
    proto_repack(in, old, v, padded);
    memcpy(state, padded, bytes);
}

/* CU a's block against CU b's, run by run, 56 bits at a time: a total
 * order in which only equal blocks tie (not the order of the slots'
 * values, which would need them unpacked; any such order gives one
 * representative per orbit).  Most pairs differ in their first bits, a
 * thread's pc, so a successor that is already sorted costs a few reads. */
static int block_cmp(const proto_instance *in, const proto_symmetry *s, const uint8_t *state, int a, int b)
{
    size_t bytes = in->model.state_bytes;
    for (int j = 0; j < s->nseg[a]; j++) {
        uint32_t oa = s->seg_off[a][j], ob = s->seg_off[b][j], left = s->seg_bits[a][j];
        while (left > 0) {
            uint32_t n = left < 56 ? left : 56;
            uint64_t x = bits_at(state, bytes, oa, n), y = bits_at(state, bytes, ob, n);
            if (x != y)
                return x < y ? -1 : 1;
            oa += n, ob += n, left -= n;
        }
    }
    return 0;
}

/* w receives CU src's block of v as CU dst's. */
static void block_move(const proto_symmetry *s, const int32_t *v, int32_t *w, int src, int dst)
{
    const int *from = s->block[src], *to = s->block[dst];
    for (int k = 0; k < s->block_len[src]; k++)
        w[to[k]] = v[from[k]];
}

/* Sorts class c's CUs by block into order[] (stable insertion sort: the
 * classes are small); true when that moves some CU. */
static bool sort_class(const proto_instance *in, const uint8_t *state, int c, int *order)
{
    const proto_symmetry *s = in->sym;
    const int *mem = s->members + s->class_start[c];
    int n = s->class_start[c + 1] - s->class_start[c];
    bool moved = false;
    for (int i = 0; i < n; i++) {
        int x = mem[i], j = i;
        for (; j > 0 && block_cmp(in, s, state, order[j - 1], x) > 0; j--)
            order[j] = order[j - 1];
        order[j] = x;
        moved |= j != i;
    }
    return moved;
}

void proto_symmetry_canonicalize(void *vctx, uint8_t *state)
{
    const proto_instance *in = vctx;
    const proto_symmetry *s = in->sym;
    int order[SYM_MAX_CLASS * SYM_MAX_CLASSES];
    bool moved = false;
    for (int c = 0; c < s->nclasses; c++)
        moved |= sort_class(in, state, c, order + c * SYM_MAX_CLASS);
    if (!moved)
        return;
    int32_t v[PROTO_MAX_SLOTS], w[PROTO_MAX_SLOTS];
    proto_unpack(in, state, v);
    memcpy(w, v, sizeof *v * (size_t)in->nslots);
    for (int c = 0; c < s->nclasses; c++) {
        const int *mem = s->members + s->class_start[c];
        for (int k = 0; k < s->class_start[c + 1] - s->class_start[c]; k++)
            block_move(s, v, w, order[c * SYM_MAX_CLASS + k], mem[k]);
    }
    repack_into(in, v, w, state);
}

/* ---- group elements ----------------------------------------------------------------- */

/* Element g as a map of CUs: img[cu] is where CU cu's block goes (the
 * identity outside the classes).  Each class's digit of g, in the mixed
 * radix of the factorials, is a permutation's rank (Lehmer code). */
static void element_map(const proto_instance *in, int g, int *img)
{
    const proto_symmetry *s = in->sym;
    for (int cu = 0; cu < in->ncu; cu++)
        img[cu] = cu;
    for (int c = 0; c < s->nclasses; c++) {
        const int *mem = s->members + s->class_start[c];
        int n = s->class_start[c + 1] - s->class_start[c], digit = g % s->radix[c];
        g /= s->radix[c];
        int left[SYM_MAX_CLASS];
        for (int k = 0; k < n; k++)
            left[k] = mem[k];
        for (int k = 0; k < n; k++) {
            int f = factorial(n - 1 - k), pick = digit / f;
            digit %= f;
            img[mem[k]] = left[pick];
            memmove(&left[pick], &left[pick + 1], sizeof *left * (size_t)(n - 1 - k - pick));
        }
    }
}

void proto_symmetry_apply(const proto_instance *in, int g, const uint8_t *state, uint8_t *out)
{
    int32_t v[PROTO_MAX_SLOTS], w[PROTO_MAX_SLOTS];
    int img[PROTO_MAX_SLOTS];
    memcpy(out, state, in->model.state_bytes);
    if (!in->sym || !in->sym->sound || g <= 0)
        return;
    proto_unpack(in, state, v);
    memcpy(w, v, sizeof *v * (size_t)in->nslots);
    element_map(in, g, img);
    for (int cu = 0; cu < in->ncu; cu++)
        if (img[cu] != cu)
            block_move(in->sym, v, w, cu, img[cu]);
    repack_into(in, v, w, out);
}

void proto_symmetry_orbit_values(const proto_instance *in, const uint8_t *state, proto_values_fn fn, void *ctx)
{
    const litmus_test *t = in->t;
    int32_t v[PROTO_MAX_SLOTS];
    int img[PROTO_MAX_SLOTS], pre[PROTO_MAX_SLOTS];
    lit_value small[64];    /* no allocation per final state for the usual few observed values */
    lit_value *values = t->nobserved <= 64 ? small : GC_MALLOC_ATOMIC(sizeof *values * (size_t)t->nobserved);
    proto_final_values(in, state, values);
    proto_unpack(in, state, v);
    int order = proto_symmetry_order(in);
    for (int g = 0; g < order; g++) {
        element_map(in, g, img);
        for (int cu = 0; cu < in->ncu; cu++)
            pre[img[cu]] = cu;
        /* in the permuted state, thread k of CU c holds what thread k of CU pre[c] holds here */
        for (int i = 0; i < t->nobserved; i++) {
            const lit_term *term = &t->observed[i];
            if (term->kind != TERM_REG)
                continue;
            const pthread_info *ti = &in->threads[term->thread];
            int src = in->cu_threads[pre[ti->cu]][ti->tid];
            values[i] = v[in->threads[src].base + 2 + term->reg];
        }
        fn(ctx, g, values);
    }
}
