/* protocol/runnable.c: see protocol/runnable.h. */
#include "protocol/runnable.h"

static bool instr_runnable(const lit_instr *in)
{
    return !in->single_event && in->order != ORD_CONSUME && in->order_fail != ORD_CONSUME;
}

bool proto_test_runnable(const litmus_test *t, const char *path, FILE *err)
{
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].ninstrs; k++) {
            const lit_instr *in = &t->threads[i].instrs[k];
            if (!instr_runnable(in)) {
                fprintf(err, "%s:%d:%d: error: verify does not run C read-modify-writes or "
                        "memory_order_consume yet (scopecheck litmus checks them)\n", path, in->line, in->col);
                return false;
            }
        }
    return true;
}
