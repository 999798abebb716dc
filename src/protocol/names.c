/* protocol/names.c: the names traces, state listings and charts give to the
 * parts of an instance (see protocol/step.h and protocol/internal.h): threads
 * and controller instances (agents), locations, channel instances, messages. */
#include <string.h>

#include "protocol/internal.h"

const char *proto_loc_name(const proto_instance *in, long a)
{
    return a >= 0 && a < in->naddr ? in->t->locs[a].name : "?";
}

/* How an instance of controller c is named in traces: "CU", "GPU",
 * "slice" (a lone slice is not named), or NULL (one instance). */
const char *proto_instance_kind(const proto_instance *in, int c)
{
    if (c < 0)
        return NULL;
    const pctrl *pc = &in->p->ctrls[c];
    if (pc->level == LV_CU)
        return "CU";
    if (pc->level == LV_GPU)
        return "GPU";
    if (pc->level == LV_SLICE && in->ctrls[c].ninst > 1)
        return "slice";
    return NULL;
}

const char *proto_storage_name(const pctrl *pc, const pact *a)
{
    return a->on_line ? pc->fields[a->idx] : pc->vars[a->idx];
}

void proto_thread_agent(const proto_instance *in, int t, proto_agent *out)
{
    int cu = in->threads[t].cu;
    *out = (proto_agent){-1, t, cu, in->cu_gpu[cu], ""};
    textbuf b = tb_over(out->name, sizeof out->name);
    tb_puts(&b, in->threads[t].th->name);
}

/* "L1 (CU 1)", "L2 (GPU 0)", "L2 (slice 1)", or "L2" for the only
 * instance of a sliced or system controller. */
void proto_ctrl_agent(const proto_instance *in, int ctrl, int inst, proto_agent *out)
{
    const pctrl *pc = &in->p->ctrls[ctrl];
    *out = (proto_agent){ctrl, inst, -1, -1, ""};
    textbuf b = tb_over(out->name, sizeof out->name);
    tb_puts(&b, pc->name);
    if (pc->level == LV_CU) {
        out->cu = inst;
        out->gpu = inst < in->ncu ? in->cu_gpu[inst] : -1;
        tb_printf(&b, " (CU %d)", inst);
    } else if (pc->level == LV_GPU) {
        out->gpu = inst;
        tb_printf(&b, " (GPU %d)", inst);
    } else if (pc->level == LV_SLICE && in->ctrls[ctrl].ninst > 1) {
        tb_printf(&b, " (slice %d)", inst);
    }
}

int proto_agent_count(const proto_instance *in)
{
    int n = in->nthreads;
    for (int c = 0; c < in->p->nctrls; c++)
        n += in->ctrls[c].ninst;
    return n;
}

void proto_agent_at(const proto_instance *in, int k, proto_agent *out)
{
    if (k < in->nthreads) {
        proto_thread_agent(in, k, out);
        return;
    }
    k -= in->nthreads;
    for (int c = 0; c < in->p->nctrls; c++) {
        if (k < in->ctrls[c].ninst) {
            proto_ctrl_agent(in, c, k, out);
            return;
        }
        k -= in->ctrls[c].ninst;
    }
    *out = (proto_agent){-1, -1, -1, -1, "?"};
}

int proto_agent_number(const proto_instance *in, const proto_agent *a)
{
    if (a->ctrl < 0)
        return a->index;
    int n = in->nthreads;
    for (int c = 0; c < a->ctrl && c < in->p->nctrls; c++)
        n += in->ctrls[c].ninst;
    return n + a->index;
}

/* The receiving controller's instance of channel ch's instance inst: the
 * destination part of a (sender, destination) pair, mapped to the
 * receiver's level (a per-cu channel into a per-gpu controller reaches
 * the CU's GPU). */
int proto_chan_receiver(const proto_instance *in, int ch, int inst)
{
    const pchan *pch = &in->p->chans[ch];
    enum plevel to = in->p->ctrls[pch->to].level;
    int d = inst % in->chans[ch].ndest;
    return to == LV_SYS ? 0 : to == pch->level ? d : in->cu_gpu[d];
}

/* "req" (the system's one), "req[1]" (an inbox), "hresp[0->1]" (a
 * sender-destination pair), or "req[1]" for a pair with a single
 * destination (the sender names it). */
void proto_chan_name(const proto_instance *in, int ch, int inst, textbuf *b)
{
    const pchan *pc = &in->p->chans[ch];
    int nd = in->chans[ch].ndest;
    if (pc->per_source && nd > 1)
        tb_printf(b, "%s[%d->%d]", pc->name, inst / nd, inst % nd);
    else if (pc->per_source || pc->level != LV_SYS)
        tb_printf(b, "%s[%d]", pc->name, pc->per_source ? inst / nd : inst);
    else
        tb_puts(b, pc->name);
}

/* "Name(x, 1, 0)": a message, its address by location name. */
void proto_msg_text(const proto_instance *in, int msg, const int32_t *fields, textbuf *b)
{
    const pmsg *pm = msg >= 0 && msg < in->p->nmsgs ? &in->p->msgs[msg] : NULL;
    tb_printf(b, "%s(", pm ? pm->name : "?");
    for (int j = 0; pm && j < pm->nfields; j++)
        if (j == 0)
            tb_puts(b, proto_loc_name(in, fields[0]));
        else
            tb_printf(b, ", %d", fields[j]);
    tb_puts(b, ")");
}

/* The message reference of channel ch's instance inst holding m (type+1,
 * sender's thread slot, fields). */
void proto_msg_ref_of(const proto_instance *in, int ch, int inst, const int32_t *m, proto_msg_ref *out)
{
    out->chan = ch;
    out->chan_inst = inst;
    textbuf b = tb_over(out->channel, sizeof out->channel);
    proto_chan_name(in, ch, inst, &b);
    b = tb_over(out->text, sizeof out->text);
    proto_msg_text(in, m[0] - 1, m + 2, &b);
    proto_ctrl_agent(in, in->p->chans[ch].to, proto_chan_receiver(in, ch, inst), &out->to);
}
