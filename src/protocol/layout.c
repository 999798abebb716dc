/* protocol/layout.c: binding a protocol to a litmus test (CUs, lines,
 * configuration) and the packed state layout.  The interpreter works on an
 * unpacked vector of int32 slots; states are stored bit-packed, each slot
 * taking just enough bits for its range, LSB first. */
#include <gc.h>
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "protocol/internal.h"

long pbound_value(const proto_instance *in, pbound b)
{
    return b.cst >= 0 ? in->consts[b.cst] * b.mul + b.num : b.num;
}

int proto_level_count(const proto_instance *in, enum plevel lv, pbound slices)
{
    return lv == LV_CU ? in->ncu : lv == LV_GPU ? in->ngpu : lv == LV_SLICE ? (int)pbound_value(in, slices) : 1;
}

static int ctrl_instances(const proto_instance *in, const pctrl *c) { return proto_level_count(in, c->level, c->slices); }
static int chan_instances(const proto_instance *in, const pchan *c) { return proto_level_count(in, c->level, c->slices); }

static void range_of(const proto_instance *in, prange r, long *lo, long *hi)
{
    if (r.is_value) {
        *lo = in->vlo;
        *hi = in->vhi;
    } else {
        *lo = pbound_value(in, r.lo);
        *hi = pbound_value(in, r.hi);
    }
}

static int bits_for(long span)
{
    int b = 0;
    while (span > 0) {
        b++;
        span >>= 1;
    }
    return b;
}

/* A slot of lo..hi; is_value: it holds a data value, and so wraps when
 * the protocol says `wrap` (a counter that happens to have the same bounds
 * does not). */
static int add_value_slot(proto_instance *in, long lo, long hi, bool is_value)
{
    pslot *s = &in->slots[in->nslots];
    s->lo = (int32_t)lo;
    s->hi = (int32_t)(hi > lo ? hi : lo);
    s->is_value = is_value;
    s->off = (uint32_t)in->state_bits;
    s->bits = (uint8_t)bits_for(hi > lo ? hi - lo : 0);
    in->state_bits += s->bits;
    return in->nslots++;
}

static int add_slot(proto_instance *in, long lo, long hi) { return add_value_slot(in, lo, hi, false); }

void proto_pack(const proto_instance *in, const int32_t *v, uint8_t *out)
{
    uint64_t acc = 0;
    int nacc = 0;
    size_t o = 0;
    for (int i = 0; i < in->nslots; i++) {
        int b = in->slots[i].bits;
        if (!b)
            continue;
        acc |= (uint64_t)(uint32_t)(v[i] - in->slots[i].lo) << nacc;
        nacc += b;
        while (nacc >= 8) {
            out[o++] = (uint8_t)acc;
            acc >>= 8;
            nacc -= 8;
        }
    }
    if (nacc)
        out[o++] = (uint8_t)acc;
}

/* Writes slot i of v into the packed `out`: one read-modify-write of the
 * 64-bit word at the slot's first byte (a slot is at most 32 bits, so with
 * its shift it lies within those 8 bytes; past the state's end they are
 * the caller's slack, PROTO_PACK_SLACK). */
static inline void put_slot(const proto_instance *in, const int32_t *v, int i, uint8_t *out)
{
    const pslot_read *r = &in->reads[i];
    uint64_t word, mask = (uint64_t)r->mask << r->shift;
    uint64_t x = (uint64_t)(uint32_t)(v[i] - r->lo) << r->shift;
    memcpy(&word, out + r->byte, sizeof word);
    word = (word & ~mask) | (x & mask);
    memcpy(out + r->byte, &word, sizeof word);
}

/* Whether slots i..i+3 of a and b differ: two 64-bit comparisons. */
static bool quad_differs(const int32_t *a, const int32_t *b, int i)
{
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a + i, sizeof a0);
    memcpy(&a1, a + i + 2, sizeof a1);
    memcpy(&b0, b + i, sizeof b0);
    memcpy(&b1, b + i + 2, sizeof b1);
    return ((a0 ^ b0) | (a1 ^ b1)) != 0;
}

void proto_repack(const proto_instance *in, const int32_t *old, const int32_t *v, uint8_t *out)
{
    int i = 0, n = in->nslots;
    for (; i + 4 <= n; i += 4) {
        if (!quad_differs(old, v, i))  /* most quads: a step changes a few slots */
            continue;
        for (int k = i; k < i + 4; k++)
            if (old[k] != v[k])
                put_slot(in, v, k, out);
    }
    for (; i < n; i++)
        if (old[i] != v[i])
            put_slot(in, v, i, out);
}

void proto_repack_dirty(const proto_instance *in, const int32_t *old, const int32_t *v, uint8_t *out,
                        const pdirty *d)
{
    if (d->all) {
        proto_repack(in, old, v, out);
        return;
    }
    for (int r = 0; r < d->n; r++)
        for (int i = d->first[r], end = i + d->count[r]; i < end; i++)
            if (old[i] != v[i])
                put_slot(in, v, i, out);
}

/* A slot's value, read from a padded copy of the state (8 zero bytes
 * after its end). */
static int32_t padded_slot(const pslot_read *r, const uint8_t *padded)
{
    uint64_t word;
    memcpy(&word, padded + r->byte, sizeof word);
    return (int32_t)((uint32_t)(word >> r->shift) & r->mask) + r->lo;
}

/* Slot i of the packed state s, read on its own (near the end of the
 * state only the bytes that exist are loaded). */
int32_t proto_slot(const proto_instance *in, const uint8_t *s, int i)
{
    const pslot *sl = &in->slots[i];
    size_t byte = sl->off >> 3, n = in->model.state_bytes - byte;
    uint64_t word = 0;
    memcpy(&word, s + byte, n < sizeof word ? n : sizeof word);
    return (int32_t)((word >> (sl->off & 7)) & ((1ull << sl->bits) - 1)) + sl->lo;
}

/* Each slot is read with one unaligned 64-bit load from a padded copy of
 * the state (a slot is at most 32 bits, so its bits lie within the 8
 * bytes from its first byte): no per-byte loop, no branch per slot. */
void proto_unpack_range(const proto_instance *in, const uint8_t *s, int32_t *v, int first, int last)
{
    uint8_t buf[PROTO_MAX_SLOTS * 4 + 8];
    size_t n = in->model.state_bytes;
    memcpy(buf, s, n);
    memset(buf + n, 0, 8);
    const pslot_read *r = in->reads;
    for (int i = first; i < last; i++)
        v[i] = padded_slot(&r[i], buf);
}

void proto_unpack(const proto_instance *in, const uint8_t *s, int32_t *v)
{
    proto_unpack_range(in, s, v, 0, in->nslots);
}

/* ---- configuration ------------------------------------------------------ */
static bool set_consts(proto_instance *in, const proto_options *o, FILE *errors)
{
    const protocol *p = in->p;
    in->consts = GC_MALLOC(sizeof *in->consts * (size_t)p->nconsts);
    memcpy(in->consts, p->const_values, sizeof *in->consts * (size_t)p->nconsts);
    for (int i = 0; o && i < o->noverrides; i++) {
        int c = -1;
        for (int k = PB_NBUILTIN; k < p->nconsts; k++)
            if (!strcmp(p->const_names[k], o->override_name[i]))
                c = k;
        if (c < 0) {
            diag_error(errors, p->decl_at.path ? p->decl_at.path : p->path, p->decl_at.line ? p->decl_at.line : 1,
                       p->decl_at.col ? p->decl_at.col : 1,
                       "--const %s: protocol %s declares no such constant", o->override_name[i], p->name);
            return false;
        }
        in->consts[c] = o->override_value[i];
    }
    return true;
}

static void place_threads(proto_instance *in)
{
    const litmus_test *t = in->t;
    int *cu_key = GC_MALLOC(sizeof *cu_key * (size_t)(t->nthreads + 1));
    int *count = GC_MALLOC(sizeof *count * (size_t)(t->nthreads + 1));
    in->threads = GC_MALLOC(sizeof *in->threads * (size_t)t->nthreads);
    in->ncu = 0;
    int maxops = 0;
    for (int i = 0; i < t->nthreads; i++) {
        int key = t->threads[i].gpu * 65536 + t->threads[i].cta, cu = -1;
        for (int c = 0; c < in->ncu; c++)
            if (cu_key[c] == key)
                cu = c;
        if (cu < 0) {
            cu = in->ncu++;
            cu_key[cu] = key;
        }
        in->threads[i].cu = cu;
        in->threads[i].tid = count[cu]++;
        in->threads[i].th = &t->threads[i];
        if (t->threads[i].ninstrs > maxops)
            maxops = t->threads[i].ninstrs;
    }
    in->cu_gpu = GC_MALLOC_ATOMIC(sizeof *in->cu_gpu * (size_t)(in->ncu + 1));
    int *gpu_key = GC_MALLOC_ATOMIC(sizeof *gpu_key * (size_t)(in->ncu + 1));
    in->ngpu = 0;
    for (int c = 0; c < in->ncu; c++) {     /* GPUs numbered in order of first use */
        int g = 0, key = cu_key[c] / 65536;
        while (g < in->ngpu && gpu_key[g] != key)
            g++;
        if (g == in->ngpu)
            gpu_key[in->ngpu++] = key;
        in->cu_gpu[c] = g;
    }
    in->max_tid_per_cu = 1;
    in->cu_size = count;
    in->cu_threads = GC_MALLOC(sizeof *in->cu_threads * (size_t)in->ncu);
    for (int c = 0; c < in->ncu; c++) {
        in->cu_threads[c] = GC_MALLOC(sizeof(int) * (size_t)(count[c] + 1));
        if (count[c] > in->max_tid_per_cu)
            in->max_tid_per_cu = count[c];
    }
    for (int i = 0; i < t->nthreads; i++)
        in->cu_threads[in->threads[i].cu][in->threads[i].tid] = i;
    in->nthreads = t->nthreads;
    in->naddr = t->nlocs;
    in->consts[PB_NCU] = in->ncu;
    in->consts[PB_NGPU] = in->ngpu;
    in->consts[PB_NADDR] = in->naddr;
    in->consts[PB_NTHREADS] = in->nthreads;
    in->consts[PB_MAXOPS] = maxops;
}

/* ---- checks of the litmus program against the tables --------------------- */

static bool has_row(const pctrl *c, int kind, const lit_instr *ins)
{
    for (int r = 0; r < c->nrows; r++) {
        const pevent *e = &c->rows[r].ev;
        if ((int)e->kind == kind && (e->order == PEV_ANY || e->order == (int)ins->order) &&
            (e->scope == PEV_ANY || e->scope == (int)ins->scope) && e->remote == (int)ins->remote)
            return true;
    }
    return false;
}

/* An immediate operand must be a value of the range even when arithmetic
 * wraps: wrapping a stored constant would check a different test. */
static bool value_ok(const proto_instance *in, lit_operand o)
{
    return o.kind != OPND_IMM || (o.imm >= in->vlo && o.imm <= in->vhi);
}

/* A CTA barrier: its id and count need no protocol row (the interpreter
 * runs barriers itself); immediate operands must make sense. */
static const char *check_barrier(const lit_instr *ins)
{
    if (ins->scope != SCOPE_CTA)
        return "only CTA barriers are supported by protocol tables";
    if (ins->a.kind == OPND_IMM && ins->a.imm < 0)
        return "a negative barrier id";
    if (ins->b.kind == OPND_IMM && (ins->b.imm < 1 || ins->b.imm > PROTO_MAX_BAR_COUNT))
        return "a barrier thread count outside 1..65536";
    return NULL;
}

static bool check_instr(const proto_instance *in, const lit_instr *ins, FILE *errors)
{
    const litmus_test *t = in->t;
    const char *why = NULL;
    int kind = ins->op == OP_LOAD ? EV_LOAD : ins->op == OP_STORE ? EV_STORE
             : ins->op == OP_RMW || ins->op == OP_RED ? EV_RMW : ins->op == OP_FENCE ? EV_FENCE : -1;
    if (ins->op == OP_BARRIER)
        why = check_barrier(ins);
    else if (ins->proxy != PROXY_GENERIC)
        why = "proxies are not supported by protocol tables";
    else if (ins->loc >= 0 && t->locs[ins->loc].physical != ins->loc)
        why = "aliased locations are not supported by protocol tables";
    else if (!value_ok(in, ins->a) || !value_ok(in, ins->b))
        why = "a value outside the protocol's value range (override its constant)";
    else if (kind >= 0 && !proto_scratchpad_serves(in, ins) && !has_row(&in->p->ctrls[in->p->proc_ctrl], kind, ins))
        why = "no row of the processor table handles this event";
    if (!why)
        return true;
    fprintf(errors, "%s:%d:%d: error: protocol %s cannot run '%s': %s", t->file, ins->line,
            ins->col, in->p->name, ins->text ? ins->text : "?", why);
    if (kind >= 0 && why[0] == 'n') {
        fprintf(errors, " (%s.%s%s%s)", vocab_event_kinds[kind], vocab_orders[ins->order], vocab_scope_suffixes[ins->scope],
                ins->remote ? ".remote" : "");
    }
    fputc('\n', errors);
    return false;
}

/* An initial value of the test outside the protocol's value range: the
 * error points at the `value` declaration (the test's init has no position). */
static void value_error(const proto_instance *in, FILE *errors, const char *thread, const char *name,
                        lit_value init)
{
    const ppos *at = &in->p->value_at;
    diag_error(errors, at->path, at->line, at->col,
               "%s%s%s starts at %lld in %s, outside this value range %ld..%ld (override its constant)",
               thread ? thread : "", thread ? ":" : "", name, (long long)init, in->t->file, in->vlo, in->vhi);
}

static bool check_program(const proto_instance *in, FILE *errors)
{
    if (!proto_scratchpad_check(in, errors))
        return false;
    for (int i = 0; i < in->t->nthreads; i++) {
        const lit_thread *th = &in->t->threads[i];
        for (int k = 0; k < th->ninstrs; k++)
            if (!check_instr(in, &th->instrs[k], errors))
                return false;
        for (int r = 0; r < th->nregs; r++)
            if (th->reg_init[r] < in->vlo || th->reg_init[r] > in->vhi) {
                value_error(in, errors, th->name, th->reg_names[r], th->reg_init[r]);
                return false;
            }
    }
    for (int l = 0; l < in->t->nlocs; l++)
        if (in->t->locs[l].init < in->vlo || in->t->locs[l].init > in->vhi) {
            value_error(in, errors, NULL, in->t->locs[l].name, in->t->locs[l].init);
            return false;
        }
    return true;
}

/* ---- slots ---------------------------------------------------------------- */
static void layout_threads(proto_instance *in)
{
    for (int i = 0; i < in->nthreads; i++) {
        const lit_thread *th = in->threads[i].th;
        in->threads[i].base = add_slot(in, 0, th->ninstrs);
        add_slot(in, 0, 1);
        for (int r = 0; r < th->nregs; r++)
            add_value_slot(in, in->vlo, in->vhi, true);
    }
}

/* Elements of a field or variable of type t: 1 for a scalar; a fifo has
 * its count first. */
static int type_slots(const proto_instance *in, const ptype *t, int *len)
{
    *len = t->kind == T_SCALAR ? 1 : (int)pbound_value(in, t->len);
    return t->kind == T_FIFO ? 1 + *len : *len;
}

static void add_typed_slots(proto_instance *in, const ptype *t, int len)
{
    long lo = 0, hi = 1;
    if (t->kind != T_BITS)
        range_of(in, t->r, &lo, &hi);
    if (t->kind == T_FIFO)
        add_slot(in, 0, len);
    for (int k = 0; k < len; k++)
        add_value_slot(in, lo, hi, t->kind != T_BITS && t->r.is_value);
}

/* Offsets of a controller's fields within a line and of its variables
 * within an instance; the slot counts. */
static void ctrl_offsets(proto_instance *in, const pctrl *pc, pctrl_info *ci)
{
    ci->field_off = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(pc->nfields + 1));
    ci->field_len = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(pc->nfields + 1));
    ci->var_off = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(pc->nvars + 1));
    ci->var_len = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(pc->nvars + 1));
    int off = 1;
    for (int f = 0; f < pc->nfields; f++) {
        ci->field_off[f] = off;
        off += type_slots(in, &pc->field_type[f], &ci->field_len[f]);
    }
    ci->line_slots = off;
    off = 0;
    for (int v = 0; v < pc->nvars; v++) {
        ci->var_off[v] = off;
        off += type_slots(in, &pc->var_type[v], &ci->var_len[v]);
    }
    ci->inst_slots = ci->line_slots * in->naddr + off;
    ci->ninst = ctrl_instances(in, pc);
}

static void layout_ctrls(proto_instance *in)
{
    const protocol *p = in->p;
    for (int c = 0; c < p->nctrls; c++) {
        const pctrl *pc = &p->ctrls[c];
        pctrl_info *ci = &in->ctrls[c];
        ci->base = in->nslots;
        for (int i = 0; i < ci->ninst; i++) {
            for (int a = 0; a < in->naddr; a++) {
                add_slot(in, 0, pc->nstates - 1);
                for (int f = 0; f < pc->nfields; f++)
                    add_typed_slots(in, &pc->field_type[f], ci->field_len[f]);
            }
            for (int v = 0; v < pc->nvars; v++)
                add_typed_slots(in, &pc->var_type[v], ci->var_len[v]);
        }
    }
}

static void msg_field_range(const proto_instance *in, int j, long *lo, long *hi)
{
    *lo = 0;
    *hi = j == 0 ? in->naddr - 1 : 0;
    for (int m = 0; m < in->p->nmsgs && j > 0; m++) {
        const pmsg *pm = &in->p->msgs[m];
        long l, h;
        if (j >= pm->nfields)
            continue;
        range_of(in, pm->range[j], &l, &h);
        *lo = l < *lo ? l : *lo;
        *hi = h > *hi ? h : *hi;
    }
}

/* Each message field's own range (the slots hold the union over message
 * types), so that a send checks and wraps a field by its declaration. */
static void msg_ranges(proto_instance *in)
{
    const protocol *p = in->p;
    in->msg_range = GC_MALLOC_ATOMIC(sizeof *in->msg_range * (size_t)(p->nmsgs * PROTO_MAX_FIELDS + 1));
    for (int m = 0; m < p->nmsgs; m++)
        for (int j = 0; j < p->msgs[m].nfields; j++) {
            pfield_range *r = &in->msg_range[m * PROTO_MAX_FIELDS + j];
            if (j == 0) {
                *r = (pfield_range){0, in->naddr - 1, false};
                continue;
            }
            range_of(in, p->msgs[m].range[j], &r->lo, &r->hi);
            r->is_value = p->msgs[m].range[j].is_value;
        }
}

static void layout_chans(proto_instance *in)
{
    const protocol *p = in->p;
    msg_ranges(in);
    in->maxfields = 1;
    for (int m = 0; m < p->nmsgs; m++)
        if (p->msgs[m].nfields > in->maxfields)
            in->maxfields = p->msgs[m].nfields;
    in->chans = GC_MALLOC(sizeof *in->chans * (size_t)p->nchans);
    for (int c = 0; c < p->nchans; c++) {
        pchan_info *ch = &in->chans[c];
        ch->ndest = chan_instances(in, &p->chans[c]);
        ch->ninst = ch->ndest * (p->chans[c].per_source ? ctrl_instances(in, &p->ctrls[p->chans[c].from]) : 1);
        ch->cap = (int)pbound_value(in, p->chans[c].cap);
        ch->msg_slots = 2 + in->maxfields;
        ch->base = in->nslots;
        for (int i = 0; i < ch->ninst; i++) {
            add_slot(in, 0, ch->cap);
            for (int k = 0; k < ch->cap; k++) {
                add_slot(in, 0, p->nmsgs);
                add_slot(in, 0, in->max_tid_per_cu - 1);
                for (int j = 0; j < in->maxfields; j++) {
                    long lo, hi;
                    msg_field_range(in, j, &lo, &hi);
                    add_slot(in, lo, hi);
                }
            }
        }
    }
}

/* ---- barriers ------------------------------------------------------------- */
/* The counter of (cu, id), or NULL. */
static pbar_info *bar_find(proto_instance *in, int cu, long id)
{
    for (int k = 0; k < in->nbars; k++)
        if (in->bars[k].cu == cu && in->bars[k].id == id)
            return &in->bars[k];
    return NULL;
}

/* Notes that a barrier instruction of CU `cu` may arrive at barrier `id`
 * expecting up to `expect` arrivals: the counter's range grows to
 * 0..expect-1 (it is reset when it would reach the expected count). */
static void bar_note(proto_instance *in, int cu, long id, long expect, long *hi)
{
    pbar_info *b = bar_find(in, cu, id);
    if (!b) {
        b = &in->bars[in->nbars];
        hi[in->nbars++] = 0;
        *b = (pbar_info){cu, id, -1};
    }
    if (expect - 1 > hi[b - in->bars])
        hi[b - in->bars] = expect - 1;
}

/* An upper bound on the number of barrier counters. */
static int barrier_slots_needed(const proto_instance *in)
{
    int n = 0;
    for (int i = 0; i < in->nthreads; i++) {
        const lit_thread *th = in->threads[i].th;
        for (int k = 0; k < th->ninstrs; k++)
            if (th->instrs[k].op == OP_BARRIER)
                n += th->instrs[k].a.kind == OPND_IMM ? 1 : PROTO_MAX_BAR_ID + 1;
    }
    return n;
}

/* Collects the (CU, barrier id) pairs the program may use, with the largest
 * count each may expect, and appends one counter slot per pair, after every
 * other slot (a test without barriers has none).  An id in a register may
 * be any of 0..PROTO_MAX_BAR_ID within the value range; a count in a
 * register anything up to the top of the value range. */
static void layout_barriers(proto_instance *in)
{
    int max = barrier_slots_needed(in);
    in->nbars = 0;
    if (!max)
        return;
    in->bars = GC_MALLOC_ATOMIC(sizeof *in->bars * (size_t)max);
    long *hi = GC_MALLOC_ATOMIC(sizeof *hi * (size_t)max);
    for (int i = 0; i < in->nthreads; i++) {
        const lit_thread *th = in->threads[i].th;
        int cu = in->threads[i].cu;
        for (int k = 0; k < th->ninstrs; k++) {
            const lit_instr *ins = &th->instrs[k];
            if (ins->op != OP_BARRIER)
                continue;
            long top = in->vhi < 1 ? 1 : in->vhi > PROTO_MAX_BAR_COUNT ? PROTO_MAX_BAR_COUNT : in->vhi;
            long expect = ins->b.kind == OPND_IMM ? (long)ins->b.imm
                        : ins->b.kind == OPND_REG ? top : in->cu_size[cu];
            if (ins->a.kind == OPND_IMM) {
                bar_note(in, cu, (long)ins->a.imm, expect, hi);
                continue;
            }
            for (long id = in->vlo > 0 ? in->vlo : 0; id <= in->vhi && id <= PROTO_MAX_BAR_ID; id++)
                bar_note(in, cu, id, expect, hi);
        }
    }
    for (int k = 0; k < in->nbars; k++)
        in->bars[k].slot = add_slot(in, 0, hi[k]);
}

/* ---- local memory ---------------------------------------------------------- */
/* One slot per location in the local region, after every other slot (a
 * test without local memory has none, so its layout is unchanged). */
static void layout_scratchpad(proto_instance *in)
{
    in->local_slot = GC_MALLOC_ATOMIC(sizeof *in->local_slot * (size_t)(in->naddr + 1));
    for (int l = 0; l < in->naddr; l++)
        in->local_slot[l] = proto_scratchpad_is_local(in->t, l) ? add_value_slot(in, in->vlo, in->vhi, true) : -1;
}

/* Aggregates hold 1..64 elements; their ranges must not be empty. */
static bool sizes_ok(const proto_instance *in, const pctrl *pc, FILE *errors)
{
    for (int k = 0; k < pc->nfields + pc->nvars; k++) {
        bool field = k < pc->nfields;
        const ptype *t = field ? &pc->field_type[k] : &pc->var_type[k - pc->nfields];
        long len = t->kind == T_SCALAR ? 1 : pbound_value(in, t->len), lo = 0, hi = 1;
        if (t->kind != T_BITS)
            range_of(in, t->r, &lo, &hi);
        if (len >= 1 && len <= 64 && lo <= hi)
            continue;
        diag_error(errors, t->at.path, t->at.line, t->at.col, "%s %s.%s: %s", field ? "field" : "variable",
                   pc->name, field ? pc->fields[k] : pc->vars[k - pc->nfields],
                   lo > hi ? "its range is empty" : "its length is not in 1..64");
        return false;
    }
    return true;
}

/* The unpacking table: each slot's reading, from its offset and width. */
static void table_reads(proto_instance *in)
{
    in->reads = GC_MALLOC_ATOMIC(sizeof *in->reads * (size_t)(in->nslots ? in->nslots : 1));
    for (int i = 0; i < in->nslots; i++) {
        const pslot *s = &in->slots[i];
        in->reads[i] = (pslot_read){s->off >> 3, s->off & 7, (uint32_t)((1ull << s->bits) - 1), s->lo};
    }
}

/* A `sliced N` controller or channel has 1..64 instances. */
static bool slices_ok(const proto_instance *in, const char *what, const char *name, enum plevel lv,
                      pbound slices, const ppos *at, FILE *errors)
{
    long n = lv == LV_SLICE ? pbound_value(in, slices) : 1;
    if (n >= 1 && n <= 64)
        return true;
    diag_error(errors, at->path, at->line, at->col, "%s %s: %ld slices, not in 1..64", what, name, n);
    return false;
}

static bool layout(proto_instance *in, FILE *errors)
{
    long need = 0;
    const protocol *p = in->p;
    for (int c = 0; c < p->nctrls; c++)
        if (!slices_ok(in, "controller", p->ctrls[c].name, p->ctrls[c].level, p->ctrls[c].slices,
                       &p->ctrls[c].at, errors))
            return false;
    for (int c = 0; c < p->nchans; c++) {
        const ppos *at = &p->chans[c].at;
        if (!slices_ok(in, "channel", p->chans[c].name, p->chans[c].level, p->chans[c].slices, at, errors))
            return false;
        if (chan_instances(in, &p->chans[c]) > PROTO_MAX_DESTS) {
            diag_error(errors, at->path, at->line, at->col, "channel %s: more than %d destinations in this test",
                       p->chans[c].name, PROTO_MAX_DESTS);
            return false;
        }
    }
    need += in->nthreads * 2L;
    for (int i = 0; i < in->nthreads; i++)
        need += in->threads[i].th->nregs;
    in->ctrls = GC_MALLOC(sizeof *in->ctrls * (size_t)p->nctrls);
    for (int c = 0; c < p->nctrls; c++) {
        pctrl_info *ci = &in->ctrls[c];
        if (!sizes_ok(in, &p->ctrls[c], errors))
            return false;
        ctrl_offsets(in, &p->ctrls[c], ci);
        need += (long)ci->ninst * ci->inst_slots;
    }
    for (int c = 0; c < p->nchans; c++) {
        long cap = pbound_value(in, p->chans[c].cap);
        if (cap < 1 || cap > 64) {
            const ppos *at = &p->chans[c].at;
            diag_error(errors, at->path, at->line, at->col, "channel %s: capacity %ld is not in 1..64",
                       p->chans[c].name, cap);
            return false;
        }
        long senders = p->chans[c].per_source ? ctrl_instances(in, &p->ctrls[p->chans[c].from]) : 1;
        need += senders * chan_instances(in, &p->chans[c]) * (1 + cap * (2 + PROTO_MAX_FIELDS));
    }
    need += barrier_slots_needed(in) + in->naddr;
    if (need > PROTO_MAX_SLOTS) {
        diag_error(errors, p->decl_at.path, p->decl_at.line, p->decl_at.col,
                   "protocol %s on %s: the state would have %ld fields, more than %d", p->name, in->t->file,
                   need, PROTO_MAX_SLOTS);
        return false;
    }
    in->slots = GC_MALLOC_ATOMIC(sizeof *in->slots * PROTO_MAX_SLOTS);
    layout_threads(in);
    layout_ctrls(in);
    layout_chans(in);
    layout_barriers(in);
    layout_scratchpad(in);
    table_reads(in);
    return true;
}

/* Whether a --const override names the constant of bound b. */
static bool overridden(const proto_instance *in, const proto_options *o, pbound b)
{
    for (int i = 0; o && b.cst >= 0 && i < o->noverrides; i++)
        if (!strcmp(in->p->const_names[b.cst], o->override_name[i]))
            return true;
    return false;
}

static bool names_bound(const protocol *p, const proto_options *o, pbound b)
{
    for (int i = 0; o && b.cst >= 0 && i < o->noverrides; i++)
        if (!strcmp(p->const_names[b.cst], o->override_name[i]))
            return true;
    return false;
}

bool proto_value_range_overridden(const protocol *p, const proto_options *o)
{
    return names_bound(p, o, p->value.lo) || names_bound(p, o, p->value.hi);
}

/* The range the test needs (the caller's), unless the user overrode the
 * declared range's constant: then the declared one, wrapping if declared. */
static bool value_range(proto_instance *in, const proto_options *o, FILE *errors)
{
    const protocol *p = in->p;
    bool derived = o && o->has_values && !overridden(in, o, p->value.lo) && !overridden(in, o, p->value.hi);
    in->values_derived = derived;
    in->wraps = !derived && p->value_wrap;
    in->vrec = GC_MALLOC_ATOMIC(sizeof *in->vrec);
    memset(in->vrec, 0, sizeof *in->vrec);
    pthread_mutex_init(&in->vrec->lock, NULL);
    in->vlo = derived ? o->value_lo : pbound_value(in, p->value.lo);
    in->vhi = derived ? o->value_hi : pbound_value(in, p->value.hi);
    if (in->vhi < in->vlo || in->vhi - in->vlo > 1L << 20 || in->vlo < INT32_MIN / 2 || in->vhi > INT32_MAX / 2) {
        if (derived) {
            fprintf(errors, "%s: error: the test's value range %ld..%ld is beyond what a protocol state holds "
                    "(at most 2^20 values, within -2^30..2^30)\n", in->t->file, in->vlo, in->vhi);
        } else {
            const ppos *at = &p->value_at;
            diag_error(errors, at->path, at->line, at->col,
                       "bad value range %ld..%ld (at most %ld values, within -2^30..2^30)", in->vlo, in->vhi,
                       (1L << 20) + 1);
        }
        return false;
    }
    return true;
}

bool proto_layout(proto_instance *in, const proto_options *o, FILE *errors)
{
    const protocol *p = in->p;
    if (!set_consts(in, o, errors))
        return false;
    place_threads(in);
    if (!value_range(in, o, errors) || !check_program(in, errors) || !layout(in, errors))
        return false;
    for (int c = 0; c < p->nchans; c++) {
        in->chans[c].unordered = o && o->net != PROTO_NET_AS_DECLARED ? o->net == PROTO_NET_UNORDERED
                                                                      : p->chans[c].unordered;
    }
    return true;
}

int proto_state_bits(const proto_instance *in) { return in->state_bits; }

bool proto_value_range(const proto_instance *in, long *lo, long *hi)
{
    *lo = in->vlo;
    *hi = in->vhi;
    return in->wraps;
}

bool proto_values_derived(const proto_instance *in) { return in->values_derived; }

bool proto_value_overflow(const proto_instance *in, long *value)
{
    if (value)
        *value = in->vrec->overflow_value;
    return in->vrec->overflow;
}

bool proto_value_wrapped(const proto_instance *in) { return in->vrec->wrapped; }
