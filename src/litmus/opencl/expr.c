/*
 * litmus/opencl/expr.c: OpenCL expressions: parsed into a small tree, then
 * compiled into values, registers and conditional jumps.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus/lex.h"
#include "litmus/opencl/internal.h"
#include "litmus/litmus.h"

/* ---- expressions ----------------------------------------------------------- */

static node *new_node(enum node_kind k, int line, int col)
{
    node *n = GC_MALLOC(sizeof *n);
    n->kind = k;
    n->fixed = -1;
    n->line = line;
    n->col = col;
    return n;
}

static node *parse_expr_prec(oparser *p, int minprec);
static node *parse_primary(oparser *p);

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
    if (lex_tok_eq(&TOK, "^")) { *op = B_XOR; return 4; }
    if (lex_tok_eq(&TOK, "&")) {
        if (next == '&') { *op = B_LAND; *ntoks = 2; return 2; }
        *op = B_AND; return 5;
    }
    if (lex_tok_eq(&TOK, "==")) { *op = B_EQ; return 6; }
    if (lex_tok_eq(&TOK, "!=")) { *op = B_NE; return 6; }
    if (lex_tok_eq(&TOK, "<")) {
        if (next == '=') { *op = B_LE; *ntoks = 2; return 7; }
        *op = B_LT; return 7;
    }
    if (lex_tok_eq(&TOK, ">")) {
        if (next == '=') { *op = B_GE; *ntoks = 2; return 7; }
        *op = B_GT; return 7;
    }
    if (lex_tok_eq(&TOK, "+") && next != '+' && next != '=') { *op = B_ADD; return 8; }
    if (lex_tok_eq(&TOK, "-") && next != '-' && next != '=') { *op = B_SUB; return 8; }
    if (lex_tok_eq(&TOK, "*")) { *op = B_MUL; return 9; }
    return 0;
}

/* A number. */
static node *parse_number(oparser *p)
{
    node *n = new_node(N_NUM, TOK.line, TOK.col);
    n->num = TOK.num;
    lex_advance(LX);
    return n;
}

/* ( e ) */
static node *parse_paren(oparser *p)
{
    lex_token open = TOK;
    lex_advance(LX);
    node *n = parse_expr_prec(p, 1);
    if (!n)
        return NULL;
    if (!lex_is_punct(&TOK, ")")) {
        if (TOK.kind != TOK_ERROR)
            lex_error(LX, TOK.line, TOK.col, "expected ')' to close '(' at %d:%d, got %s",
                      open.line, open.col, lex_describe(&TOK));
        return NULL;
    }
    lex_advance(LX);
    return n;
}

/* !e, -e, +e.  A minus before a number folds into it, so that a negative
 * constant stays one immediate operand. */
static node *parse_unary(oparser *p)
{
    lex_token op = TOK;
    lex_advance(LX);
    node *inner = parse_primary(p);
    if (!inner || lex_is_punct(&op, "+"))
        return inner;
    if (lex_is_punct(&op, "-") && inner->kind == N_NUM) {
        inner->num = -inner->num;
        inner->line = op.line;
        inner->col = op.col;
        return inner;
    }
    node *n = new_node(lex_is_punct(&op, "!") ? N_NOT : N_NEG, op.line, op.col);
    n->l = inner;
    return n;
}

/* "[i]" after a name: the index of an array element, into n->index. */
static bool parse_index(oparser *p, node *n)
{
    lex_advance(LX);                /* [ */
    n->index = parse_expr_prec(p, 1);
    return n->index && ocl_expect_punct(p, "]", "']' after the index");
}

/* Is e a name that no variable of the thread hides (a location, or an
 * array)? */
static bool names_location(oparser *p, const node *e)
{
    return e->kind == N_VAR && ocl_local_index(p, e->name) < 0;
}

/* `y + i` or `i + y` where y is no variable of the thread: C's other
 * spelling of &y[i] (imm-E3.5 of the C11-ported tests reads
 * `atomic_load_explicit(y+r0, ...)`, diy7 `x + (r0 & 128)`), made that
 * node (kind N_ADDR); any other expression as it is. */
static node *element_address(oparser *p, node *a)
{
    if (a->kind != N_BIN || a->op != B_ADD)
        return a;
    bool left = names_location(p, a->l);
    if (!left && !names_location(p, a->r))
        return a;
    node *base = left ? a->l : a->r;
    node *n = new_node(N_ADDR, base->line, base->col);
    n->name = base->name;
    n->index = left ? a->r : a->l;
    return n;
}

/* *(e) after the '*' at `star`: *(x) is *x, *(x + i) the element x[i]. */
static node *parse_deref_paren(oparser *p, const lex_token *star)
{
    node *a = parse_paren(p);
    if (!a)
        return NULL;
    if (names_location(p, a)) {
        a->kind = N_DEREF;
        return a;
    }
    node *n = element_address(p, a);
    if (n == a) {
        lex_error(LX, star->line, star->col, "expected a location after '*' (x, or x + an offset)");
        return NULL;
    }
    n->kind = N_INDEX;
    return n;
}

/* *x (a location), *(x + i), &v (a variable, for a compare-exchange) or
 * &y[i] (an array element). */
static node *parse_deref_or_addr(oparser *p)
{
    lex_token op = TOK;
    bool deref = lex_is_punct(&op, "*");
    lex_advance(LX);
    if (deref && lex_is_punct(&TOK, "("))
        return parse_deref_paren(p, &op);
    if (TOK.kind != TOK_IDENT) {
        ocl_expected(p, deref ? "a location name after '*'" : "a variable name after '&'");
        return NULL;
    }
    node *n = new_node(deref ? N_DEREF : N_ADDR, op.line, op.col);
    if (deref) {                    /* *y with no y is reported at y */
        n->line = TOK.line;
        n->col = TOK.col;
    }
    n->name = lex_tok_str(&TOK);
    lex_advance(LX);
    if (!deref && lex_is_punct(&TOK, "[") && !parse_index(p, n))
        return NULL;
    return n;
}

node *ocl_parse_deref_target(oparser *p)
{
    return parse_deref_or_addr(p);
}

/* "(a, b, ...)" after the name of a call, into its arguments. */
static bool parse_args(oparser *p, node *call)
{
    lex_advance(LX);                /* ( */
    if (lex_is_punct(&TOK, ")")) {
        lex_advance(LX);
        return true;
    }
    for (;;) {
        if (call->nargs == MAX_ARGS) {
            lex_error(LX, TOK.line, TOK.col, "too many arguments to '%s'", call->name);
            return false;
        }
        node *a = parse_expr_prec(p, 1);
        if (!a)
            return false;
        call->args[call->nargs++] = element_address(p, a);
        if (lex_is_punct(&TOK, ")")) {
            lex_advance(LX);
            return true;
        }
        if (!ocl_expect_punct(p, ",", "',' or ')' in the argument list"))
            return false;
    }
}

/* A name: a call when '(' follows, else a variable (or a location, which
 * the compiler refuses as a value). */
static node *parse_name(oparser *p)
{
    lex_token name = TOK;
    lex_advance(LX);
    bool call = lex_is_punct(&TOK, "(");
    if (!call && lex_is_punct(&TOK, "[")) {
        node *n = new_node(N_INDEX, name.line, name.col);
        n->name = lex_tok_str(&name);
        return parse_index(p, n) ? n : NULL;
    }
    node *n = new_node(call ? N_CALL : N_VAR, name.line, name.col);
    n->name = lex_tok_str(&name);
    return !call || parse_args(p, n) ? n : NULL;
}

/* A number, ( e ), a unary operator and its operand, *x, &v, a call or a
 * name. */
static node *parse_primary(oparser *p)
{
    if (!ocl_enter(p, TOK.line, TOK.col, "expression"))
        return NULL;
    node *n;
    if (TOK.kind == TOK_NUMBER)
        n = parse_number(p);
    else if (lex_is_punct(&TOK, "("))
        n = parse_paren(p);
    else if (lex_is_punct(&TOK, "!") || lex_is_punct(&TOK, "-") || lex_is_punct(&TOK, "+"))
        n = parse_unary(p);
    else if (lex_is_punct(&TOK, "*") || lex_is_punct(&TOK, "&"))
        n = parse_deref_or_addr(p);
    else if (TOK.kind == TOK_IDENT)
        n = parse_name(p);
    else {
        ocl_expected(p, "an expression");
        n = NULL;
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

static bool is_ordered_compare(enum binop op)
{
    return op == B_LT || op == B_GT || op == B_LE || op == B_GE;
}

/* The operators whose value is a truth (0 or 1), compiled through jumps. */
static bool is_compare(const node *e)
{
    return e->kind == N_NOT ||
           (e->kind == N_BIN && (e->op == B_EQ || e->op == B_NE || is_ordered_compare(e->op) ||
                                 e->op == B_LAND || e->op == B_LOR));
}

/* A variable's register; a location or an unknown name is an error. */
static bool gen_var_value(oparser *p, node *e, lit_operand *out)
{
    int r = ocl_local_index(p, e->name);
    if (r >= 0) {
        *out = regop(r);
        return true;
    }
    if (ocl_param_loc(p, e->name) >= 0)
        lex_error(LX, e->line, e->col, "location '%s' used as a value (read it with *%s or atomic_load)",
                  e->name, e->name);
    else
        lex_error(LX, e->line, e->col, "undeclared variable '%s' in thread %s", e->name, p->th->name);
    return false;
}

bool ocl_gen_value(oparser *p, node *e, lit_operand *out)
{
    if (!ocl_enter(p, e->line, e->col, "expression"))
        return false;
    bool ok;
    if (e->kind == N_NUM) {
        *out = imm(e->num);
        ok = true;
    } else if (e->kind == N_VAR) {
        ok = gen_var_value(p, e, out);
    } else if (e->kind == N_ADDR) {
        lex_error(LX, e->line, e->col, "'&%s' is only allowed as the expected argument of a "
                  "compare-exchange", e->name);
        ok = false;
    } else {
        int t = ocl_new_temp(p);
        ok = ocl_gen_into(p, e, t);
        *out = regop(t);
    }
    p->depth--;
    return ok;
}

/* dst = *x: a plain load. */
static bool gen_deref_into(oparser *p, node *e, int dst)
{
    int loc = ocl_deref_loc(p, e->name, e->line, e->col);
    return loc >= 0 && ocl_emit_plain_load(p, dst, loc, e->line, e->col);
}

typedef struct index_load {
    node *e;
    int dst;
} index_load;

static bool gen_element_load(oparser *p, void *ctx)
{
    index_load *l = ctx;
    int loc = ocl_node_loc(p, l->e, "an array element");
    lit_instr *in = loc >= 0 ? ocl_emit_plain_load(p, l->dst, loc, l->e->line, l->e->col) : NULL;
    if (in)
        in->addr = ocl_node_addr(l->e);
    return in != NULL;
}

/* dst = y[i]: a plain load of an array element. */
static bool gen_index_into(oparser *p, node *e, int dst)
{
    index_load l = { e, dst };
    return ocl_needs_dispatch(e) ? ocl_each_element(p, e, ocl_gen_value, gen_element_load, &l)
                                 : gen_element_load(p, &l);
}

/* dst = the truth of e: t = 1; if (e) goto end; t = 0; end: dst = t.
 * Through a temporary t, because e may read dst. */
static bool gen_truth_into(oparser *p, node *e, int dst)
{
    int end = ocl_new_label(p);
    int t = ocl_new_temp(p);
    if (end < 0 || !ocl_emit_mov(p, t, imm(1), e->line, e->col) || !ocl_gen_cond(p, e, true, end) ||
        !ocl_emit_mov(p, t, imm(0), e->line, e->col))
        return false;
    ocl_place_label(p, end);
    return ocl_emit_mov(p, dst, regop(t), e->line, e->col) != NULL;
}

/* The two operands of a binary operator, left then right, noted as
 * unsequenced: C does not order their evaluations (linearisation-style
 * tests depend on it: `atomic_load_explicit(x, acquire) + *y` does not
 * order the plain read of y after the acquire). */
static bool gen_operands(oparser *p, node *e, lit_operand *a, lit_operand *b)
{
    int a0 = p->ncode;
    if (!ocl_gen_value(p, e->l, a))
        return false;
    int a1 = p->ncode;
    if (!ocl_gen_value(p, e->r, b))
        return false;
    if (!ocl_note_unsequenced(p, a0, a1, p->ncode)) {
        lex_error(LX, e->line, e->col, "out of memory");
        return false;
    }
    return true;
}

/* The ALU operation of an arithmetic or bitwise operator. */
static enum lit_alu_op alu_op(enum binop op)
{
    switch (op) {
    case B_ADD: return ALU_ADD;
    case B_SUB: return ALU_SUB;
    case B_MUL: return ALU_MUL;
    case B_AND: return ALU_AND;
    case B_XOR: return ALU_XOR;
    default: return ALU_OR;
    }
}

/* dst = l OP r, or dst = 0 - l for a negation. */
static bool gen_alu_into(oparser *p, node *e, int dst)
{
    lit_operand a, b;
    if (e->kind == N_NEG) {
        a = imm(0);
        if (!ocl_gen_value(p, e->l, &b))
            return false;
    } else if (!gen_operands(p, e, &a, &b)) {
        return false;
    }
    enum lit_alu_op op = e->kind == N_NEG ? ALU_SUB : alu_op(e->op);
    return ocl_emit_alu(p, op, dst, a, b, e->line, e->col) != NULL;
}

/* dst = a number or a variable. */
static bool gen_copy_into(oparser *p, node *e, int dst)
{
    lit_operand v;
    return ocl_gen_value(p, e, &v) && ocl_emit_mov(p, dst, v, e->line, e->col);
}

/* Compile e so that its value ends up in register dst. */
bool ocl_gen_into(oparser *p, node *e, int dst)
{
    if (!ocl_enter(p, e->line, e->col, "expression"))
        return false;
    bool ok;
    if (e->kind == N_CALL)
        ok = ocl_call(p, e, dst, ocl_gen_value);
    else if (e->kind == N_DEREF)
        ok = gen_deref_into(p, e, dst);
    else if (e->kind == N_INDEX)
        ok = gen_index_into(p, e, dst);
    else if (is_compare(e))
        ok = gen_truth_into(p, e, dst);
    else if (e->kind == N_BIN || e->kind == N_NEG)
        ok = gen_alu_into(p, e, dst);
    else
        ok = gen_copy_into(p, e, dst);
    p->depth--;
    return ok;
}

/* a && b, a || b.  When the whole jumps as soon as one side does (&& on
 * false, || on true) each side jumps straight to `label`; otherwise the
 * first side skips the second when it alone decides the other way. */
static bool gen_logical_cond(oparser *p, node *e, bool jump_if, int label)
{
    bool and = e->op == B_LAND;
    if (and != jump_if)
        return ocl_gen_cond(p, e->l, jump_if, label) && ocl_gen_cond(p, e->r, jump_if, label);
    int skip = ocl_new_label(p);
    bool ok = skip >= 0 && ocl_gen_cond(p, e->l, !jump_if, skip) && ocl_gen_cond(p, e->r, jump_if, label);
    ocl_place_label(p, skip);
    return ok;
}

/* One branch: a == b, a != b, or any other value against 0. */
static bool gen_compare_branch(oparser *p, node *e, bool jump_if, int label)
{
    lit_operand a, b;
    enum lit_cmp cmp;
    if (e->kind == N_BIN && (e->op == B_EQ || e->op == B_NE || is_ordered_compare(e->op))) {
        if (!gen_operands(p, e, &a, &b))
            return false;
        /* the comparison and, to jump when it fails, its negation */
        static const enum lit_cmp holds[] = {[B_EQ] = CMP_EQ, [B_NE] = CMP_NE, [B_LT] = CMP_LT,
                                             [B_GT] = CMP_GT, [B_LE] = CMP_LE, [B_GE] = CMP_GE};
        static const enum lit_cmp fails[] = {[B_EQ] = CMP_NE, [B_NE] = CMP_EQ, [B_LT] = CMP_GE,
                                             [B_GT] = CMP_LE, [B_LE] = CMP_GT, [B_GE] = CMP_LT};
        cmp = jump_if ? holds[e->op] : fails[e->op];
    } else {
        if (!ocl_gen_value(p, e, &a))
            return false;
        b = imm(0);
        cmp = jump_if ? CMP_NE : CMP_EQ;
    }
    return ocl_emit_branch(p, cmp, a, b, label, e->line, e->col) != NULL;
}

/* Jump to `label` when the truth of e equals jump_if; fall through otherwise. */
bool ocl_gen_cond(oparser *p, node *e, bool jump_if, int label)
{
    if (!ocl_enter(p, e->line, e->col, "condition"))
        return false;
    bool ok;
    if (e->kind == N_NOT) {
        ok = ocl_gen_cond(p, e->l, !jump_if, label);
    } else if (e->kind == N_BIN && (e->op == B_LAND || e->op == B_LOR)) {
        ok = gen_logical_cond(p, e, jump_if, label);
    } else {
        ok = gen_compare_branch(p, e, jump_if, label);
    }
    p->depth--;
    return ok;
}
