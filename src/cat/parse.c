/* cat/parse.c: parser of the cat language into a cat_ast (see cat/ast.h). */
#include "cat/ast.h"

#include <gc.h>
#include <string.h>

#include "cat/lex.h"
#include "base/diag.h"
#include "base/textfile.h"


typedef struct include_frame {
    const char *path;
    const struct include_frame *outer;
    int depth;
} include_frame;

typedef struct parser {
    cat_lexer lx;
    cat_token tok, next;     /* current token and one of lookahead */
    size_t prev_end;         /* end offset of the last consumed token */
    bool failed;
    int depth;               /* nesting of expressions being parsed */
    const char *dir;
    const include_frame *includes;
    size_t *bytes;           /* bytes of the model's files read so far */
    cat_ast *ast;
    int stmt_cap;
} parser;

static void parse_file(parser *outer_p, size_t *bytes, cat_ast *ast, const char *name,
                       const char *text, size_t len, const char *dir, const include_frame *inc,
                       FILE *errors);

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

static const char *const keywords[] = {
    "let", "rec", "and", "as", "flag", "acyclic", "irreflexive", "empty",
    "include", "show", "unshow", "with", "from", "option",
};

static bool is_keyword(const cat_token *t)
{
    if (t->kind != CT_IDENT)
        return false;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strcmp(t->text, keywords[i]) == 0)
            return true;
    return false;
}

static bool is_kw(const cat_token *t, const char *kw)
{
    return t->kind == CT_IDENT && strcmp(t->text, kw) == 0;
}

static bool starts_operand(const cat_token *t)
{
    return (t->kind == CT_IDENT && !is_keyword(t)) || t->kind == CT_LPAREN ||
           t->kind == CT_LBRACK || t->kind == CT_UNIV || t->kind == CT_ZERO ||
           t->kind == CT_TILDE;
}

static const char *ident(parser *p, const char *what)
{
    if (p->tok.kind != CT_IDENT || is_keyword(&p->tok)) {
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

static cat_expr *parse_call(parser *p, cat_expr *call)
{
    int cap = 0;
    bump(p); /* ( */
    if (p->tok.kind != CT_RPAREN) {
        do {
            cat_expr *arg = parse_expr(p);
            if (!arg)
                return NULL;
            if (call->nargs == cap) {
                cap = cap ? 2 * cap : 4;
                cat_expr **grown = GC_MALLOC(sizeof *grown * (size_t)cap);
                if (call->nargs)
                    memcpy(grown, call->args, sizeof *grown * (size_t)call->nargs);
                call->args = grown;
            }
            call->args[call->nargs++] = arg;
        } while (p->tok.kind == CT_COMMA && (bump(p), true));
    }
    return expect(p, CT_RPAREN, "expected ',' or ')' in arguments") ? call : NULL;
}

static cat_expr *parse_primary(parser *p)
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
    case CT_LPAREN:
        bump(p);
        e = parse_expr(p);
        return e && expect(p, CT_RPAREN, "expected ')'") ? e : NULL;
    case CT_LBRACK:
        bump(p);
        e = parse_expr(p);
        return e && expect(p, CT_RBRACK, "expected ']'") ? node(CE_BRACKET, pos, e, NULL) : NULL;
    case CT_IDENT:
        if (is_keyword(&t))
            break;
        bump(p);
        e = node(p->tok.kind == CT_LPAREN ? CE_CALL : CE_NAME, pos, NULL, NULL);
        e->name = t.text;
        return e->kind == CE_CALL ? parse_call(p, e) : e;
    default:
        break;
    }
    error_at(p, &t, "expected an expression");
    return NULL;
}

static cat_expr *parse_postfix(parser *p)
{
    cat_expr *e = parse_primary(p);
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

/* Binary levels, lowest precedence first. */
static const struct { enum cat_tok tok; enum cat_expr_kind kind; } levels[] = {
    {CT_BAR, CE_UNION}, {CT_SEMI, CE_SEQ}, {CT_BSLASH, CE_DIFF},
    {CT_AMP, CE_INTER}, {CT_STAR, CE_CART},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static cat_expr *parse_level(parser *p, int level)
{
    if (level == NLEVELS)
        return parse_unary(p);
    cat_expr *e = parse_level(p, level + 1);
    while (e && p->tok.kind == levels[level].tok) {
        cat_pos pos = pos_of(p, &p->tok);
        bump(p);
        cat_expr *rhs = parse_level(p, level + 1);
        e = rhs ? node(levels[level].kind, pos, e, rhs) : NULL;
    }
    return e;
}

static cat_expr *parse_expr(parser *p)
{
    if (p->depth >= CAT_MAX_EXPR_DEPTH) {
        if (!p->failed)
            diag_error(p->lx.errors, p->lx.file, p->tok.line, p->tok.col,
                       "expression nested too deeply (more than %d brackets, parentheses or calls)",
                       CAT_MAX_EXPR_DEPTH);
        p->failed = true;
        return NULL;
    }
    p->depth++;
    cat_expr *e = parse_level(p, 0);
    p->depth--;
    return e;
}

/* ---- Statements ---- */

static cat_stmt *new_stmt(parser *p, enum cat_stmt_kind kind, const cat_token *at)
{
    cat_ast *ast = p->ast;
    if (ast->nstmts == p->stmt_cap) {
        p->stmt_cap = p->stmt_cap ? 2 * p->stmt_cap : 16;
        cat_stmt *grown = GC_MALLOC(sizeof *grown * (size_t)p->stmt_cap);
        if (ast->nstmts)
            memcpy(grown, ast->stmts, sizeof *grown * (size_t)ast->nstmts);
        ast->stmts = grown;
    }
    cat_stmt *s = &ast->stmts[ast->nstmts++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->pos = pos_of(p, at);
    return s;
}

static bool parse_params(parser *p, cat_binding *b)
{
    int cap = 0;
    b->is_func = true;
    bump(p); /* ( */
    do {
        const char *name = ident(p, "expected a parameter name");
        if (!name)
            return false;
        if (b->nparams == cap) {
            cap = cap ? 2 * cap : 4;
            const char **grown = GC_MALLOC(sizeof *grown * (size_t)cap);
            if (b->nparams)
                memcpy(grown, b->params, sizeof *grown * (size_t)b->nparams);
            b->params = grown;
        }
        b->params[b->nparams++] = name;
    } while (p->tok.kind == CT_COMMA && (bump(p), true));
    return expect(p, CT_RPAREN, "expected ',' or ')' after parameter");
}

static bool parse_binding(parser *p, cat_binding *b, bool rec)
{
    b->pos = pos_of(p, &p->tok);
    b->name = ident(p, "expected a name to bind");
    if (!b->name)
        return false;
    if (p->tok.kind == CT_LPAREN) {
        if (rec) {
            error_at(p, &p->tok, "recursive functions are not supported: expected '='");
            return false;
        }
        if (!parse_params(p, b))
            return false;
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
    cat_binding *binds = NULL;
    int n = 0, cap = 0;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 4;
            cat_binding *grown = GC_MALLOC(sizeof *grown * (size_t)cap);
            if (n)
                memcpy(grown, binds, sizeof *grown * (size_t)n);
            binds = grown;
        }
        memset(&binds[n], 0, sizeof binds[n]);
        if (!parse_binding(p, &binds[n++], rec))
            return false;
    } while (is_kw(&p->tok, "and") && (bump(p), true));
    cat_stmt *s = new_stmt(p, rec ? CS_LET_REC : CS_LET, at);
    s->binds = binds;
    s->nbinds = n;
    s->text = text_since(p, start);
    return true;
}

static bool parse_check(parser *p, const cat_token *at, size_t start)
{
    bool flag = false, negate = false;
    if (is_kw(&p->tok, "flag")) {
        flag = true;
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
    s->negate = negate;
    s->flag = flag;
    s->expr = e;
    s->text = text_since(p, start);
    if (is_kw(&p->tok, "as")) {
        bump(p);
        s->name = ident(p, "expected a name after 'as'");
        return s->name != NULL;
    }
    return true;
}

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
    if (!is_kw(&p->tok, "linearisations")) {
        error_at(p, &p->tok, "expected 'linearisations'");
        return false;
    }
    bump(p);
    if (!expect(p, CT_LPAREN, "expected '('"))
        return false;
    cat_expr *set = parse_expr(p);
    if (!set || !expect(p, CT_COMMA, "expected ','"))
        return false;
    cat_expr *rel = parse_expr(p);
    if (!rel || !expect(p, CT_RPAREN, "expected ')'"))
        return false;
    cat_stmt *s = new_stmt(p, CS_WITH, at);
    s->var = var;
    s->set = set;
    s->rel = rel;
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
    *field = true;
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
        return parse_promise(p, "allowed", &p->ast->thin_air);
    if (flags)
        return parse_promise(p, "undefined", &p->ast->flags_undefined);
    if (thread)
        return parse_promise(p, "enforced", &p->ast->thread_coherent);
    if (is_kw(&p->tok, "partial"))
        p->ast->co_mode = CAT_CO_PARTIAL;
    else if (is_kw(&p->tok, "total"))
        p->ast->co_mode = CAT_CO_TOTAL;
    else {
        error_at(p, &p->tok, "expected 'partial' or 'total'");
        return false;
    }
    bump(p);
    return true;
}

/* show e, e as name, ...  /  unshow e, ...: parsed, then ignored. */
static bool parse_show(parser *p)
{
    bump(p);
    do {
        if (!parse_expr(p))
            return false;
        if (is_kw(&p->tok, "as")) {
            bump(p);
            if (!ident(p, "expected a name after 'as'"))
                return false;
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

static bool parse_include(parser *p)
{
    bump(p); /* include */
    cat_token t = p->tok;
    if (!expect(p, CT_STRING, "expected a file name in quotes"))
        return false;
    const char *path = join_path(p->dir, t.text);
    int depth = p->includes ? p->includes->depth : 0;
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
    const char *why;
    char *text = textfile_read(path, CAT_MAX_FILE_BYTES, &len, &why);
    if (!text) {
        diag_error(p->lx.errors, p->lx.file, t.line, t.col, "cannot read included file '%s': %s",
                   path, why);
        p->failed = true;
        return false;
    }
    if (len > CAT_MAX_MODEL_BYTES - *p->bytes) {
        diag_error(p->lx.errors, p->lx.file, t.line, t.col,
                   "the model and its includes are too large (more than %u bytes in all)",
                   CAT_MAX_MODEL_BYTES);
        p->failed = true;
        return false;
    }
    *p->bytes += len;
    include_frame frame = {path, p->includes, depth + 1};
    parse_file(p, NULL, p->ast, path, text, len, dir_of(path), &frame, p->lx.errors);
    return !p->failed;
}

static bool parse_stmt(parser *p)
{
    cat_token at = p->tok;
    size_t start = at.start;
    if (is_kw(&at, "let"))
        return parse_let(p, &at, start);
    if (is_kw(&at, "with"))
        return parse_with(p, &at, start);
    if (is_kw(&at, "include"))
        return parse_include(p);
    if (is_kw(&at, "option"))
        return parse_option(p);
    if (is_kw(&at, "show") || is_kw(&at, "unshow"))
        return parse_show(p);
    if (is_kw(&at, "flag") || at.kind == CT_TILDE || is_kw(&at, "acyclic") ||
        is_kw(&at, "irreflexive") || is_kw(&at, "empty"))
        return parse_check(p, &at, start);
    error_at(p, &at, "expected a statement");
    return false;
}

/* Parses one file's statements into `ast`; `outer` (or NULL) receives
 * failure.  `bytes` counts the bytes of the model's files (top level). */
static void parse_file(parser *outer, size_t *bytes, cat_ast *ast, const char *name,
                       const char *text, size_t len, const char *dir, const include_frame *inc,
                       FILE *errors)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.dir = dir;
    p.includes = inc;
    p.bytes = outer ? outer->bytes : bytes;
    p.ast = ast;
    p.stmt_cap = outer ? outer->stmt_cap : 0;
    cat_lex_init(&p.lx, name, text, len, errors);
    cat_lex_next(&p.lx, &p.tok);
    if (p.tok.kind == CT_ERROR)
        p.failed = true;
    else
        cat_lex_next(&p.lx, &p.next);
    /* The first token may be the model's title: a string or a bare name. */
    if (p.tok.kind == CT_STRING || (p.tok.kind == CT_IDENT && !is_keyword(&p.tok))) {
        if (!outer)
            ast->title = p.tok.text;
        bump(&p);
    }
    while (!p.failed && p.tok.kind != CT_EOF)
        parse_stmt(&p);
    if (outer) {
        outer->stmt_cap = p.stmt_cap;
        outer->failed = outer->failed || p.failed;
    } else if (p.failed) {
        ast->nstmts = -1;
    }
}

cat_ast *cat_parse(const char *name, const char *text, size_t len, const char *dir,
                   FILE *errors)
{
    cat_ast *ast = GC_MALLOC(sizeof *ast);
    ast->co_mode = CAT_CO_TOTAL;
    if (len > CAT_MAX_FILE_BYTES) {
        diag_error(errors, name, 1, 1, "file too large (more than %u bytes)", CAT_MAX_FILE_BYTES);
        return NULL;
    }
    size_t bytes = len;
    parse_file(NULL, &bytes, ast, name, text, len, dir, NULL, errors);
    return ast->nstmts < 0 ? NULL : ast;
}

char *cat_dir_of(const char *path) { return dir_of(path); }
