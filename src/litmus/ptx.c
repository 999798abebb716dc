/*
 * litmus/ptx.c: the PTX litmus dialect (grammar in docs/litmus-ptx.md).
 *
 * Two phases.  Parsing reads the header, init block, thread header row and
 * instruction rows into raw instructions whose operands are still names or
 * numbers.  Resolution then decides, per thread, which names are registers
 * (every name in a register position: destinations, values, compare and
 * barrier operands, plus the P<n>:NAME declarations of the init block) and
 * which are locations (names in memory positions), resolves labels, and
 * builds the lit_instr array.  The final condition is parsed last by
 * litmus/cond.c.
 */
#include "litmus/ptx.h"

#include <gc.h>
#include <string.h>

#include "litmus/cond.h"
#include "litmus/lex.h"
#include "litmus/litmus.h"

enum role { R_DST, R_LOC, R_VAL, R_LDSRC, R_LABEL };

typedef struct raw_op {
    bool is_imm;
    lit_value imm;
    const char *name;
    int line, col;
} raw_op;

typedef struct raw_instr {
    lit_instr in;
    bool is_label;
    const char *label;       /* is_label: its name */
    const char *mnemonic;
    int nops;
    raw_op ops[4];
    enum role roles[4];
} raw_instr;

typedef struct raw_thread {
    raw_instr *v;
    int n, cap;
} raw_thread;

typedef struct reg_decl {
    int thread;
    const char *name;
    lit_value value;
    int line, col;
} reg_decl;

/* "name @ proxy aliases target", resolved after the init block so that a
 * target may be declared after its aliases. */
typedef struct alias_decl {
    int loc;                 /* the alias's own location */
    const char *target;
    int line, col;           /* of the target name */
} alias_decl;

typedef struct pparser {
    lexer lx;
    litmus_test *t;
    reg_decl *regs;
    int nregdecls, capregdecls;
    alias_decl *aliases;
    int naliases, capaliases;
    int *addressed_as;       /* per location: the location whose virtual address it names */
    int ninit_locs;          /* locations declared in the init block */
    raw_thread *raw;
} pparser;

#define LX (&p->lx)
#define TOK (p->lx.tok)

static bool failed(pparser *p) { return p->lx.failed; }

/* Report "expected ..." at the current token unless the lexer already did. */
static void expected(pparser *p, const char *what)
{
    lex_expected(LX, what);
}

static bool is_name(const lex_token *t)
{
    return t->kind == TOK_IDENT && memchr(t->text, '.', t->len) == NULL;
}

/* After an item that must be followed by ';' (or one of `alts`). */
static bool expect_separator(pparser *p, const char *alts, const char *where)
{
    if (lex_is_punct(&TOK, ";"))
        return true;
    for (const char *a = alts; *a; a++) {
        char s[2] = { *a, 0 };
        if (lex_is_punct(&TOK, s))
            return true;
    }
    if (TOK.kind == TOK_ERROR)
        return false;
    if (TOK.kind == TOK_EOF)
        lex_error(LX, TOK.line, TOK.col, "unexpected end of file %s (missing ';')", where);
    else if (TOK.line > LX->prev.end_line)
        lex_error(LX, LX->prev.end_line, LX->prev.end_col, "missing ';' %s", where);
    else
        lex_error(LX, TOK.line, TOK.col, "unexpected %s %s", lex_describe(&TOK), where);
    return false;
}

/* ---- header and init block ---------------------------------------------- */

static bool parse_header(pparser *p)
{
    return litmus_lex_header(LX, p->t);
}

static const struct { const char *name; enum lit_proxy proxy; } alias_proxies[] = {
    { "generic", PROXY_GENERIC }, { "constant", PROXY_CONSTANT },
    { "surface", PROXY_SURFACE }, { "texture", PROXY_TEXTURE },
};

/* A thread named "P12" or, in PTX conditions, by its number alone. */
static int thread_number(const lex_token *tok)
{
    if (tok->kind == TOK_NUMBER)
        return tok->num > 100000 ? 100000 : (int)tok->num;
    return lex_thread_number(tok);
}

static bool parse_init_item(pparser *p)
{
    litmus_test *t = p->t;
    lex_token first = TOK;
    if (first.kind != TOK_IDENT && first.kind != TOK_NUMBER) {
        expected(p, "a location or P<n>:register initialisation");
        return false;
    }
    lex_advance(LX);
    if (lex_is_punct(&TOK, ":")) {
        int th = thread_number(&first);
        if (th < 0) {
            lex_error(LX, first.line, first.col, "bad thread name %s (expected P0, P1, ...)",
                      lex_describe(&first));
            return false;
        }
        lex_advance(LX);
        if (!is_name(&TOK)) {
            expected(p, "a register name");
            return false;
        }
        lex_token reg = TOK;
        lex_advance(LX);
        if (!lex_is_punct(&TOK, "=")) {
            expected(p, "'='");
            return false;
        }
        lex_advance(LX);
        lit_value v;
        if (!lex_signed_number(LX, &v, "an integer value"))
            return false;
        if (p->nregdecls == p->capregdecls) {
            p->capregdecls = p->capregdecls ? 2 * p->capregdecls : 16;
            reg_decl *n = GC_MALLOC(sizeof *n * (size_t)p->capregdecls);
            if (p->nregdecls)
                memcpy(n, p->regs, sizeof *n * (size_t)p->nregdecls);
            p->regs = n;
        }
        p->regs[p->nregdecls++] = (reg_decl){ th, lex_tok_str(&reg), v, first.line, first.col };
        return true;
    }
    if (!is_name(&first)) {
        lex_error(LX, first.line, first.col, "bad location name %s", lex_describe(&first));
        return false;
    }
    char *name = lex_tok_str(&first);
    if (litmus_loc_index(t, name) >= 0) {
        lex_error(LX, first.line, first.col, "location '%s' is declared twice", name);
        return false;
    }
    if (lex_is_punct(&TOK, "=")) {
        lex_advance(LX);
        lit_value v;
        if (!lex_signed_number(LX, &v, "an integer value"))
            return false;
        litmus_add_loc(t, name, v);
        return true;
    }
    if (lex_is_punct(&TOK, "@")) {
        lex_advance(LX);
        int k = -1;
        for (int i = 0; i < (int)(sizeof alias_proxies / sizeof alias_proxies[0]); i++)
            if (lex_is_ident(&TOK, alias_proxies[i].name))
                k = i;
        if (k < 0) {
            expected(p, "a proxy (generic, constant, surface or texture)");
            return false;
        }
        lex_advance(LX);
        if (lex_is_ident(&TOK, "virtually")) /* Dat3M's later spelling: the same declaration */
            lex_advance(LX);
        if (!lex_is_ident(&TOK, "aliases")) {
            expected(p, "'aliases'");
            return false;
        }
        lex_advance(LX);
        if (!is_name(&TOK)) {
            expected(p, "the name of the aliased location");
            return false;
        }
        char *target = lex_tok_str(&TOK);
        if (strcmp(target, name) == 0) {
            lex_error(LX, TOK.line, TOK.col, "location '%s' cannot alias itself", name);
            return false;
        }
        if (p->naliases == p->capaliases) {
            p->capaliases = p->capaliases ? 2 * p->capaliases : 8;
            alias_decl *n = GC_MALLOC(sizeof *n * (size_t)p->capaliases);
            if (p->naliases)
                memcpy(n, p->aliases, sizeof *n * (size_t)p->naliases);
            p->aliases = n;
        }
        int l = litmus_add_loc(t, name, 0);
        t->locs[l].alias_proxy = alias_proxies[k].proxy;
        p->aliases[p->naliases++] = (alias_decl){ l, target, TOK.line, TOK.col };
        lex_advance(LX);
        return true;
    }
    expected(p, "'=' or '@' after the location name");
    return false;
}

/* The location an alias declaration names as its target, -1 if none. */
static int alias_target(const pparser *p, const int *decl_of, int l)
{
    return decl_of[l] >= 0 ? litmus_loc_index(p->t, p->aliases[decl_of[l]].target) : -1;
}

/* Aliases, once the whole init block is read.  Physical location: the end
 * of the chain of targets.  Virtual address (PTX ISA 7.5, and the mixedproxy
 * Alloy model, where `.surfref s virtually aliases x` makes s a synonym of
 * x): a plain location or a generic alias is an address of its own; a
 * surface, texture or constant alias names its target's address. */
static bool resolve_aliases(pparser *p)
{
    litmus_test *t = p->t;
    for (int i = 0; i < p->naliases; i++)
        if (litmus_loc_index(t, p->aliases[i].target) < 0)
            litmus_add_loc(t, p->aliases[i].target, 0);
    int *decl_of = GC_MALLOC_ATOMIC(sizeof *decl_of * (size_t)(t->nlocs + 1));
    p->addressed_as = GC_MALLOC_ATOMIC(sizeof *p->addressed_as * (size_t)(t->nlocs + 1));
    for (int l = 0; l < t->nlocs; l++)
        decl_of[l] = -1;
    for (int i = 0; i < p->naliases; i++)
        decl_of[p->aliases[i].loc] = i;
    for (int l = 0; l < t->nlocs; l++) {
        int phys = l, steps = 0;
        for (int next; (next = alias_target(p, decl_of, phys)) >= 0; phys = next)
            if (++steps > t->nlocs) {
                const alias_decl *d = &p->aliases[decl_of[l]];
                lex_error(LX, d->line, d->col, "aliases of '%s' form a cycle", t->locs[l].name);
                return false;
            }
        t->locs[l].physical = phys;
        int v = l;
        while (decl_of[v] >= 0 && t->locs[v].alias_proxy != PROXY_GENERIC)
            v = alias_target(p, decl_of, v);
        p->addressed_as[l] = v;
    }
    return true;
}

static bool parse_init(pparser *p)
{
    if (!lex_is_punct(&TOK, "{")) {
        expected(p, "'{' to open the init block");
        return false;
    }
    lex_advance(LX);
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
        if (!expect_separator(p, "}", "in the init block"))
            return false;
    }
    lex_advance(LX);
    if (failed(p) || !resolve_aliases(p))
        return false;
    p->ninit_locs = p->t->nlocs;
    return true;
}

/* ---- thread header row --------------------------------------------------- */

/* "P0@cta 1,gpu 0" */
static const char *const cta_words[] = { "cta", NULL };
static const char *const gpu_words[] = { "gpu", NULL };
static const lex_placement_syntax ptx_placement = {
    cta_words, gpu_words, "'cta' or 'gpu' in the thread placement", "a cta or gpu number",
};

static bool parse_thread_header(pparser *p)
{
    litmus_test *t = p->t;
    int cap = 0;
    for (;;) {
        if (!is_name(&TOK) || thread_number(&TOK) < 0) {
            expected(p, "a thread name (P0, P1, ...) in the thread header row");
            return false;
        }
        if (thread_number(&TOK) != t->nthreads) {
            lex_error(LX, TOK.line, TOK.col, "thread %s in column %d: expected P%d",
                      lex_describe(&TOK), t->nthreads + 1, t->nthreads);
            return false;
        }
        if (t->nthreads == cap) {
            cap = cap ? cap * 2 : 4;
            lit_thread *n = GC_MALLOC(sizeof *n * (size_t)cap);
            if (t->nthreads)
                memcpy(n, t->threads, sizeof *n * (size_t)t->nthreads);
            t->threads = n;
        }
        lit_thread *th = &t->threads[t->nthreads++];
        memset(th, 0, sizeof *th);
        th->name = lex_tok_str(&TOK);
        lex_advance(LX);
        if (!lex_thread_placement(LX, &ptx_placement, &th->cta, &th->gpu))
            return false;
        if (lex_is_punct(&TOK, ";"))
            break;
        if (!lex_is_punct(&TOK, "|")) {
            if (!expect_separator(p, "|", "at the end of the thread header row"))
                return false;
        }
        lex_advance(LX);
    }
    lex_advance(LX);
    /* register declarations of the init block */
    for (int i = 0; i < p->nregdecls; i++) {
        reg_decl *d = &p->regs[i];
        if (d->thread >= t->nthreads) {
            lex_error(LX, d->line, d->col, "unknown thread P%d in the init block (the test has %d thread%s)",
                      d->thread, t->nthreads, t->nthreads == 1 ? "" : "s");
            return false;
        }
        lit_thread *th = &t->threads[d->thread];
        if (litmus_reg_index(th, d->name) >= 0) {
            lex_error(LX, d->line, d->col, "register P%d:%s is initialised twice", d->thread, d->name);
            return false;
        }
        litmus_add_reg(th, d->name, d->value);
    }
    p->raw = GC_MALLOC(sizeof *p->raw * (size_t)t->nthreads);
    return true;
}

/* ---- instructions ------------------------------------------------------- */

typedef struct part { const char *s; size_t n; } part;

static bool part_is(part x, const char *w)
{
    return x.n == strlen(w) && memcmp(x.s, w, x.n) == 0;
}

static int part_scope(part x)
{
    if (part_is(x, "cta")) return SCOPE_CTA;
    if (part_is(x, "gpu")) return SCOPE_GPU;
    if (part_is(x, "sys")) return SCOPE_SYS;
    return -1;
}

static bool part_is_type(part x)
{
    static const char *const types[] = { "u32", "s32", "b32", "u64", "s64", "b64", NULL };
    for (int i = 0; types[i]; i++)
        if (part_is(x, types[i]))
            return true;
    return false;
}

static const struct { const char *name; enum lit_rmw_op op; } rmw_ops[] = {
    { "add", RMW_ADD }, { "sub", RMW_SUB }, { "inc", RMW_INC }, { "dec", RMW_DEC },
    { "exch", RMW_EXCH }, { "cas", RMW_CAS }, { "and", RMW_AND }, { "or", RMW_OR },
    { "xor", RMW_XOR }, { "min", RMW_MIN }, { "max", RMW_MAX },
};

static const struct { const char *name; enum lit_alu_op op; } alu_ops[] = {
    { "add", ALU_ADD }, { "sub", ALU_SUB }, { "mul", ALU_MUL },
    { "and", ALU_AND }, { "or", ALU_OR }, { "xor", ALU_XOR },
};

static void set_roles(raw_instr *ri, int *nmin, int *nmax, int lo, int hi,
                      enum role a, enum role b, enum role c, enum role d)
{
    *nmin = lo;
    *nmax = hi;
    ri->roles[0] = a;
    ri->roles[1] = b;
    ri->roles[2] = c;
    ri->roles[3] = d;
}

/* Decode a mnemonic into ri->in and the operand roles.  False if unknown. */
static bool decode(const lex_token *mn, raw_instr *ri, int *nmin, int *nmax)
{
    part P[8];
    int np = 0;
    size_t s = 0;
    for (size_t i = 0; i <= mn->len; i++) {
        if (i == mn->len || mn->text[i] == '.') {
            if (np == 8)
                return false;
            P[np++] = (part){ mn->text + s, i - s };
            s = i + 1;
        }
    }
    if (np > 1 && part_is_type(P[np - 1]))
        np--;               /* optional type suffix: .u32, .s64, ... */
    lit_instr *in = &ri->in;
    part b = P[0];

    /* loads and stores, generic or proxied */
    int load = -1;
    enum lit_proxy proxy = PROXY_GENERIC;
    if (part_is(b, "ld")) load = 1;
    else if (part_is(b, "suld")) { load = 1; proxy = PROXY_SURFACE; }
    else if (part_is(b, "tld")) { load = 1; proxy = PROXY_TEXTURE; }
    else if (part_is(b, "cold")) { load = 1; proxy = PROXY_CONSTANT; }
    else if (part_is(b, "st")) load = 0;
    else if (part_is(b, "sust")) { load = 0; proxy = PROXY_SURFACE; }
    if (load >= 0) {
        in->op = load ? OP_LOAD : OP_STORE;
        in->proxy = proxy;
        if (np == 1 || (np == 2 && part_is(P[1], "weak"))) {
            in->order = ORD_WEAK;
        } else if (np == 3 && part_scope(P[2]) >= 0) {
            in->scope = (enum lit_scope)part_scope(P[2]);
            if (part_is(P[1], "relaxed")) in->order = ORD_RELAXED;
            else if (load && part_is(P[1], "acquire")) in->order = ORD_ACQUIRE;
            else if (!load && part_is(P[1], "release")) in->order = ORD_RELEASE;
            else return false;
        } else {
            return false;
        }
        if (load)
            set_roles(ri, nmin, nmax, 2, 2, R_DST, proxy == PROXY_GENERIC ? R_LDSRC : R_LOC, R_VAL, R_VAL);
        else
            set_roles(ri, nmin, nmax, 2, 2, R_LOC, R_VAL, R_VAL, R_VAL);
        return true;
    }

    /* suatom and sured (Dat3M's grammar): the same through the surface proxy */
    bool surface = part_is(b, "suatom") || part_is(b, "sured");
    bool atom = part_is(b, "atom") || part_is(b, "suatom");
    if (atom || part_is(b, "red") || part_is(b, "sured")) {
        int i = 1;
        in->op = atom ? OP_RMW : OP_RED;
        in->proxy = surface ? PROXY_SURFACE : PROXY_GENERIC;
        in->order = ORD_RELAXED;
        in->scope = SCOPE_GPU;
        if (i < np - 1) {
            if (part_is(P[i], "relaxed")) { in->order = ORD_RELAXED; i++; }
            else if (part_is(P[i], "acquire")) { in->order = ORD_ACQUIRE; i++; }
            else if (part_is(P[i], "release")) { in->order = ORD_RELEASE; i++; }
            else if (part_is(P[i], "acq_rel")) { in->order = ORD_ACQ_REL; i++; }
        }
        if (i < np - 1 && part_scope(P[i]) >= 0) {
            in->scope = (enum lit_scope)part_scope(P[i]);
            i++;
        }
        if (i != np - 1)
            return false;
        int k = -1;
        for (int j = 0; j < (int)(sizeof rmw_ops / sizeof rmw_ops[0]); j++)
            if (part_is(P[i], rmw_ops[j].name))
                k = j;
        if (k < 0)
            return false;
        in->rmw_op = rmw_ops[k].op;
        if (!atom && (in->rmw_op == RMW_CAS || in->rmw_op == RMW_EXCH))
            return false;
        if (!atom)
            set_roles(ri, nmin, nmax, 2, 2, R_LOC, R_VAL, R_VAL, R_VAL);
        else if (in->rmw_op == RMW_CAS)
            set_roles(ri, nmin, nmax, 4, 4, R_DST, R_LOC, R_VAL, R_VAL);
        else
            set_roles(ri, nmin, nmax, 3, 3, R_DST, R_LOC, R_VAL, R_VAL);
        return true;
    }

    if (part_is(b, "fence") && np == 3) {
        in->op = OP_FENCE;
        if (part_is(P[1], "proxy")) {
            in->order = ORD_WEAK;
            if (part_is(P[2], "alias")) in->proxy = PROXY_ALIAS;
            else if (part_is(P[2], "constant")) in->proxy = PROXY_CONSTANT;
            else if (part_is(P[2], "surface")) in->proxy = PROXY_SURFACE;
            else if (part_is(P[2], "texture")) in->proxy = PROXY_TEXTURE;
            else return false;
        } else {
            if (part_is(P[1], "sc")) in->order = ORD_SC;
            else if (part_is(P[1], "acq_rel")) in->order = ORD_ACQ_REL;
            else return false;
            if (part_scope(P[2]) < 0)
                return false;
            in->scope = (enum lit_scope)part_scope(P[2]);
        }
        set_roles(ri, nmin, nmax, 0, 0, R_VAL, R_VAL, R_VAL, R_VAL);
        return true;
    }
    if (part_is(b, "membar") && np == 2) {
        in->op = OP_FENCE;
        in->order = ORD_SC;
        if (part_is(P[1], "cta")) in->scope = SCOPE_CTA;
        else if (part_is(P[1], "gl")) in->scope = SCOPE_GPU;
        else if (part_is(P[1], "sys")) in->scope = SCOPE_SYS;
        else return false;
        set_roles(ri, nmin, nmax, 0, 0, R_VAL, R_VAL, R_VAL, R_VAL);
        return true;
    }

    if (part_is(b, "bar") || part_is(b, "barrier")) {
        int i = 1;
        if (i < np && part_is(P[i], "cta"))
            i++;
        if (i != np - 1)
            return false;
        if (part_is(P[i], "sync")) in->barrier_waits = true;
        else if (part_is(P[i], "arrive")) in->barrier_waits = false;
        else return false;
        in->op = OP_BARRIER;
        in->scope = SCOPE_CTA;
        set_roles(ri, nmin, nmax, 1, 3, R_VAL, R_VAL, R_VAL, R_VAL);
        return true;
    }

    if (np == 1) {
        for (int j = 0; j < (int)(sizeof alu_ops / sizeof alu_ops[0]); j++)
            if (part_is(b, alu_ops[j].name)) {
                in->op = OP_ALU;
                in->alu_op = alu_ops[j].op;
                set_roles(ri, nmin, nmax, 3, 3, R_DST, R_VAL, R_VAL, R_VAL);
                return true;
            }
    }
    if (part_is(b, "mov") && np == 1) {
        in->op = OP_MOV;
        set_roles(ri, nmin, nmax, 2, 2, R_DST, R_VAL, R_VAL, R_VAL);
        return true;
    }
    static const char *const branches[] = {[CMP_EQ] = "beq", [CMP_NE] = "bne", [CMP_LT] = "blt",
                                           [CMP_GT] = "bgt", [CMP_LE] = "ble", [CMP_GE] = "bge"};
    for (int c = CMP_EQ; c <= CMP_GE; c++)
        if (part_is(b, branches[c]) && np == 1) {
            in->op = OP_BRANCH;
            in->cmp = (enum lit_cmp)c;
            set_roles(ri, nmin, nmax, 3, 3, R_VAL, R_VAL, R_LABEL, R_VAL);
            return true;
        }
    if ((part_is(b, "goto") || part_is(b, "bra")) && np == 1) {
        in->op = OP_GOTO;
        set_roles(ri, nmin, nmax, 1, 1, R_LABEL, R_VAL, R_VAL, R_VAL);
        return true;
    }
    return false;
}

static raw_instr *push_raw(raw_thread *rt)
{
    if (rt->n == rt->cap) {
        rt->cap = rt->cap ? 2 * rt->cap : 8;
        raw_instr *n = GC_MALLOC(sizeof *n * (size_t)rt->cap);
        if (rt->n)
            memcpy(n, rt->v, sizeof *n * (size_t)rt->n);
        rt->v = n;
    }
    raw_instr *ri = &rt->v[rt->n++];
    memset(ri, 0, sizeof *ri);
    return ri;
}

static const char *role_what(enum role r)
{
    switch (r) {
    case R_DST: return "a destination register";
    case R_LOC: return "a location";
    case R_LDSRC: return "a location or a value";
    case R_LABEL: return "a label";
    default: return "a register or an integer";
    }
}

/* One instruction; `mn` is its mnemonic, already consumed. */
static bool parse_instr(pparser *p, int thread, lex_token mn)
{
    raw_instr tmp;
    int nmin = 0, nmax = 0;
    memset(&tmp, 0, sizeof tmp);
    tmp.in.dst = -1;
    tmp.in.loc = -1;
    tmp.in.target = -1;
    if (!decode(&mn, &tmp, &nmin, &nmax)) {
        lex_error(LX, mn.line, mn.col, "unknown instruction %s", lex_describe(&mn));
        return false;
    }
    tmp.mnemonic = lex_tok_str(&mn);
    tmp.in.line = mn.line;
    tmp.in.col = mn.col;
    if (nmax == 0 && TOK.kind != TOK_EOF && TOK.line == mn.line &&
        !lex_is_punct(&TOK, "|") && !lex_is_punct(&TOK, ";")) {
        if (TOK.kind != TOK_ERROR)
            lex_error(LX, TOK.line, TOK.col, "'%s' takes no operands", tmp.mnemonic);
        return false;
    }
    if (nmax > 0 && !lex_is_punct(&TOK, "|") && !lex_is_punct(&TOK, ";")) {
        for (;;) {
            lex_token at = TOK;
            if (tmp.nops == nmax) {
                lex_error(LX, at.line, at.col, "too many operands for '%s' (it takes %s%d)",
                          tmp.mnemonic, nmin == nmax ? "" : "at most ", nmax);
                return false;
            }
            raw_op *op = &tmp.ops[tmp.nops];
            enum role role = tmp.roles[tmp.nops];
            op->line = at.line;
            op->col = at.col;
            if (TOK.kind == TOK_IDENT) {
                if (!is_name(&TOK)) {
                    lex_error(LX, at.line, at.col, "bad %s name %s",
                              role == R_LOC ? "location" : role == R_LABEL ? "label" : "register",
                              lex_describe(&TOK));
                    return false;
                }
                op->name = lex_tok_str(&TOK);
                lex_advance(LX);
            } else if (TOK.kind == TOK_NUMBER || lex_is_punct(&TOK, "-") || lex_is_punct(&TOK, "+")) {
                if (role == R_DST || role == R_LOC || role == R_LABEL) {
                    lex_error(LX, at.line, at.col, "expected %s as operand %d of '%s', got %s",
                              role_what(role), tmp.nops + 1, tmp.mnemonic, lex_describe(&at));
                    return false;
                }
                op->is_imm = true;
                if (!lex_signed_number(LX, &op->imm, "an integer"))
                    return false;
            } else {
                if (TOK.kind != TOK_ERROR)
                    lex_error(LX, at.line, at.col, "expected %s as operand %d of '%s', got %s",
                              role_what(role), tmp.nops + 1, tmp.mnemonic, lex_describe(&at));
                return false;
            }
            tmp.nops++;
            if (!lex_is_punct(&TOK, ","))
                break;
            lex_advance(LX);
        }
    }
    if (tmp.nops < nmin) {
        lex_error(LX, mn.line, mn.col, "'%s' needs %s%d operand%s, got %d", tmp.mnemonic,
                  nmin == nmax ? "" : "at least ", nmin, nmin == 1 ? "" : "s", tmp.nops);
        return false;
    }
    tmp.in.text = lex_strndup(mn.text, (size_t)(LX->prev.text + LX->prev.len - mn.text));
    *push_raw(&p->raw[thread]) = tmp;
    return true;
}

/* One cell: empty, label(s), and/or an instruction; stops at '|' or ';'. */
static bool parse_cell(pparser *p, int thread)
{
    while (TOK.kind == TOK_IDENT) {
        lex_token id = TOK;
        lex_advance(LX);
        if (lex_is_punct(&TOK, ":")) {
            if (!is_name(&id)) {
                lex_error(LX, id.line, id.col, "bad label name %s", lex_describe(&id));
                return false;
            }
            raw_instr *ri = push_raw(&p->raw[thread]);
            ri->is_label = true;
            ri->label = lex_tok_str(&id);
            ri->in.line = id.line;
            ri->in.col = id.col;
            lex_advance(LX);
            continue;
        }
        return parse_instr(p, thread, id) && expect_separator(p, "|", "at the end of the row");
    }
    if (lex_is_punct(&TOK, "|") || lex_is_punct(&TOK, ";"))
        return true;
    if (TOK.kind == TOK_EOF) {
        lex_error(LX, TOK.line, TOK.col, "unexpected end of file in an instruction row (missing ';')");
        return false;
    }
    expected(p, "an instruction, a label, '|' or ';'");
    return false;
}

static bool parse_rows(pparser *p)
{
    litmus_test *t = p->t;
    for (;;) {
        if (TOK.kind == TOK_EOF) {
            lex_error(LX, TOK.line, TOK.col, "unexpected end of file: expected the final condition "
                      "(exists, ~exists or forall)");
            return false;
        }
        if (litmus_final_starts(&TOK))
            return true;
        int col = 0;
        for (;;) {
            if (!parse_cell(p, col))
                return false;
            if (lex_is_punct(&TOK, ";")) {
                if (col + 1 != t->nthreads) {
                    lex_error(LX, TOK.line, TOK.col, "row has %d column%s but the thread header has %d",
                              col + 1, col == 0 ? "" : "s", t->nthreads);
                    return false;
                }
                lex_advance(LX);
                break;
            }
            /* '|' */
            if (col + 1 >= t->nthreads) {
                lex_error(LX, TOK.line, TOK.col, "row has more columns than the %d thread%s of the header",
                          t->nthreads, t->nthreads == 1 ? "" : "s");
                return false;
            }
            col++;
            lex_advance(LX);
        }
    }
}

/* ---- resolution ---------------------------------------------------------- */

static int reg_of(lit_thread *th, const char *name)
{
    int r = litmus_reg_index(th, name);
    return r >= 0 ? r : litmus_add_reg(th, name, 0);
}

/* The location an access names, as the memory model sees its address: a
 * surface, texture or constant alias is a synonym of its target. */
static int loc_of(pparser *p, const char *name)
{
    int l = litmus_loc_index(p->t, name);
    if (l < 0)
        return litmus_add_loc(p->t, name, 0);
    return l < p->ninit_locs ? p->addressed_as[l] : l;
}

static lit_operand value_operand(lit_thread *th, const raw_op *op)
{
    lit_operand o;
    memset(&o, 0, sizeof o);
    if (op->is_imm) {
        o.kind = OPND_IMM;
        o.imm = op->imm;
        o.reg = -1;
    } else {
        o.kind = OPND_REG;
        o.reg = reg_of(th, op->name);
    }
    return o;
}

static bool resolve_thread(pparser *p, int ti)
{
    litmus_test *t = p->t;
    lit_thread *th = &t->threads[ti];
    raw_thread *rt = &p->raw[ti];

    /* registers: every name in a register position */
    for (int i = 0; i < rt->n; i++) {
        raw_instr *ri = &rt->v[i];
        if (ri->is_label)
            continue;
        for (int k = 0; k < ri->nops; k++)
            if ((ri->roles[k] == R_DST || ri->roles[k] == R_VAL) && !ri->ops[k].is_imm)
                reg_of(th, ri->ops[k].name);
    }

    /* labels */
    int ninstrs = 0, nlabels = 0;
    for (int i = 0; i < rt->n; i++)
        rt->v[i].is_label ? nlabels++ : ninstrs++;
    const char **lname = GC_MALLOC(sizeof *lname * (size_t)(nlabels + 1));
    int *ltarget = GC_MALLOC_ATOMIC(sizeof *ltarget * (size_t)(nlabels + 1));
    int nl = 0, idx = 0;
    for (int i = 0; i < rt->n; i++) {
        raw_instr *ri = &rt->v[i];
        if (!ri->is_label) {
            idx++;
            continue;
        }
        for (int j = 0; j < nl; j++)
            if (strcmp(lname[j], ri->label) == 0) {
                lex_error(LX, ri->in.line, ri->in.col, "label '%s' is defined twice in thread %s",
                          ri->label, th->name);
                return false;
            }
        lname[nl] = ri->label;
        ltarget[nl++] = idx;
    }

    th->ninstrs = ninstrs;
    th->instrs = GC_MALLOC(sizeof *th->instrs * (size_t)(ninstrs + 1));
    idx = 0;
    for (int i = 0; i < rt->n; i++) {
        raw_instr *ri = &rt->v[i];
        if (ri->is_label)
            continue;
        lit_instr in = ri->in;
        int nvals = 0;
        for (int k = 0; k < ri->nops; k++) {
            raw_op *op = &ri->ops[k];
            switch (ri->roles[k]) {
            case R_DST:
                in.dst = reg_of(th, op->name);
                break;
            case R_LOC:
                in.loc = loc_of(p, op->name);
                break;
            case R_LDSRC: {
                int l = op->is_imm ? -1 : litmus_loc_index(t, op->name);
                bool is_loc = !op->is_imm &&
                              ((l >= 0 && l < p->ninit_locs) || litmus_reg_index(th, op->name) < 0);
                if (is_loc) {
                    in.loc = loc_of(p, op->name);
                } else {
                    if (in.order != ORD_WEAK) {
                        lex_error(LX, op->line, op->col,
                                  "'%s' needs a location: a %s source makes it a register move",
                                  ri->mnemonic, op->is_imm ? "constant" : "register");
                        return false;
                    }
                    in.op = OP_MOV;
                    in.a = value_operand(th, op);
                }
                break;
            }
            case R_LABEL: {
                int j;
                for (j = 0; j < nl; j++)
                    if (strcmp(lname[j], op->name) == 0)
                        break;
                if (j == nl) {
                    lex_error(LX, op->line, op->col, "undefined label '%s' in thread %s",
                              op->name, th->name);
                    return false;
                }
                in.target = ltarget[j];
                break;
            }
            case R_VAL:
                if (nvals == 0) in.a = value_operand(th, op);
                else in.b = value_operand(th, op);
                nvals++;
                break;
            }
        }
        if (in.op == OP_BARRIER && ri->nops >= 2) {
            /* bar.cta.sync a, b [, n]: the id is b, the count n */
            in.a = value_operand(th, &ri->ops[1]);
            if (ri->nops == 3)
                in.b = value_operand(th, &ri->ops[2]);
            else
                in.b.kind = OPND_NONE;
        }
        if (in.a.kind == OPND_NONE) in.a.reg = -1;
        if (in.b.kind == OPND_NONE) in.b.reg = -1;
        th->instrs[idx++] = in;
    }
    for (int j = 0; j < nl; j++)
        if (strncmp(lname[j], "progress", 8) == 0 && ltarget[j] < ninstrs)
            th->instrs[ltarget[j]].progress = true;
    return true;
}

/* PTX declares no atomic types: atomicity is per access.  A location that
 * some strong access (relaxed or stronger, atom, red) touches is an atomic
 * object, as the OpenCL translation of the test declares it (litmus/print.c
 * writes it `atomic_int`); one touched by weak accesses only is a plain
 * location.  Only the OpenCL models read this (set NAL); the PTX models
 * order accesses, not locations. */
static void mark_atomic_locations(litmus_test *t)
{
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].ninstrs; k++) {
            const lit_instr *in = &t->threads[i].instrs[k];
            if (in->loc >= 0 && (in->op == OP_RMW || in->op == OP_RED || in->order != ORD_WEAK))
                t->locs[t->locs[in->loc].physical].atomic_type = true;
        }
}

litmus_test *litmus_parse_ptx(const char *path, const char *text, size_t len, FILE *errors)
{
    pparser pp;
    pparser *p = &pp;
    memset(p, 0, sizeof *p);
    lex_init(LX, path, text, len, LEX_IDENT_DOTS | LEX_COMMENT_ML | LEX_IDENT_PERCENT, errors);
    litmus_test *t = GC_MALLOC(sizeof *t);
    if (!t)
        return NULL;
    t->file = path;
    p->t = t;
    if (!parse_header(p) || !parse_init(p) || !parse_thread_header(p) || !parse_rows(p))
        return NULL;
    for (int i = 0; i < t->nthreads; i++)
        if (!resolve_thread(p, i))
            return NULL;
    if (!litmus_parse_final(LX, t))
        return NULL;
    for (int i = 0; i < t->nlocs; i++)
        t->locs[i].init = t->locs[t->locs[i].physical].init;
    mark_atomic_locations(t);
    return t;
}
