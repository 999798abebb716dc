/* protocol/scratchpad.c: OpenCL local memory on a protocol (see
 * protocol/internal.h).  A location in the local region lives in the
 * scratchpad of the one CU whose work-group uses it: a single copy, never
 * cached, so every access to it is performed at once, in program order,
 * by the interpreter, and no table row sees it (docs/protocol-tables.md,
 * "Local memory").  This module decides which instructions it serves,
 * lays out one slot per local location, and performs an access on the
 * unpacked state; the interpreter then completes the instruction. */
#include "litmus/ops.h"
#include "protocol/internal.h"

bool proto_scratchpad_is_local(const litmus_test *t, int loc)
{
    return loc >= 0 && loc < t->nlocs && (t->locs[loc].region & REGION_LOCAL);
}

/* A fence that orders local memory only: local accesses are performed
 * at once and in program order, so it has nothing to do. */
static bool local_only_fence(const lit_instr *ins)
{
    return ins->op == OP_FENCE && ins->regions == REGION_LOCAL;
}

static bool is_access(const lit_instr *ins)
{
    return ins->op == OP_LOAD || ins->op == OP_STORE || ins->op == OP_RMW || ins->op == OP_RED;
}

bool proto_scratchpad_serves(const proto_instance *in, const lit_instr *ins)
{
    return (is_access(ins) && proto_scratchpad_is_local(in->t, ins->loc)) || local_only_fence(ins);
}

int proto_scratchpad_slot(const proto_instance *in, int loc)
{
    return in->local_slot && loc >= 0 && loc < in->naddr ? in->local_slot[loc] : -1;
}

/* The CU of the first thread that accesses local location l, or -1; an
 * access from a thread on another CU is refused (each work-group has its
 * own local memory, which a litmus location cannot stand for). */
static bool single_cu(const proto_instance *in, int l, FILE *errors)
{
    int cu = -1;
    for (int i = 0; i < in->nthreads; i++) {
        const lit_thread *th = in->threads[i].th;
        for (int k = 0; k < th->ninstrs; k++) {
            const lit_instr *ins = &th->instrs[k];
            if (!is_access(ins) || ins->loc != l)
                continue;
            if (cu < 0 || cu == in->threads[i].cu) {
                cu = in->threads[i].cu;
                continue;
            }
            fprintf(errors, "%s:%d:%d: error: protocol %s cannot run '%s': local location %s is used by "
                    "work-groups on different compute units (local memory belongs to one work-group)\n",
                    in->t->file, ins->line, ins->col, in->p->name, ins->text ? ins->text : "?",
                    in->t->locs[l].name);
            return false;
        }
    }
    return true;
}

bool proto_scratchpad_check(const proto_instance *in, FILE *errors)
{
    for (int l = 0; l < in->t->nlocs; l++)
        if (proto_scratchpad_is_local(in->t, l) && !single_cu(in, l, errors))
            return false;
    return true;
}

/* x in the value range, wrapped when the protocol wraps; false when it
 * falls outside a range that does not wrap. */
static bool fit_value(const proto_instance *in, long x, int32_t *out)
{
    if (x < in->vlo || x > in->vhi) {
        if (!in->p->value_wrap)
            return false;
        long span = in->vhi - in->vlo + 1, r = (x - in->vlo) % span;
        x = in->vlo + (r < 0 ? r + span : r);
    }
    *out = (int32_t)x;
    return true;
}

/* An operand's value in w (the interpreter's own reader is not called:
 * the interpreter calls this module). */
static long operand(const proto_instance *in, const int32_t *w, int t, lit_operand o)
{
    if (o.kind == OPND_REG)
        return w[in->threads[t].base + 2 + o.reg];
    return o.kind == OPND_IMM ? (long)o.imm : 0;
}

bool proto_scratchpad_step(const proto_instance *in, int32_t *w, int t, const lit_instr *ins)
{
    if (local_only_fence(ins))
        return true;
    int slot = in->local_slot[ins->loc], regs = in->threads[t].base + 2;
    long old = w[slot], a = operand(in, w, t, ins->a);
    int32_t stored = w[slot], read = (int32_t)old;
    bool ok = true;
    if (ins->op == OP_STORE)
        ok = fit_value(in, a, &stored);
    else if (ins->op == OP_RMW || ins->op == OP_RED)
        ok = fit_value(in, lit_rmw_result(ins, old, a, operand(in, w, t, ins->b)), &stored);
    if (!ok)
        return false;
    if (ins->op != OP_STORE && ins->dst >= 0)
        w[regs + ins->dst] = read;
    w[slot] = stored;
    return true;
}
