/*
 * litmus_opencl.c: the OpenCL C litmus dialect (grammar in
 * docs/litmus-opencl.md).
 *
 * The header, init block and thread headers are read token by token.  Each
 * thread body is parsed statement by statement; expressions are parsed into
 * a small tree and then compiled at once into lit_instr (loads, stores,
 * read-modify-writes, fences, barriers, moves, ALU operations, branches).
 * Branch targets are label numbers while a body is compiled and become
 * instruction indices when it is finished.  Temporaries that the compiler
 * needs are registers named "t.N" (a name no condition can spell).  The
 * final condition is parsed by litmus_cond.c.
 */
#include "litmus_opencl.h"

#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus_cond.h"
#include "litmus_lex.h"
#include "litmus_read.h"

#define MAX_DEPTH 200
#define MAX_ARGS 8
#define OPENCL_ADDRESS_BASE ((lit_value)1 << 62)

/* ---- expression trees ---------------------------------------------------- */

enum node_kind { N_NUM, N_VAR, N_DEREF, N_ADDR, N_CALL, N_BIN, N_NOT, N_NEG };
enum binop { B_ADD, B_SUB, B_MUL, B_AND, B_OR, B_EQ, B_NE, B_LT, B_GT, B_LE, B_GE, B_LAND, B_LOR };

typedef struct node {
    enum node_kind kind;
    enum binop op;
    lit_value num;
    const char *name;        /* N_VAR, N_DEREF, N_ADDR, N_CALL */
    struct node *l, *r;      /* N_BIN: both; N_NOT, N_NEG: l */
    struct node *args[MAX_ARGS];
    int nargs;
    int line, col;
} node;

/* ---- parser state ------------------------------------------------------- */

typedef struct param {
    const char *name;
    int loc;
} param;

typedef struct placement {
    int thread, cta, gpu, line, col;
} placement;

typedef struct loop_labels {
    int brk, cont;
} loop_labels;

typedef struct oparser {
    lexer lx;
    litmus_test *t;
    int depth;
    /* register initialisations from the init block */
    struct { int thread; const char *name; lit_value v; int line, col; } *rinit;
    int nrinit;
    /* scopeTree placements */
    placement *places;
    int nplaces;
    /* parameters of every thread, for conditions that name them */
    param **tparams;
    int *tnparams;
    /* the thread being compiled */
    lit_thread *th;
    param *params;
    int nparams;
    const char **decl;       /* declared local variables */
    int ndecl;
    lit_instr *code;
    int ncode, capcode;
    int *labels;             /* label number -> instruction index, -1 if not placed */
    int nlabels, caplabels;
    int ntemps;
    int nbarriers;
    loop_labels loops[MAX_DEPTH];
    int nloops;
} oparser;

#define LX (&p->lx)
#define TOK (p->lx.tok)

static bool failed(oparser *p) { return p->lx.failed; }

static void expected(oparser *p, const char *what)
{
    if (TOK.kind == TOK_ERROR)
        return;
    if (TOK.kind == TOK_EOF)
        lex_error(LX, TOK.line, TOK.col, "unexpected end of file: expected %s", what);
    else
        lex_error(LX, TOK.line, TOK.col, "expected %s, got %s", what, lex_describe(&TOK));
}

static bool expect_punct(oparser *p, const char *punct, const char *what)
{
    if (!lex_is_punct(&TOK, punct)) {
        expected(p, what);
        return false;
    }
    lex_advance(LX);
    return true;
}

/* The character just after the current token in the source, or -1. */
static int char_after(oparser *p)
{
    const char *e = TOK.text + TOK.len;
    return e < LX->src + LX->len ? (unsigned char)*e : -1;
}

static bool grow(void **v, int n, int *cap, size_t elem)
{
    if (n < *cap)
        return true;
    int nc = *cap ? 2 * *cap : 16;
    void *nv = GC_MALLOC(elem * (size_t)nc);
    if (!nv)
        return false;
    if (n)
        memcpy(nv, *v, elem * (size_t)n);
    *v = nv;
    *cap = nc;
    return true;
}

static int thread_number(const lex_token *tok)
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

static bool parse_int(oparser *p, lit_value *out, const char *what)
{
    bool neg = false;
    if (lex_is_punct(&TOK, "-") || lex_is_punct(&TOK, "+")) {
        neg = lex_is_punct(&TOK, "-");
        lex_advance(LX);
    }
    if (TOK.kind != TOK_NUMBER) {
        expected(p, what);
        return false;
    }
    *out = neg ? -TOK.num : TOK.num;
    lex_advance(LX);
    return true;
}

/* ---- header, init block -------------------------------------------------- */

static bool parse_header(oparser *p)
{
    return litmus_lex_header(LX, p->t);
}

static bool parse_init_item(oparser *p)
{
    litmus_test *t = p->t;
    lex_token first = TOK;
    bool bracket = lex_is_punct(&TOK, "[");
    if (bracket) {
        lex_advance(LX);
        first = TOK;
        if (TOK.kind != TOK_IDENT) {
            expected(p, "a location name after '['");
            return false;
        }
        lex_advance(LX);
        if (!expect_punct(p, "]", "']'"))
            return false;
    } else {
        if (first.kind != TOK_IDENT && first.kind != TOK_NUMBER) {
            expected(p, "a location ([x] = v) or register (1:r = v) initialisation");
            return false;
        }
        lex_advance(LX);
        if (lex_is_punct(&TOK, ":")) {
            int th = first.kind == TOK_NUMBER ? (first.num > 100000 ? 100000 : (int)first.num)
                                              : thread_number(&first);
            if (th < 0) {
                lex_error(LX, first.line, first.col, "bad thread name %s (expected P0 or 0, ...)",
                          lex_describe(&first));
                return false;
            }
            lex_advance(LX);
            if (TOK.kind != TOK_IDENT) {
                expected(p, "a register name");
                return false;
            }
            lex_token reg = TOK;
            lex_advance(LX);
            if (!expect_punct(p, "=", "'='"))
                return false;
            lit_value v;
            if (!parse_int(p, &v, "an integer value"))
                return false;
            void *v0 = p->rinit;
            int cap = p->nrinit;
            if (!grow(&v0, p->nrinit, &cap, sizeof *p->rinit))
                return false;
            p->rinit = v0;
            p->rinit[p->nrinit].thread = th;
            p->rinit[p->nrinit].name = lex_tok_str(&reg);
            p->rinit[p->nrinit].v = v;
            p->rinit[p->nrinit].line = first.line;
            p->rinit[p->nrinit].col = first.col;
            p->nrinit++;
            return true;
        }
        if (first.kind != TOK_IDENT) {
            lex_error(LX, first.line, first.col, "bad location name %s", lex_describe(&first));
            return false;
        }
    }
    char *name = lex_tok_str(&first);
    if (litmus_loc_index(t, name) >= 0) {
        lex_error(LX, first.line, first.col, "location '%s' is initialised twice", name);
        return false;
    }
    if (!expect_punct(p, "=", "'=' after the location"))
        return false;
    lit_value v;
    if (!parse_int(p, &v, "an integer value"))
        return false;
    litmus_add_loc(t, name, v);
    return true;
}

static bool parse_init(oparser *p)
{
    if (!expect_punct(p, "{", "'{' to open the init block"))
        return false;
    for (;;) {
        if (lex_is_punct(&TOK, "}"))
            break;
        if (lex_is_punct(&TOK, ";")) {
            lex_advance(LX);
            continue;
        }
        if (TOK.kind == TOK_EOF) {
            lex_error(LX, TOK.line, TOK.col, "unexpected end of file in the init block (missing '}')");
            return false;
        }
        if (!parse_init_item(p))
            return false;
        if (!lex_is_punct(&TOK, ";") && !lex_is_punct(&TOK, "}")) {
            if (TOK.kind == TOK_EOF)
                lex_error(LX, TOK.line, TOK.col, "unexpected end of file in the init block (missing '}')");
            else
                expected(p, "';' in the init block");
            return false;
        }
    }
    lex_advance(LX);
    return !failed(p);
}

/* scopeTree (device (work_group P0 P1) (work_group P2)) ... */
static bool parse_scope_tree(oparser *p)
{
    lex_advance(LX);                /* scopeTree */
    int ndev = 0, nwg = 0;
    if (!lex_is_punct(&TOK, "(")) {
        expected(p, "'(' after 'scopeTree'");
        return false;
    }
    while (lex_is_punct(&TOK, "(")) {
        lex_advance(LX);
        if (!lex_is_ident(&TOK, "device")) {
            expected(p, "'device' in the scope tree");
            return false;
        }
        lex_advance(LX);
        while (lex_is_punct(&TOK, "(")) {
            lex_advance(LX);
            if (!lex_is_ident(&TOK, "work_group")) {
                expected(p, "'work_group' in the scope tree");
                return false;
            }
            lex_advance(LX);
            int depth = 0;
            for (;;) {
                if (lex_is_punct(&TOK, "(")) {
                    /* (sub_group P0 P1): a finer level, same work group */
                    lex_advance(LX);
                    if (!lex_is_ident(&TOK, "sub_group") && !lex_is_ident(&TOK, "work_item")) {
                        expected(p, "'sub_group' or 'work_item' in the scope tree");
                        return false;
                    }
                    lex_advance(LX);
                    if (++depth > 4) {
                        lex_error(LX, TOK.line, TOK.col, "scope tree nested too deeply");
                        return false;
                    }
                    continue;
                }
                if (lex_is_punct(&TOK, ")")) {
                    lex_advance(LX);
                    if (depth-- == 0)
                        break;
                    continue;
                }
                int th = thread_number(&TOK);
                if (th < 0) {
                    expected(p, "a thread name (P0, P1, ...) or ')' in the scope tree");
                    return false;
                }
                void *v0 = p->places;
                int cap = p->nplaces;
                if (!grow(&v0, p->nplaces, &cap, sizeof *p->places))
                    return false;
                p->places = v0;
                p->places[p->nplaces++] = (placement){ th, nwg, ndev, TOK.line, TOK.col };
                lex_advance(LX);
            }
            nwg++;
        }
        if (!expect_punct(p, ")", "'(' or ')' in the scope tree"))
            return false;
        ndev++;
    }
    return true;
}

/* ---- code buffer ---------------------------------------------------------- */

static int new_label(oparser *p)
{
    void *v = p->labels;
    if (!grow(&v, p->nlabels, &p->caplabels, sizeof *p->labels))
        return -1;
    p->labels = v;
    p->labels[p->nlabels] = -1;
    return p->nlabels++;
}

static void place_label(oparser *p, int l)
{
    if (l >= 0)
        p->labels[l] = p->ncode;
}

static lit_instr *emit(oparser *p, enum lit_opcode op, int line, int col)
{
    void *v = p->code;
    if (!grow(&v, p->ncode, &p->capcode, sizeof *p->code)) {
        lex_error(LX, line, col, "out of memory");
        return NULL;
    }
    p->code = v;
    lit_instr *in = &p->code[p->ncode++];
    memset(in, 0, sizeof *in);
    in->op = op;
    in->dst = -1;
    in->loc = -1;
    in->target = -1;
    in->a.reg = in->b.reg = -1;
    in->line = line;
    in->col = col;
    return in;
}

/* Give instructions from `from` on that have no text yet the source slice
 * [s, e) and its position. */
static void stamp(oparser *p, int from, const char *s, const char *e, int line, int col)
{
    const char *text = NULL;
    for (int i = from; i < p->ncode; i++) {
        if (p->code[i].text)
            continue;
        if (!text) {
            char *buf = lex_strndup(s, (size_t)(e - s));
            /* one line: newlines and tabs become spaces */
            for (char *c = buf; *c; c++)
                if (*c == '\n' || *c == '\r' || *c == '\t')
                    *c = ' ';
            text = buf;
        }
        p->code[i].text = text;
        p->code[i].line = line;
        p->code[i].col = col;
    }
}

static lit_operand imm(lit_value v)
{
    lit_operand o = { OPND_IMM, -1, v };
    return o;
}

static lit_operand regop(int r)
{
    lit_operand o = { OPND_REG, r, 0 };
    return o;
}

static int new_temp(oparser *p)
{
    char buf[32];
    snprintf(buf, sizeof buf, "t.%d", p->ntemps++);
    return litmus_add_reg(p->th, lex_strndup(buf, strlen(buf)), 0);
}

static int local_index(oparser *p, const char *name)
{
    for (int i = 0; i < p->ndecl; i++)
        if (strcmp(p->decl[i], name) == 0)
            return litmus_reg_index(p->th, name);
    return -1;
}

static int param_loc(oparser *p, const char *name)
{
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, name) == 0)
            return p->params[i].loc;
    return -1;
}

/* ---- expressions ----------------------------------------------------------- */

static node *new_node(enum node_kind k, int line, int col)
{
    node *n = GC_MALLOC(sizeof *n);
    n->kind = k;
    n->line = line;
    n->col = col;
    return n;
}

static node *parse_expr_prec(oparser *p, int minprec);

/* The binary operator at the current token: its precedence (0 if none) and
 * how many tokens it spans. */
static int peek_binop(oparser *p, enum binop *op, int *ntoks)
{
    *ntoks = 1;
    if (TOK.kind != TOK_PUNCT)
        return 0;
    int next = char_after(p);
    if (lex_tok_eq(&TOK, "|")) {
        if (next == '|') { *op = B_LOR; *ntoks = 2; return 1; }
        *op = B_OR; return 3;
    }
    if (lex_tok_eq(&TOK, "&")) {
        if (next == '&') { *op = B_LAND; *ntoks = 2; return 2; }
        *op = B_AND; return 4;
    }
    if (lex_tok_eq(&TOK, "==")) { *op = B_EQ; return 5; }
    if (lex_tok_eq(&TOK, "!=")) { *op = B_NE; return 5; }
    if (lex_tok_eq(&TOK, "<")) {
        if (next == '=') { *op = B_LE; *ntoks = 2; return 6; }
        *op = B_LT; return 6;
    }
    if (lex_tok_eq(&TOK, ">")) {
        if (next == '=') { *op = B_GE; *ntoks = 2; return 6; }
        *op = B_GT; return 6;
    }
    if (lex_tok_eq(&TOK, "+") && next != '+' && next != '=') { *op = B_ADD; return 7; }
    if (lex_tok_eq(&TOK, "-") && next != '-' && next != '=') { *op = B_SUB; return 7; }
    if (lex_tok_eq(&TOK, "*")) { *op = B_MUL; return 8; }
    return 0;
}

static node *parse_primary(oparser *p)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, TOK.line, TOK.col, "expression nested too deeply");
        return NULL;
    }
    lex_token tok = TOK;
    node *n = NULL;
    if (tok.kind == TOK_NUMBER) {
        n = new_node(N_NUM, tok.line, tok.col);
        n->num = tok.num;
        lex_advance(LX);
    } else if (lex_is_punct(&tok, "(")) {
        lex_advance(LX);
        n = parse_expr_prec(p, 1);
        if (n && !lex_is_punct(&TOK, ")")) {
            if (TOK.kind != TOK_ERROR)
                lex_error(LX, TOK.line, TOK.col, "expected ')' to close '(' at %d:%d, got %s",
                          tok.line, tok.col, lex_describe(&TOK));
            n = NULL;
        }
        if (n)
            lex_advance(LX);
    } else if (lex_is_punct(&tok, "!") || lex_is_punct(&tok, "-") || lex_is_punct(&tok, "+")) {
        lex_advance(LX);
        node *inner = parse_primary(p);
        if (inner) {
            if (lex_is_punct(&tok, "+")) {
                n = inner;
            } else if (lex_is_punct(&tok, "-") && inner->kind == N_NUM) {
                n = inner;
                n->num = -n->num;
                n->line = tok.line;
                n->col = tok.col;
            } else {
                n = new_node(lex_is_punct(&tok, "!") ? N_NOT : N_NEG, tok.line, tok.col);
                n->l = inner;
            }
        }
    } else if (lex_is_punct(&tok, "*") || lex_is_punct(&tok, "&")) {
        lex_advance(LX);
        if (TOK.kind != TOK_IDENT) {
            expected(p, lex_is_punct(&tok, "*") ? "a location name after '*'"
                                                : "a variable name after '&'");
            return NULL;
        }
        n = new_node(lex_is_punct(&tok, "*") ? N_DEREF : N_ADDR, tok.line, tok.col);
        n->name = lex_tok_str(&TOK);
        lex_advance(LX);
    } else if (tok.kind == TOK_IDENT) {
        lex_advance(LX);
        if (lex_is_punct(&TOK, "(")) {
            n = new_node(N_CALL, tok.line, tok.col);
            n->name = lex_tok_str(&tok);
            lex_advance(LX);
            if (!lex_is_punct(&TOK, ")")) {
                for (;;) {
                    if (n->nargs == MAX_ARGS) {
                        lex_error(LX, TOK.line, TOK.col, "too many arguments to '%s'", n->name);
                        return NULL;
                    }
                    node *a = parse_expr_prec(p, 1);
                    if (!a)
                        return NULL;
                    n->args[n->nargs++] = a;
                    if (lex_is_punct(&TOK, ")"))
                        break;
                    if (!lex_is_punct(&TOK, ",")) {
                        expected(p, "',' or ')' in the argument list");
                        return NULL;
                    }
                    lex_advance(LX);
                }
            }
            lex_advance(LX);
        } else {
            n = new_node(N_VAR, tok.line, tok.col);
            n->name = lex_tok_str(&tok);
        }
    } else {
        expected(p, "an expression");
    }
    p->depth--;
    return n;
}

static node *parse_expr_prec(oparser *p, int minprec)
{
    node *l = parse_primary(p);
    for (;;) {
        enum binop op;
        int ntoks;
        if (!l)
            return NULL;
        int prec = peek_binop(p, &op, &ntoks);
        if (prec == 0 || prec < minprec)
            return l;
        lex_token optok = TOK;
        for (int i = 0; i < ntoks; i++)
            lex_advance(LX);
        node *r = parse_expr_prec(p, prec + 1);
        if (!r)
            return NULL;
        node *b = new_node(N_BIN, optok.line, optok.col);
        b->op = op;
        b->l = l;
        b->r = r;
        l = b;
    }
}

static node *parse_expr(oparser *p)
{
    return parse_expr_prec(p, 1);
}

/* ---- compiling expressions --------------------------------------------------- */

static bool gen_value(oparser *p, node *e, lit_operand *out);
static bool gen_into(oparser *p, node *e, int dst);
static bool gen_cond(oparser *p, node *e, bool jump_if, int label);

static bool node_is(const node *e, const char *name)
{
    return e->kind == N_VAR && strcmp(e->name, name) == 0;
}

static bool arg_order(oparser *p, node *e, enum lit_order *o)
{
    static const struct { const char *n; enum lit_order o; } orders[] = {
        { "memory_order_relaxed", ORD_RELAXED }, { "memory_order_acquire", ORD_ACQUIRE },
        { "memory_order_release", ORD_RELEASE }, { "memory_order_acq_rel", ORD_ACQ_REL },
        { "memory_order_seq_cst", ORD_SC },
    };
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        if (node_is(e, orders[i].n)) {
            *o = orders[i].o;
            return true;
        }
    lex_error(LX, e->line, e->col, "expected a memory order (memory_order_relaxed, _acquire, "
              "_release, _acq_rel or _seq_cst)");
    return false;
}

static bool arg_scope(oparser *p, node *e, enum lit_scope *s)
{
    static const struct { const char *n; enum lit_scope s; } scopes[] = {
        { "memory_scope_work_item", SCOPE_WI }, { "memory_scope_work_group", SCOPE_CTA },
        { "memory_scope_device", SCOPE_GPU }, { "memory_scope_all_svm_devices", SCOPE_SYS },
    };
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++)
        if (node_is(e, scopes[i].n)) {
            *s = scopes[i].s;
            return true;
        }
    lex_error(LX, e->line, e->col, "expected a memory scope (memory_scope_work_item, _work_group, "
              "_device or _all_svm_devices)");
    return false;
}

static bool arg_flags(oparser *p, node *e, uint8_t *regions)
{
    if (e->kind == N_BIN && e->op == B_OR) {
        uint8_t a = 0, b = 0;
        if (!arg_flags(p, e->l, &a) || !arg_flags(p, e->r, &b))
            return false;
        *regions = a | b;
        return true;
    }
    if (node_is(e, "CLK_GLOBAL_MEM_FENCE")) { *regions = REGION_GLOBAL; return true; }
    if (node_is(e, "CLK_LOCAL_MEM_FENCE")) { *regions = REGION_LOCAL; return true; }
    lex_error(LX, e->line, e->col, "expected fence flags (CLK_GLOBAL_MEM_FENCE, "
              "CLK_LOCAL_MEM_FENCE, or both joined by '|')");
    return false;
}

/* The location an atomic's object argument names. */
static int arg_loc(oparser *p, node *e, const char *fn)
{
    node *x = e;                    /* x or &x: the location x */
    if ((x->kind == N_VAR || x->kind == N_ADDR) && local_index(p, x->name) < 0) {
        int l = param_loc(p, x->name);
        if (l >= 0)
            return l;
        lex_error(LX, x->line, x->col, "undeclared location '%s' (not a parameter of thread %s)",
                  x->name, p->th->name);
        return -1;
    }
    lex_error(LX, e->line, e->col, "the first argument of '%s' must be a location (a pointer parameter)",
              fn);
    return -1;
}

enum fn_kind { F_LOAD, F_STORE, F_RMW, F_CAS, F_INIT, F_FENCE, F_BARRIER };

static bool ends_with(const char *s, size_t *n, const char *suffix)
{
    size_t k = strlen(suffix);
    if (*n > k && memcmp(s + *n - k, suffix, k) == 0) {
        *n -= k;
        return true;
    }
    return false;
}

/* Compile a call; `dst` is the register that receives its value, -1 if the
 * value is unused, -2 if a value is needed and a temporary should be made
 * (its register is returned in *made). */
static bool gen_call(oparser *p, node *e, int dst, int *made)
{
    const char *fn = e->name;
    size_t n = strlen(fn);
    bool remote = ends_with(fn, &n, "_remote");
    bool explicit = ends_with(fn, &n, "_explicit");
    char base[64];
    if (n >= sizeof base)
        n = sizeof base - 1;
    memcpy(base, fn, n);
    base[n] = '\0';

    enum fn_kind kind;
    enum lit_rmw_op rop = RMW_ADD;
    static const struct { const char *n; enum lit_rmw_op op; } rmws[] = {
        { "atomic_exchange", RMW_EXCH }, { "atomic_fetch_add", RMW_ADD },
        { "atomic_fetch_sub", RMW_SUB }, { "atomic_fetch_and", RMW_AND },
        { "atomic_fetch_or", RMW_OR }, { "atomic_fetch_xor", RMW_XOR },
        { "atomic_fetch_min", RMW_MIN }, { "atomic_fetch_max", RMW_MAX },
    };
    int k = -1;
    for (size_t i = 0; i < sizeof rmws / sizeof rmws[0]; i++)
        if (strcmp(base, rmws[i].n) == 0)
            k = (int)i;
    if (k >= 0) { kind = F_RMW; rop = rmws[k].op; }
    else if (strcmp(base, "atomic_load") == 0) kind = F_LOAD;
    else if (strcmp(base, "atomic_store") == 0) kind = F_STORE;
    else if (strcmp(base, "atomic_compare_exchange_strong") == 0 ||
             strcmp(base, "atomic_compare_exchange_weak") == 0) kind = F_CAS;
    else if (strcmp(fn, "atomic_init") == 0) kind = F_INIT;
    else if (strcmp(fn, "atomic_work_item_fence") == 0) kind = F_FENCE;
    else if (strcmp(fn, "barrier") == 0 || strcmp(fn, "work_group_barrier") == 0) kind = F_BARRIER;
    else {
        lex_error(LX, e->line, e->col, "unknown function '%s'", fn);
        return false;
    }
    if ((remote || explicit) && (kind == F_INIT || kind == F_FENCE || kind == F_BARRIER)) {
        lex_error(LX, e->line, e->col, "unknown function '%s'", fn);
        return false;
    }

    /* argument counts: values before the order arguments */
    int nvals = kind == F_LOAD ? 1 : kind == F_CAS ? 3 : kind == F_FENCE ? 3 : 2;
    int lo = nvals, hi = nvals;
    if (kind == F_BARRIER) { lo = 1; hi = strcmp(fn, "barrier") == 0 ? 1 : 2; }
    else if (explicit) { lo = nvals + (kind == F_CAS ? 2 : 1); hi = lo + 1; }
    if (e->nargs < lo || e->nargs > hi) {
        if (lo == hi)
            lex_error(LX, e->line, e->col, "'%s' takes %d argument%s, not %d", fn, lo, lo == 1 ? "" : "s",
                      e->nargs);
        else
            lex_error(LX, e->line, e->col, "'%s' takes %d or %d arguments, not %d", fn, lo, hi, e->nargs);
        return false;
    }
    bool has_value = kind == F_LOAD || kind == F_RMW || kind == F_CAS;
    if (dst == -2) {
        if (!has_value) {
            lex_error(LX, e->line, e->col, "'%s' has no value", fn);
            return false;
        }
        dst = new_temp(p);
        *made = dst;
    }
    if (dst >= 0 && !has_value) {
        lex_error(LX, e->line, e->col, "'%s' has no value", fn);
        return false;
    }

    if (kind == F_FENCE || kind == F_BARRIER) {
        uint8_t regions = 0;
        if (!arg_flags(p, e->args[0], &regions))
            return false;
        if (kind == F_BARRIER) {
            enum lit_scope s = SCOPE_CTA;
            if (e->nargs == 2 && !arg_scope(p, e->args[1], &s))
                return false;
            lit_instr *in = emit(p, OP_BARRIER, e->line, e->col);
            if (!in)
                return false;
            in->barrier_waits = true;
            in->scope = SCOPE_CTA;
            /* the k-th barrier of the thread's text meets the k-th of
             * the other work-items of its work group */
            in->a = imm(p->nbarriers++);
            in->b.kind = OPND_NONE;
            in->regions = regions;
            return true;
        }
        enum lit_order o;
        enum lit_scope s;
        if (!arg_order(p, e->args[1], &o) || !arg_scope(p, e->args[2], &s))
            return false;
        lit_instr *in = emit(p, OP_FENCE, e->line, e->col);
        if (!in)
            return false;
        in->order = o;
        in->scope = s;
        in->regions = regions;
        return true;
    }

    int loc = arg_loc(p, e->args[0], fn);
    if (loc < 0)
        return false;
    enum lit_order order = ORD_SC;
    enum lit_scope scope = SCOPE_GPU;       /* OpenCL 2.0: memory_scope_device by default */
    if (kind == F_INIT) {
        order = ORD_WEAK;
        scope = SCOPE_NONE;
    } else if (explicit) {
        if (!arg_order(p, e->args[nvals], &order))
            return false;
        int nord = kind == F_CAS ? 2 : 1;
        if (kind == F_CAS) {
            enum lit_order fail;
            if (!arg_order(p, e->args[nvals + 1], &fail))
                return false;
        }
        if (e->nargs == nvals + nord + 1 && !arg_scope(p, e->args[nvals + nord], &scope))
            return false;
        if (kind == F_LOAD && (order == ORD_RELEASE || order == ORD_ACQ_REL)) {
            lex_error(LX, e->args[1]->line, e->args[1]->col,
                      "a load cannot have memory order release or acq_rel");
            return false;
        }
        if (kind == F_STORE && (order == ORD_ACQUIRE || order == ORD_ACQ_REL)) {
            lex_error(LX, e->args[2]->line, e->args[2]->col,
                      "a store cannot have memory order acquire or acq_rel");
            return false;
        }
    }

    if (kind == F_LOAD) {
        if (dst < 0)
            dst = new_temp(p);
        lit_instr *in = emit(p, OP_LOAD, e->line, e->col);
        if (!in)
            return false;
        in->dst = dst;
        in->loc = loc;
        in->order = order;
        in->scope = scope;
        in->remote = remote;
        return true;
    }
    if (kind == F_STORE || kind == F_INIT || kind == F_RMW) {
        lit_operand v;
        if (!gen_value(p, e->args[1], &v))
            return false;
        lit_instr *in = emit(p, kind == F_RMW ? OP_RMW : OP_STORE, e->line, e->col);
        if (!in)
            return false;
        in->loc = loc;
        in->a = v;
        in->order = order;
        in->scope = scope;
        in->remote = remote;
        if (kind == F_RMW) {
            in->rmw_op = rop;
            in->dst = dst;
        }
        return true;
    }

    /* compare-exchange: C semantics over the expected object */
    node *ex = e->args[1];
    int exp_loc = -1, exp_reg = -1;
    if (ex->kind == N_ADDR && local_index(p, ex->name) >= 0) {
        exp_reg = local_index(p, ex->name);
    } else if ((ex->kind == N_VAR || ex->kind == N_ADDR) && local_index(p, ex->name) < 0 &&
               param_loc(p, ex->name) >= 0) {
        exp_loc = param_loc(p, ex->name);
    } else {
        lex_error(LX, ex->line, ex->col, "the expected argument of '%s' must be a location "
                  "(a pointer parameter) or &variable", fn);
        return false;
    }
    lit_operand expv;
    if (exp_loc >= 0) {
        int t = new_temp(p);
        lit_instr *ld = emit(p, OP_LOAD, ex->line, ex->col);
        if (!ld)
            return false;
        ld->dst = t;
        ld->loc = exp_loc;
        ld->order = ORD_WEAK;
        ld->scope = SCOPE_NONE;
        expv = regop(t);
    } else {
        /* copy, so that writing the variable back cannot disturb the comparison */
        int t = new_temp(p);
        lit_instr *mv = emit(p, OP_MOV, ex->line, ex->col);
        if (!mv)
            return false;
        mv->dst = t;
        mv->a = regop(exp_reg);
        expv = regop(t);
    }
    lit_operand des;
    if (!gen_value(p, e->args[2], &des))
        return false;
    int old = new_temp(p);
    lit_instr *in = emit(p, OP_RMW, e->line, e->col);
    if (!in)
        return false;
    in->rmw_op = RMW_CAS;
    in->loc = loc;
    in->dst = old;
    in->a = expv;
    in->b = des;
    in->order = order;
    in->scope = scope;
    in->remote = remote;
    int lfail = new_label(p), lend = new_label(p);
    if (lfail < 0 || lend < 0)
        return false;
    lit_instr *br = emit(p, OP_BRANCH, e->line, e->col);
    if (!br)
        return false;
    br->cmp = CMP_NE;
    br->a = regop(old);
    br->b = expv;
    br->target = lfail;
    if (dst >= 0) {
        lit_instr *one = emit(p, OP_MOV, e->line, e->col);
        if (!one)
            return false;
        one->dst = dst;
        one->a = imm(1);
    }
    lit_instr *go = emit(p, OP_GOTO, e->line, e->col);
    if (!go)
        return false;
    go->target = lend;
    place_label(p, lfail);
    if (exp_loc >= 0) {
        lit_instr *st = emit(p, OP_STORE, ex->line, ex->col);
        if (!st)
            return false;
        st->loc = exp_loc;
        st->a = regop(old);
        st->order = ORD_WEAK;
        st->scope = SCOPE_NONE;
    } else {
        lit_instr *mv = emit(p, OP_MOV, ex->line, ex->col);
        if (!mv)
            return false;
        mv->dst = exp_reg;
        mv->a = regop(old);
    }
    if (dst >= 0) {
        lit_instr *zero = emit(p, OP_MOV, e->line, e->col);
        if (!zero)
            return false;
        zero->dst = dst;
        zero->a = imm(0);
    }
    place_label(p, lend);
    return true;
}

static bool is_compare(const node *e)
{
    return e->kind == N_NOT ||
           (e->kind == N_BIN && (e->op == B_EQ || e->op == B_NE || e->op == B_LT || e->op == B_GT ||
                                 e->op == B_LE || e->op == B_GE || e->op == B_LAND || e->op == B_LOR));
}

static bool gen_value(oparser *p, node *e, lit_operand *out)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, e->line, e->col, "expression nested too deeply");
        return false;
    }
    bool ok = true;
    switch (e->kind) {
    case N_NUM:
        *out = imm(e->num);
        break;
    case N_VAR: {
        int r = local_index(p, e->name);
        if (r >= 0) {
            *out = regop(r);
        } else if (param_loc(p, e->name) >= 0) {
            lex_error(LX, e->line, e->col, "location '%s' used as a value (read it with *%s or atomic_load)",
                      e->name, e->name);
            ok = false;
        } else {
            lex_error(LX, e->line, e->col, "undeclared variable '%s' in thread %s", e->name, p->th->name);
            ok = false;
        }
        break;
    }
    case N_ADDR:
        lex_error(LX, e->line, e->col, "'&%s' is only allowed as the expected argument of a "
                  "compare-exchange", e->name);
        ok = false;
        break;
    default: {
        int t = new_temp(p);
        ok = gen_into(p, e, t);
        *out = regop(t);
        break;
    }
    }
    p->depth--;
    return ok;
}

/* Compile e so that its value ends up in register dst. */
static bool gen_into(oparser *p, node *e, int dst)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, e->line, e->col, "expression nested too deeply");
        return false;
    }
    bool ok = true;
    if (e->kind == N_CALL) {
        int made = -1;
        ok = gen_call(p, e, dst, &made);
    } else if (e->kind == N_DEREF) {
        int loc = local_index(p, e->name) >= 0 ? -1 : param_loc(p, e->name);
        if (loc < 0) {
            lex_error(LX, e->line, e->col, "undeclared location '%s' (not a parameter of thread %s)",
                      e->name, p->th->name);
            ok = false;
        } else {
            lit_instr *in = emit(p, OP_LOAD, e->line, e->col);
            ok = in != NULL;
            if (in) {
                in->dst = dst;
                in->loc = loc;
                in->order = ORD_WEAK;
                in->scope = SCOPE_NONE;
            }
        }
    } else if (is_compare(e)) {
        /* dst = 1; if (e) goto end; dst = 0; end: */
        int end = new_label(p);
        lit_instr *one = emit(p, OP_MOV, e->line, e->col);
        ok = end >= 0 && one;
        if (ok) {
            one->dst = dst;
            one->a = imm(1);
            int tmp = new_temp(p);
            /* compute into a temporary first: e may read dst */
            one->dst = tmp;
            ok = gen_cond(p, e, true, end);
            lit_instr *zero = ok ? emit(p, OP_MOV, e->line, e->col) : NULL;
            ok = ok && zero;
            if (ok) {
                zero->dst = tmp;
                zero->a = imm(0);
                place_label(p, end);
                lit_instr *mv = emit(p, OP_MOV, e->line, e->col);
                ok = mv != NULL;
                if (mv) {
                    mv->dst = dst;
                    mv->a = regop(tmp);
                }
            }
        }
    } else if (e->kind == N_BIN || e->kind == N_NEG) {
        lit_operand a, b;
        enum lit_alu_op aop = ALU_ADD;
        if (e->kind == N_NEG) {
            a = imm(0);
            ok = gen_value(p, e->l, &b);
            aop = ALU_SUB;
        } else {
            switch (e->op) {
            case B_ADD: aop = ALU_ADD; break;
            case B_SUB: aop = ALU_SUB; break;
            case B_MUL: aop = ALU_MUL; break;
            case B_AND: aop = ALU_AND; break;
            default: aop = ALU_OR; break;
            }
            ok = gen_value(p, e->l, &a) && gen_value(p, e->r, &b);
        }
        lit_instr *in = ok ? emit(p, OP_ALU, e->line, e->col) : NULL;
        ok = ok && in;
        if (ok) {
            in->alu_op = aop;
            in->dst = dst;
            in->a = a;
            in->b = b;
        }
    } else {
        lit_operand v;
        ok = gen_value(p, e, &v);
        lit_instr *in = ok ? emit(p, OP_MOV, e->line, e->col) : NULL;
        ok = ok && in;
        if (ok) {
            in->dst = dst;
            in->a = v;
        }
    }
    p->depth--;
    return ok;
}

/* Jump to `label` when the truth of e equals jump_if; fall through otherwise. */
static bool gen_cond(oparser *p, node *e, bool jump_if, int label)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, e->line, e->col, "condition nested too deeply");
        return false;
    }
    bool ok = true;
    if (e->kind == N_NOT) {
        ok = gen_cond(p, e->l, !jump_if, label);
    } else if (e->kind == N_BIN && (e->op == B_LAND || e->op == B_LOR)) {
        bool and = e->op == B_LAND;
        if (and == jump_if) {
            /* and, jump if true / or, jump if false: both must agree */
            int skip = new_label(p);
            ok = skip >= 0 && gen_cond(p, e->l, !jump_if, skip) && gen_cond(p, e->r, jump_if, label);
            place_label(p, skip);
        } else {
            ok = gen_cond(p, e->l, jump_if, label) && gen_cond(p, e->r, jump_if, label);
        }
    } else if (e->kind == N_BIN && (e->op == B_LT || e->op == B_GT || e->op == B_LE || e->op == B_GE)) {
        lex_error(LX, e->line, e->col, "ordered comparisons (<, >, <=, >=) are not supported; "
                  "use == or !=");
        ok = false;
    } else {
        lit_operand a, b;
        enum lit_cmp cmp;
        if (e->kind == N_BIN && (e->op == B_EQ || e->op == B_NE)) {
            ok = gen_value(p, e->l, &a) && gen_value(p, e->r, &b);
            cmp = (e->op == B_EQ) == jump_if ? CMP_EQ : CMP_NE;
        } else {
            ok = gen_value(p, e, &a);
            b = imm(0);
            cmp = jump_if ? CMP_NE : CMP_EQ;
        }
        lit_instr *in = ok ? emit(p, OP_BRANCH, e->line, e->col) : NULL;
        ok = ok && in;
        if (ok) {
            in->cmp = cmp;
            in->a = a;
            in->b = b;
            in->target = label;
        }
    }
    p->depth--;
    return ok;
}

/* ---- statements ---------------------------------------------------------------- */

static bool parse_stmt(oparser *p);

static bool is_type_word(const lex_token *t)
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

static bool parse_decl(oparser *p)
{
    while (is_type_word(&TOK) || lex_is_ident(&TOK, "const") || lex_is_ident(&TOK, "volatile") ||
           lex_is_ident(&TOK, "private") || lex_is_ident(&TOK, "__private"))
        lex_advance(LX);
    for (;;) {
        if (TOK.kind != TOK_IDENT) {
            expected(p, "a variable name");
            return false;
        }
        lex_token name = TOK;
        char *s = lex_tok_str(&name);
        if (local_index(p, s) >= 0) {
            lex_error(LX, name.line, name.col, "variable '%s' is declared twice in thread %s", s,
                      p->th->name);
            return false;
        }
        int r = litmus_reg_index(p->th, s);
        if (r < 0)
            r = litmus_add_reg(p->th, s, 0);
        void *v = p->decl;
        int cap = p->ndecl;
        if (!grow(&v, p->ndecl, &cap, sizeof *p->decl))
            return false;
        p->decl = v;
        p->decl[p->ndecl++] = s;
        lex_advance(LX);
        if (lex_is_punct(&TOK, "=")) {
            lex_advance(LX);
            node *e = parse_expr(p);
            if (!e || !gen_into(p, e, r))
                return false;
        }
        if (!lex_is_punct(&TOK, ","))
            break;
        lex_advance(LX);
    }
    return end_stmt(p);
}

/* A { ... } block.  In a thread body (`body`), "(*" is C (as in "if (*x
 * == 1)"), not a herd comment: the lexer drops (* *) comments from the
 * opening brace to the closing one. */
static bool parse_block_ex(oparser *p, bool body)
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
    return parse_block_ex(p, false);
}

static bool parse_paren_cond(oparser *p, node **out)
{
    if (!expect_punct(p, "(", "'('"))
        return false;
    *out = parse_expr(p);
    if (!*out)
        return false;
    return expect_punct(p, ")", "')' after the condition");
}

static const char *prev_end(oparser *p)
{
    return LX->prev.text + LX->prev.len;
}

static bool parse_stmt_inner(oparser *p)
{
    lex_token start = TOK;
    int from = p->ncode;
    if (lex_is_punct(&TOK, "{"))
        return parse_block(p);
    if (lex_is_punct(&TOK, ";")) {
        lex_advance(LX);
        return true;
    }
    if (lex_is_ident(&TOK, "if")) {
        lex_advance(LX);
        node *c;
        int lelse = new_label(p);
        if (lelse < 0 || !parse_paren_cond(p, &c) || !gen_cond(p, c, false, lelse))
            return false;
        const char *cend = prev_end(p);
        stamp(p, from, start.text, cend, start.line, start.col);
        if (!parse_stmt(p))
            return false;
        if (lex_is_ident(&TOK, "else")) {
            lex_token el = TOK;
            lex_advance(LX);
            int lend = new_label(p);
            lit_instr *go = lend >= 0 ? emit(p, OP_GOTO, el.line, el.col) : NULL;
            if (!go)
                return false;
            go->target = lend;
            go->text = "else";
            place_label(p, lelse);
            if (!parse_stmt(p))
                return false;
            place_label(p, lend);
        } else {
            place_label(p, lelse);
        }
        return true;
    }
    if (lex_is_ident(&TOK, "while")) {
        lex_advance(LX);
        int top = new_label(p), end = new_label(p);
        node *c;
        place_label(p, top);
        if (end < 0 || !parse_paren_cond(p, &c) || !gen_cond(p, c, false, end))
            return false;
        const char *cend = prev_end(p);
        stamp(p, from, start.text, cend, start.line, start.col);
        if (p->nloops == MAX_DEPTH) {
            lex_error(LX, start.line, start.col, "loops nested too deeply");
            return false;
        }
        p->loops[p->nloops++] = (loop_labels){ end, top };
        if (!parse_stmt(p))
            return false;
        p->nloops--;
        lit_instr *go = emit(p, OP_GOTO, start.line, start.col);
        if (!go)
            return false;
        go->target = top;
        go->text = lex_strndup(start.text, (size_t)(cend - start.text));
        place_label(p, end);
        return true;
    }
    if (lex_is_ident(&TOK, "do")) {
        lex_advance(LX);
        int top = new_label(p), cont = new_label(p), end = new_label(p);
        if (end < 0)
            return false;
        place_label(p, top);
        if (p->nloops == MAX_DEPTH) {
            lex_error(LX, start.line, start.col, "loops nested too deeply");
            return false;
        }
        p->loops[p->nloops++] = (loop_labels){ end, cont };
        if (!parse_stmt(p))
            return false;
        p->nloops--;
        place_label(p, cont);
        lex_token w = TOK;
        if (!lex_is_ident(&TOK, "while")) {
            expected(p, "'while' after the body of 'do'");
            return false;
        }
        lex_advance(LX);
        int cfrom = p->ncode;
        node *c;
        if (!parse_paren_cond(p, &c) || !gen_cond(p, c, true, top))
            return false;
        stamp(p, cfrom, w.text, prev_end(p), w.line, w.col);
        place_label(p, end);
        return end_stmt(p);
    }
    if (lex_is_ident(&TOK, "break") || lex_is_ident(&TOK, "continue") || lex_is_ident(&TOK, "return")) {
        bool brk = lex_is_ident(&TOK, "break"), ret = lex_is_ident(&TOK, "return");
        lex_advance(LX);
        if (!ret && p->nloops == 0) {
            lex_error(LX, start.line, start.col, "'%s' outside a loop", brk ? "break" : "continue");
            return false;
        }
        lit_instr *go = emit(p, OP_GOTO, start.line, start.col);
        if (!go)
            return false;
        /* return: label 0 is the end of the thread */
        go->target = ret ? 0 : brk ? p->loops[p->nloops - 1].brk : p->loops[p->nloops - 1].cont;
        if (!end_stmt(p))
            return false;
        stamp(p, from, start.text, prev_end(p), start.line, start.col);
        return true;
    }
    if (lex_is_ident(&TOK, "for") || lex_is_ident(&TOK, "switch") || lex_is_ident(&TOK, "goto")) {
        lex_error(LX, TOK.line, TOK.col, "'%.*s' statements are not supported", (int)TOK.len, TOK.text);
        return false;
    }
    if (is_type_word(&TOK) || lex_is_ident(&TOK, "const") || lex_is_ident(&TOK, "volatile")) {
        if (!parse_decl(p))
            return false;
        stamp(p, from, start.text, prev_end(p), start.line, start.col);
        return true;
    }
    if (lex_is_punct(&TOK, "*")) {
        /* *x = e; */
        lex_advance(LX);
        if (TOK.kind != TOK_IDENT) {
            expected(p, "a location name after '*'");
            return false;
        }
        lex_token name = TOK;
        char *s = lex_tok_str(&name);
        int loc = local_index(p, s) >= 0 ? -1 : param_loc(p, s);
        if (loc < 0) {
            lex_error(LX, name.line, name.col, "undeclared location '%s' (not a parameter of thread %s)",
                      s, p->th->name);
            return false;
        }
        lex_advance(LX);
        if (!expect_punct(p, "=", "'=' after the location"))
            return false;
        node *e = parse_expr(p);
        lit_operand v;
        if (!e || !gen_value(p, e, &v))
            return false;
        lit_instr *st = emit(p, OP_STORE, start.line, start.col);
        if (!st)
            return false;
        st->loc = loc;
        st->a = v;
        st->order = ORD_WEAK;
        st->scope = SCOPE_NONE;
        if (!end_stmt(p))
            return false;
        stamp(p, from, start.text, prev_end(p), start.line, start.col);
        return true;
    }
    if (TOK.kind == TOK_IDENT) {
        lex_token name = TOK;
        lex_advance(LX);
        if (lex_is_punct(&TOK, ":")) {
            /* a statement label (B1:): no effect */
            lex_advance(LX);
            return parse_stmt(p);
        }
        char *s = lex_tok_str(&name);
        if (lex_is_punct(&TOK, "=") || lex_is_punct(&TOK, "+") || lex_is_punct(&TOK, "-")) {
            int r = local_index(p, s);
            if (r < 0) {
                if (param_loc(p, s) >= 0)
                    lex_error(LX, name.line, name.col, "cannot assign to location '%s' (write *%s = ...)",
                              s, s);
                else
                    lex_error(LX, name.line, name.col, "undeclared variable '%s' in thread %s", s,
                              p->th->name);
                return false;
            }
            if (lex_is_punct(&TOK, "=")) {
                lex_advance(LX);
                node *e = parse_expr(p);
                if (!e || !gen_into(p, e, r))
                    return false;
            } else {
                /* r++, r--, r += e, r -= e */
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
                    node *e = parse_expr(p);
                    if (!e || !gen_value(p, e, &v))
                        return false;
                } else {
                    lex_error(LX, op.line, op.col, "expected '=', '++', '--', '+=' or '-=' after '%s'", s);
                    return false;
                }
                lit_instr *in = emit(p, OP_ALU, start.line, start.col);
                if (!in)
                    return false;
                in->alu_op = plus ? ALU_ADD : ALU_SUB;
                in->dst = r;
                in->a = regop(r);
                in->b = v;
            }
            if (!end_stmt(p))
                return false;
            stamp(p, from, start.text, prev_end(p), start.line, start.col);
            return true;
        }
        if (!lex_is_punct(&TOK, "(")) {
            if (TOK.kind != TOK_ERROR)
                lex_error(LX, TOK.line, TOK.col, "expected a statement: '=', '(' or ':' after '%s', got %s",
                          s, lex_describe(&TOK));
            return false;
        }
        return false;
    }
    expected(p, "a statement");
    return false;
}

/* Statements that start with a function name are handled here: the name is
 * read as an expression (the call), its value dropped. */
static bool parse_stmt(oparser *p)
{
    if (++p->depth > MAX_DEPTH) {
        lex_error(LX, TOK.line, TOK.col, "statements nested too deeply");
        return false;
    }
    bool ok;
    if (TOK.kind == TOK_IDENT && !is_type_word(&TOK) && !lex_is_ident(&TOK, "if") &&
        !lex_is_ident(&TOK, "while") && !lex_is_ident(&TOK, "do") && char_after(p) != ':') {
        /* look past blanks for '(' to tell a call from an assignment */
        const char *q = TOK.text + TOK.len, *end = LX->src + LX->len;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        if (q < end && *q == '(') {
            lex_token start = TOK;
            int from = p->ncode;
            node *e = parse_expr(p);
            if (!e) {
                ok = false;
            } else if (e->kind != N_CALL) {
                lex_error(LX, e->line, e->col, "expected a statement, got an expression");
                ok = false;
            } else {
                int made = -1;
                ok = gen_call(p, e, -1, &made) && end_stmt(p);
                if (ok)
                    stamp(p, from, start.text, prev_end(p), start.line, start.col);
            }
            p->depth--;
            return ok;
        }
    }
    ok = parse_stmt_inner(p);
    p->depth--;
    return ok;
}

/* ---- threads ------------------------------------------------------------------- */

static bool parse_param(oparser *p)
{
    bool local = false, global = false, atomic = false, type = false;
    for (;;) {
        if (lex_is_ident(&TOK, "global") || lex_is_ident(&TOK, "__global")) global = true;
        else if (lex_is_ident(&TOK, "local") || lex_is_ident(&TOK, "__local")) local = true;
        else if (lex_is_ident(&TOK, "volatile") || lex_is_ident(&TOK, "const") ||
                 lex_is_ident(&TOK, "restrict")) ;
        else if (lex_is_ident(&TOK, "atomic_int") || lex_is_ident(&TOK, "atomic_uint") ||
                 lex_is_ident(&TOK, "atomic_long") || lex_is_ident(&TOK, "atomic_ulong")) {
            if (type) break;
            atomic = type = true;
        } else if (is_type_word(&TOK)) {
            if (type && !lex_is_ident(&TOK, "int")) break;
            type = true;
        } else break;
        lex_advance(LX);
    }
    if (global && local) {
        lex_error(LX, LX->prev.line, LX->prev.col, "a parameter cannot be both global and local");
        return false;
    }
    if (!type) {
        expected(p, "a parameter type (int, atomic_int, ...)");
        return false;
    }
    if (!lex_is_punct(&TOK, "*")) {
        expected(p, "'*': parameters are pointers to locations");
        return false;
    }
    lex_advance(LX);
    while (lex_is_ident(&TOK, "restrict") || lex_is_ident(&TOK, "const") || lex_is_ident(&TOK, "volatile"))
        lex_advance(LX);
    if (TOK.kind != TOK_IDENT) {
        expected(p, "a parameter name");
        return false;
    }
    char *name = lex_tok_str(&TOK);
    if (param_loc(p, name) >= 0) {
        lex_error(LX, TOK.line, TOK.col, "parameter '%s' is declared twice", name);
        return false;
    }
    litmus_test *t = p->t;
    int l = litmus_loc_index(t, name);
    if (l < 0) {
        l = litmus_add_loc(t, name, 0);
        t->locs[l].region = REGION_GLOBAL;
    }
    if (local)
        t->locs[l].region = REGION_LOCAL;
    else if (t->locs[l].region == 0)
        t->locs[l].region = REGION_GLOBAL;
    if (atomic)
        t->locs[l].atomic_type = true;
    void *v = p->params;
    int cap = p->nparams;
    if (!grow(&v, p->nparams, &cap, sizeof *p->params))
        return false;
    p->params = v;
    p->params[p->nparams++] = (param){ name, l };
    lex_advance(LX);
    return true;
}

static bool parse_thread(oparser *p)
{
    litmus_test *t = p->t;
    lex_token head = TOK;
    int num = thread_number(&TOK);
    if (num < 0) {
        expected(p, "a thread (P0, P1, ...), 'scopeTree' or the final condition");
        return false;
    }
    if (num != t->nthreads) {
        lex_error(LX, TOK.line, TOK.col, "thread %s out of order: expected P%d", lex_describe(&TOK),
                  t->nthreads);
        return false;
    }
    lit_thread *nt = GC_MALLOC(sizeof *nt * (size_t)(t->nthreads + 1));
    if (t->nthreads)
        memcpy(nt, t->threads, sizeof *nt * (size_t)t->nthreads);
    t->threads = nt;
    lit_thread *th = &t->threads[t->nthreads++];
    memset(th, 0, sizeof *th);
    th->name = lex_tok_str(&head);
    lex_advance(LX);
    if (lex_is_punct(&TOK, "@")) {
        lex_advance(LX);
        for (;;) {
            bool wg = lex_is_ident(&TOK, "wg") || lex_is_ident(&TOK, "cta");
            bool dev = lex_is_ident(&TOK, "dev") || lex_is_ident(&TOK, "gpu");
            if (!wg && !dev) {
                expected(p, "'wg' or 'dev' in the thread placement");
                return false;
            }
            lex_advance(LX);
            if (TOK.kind != TOK_NUMBER || TOK.num > 1000000) {
                expected(p, "a work-group or device number");
                return false;
            }
            if (wg)
                th->cta = (int)TOK.num;
            else
                th->gpu = (int)TOK.num;
            lex_advance(LX);
            if (!lex_is_punct(&TOK, ","))
                break;
            lex_advance(LX);
        }
    }
    /* register initialisations from the init block */
    for (int i = 0; i < p->nrinit; i++)
        if (p->rinit[i].thread == num) {
            if (litmus_reg_index(th, p->rinit[i].name) >= 0) {
                lex_error(LX, p->rinit[i].line, p->rinit[i].col, "register %d:%s is initialised twice",
                          num, p->rinit[i].name);
                return false;
            }
            litmus_add_reg(th, p->rinit[i].name, p->rinit[i].v);
        }

    p->th = th;
    p->nparams = 0;
    p->params = NULL;
    p->ndecl = 0;
    p->decl = NULL;
    p->code = NULL;
    p->ncode = p->capcode = 0;
    p->labels = NULL;
    p->nlabels = p->caplabels = 0;
    p->ntemps = 0;
    p->nbarriers = 0;
    p->nloops = 0;
    /* initialised registers are variables of the thread */
    for (int i = 0; i < th->nregs; i++) {
        void *v = p->decl;
        int cap = p->ndecl;
        if (!grow(&v, p->ndecl, &cap, sizeof *p->decl))
            return false;
        p->decl = v;
        p->decl[p->ndecl++] = th->reg_names[i];
    }
    if (!expect_punct(p, "(", "'(' to open the parameter list"))
        return false;
    if (lex_is_ident(&TOK, "void") && char_after(p) != ' ') {
        lex_advance(LX);
    } else if (!lex_is_punct(&TOK, ")")) {
        for (;;) {
            if (!parse_param(p))
                return false;
            if (lex_is_punct(&TOK, ")"))
                break;
            if (!expect_punct(p, ",", "',' or ')' in the parameter list"))
                return false;
        }
    }
    if (!expect_punct(p, ")", "')' to close the parameter list"))
        return false;
    if (!lex_is_punct(&TOK, "{")) {
        expected(p, "'{' to open the thread body");
        return false;
    }
    int end = new_label(p);          /* label 0: the end of the thread (return) */
    if (end != 0 || !parse_block_ex(p, true))
        return false;
    place_label(p, end);
    for (int i = 0; i < p->ncode; i++) {
        lit_instr *in = &p->code[i];
        if (in->op == OP_BRANCH || in->op == OP_GOTO)
            in->target = p->labels[in->target];
        if (!in->text)
            in->text = "";
    }
    param **tp = GC_MALLOC(sizeof *tp * (size_t)t->nthreads);
    int *tn = GC_MALLOC_ATOMIC(sizeof *tn * (size_t)t->nthreads);
    if (num) {
        memcpy(tp, p->tparams, sizeof *tp * (size_t)num);
        memcpy(tn, p->tnparams, sizeof *tn * (size_t)num);
    }
    tp[num] = p->params;
    tn[num] = p->nparams;
    p->tparams = tp;
    p->tnparams = tn;
    th->ninstrs = p->ncode;
    th->instrs = p->ncode ? p->code : GC_MALLOC(sizeof *th->instrs);
    return true;
}

litmus_test *litmus_parse_opencl(const char *path, const char *text, size_t len, FILE *errors)
{
    oparser pp;
    oparser *p = &pp;
    memset(p, 0, sizeof *p);
    lex_init(LX, path, text, len, LEX_COMMENT_ML | LEX_COMMENT_C, errors);
    litmus_test *t = GC_MALLOC(sizeof *t);
    if (!t)
        return NULL;
    t->file = path;
    p->t = t;
    if (!parse_header(p) || !parse_init(p))
        return NULL;
    for (;;) {
        if (lex_is_ident(&TOK, "scopeTree")) {
            if (!parse_scope_tree(p))
                return NULL;
            continue;
        }
        if (TOK.kind == TOK_EOF) {
            lex_error(LX, TOK.line, TOK.col, "unexpected end of file: expected %s",
                      t->nthreads ? "the final condition" : "a thread (P0 ...)");
            return NULL;
        }
        if (TOK.kind == TOK_ERROR)
            return NULL;
        if (litmus_final_starts(&TOK))
            break;
        if (!parse_thread(p))
            return NULL;
    }
    if (t->nthreads == 0) {
        lex_error(LX, TOK.line, TOK.col, "expected a thread (P0 ...) before the final condition");
        return NULL;
    }
    for (int i = 0; i < p->nplaces; i++) {
        placement *pl = &p->places[i];
        if (pl->thread >= t->nthreads) {
            lex_error(LX, pl->line, pl->col, "unknown thread P%d in the scope tree (the test has %d thread%s)",
                      pl->thread, t->nthreads, t->nthreads == 1 ? "" : "s");
            return NULL;
        }
        t->threads[pl->thread].cta = pl->cta;
        t->threads[pl->thread].gpu = pl->gpu;
    }
    for (int i = 0; i < p->nrinit; i++)
        if (p->rinit[i].thread >= t->nthreads) {
            lex_error(LX, p->rinit[i].line, p->rinit[i].col,
                      "unknown thread %d in the init block (the test has %d thread%s)",
                      p->rinit[i].thread, t->nthreads, t->nthreads == 1 ? "" : "s");
            return NULL;
        }
    lex_token fin = TOK;
    int nlocs = t->nlocs;
    int *nregs = GC_MALLOC_ATOMIC(sizeof *nregs * (size_t)t->nthreads);
    for (int i = 0; i < t->nthreads; i++)
        nregs[i] = t->threads[i].nregs;
    if (!litmus_parse_final(LX, t))
        return NULL;
    /* "0:x" where x is a pointer parameter of P0 and no variable: as in
     * herd, the register holds the address of x, a value unequal to any
     * integer the test stores or compares (OPENCL_ADDRESS_BASE + index). */
    for (int i = 0; i < t->nthreads; i++) {
        lit_thread *th = &t->threads[i];
        for (int r = nregs[i]; r < th->nregs; r++)
            for (int k = 0; k < p->tnparams[i]; k++)
                if (strcmp(p->tparams[i][k].name, th->reg_names[r]) == 0)
                    th->reg_init[r] = OPENCL_ADDRESS_BASE + p->tparams[i][k].loc;
    }
    if (t->nlocs > nlocs) {
        lex_error(LX, fin.line, fin.col, "unknown location '%s' in the final condition",
                  t->locs[nlocs].name);
        return NULL;
    }
    return t;
}
