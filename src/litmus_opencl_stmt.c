/*
 * litmus_opencl_stmt.c: OpenCL statements and control flow, compiled into the
 * register machine.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus_cond.h"
#include "litmus_lex.h"
#include "litmus_opencl_impl.h"
#include "litmus_read.h"

/* ---- statements ---------------------------------------------------------------- */

static bool parse_stmt(oparser *p);

bool ocl_is_type_word(const lex_token *t)
{
    static const char *const types[] = { "int", "uint", "unsigned", "long", "ulong", "short", "char",
                                         "size_t", NULL };
    for (int i = 0; types[i]; i++)
        if (lex_is_ident(t, types[i]))
            return true;
    return false;
}

static bool end_stmt(oparser *p)
{
    if (lex_is_punct(&TOK, ";")) {
        lex_advance(LX);
        return true;
    }
    if (TOK.kind == TOK_ERROR)
        return false;
    if (TOK.kind == TOK_EOF)
        lex_error(LX, TOK.line, TOK.col, "unexpected end of file (missing ';')");
    else if (TOK.line > LX->prev.end_line)
        lex_error(LX, LX->prev.end_line, LX->prev.end_col, "missing ';' after the statement");
    else
        lex_error(LX, TOK.line, TOK.col, "expected ';', got %s", lex_describe(&TOK));
    return false;
}

static bool parse_decl(oparser *p)
{
    while (ocl_is_type_word(&TOK) || lex_is_ident(&TOK, "const") || lex_is_ident(&TOK, "volatile") ||
           lex_is_ident(&TOK, "private") || lex_is_ident(&TOK, "__private"))
        lex_advance(LX);
    for (;;) {
        if (TOK.kind != TOK_IDENT) {
            ocl_expected(p, "a variable name");
            return false;
        }
        lex_token name = TOK;
        char *s = lex_tok_str(&name);
        if (ocl_local_index(p, s) >= 0) {
            lex_error(LX, name.line, name.col, "variable '%s' is declared twice in thread %s", s,
                      p->th->name);
            return false;
        }
        int r = litmus_reg_index(p->th, s);
        if (r < 0)
            r = litmus_add_reg(p->th, s, 0);
        void *v = p->decl;
        int cap = p->ndecl;
        if (!ocl_grow(&v, p->ndecl, &cap, sizeof *p->decl))
            return false;
        p->decl = v;
        p->decl[p->ndecl++] = s;
        lex_advance(LX);
        if (lex_is_punct(&TOK, "=")) {
            lex_advance(LX);
            node *e = ocl_parse_expr(p);
            if (!e || !ocl_gen_into(p, e, r))
                return false;
        }
        if (!lex_is_punct(&TOK, ","))
            break;
        lex_advance(LX);
    }
    return end_stmt(p);
}

/* A { ... } block.  In a thread body (`body`), "(*" is C (as in "if (*x
 * == 1)"), not a herd comment: the lexer drops (* *) comments from the
 * opening brace to the closing one. */
bool ocl_parse_block_ex(oparser *p, bool body)
{
    lex_token open = TOK;
    unsigned flags = LX->flags;
    if (body)
        LX->flags &= ~LEX_COMMENT_ML;
    lex_advance(LX);
    while (!lex_is_punct(&TOK, "}")) {
        if (TOK.kind == TOK_EOF) {
            lex_error(LX, TOK.line, TOK.col, "unexpected end of file: missing '}' for the '{' at %d:%d",
                      open.line, open.col);
            return false;
        }
        if (body && litmus_final_starts(&TOK) && !lex_is_punct(&TOK, "~")) {
            lex_error(LX, TOK.line, TOK.col, "missing '}' for the '{' at %d:%d before the final condition",
                      open.line, open.col);
            return false;
        }
        if (!parse_stmt(p))
            return false;
    }
    LX->flags = flags;
    lex_advance(LX);
    return true;
}

static bool parse_block(oparser *p)
{
    return ocl_parse_block_ex(p, false);
}

static bool parse_paren_cond(oparser *p, node **out)
{
    if (!ocl_expect_punct(p, "(", "'('"))
        return false;
    *out = ocl_parse_expr(p);
    if (!*out)
        return false;
    return ocl_expect_punct(p, ")", "')' after the condition");
}

static const char *prev_end(oparser *p)
{
    return LX->prev.text + LX->prev.len;
}

/* if (c) s [else s] */
static bool stmt_if(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    lex_advance(LX);
    node *c;
    int lelse = ocl_new_label(p);
    if (lelse < 0 || !parse_paren_cond(p, &c) || !ocl_gen_cond(p, c, false, lelse))
        return false;
    const char *cend = prev_end(p);
    ocl_stamp(p, from, start.text, cend, start.line, start.col);
    if (!parse_stmt(p))
        return false;
    if (lex_is_ident(&TOK, "else")) {
        lex_token el = TOK;
        lex_advance(LX);
        int lend = ocl_new_label(p);
        lit_instr *go = lend >= 0 ? ocl_emit(p, OP_GOTO, el.line, el.col) : NULL;
        if (!go)
            return false;
        go->target = lend;
        go->text = "else";
        ocl_place_label(p, lelse);
        if (!parse_stmt(p))
            return false;
        ocl_place_label(p, lend);
    } else {
        ocl_place_label(p, lelse);
    }
    return true;
}

/* while (c) s */
static bool stmt_while(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    lex_advance(LX);
    int top = ocl_new_label(p), end = ocl_new_label(p);
    node *c;
    ocl_place_label(p, top);
    if (end < 0 || !parse_paren_cond(p, &c) || !ocl_gen_cond(p, c, false, end))
        return false;
    const char *cend = prev_end(p);
    ocl_stamp(p, from, start.text, cend, start.line, start.col);
    if (p->nloops == MAX_DEPTH) {
        lex_error(LX, start.line, start.col, "loops nested too deeply");
        return false;
    }
    p->loops[p->nloops++] = (loop_labels){ end, top };
    if (!parse_stmt(p))
        return false;
    p->nloops--;
    lit_instr *go = ocl_emit(p, OP_GOTO, start.line, start.col);
    if (!go)
        return false;
    go->target = top;
    go->text = lex_strndup(start.text, (size_t)(cend - start.text));
    ocl_place_label(p, end);
    return true;
}

/* do s while (c); */
static bool stmt_do(oparser *p)
{
    lex_token start = TOK;
    lex_advance(LX);
    int top = ocl_new_label(p), cont = ocl_new_label(p), end = ocl_new_label(p);
    if (end < 0)
        return false;
    ocl_place_label(p, top);
    if (p->nloops == MAX_DEPTH) {
        lex_error(LX, start.line, start.col, "loops nested too deeply");
        return false;
    }
    p->loops[p->nloops++] = (loop_labels){ end, cont };
    if (!parse_stmt(p))
        return false;
    p->nloops--;
    ocl_place_label(p, cont);
    lex_token w = TOK;
    if (!lex_is_ident(&TOK, "while")) {
        ocl_expected(p, "'while' after the body of 'do'");
        return false;
    }
    lex_advance(LX);
    int cfrom = p->ncode;
    node *c;
    if (!parse_paren_cond(p, &c) || !ocl_gen_cond(p, c, true, top))
        return false;
    ocl_stamp(p, cfrom, w.text, prev_end(p), w.line, w.col);
    ocl_place_label(p, end);
    return end_stmt(p);
}

/* break; continue; return; */
static bool stmt_jump(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    bool brk = lex_is_ident(&TOK, "break"), ret = lex_is_ident(&TOK, "return");
    lex_advance(LX);
    if (!ret && p->nloops == 0) {
        lex_error(LX, start.line, start.col, "'%s' outside a loop", brk ? "break" : "continue");
        return false;
    }
    lit_instr *go = ocl_emit(p, OP_GOTO, start.line, start.col);
    if (!go)
        return false;
    /* return: label 0 is the end of the thread */
    go->target = ret ? 0 : brk ? p->loops[p->nloops - 1].brk : p->loops[p->nloops - 1].cont;
    if (!end_stmt(p))
        return false;
    ocl_stamp(p, from, start.text, prev_end(p), start.line, start.col);
    return true;
}

/* *x = e; */
static bool stmt_store(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    /* *x = e; */
    lex_advance(LX);
    if (TOK.kind != TOK_IDENT) {
        ocl_expected(p, "a location name after '*'");
        return false;
    }
    lex_token name = TOK;
    char *s = lex_tok_str(&name);
    int loc = ocl_local_index(p, s) >= 0 ? -1 : ocl_param_loc(p, s);
    if (loc < 0) {
        lex_error(LX, name.line, name.col, "undeclared location '%s' (not a parameter of thread %s)",
                  s, p->th->name);
        return false;
    }
    lex_advance(LX);
    if (!ocl_expect_punct(p, "=", "'=' after the location"))
        return false;
    node *e = ocl_parse_expr(p);
    lit_operand v;
    if (!e || !ocl_gen_value(p, e, &v))
        return false;
    lit_instr *st = ocl_emit(p, OP_STORE, start.line, start.col);
    if (!st)
        return false;
    st->loc = loc;
    st->a = v;
    st->order = ORD_WEAK;
    st->scope = SCOPE_NONE;
    if (!end_stmt(p))
        return false;
    ocl_stamp(p, from, start.text, prev_end(p), start.line, start.col);
    return true;
}

/* r++, r--, r += e, r -= e: the operator is the current token; the ALU
 * instruction has the position of `start`. */
static bool compound_assign(oparser *p, int r, const char *s, const lex_token *start)
{
    bool plus = lex_is_punct(&TOK, "+");
    int next = char_after(p);
    lex_token op = TOK;
    lit_operand v;
    if (next == (plus ? '+' : '-')) {
        lex_advance(LX);
        lex_advance(LX);
        v = imm(1);
    } else if (next == '=') {
        lex_advance(LX);
        lex_advance(LX);
        node *e = ocl_parse_expr(p);
        if (!e || !ocl_gen_value(p, e, &v))
            return false;
    } else {
        lex_error(LX, op.line, op.col, "expected '=', '++', '--', '+=' or '-=' after '%s'", s);
        return false;
    }
    lit_instr *in = ocl_emit(p, OP_ALU, start->line, start->col);
    if (!in)
        return false;
    in->alu_op = plus ? ALU_ADD : ALU_SUB;
    in->dst = r;
    in->a = regop(r);
    in->b = v;
    return true;
}

/* r = e; r++; r--; r += e; r -= e; or a label "L:" before a statement */
static bool stmt_assign(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    lex_token name = TOK;
    lex_advance(LX);
    if (lex_is_punct(&TOK, ":")) {
        /* a statement label (B1:): no effect */
        lex_advance(LX);
        return parse_stmt(p);
    }
    char *s = lex_tok_str(&name);
    if (lex_is_punct(&TOK, "=") || lex_is_punct(&TOK, "+") || lex_is_punct(&TOK, "-")) {
        int r = ocl_local_index(p, s);
        if (r < 0) {
            if (ocl_param_loc(p, s) >= 0)
                lex_error(LX, name.line, name.col, "cannot assign to location '%s' (write *%s = ...)",
                          s, s);
            else
                lex_error(LX, name.line, name.col, "undeclared variable '%s' in thread %s", s,
                          p->th->name);
            return false;
        }
        if (lex_is_punct(&TOK, "=")) {
            lex_advance(LX);
            node *e = ocl_parse_expr(p);
            if (!e || !ocl_gen_into(p, e, r))
                return false;
        } else if (!compound_assign(p, r, s, &start)) {
            return false;
        }
        if (!end_stmt(p))
            return false;
        ocl_stamp(p, from, start.text, prev_end(p), start.line, start.col);
        return true;
    }
    if (!lex_is_punct(&TOK, "(")) {
        if (TOK.kind != TOK_ERROR)
            lex_error(LX, TOK.line, TOK.col, "expected a statement: '=', '(' or ':' after '%s', got %s",
                      s, lex_describe(&TOK));
        return false;
    }
    return false;
}

static bool parse_stmt_inner(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    if (lex_is_punct(&TOK, "{"))
        return parse_block(p);
    if (lex_is_punct(&TOK, ";")) {
        lex_advance(LX);
        return true;
    }
    if (lex_is_ident(&TOK, "if"))
        return stmt_if(p);
    if (lex_is_ident(&TOK, "while"))
        return stmt_while(p);
    if (lex_is_ident(&TOK, "do"))
        return stmt_do(p);
    if (lex_is_ident(&TOK, "break") || lex_is_ident(&TOK, "continue") || lex_is_ident(&TOK, "return"))
        return stmt_jump(p);
    if (lex_is_ident(&TOK, "for") || lex_is_ident(&TOK, "switch") || lex_is_ident(&TOK, "goto")) {
        lex_error(LX, TOK.line, TOK.col, "'%.*s' statements are not supported", (int)TOK.len, TOK.text);
        return false;
    }
    if (ocl_is_type_word(&TOK) || lex_is_ident(&TOK, "const") || lex_is_ident(&TOK, "volatile")) {
        if (!parse_decl(p))
            return false;
        ocl_stamp(p, from, start.text, prev_end(p), start.line, start.col);
        return true;
    }
    if (lex_is_punct(&TOK, "*"))
        return stmt_store(p);
    if (TOK.kind == TOK_IDENT)
        return stmt_assign(p);
    ocl_expected(p, "a statement");
    return false;
}

/* Statements that start with a function name are handled here: the name is
 * read as an expression (the call), its value dropped. */
static bool parse_stmt(oparser *p)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, TOK.line, TOK.col, "statements nested too deeply");
        return false;
    }
    bool ok;
    if (TOK.kind == TOK_IDENT && !ocl_is_type_word(&TOK) && !lex_is_ident(&TOK, "if") &&
        !lex_is_ident(&TOK, "while") && !lex_is_ident(&TOK, "do") && char_after(p) != ':') {
        /* look past blanks for '(' to tell a call from an assignment */
        const char *q = TOK.text + TOK.len, *end = LX->src + LX->len;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        if (q < end && *q == '(') {
            lex_token start = TOK;
            int from = p->ncode;
            node *e = ocl_parse_expr(p);
            if (!e) {
                ok = false;
            } else if (e->kind != N_CALL) {
                lex_error(LX, e->line, e->col, "expected a statement, got an expression");
                ok = false;
            } else {
                ok = ocl_gen_call(p, e, -1) && end_stmt(p);
                if (ok)
                    ocl_stamp(p, from, start.text, prev_end(p), start.line, start.col);
            }
            p->depth--;
            return ok;
        }
    }
    ok = parse_stmt_inner(p);
    p->depth--;
    return ok;
}

