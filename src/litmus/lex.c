/* litmus/lex.c: see litmus/lex.h. */
#include "litmus/lex.h"

#include <gc.h>
#include <stdarg.h>
#include <string.h>

#include "base/diag.h"
#include "litmus/litmus.h"

void lex_init(lexer *lx, const char *file, const char *src, size_t len,
              unsigned flags, FILE *errors)
{
    memset(lx, 0, sizeof *lx);
    lx->file = file;
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->col = 1;
    lx->flags = flags;
    lx->errors = errors;
    lx->tok.kind = TOK_EOF;
    lx->tok.line = lx->tok.end_line = 1;
    lx->tok.col = lx->tok.end_col = 1;
}

void lex_error(lexer *lx, int line, int col, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!lx->failed)
        diag_error(lx->errors, lx->file, line, col, "%s", buf);
    lx->failed = true;
}

static int peekc(const lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->src[lx->pos + ahead] : -1;
}

static void bump(lexer *lx)
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

static bool is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static bool is_ident_char(int c) { return is_ident_start(c) || is_digit(c); }

static int hexval(int c)
{
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Skip blanks and comments; false (with an error) on an unterminated comment. */
static bool skip_blanks(lexer *lx)
{
    for (;;) {
        int c = peekc(lx, 0);
        if (c >= 0 && is_space(c)) {
            bump(lx);
        } else if ((lx->flags & LEX_COMMENT_ML) && c == '(' && peekc(lx, 1) == '*') {
            int l = lx->line, co = lx->col, depth = 1;
            bump(lx); bump(lx);
            while (depth > 0) {
                int d = peekc(lx, 0);
                if (d < 0) {
                    lex_error(lx, l, co, "unterminated comment");
                    return false;
                }
                if (d == '(' && peekc(lx, 1) == '*') { depth++; bump(lx); }
                else if (d == '*' && peekc(lx, 1) == ')') { depth--; bump(lx); }
                bump(lx);
            }
        } else if ((lx->flags & LEX_COMMENT_C) && c == '/' && peekc(lx, 1) == '/') {
            while (peekc(lx, 0) >= 0 && peekc(lx, 0) != '\n')
                bump(lx);
        } else if ((lx->flags & LEX_COMMENT_C) && c == '/' && peekc(lx, 1) == '*') {
            int l = lx->line, co = lx->col;
            bump(lx); bump(lx);
            for (;;) {
                int d = peekc(lx, 0);
                if (d < 0) {
                    lex_error(lx, l, co, "unterminated comment");
                    return false;
                }
                if (d == '*' && peekc(lx, 1) == '/') { bump(lx); bump(lx); break; }
                bump(lx);
            }
        } else {
            return true;
        }
    }
}

static const char *const punct2[] = { "==", "!=", "/\\", "\\/", NULL };
static const char punct1[] = "{}()[];,|:@=~-+!*&<>^";

void lex_advance(lexer *lx)
{
    lex_token t;
    lx->prev = lx->tok;
    memset(&t, 0, sizeof t);
    if (lx->failed || !skip_blanks(lx)) {
        t.kind = TOK_ERROR;
        t.line = t.end_line = lx->line;
        t.col = t.end_col = lx->col;
        t.text = lx->src + lx->pos;
        lx->tok = t;
        return;
    }
    t.line = lx->line;
    t.col = lx->col;
    t.text = lx->src + lx->pos;
    int c = peekc(lx, 0);
    if (c < 0) {
        t.kind = TOK_EOF;
    } else if (is_ident_start(c) ||
               ((lx->flags & LEX_IDENT_PERCENT) && c == '%' && is_ident_start(peekc(lx, 1)))) {
        t.kind = TOK_IDENT;
        if (c == '%')
            bump(lx);
        while (is_ident_char(peekc(lx, 0)) ||
               ((lx->flags & LEX_IDENT_DOTS) && peekc(lx, 0) == '.' &&
                is_ident_char(peekc(lx, 1))))
            bump(lx);
    } else if (is_digit(c)) {
        t.kind = TOK_NUMBER;
        uint64_t v = 0;
        bool overflow = false;
        if (c == '0' && (peekc(lx, 1) == 'x' || peekc(lx, 1) == 'X') && hexval(peekc(lx, 2)) >= 0) {
            bump(lx); bump(lx);
            while (hexval(peekc(lx, 0)) >= 0) {
                if (v > (UINT64_MAX >> 4)) overflow = true;
                v = (v << 4) | (uint64_t)hexval(peekc(lx, 0));
                bump(lx);
            }
        } else {
            while (is_digit(peekc(lx, 0))) {
                uint64_t d = (uint64_t)(peekc(lx, 0) - '0');
                if (v > (UINT64_MAX - d) / 10) overflow = true;
                v = v * 10 + d;
                bump(lx);
            }
        }
        if (is_ident_char(peekc(lx, 0)) || peekc(lx, 0) == '.') {
            while (is_ident_char(peekc(lx, 0)) || peekc(lx, 0) == '.')
                bump(lx);
            lex_error(lx, t.line, t.col, "malformed number '%.*s'",
                      (int)(lx->src + lx->pos - t.text), t.text);
            t.kind = TOK_ERROR;
        } else if (overflow || v > (uint64_t)INT64_MAX) {
            lex_error(lx, t.line, t.col, "number '%.*s' is too large",
                      (int)(lx->src + lx->pos - t.text), t.text);
            t.kind = TOK_ERROR;
        }
        t.num = (lit_value)v;
    } else if (c == '"') {
        bump(lx);
        t.text = lx->src + lx->pos;
        while (peekc(lx, 0) >= 0 && peekc(lx, 0) != '"')
            bump(lx);
        if (peekc(lx, 0) < 0) {
            lex_error(lx, t.line, t.col, "unterminated string");
            t.kind = TOK_ERROR;
        } else {
            t.kind = TOK_STRING;
            t.len = (size_t)(lx->src + lx->pos - t.text);
            bump(lx);
            t.end_line = lx->line;
            t.end_col = lx->col;
            lx->tok = t;
            return;
        }
    } else {
        int i;
        t.kind = TOK_PUNCT;
        for (i = 0; punct2[i]; i++)
            if (c == (unsigned char)punct2[i][0] && peekc(lx, 1) == (unsigned char)punct2[i][1])
                break;
        if (punct2[i]) {
            bump(lx); bump(lx);
        } else if (strchr(punct1, c)) {
            bump(lx);
        } else {
            if (c >= 0x20 && c < 0x7f)
                lex_error(lx, t.line, t.col, "unexpected character '%c'", c);
            else
                lex_error(lx, t.line, t.col, "unexpected byte 0x%02x", (unsigned)c);
            t.kind = TOK_ERROR;
        }
    }
    t.len = (size_t)(lx->src + lx->pos - t.text);
    t.end_line = lx->line;
    t.end_col = lx->col;
    lx->tok = t;
}

bool lex_tok_eq(const lex_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

bool lex_is_punct(const lex_token *t, const char *p)
{
    return t->kind == TOK_PUNCT && lex_tok_eq(t, p);
}

bool lex_is_ident(const lex_token *t, const char *word)
{
    return t->kind == TOK_IDENT && lex_tok_eq(t, word);
}

char *lex_strndup(const char *s, size_t n)
{
    char *p = GC_MALLOC_ATOMIC(n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *lex_tok_str(const lex_token *t)
{
    return lex_strndup(t->text, t->len);
}

const char *lex_describe(const lex_token *t)
{
    switch (t->kind) {
    case TOK_EOF:
        return "end of file";
    case TOK_STRING:
        return "a string";
    case TOK_ERROR:
        return "bad input";
    default: {
        size_t n = t->len > 40 ? 40 : t->len;
        char *p = GC_MALLOC_ATOMIC(n + 8);
        if (!p)
            return "token";
        snprintf(p, n + 8, "'%.*s%s'", (int)n, t->text, t->len > 40 ? "..." : "");
        return p;
    }
    }
}

void lex_expected(lexer *lx, const char *what)
{
    const lex_token *t = &lx->tok;
    if (t->kind == TOK_ERROR)
        return;
    if (t->kind == TOK_EOF)
        lex_error(lx, t->line, t->col, "unexpected end of file: expected %s", what);
    else
        lex_error(lx, t->line, t->col, "expected %s, got %s", what, lex_describe(t));
}

bool lex_signed_number(lexer *lx, lit_value *out, const char *what)
{
    bool neg = false;
    if (lex_is_punct(&lx->tok, "-") || lex_is_punct(&lx->tok, "+")) {
        neg = lex_is_punct(&lx->tok, "-");
        lex_advance(lx);
    }
    if (lx->tok.kind != TOK_NUMBER) {
        lex_expected(lx, what);
        return false;
    }
    *out = neg ? -lx->tok.num : lx->tok.num;
    lex_advance(lx);
    return true;
}

int lex_thread_number(const lex_token *tok)
{
    if (tok->kind != TOK_IDENT || tok->len < 2 || tok->len > 6 || tok->text[0] != 'P')
        return -1;
    int n = 0;
    for (size_t i = 1; i < tok->len; i++) {
        if (tok->text[i] < '0' || tok->text[i] > '9')
            return -1;
        n = n * 10 + (tok->text[i] - '0');
    }
    return n;
}

static bool is_one_of(const lex_token *t, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (lex_is_ident(t, words[i]))
            return true;
    return false;
}

bool lex_thread_placement(lexer *lx, const lex_placement_syntax *syn, int *group, int *device)
{
    if (!lex_is_punct(&lx->tok, "@"))
        return true;
    lex_advance(lx);
    for (;;) {
        bool g = is_one_of(&lx->tok, syn->group_words);
        bool d = is_one_of(&lx->tok, syn->device_words);
        if (!g && !d) {
            lex_expected(lx, syn->word_what);
            return false;
        }
        lex_advance(lx);
        if (lx->tok.kind != TOK_NUMBER || lx->tok.num > 1000000) {
            lex_expected(lx, syn->number_what);
            return false;
        }
        if (g)
            *group = (int)lx->tok.num;
        else
            *device = (int)lx->tok.num;
        lex_advance(lx);
        if (!lex_is_punct(&lx->tok, ","))
            return true;
        lex_advance(lx);
    }
}

void lex_raw_skip_hspace(lexer *lx)
{
    int c;
    while ((c = peekc(lx, 0)) >= 0 && c != '\n' && is_space(c))
        bump(lx);
}

bool lex_raw_at_eol(const lexer *lx)
{
    int c = peekc(lx, 0);
    return c < 0 || c == '\n' || (c == '\r' && (peekc(lx, 1) == '\n' || peekc(lx, 1) < 0));
}

bool lex_raw_word(lexer *lx, const char **start, size_t *len, int *line, int *col)
{
    int c = peekc(lx, 0);
    if (c < 0 || is_space(c))
        return false;
    *start = lx->src + lx->pos;
    *line = lx->line;
    *col = lx->col;
    while ((c = peekc(lx, 0)) >= 0 && !is_space(c))
        bump(lx);
    *len = (size_t)(lx->src + lx->pos - *start);
    return true;
}

bool litmus_lex_header(lexer *lx, litmus_test *t)
{
    const char *w;
    size_t n;
    int line, col;
    lex_raw_word(lx, &w, &n, &line, &col);
    t->arch = lex_strndup(w, n);
    int before = lx->col;
    lex_raw_skip_hspace(lx);
    if (!lex_raw_word(lx, &w, &n, &line, &col) || lx->col - (int)n == before) {
        lex_error(lx, lx->line, lx->col, "expected the test name after '%s' on the first line", t->arch);
        return false;
    }
    t->name = lex_strndup(w, n);
    lex_raw_skip_hspace(lx);
    if (!lex_raw_at_eol(lx)) {
        lex_error(lx, lx->line, lx->col, "unexpected text after the test name");
        return false;
    }
    lex_advance(lx);
    char *doc = NULL;
    while (lx->tok.kind == TOK_STRING) {
        size_t old = doc ? strlen(doc) : 0;
        char *d = GC_MALLOC_ATOMIC(old + lx->tok.len + 2);
        if (doc) {
            memcpy(d, doc, old);
            d[old++] = '\n';
        }
        memcpy(d + old, lx->tok.text, lx->tok.len);
        d[old + lx->tok.len] = '\0';
        doc = d;
        lex_advance(lx);
    }
    t->doc = doc;
    return !lx->failed;
}
