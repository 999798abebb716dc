/* litmus/cond.c: see litmus/cond.h. */
#include "litmus/cond.h"

#include <gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"


typedef struct cparser {
    lexer *lx;
    litmus_test *t;
    int depth;
    bool filter;       /* parsing herd's filter: its terms are not observed (yet) */
} cparser;

bool litmus_final_starts(const lex_token *tok)
{
    return lex_is_ident(tok, "exists") || lex_is_ident(tok, "forall") ||
           lex_is_ident(tok, "locations") || lex_is_ident(tok, "filter") || lex_is_punct(tok, "~");
}

static bool valid_name(const lex_token *tok)
{
    return tok->kind == TOK_IDENT && memchr(tok->text, '.', tok->len) == NULL;
}

static bool same_term(const lit_term *a, const lit_term *b)
{
    return a->kind == b->kind &&
           (a->kind == TERM_LOC ? a->loc == b->loc : a->thread == b->thread && a->reg == b->reg);
}

/* Adds a term written at `at` to the observed values; false after an
 * error past LIT_MAX_OBSERVED. */
static bool add_observed(lexer *lx, litmus_test *t, const lit_term *term, const lex_token *at)
{
    if (term->kind == TERM_CONST)
        return true;
    for (int i = 0; i < t->nobserved; i++)
        if (same_term(&t->observed[i], term))
            return true;
    if (t->nobserved == LIT_MAX_OBSERVED) {
        lex_error(lx, at->line, at->col, "more than %d registers and locations observed", LIT_MAX_OBSERVED);
        return false;
    }
    lit_term *n = GC_MALLOC(sizeof *n * (size_t)(t->nobserved + 1));
    if (t->nobserved)
        memcpy(n, t->observed, sizeof *n * (size_t)t->nobserved);
    n[t->nobserved++] = *term;
    t->observed = n;
    return true;
}

int lit_cond_spine(const lit_cond *c, const lit_cond *const **spine)
{
    int n = 0;
    for (const lit_cond *x = c; x && (x->kind == COND_AND || x->kind == COND_OR); x = x->left)
        n++;
    const lit_cond **s = GC_MALLOC(sizeof *s * (size_t)(n ? n : 1));
    n = 0;
    for (const lit_cond *x = c; x && (x->kind == COND_AND || x->kind == COND_OR); x = x->left)
        s[n++] = x;
    *spine = s;
    return n;
}

/* Adds to t->hidden a term of the filter that nothing observes (once);
 * false past LIT_MAX_OBSERVED observed and hidden terms together. */
static bool hide_term(litmus_test *t, const lit_term *term)
{
    if (term->kind == TERM_CONST)
        return true;
    for (int i = 0; i < t->nobserved; i++)
        if (same_term(&t->observed[i], term))
            return true;
    for (int i = 0; i < t->nhidden; i++)
        if (same_term(&t->hidden[i], term))
            return true;
    if (t->nobserved + t->nhidden >= LIT_MAX_OBSERVED)
        return false;
    lit_term *grown = GC_MALLOC(sizeof *grown * (size_t)(t->nhidden + 1));
    if (t->nhidden)
        memcpy(grown, t->hidden, sizeof *grown * (size_t)t->nhidden);
    grown[t->nhidden++] = *term;
    t->hidden = grown;
    return true;
}

/* The filter's terms that nothing observes become hidden terms, in order
 * of first mention.  Chains of /\ and \/ are walked down their left spine
 * (cond.h); recursion is left to right operands and negations, which the
 * parser bounds. */
static bool hide_filter_terms(litmus_test *t, const lit_cond *c)
{
    if (!c)
        return true;
    const lit_cond *const *spine;
    int n = lit_cond_spine(c, &spine);
    if (n) {
        bool ok = hide_filter_terms(t, spine[n - 1]->left);
        for (int i = n; ok && i-- > 0;)
            ok = hide_filter_terms(t, spine[i]->right);
        return ok;
    }
    if (c->kind == COND_NOT)
        return hide_filter_terms(t, c->left);
    if (c->kind == COND_EQ || c->kind == COND_NE)
        return hide_term(t, &c->lhs) && hide_term(t, &c->rhs);
    return true;
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
    if (lex_is_punct(&tok, "[")) {
        /* "[x]": herd's spelling of the location x */
        lex_advance(lx);
        lex_token name = lx->tok;
        if (name.kind != TOK_IDENT || !valid_name(&name)) {
            lex_error(lx, name.line, name.col, "expected a location name after '[', got %s",
                      lex_describe(&name));
            return false;
        }
        lex_advance(lx);
        if (!lex_is_punct(&lx->tok, "]")) {
            lex_error(lx, lx->tok.line, lx->tok.col, "expected ']' after '[%.*s', got %s", (int)name.len,
                      name.text, lex_describe(&lx->tok));
            return false;
        }
        lex_advance(lx);
        char *s = lex_tok_str(&name);
        int l = litmus_loc_index(p->t, s);
        out->kind = TERM_LOC;
        out->loc = l >= 0 ? l : litmus_add_loc(p->t, s, 0);
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
        if (lex_is_punct(&lx->tok, "[")) {
            /* "y[2]": an element of array y, the location named so */
            lex_advance(lx);
            if (lx->tok.kind != TOK_NUMBER) {
                lex_error(lx, lx->tok.line, lx->tok.col, "expected an index after '%s[', got %s", name,
                          lex_describe(&lx->tok));
                return false;
            }
            char buf[160];
            snprintf(buf, sizeof buf, "%s[%lld]", name, (long long)lx->tok.num);
            lex_advance(lx);
            if (!lex_is_punct(&lx->tok, "]")) {
                lex_error(lx, lx->tok.line, lx->tok.col, "expected ']' after the index, got %s",
                          lex_describe(&lx->tok));
                return false;
            }
            lex_advance(lx);
            name = lex_strndup(buf, strlen(buf));
        }
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

void litmus_final_absent(litmus_test *t)
{
    t->quant = QUANT_FORALL;
    t->cond = new_cond(COND_TRUE);
}

static lit_cond *parse_unary(cparser *p)
{
    lexer *lx = p->lx;
    if (++p->depth > LIT_MAX_COND_DEPTH) {
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
        if (lex_is_punct(&lx->tok, ")")) {
            /* "()": the empty proposition, true (herd: exists ()) */
            lex_advance(lx);
            p->depth--;
            return new_cond(COND_TRUE);
        }
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
        lex_token lhs_at = lx->tok;
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
        lex_token rhs_at = lx->tok;
        if (!parse_term(p, &rhs))
            return NULL;
        c = new_cond(k);
        c->lhs = lhs;
        c->rhs = rhs;
        if (!p->filter &&
            (!add_observed(lx, p->t, &lhs, &lhs_at) || !add_observed(lx, p->t, &rhs, &rhs_at)))
            return NULL;
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

/* The filter's terms hidden after the observed ones (hide_filter_terms);
 * false after reporting too many at `at`. */
static bool check_filter_terms(lexer *lx, litmus_test *t, const lex_token *at)
{
    if (hide_filter_terms(t, t->filter))
        return true;
    lex_error(lx, at->line, at->col, "more than %d registers and locations observed or filtered on",
              LIT_MAX_OBSERVED);
    return false;
}

bool litmus_parse_final(lexer *lx, litmus_test *t)
{
    cparser p = { lx, t, 0, false };
    bool saw_locations = lex_is_ident(&lx->tok, "locations");
    if (saw_locations) {
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
            lex_token at = lx->tok;
            if (!parse_term(&p, &term))
                return false;
            if (term.kind == TERM_CONST) {
                lex_error(lx, lx->prev.line, lx->prev.col, "expected a register or location in 'locations'");
                return false;
            }
            if (!add_observed(lx, t, &term, &at))
                return false;
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
    lex_token filter_at = lx->tok;
    if (lex_is_ident(&lx->tok, "filter")) {
        lex_advance(lx);
        p.filter = true;
        t->filter = parse_prop(&p);
        p.filter = false;
        if (!t->filter)
            return false;
    }
    if (lx->tok.kind == TOK_EOF && (saw_locations || t->filter)) {
        /* diy7's -cond observe: only `locations` (or a filter); herd7
         * reads the missing condition as forall (true) */
        litmus_final_absent(t);
        return check_filter_terms(lx, t, &filter_at);
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
    if (!check_filter_terms(lx, t, &filter_at))
        return false;
    if (lx->tok.kind != TOK_EOF) {
        if (lx->tok.kind != TOK_ERROR)
            lex_error(lx, lx->tok.line, lx->tok.col, "unexpected %s after the condition",
                      lex_describe(&lx->tok));
        return false;
    }
    return true;
}
