/*
 * litmus/opencl/code.c: the code buffer of the OpenCL front end: instructions,
 * labels, source text stamps, temporaries and the names in scope.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus/lex.h"
#include "litmus/opencl/internal.h"
#include "litmus/litmus.h"

/* ---- code buffer ---------------------------------------------------------- */

int ocl_new_label(oparser *p)
{
    void *v = p->labels;
    if (!ocl_grow(&v, p->nlabels, &p->caplabels, sizeof *p->labels))
        return -1;
    p->labels = v;
    p->labels[p->nlabels] = -1;
    return p->nlabels++;
}

void ocl_place_label(oparser *p, int l)
{
    if (l >= 0)
        p->labels[l] = p->ncode;
}

lit_instr *ocl_emit(oparser *p, enum lit_opcode op, int line, int col)
{
    void *v = p->code;
    if (!ocl_grow(&v, p->ncode, &p->capcode, sizeof *p->code)) {
        lex_error(LX, line, col, "out of memory");
        return NULL;
    }
    p->code = v;
    lit_instr *in = &p->code[p->ncode++];
    memset(in, 0, sizeof *in);
    in->op = op;
    in->dst = -1;
    in->loc = -1;
    in->target = -1;
    in->a.reg = in->b.reg = -1;
    in->line = line;
    in->col = col;
    return in;
}

bool ocl_note_unsequenced(oparser *p, int a0, int a1, int b1)
{
    if (a0 == a1 || a1 == b1) /* an operand without instructions makes no event */
        return true;
    void *v = p->unseq;
    if (!ocl_grow(&v, p->nunseq, &p->capunseq, sizeof *p->unseq))
        return false;
    p->unseq = v;
    p->unseq[p->nunseq++] = (lit_unseq){a0, a1, b1};
    return true;
}

void ocl_finish_unsequenced(oparser *p, lit_thread *th)
{
    th->nunseq = p->nunseq;
    th->unseq = p->unseq;
    p->unseq = NULL;
    p->nunseq = p->capunseq = 0;
}

/* ---- instructions of one shape ---------------------------------------------- */

lit_instr *ocl_emit_mov(oparser *p, int dst, lit_operand a, int line, int col)
{
    lit_instr *in = ocl_emit(p, OP_MOV, line, col);
    if (in) {
        in->dst = dst;
        in->a = a;
    }
    return in;
}

lit_instr *ocl_emit_alu(oparser *p, enum lit_alu_op op, int dst, lit_operand a, lit_operand b, int line,
                        int col)
{
    lit_instr *in = ocl_emit(p, OP_ALU, line, col);
    if (in) {
        in->alu_op = op;
        in->dst = dst;
        in->a = a;
        in->b = b;
    }
    return in;
}

lit_instr *ocl_emit_goto(oparser *p, int label, int line, int col)
{
    lit_instr *in = ocl_emit(p, OP_GOTO, line, col);
    if (in)
        in->target = label;
    return in;
}

lit_instr *ocl_emit_branch(oparser *p, enum lit_cmp cmp, lit_operand a, lit_operand b, int label, int line,
                           int col)
{
    lit_instr *in = ocl_emit(p, OP_BRANCH, line, col);
    if (in) {
        in->cmp = cmp;
        in->a = a;
        in->b = b;
        in->target = label;
    }
    return in;
}

/* Plain accesses are OpenCL's non-atomic ones: weak, with no scope. */
lit_instr *ocl_emit_plain_load(oparser *p, int dst, int loc, int line, int col)
{
    lit_instr *in = ocl_emit(p, OP_LOAD, line, col);
    if (in) {
        in->dst = dst;
        in->loc = loc;
        in->order = ORD_WEAK;
        in->scope = SCOPE_NONE;
    }
    return in;
}

lit_instr *ocl_emit_plain_store(oparser *p, int loc, lit_operand a, int line, int col)
{
    lit_instr *in = ocl_emit(p, OP_STORE, line, col);
    if (in) {
        in->loc = loc;
        in->a = a;
        in->order = ORD_WEAK;
        in->scope = SCOPE_NONE;
    }
    return in;
}

/* Give instructions from `from` on that have no text yet the source slice
 * [s, e) and its position. */
void ocl_stamp(oparser *p, int from, const char *s, const char *e, int line, int col)
{
    const char *text = NULL;
    for (int i = from; i < p->ncode; i++) {
        if (p->code[i].text)
            continue;
        if (!text) {
            char *buf = lex_strndup(s, (size_t)(e - s));
            /* one line: newlines and tabs become spaces */
            for (char *c = buf; *c; c++)
                if (*c == '\n' || *c == '\r' || *c == '\t')
                    *c = ' ';
            text = buf;
        }
        p->code[i].text = text;
        p->code[i].line = line;
        p->code[i].col = col;
    }
}

int ocl_new_temp(oparser *p)
{
    char buf[32];
    snprintf(buf, sizeof buf, "t.%d", p->ntemps++);
    return litmus_add_reg(p->th, lex_strndup(buf, strlen(buf)), 0);
}

bool ocl_declare(oparser *p, const char *name)
{
    const char **d = ocl_append(p->decl, p->ndecl, sizeof *p->decl);
    if (!d)
        return false;
    p->decl = d;
    p->decl[p->ndecl++] = name;
    return true;
}

int ocl_local_index(oparser *p, const char *name)
{
    for (int i = 0; i < p->ndecl; i++)
        if (strcmp(p->decl[i], name) == 0)
            return litmus_reg_index(p->th, name);
    return -1;
}

int ocl_param_loc(oparser *p, const char *name)
{
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, name) == 0)
            return p->params[i].loc;
    return -1;
}

int ocl_location_named(oparser *p, const char *name)
{
    if (ocl_local_index(p, name) >= 0)
        return -1;
    int l = ocl_param_loc(p, name);
    if (l >= 0 || !p->herd)
        return l;
    /* herd's format: a name no parameter declares is a location of the
     * test all the same (CT_wsq2 spells oldhead_p two ways), in no region
     * and, unless the init block gives one, with no initial value: herd
     * finds no execution in which it is read before it is written */
    l = litmus_loc_index(p->t, name);
    if (l < 0) {
        l = litmus_add_loc(p->t, name, LIT_NO_VALUE);
        p->t->locs[l].region = REGION_NONE;
    }
    return l;
}

/* A variable of the same name hides the parameter, as in C. */
int ocl_deref_loc(oparser *p, const char *name, int line, int col)
{
    int loc = ocl_location_named(p, name);
    if (loc < 0)
        lex_error(LX, line, col, "undeclared location '%s' (not a parameter of thread %s)", name,
                  p->th->name);
    return loc;
}

