/* protocol/expr_text.c: an expression of the table language written back
 * as text (see protocol/internal.h), for explanations such as "the guard
 * acks == 0 is false (acks = 1)".  Parentheses only where precedence needs
 * them; state and order names where a comparison with `state` or `order`
 * holds a number. */
#include "protocol/internal.h"

const int proto_op_prec[] = {
    [OPX_OR] = 1, [OPX_AND] = 2, [OPX_EQ] = 3, [OPX_NE] = 3, [OPX_LT] = 3, [OPX_LE] = 3,
    [OPX_GT] = 3, [OPX_GE] = 3, [OPX_ADD] = 4, [OPX_SUB] = 4, [OPX_MUL] = 5, [OPX_DIV] = 5, [OPX_MOD] = 5,
};
_Static_assert(sizeof proto_op_prec / sizeof proto_op_prec[0] == EXPR_NOPS, "a precedence per operator");

typedef struct printer {
    const protocol *p;
    const pctrl *ctrl;     /* NULL: no controller in scope */
    const pmsg *msg;       /* NULL: no message in scope */
    textbuf *b;
    int depth;             /* nesting so far: deeper text is cut, never recursed into */
} printer;

#define MAX_PRINT_DEPTH 64

static void print(printer *pr, const pexpr *e, int min_prec);

/* A number on the other side of `state` or `order` is a name. */
static void print_number(printer *pr, const pexpr *e, const pexpr *other)
{
    if (other && other->kind == EX_STATE && pr->ctrl && e->num >= 0 && e->num < pr->ctrl->nstates)
        tb_puts(pr->b, pr->ctrl->states[e->num]);
    else if (other && other->kind == EX_ORDER && e->num >= 0 && e->num < LIT_NPROTOCOL_ORDERS)
        tb_puts(pr->b, vocab_orders[e->num]);
    else
        tb_printf(pr->b, "%ld", e->num);
}

static void print_side(printer *pr, const pexpr *e, const pexpr *other, int prec)
{
    if (e->kind == EX_NUM)
        print_number(pr, e, other);
    else
        print(pr, e, prec);
}

static void print_binary(printer *pr, const pexpr *e, int min_prec)
{
    int prec = proto_op_prec[e->op];
    bool paren = prec < min_prec;
    if (paren)
        tb_puts(pr->b, "(");
    print_side(pr, e->l, e->r, prec);
    tb_printf(pr->b, " %s ", vocab_expr_ops[e->op]);
    print_side(pr, e->r, e->l, prec + 1);
    if (paren)
        tb_puts(pr->b, ")");
}

/* A chain (internal.h) is its operators folded from the left, their
 * precedence never rising along it (the parser puts tighter operators
 * inside the terms), so no link needs parentheses but the chain as a
 * whole: the same text print_binary gives for the nested form, by a loop. */
static void print_chain(printer *pr, const pexpr *e, int min_prec)
{
    int last = e->nterms - 2;
    bool paren = proto_op_prec[e->ops[last]] < min_prec;
    if (paren)
        tb_puts(pr->b, "(");
    print_side(pr, e->terms[0], e->terms[1], proto_op_prec[e->ops[0]]);
    for (int i = 1; i < e->nterms; i++) {
        tb_printf(pr->b, " %s ", vocab_expr_ops[e->ops[i - 1]]);
        print_side(pr, e->terms[i], i == 1 ? e->terms[0] : NULL, proto_op_prec[e->ops[i - 1]] + 1);
    }
    if (paren)
        tb_puts(pr->b, ")");
}

static const char *var_name(printer *pr, int idx)
{
    return pr->ctrl && idx >= 0 && idx < pr->ctrl->nvars ? pr->ctrl->vars[idx] : "?";
}

static const char *field_name(printer *pr, int idx)
{
    return pr->ctrl && idx >= 0 && idx < pr->ctrl->nfields ? pr->ctrl->fields[idx] : "?";
}

static void print_call(printer *pr, const char *name, const pexpr *a, const pexpr *b2, const pexpr *c)
{
    tb_printf(pr->b, "%s(", name);
    print(pr, a, 1);
    if (b2) {
        tb_puts(pr->b, ", ");
        print(pr, b2, 1);
    }
    if (c) {
        tb_puts(pr->b, ", ");
        print(pr, c, 1);
    }
    tb_puts(pr->b, ")");
}

static void print_node(printer *pr, const pexpr *e, int min_prec);

static void print(printer *pr, const pexpr *e, int min_prec)
{
    if (pr->depth >= MAX_PRINT_DEPTH) {
        tb_puts(pr->b, "...");
        return;
    }
    pr->depth++;
    print_node(pr, e, min_prec);
    pr->depth--;
}

static void print_node(printer *pr, const pexpr *e, int min_prec)
{
    textbuf *b = pr->b;
    switch (e->kind) {
    case EX_NUM: tb_printf(b, "%ld", e->num); break;
    case EX_CONST: tb_puts(b, e->idx >= 0 && e->idx < pr->p->nconsts ? pr->p->const_names[e->idx] : "?"); break;
    case EX_VAR: tb_puts(b, var_name(pr, e->idx)); break;
    case EX_LINEF: tb_printf(b, "line.%s", field_name(pr, e->idx)); break;
    case EX_MSGF:
        tb_printf(b, "msg.%s", pr->msg && e->idx >= 0 && e->idx < pr->msg->nfields ? pr->msg->fields[e->idx] : "?");
        break;
    case EX_ADDR: tb_puts(b, "addr"); break;
    case EX_VALUE: tb_puts(b, "value"); break;
    case EX_STATE: tb_puts(b, "state"); break;
    case EX_CU: tb_puts(b, "cu"); break;
    case EX_GPU: tb_puts(b, "gpu"); break;
    case EX_TID: tb_puts(b, "tid"); break;
    case EX_ORDER: tb_puts(b, "order"); break;
    case EX_BIN: print_binary(pr, e, min_prec); break;
    case EX_CHAIN: print_chain(pr, e, min_prec); break;
    case EX_NOT:
    case EX_NEG:
        tb_puts(b, e->kind == EX_NOT ? "!" : "-");
        print(pr, e->l, 6);
        break;
    case EX_RMW: print_call(pr, "rmw", e->l, e->r, NULL); break;
    case EX_INDEX:
        print(pr, e->l, 6);
        tb_puts(b, "[");
        print(pr, e->r, 1);
        tb_puts(b, "]");
        break;
    case EX_LEN: print_call(pr, "len", e->l, NULL, NULL); break;
    case EX_HAS: print_call(pr, "has", e->l, e->r, NULL); break;
    case EX_LAST: print_call(pr, "last", e->l, e->r, NULL); break;
    case EX_HOME:
        print_call(pr, e->idx >= 0 && e->idx < pr->p->nhomes ? pr->p->homes[e->idx].name : "?", e->r, NULL, NULL);
        break;
    case EX_COND: print_call(pr, "cond", e->l, e->r, e->r2); break;
    }
}

void proto_expr_text(const protocol *p, int ctrl, int msg, const pexpr *e, textbuf *b)
{
    printer pr = {p, ctrl >= 0 && ctrl < p->nctrls ? &p->ctrls[ctrl] : NULL,
                  msg >= 0 && msg < p->nmsgs ? &p->msgs[msg] : NULL, b, 0};
    if (e)
        print(&pr, e, 1);
    else
        tb_puts(b, "true");
}
