/* protocol/nsi_adapter.c: an instance as an nsi_model (proto_init_model
 * numbers the rules and wires the interpreter's callbacks), and what it
 * tells the interface beyond states and successors: the fairness units and
 * a step's line of text; and what it tells a GPU scheduler (where threads
 * run, whether they wait; protocol.h).  Set up once per instance; asked
 * per edge or per printed step, never in the search's inner loop. */
#include <gc.h>
#include <string.h>

#include "protocol/internal.h"

/* ---- fairness units (nsi_fairness) ------------------------------------------------------------ */
/* Rules 0..nthreads-1 are the threads' own; a channel's rules come per
 * instance (one per message slot when unordered), so a rule's unit is its
 * thread or its channel instance.  An internal event of a controller's
 * line (draining a store buffer, finishing a flush) is its own unit: the
 * hardware eventually does the work it has pending.  `evict` belongs to no
 * unit: a cache need never give a line up, so no fairness forces it. */
static bool is_evict(const pctrl *pc, int x) { return strcmp(pc->internal[x], "evict") == 0; }

static int find_rule_unit(const proto_instance *in, int rule)
{
    if (rule >= 0 && rule < in->nthreads)
        return rule;
    for (int ch = 0; ch < in->p->nchans; ch++) {
        const pchan_info *ci = &in->chans[ch];
        int per = ci->unordered ? ci->cap : 1, r = rule - ci->rule_base;
        if (r >= 0 && r < ci->ninst * per)
            return ci->unit_base + r / per;
    }
    for (int c = 0; c < in->p->nctrls; c++) {
        const pctrl *pc = &in->p->ctrls[c];
        int r = rule - in->ctrls[c].rule_base;
        if (pc->ninternal && r >= 0 && r < in->ctrls[c].ninst * in->naddr * pc->ninternal)
            return is_evict(pc, r % pc->ninternal) ? -1 : in->ctrls[c].unit_base + r;
    }
    return -1;
}

/* Asked once per edge by the liveness search: a table, filled by proto_init_fairness. */
static int rule_unit(void *vctx, int rule)
{
    const proto_instance *in = vctx;
    return rule >= 0 && rule < in->nrules ? in->unit_of_rule[rule] : -1;
}

/* "(CU 1) L1[x] drain": the line and internal event of an internal unit. */
static bool internal_unit_name(const proto_instance *in, int unit, FILE *out)
{
    for (int c = 0; c < in->p->nctrls; c++) {
        const pctrl *pc = &in->p->ctrls[c];
        int r = unit - in->ctrls[c].unit_base;
        if (!pc->ninternal || r < 0 || r >= in->ctrls[c].ninst * in->naddr * pc->ninternal)
            continue;
        int inst = r / pc->ninternal / in->naddr, a = r / pc->ninternal % in->naddr;
        const char *kind = proto_instance_kind(in, c);
        if (kind)
            fprintf(out, "(%s %d) ", kind, inst);
        fprintf(out, "%s[%s] %s", pc->name, proto_loc_name(in, a), pc->internal[r % pc->ninternal]);
        return true;
    }
    return false;
}

static void unit_name(void *vctx, int unit, FILE *out)
{
    const proto_instance *in = vctx;
    if (unit >= 0 && unit < in->nthreads) {
        fputs(in->threads[unit].th->name, out);
        return;
    }
    for (int ch = 0; ch < in->p->nchans; ch++) {
        int i = unit - in->chans[ch].unit_base;
        if (i >= 0 && i < in->chans[ch].ninst) {
            char name[64];
            textbuf b = tb_over(name, sizeof name);
            proto_chan_name(in, ch, i, &b);
            fputs(name, out);
            return;
        }
    }
    if (!internal_unit_name(in, unit, out))
        fputs("?", out);
}

static bool thread_done(void *vctx, const uint8_t *state, int t)
{
    const proto_instance *in = vctx;
    int base = in->threads[t].base;
    return proto_slot(in, state, base) >= in->threads[t].th->ninstrs && !proto_slot(in, state, base + 1);
}

static bool thread_progress(void *vctx, const uint8_t *state, int t)
{
    const proto_instance *in = vctx;
    int pc = proto_slot(in, state, in->threads[t].base);
    return pc < in->threads[t].th->ninstrs && in->threads[t].th->instrs[pc].progress;
}

static void init_fairness(proto_instance *in)
{
    int units = in->nthreads;
    for (int ch = 0; ch < in->p->nchans; ch++) {
        in->chans[ch].unit_base = units;
        units += in->chans[ch].ninst;
    }
    for (int c = 0; c < in->p->nctrls; c++) {
        in->ctrls[c].unit_base = units;
        units += in->ctrls[c].ninst * in->naddr * in->p->ctrls[c].ninternal;
    }
    in->unit_of_rule = GC_MALLOC_ATOMIC(sizeof *in->unit_of_rule * (size_t)(in->nrules ? in->nrules : 1));
    for (int r = 0; r < in->nrules; r++)
        in->unit_of_rule[r] = find_rule_unit(in, r);
    in->fairness = (nsi_fairness){in->nthreads, units, rule_unit, unit_name, thread_done, thread_progress};
}

/* ---- where threads run (protocol.h) ------------------------------------------------------------ */
/* A CTA runs on its own CU (threads of one CTA share it), so CTAs are the
 * CUs, in the order of their first thread. */
int proto_thread_cta(const proto_instance *in, int t, int *gpu)
{
    int cu = in->threads[t].cu;
    *gpu = in->cu_gpu[cu];
    return cu;
}

bool proto_thread_waiting(const proto_instance *in, const uint8_t *state, int t)
{
    return proto_slot(in, state, in->threads[t].base + 1) != 0;
}

bool proto_preempts(const proto_instance *in) { return in->p->preempt; }

/* ---- a step's line (nsi describe) -------------------------------------------------------------- */
static void describe_line(void *vctx, const uint8_t *state, int rule, const uint8_t *nextst, FILE *out)
{
    proto_step_desc s;
    proto_describe_step(vctx, state, rule, nextst, &s);
    fprintf(out, "%s\n", s.text);
}

/* ---- the model: rules, units, callbacks ------------------------------------------------------- */
/* Rules 0..nthreads-1 are the threads', then each channel instance's
 * deliveries (one per message slot when unordered), then each controller
 * instance's internal events per line. */
void proto_init_model(proto_instance *in)
{
    int r = in->nthreads;
    for (int ch = 0; ch < in->p->nchans; ch++) {
        in->chans[ch].rule_base = r;
        r += in->chans[ch].ninst * (in->chans[ch].unordered ? in->chans[ch].cap : 1);
    }
    for (int c = 0; c < in->p->nctrls; c++) {
        in->ctrls[c].rule_base = r;
        r += in->ctrls[c].ninst * in->naddr * in->p->ctrls[c].ninternal;
    }
    in->nrules = r;
    init_fairness(in);
    size_t bytes = (size_t)(in->state_bits + 7) / 8;
    /* a state of no bits (empty threads, one-valued tables) is one zero byte */
    in->model = (nsi_model){in, bytes ? bytes : 1, r, proto_nsi_initial, proto_nsi_successors,
                            proto_nsi_is_final, proto_nsi_violated, describe_line, &in->fairness, NULL};
}

const nsi_model *proto_nsi(proto_instance *in) { return &in->model; }
