/* protocol/instance.c: proto_instantiate, a protocol bound to a litmus test (see
 * protocol.h): the layout (layout.c), then the initial state, whose
 * threads run their local steps in the interpreter (interp.c).  This is the
 * one module that uses both, so that the layout never depends on the
 * interpreter. */
#include <gc.h>

#include "base/diag.h"
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
    for (int a = 0; a < in->naddr; a++)
        if (proto_scratchpad_slot(in, a) >= 0)
            in->init[proto_scratchpad_slot(in, a)] = (int32_t)in->t->locs[a].init;
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

/* Every home must have a value for every location of the test, and the
 * memory's home must name one of the memory controller's instances: a
 * home that divides by zero would otherwise only disable the rows that
 * use it, and the search would report a deadlock for a mistake in the
 * file. */
static bool homes_ok(const proto_instance *in, FILE *errors)
{
    const protocol *p = in->p;
    for (int h = 0; h < p->nhomes; h++)
        for (int a = 0; a < in->naddr; a++) {
            long x;
            const ppos *at = &p->homes[h].at;
            if (!proto_home_value(in, h, a, &x)) {
                diag_error(errors, at->path, at->line, at->col,
                           "home %s of location %s (address %d) divides by zero or overflows", p->homes[h].name,
                           in->t->locs[a].name, a);
                return false;
            }
            int n = in->ctrls[p->mem_ctrl].ninst;
            if (h == p->mem_home && (x < 0 || x >= n)) {
                diag_error(errors, at->path, at->line, at->col,
                           "home %s of location %s (address %d) is %ld, but memory controller %s has "
                           "instances 0..%d only", p->homes[h].name, in->t->locs[a].name, a, x,
                           p->ctrls[p->mem_ctrl].name, n - 1);
                return false;
            }
        }
    return true;
}

proto_instance *proto_instantiate(const protocol *p, const litmus_test *t,
                                  const proto_options *o, FILE *errors)
{
    proto_instance *in = GC_MALLOC(sizeof *in);
    in->p = p;
    in->t = t;
    if (!proto_layout(in, o, errors))
        return NULL;
    in->code = proto_compile(in);
    initial_values(in);
    proto_init_model(in);
    if (in->nrules > NSI_MAX_RULES) {
        const ppos *at = &p->decl_at;
        diag_error(errors, at->path, at->line, at->col,
                   "protocol %s on %s has %d event sources (threads, channel slots, internal events "
                   "of each line), more than %d", p->name, t->file, in->nrules, NSI_MAX_RULES);
        return NULL;
    }
    return homes_ok(in, errors) ? in : NULL;
}
