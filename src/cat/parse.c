/*
 * cat/parse.c: parser of the cat language into the surface form of a
 * cat_ast (see cat/ast.h): herd's grammar, with functions, tuples, tags,
 * explicit sets, `let ... in`, `match`, `try`, procedures, `forall`, `enum`
 * and variants.  Includes are read here, and `if "variant"` is decided
 * here: the branch not taken is parsed but kept out of the model, and its
 * includes are never read.
 */
#include "cat/ast.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/diag.h"
#include "base/textfile.h"
#include "cat/cat.h"
#include "cat/lex.h"
#include "cat/source_log.h"

typedef struct include_frame {
    const char *path;
    const struct include_frame *outer;
    int depth;
} include_frame;

/* A growing list of statements: the model's, or a procedure's body. */
typedef struct stmt_list {
    cat_stmt *v;
    int n, cap;
} stmt_list;

typedef struct parser {
    cat_lexer lx;
    cat_token tok, next;     /* current token and one of lookahead */
    size_t prev_end;         /* end offset of the last consumed token */
    bool failed;
    int depth;               /* nesting of expressions and statement bodies being parsed */
    const char *dir;
    const include_frame *includes;
    const cat_load_options *opts;
    size_t *bytes;           /* bytes of the model's files read so far */
    cat_ast *ast;            /* title and options */
    stmt_list *out;          /* where statements go */
    bool skipping;           /* in an `if "variant"` branch not taken: keep nothing */
    cat_source_log *log;     /* every lookup of a file and what it read (cat/cache.h), or NULL */
} parser;

static void parse_file(parser *outer, const char *name, const char *text, size_t len,
                       const char *dir, const include_frame *inc);

/* ---- Tokens ---- */

static void bump(parser *p)
{
    p->prev_end = p->tok.end;
    p->tok = p->next;
    if (p->tok.kind != CT_EOF && p->tok.kind != CT_ERROR)
        cat_lex_next(&p->lx, &p->next);
    if (p->tok.kind == CT_ERROR)
        p->failed = true;
}

static void error_at(parser *p, const cat_token *t, const char *what)
{
    if (!p->failed && t->kind != CT_ERROR)
        diag_error(p->lx.errors, p->lx.file, t->line, t->col, "%s, found '%s'", what,
                   cat_tok_describe(t));
    p->failed = true;
}

static bool expect(parser *p, enum cat_tok kind, const char *what)
{
    if (p->tok.kind != kind) {
        error_at(p, &p->tok, what);
        return false;
    }
    bump(p);
    return true;
}

/* Sorted (strcmp order): looked up by binary search, for every name read. */
static const char *const keywords[] = {
    "acyclic", "and", "as", "begin", "call", "debug", "do", "else", "empty", "end",
    "enum", "events", "flag", "forall", "from", "fun", "if", "in", "include",
    "instructions", "irreflexive", "let", "match", "option", "procedure", "rec",
    "show", "then", "try", "undefined_unless", "unshow", "when", "with", "withco",
    "withinit", "withoutco", "withoutinit", "withoutsc", "withsc", "yield",
};

static int compare_keyword(const void *key, const void *entry)
{
    return strcmp(key, *(const char *const *)entry);
}

static bool is_keyword(const cat_token *t)
{
    return t->kind == CT_IDENT && bsearch(t->text, keywords, sizeof keywords / sizeof keywords[0],
                                          sizeof keywords[0], compare_keyword) != NULL;
}

static bool is_kw(const cat_token *t, const char *kw)
{
    return t->kind == CT_IDENT && strcmp(t->text, kw) == 0;
}

static bool is_name(const cat_token *t)
{
    return t->kind == CT_IDENT && !is_keyword(t);
}

/* Can this token start an argument of an application (`f x`, `f(x)`)? */
static bool starts_arg(const cat_token *t)
{
    return is_name(t) || t->kind == CT_LPAREN || t->kind == CT_UNIV || t->kind == CT_ZERO ||
           t->kind == CT_TAG || t->kind == CT_LBRACE;
}

/* Can it start the right operand of a binary `*`? */
static bool starts_operand(const cat_token *t)
{
    return starts_arg(t) || t->kind == CT_LBRACK || t->kind == CT_TILDE;
}

static const char *ident(parser *p, const char *what)
{
    if (!is_name(&p->tok)) {
        error_at(p, &p->tok, what);
        return NULL;
    }
    const char *name = p->tok.text;
    bump(p);
    return name;
}

static cat_pos pos_of(const parser *p, const cat_token *t)
{
    return (cat_pos){p->lx.file, t->line, t->col};
}

/* Source text from offset `from` to the last consumed token, blanks squeezed. */
static const char *text_since(const parser *p, size_t from)
{
    size_t to = p->prev_end > from ? p->prev_end : from;
    char *s = GC_MALLOC_ATOMIC(to - from + 1);
    size_t k = 0;
    for (size_t i = from; i < to; i++) {
        char c = p->lx.src[i];
        bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (!blank)
            s[k++] = c;
        else if (k > 0 && s[k - 1] != ' ')
            s[k++] = ' ';
    }
    s[k] = '\0';
    return s;
}

static void *grow(void *arr, int n, int *cap, size_t size)
{
    if (n < *cap)
        return arr;
    *cap = *cap ? 2 * *cap : 4;
    void *grown = GC_MALLOC(size * (size_t)*cap);
    if (n)
        memcpy(grown, arr, size * (size_t)n);
    return grown;
}

/* One level deeper (expressions, bodies); false after "nested too deeply". */
static bool enter(parser *p)
{
    if (p->depth >= CAT_MAX_EXPR_DEPTH) {
        if (!p->failed)
            diag_error(p->lx.errors, p->lx.file, p->tok.line, p->tok.col,
                       "expression nested too deeply (more than %d brackets, parentheses or calls)",
                       CAT_MAX_EXPR_DEPTH);
        p->failed = true;
        return false;
    }
    p->depth++;
    return true;
}

/* ---- Variants: if "name" ... ---- */

static bool variant_set(const parser *p, const char *name)
{
    for (int i = 0; p->opts && i < p->opts->nvariants; i++)
        if (strcasecmp(p->opts->variants[i], name) == 0)
            return true;
    return false;
}

static bool parse_vcond(parser *p, bool *value);

/* "name" | not term | ( cond ) */
static bool parse_vterm(parser *p, bool *value)
{
    if (!enter(p))
        return false;
    bool ok = false;
    if (is_kw(&p->tok, "not")) {
        bump(p);
        ok = parse_vterm(p, value);
        *value = !*value;
    } else if (p->tok.kind == CT_LPAREN) {
        bump(p);
        ok = parse_vcond(p, value) && expect(p, CT_RPAREN, "expected ')'");
    } else if (p->tok.kind == CT_STRING) {
        *value = variant_set(p, p->tok.text);
        bump(p);
        ok = true;
    } else {
        error_at(p, &p->tok, "expected a variant name in quotes");
    }
    p->depth--;
    return ok;
}

/* term { && term } { || ... }: && binds tighter. */
static bool parse_vcond(parser *p, bool *value)
{
    bool any = false;
    for (;;) {
        bool all = true;
        for (;;) {
            bool v;
            if (!parse_vterm(p, &v))
                return false;
            all = all && v;
            if (p->tok.kind != CT_AMP || p->next.kind != CT_AMP)
                break;
            bump(p);
            bump(p);
        }
        any = any || all;
        if (p->tok.kind != CT_ALT)
            break;
        bump(p);
    }
    *value = any;
    return true;
}

static bool starts_vcond(const parser *p)
{
    return p->tok.kind == CT_STRING || is_kw(&p->tok, "not") ||
           (p->tok.kind == CT_LPAREN && p->next.kind == CT_STRING);
}

/* ---- Expressions ---- */

static cat_expr *parse_expr(parser *p);

static cat_expr *node(enum cat_expr_kind kind, cat_pos pos, cat_expr *a, cat_expr *b)
{
    cat_expr *e = GC_MALLOC(sizeof *e);
    e->kind = kind;
    e->pos = pos;
    e->a = a;
    e->b = b;
    return e;
}

static void add_arg(cat_expr *e, cat_expr *arg, int *cap)
{
    e->args = grow(e->args, e->nargs, cap, sizeof *e->args);
    e->args[e->nargs++] = arg;
}

/* a, b, ... up to `close` (which is consumed); for { } and tuples. */
static bool parse_expr_list(parser *p, cat_expr *into, enum cat_tok close, const char *what)
{
    int cap = 0;
    if (p->tok.kind != close) {
        do {
            cat_expr *e = parse_expr(p);
            if (!e)
                return false;
            add_arg(into, e, &cap);
        } while (p->tok.kind == CT_COMMA && (bump(p), true));
    }
    return expect(p, close, what);
}

/* ( ), (e), (a, b, ...) */
static cat_expr *parse_paren(parser *p)
{
    cat_pos pos = pos_of(p, &p->tok);
    bump(p);
    if (p->tok.kind == CT_RPAREN) {
        bump(p);
        return node(CE_TUPLE, pos, NULL, NULL);
    }
    cat_expr *e = parse_expr(p);
    if (!e)
        return NULL;
    if (p->tok.kind != CT_COMMA)
        return expect(p, CT_RPAREN, "expected ')'") ? e : NULL;
    cat_expr *t = node(CE_TUPLE, pos, NULL, NULL);
    int cap = 0;
    add_arg(t, e, &cap);
    while (p->tok.kind == CT_COMMA) {
        bump(p);
        if (!(e = parse_expr(p)))
            return NULL;
        add_arg(t, e, &cap);
    }
    return expect(p, CT_RPAREN, "expected ',' or ')'") ? t : NULL;
}

/* 0, _, 'tag, {...}, (...) */
static cat_expr *parse_simple(parser *p)
{
    cat_token t = p->tok;
    cat_pos pos = pos_of(p, &t);
    cat_expr *e;
    switch (t.kind) {
    case CT_ZERO:
        bump(p);
        return node(CE_ZERO, pos, NULL, NULL);
    case CT_UNIV:
        bump(p);
        return node(CE_UNIV, pos, NULL, NULL);
    case CT_TAG:
        bump(p);
        e = node(CE_TAG, pos, NULL, NULL);
        e->name = t.text;
        return e;
    case CT_LBRACE:
        bump(p);
        e = node(CE_SET, pos, NULL, NULL);
        return parse_expr_list(p, e, CT_RBRACE, "expected ',' or '}'") ? e : NULL;
    case CT_LPAREN:
        return parse_paren(p);
    default:
        break;
    }
    error_at(p, &t, "expected an expression");
    return NULL;
}

/* match e with [||] clause { || clause } end */
static bool parse_clause(parser *p, cat_clause *cl)
{
    cat_token t = p->tok;
    if (t.kind == CT_TAG) {
        cl->kind = CL_TAG;
        cl->tag = t.text;
        bump(p);
    } else if (t.kind == CT_UNIV) {
        cl->kind = CL_DEFAULT;
        bump(p);
    } else if (t.kind == CT_LBRACE && p->next.kind == CT_RBRACE) {
        cl->kind = CL_EMPTY;
        bump(p);
        bump(p);
    } else if (is_name(&t) && p->next.kind == CT_PLUSPLUS) {
        cl->kind = CL_ADD;
        cl->elem = t.text;
        bump(p);
        bump(p);
        if (!(cl->rest = ident(p, "expected a name after '++'")))
            return false;
    } else {
        error_at(p, &t, "expected a match clause ('tag, _, {} or x ++ rest)");
        return false;
    }
    if (!expect(p, CT_ARROW, "expected '->'"))
        return false;
    cl->body = parse_expr(p);
    return cl->body != NULL;
}

static cat_expr *parse_match(parser *p)
{
    cat_expr *m = node(CE_MATCH, pos_of(p, &p->tok), NULL, NULL);
    bump(p); /* match */
    if (!(m->a = parse_expr(p)))
        return NULL;
    if (!is_kw(&p->tok, "with")) {
        error_at(p, &p->tok, "expected 'with'");
        return NULL;
    }
    bump(p);
    if (p->tok.kind == CT_ALT)
        bump(p);
    int cap = 0;
    do {
        m->clauses = grow(m->clauses, m->nclauses, &cap, sizeof *m->clauses);
        cat_clause *cl = &m->clauses[m->nclauses++];
        memset(cl, 0, sizeof *cl);
        if (!parse_clause(p, cl))
            return NULL;
    } while (p->tok.kind == CT_ALT && (bump(p), true));
    if (!is_kw(&p->tok, "end")) {
        error_at(p, &p->tok, "expected '||' or 'end'");
        return NULL;
    }
    bump(p);
    return m;
}

/* NAME, [e], begin e end, match ..., or a simple expression */
static cat_expr *parse_primary(parser *p)
{
    cat_token t = p->tok;
    cat_pos pos = pos_of(p, &t);
    cat_expr *e;
    if (is_name(&t)) {
        bump(p);
        e = node(CE_NAME, pos, NULL, NULL);
        e->name = t.text;
        return e;
    }
    if (t.kind == CT_LBRACK) {
        bump(p);
        e = parse_expr(p);
        return e && expect(p, CT_RBRACK, "expected ']'") ? node(CE_BRACKET, pos, e, NULL) : NULL;
    }
    if (is_kw(&t, "begin")) {
        bump(p);
        e = parse_expr(p);
        if (e && !is_kw(&p->tok, "end")) {
            error_at(p, &p->tok, "expected 'end'");
            return NULL;
        }
        bump(p);
        return e;
    }
    if (is_kw(&t, "match"))
        return parse_match(p);
    return parse_simple(p);
}

/* f a b ...: application binds tighter than every operator; its head is a
 * name (or an application), each argument a name or a simple expression. */
static cat_expr *parse_app(parser *p)
{
    cat_expr *e = parse_primary(p);
    if (!e || e->kind != CE_NAME)
        return e;
    while (e && starts_arg(&p->tok)) {
        cat_expr *arg;
        if (is_name(&p->tok)) {
            arg = node(CE_NAME, pos_of(p, &p->tok), NULL, NULL);
            arg->name = p->tok.text;
            bump(p);
        } else {
            arg = parse_simple(p);
        }
        e = arg ? node(CE_APP, e->pos, e, arg) : NULL;
    }
    return e;
}

static cat_expr *parse_postfix(parser *p)
{
    cat_expr *e = parse_app(p);
    while (e) {
        enum cat_expr_kind kind;
        switch (p->tok.kind) {
        case CT_INV: kind = CE_INV; break;
        case CT_PLUS: kind = CE_PLUS; break;
        case CT_QMARK: kind = CE_OPT; break;
        case CT_STAR:
            if (starts_operand(&p->next))
                return e; /* binary: cartesian product */
            kind = CE_STAR;
            break;
        case CT_PLUSPLUS:
            if (starts_operand(&p->next))
                return e; /* binary: add an element to a set */
            /* r++ with no operand after it: r+ + (r+ is transitive already) */
            e = node(CE_PLUS, pos_of(p, &p->tok), e, NULL);
            kind = CE_PLUS;
            break;
        default:
            return e;
        }
        e = node(kind, pos_of(p, &p->tok), e, NULL);
        bump(p);
    }
    return e;
}

/* ~e: the prefixes are collected first, so long runs need no recursion. */
static cat_expr *parse_unary(parser *p)
{
    int count = 0;
    cat_pos first = pos_of(p, &p->tok);
    while (p->tok.kind == CT_TILDE) {
        count++;
        bump(p);
    }
    cat_expr *e = parse_postfix(p);
    /* ~~e is e; the remaining ~ keeps the position of the outermost one */
    return e && count % 2 ? node(CE_COMPL, first, e, NULL) : e;
}

/* Binary levels, lowest precedence first; `++` groups to the right. */
static const struct { enum cat_tok tok; enum cat_expr_kind kind; } levels[] = {
    {CT_BAR, CE_UNION}, {CT_PLUSPLUS, CE_ADD}, {CT_SEMI, CE_SEQ}, {CT_BSLASH, CE_DIFF},
    {CT_AMP, CE_INTER}, {CT_STAR, CE_CART},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

/* The level of a binary operator token, or -1 for any other token. */
static int level_of(enum cat_tok tok)
{
    for (int level = 0; level < NLEVELS; level++)
        if (levels[level].tok == tok)
            return level;
    return -1;
}

/*
 * Operators of level min_level and above, by precedence climbing: one frame
 * per parenthesis rather than one per level, so that the nesting bound
 * (CAT_MAX_EXPR_DEPTH) fits a small stack even in sanitizer builds.
 */
static cat_expr *parse_binary(parser *p, int min_level)
{
    cat_expr *e = parse_unary(p);
    while (e) {
        int level = level_of(p->tok.kind);
        if (level < min_level)
            return e;
        cat_pos pos = pos_of(p, &p->tok);
        bump(p);
        cat_expr *rhs;
        if (levels[level].kind == CE_ADD) {
            if (!enter(p))
                return NULL;
            rhs = parse_binary(p, level);
            p->depth--;
        } else {
            rhs = parse_binary(p, level + 1);
        }
        e = rhs ? node(levels[level].kind, pos, e, rhs) : NULL;
    }
    return e;
}

/* (a, b, ...) or () after '(' was seen; into *out. */
static bool parse_formals(parser *p, cat_params *out)
{
    int cap = 0;
    out->tuple = true;
    bump(p); /* ( */
    if (p->tok.kind != CT_RPAREN) {
        do {
            const char *name = ident(p, "expected a parameter name");
            if (!name)
                return false;
            out->names = grow(out->names, out->n, &cap, sizeof *out->names);
            out->names[out->n++] = name;
        } while (p->tok.kind == CT_COMMA && (bump(p), true));
    }
    return expect(p, CT_RPAREN, "expected ',' or ')' after parameter");
}

/* fun x -> e | fun (a, b) -> e */
static cat_expr *parse_fun(parser *p)
{
    cat_expr *f = node(CE_FUN, pos_of(p, &p->tok), NULL, NULL);
    f->name = "fun";
    bump(p);
    if (p->tok.kind == CT_LPAREN) {
        if (!parse_formals(p, &f->params))
            return NULL;
    } else {
        const char *x = ident(p, "expected a parameter after 'fun'");
        if (!x)
            return NULL;
        f->params.names = GC_MALLOC(sizeof *f->params.names);
        f->params.names[0] = x;
        f->params.n = 1;
    }
    if (!expect(p, CT_ARROW, "expected '->'"))
        return NULL;
    f->a = parse_expr(p);
    return f->a ? f : NULL;
}

static bool parse_binding(parser *p, cat_binding *b);

/* binding { and binding } */
static cat_binding *parse_bindings(parser *p, int *n)
{
    cat_binding *binds = NULL;
    int cap = 0;
    *n = 0;
    do {
        binds = grow(binds, *n, &cap, sizeof *binds);
        memset(&binds[*n], 0, sizeof binds[*n]);
        if (!parse_binding(p, &binds[(*n)++]))
            return NULL;
    } while (is_kw(&p->tok, "and") && (bump(p), true));
    return binds;
}

/* let [rec] bindings in e */
static cat_expr *parse_let_in(parser *p)
{
    cat_expr *e = node(CE_LET, pos_of(p, &p->tok), NULL, NULL);
    bump(p);
    if (is_kw(&p->tok, "rec")) {
        e->rec = true;
        bump(p);
    }
    if (!(e->binds = parse_bindings(p, &e->nbinds)))
        return NULL;
    if (!is_kw(&p->tok, "in")) {
        error_at(p, &p->tok, "expected 'in'");
        return NULL;
    }
    bump(p);
    e->a = parse_expr(p);
    return e->a ? e : NULL;
}

/* try e with e */
static cat_expr *parse_try(parser *p)
{
    cat_expr *e = node(CE_TRY, pos_of(p, &p->tok), NULL, NULL);
    bump(p);
    if (!(e->a = parse_expr(p)))
        return NULL;
    if (!is_kw(&p->tok, "with")) {
        error_at(p, &p->tok, "expected 'with'");
        return NULL;
    }
    bump(p);
    e->b = parse_expr(p);
    return e->b ? e : NULL;
}

/* if "variant" then e else e (decided now) | if e = e then e else e */
static cat_expr *parse_if(parser *p)
{
    cat_expr *e = node(CE_IF, pos_of(p, &p->tok), NULL, NULL);
    bump(p);
    bool variant = starts_vcond(p), holds = false;
    if (variant) {
        if (!parse_vcond(p, &holds))
            return NULL;
    } else {
        if (!(e->a = parse_expr(p)) || !expect(p, CT_EQ, "expected '='"))
            return NULL;
        if (!(e->b = parse_expr(p)))
            return NULL;
    }
    int cap = 0;
    for (int k = 0; k < 2; k++) {
        const char *kw = k == 0 ? "then" : "else";
        if (!is_kw(&p->tok, kw)) {
            char msg[32];
            snprintf(msg, sizeof msg, "expected '%s'", kw);
            error_at(p, &p->tok, msg);
            return NULL;
        }
        bump(p);
        cat_expr *branch = parse_expr(p);
        if (!branch)
            return NULL;
        add_arg(e, branch, &cap);
    }
    return variant ? e->args[holds ? 0 : 1] : e;
}

static cat_expr *parse_expr(parser *p)
{
    if (!enter(p))
        return NULL;
    cat_expr *e;
    if (is_kw(&p->tok, "let"))
        e = parse_let_in(p);
    else if (is_kw(&p->tok, "fun"))
        e = parse_fun(p);
    else if (is_kw(&p->tok, "try"))
        e = parse_try(p);
    else if (is_kw(&p->tok, "if"))
        e = parse_if(p);
    else
        e = parse_binary(p, 0);
    p->depth--;
    return e;
}

/* ---- Statements ---- */

static cat_stmt *new_stmt(parser *p, enum cat_stmt_kind kind, const cat_token *at)
{
    cat_stmt *s;
    if (p->skipping) {
        s = GC_MALLOC(sizeof *s); /* parsed, then dropped */
    } else {
        stmt_list *l = p->out;
        l->v = grow(l->v, l->n, &l->cap, sizeof *l->v);
        s = &l->v[l->n++];
    }
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->pos = pos_of(p, at);
    return s;
}

/* name = e | (a, b) = e | f(a, b) = e | f x = e */
static bool parse_binding(parser *p, cat_binding *b)
{
    b->pos = pos_of(p, &p->tok);
    if (p->tok.kind == CT_LPAREN) {
        if (!parse_formals(p, &b->pattern))
            return false;
    } else {
        if (!(b->name = ident(p, "expected a name to bind")))
            return false;
        if (p->tok.kind == CT_LPAREN || is_name(&p->tok)) {
            cat_expr *f = node(CE_FUN, b->pos, NULL, NULL);
            f->name = b->name;
            if (p->tok.kind == CT_LPAREN) {
                if (!parse_formals(p, &f->params))
                    return false;
            } else {
                f->params.names = GC_MALLOC(sizeof *f->params.names);
                f->params.names[0] = p->tok.text;
                f->params.n = 1;
                bump(p);
            }
            if (!expect(p, CT_EQ, "expected '='") || !(f->a = parse_expr(p)))
                return false;
            b->body = f;
            return true;
        }
    }
    if (!expect(p, CT_EQ, "expected '='"))
        return false;
    b->body = parse_expr(p);
    return b->body != NULL;
}

static bool parse_let(parser *p, const cat_token *at, size_t start)
{
    bump(p); /* let */
    bool rec = is_kw(&p->tok, "rec");
    if (rec)
        bump(p);
    int n;
    cat_binding *binds = parse_bindings(p, &n);
    if (!binds)
        return false;
    if (is_kw(&p->tok, "in")) {
        error_at(p, &p->tok, "'let ... in' is an expression: expected a statement");
        return false;
    }
    if (is_kw(&p->tok, "when")) {
        error_at(p, &p->tok, "'let rec ... when' is not supported");
        return false;
    }
    cat_stmt *s = new_stmt(p, rec ? CS_LET_REC : CS_LET, at);
    s->binds = binds;
    s->nbinds = n;
    s->text = text_since(p, start);
    return true;
}

static bool parse_check(parser *p, const cat_token *at, size_t start)
{
    bool flag = false, negate = false, undefined = false;
    if (is_kw(&p->tok, "flag") || is_kw(&p->tok, "undefined_unless")) {
        flag = true;
        undefined = is_kw(&p->tok, "undefined_unless");
        bump(p);
        start = p->tok.start;
    }
    if (p->tok.kind == CT_TILDE) {
        negate = true;
        bump(p);
    }
    enum cat_check_kind kind;
    if (is_kw(&p->tok, "acyclic"))
        kind = CK_ACYCLIC;
    else if (is_kw(&p->tok, "irreflexive"))
        kind = CK_IRREFLEXIVE;
    else if (is_kw(&p->tok, "empty"))
        kind = CK_EMPTY;
    else {
        error_at(p, &p->tok, "expected 'acyclic', 'irreflexive' or 'empty'");
        return false;
    }
    bump(p);
    cat_expr *e = parse_expr(p);
    if (!e)
        return false;
    cat_stmt *s = new_stmt(p, CS_CHECK, at);
    s->check = kind;
    /* undefined_unless C: the program is undefined when C fails, so the
     * flag is raised when the negation of C holds */
    s->negate = undefined ? !negate : negate;
    s->flag = flag;
    s->undefined = undefined;
    s->expr = e;
    s->text = text_since(p, start);
    if (is_kw(&p->tok, "as")) {
        bump(p);
        s->name = ident(p, "expected a name after 'as'");
        return s->name != NULL;
    }
    return true;
}

/* with x from e */
static bool parse_with(parser *p, const cat_token *at, size_t start)
{
    bump(p); /* with */
    const char *var = ident(p, "expected a name after 'with'");
    if (!var)
        return false;
    if (!is_kw(&p->tok, "from")) {
        error_at(p, &p->tok, "expected 'from'");
        return false;
    }
    bump(p);
    cat_expr *e = parse_expr(p);
    if (!e)
        return false;
    cat_stmt *s = new_stmt(p, CS_WITH, at);
    s->var = var;
    s->expr = e;
    s->text = text_since(p, start);
    return true;
}

/* `option NAME = WORD` for the options that are one promise each. */
static bool parse_promise(parser *p, const char *word, bool *field)
{
    if (!is_kw(&p->tok, word)) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected '%s'", word);
        error_at(p, &p->tok, msg);
        return false;
    }
    if (!p->skipping)
        *field = true;
    bump(p);
    return true;
}

/* option thin-air = allowed | forbidden (cat_model_thin_air; a model that
 * says neither is CAT_THIN_AIR_UNSAID). */
static bool parse_thin_air(parser *p)
{
    bool allowed = is_kw(&p->tok, "allowed");
    if (!allowed && !is_kw(&p->tok, "forbidden")) {
        error_at(p, &p->tok, "expected 'allowed' or 'forbidden'");
        return false;
    }
    if (!p->skipping)
        p->ast->thin_air = allowed ? CAT_THIN_AIR_ALLOWED : CAT_THIN_AIR_FORBIDDEN;
    bump(p);
    return true;
}

static bool parse_option(parser *p)
{
    bump(p); /* option */
    cat_token name = p->tok;
    if (!ident(p, "expected an option name"))
        return false;
    bool thread = strcmp(name.text, "thread-coherence") == 0;
    bool thin_air = strcmp(name.text, "thin-air") == 0;
    bool flags = strcmp(name.text, "flags") == 0;
    if (!thread && !thin_air && !flags && strcmp(name.text, "co") != 0) {
        diag_error(p->lx.errors, p->lx.file, name.line, name.col,
                   "unknown option '%s' (options: co, thread-coherence, thin-air, flags)", name.text);
        p->failed = true;
        return false;
    }
    if (!expect(p, CT_EQ, "expected '='"))
        return false;
    if (thin_air)
        return parse_thin_air(p);
    if (flags)
        return parse_promise(p, "undefined", &p->ast->flags_undefined);
    if (thread)
        return parse_promise(p, "enforced", &p->ast->thread_coherent);
    enum cat_co_mode mode;
    if (is_kw(&p->tok, "partial"))
        mode = CAT_CO_PARTIAL;
    else if (is_kw(&p->tok, "total"))
        mode = CAT_CO_TOTAL;
    else {
        error_at(p, &p->tok, "expected 'partial' or 'total'");
        return false;
    }
    if (!p->skipping)
        p->ast->co_mode = mode;
    bump(p);
    return true;
}

/* show e [as name], ...: one CS_SHOW statement per item, named by its
 * `as` name or its text (drawings only: cat_lower drops them unless asked
 * to keep them).  unshow e, ...: parsed, then ignored. */
static bool parse_show(parser *p, bool unshow)
{
    bump(p);
    do {
        cat_token at = p->tok;
        size_t start = at.start;
        cat_expr *e = parse_expr(p);
        if (!e)
            return false;
        const char *text = text_since(p, start), *name = NULL;
        if (is_kw(&p->tok, "as")) {
            bump(p);
            if (!(name = ident(p, "expected a name after 'as'")))
                return false;
        }
        if (!unshow) {
            cat_stmt *s = new_stmt(p, CS_SHOW, &at);
            s->expr = e;
            s->text = text;
            s->name = name ? name : text;
        }
    } while (p->tok.kind == CT_COMMA && (bump(p), true));
    return true;
}

static char *join_path(const char *dir, const char *name)
{
    if (name[0] == '/' || dir[0] == '\0')
        return GC_STRDUP(name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = GC_MALLOC_ATOMIC(n);
    snprintf(s, n, "%s/%s", dir, name);
    return s;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return GC_STRDUP("");
    if (slash == path)
        return GC_STRDUP("/");
    size_t n = (size_t)(slash - path);
    char *s = GC_MALLOC_ATOMIC(n + 1);
    memcpy(s, path, n);
    s[n] = '\0';
    return s;
}

static bool file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

const char *cat_find_include(const char *dir, const cat_load_options *opts, const char *name)
{
    const char *path = join_path(dir, name);
    if (file_exists(path))
        return path;
    for (int i = 0; name[0] != '/' && opts && i < opts->ndirs; i++) {
        const char *in_dir = join_path(opts->dirs[i], name);
        if (file_exists(in_dir))
            return in_dir;
    }
    return NULL;
}

static const char *find_include(const parser *p, const char *name) { return cat_find_include(p->dir, p->opts, name); }

/* Reads the included file `path` (named at t) through base/textfile.h,
 * within CAT_MAX_FILE_BYTES and the model's CAT_MAX_MODEL_BYTES in all;
 * NULL after an error. */
static char *read_include(parser *p, const cat_token *t, const char *path, size_t *len)
{
    const char *why;
    char *text = textfile_read(path, CAT_MAX_FILE_BYTES, len, &why);
    if (!text) {
        diag_error(p->lx.errors, p->lx.file, t->line, t->col, "cannot read included file '%s': %s",
                   path, why);
        p->failed = true;
        return NULL;
    }
    if (*len > CAT_MAX_MODEL_BYTES - *p->bytes) {
        diag_error(p->lx.errors, p->lx.file, t->line, t->col,
                   "the model and its includes are too large (more than %u bytes in all)",
                   CAT_MAX_MODEL_BYTES);
        p->failed = true;
        return NULL;
    }
    *p->bytes += *len;
    return text;
}

static bool parse_include(parser *p)
{
    bump(p); /* include */
    cat_token t = p->tok;
    if (!expect(p, CT_STRING, "expected a file name in quotes"))
        return false;
    if (p->skipping)
        return true;
    int depth = p->includes ? p->includes->depth : 0;
    const char *path = find_include(p, t.text);
    if (!path) /* read_include says why the first candidate cannot be read */
        path = join_path(p->dir, t.text);
    for (const include_frame *f = p->includes; f; f = f->outer)
        if (strcmp(f->path, path) == 0) {
            diag_error(p->lx.errors, p->lx.file, t.line, t.col, "recursive include of '%s'", path);
            p->failed = true;
            return false;
        }
    if (depth >= CAT_MAX_INCLUDE_DEPTH) {
        diag_error(p->lx.errors, p->lx.file, t.line, t.col, "includes nested too deeply (more than %d)",
                   CAT_MAX_INCLUDE_DEPTH);
        p->failed = true;
        return false;
    }
    size_t len;
    char *text = read_include(p, &t, path, &len);
    if (!text)
        return false;
    if (p->log)
        cat_source_log_add(p->log, p->dir, t.text, path, text, len);
    include_frame frame = {path, p->includes, depth + 1};
    parse_file(p, path, text, len, dir_of(path), &frame);
    return !p->failed;
}

static bool parse_stmt(parser *p);

/* Statements up to 'end' or 'else' (not consumed) into `list`. */
static bool parse_body(parser *p, stmt_list *list)
{
    if (!enter(p))
        return false;
    stmt_list *saved = p->out;
    p->out = list;
    while (!p->failed && p->tok.kind != CT_EOF && !is_kw(&p->tok, "end") && !is_kw(&p->tok, "else"))
        parse_stmt(p);
    p->out = saved;
    p->depth--;
    return !p->failed;
}

static bool expect_end(parser *p, const char *what)
{
    if (!is_kw(&p->tok, "end")) {
        error_at(p, &p->tok, what);
        return false;
    }
    bump(p);
    return true;
}

/* procedure name(a, b) = statements end  /  procedure name x = ... end */
static bool parse_procedure(parser *p, const cat_token *at)
{
    bump(p);
    const char *name = ident(p, "expected a procedure name");
    if (!name)
        return false;
    cat_params params = {0};
    if (p->tok.kind == CT_LPAREN) {
        if (!parse_formals(p, &params))
            return false;
    } else {
        const char *x = ident(p, "expected '(' or a parameter name");
        if (!x)
            return false;
        params.names = GC_MALLOC(sizeof *params.names);
        params.names[0] = x;
        params.n = 1;
    }
    if (!expect(p, CT_EQ, "expected '='"))
        return false;
    stmt_list body = {0};
    if (!parse_body(p, &body) || !expect_end(p, "expected 'end' after the procedure's statements"))
        return false;
    cat_stmt *s = new_stmt(p, CS_PROCEDURE, at);
    s->name = name;
    s->params = params;
    s->body = body.v;
    s->nbody = body.n;
    return true;
}

/* call name(args) [as name] */
static bool parse_call(parser *p, const cat_token *at, size_t start)
{
    bump(p);
    cat_token t = p->tok;
    const char *name = ident(p, "expected a procedure name");
    if (!name)
        return false;
    cat_expr *arg = parse_simple(p);
    if (!arg)
        return false;
    cat_stmt *s = new_stmt(p, CS_CALL, at);
    s->var = name;
    s->pos = pos_of(p, &t);
    s->expr = arg;
    s->text = text_since(p, start);
    if (is_kw(&p->tok, "as")) {
        bump(p);
        s->name = ident(p, "expected a name after 'as'");
        return s->name != NULL;
    }
    return true;
}

/* enum name = [||] 'a || 'b ... */
static bool parse_enum(parser *p, const cat_token *at)
{
    bump(p);
    const char *name = ident(p, "expected a name after 'enum'");
    if (!name || !expect(p, CT_EQ, "expected '='"))
        return false;
    if (p->tok.kind == CT_ALT)
        bump(p);
    const char **tags = NULL;
    int n = 0, cap = 0;
    do {
        if (p->tok.kind != CT_TAG) {
            error_at(p, &p->tok, "expected a tag ('name)");
            return false;
        }
        tags = grow(tags, n, &cap, sizeof *tags);
        tags[n++] = p->tok.text;
        bump(p);
    } while (p->tok.kind == CT_ALT && (bump(p), true));
    cat_stmt *s = new_stmt(p, CS_ENUM, at);
    s->name = name;
    s->tags = tags;
    s->ntags = n;
    return true;
}

/* forall x in e do statements end */
static bool parse_forall(parser *p, const cat_token *at)
{
    bump(p);
    const char *var = ident(p, "expected a name after 'forall'");
    if (!var)
        return false;
    if (!is_kw(&p->tok, "in")) {
        error_at(p, &p->tok, "expected 'in'");
        return false;
    }
    bump(p);
    cat_expr *set = parse_expr(p);
    if (!set)
        return false;
    if (!is_kw(&p->tok, "do")) {
        error_at(p, &p->tok, "expected 'do'");
        return false;
    }
    bump(p);
    stmt_list body = {0};
    if (!parse_body(p, &body) || !expect_end(p, "expected 'end' after the loop's statements"))
        return false;
    cat_stmt *s = new_stmt(p, CS_FORALL, at);
    s->var = var;
    s->expr = set;
    s->body = body.v;
    s->nbody = body.n;
    return true;
}

/* if "variant" statements [else statements] end: the branch not taken is
 * parsed and dropped (its includes are not read). */
static bool parse_if_variant(parser *p)
{
    bump(p);
    bool holds;
    if (!parse_vcond(p, &holds))
        return false;
    bool was = p->skipping;
    p->skipping = was || !holds;
    bool ok = parse_body(p, p->out);
    if (ok && is_kw(&p->tok, "else")) {
        bump(p);
        p->skipping = was || holds;
        ok = parse_body(p, p->out);
    }
    p->skipping = was;
    return ok && expect_end(p, "expected 'else' or 'end'");
}

static bool parse_stmt(parser *p)
{
    cat_token at = p->tok;
    size_t start = at.start;
    static const char *const model_options[] = {
        "withco", "withoutco", "withinit", "withoutinit", "withsc", "withoutsc",
    };
    if (is_kw(&at, "let"))
        return parse_let(p, &at, start);
    if (is_kw(&at, "with"))
        return parse_with(p, &at, start);
    if (is_kw(&at, "include"))
        return parse_include(p);
    if (is_kw(&at, "option"))
        return parse_option(p);
    if (is_kw(&at, "show") || is_kw(&at, "unshow"))
        return parse_show(p, is_kw(&at, "unshow"));
    if (is_kw(&at, "procedure"))
        return parse_procedure(p, &at);
    if (is_kw(&at, "call"))
        return parse_call(p, &at, start);
    if (is_kw(&at, "enum"))
        return parse_enum(p, &at);
    if (is_kw(&at, "forall"))
        return parse_forall(p, &at);
    if (is_kw(&at, "if"))
        return parse_if_variant(p);
    if (is_kw(&at, "debug")) {
        bump(p);
        return parse_expr(p) != NULL;
    }
    for (size_t i = 0; i < sizeof model_options / sizeof *model_options; i++)
        if (is_kw(&at, model_options[i])) {
            bump(p); /* herd's options of co and init generation: ours are fixed */
            return true;
        }
    if (is_kw(&at, "flag") || is_kw(&at, "undefined_unless") || at.kind == CT_TILDE ||
        is_kw(&at, "acyclic") || is_kw(&at, "irreflexive") || is_kw(&at, "empty"))
        return parse_check(p, &at, start);
    error_at(p, &at, "expected a statement");
    return false;
}

/* The first tokens may name the model: a string or a name, after an
 * optional architecture name ("C RC11", C "C++11", "PTX", SC). */
static void parse_title(parser *p, bool top)
{
    const char *title = NULL;
    if (is_name(&p->tok) && (is_name(&p->next) || p->next.kind == CT_STRING)) {
        bump(p); /* the architecture */
        title = p->tok.text;
        bump(p);
    } else if (p->tok.kind == CT_STRING || is_name(&p->tok)) {
        title = p->tok.text;
        bump(p);
    }
    if (top && title)
        p->ast->title = title;
}

/* Parses one file's statements into outer's list; outer receives failure. */
static void parse_file(parser *outer, const char *name, const char *text, size_t len,
                       const char *dir, const include_frame *inc)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.dir = dir;
    p.includes = inc;
    p.ast = outer->ast;
    p.out = outer->out;
    p.opts = outer->opts;
    p.bytes = outer->bytes;
    p.depth = outer->depth;
    p.log = outer->log;
    cat_lex_init(&p.lx, name, text, len, outer->lx.errors);
    cat_lex_next(&p.lx, &p.tok);
    if (p.tok.kind == CT_ERROR)
        p.failed = true;
    else
        cat_lex_next(&p.lx, &p.next);
    if (!p.failed)
        parse_title(&p, inc == NULL);
    while (!p.failed && p.tok.kind != CT_EOF)
        parse_stmt(&p);
    outer->failed = outer->failed || p.failed;
}

/* herd reads its prelude stdlib.cat before every model: when a search
 * directory (or the model's) holds one, so do we. */
static void parse_prelude(parser *top)
{
    const char *path = find_include(top, "stdlib.cat");
    if (!path) {
        if (top->log) /* a stdlib.cat that appears later changes the model */
            cat_source_log_add(top->log, top->dir, "stdlib.cat", NULL, NULL, 0);
        return;
    }
    size_t len;
    const cat_token at = {.line = 1, .col = 1};
    char *text = read_include(top, &at, path, &len);
    if (!text)
        return;
    if (top->log)
        cat_source_log_add(top->log, top->dir, "stdlib.cat", path, text, len);
    include_frame frame = {path, NULL, 1};
    parse_file(top, path, text, len, dir_of(path), &frame);
}

cat_ast *cat_parse(const char *name, const char *text, size_t len, const char *dir,
                   const cat_load_options *opts, bool prelude, FILE *errors)
{
    return cat_parse_logged(name, text, len, dir, opts, prelude, NULL, errors);
}

cat_ast *cat_parse_logged(const char *name, const char *text, size_t len, const char *dir,
                          const cat_load_options *opts, bool prelude, cat_source_log *log, FILE *errors)
{
    if (len > CAT_MAX_FILE_BYTES) {
        diag_error(errors, name, 1, 1, "file too large (more than %u bytes)", CAT_MAX_FILE_BYTES);
        return NULL;
    }
    cat_ast *ast = GC_MALLOC(sizeof *ast);
    ast->co_mode = CAT_CO_TOTAL;
    size_t bytes = len;
    stmt_list stmts = {0};
    parser top;
    memset(&top, 0, sizeof top);
    top.ast = ast;
    top.out = &stmts;
    top.opts = opts;
    top.dir = dir;
    top.bytes = &bytes;
    top.lx.file = name;
    top.lx.errors = errors;
    top.log = log;
    if (prelude)
        parse_prelude(&top);
    if (!top.failed)
        parse_file(&top, name, text, len, dir, NULL);
    if (top.failed)
        return NULL;
    ast->stmts = stmts.v;
    ast->nstmts = stmts.n;
    return ast;
}

char *cat_dir_of(const char *path) { return dir_of(path); }
