/*
 * litmus_opencl_code.c: the code buffer of the OpenCL front end: instructions,
 * labels, source text stamps, temporaries and the names in scope.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus_lex.h"
#include "litmus_opencl_impl.h"
#include "litmus_read.h"

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

