/* protocol/state_view.c: a packed state as named fields (see
 * protocol/step.h): threads, controller instances and their lines,
 * channel instances, barrier counters, always in the same order. */
#include <string.h>

#include "protocol/internal.h"

/* Fields of one line: its state (when the controller has more than one)
 * and its fields. */
static int line_fields(const pctrl *pc) { return (pc->nstates > 1) + pc->nfields; }

int proto_state_nfields(const proto_instance *in)
{
    int n = 0;
    for (int t = 0; t < in->nthreads; t++)
        n += 2 + in->threads[t].th->nregs;
    for (int c = 0; c < in->p->nctrls; c++) {
        const pctrl *pc = &in->p->ctrls[c];
        n += in->ctrls[c].ninst * (pc->nvars + in->naddr * line_fields(pc));
    }
    for (int ch = 0; ch < in->p->nchans; ch++)
        n += in->chans[ch].ninst;
    for (int a = 0; a < in->naddr; a++)
        n += proto_scratchpad_slot(in, a) >= 0;
    return n + in->nbars;
}

void proto_aggregate_text(enum ptype_kind kind, const int32_t *first, int len, textbuf *b)
{
    bool any = false;
    tb_puts(b, kind == T_BITS ? "{" : "[");
    for (int i = 0; i < len; i++) {
        if (kind == T_BITS && !first[i])
            continue;
        tb_printf(b, any ? ", %d" : "%d", kind == T_BITS ? i : first[i]);
        any = true;
    }
    tb_puts(b, kind == T_BITS ? "}" : "]");
}

typedef struct filler {
    const proto_instance *in;
    const int32_t *v;
    proto_state_field *out;
    int n;
} filler;

/* The next field, its component named by `b`'s text; returns its value's buffer. */
static textbuf next_field(filler *f, const char *component, const char *name)
{
    proto_state_field *x = &f->out[f->n++];
    textbuf c = tb_over(x->component, sizeof x->component);
    tb_puts(&c, component);
    x->name = name;
    return tb_over(x->value, sizeof x->value);
}

/* A scalar or an aggregate starting at slot `first` of `len` elements. */
static void typed_value(const filler *f, const ptype *ty, int first, int len, textbuf *b)
{
    if (ty->kind == T_SCALAR)
        tb_printf(b, "%d", f->v[first]);
    else if (ty->kind == T_FIFO)
        proto_aggregate_text(T_FIFO, &f->v[first + 1], f->v[first], b);
    else
        proto_aggregate_text(ty->kind, &f->v[first], len, b);
}

static void thread_fields(filler *f, int t)
{
    const pthread_info *ti = &f->in->threads[t];
    const lit_thread *th = ti->th;
    int pc = f->v[ti->base];
    textbuf b = next_field(f, th->name, "pc");
    if (pc >= th->ninstrs)
        tb_puts(&b, "done");
    else
        tb_printf(&b, "%d (%s)", pc, th->instrs[pc].text ? th->instrs[pc].text : "?");
    b = next_field(f, th->name, "waiting");
    tb_puts(&b, f->v[ti->base + 1] ? "yes" : "no");
    for (int r = 0; r < th->nregs; r++) {
        b = next_field(f, th->name, th->reg_names[r]);
        tb_printf(&b, "%d", f->v[ti->base + 2 + r]);
    }
}

static void ctrl_fields(filler *f, int c, int i)
{
    const proto_instance *in = f->in;
    const pctrl *pc = &in->p->ctrls[c];
    const pctrl_info *ci = &in->ctrls[c];
    int base = ci->base + i * ci->inst_slots;
    proto_agent who;
    proto_ctrl_agent(in, c, i, &who);
    for (int x = 0; x < pc->nvars; x++) {
        textbuf b = next_field(f, who.name, pc->vars[x]);
        typed_value(f, &pc->var_type[x], base + in->naddr * ci->line_slots + ci->var_off[x], ci->var_len[x], &b);
    }
    for (int a = 0; a < in->naddr; a++) {
        char comp[PROTO_NAME_MAX];
        textbuf cb = tb_over(comp, sizeof comp);
        tb_printf(&cb, "%s [%s]", who.name, proto_loc_name(in, a));
        int line = base + a * ci->line_slots;
        if (pc->nstates > 1) {
            textbuf b = next_field(f, comp, "state");
            tb_puts(&b, pc->states[f->v[line]]);
        }
        for (int x = 0; x < pc->nfields; x++) {
            textbuf b = next_field(f, comp, pc->fields[x]);
            typed_value(f, &pc->field_type[x], line + ci->field_off[x], ci->field_len[x], &b);
        }
    }
}

static void chan_fields(filler *f, int ch, int inst)
{
    const proto_instance *in = f->in;
    const pchan_info *ci = &in->chans[ch];
    int base = ci->base + inst * (1 + ci->cap * ci->msg_slots), n = f->v[base];
    char comp[PROTO_NAME_MAX];
    textbuf cb = tb_over(comp, sizeof comp);
    proto_chan_name(in, ch, inst, &cb);
    textbuf b = next_field(f, comp, "");
    if (n == 0)
        tb_puts(&b, "empty");
    for (int k = 0; k < n; k++) {
        const int32_t *m = &f->v[base + 1 + k * ci->msg_slots];
        if (k)
            tb_puts(&b, ", ");
        proto_msg_text(in, m[0] - 1, m + 2, &b);
    }
}

void proto_state_fields(const proto_instance *in, const uint8_t *state, proto_state_field *out)
{
    int32_t v[PROTO_MAX_SLOTS];
    proto_unpack(in, state, v);
    filler f = {in, v, out, 0};
    for (int t = 0; t < in->nthreads; t++)
        thread_fields(&f, t);
    for (int c = 0; c < in->p->nctrls; c++)
        for (int i = 0; i < in->ctrls[c].ninst; i++)
            ctrl_fields(&f, c, i);
    for (int ch = 0; ch < in->p->nchans; ch++)
        for (int i = 0; i < in->chans[ch].ninst; i++)
            chan_fields(&f, ch, i);
    for (int k = 0; k < in->nbars; k++) {
        char comp[PROTO_NAME_MAX];
        textbuf cb = tb_over(comp, sizeof comp);
        tb_printf(&cb, "barrier %ld (CU %d)", in->bars[k].id, in->bars[k].cu);
        textbuf b = next_field(&f, comp, "arrived");
        tb_printf(&b, "%d", v[in->bars[k].slot]);
    }
    for (int a = 0; a < in->naddr; a++) {
        if (proto_scratchpad_slot(in, a) < 0)
            continue;
        char comp[PROTO_NAME_MAX];
        textbuf cb = tb_over(comp, sizeof comp);
        tb_printf(&cb, "local [%s]", proto_loc_name(in, a));
        textbuf b = next_field(&f, comp, "val");
        tb_printf(&b, "%d", v[proto_scratchpad_slot(in, a)]);
    }
}
