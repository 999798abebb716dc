/* cat/lex.c: lexer of the cat language (see cat/lex.h). */
#include "cat/lex.h"

#include <gc.h>
#include <string.h>

#include "base/diag.h"

void cat_lex_init(cat_lexer *lx, const char *file, const char *src, size_t len, FILE *errors)
{
    lx->file = file;
    lx->src = src;
    lx->len = len;
    lx->pos = 0;
    lx->line = 1;
    lx->col = 1;
    lx->errors = errors;
}

static int peek_at(const cat_lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->src[lx->pos + ahead] : -1;
}

static void advance(cat_lexer *lx)
{
    if (lx->pos >= lx->len)
        return;
    if (lx->src[lx->pos] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->pos++;
}

/* Skips blanks and (nested) comments; false after reporting an unterminated comment. */
static bool skip_space(cat_lexer *lx)
{
    for (;;) {
        int c = peek_at(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            advance(lx);
        } else if (c == '(' && peek_at(lx, 1) == '*') {
            int line = lx->line, col = lx->col, depth = 0;
            do {
                if (peek_at(lx, 0) == '(' && peek_at(lx, 1) == '*') {
                    depth++;
                    advance(lx);
                } else if (peek_at(lx, 0) == '*' && peek_at(lx, 1) == ')') {
                    depth--;
                    advance(lx);
                } else if (lx->pos >= lx->len) {
                    diag_error(lx->errors, lx->file, line, col, "unterminated comment");
                    return false;
                }
                advance(lx);
            } while (depth > 0);
        } else {
            return true;
        }
    }
}

static bool ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(int c)
{
    return ident_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static char *copy_range(const char *src, size_t from, size_t to)
{
    char *s = GC_MALLOC_ATOMIC(to - from + 1);
    memcpy(s, src + from, to - from);
    s[to - from] = '\0';
    return s;
}

static void lex_ident(cat_lexer *lx, cat_token *t)
{
    while (ident_char(peek_at(lx, 0)))
        advance(lx);
    t->text = copy_range(lx->src, t->start, lx->pos);
    t->kind = strcmp(t->text, "_") == 0 ? CT_UNIV : CT_IDENT;
}

static void lex_string(cat_lexer *lx, cat_token *t)
{
    advance(lx);
    while (peek_at(lx, 0) != '"') {
        int c = peek_at(lx, 0);
        if (c == -1 || c == '\n' || c == '\0') {
            diag_error(lx->errors, lx->file, t->line, t->col, "unterminated string");
            t->kind = CT_ERROR;
            return;
        }
        advance(lx);
    }
    t->text = copy_range(lx->src, t->start + 1, lx->pos);
    advance(lx);
    t->kind = CT_STRING;
}

static enum cat_tok punct(int c)
{
    switch (c) {
    case '(': return CT_LPAREN;
    case ')': return CT_RPAREN;
    case '[': return CT_LBRACK;
    case ']': return CT_RBRACK;
    case ',': return CT_COMMA;
    case '=': return CT_EQ;
    case '|': return CT_BAR;
    case ';': return CT_SEMI;
    case '\\': return CT_BSLASH;
    case '&': return CT_AMP;
    case '*': return CT_STAR;
    case '~': return CT_TILDE;
    case '+': return CT_PLUS;
    case '?': return CT_QMARK;
    case '{': return CT_LBRACE;
    case '}': return CT_RBRACE;
    default: return CT_ERROR;
    }
}

/* The two-character symbols of herd's functional layer. */
static bool lex_pair(cat_lexer *lx, cat_token *t, int c)
{
    static const struct { char a, b; enum cat_tok kind; } pairs[] = {
        {'|', '|', CT_ALT}, {'+', '+', CT_PLUSPLUS}, {'-', '>', CT_ARROW},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (c == pairs[i].a && peek_at(lx, 1) == pairs[i].b) {
            advance(lx);
            advance(lx);
            t->kind = pairs[i].kind;
            return true;
        }
    return false;
}

static void lex_other(cat_lexer *lx, cat_token *t, int c)
{
    if (lex_pair(lx, t, c))
        return;
    if (c == '\'' && ident_start(peek_at(lx, 1))) {
        advance(lx);
        size_t from = lx->pos;
        while (ident_char(peek_at(lx, 0)))
            advance(lx);
        t->text = copy_range(lx->src, from, lx->pos);
        t->kind = CT_TAG;
    } else if (c == '0' && !ident_char(peek_at(lx, 1))) {
        advance(lx);
        t->kind = CT_ZERO;
    } else if (c == '^' && peek_at(lx, 1) == '-' && peek_at(lx, 2) == '1') {
        advance(lx);
        advance(lx);
        advance(lx);
        t->kind = CT_INV;
    } else if (punct(c) != CT_ERROR) {
        advance(lx);
        t->kind = punct(c);
    } else {
        if (c >= '0' && c <= '9')
            diag_error(lx->errors, lx->file, t->line, t->col, "unexpected number (only 0 is allowed)");
        else if (c == '^')
            diag_error(lx->errors, lx->file, t->line, t->col, "expected '^-1'");
        else if (c > ' ' && c < 127)
            diag_error(lx->errors, lx->file, t->line, t->col, "unexpected character '%c'", c);
        else
            diag_error(lx->errors, lx->file, t->line, t->col, "unexpected byte 0x%02x", (unsigned)c);
        t->kind = CT_ERROR;
    }
}

void cat_lex_next(cat_lexer *lx, cat_token *t)
{
    t->text = NULL;
    bool ok = skip_space(lx);
    t->line = lx->line;
    t->col = lx->col;
    t->start = lx->pos;
    int c = peek_at(lx, 0);
    if (!ok)
        t->kind = CT_ERROR;
    else if (c == -1)
        t->kind = CT_EOF;
    else if (ident_start(c))
        lex_ident(lx, t);
    else if (c == '"')
        lex_string(lx, t);
    else
        lex_other(lx, t, c);
    t->end = lx->pos;
}

const char *cat_tok_describe(const cat_token *t)
{
    switch (t->kind) {
    case CT_EOF: return "end of file";
    case CT_ERROR: return "invalid token";
    case CT_IDENT: return t->text;
    case CT_STRING: return "string";
    case CT_ZERO: return "0";
    case CT_UNIV: return "_";
    case CT_LPAREN: return "(";
    case CT_RPAREN: return ")";
    case CT_LBRACK: return "[";
    case CT_RBRACK: return "]";
    case CT_COMMA: return ",";
    case CT_EQ: return "=";
    case CT_BAR: return "|";
    case CT_SEMI: return ";";
    case CT_BSLASH: return "\\";
    case CT_AMP: return "&";
    case CT_STAR: return "*";
    case CT_TILDE: return "~";
    case CT_INV: return "^-1";
    case CT_PLUS: return "+";
    case CT_QMARK: return "?";
    case CT_LBRACE: return "{";
    case CT_RBRACE: return "}";
    case CT_ALT: return "||";
    case CT_PLUSPLUS: return "++";
    case CT_ARROW: return "->";
    case CT_TAG: return "tag";
    }
    return "?";
}
