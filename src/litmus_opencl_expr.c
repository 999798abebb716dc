/*
 * litmus_opencl_expr.c: OpenCL expressions: parsed into a small tree, then
 * compiled into values, registers and conditional jumps.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus_lex.h"
#include "litmus_opencl_impl.h"
#include "litmus_read.h"

/* ---- expressions ----------------------------------------------------------- */

static node *new_node(enum node_kind k, int line, int col)
{
    node *n = GC_MALLOC(sizeof *n);
    n->kind = k;
    n->line = line;
    n->col = col;
    return n;
}

static node *parse_expr_prec(oparser *p, int minprec);

/* The binary operator at the current token: its precedence (0 if none) and
 * how many tokens it spans. */
static int peek_binop(oparser *p, enum binop *op, int *ntoks)
{
    *ntoks = 1;
    if (TOK.kind != TOK_PUNCT)
        return 0;
    int next = char_after(p);
    if (lex_tok_eq(&TOK, "|")) {
        if (next == '|') { *op = B_LOR; *ntoks = 2; return 1; }
        *op = B_OR; return 3;
    }
    if (lex_tok_eq(&TOK, "&")) {
        if (next == '&') { *op = B_LAND; *ntoks = 2; return 2; }
        *op = B_AND; return 4;
    }
    if (lex_tok_eq(&TOK, "==")) { *op = B_EQ; return 5; }
    if (lex_tok_eq(&TOK, "!=")) { *op = B_NE; return 5; }
    if (lex_tok_eq(&TOK, "<")) {
        if (next == '=') { *op = B_LE; *ntoks = 2; return 6; }
        *op = B_LT; return 6;
    }
    if (lex_tok_eq(&TOK, ">")) {
        if (next == '=') { *op = B_GE; *ntoks = 2; return 6; }
        *op = B_GT; return 6;
    }
    if (lex_tok_eq(&TOK, "+") && next != '+' && next != '=') { *op = B_ADD; return 7; }
    if (lex_tok_eq(&TOK, "-") && next != '-' && next != '=') { *op = B_SUB; return 7; }
    if (lex_tok_eq(&TOK, "*")) { *op = B_MUL; return 8; }
    return 0;
}

static node *parse_primary(oparser *p)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, TOK.line, TOK.col, "expression nested too deeply");
        return NULL;
    }
    lex_token tok = TOK;
    node *n = NULL;
    if (tok.kind == TOK_NUMBER) {
        n = new_node(N_NUM, tok.line, tok.col);
        n->num = tok.num;
        lex_advance(LX);
    } else if (lex_is_punct(&tok, "(")) {
        lex_advance(LX);
        n = parse_expr_prec(p, 1);
        if (n && !lex_is_punct(&TOK, ")")) {
            if (TOK.kind != TOK_ERROR)
                lex_error(LX, TOK.line, TOK.col, "expected ')' to close '(' at %d:%d, got %s",
                          tok.line, tok.col, lex_describe(&TOK));
            n = NULL;
        }
        if (n)
            lex_advance(LX);
    } else if (lex_is_punct(&tok, "!") || lex_is_punct(&tok, "-") || lex_is_punct(&tok, "+")) {
        lex_advance(LX);
        node *inner = parse_primary(p);
        if (inner) {
            if (lex_is_punct(&tok, "+")) {
                n = inner;
            } else if (lex_is_punct(&tok, "-") && inner->kind == N_NUM) {
                n = inner;
                n->num = -n->num;
                n->line = tok.line;
                n->col = tok.col;
            } else {
                n = new_node(lex_is_punct(&tok, "!") ? N_NOT : N_NEG, tok.line, tok.col);
                n->l = inner;
            }
        }
    } else if (lex_is_punct(&tok, "*") || lex_is_punct(&tok, "&")) {
        lex_advance(LX);
        if (TOK.kind != TOK_IDENT) {
            ocl_expected(p, lex_is_punct(&tok, "*") ? "a location name after '*'"
                                                : "a variable name after '&'");
            return NULL;
        }
        n = new_node(lex_is_punct(&tok, "*") ? N_DEREF : N_ADDR, tok.line, tok.col);
        n->name = lex_tok_str(&TOK);
        lex_advance(LX);
    } else if (tok.kind == TOK_IDENT) {
        lex_advance(LX);
        if (lex_is_punct(&TOK, "(")) {
            n = new_node(N_CALL, tok.line, tok.col);
            n->name = lex_tok_str(&tok);
            lex_advance(LX);
            if (!lex_is_punct(&TOK, ")")) {
                for (;;) {
                    if (n->nargs == MAX_ARGS) {
                        lex_error(LX, TOK.line, TOK.col, "too many arguments to '%s'", n->name);
                        return NULL;
                    }
                    node *a = parse_expr_prec(p, 1);
                    if (!a)
                        return NULL;
                    n->args[n->nargs++] = a;
                    if (lex_is_punct(&TOK, ")"))
                        break;
                    if (!lex_is_punct(&TOK, ",")) {
                        ocl_expected(p, "',' or ')' in the argument list");
                        return NULL;
                    }
                    lex_advance(LX);
                }
            }
            lex_advance(LX);
        } else {
            n = new_node(N_VAR, tok.line, tok.col);
            n->name = lex_tok_str(&tok);
        }
    } else {
        ocl_expected(p, "an expression");
    }
    p->depth--;
    return n;
}

static node *parse_expr_prec(oparser *p, int minprec)
{
    node *l = parse_primary(p);
    for (;;) {
        enum binop op;
        int ntoks;
        if (!l)
            return NULL;
        int prec = peek_binop(p, &op, &ntoks);
        if (prec == 0 || prec < minprec)
            return l;
        lex_token optok = TOK;
        for (int i = 0; i < ntoks; i++)
            lex_advance(LX);
        node *r = parse_expr_prec(p, prec + 1);
        if (!r)
            return NULL;
        node *b = new_node(N_BIN, optok.line, optok.col);
        b->op = op;
        b->l = l;
        b->r = r;
        l = b;
    }
}

node *ocl_parse_expr(oparser *p)
{
    return parse_expr_prec(p, 1);
}

/* ---- compiling expressions --------------------------------------------------- */

static bool is_compare(const node *e)
{
    return e->kind == N_NOT ||
           (e->kind == N_BIN && (e->op == B_EQ || e->op == B_NE || e->op == B_LT || e->op == B_GT ||
                                 e->op == B_LE || e->op == B_GE || e->op == B_LAND || e->op == B_LOR));
}

bool ocl_gen_value(oparser *p, node *e, lit_operand *out)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, e->line, e->col, "expression nested too deeply");
        return false;
    }
    bool ok = true;
    switch (e->kind) {
    case N_NUM:
        *out = imm(e->num);
        break;
    case N_VAR: {
        int r = ocl_local_index(p, e->name);
        if (r >= 0) {
            *out = regop(r);
        } else if (ocl_param_loc(p, e->name) >= 0) {
            lex_error(LX, e->line, e->col, "location '%s' used as a value (read it with *%s or atomic_load)",
                      e->name, e->name);
            ok = false;
        } else {
            lex_error(LX, e->line, e->col, "undeclared variable '%s' in thread %s", e->name, p->th->name);
            ok = false;
        }
        break;
    }
    case N_ADDR:
        lex_error(LX, e->line, e->col, "'&%s' is only allowed as the expected argument of a "
                  "compare-exchange", e->name);
        ok = false;
        break;
    default: {
        int t = ocl_new_temp(p);
        ok = ocl_gen_into(p, e, t);
        *out = regop(t);
        break;
    }
    }
    p->depth--;
    return ok;
}

/* Compile e so that its value ends up in register dst. */
bool ocl_gen_into(oparser *p, node *e, int dst)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, e->line, e->col, "expression nested too deeply");
        return false;
    }
    bool ok = true;
    if (e->kind == N_CALL) {
        ok = ocl_gen_call(p, e, dst);
    } else if (e->kind == N_DEREF) {
        int loc = ocl_local_index(p, e->name) >= 0 ? -1 : ocl_param_loc(p, e->name);
        if (loc < 0) {
            lex_error(LX, e->line, e->col, "undeclared location '%s' (not a parameter of thread %s)",
                      e->name, p->th->name);
            ok = false;
        } else {
            lit_instr *in = ocl_emit(p, OP_LOAD, e->line, e->col);
            ok = in != NULL;
            if (in) {
                in->dst = dst;
                in->loc = loc;
                in->order = ORD_WEAK;
                in->scope = SCOPE_NONE;
            }
        }
    } else if (is_compare(e)) {
        /* dst = 1; if (e) goto end; dst = 0; end: */
        int end = ocl_new_label(p);
        lit_instr *one = ocl_emit(p, OP_MOV, e->line, e->col);
        ok = end >= 0 && one;
        if (ok) {
            one->dst = dst;
            one->a = imm(1);
            int tmp = ocl_new_temp(p);
            /* compute into a temporary first: e may read dst */
            one->dst = tmp;
            ok = ocl_gen_cond(p, e, true, end);
            lit_instr *zero = ok ? ocl_emit(p, OP_MOV, e->line, e->col) : NULL;
            ok = ok && zero;
            if (ok) {
                zero->dst = tmp;
                zero->a = imm(0);
                ocl_place_label(p, end);
                lit_instr *mv = ocl_emit(p, OP_MOV, e->line, e->col);
                ok = mv != NULL;
                if (mv) {
                    mv->dst = dst;
                    mv->a = regop(tmp);
                }
            }
        }
    } else if (e->kind == N_BIN || e->kind == N_NEG) {
        lit_operand a, b;
        enum lit_alu_op aop = ALU_ADD;
        if (e->kind == N_NEG) {
            a = imm(0);
            ok = ocl_gen_value(p, e->l, &b);
            aop = ALU_SUB;
        } else {
            switch (e->op) {
            case B_ADD: aop = ALU_ADD; break;
            case B_SUB: aop = ALU_SUB; break;
            case B_MUL: aop = ALU_MUL; break;
            case B_AND: aop = ALU_AND; break;
            default: aop = ALU_OR; break;
            }
            ok = ocl_gen_value(p, e->l, &a) && ocl_gen_value(p, e->r, &b);
        }
        lit_instr *in = ok ? ocl_emit(p, OP_ALU, e->line, e->col) : NULL;
        ok = ok && in;
        if (ok) {
            in->alu_op = aop;
            in->dst = dst;
            in->a = a;
            in->b = b;
        }
    } else {
        lit_operand v;
        ok = ocl_gen_value(p, e, &v);
        lit_instr *in = ok ? ocl_emit(p, OP_MOV, e->line, e->col) : NULL;
        ok = ok && in;
        if (ok) {
            in->dst = dst;
            in->a = v;
        }
    }
    p->depth--;
    return ok;
}

/* Jump to `label` when the truth of e equals jump_if; fall through otherwise. */
bool ocl_gen_cond(oparser *p, node *e, bool jump_if, int label)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, e->line, e->col, "condition nested too deeply");
        return false;
    }
    bool ok = true;
    if (e->kind == N_NOT) {
        ok = ocl_gen_cond(p, e->l, !jump_if, label);
    } else if (e->kind == N_BIN && (e->op == B_LAND || e->op == B_LOR)) {
        bool and = e->op == B_LAND;
        if (and == jump_if) {
            /* and, jump if true / or, jump if false: both must agree */
            int skip = ocl_new_label(p);
            ok = skip >= 0 && ocl_gen_cond(p, e->l, !jump_if, skip) && ocl_gen_cond(p, e->r, jump_if, label);
            ocl_place_label(p, skip);
        } else {
            ok = ocl_gen_cond(p, e->l, jump_if, label) && ocl_gen_cond(p, e->r, jump_if, label);
        }
    } else if (e->kind == N_BIN && (e->op == B_LT || e->op == B_GT || e->op == B_LE || e->op == B_GE)) {
        lex_error(LX, e->line, e->col, "ordered comparisons (<, >, <=, >=) are not supported; "
                  "use == or !=");
        ok = false;
    } else {
        lit_operand a, b;
        enum lit_cmp cmp;
        if (e->kind == N_BIN && (e->op == B_EQ || e->op == B_NE)) {
            ok = ocl_gen_value(p, e->l, &a) && ocl_gen_value(p, e->r, &b);
            cmp = (e->op == B_EQ) == jump_if ? CMP_EQ : CMP_NE;
        } else {
            ok = ocl_gen_value(p, e, &a);
            b = imm(0);
            cmp = jump_if ? CMP_NE : CMP_EQ;
        }
        lit_instr *in = ok ? ocl_emit(p, OP_BRANCH, e->line, e->col) : NULL;
        ok = ok && in;
        if (ok) {
            in->cmp = cmp;
            in->a = a;
            in->b = b;
            in->target = label;
        }
    }
    p->depth--;
    return ok;
}

