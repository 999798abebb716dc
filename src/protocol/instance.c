/* protocol/instance.c: proto_instantiate, a protocol bound to a litmus test (see
 * protocol.h): the layout (layout.c), then the initial state, whose
 * threads run their local steps in the interpreter (interp.c).  This is the
 * one module that uses both, so that the layout never depends on the
 * interpreter. */
#include <gc.h>

#include "protocol/internal.h"

static void initial_values(proto_instance *in)
{
    const protocol *p = in->p;
    in->init = GC_MALLOC_ATOMIC(sizeof *in->init * (size_t)in->nslots);
    /* A data value starts at 0 when the range has it (a negative value a
     * test needs must not become what an empty line holds); anything else
     * at the bottom of its range. */
    for (int i = 0; i < in->nslots; i++) {
        const pslot *s = &in->slots[i];
        in->init[i] = s->is_value && s->lo <= 0 && s->hi >= 0 ? 0 : s->lo;
    }
    for (int t = 0; t < in->nthreads; t++) {
        const lit_thread *th = in->threads[t].th;
        for (int r = 0; r < th->nregs; r++)
            in->init[in->threads[t].base + 2 + r] = (int32_t)th->reg_init[r];
        proto_local_steps(in, in->init, t);
    }
    for (int c = 0; c < p->nctrls; c++) {
        const pctrl_info *ci = &in->ctrls[c];
        for (int i = 0; i < ci->ninst; i++)
            for (int a = 0; a < in->naddr; a++)
                for (int f = 0; f < p->ctrls[c].nfields; f++)
                    if (p->ctrls[c].field_memory[f])
                        in->init[ci->base + i * ci->inst_slots + a * ci->line_slots + ci->field_off[f]] =
                            (int32_t)in->t->locs[a].init;
    }
}

proto_instance *proto_instantiate(const protocol *p, const litmus_test *t,
                                  const proto_options *o, FILE *errors)
{
    proto_instance *in = GC_MALLOC(sizeof *in);
    in->p = p;
    in->t = t;
    if (!proto_layout(in, o, errors))
        return NULL;
    initial_values(in);
    proto_init_model(in);
    return in;
}
