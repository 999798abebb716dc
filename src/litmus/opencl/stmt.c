/*
 * litmus/opencl/stmt.c: OpenCL statements and control flow, compiled into the
 * register machine.
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus/cond.h"
#include "litmus/lex.h"
#include "litmus/opencl/internal.h"
#include "litmus/litmus.h"

/* ---- statements ---------------------------------------------------------------- */

static bool parse_stmt(oparser *p);

bool ocl_type_word(const oparser *p, const lex_token *t)
{
    return (p->is_type_word ? p->is_type_word : ocl_is_type_word)(t);
}

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

static const char *prev_end(oparser *p)
{
    return LX->prev.text + LX->prev.len;
}

/* The instructions from `from` on that have no text yet get the source from
 * `start` to the last token read, for traces. */
static void stamp_stmt(oparser *p, int from, const lex_token *start)
{
    ocl_stamp(p, from, start->text, prev_end(p), start->line, start->col);
}

/* The ';' of a simple statement that began at `start`, then its text. */
static bool finish_stmt(oparser *p, int from, const lex_token *start)
{
    if (!end_stmt(p))
        return false;
    stamp_stmt(p, from, start);
    return true;
}

/* "= e" into register r (an assignment or an initialiser). */
static bool assign_expr(oparser *p, int r)
{
    lex_advance(LX);                /* = */
    node *e = ocl_parse_expr(p);
    return e && ocl_gen_into(p, e, r);
}

/* "r" or "r = e" in a declaration: a new variable of the thread. */
static bool parse_declarator(oparser *p)
{
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
    if (!ocl_declare(p, s))
        return false;
    lex_advance(LX);
    return !lex_is_punct(&TOK, "=") || assign_expr(p, r);
}

/* int r = e, s; */
static bool stmt_decl(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    while (ocl_type_word(p, &TOK) || lex_is_ident(&TOK, "const") || lex_is_ident(&TOK, "volatile") ||
           lex_is_ident(&TOK, "private") || lex_is_ident(&TOK, "__private"))
        lex_advance(LX);
    for (;;) {
        if (!parse_declarator(p))
            return false;
        if (!lex_is_punct(&TOK, ","))
            break;
        lex_advance(LX);
    }
    return finish_stmt(p, from, &start);
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

/* "(c)" after the keyword `start` of if, while or do-while: jump to label
 * when c is jump_if; the instructions from `from` on get the text from the
 * keyword to the ')'. */
static bool cond_head(oparser *p, const lex_token *start, int from, bool jump_if, int label)
{
    if (!ocl_expect_punct(p, "(", "'('"))
        return false;
    node *c = ocl_parse_expr(p);
    if (!c || !ocl_expect_punct(p, ")", "')' after the condition") || !ocl_gen_cond(p, c, jump_if, label))
        return false;
    stamp_stmt(p, from, start);
    return true;
}

/* "else s" after the statement of an if whose condition jumps to lelse
 * when false. */
static bool parse_else(oparser *p, int lelse)
{
    lex_token el = TOK;
    lex_advance(LX);
    int lend = ocl_new_label(p);
    lit_instr *go = lend >= 0 ? ocl_emit_goto(p, lend, el.line, el.col) : NULL;
    if (!go)
        return false;
    go->text = "else";
    ocl_place_label(p, lelse);
    if (!parse_stmt(p))
        return false;
    ocl_place_label(p, lend);
    return true;
}

/* if (c) s [else s] */
static bool stmt_if(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    lex_advance(LX);
    int lelse = ocl_new_label(p);
    if (lelse < 0 || !cond_head(p, &start, from, false, lelse) || !parse_stmt(p))
        return false;
    if (lex_is_ident(&TOK, "else"))
        return parse_else(p, lelse);
    ocl_place_label(p, lelse);
    return true;
}

/* The body of the loop that `start` opens: break jumps to label brk,
 * continue to label cont. */
static bool loop_body(oparser *p, const lex_token *start, int brk, int cont)
{
    if (p->nloops == MAX_DEPTH) {
        lex_error(LX, start->line, start->col, "loops nested too deeply");
        return false;
    }
    p->loops[p->nloops++] = (loop_labels){ brk, cont };
    if (!parse_stmt(p))
        return false;
    p->nloops--;
    return true;
}

/* while (c) s */
static bool stmt_while(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    lex_advance(LX);
    int top = ocl_new_label(p), end = ocl_new_label(p);
    ocl_place_label(p, top);
    if (end < 0 || !cond_head(p, &start, from, false, end))
        return false;
    const char *cend = prev_end(p);
    if (!loop_body(p, &start, end, top))
        return false;
    /* the jump back reads as the loop's head in a trace */
    lit_instr *go = ocl_emit_goto(p, top, start.line, start.col);
    if (!go)
        return false;
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
    if (!loop_body(p, &start, end, cont))
        return false;
    ocl_place_label(p, cont);
    lex_token w = TOK;
    if (!lex_is_ident(&TOK, "while")) {
        ocl_expected(p, "'while' after the body of 'do'");
        return false;
    }
    lex_advance(LX);
    if (!cond_head(p, &w, p->ncode, true, top))
        return false;
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
    /* return: label 0 is the end of the thread */
    int target = ret ? 0 : brk ? p->loops[p->nloops - 1].brk : p->loops[p->nloops - 1].cont;
    return ocl_emit_goto(p, target, start.line, start.col) && finish_stmt(p, from, &start);
}

typedef struct index_store {
    node *target;
    lit_operand v;
} index_store;

static bool store_element(oparser *p, void *ctx)
{
    index_store *st = ctx;
    int loc = ocl_node_loc(p, st->target, "an array element");
    lit_instr *in = loc >= 0 ? ocl_emit_plain_store(p, loc, st->v, st->target->line, st->target->col) : NULL;
    if (in)
        in->addr = ocl_node_addr(st->target);
    return in != NULL;
}

/* The store of st->v to st->target, an element (y[i], x + i), one copy
 * per element when i is in a register. */
static bool gen_index_store(oparser *p, index_store *st)
{
    return ocl_needs_dispatch(st->target) ? ocl_each_element(p, st->target, ocl_gen_value, store_element, st)
                                          : store_element(p, st);
}

/* *x = e;  *(x + i) = e; */
static bool stmt_store(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    node *target = ocl_parse_deref_target(p);
    if (!target || !ocl_expect_punct(p, "=", "'=' after the location"))
        return false;
    node *e = ocl_parse_expr(p);
    index_store st = { target, { OPND_NONE, -1, 0 } };
    if (!e || !ocl_gen_value(p, e, &st.v))
        return false;
    if (target->kind == N_INDEX)
        return gen_index_store(p, &st) && finish_stmt(p, from, &start);
    int loc = ocl_deref_loc(p, target->name, target->line, target->col);
    return loc >= 0 && ocl_emit_plain_store(p, loc, st.v, start.line, start.col) &&
           finish_stmt(p, from, &start);
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
    return ocl_emit_alu(p, plus ? ALU_ADD : ALU_SUB, r, regop(r), v, start->line, start->col) != NULL;
}

/* The register of variable s, which `name` assigns to; a location or an
 * undeclared name is an error (-1). */
static int assigned_reg(oparser *p, const lex_token *name, const char *s)
{
    int r = ocl_local_index(p, s);
    if (r >= 0)
        return r;
    bool is_param = false;
    for (int i = 0; i < p->nparams; i++)
        is_param |= strcmp(p->params[i].name, s) == 0;
    if (p->herd && !is_param) {
        /* herd's format: "r0 = ...", "localTail = ..." introduce a variable */
        if (litmus_reg_index(p->th, s) < 0)
            litmus_add_reg(p->th, s, 0);
        return ocl_declare(p, s) ? ocl_local_index(p, s) : -1;
    }
    if (ocl_param_loc(p, s) >= 0)
        lex_error(LX, name->line, name->col, "cannot assign to location '%s' (write *%s = ...)", s, s);
    else
        lex_error(LX, name->line, name->col, "undeclared variable '%s' in thread %s", s, p->th->name);
    return -1;
}

/* y[i] = e;  (the name y read, at '['): the value first, then the store to
 * the element, one copy per element when i is in a register. */
static bool stmt_index_store(oparser *p, const lex_token *name, const char *s)
{
    lex_advance(LX);                /* [ */
    node *target = GC_MALLOC(sizeof *target);
    target->kind = N_INDEX;
    target->name = s;
    target->fixed = -1;
    target->line = name->line;
    target->col = name->col;
    target->index = ocl_parse_expr(p);
    if (!target->index || !ocl_expect_punct(p, "]", "']' after the index") ||
        !ocl_expect_punct(p, "=", "'=' after the array element"))
        return false;
    node *e = ocl_parse_expr(p);
    index_store st = { target, { OPND_NONE, -1, 0 } };
    if (!e || !ocl_gen_value(p, e, &st.v))
        return false;
    return gen_index_store(p, &st);
}

/* r = e; r++; r--; r += e; r -= e; y[i] = e; or a label "L:" before a statement */
static bool stmt_assign(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    lex_advance(LX);
    if (lex_is_punct(&TOK, ":")) {
        /* a statement label (B1:): names a barrier in herd's format, else
         * no effect */
        lex_advance(LX);
        const char *outer = p->stmt_label;
        p->stmt_label = lex_tok_str(&start);
        bool ok = parse_stmt(p);
        p->stmt_label = outer;
        return ok;
    }
    char *s = lex_tok_str(&start);
    if (lex_is_punct(&TOK, "["))
        return stmt_index_store(p, &start, s) && finish_stmt(p, from, &start);
    if (!lex_is_punct(&TOK, "=") && !lex_is_punct(&TOK, "+") && !lex_is_punct(&TOK, "-")) {
        if (TOK.kind != TOK_ERROR)
            lex_error(LX, TOK.line, TOK.col, "expected a statement: '=', '(' or ':' after '%s', got %s",
                      s, lex_describe(&TOK));
        return false;
    }
    int r = assigned_reg(p, &start, s);
    if (r < 0)
        return false;
    bool ok = lex_is_punct(&TOK, "=") ? assign_expr(p, r) : compound_assign(p, r, s, &start);
    return ok && finish_stmt(p, from, &start);
}

static bool parse_stmt_inner(oparser *p)
{
    /* a label names only a barrier call that is its own statement */
    if (TOK.kind != TOK_IDENT || lex_is_ident(&TOK, "if") || lex_is_ident(&TOK, "while") ||
        lex_is_ident(&TOK, "do"))
        p->stmt_label = NULL;
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
    if (ocl_type_word(p, &TOK) || lex_is_ident(&TOK, "const") || lex_is_ident(&TOK, "volatile"))
        return stmt_decl(p);
    if (lex_is_punct(&TOK, "*"))
        return stmt_store(p);
    if (TOK.kind == TOK_IDENT)
        return stmt_assign(p);
    ocl_expected(p, "a statement");
    return false;
}

/* q past blanks and C comments (the lexer skips them too). */
static const char *skip_blanks(const char *q, const char *end)
{
    for (;;) {
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        if (q + 1 < end && q[0] == '/' && q[1] == '*') {
            const char *close = q + 2;
            while (close + 1 < end && !(close[0] == '*' && close[1] == '/'))
                close++;
            q = close + 1 < end ? close + 2 : end;
        } else if (q + 1 < end && q[0] == '/' && q[1] == '/') {
            while (q < end && *q != '\n')
                q++;
        } else {
            return q;
        }
    }
}

/* A name, not a keyword or a label, followed (past blanks and comments)
 * by '(': the statement is a call. */
static bool starts_call(oparser *p)
{
    if (TOK.kind != TOK_IDENT || ocl_type_word(p, &TOK) || lex_is_ident(&TOK, "if") ||
        lex_is_ident(&TOK, "while") || lex_is_ident(&TOK, "do") || char_after(p) == ':')
        return false;
    const char *end = LX->src + LX->len, *q = skip_blanks(TOK.text + TOK.len, end);
    return q < end && *q == '(';
}

/* f(...);  read as an expression (the call), its value dropped. */
static bool stmt_call(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    node *e = ocl_parse_expr(p);
    if (!e)
        return false;
    if (e->kind != N_CALL) {
        lex_error(LX, e->line, e->col, "expected a statement, got an expression");
        return false;
    }
    return ocl_call(p, e, -1, ocl_gen_value) && finish_stmt(p, from, &start);
}

static bool parse_stmt(oparser *p)
{
    if (!ocl_enter(p, TOK.line, TOK.col, "statements"))
        return false;
    bool ok = starts_call(p) ? stmt_call(p) : parse_stmt_inner(p);
    p->depth--;
    return ok;
}
