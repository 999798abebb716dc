/* litmus/cond.c: see litmus/cond.h. */
#include "litmus/cond.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"

#define MAX_DEPTH 200

typedef struct cparser {
    lexer *lx;
    litmus_test *t;
    int depth;
} cparser;

bool litmus_final_starts(const lex_token *tok)
{
    return lex_is_ident(tok, "exists") || lex_is_ident(tok, "forall") ||
           lex_is_ident(tok, "locations") || lex_is_punct(tok, "~");
}

static bool valid_name(const lex_token *tok)
{
    return tok->kind == TOK_IDENT && memchr(tok->text, '.', tok->len) == NULL;
}

static bool parse_term(cparser *p, lit_term *out)
{
    lexer *lx = p->lx;
    lex_token tok = lx->tok;
    memset(out, 0, sizeof *out);
    out->reg = out->loc = out->thread = -1;
    if (lex_is_punct(&tok, "-") || lex_is_punct(&tok, "+")) {
        bool neg = lex_is_punct(&tok, "-");
        lex_advance(lx);
        if (lx->tok.kind != TOK_NUMBER) {
            lex_error(lx, lx->tok.line, lx->tok.col, "expected a number after '%c', got %s",
                      neg ? '-' : '+', lex_describe(&lx->tok));
            return false;
        }
        out->kind = TERM_CONST;
        out->value = neg ? -lx->tok.num : lx->tok.num;
        lex_advance(lx);
        return true;
    }
    if (tok.kind == TOK_NUMBER || tok.kind == TOK_IDENT) {
        lex_advance(lx);
        if (lex_is_punct(&lx->tok, ":")) {
            int th = tok.kind == TOK_NUMBER ? (tok.num > 100000 ? 100000 : (int)tok.num)
                                            : lex_thread_number(&tok);
            if (th < 0) {
                lex_error(lx, tok.line, tok.col, "expected a thread name like P0, got %s",
                          lex_describe(&tok));
                return false;
            }
            if (th >= p->t->nthreads) {
                lex_error(lx, tok.line, tok.col, "unknown thread %s in condition (the test has %d thread%s)",
                          lex_describe(&tok), p->t->nthreads, p->t->nthreads == 1 ? "" : "s");
                return false;
            }
            lex_advance(lx);
            if (!valid_name(&lx->tok)) {
                lex_error(lx, lx->tok.line, lx->tok.col, "expected a register name after '%.*s:', got %s",
                          (int)tok.len, tok.text, lex_describe(&lx->tok));
                return false;
            }
            char *name = lex_tok_str(&lx->tok);
            lit_thread *thr = &p->t->threads[th];
            int r = litmus_reg_index(thr, name);
            if (r < 0)
                r = litmus_add_reg(thr, name, 0);
            out->kind = TERM_REG;
            out->thread = th;
            out->reg = r;
            lex_advance(lx);
            return true;
        }
        if (tok.kind == TOK_NUMBER) {
            out->kind = TERM_CONST;
            out->value = tok.num;
            return true;
        }
        if (!valid_name(&tok)) {
            lex_error(lx, tok.line, tok.col, "bad location name %s", lex_describe(&tok));
            return false;
        }
        char *name = lex_tok_str(&tok);
        int l = litmus_loc_index(p->t, name);
        if (l < 0)
            l = litmus_add_loc(p->t, name, 0);
        out->kind = TERM_LOC;
        out->loc = l;
        return true;
    }
    if (tok.kind != TOK_ERROR)
        lex_error(lx, tok.line, tok.col, "expected a register, location or value, got %s",
                  lex_describe(&tok));
    return false;
}

static lit_cond *new_cond(enum lit_cond_kind k)
{
    lit_cond *c = GC_MALLOC(sizeof *c);
    c->kind = k;
    return c;
}

static lit_cond *parse_prop(cparser *p);

static lit_cond *parse_unary(cparser *p)
{
    lexer *lx = p->lx;
    if (++p->depth > MAX_DEPTH) {
        lex_error(lx, lx->tok.line, lx->tok.col, "condition nested too deeply");
        return NULL;
    }
    lit_cond *c = NULL;
    if (lex_is_punct(&lx->tok, "~") || lex_is_punct(&lx->tok, "!")) {
        lex_advance(lx);
        lit_cond *inner = parse_unary(p);
        if (inner) {
            c = new_cond(COND_NOT);
            c->left = inner;
        }
    } else if (lex_is_punct(&lx->tok, "(")) {
        lex_token open = lx->tok;
        lex_advance(lx);
        c = parse_prop(p);
        if (c && !lex_is_punct(&lx->tok, ")")) {
            if (lx->tok.kind != TOK_ERROR)
                lex_error(lx, lx->tok.line, lx->tok.col, "expected ')' to close '(' at %d:%d, got %s",
                          open.line, open.col, lex_describe(&lx->tok));
            c = NULL;
        }
        if (c)
            lex_advance(lx);
    } else if (lex_is_ident(&lx->tok, "true") || lex_is_ident(&lx->tok, "false")) {
        c = new_cond(lex_is_ident(&lx->tok, "true") ? COND_TRUE : COND_FALSE);
        lex_advance(lx);
    } else {
        lit_term lhs, rhs;
        if (!parse_term(p, &lhs))
            return NULL;
        enum lit_cond_kind k;
        if (lex_is_punct(&lx->tok, "==") || lex_is_punct(&lx->tok, "="))
            k = COND_EQ;
        else if (lex_is_punct(&lx->tok, "!="))
            k = COND_NE;
        else {
            if (lx->tok.kind != TOK_ERROR)
                lex_error(lx, lx->tok.line, lx->tok.col, "expected '==', '=' or '!=', got %s",
                          lex_describe(&lx->tok));
            return NULL;
        }
        lex_advance(lx);
        if (!parse_term(p, &rhs))
            return NULL;
        c = new_cond(k);
        c->lhs = lhs;
        c->rhs = rhs;
        litmus_add_observed(p->t, &lhs);
        litmus_add_observed(p->t, &rhs);
    }
    p->depth--;
    return c;
}

static lit_cond *parse_conj(cparser *p)
{
    lit_cond *l = parse_unary(p);
    while (l && lex_is_punct(&p->lx->tok, "/\\")) {
        lex_advance(p->lx);
        lit_cond *r = parse_unary(p);
        if (!r)
            return NULL;
        lit_cond *c = new_cond(COND_AND);
        c->left = l;
        c->right = r;
        l = c;
    }
    return l;
}

static lit_cond *parse_prop(cparser *p)
{
    lit_cond *l = parse_conj(p);
    while (l && lex_is_punct(&p->lx->tok, "\\/")) {
        lex_advance(p->lx);
        lit_cond *r = parse_conj(p);
        if (!r)
            return NULL;
        lit_cond *c = new_cond(COND_OR);
        c->left = l;
        c->right = r;
        l = c;
    }
    return l;
}

bool litmus_parse_final(lexer *lx, litmus_test *t)
{
    cparser p = { lx, t, 0 };
    if (lex_is_ident(&lx->tok, "locations")) {
        lex_advance(lx);
        if (!lex_is_punct(&lx->tok, "[")) {
            if (lx->tok.kind != TOK_ERROR)
                lex_error(lx, lx->tok.line, lx->tok.col, "expected '[' after 'locations', got %s",
                          lex_describe(&lx->tok));
            return false;
        }
        lex_advance(lx);
        while (!lex_is_punct(&lx->tok, "]")) {
            lit_term term;
            if (!parse_term(&p, &term))
                return false;
            if (term.kind == TERM_CONST) {
                lex_error(lx, lx->prev.line, lx->prev.col, "expected a register or location in 'locations'");
                return false;
            }
            litmus_add_observed(t, &term);
            if (lex_is_punct(&lx->tok, ";"))
                lex_advance(lx);
            else if (!lex_is_punct(&lx->tok, "]")) {
                if (lx->tok.kind != TOK_ERROR)
                    lex_error(lx, lx->tok.line, lx->tok.col, "expected ';' or ']' in 'locations', got %s",
                              lex_describe(&lx->tok));
                return false;
            }
        }
        lex_advance(lx);
    }
    if (lex_is_ident(&lx->tok, "exists")) {
        t->quant = QUANT_EXISTS;
    } else if (lex_is_ident(&lx->tok, "forall")) {
        t->quant = QUANT_FORALL;
    } else if (lex_is_punct(&lx->tok, "~")) {
        lex_advance(lx);
        if (!lex_is_ident(&lx->tok, "exists")) {
            if (lx->tok.kind != TOK_ERROR)
                lex_error(lx, lx->tok.line, lx->tok.col, "expected 'exists' after '~', got %s",
                          lex_describe(&lx->tok));
            return false;
        }
        t->quant = QUANT_NOT_EXISTS;
    } else {
        if (lx->tok.kind != TOK_ERROR)
            lex_error(lx, lx->tok.line, lx->tok.col,
                      "expected 'exists', '~exists' or 'forall', got %s", lex_describe(&lx->tok));
        return false;
    }
    lex_advance(lx);
    if (lx->tok.kind == TOK_EOF) {
        lex_error(lx, lx->tok.line, lx->tok.col, "unexpected end of file: expected a proposition");
        return false;
    }
    t->cond = parse_prop(&p);
    if (!t->cond)
        return false;
    if (lx->tok.kind != TOK_EOF) {
        if (lx->tok.kind != TOK_ERROR)
            lex_error(lx, lx->tok.line, lx->tok.col, "unexpected %s after the condition",
                      lex_describe(&lx->tok));
        return false;
    }
    return true;
}
