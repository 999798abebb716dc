/* sim/expr_text.c: expressions and bounds as text (see sim/expr_text.h). */
#include "sim/expr_text.h"

typedef struct text_ctx { FILE *to; const sim_tables *t; const sim_ctrl *c; const sim_msg *m; } text_ctx;

static void text(const text_ctx *x, const sim_expr *e, bool nested);

static void storage_name(const text_ctx *x, bool on_line, int idx)
{
    if (!x->c || idx < 0)
        fputs("?", x->to);
    else if (on_line)
        fprintf(x->to, "line.%s", x->c->fields[idx].name);
    else
        fputs(x->c->vars[idx].name, x->to);
}

static void call(const text_ctx *x, const char *name, const sim_expr *e)
{
    fprintf(x->to, "%s(", name);
    storage_name(x, e->on_line, e->idx);
    if (e->r) {
        fputs(", ", x->to);
        text(x, e->r, false);
    }
    fputc(')', x->to);
}

static void operation(const text_ctx *x, const sim_expr *e, bool nested)
{
    if (nested)
        fputc('(', x->to);
    text(x, e->l, true);
    if (e->kind == SX_BIN) {
        fprintf(x->to, " %s ", vocab_expr_ops[e->op]);
        text(x, e->r, true);
    } else {
        fputs(" ? ", x->to);
        text(x, e->r, true);
        fputs(" : ", x->to);
        text(x, e->r2, true);
    }
    if (nested)
        fputc(')', x->to);
}

static void text(const text_ctx *x, const sim_expr *e, bool nested)
{
    static const char *const leaves[] = {[SX_ADDR] = "addr", [SX_VALUE] = "value", [SX_STATE] = "state",
                                         [SX_CU] = "cu", [SX_GPU] = "gpu", [SX_ORDER] = "order", [SX_TID] = "tid"};
    if (!e) {
        fputs("true", x->to);
        return;
    }
    switch (e->kind) {
    case SX_NUM: fprintf(x->to, "%ld", e->num); return;
    case SX_CONST: fputs(x->t->const_names[e->idx], x->to); return;
    case SX_VAR:
    case SX_FIELD: storage_name(x, e->kind == SX_FIELD, e->idx); return;
    case SX_MSG:
        if (x->m && e->idx < x->m->nfields)
            fprintf(x->to, "msg.%s", x->m->fields[e->idx]);
        else
            fprintf(x->to, "msg[%d]", e->idx);
        return;
    case SX_NOT:
    case SX_NEG:
        fputc(e->kind == SX_NOT ? '!' : '-', x->to);
        text(x, e->l, true);
        return;
    case SX_BIN:
    case SX_COND: operation(x, e, nested); return;
    case SX_RMW: fputs("rmw(", x->to); text(x, e->l, false); fputs(")", x->to); return;
    case SX_INDEX:
        storage_name(x, e->on_line, e->idx);
        fputc('[', x->to);
        text(x, e->r, false);
        fputc(']', x->to);
        return;
    case SX_LEN: call(x, "len", e); return;
    case SX_HAS: call(x, "has", e); return;
    case SX_LAST: call(x, "last", e); return;
    case SX_HOME:
        fprintf(x->to, "%s(", e->idx >= 0 ? x->t->homes[e->idx].name : "?");
        text(x, e->r, false);
        fputc(')', x->to);
        return;
    default: fputs(e->kind < sizeof leaves / sizeof *leaves && leaves[e->kind] ? leaves[e->kind] : "?", x->to);
    }
}

void sim_expr_text(FILE *to, const sim_tables *t, const sim_ctrl *ctrl, const sim_msg *msg, const sim_expr *e)
{
    text_ctx x = {to, t, ctrl, msg};
    text(&x, e, false);
}

void sim_bound_text(FILE *to, const sim_tables *t, sim_bound b)
{
    if (b.cst < 0) {
        fprintf(to, "%ld", b.num);
        return;
    }
    if (b.times != 1)
        fprintf(to, "%ld * ", b.times);
    fputs(t->const_names[b.cst], to);
    if (b.num)
        fprintf(to, " %c %ld", b.num < 0 ? '-' : '+', b.num < 0 ? -b.num : b.num);
}
