/*
 * litmus/lex.h: a small tokenizer shared by the litmus dialect front ends.
 *
 * Tokens point into the source text (never copied), and carry the line and
 * column (both from 1; a column counts bytes, a tab is one column) of their
 * first character and of the character just after them.  The lexer never
 * reads past `len`.  On a lexical error it reports one diagnostic through
 * diag_error, sets `failed` and yields TOK_ERROR; the parser then stops.
 */
#ifndef SCOPECHECK_LITMUS_LEX_H
#define SCOPECHECK_LITMUS_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "litmus/litmus.h"

enum tok_kind {
    TOK_EOF,
    TOK_IDENT,   /* [A-Za-z_][A-Za-z0-9_]* (plus '.' inside with LEX_IDENT_DOTS, a leading '%' with LEX_IDENT_PERCENT) */
    TOK_NUMBER,  /* decimal or 0x hexadecimal, no sign; value in `num` */
    TOK_STRING,  /* "..." possibly over several lines; text excludes quotes */
    TOK_PUNCT,   /* == != /\ \/ or one of { } ( ) [ ] ; , | : @ = ~ - + ! * & < > ^ */
    TOK_ERROR,
};

/* Options. */
#define LEX_IDENT_DOTS   1u  /* "ld.acquire.gpu" is one identifier */
#define LEX_COMMENT_ML   2u  /* (* ... *) comments (herd) */
#define LEX_COMMENT_C    4u  /* // and slash-star comments (C dialects) */
#define LEX_IDENT_PERCENT 8u /* "%r0" is one identifier (PTX's register names) */

typedef struct lex_token {
    enum tok_kind kind;
    const char *text;    /* points into the source; not NUL-terminated */
    size_t len;
    int line, col;       /* first character */
    int end_line, end_col; /* just after the last character */
    lit_value num;       /* TOK_NUMBER */
} lex_token;

typedef struct lexer {
    const char *file;
    const char *src;
    size_t len;
    size_t pos;
    int line, col;       /* position of src[pos] */
    unsigned flags;
    FILE *errors;
    bool failed;
    lex_token tok;       /* current (lookahead) token */
    lex_token prev;      /* the token consumed last */
} lexer;

void lex_init(lexer *lx, const char *file, const char *src, size_t len,
              unsigned flags, FILE *errors);

/* Scan the next token into lx->tok (the old one moves to lx->prev). */
void lex_advance(lexer *lx);

/* Token tests. */
bool lex_is_punct(const lex_token *t, const char *p);
bool lex_is_ident(const lex_token *t, const char *word);
bool lex_tok_eq(const lex_token *t, const char *s);

/* GC-allocated NUL-terminated copy of a token's text / of any slice. */
char *lex_tok_str(const lex_token *t);
char *lex_strndup(const char *s, size_t n);

/* Short printable description of a token for messages ("'foo'", "end of file"). */
const char *lex_describe(const lex_token *t);

/* Report an error at a position (sets lx->failed). */
void lex_error(lexer *lx, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Report "expected WHAT, got ..." (or "unexpected end of file: expected
 * WHAT") at the current token, unless the lexer has already reported it. */
void lex_expected(lexer *lx, const char *what);

/* An optional sign and a number into *out, the lexer moved past them;
 * false (reported as "expected WHAT") when no number follows. */
bool lex_signed_number(lexer *lx, lit_value *out, const char *what);

/* "P12" -> 12, or -1 if the token is not a thread name. */
int lex_thread_number(const lex_token *tok);

/* A thread placement after a thread's name, "@ G n, D m" in any order and
 * number (the last word of a kind wins): PTX "P0@cta 1,gpu 0", OpenCL
 * "P0@wg 1, dev 0".  The dialect names the words that set the group
 * (*group) and the device (*device) and what "expected ..." says for a bad
 * word and a bad number (a number is at most 1000000).  Without '@' at the
 * current token it reads nothing.  false after reporting an error. */
typedef struct lex_placement_syntax {
    const char *const *group_words;   /* NULL-terminated */
    const char *const *device_words;  /* NULL-terminated */
    const char *word_what;            /* "'cta' or 'gpu' in the thread placement" */
    const char *number_what;          /* "a cta or gpu number" */
} lex_placement_syntax;
bool lex_thread_placement(lexer *lx, const lex_placement_syntax *syn, int *group, int *device);

/* Raw, line-oriented access before tokenizing starts (the header line):
 * skip blanks other than newlines, take a run of non-blank characters
 * (false at end of line or file), test for end of line. */
void lex_raw_skip_hspace(lexer *lx);
bool lex_raw_word(lexer *lx, const char **start, size_t *len, int *line, int *col);
bool lex_raw_at_eol(const lexer *lx);

/* The header every dialect shares: line 1 is "ARCH NAME" (the dispatcher
 * has checked ARCH), then any number of quoted doc strings, joined with
 * newlines into t->doc.  Sets t->arch and t->name.  false after reporting
 * an error. */
struct litmus_test;
bool litmus_lex_header(lexer *lx, struct litmus_test *t);

#endif
