/*
 * cat/lex.h: tokens of the cat language (internal to the cat interpreter).
 *
 * Contract: the lexer turns a byte buffer (not necessarily NUL-free) into
 * tokens with 1-based line and column; comments (* ... *) nest.  A lexical
 * error is reported once through diag_error and yields CT_ERROR.
 */
#ifndef SCOPECHECK_CAT_LEX_H
#define SCOPECHECK_CAT_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cat_tok {
    CT_EOF, CT_ERROR, CT_IDENT, CT_STRING, CT_ZERO, CT_UNIV,
    CT_LPAREN, CT_RPAREN, CT_LBRACK, CT_RBRACK, CT_COMMA, CT_EQ,
    CT_BAR, CT_SEMI, CT_BSLASH, CT_AMP, CT_STAR, CT_TILDE,
    CT_INV, CT_PLUS, CT_QMARK,
    CT_LBRACE, CT_RBRACE, CT_ALT /* || */, CT_PLUSPLUS /* ++ */, CT_ARROW /* -> */,
    CT_TAG /* 'name: text is the name */,
};

typedef struct cat_token {
    enum cat_tok kind;
    const char *text;   /* CT_IDENT, CT_STRING, CT_TAG: the name or contents (GC) */
    int line, col;
    size_t start, end;  /* byte offsets of the token in the source */
} cat_token;

typedef struct cat_lexer {
    const char *file;
    const char *src;
    size_t len, pos;
    int line, col;
    FILE *errors;
} cat_lexer;

void cat_lex_init(cat_lexer *lx, const char *file, const char *src, size_t len, FILE *errors);
void cat_lex_next(cat_lexer *lx, cat_token *t);
const char *cat_tok_describe(const cat_token *t);

#endif
