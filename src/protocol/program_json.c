/* protocol/program_json.c: a litmus program as JSON (see protocol/program_json.h).
 * Every name is base/vocab.h's, the words scopesim reads back. */
#include "protocol/program_json.h"

static json_t *operand_json(lit_operand o)
{
    if (o.kind == OPND_REG)
        return json_pack("{s:i}", "reg", o.reg);
    if (o.kind == OPND_IMM)
        return json_pack("{s:I}", "imm", (json_int_t)o.imm);
    return json_null();
}

static json_t *instr_json(const lit_instr *in)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:o, s:o}", "op", vocab_opcodes[in->op], "order",
                          vocab_orders[in->order], "scope", vocab_scopes[in->scope], "dst", in->dst, "loc", in->loc,
                          "a", operand_json(in->a), "b", operand_json(in->b));
    if (in->op == OP_RMW || in->op == OP_RED)
        json_object_set_new(o, "rmw", json_string(vocab_rmw_ops[in->rmw_op]));
    if (in->op == OP_ALU)
        json_object_set_new(o, "alu", json_string(vocab_alu_ops[in->alu_op]));
    if (in->op == OP_BRANCH)
        json_object_set_new(o, "cmp", json_string(vocab_cmps[in->cmp]));
    if (in->op == OP_BRANCH || in->op == OP_GOTO)
        json_object_set_new(o, "target", json_integer(in->target));
    if (in->op == OP_BARRIER)
        json_object_set_new(o, "waits", json_boolean(in->barrier_waits));
    if (in->remote)     /* a remote-scope-promotion form; written only then, so older programs read the same */
        json_object_set_new(o, "remote", json_true());
    return o;
}

static json_t *thread_json(const lit_thread *th)
{
    json_t *regs = json_array(), *instrs = json_array();
    for (int r = 0; r < th->nregs; r++)
        json_array_append_new(regs, json_pack("{s:s, s:I}", "name", th->reg_names[r], "init",
                                              (json_int_t)(th->reg_init ? th->reg_init[r] : 0)));
    for (int i = 0; i < th->ninstrs; i++)
        json_array_append_new(instrs, instr_json(&th->instrs[i]));
    return json_pack("{s:s, s:i, s:i, s:o, s:o}", "name", th->name, "cta", th->cta, "gpu", th->gpu, "registers",
                     regs, "instrs", instrs);
}

json_t *program_json(const litmus_test *t)
{
    json_t *locs = json_array(), *threads = json_array();
    for (int l = 0; l < t->nlocs; l++)
        json_array_append_new(locs, json_pack("{s:s, s:I}", "name", t->locs[l].name, "init", (json_int_t)t->locs[l].init));
    for (int k = 0; k < t->nthreads; k++)
        json_array_append_new(threads, thread_json(&t->threads[k]));
    return json_pack("{s:o, s:o}", "locations", locs, "threads", threads);
}
