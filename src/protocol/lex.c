/* protocol/lex.c: tokenizer of protocol table files (docs/protocol-tables.md).
 * Newlines are tokens: every declaration and every table row is one line. */
#include <ctype.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/internal.h"

typedef struct lexer {
    const char *path, *s;
    int line, col;
    ptok *toks;
    int n, cap;
    FILE *errors;
} lexer;

static void push(lexer *lx, ptok t)
{
    if (lx->n == lx->cap) {
        int cap = lx->cap ? 2 * lx->cap : 256;
        ptok *nt = GC_MALLOC(sizeof *nt * (size_t)cap);
        if (lx->n)
            memcpy(nt, lx->toks, sizeof *nt * (size_t)lx->n);
        lx->toks = nt;
        lx->cap = cap;
    }
    lx->toks[lx->n++] = t;
}

static const char *copy(const char *s, size_t len)
{
    char *c = GC_MALLOC_ATOMIC(len + 1);
    memcpy(c, s, len);
    c[len] = 0;
    return c;
}

static const char *const two_char[] = {":=", "+=", "-=", "==", "!=", "<=", ">=", "&&", "||", ".."};

/* Length of the punctuation token at s, or 0. */
static size_t punct_len(const char *s)
{
    for (size_t i = 0; i < sizeof two_char / sizeof two_char[0]; i++)
        if (s[0] == two_char[i][0] && s[1] == two_char[i][1])
            return 2;
    return strchr("|;:,.()=*<>!+-[]/%", s[0]) && s[0] ? 1 : 0;
}

static bool lex_one(lexer *lx)
{
    const char *s = lx->s;
    ptok t = {PT_PUNCT, NULL, 0, lx->line, lx->col};
    size_t len;
    if (isalpha((unsigned char)*s) || *s == '_') {
        len = 0;
        while (isalnum((unsigned char)s[len]) || s[len] == '_')
            len++;
        t.kind = PT_IDENT;
        t.text = copy(s, len);
    } else if (isdigit((unsigned char)*s)) {
        len = 0;
        while (isdigit((unsigned char)s[len]))
            len++;
        if (len > 9) {
            fprintf(lx->errors, "%s:%d:%d: error: number too large\n", lx->path, lx->line, lx->col);
            return false;
        }
        t.kind = PT_NUM;
        t.num = strtol(s, NULL, 10);
        t.text = copy(s, len);
    } else if (*s == '"') {
        len = 1;
        while (s[len] && s[len] != '"' && s[len] != '\n')
            len++;
        if (s[len] != '"') {
            fprintf(lx->errors, "%s:%d:%d: error: unterminated string\n", lx->path, lx->line, lx->col);
            return false;
        }
        t.kind = PT_STRING;
        t.text = copy(s + 1, len - 1);
        len++;
    } else if ((len = punct_len(s)) > 0) {
        t.text = copy(s, len);
    } else {
        fprintf(lx->errors, "%s:%d:%d: error: unexpected character '%c'\n", lx->path,
                lx->line, lx->col, isprint((unsigned char)*s) ? *s : '?');
        return false;
    }
    push(lx, t);
    lx->s += len;
    lx->col += (int)len;
    return true;
}

ptok *ptok_split(const char *path, const char *text, FILE *errors)
{
    lexer lx = {path, text, 1, 1, NULL, 0, 0, errors};
    /* about one token per 5 bytes in the bundled tables: one allocation
     * mostly, instead of a doubling series that the collector zeroes */
    size_t guess = strlen(text) / 5 + 64;
    lx.cap = guess < (1u << 20) ? (int)guess : 1 << 20;
    lx.toks = GC_MALLOC(sizeof *lx.toks * (size_t)lx.cap);
    while (*lx.s) {
        char c = *lx.s;
        if (c == '\n') {
            push(&lx, (ptok){PT_NL, "newline", 0, lx.line, lx.col});
            lx.line++;
            lx.col = 1;
            lx.s++;
        } else if (c == '#') {
            while (*lx.s && *lx.s != '\n')
                lx.s++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            lx.s++;
            lx.col++;
        } else if (!lex_one(&lx)) {
            return NULL;
        }
    }
    push(&lx, (ptok){PT_NL, "newline", 0, lx.line, lx.col});
    push(&lx, (ptok){PT_EOF, "end of file", 0, lx.line, lx.col});
    return lx.toks;
}
