/*
 * litmus/opencl/opencl.c: the OpenCL C litmus dialect (grammar in
 * docs/litmus-opencl.md).
 *
 * The header, init block and thread headers are read token by token.  Each
 * thread body is parsed statement by statement; expressions are parsed into
 * a small tree and then compiled at once into lit_instr (loads, stores,
 * read-modify-writes, fences, barriers, moves, ALU operations, branches).
 * Branch targets are label numbers while a body is compiled and become
 * instruction indices when it is finished.  Temporaries that the compiler
 * needs are registers named "t.N" (a name no condition can spell).  The
 * final condition is parsed by litmus/cond.c.
 *
 * This file is the top level (header, init block, scope tree, threads and
 * their parameters and placement, the final condition); the statement,
 * expression, builtin and code-buffer modules are listed, with the contract
 * between them, in litmus/opencl/internal.h.
 */
#include "litmus/opencl/opencl.h"

#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus/cond.h"
#include "litmus/lex.h"
#include "litmus/opencl/internal.h"
#include "litmus/litmus.h"

#define OPENCL_ADDRESS_BASE ((lit_value)1 << 62)

/* ---- header, init block -------------------------------------------------- */

/* The header line and doc strings; in herd's format (header "OpenCL") also
 * the information lines herd's generators write before the init block
 * (Prefetch=..., Com=..., Orig=...), which say nothing about the test. */
static bool parse_header(oparser *p)
{
    if (!litmus_lex_header(LX, p->t))
        return false;
    p->herd = strcmp(p->t->arch, "OpenCL") == 0;
    while (p->herd && !lex_is_punct(&TOK, "{") && TOK.kind != TOK_EOF && TOK.kind != TOK_ERROR)
        lex_advance(LX);
    return !failed(p);
}

/* "= v" after the location `name` of the init block. */
static bool parse_loc_init_value(oparser *p, const lex_token *name)
{
    char *s = lex_tok_str(name);
    if (litmus_loc_index(p->t, s) >= 0) {
        lex_error(LX, name->line, name->col, "location '%s' is initialised twice", s);
        return false;
    }
    if (!ocl_expect_punct(p, "=", "'=' after the location"))
        return false;
    lit_value v;
    if (!lex_signed_number(LX, &v, "an integer value"))
        return false;
    litmus_add_loc(p->t, s, v);
    return true;
}

/* "[x] = v" */
static bool parse_bracket_init(oparser *p)
{
    lex_advance(LX);                /* [ */
    lex_token name = TOK;
    if (TOK.kind != TOK_IDENT) {
        ocl_expected(p, "a location name after '['");
        return false;
    }
    lex_advance(LX);
    return ocl_expect_punct(p, "]", "']'") && parse_loc_init_value(p, &name);
}

/* The thread of "T:r = v": a number (capped, so that an absurd one is
 * reported as an unknown thread, not overflowed) or a name P<n>. */
static int init_thread(const lex_token *t)
{
    if (t->kind == TOK_NUMBER)
        return t->num > 100000 ? 100000 : (int)t->num;
    return lex_thread_number(t);
}

/* ":r = v" after the thread `thread`.  The thread may not exist yet: the
 * initialisation is kept until its thread is read (thread_reg_inits) and
 * checked against the test's threads at the end (place_threads). */
bool ocl_parse_reg_init(oparser *p, const lex_token *thread)
{
    int th = init_thread(thread);
    if (th < 0) {
        lex_error(LX, thread->line, thread->col, "bad thread name %s (expected P0 or 0, ...)",
                  lex_describe(thread));
        return false;
    }
    lex_advance(LX);                /* : */
    if (TOK.kind != TOK_IDENT) {
        ocl_expected(p, "a register name");
        return false;
    }
    lex_token reg = TOK;
    lex_advance(LX);
    lit_value v;
    if (!ocl_expect_punct(p, "=", "'='") || !lex_signed_number(LX, &v, "an integer value"))
        return false;
    void *ri = ocl_append(p->rinit, p->nrinit, sizeof *p->rinit);
    if (!ri)
        return false;
    p->rinit = ri;
    p->rinit[p->nrinit].thread = th;
    p->rinit[p->nrinit].name = lex_tok_str(&reg);
    p->rinit[p->nrinit].v = v;
    p->rinit[p->nrinit].line = thread->line;
    p->rinit[p->nrinit].col = thread->col;
    p->nrinit++;
    return true;
}

/* What the words before a parameter's '*' (or a typed name of the init
 * block) say. */
typedef struct param_decl {
    bool local, global, atomic, type;
} param_decl;

static void read_param_decl(oparser *p, param_decl *d);
static bool is_qualifier(const lex_token *t);
static bool is_atomic_type(const lex_token *t);

/* "atomic_int y[2] = {0, 0}", "int z[3]", "global int x = 1": a typed
 * location, or an array (ocl_parse_array_decl). */
static bool parse_typed_init(oparser *p)
{
    param_decl d = { false, false, false, false };
    read_param_decl(p, &d);
    if (!d.type || TOK.kind != TOK_IDENT) {
        ocl_expected(p, d.type ? "a location name after the type" : "a type (int, atomic_int, ...)");
        return false;
    }
    lex_token name = TOK;
    char *s = lex_tok_str(&name);
    if (litmus_loc_index(p->t, s) >= 0 || ocl_array(p, s)) {
        lex_error(LX, name.line, name.col, "location '%s' is initialised twice", s);
        return false;
    }
    lex_advance(LX);
    uint8_t region = d.local ? REGION_LOCAL : d.global ? REGION_GLOBAL : 0;
    if (lex_is_punct(&TOK, "["))
        return ocl_parse_array_decl(p, &name, region, d.atomic);
    lit_value vals[OCL_MAX_ARRAY];
    int n;
    bool braced;
    if (!ocl_parse_init_values(p, vals, OCL_MAX_ARRAY, &n, &braced))
        return false;
    if (braced) {
        lex_error(LX, name.line, name.col, "'%s' is not an array: initialise it with '= v'", s);
        return false;
    }
    int l = litmus_add_loc(p->t, s, n > 0 ? vals[0] : 0);
    p->t->locs[l].region = region;
    p->t->locs[l].atomic_type = d.atomic;
    return true;
}

static bool starts_typed_init(oparser *p)
{
    return ocl_is_type_word(&TOK) || is_atomic_type(&TOK) || is_qualifier(&TOK) ||
           lex_is_ident(&TOK, "global") || lex_is_ident(&TOK, "__global") || lex_is_ident(&TOK, "local") ||
           lex_is_ident(&TOK, "__local");
}

/* One item of the init block: "[x] = v", "x = v", a register's "T:r = v",
 * or a typed location or array. */
static bool parse_init_item(oparser *p)
{
    if (lex_is_punct(&TOK, "["))
        return parse_bracket_init(p);
    if (starts_typed_init(p))
        return parse_typed_init(p);
    lex_token first = TOK;
    if (first.kind != TOK_IDENT && first.kind != TOK_NUMBER) {
        ocl_expected(p, "a location ([x] = v) or register (1:r = v) initialisation");
        return false;
    }
    lex_advance(LX);
    if (lex_is_punct(&TOK, ":"))
        return ocl_parse_reg_init(p, &first);
    if (first.kind != TOK_IDENT) {
        lex_error(LX, first.line, first.col, "bad location name %s", lex_describe(&first));
        return false;
    }
    return parse_loc_init_value(p, &first);
}

/* "{ item; item; ... }": a missing ';' at the end of the file is reported
 * as the missing '}' it also is. */
static bool parse_init(oparser *p)
{
    if (!ocl_expect_punct(p, "{", "'{' to open the init block"))
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
        if (!lex_is_punct(&TOK, ";") && !lex_is_punct(&TOK, "}") && TOK.kind != TOK_EOF) {
            ocl_expected(p, "';' in the init block");
            return false;
        }
    }
    lex_advance(LX);
    return !failed(p);
}

/* ---- scope tree ----------------------------------------------------------------- */

/* Thread `TOK` runs in work group wg of device dev. */
static bool add_placement(oparser *p, int wg, int dev)
{
    int th = lex_thread_number(&TOK);
    if (th < 0) {
        ocl_expected(p, "a thread name (P0, P1, ...) or ')' in the scope tree");
        return false;
    }
    placement *pl = ocl_append(p->places, p->nplaces, sizeof *p->places);
    if (!pl)
        return false;
    p->places = pl;
    p->places[p->nplaces++] = (placement){ th, wg, dev, TOK.line, TOK.col };
    lex_advance(LX);
    return true;
}

/* "(" and the word that names a level of the tree: `word`, or `alt` if not
 * NULL; "expected WHAT" otherwise. */
static bool open_level(oparser *p, const char *word, const char *alt, const char *what)
{
    lex_advance(LX);                /* ( */
    if (!lex_is_ident(&TOK, word) && !(alt && lex_is_ident(&TOK, alt))) {
        ocl_expected(p, what);
        return false;
    }
    lex_advance(LX);
    return true;
}

/* "(sub_group" or "(work_item": a finer level, within the same work group. */
static bool open_finer_level(oparser *p, int *depth)
{
    if (!open_level(p, "sub_group", "work_item", "'sub_group' or 'work_item' in the scope tree"))
        return false;
    if (++*depth > 4) {
        lex_error(LX, TOK.line, TOK.col, "scope tree nested too deeply");
        return false;
    }
    return true;
}

/* "(work_group P0 (sub_group P1 P2) ...)": every thread in it, at any
 * level, is in work group wg of device dev. */
static bool parse_work_group(oparser *p, int wg, int dev)
{
    if (!open_level(p, "work_group", NULL, "'work_group' in the scope tree"))
        return false;
    int depth = 0;
    for (;;) {
        if (lex_is_punct(&TOK, "(")) {
            if (!open_finer_level(p, &depth))
                return false;
        } else if (lex_is_punct(&TOK, ")")) {
            lex_advance(LX);
            if (depth-- == 0)
                return true;
        } else if (!add_placement(p, wg, dev)) {
            return false;
        }
    }
}

/* "(device (work_group ...) ...)"; work groups are numbered across the
 * whole tree, from *nwg on. */
static bool parse_device(oparser *p, int dev, int *nwg)
{
    if (!open_level(p, "device", NULL, "'device' in the scope tree"))
        return false;
    while (lex_is_punct(&TOK, "("))
        if (!parse_work_group(p, (*nwg)++, dev))
            return false;
    return ocl_expect_punct(p, ")", "'(' or ')' in the scope tree");
}

/* The token after the current one is '(' (past blanks and comments). */
static bool next_is_paren(oparser *p)
{
    const char *q = TOK.text + TOK.len, *end = LX->src + LX->len;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
        q++;
    return q < end && *q == '(';
}

/* Devices, or parenthesised groups of them ("((device ...))", which herd's
 * own parser refuses but some of its suite's files contain). */
static bool parse_devices(oparser *p, int *ndev, int *nwg, int depth)
{
    while (lex_is_punct(&TOK, "(")) {
        if (!next_is_paren(p)) {
            if (!parse_device(p, (*ndev)++, nwg))
                return false;
            continue;
        }
        if (depth >= 4) {
            lex_error(LX, TOK.line, TOK.col, "scope tree nested too deeply");
            return false;
        }
        lex_advance(LX);            /* ( */
        if (!parse_devices(p, ndev, nwg, depth + 1) ||
            !ocl_expect_punct(p, ")", "')' closing a group of devices in the scope tree"))
            return false;
    }
    return true;
}

/* scopeTree (device (work_group P0 P1) (work_group P2)) (device ...) ... */
static bool parse_scope_tree(oparser *p)
{
    lex_advance(LX);                /* scopeTree */
    if (!lex_is_punct(&TOK, "(")) {
        ocl_expected(p, "'(' after 'scopeTree'");
        return false;
    }
    int ndev = 0, nwg = 0;
    return parse_devices(p, &ndev, &nwg, 0);
}

/* ---- threads ------------------------------------------------------------------- */

static bool is_qualifier(const lex_token *t)
{
    return lex_is_ident(t, "volatile") || lex_is_ident(t, "const") || lex_is_ident(t, "restrict");
}

static bool is_atomic_type(const lex_token *t)
{
    return lex_is_ident(t, "atomic_int") || lex_is_ident(t, "atomic_uint") || lex_is_ident(t, "atomic_long") ||
           lex_is_ident(t, "atomic_ulong");
}

/* The address space, qualifiers and type words of a parameter, up to the
 * first word that cannot continue them: a second type, except that "int"
 * may follow a C type word ("unsigned int", "long int"). */
static void read_param_decl(oparser *p, param_decl *d)
{
    for (;;) {
        if (lex_is_ident(&TOK, "global") || lex_is_ident(&TOK, "__global")) {
            d->global = true;
        } else if (lex_is_ident(&TOK, "local") || lex_is_ident(&TOK, "__local")) {
            d->local = true;
        } else if (is_atomic_type(&TOK)) {
            if (d->type)
                return;
            d->atomic = d->type = true;
        } else if (ocl_is_type_word(&TOK)) {
            if (d->type && !lex_is_ident(&TOK, "int"))
                return;
            d->type = true;
        } else if (!is_qualifier(&TOK)) {   /* qualifiers have no bearing on the model */
            return;
        }
        lex_advance(LX);
    }
}

/* One address space at most, a type, and a '*' (with its qualifiers):
 * parameters are pointers to locations. */
static bool check_param_decl(oparser *p, const param_decl *d)
{
    if (d->global && d->local) {
        lex_error(LX, LX->prev.line, LX->prev.col, "a parameter cannot be both global and local");
        return false;
    }
    if (!d->type) {
        ocl_expected(p, "a parameter type (int, atomic_int, ...)");
        return false;
    }
    if (!lex_is_punct(&TOK, "*")) {
        ocl_expected(p, "'*': parameters are pointers to locations");
        return false;
    }
    lex_advance(LX);
    while (is_qualifier(&TOK))
        lex_advance(LX);
    return true;
}

/* The location parameter `name` points to: the init block's, or a new one
 * holding 0.  The declarations give its region: local if some thread says
 * local, else global if some thread says global, else none (a pointer with
 * no address space, which herd's OpenCL models and Dat3M put in neither
 * region: no happens-before reaches it); atomic if some thread declares it
 * atomic. */
static int param_location(oparser *p, const char *name, const param_decl *d)
{
    litmus_test *t = p->t;
    const array_decl *a = ocl_array(p, name);   /* a parameter names its array's first element */
    int l = a ? a->base : litmus_loc_index(t, name);
    if (l < 0)
        l = litmus_add_loc(t, name, 0);
    for (int k = l; k < l + (a ? a->len : 1); k++) {
        uint8_t *r = &t->locs[k].region;
        if (d->local)
            *r = REGION_LOCAL;
        else if (d->global && *r != REGION_LOCAL)
            *r = REGION_GLOBAL;
        else if (*r == 0)
            *r = REGION_NONE;
        if (d->atomic)
            t->locs[k].atomic_type = true;
    }
    return l;
}

/* "global atomic_int* x" */
static bool parse_param(oparser *p)
{
    param_decl d = { false, false, false, false };
    read_param_decl(p, &d);
    if (!check_param_decl(p, &d))
        return false;
    if (TOK.kind != TOK_IDENT) {
        ocl_expected(p, "a parameter name");
        return false;
    }
    char *name = lex_tok_str(&TOK);
    if (ocl_param_loc(p, name) >= 0) {
        lex_error(LX, TOK.line, TOK.col, "parameter '%s' is declared twice", name);
        return false;
    }
    int l = param_location(p, name, &d);
    param *np = ocl_append(p->params, p->nparams, sizeof *p->params);
    if (!np)
        return false;
    p->params = np;
    p->params[p->nparams++] = (param){ name, l };
    lex_advance(LX);
    return true;
}

/* "P0@wg 1, dev 0" (cta and gpu are accepted as in PTX) */
static const char *const wg_words[] = { "wg", "cta", NULL };
static const char *const dev_words[] = { "dev", "gpu", NULL };
static const lex_placement_syntax opencl_placement = {
    wg_words, dev_words, "'wg' or 'dev' in the thread placement", "a work-group or device number",
};

/* "Pn@placement": a new thread of the test (NULL after reporting). */
static lit_thread *thread_head(oparser *p, int *numo)
{
    litmus_test *t = p->t;
    lex_token head = TOK;
    int num = lex_thread_number(&TOK);
    if (num < 0) {
        ocl_expected(p, "a thread (P0, P1, ...), 'scopeTree' or the final condition");
        return NULL;
    }
    if (num != t->nthreads) {
        lex_error(LX, TOK.line, TOK.col, "thread %s out of order: expected P%d", lex_describe(&TOK),
                  t->nthreads);
        return NULL;
    }
    lit_thread *nt = GC_MALLOC(sizeof *nt * (size_t)(t->nthreads + 1));
    if (t->nthreads)
        memcpy(nt, t->threads, sizeof *nt * (size_t)t->nthreads);
    t->threads = nt;
    lit_thread *th = &t->threads[t->nthreads++];
    memset(th, 0, sizeof *th);
    th->name = lex_tok_str(&head);
    lex_advance(LX);
    if (!lex_thread_placement(LX, &opencl_placement, &th->cta, &th->gpu))
        return NULL;
    *numo = num;
    return th;
}

/* The registers that the init block gives thread num. */
static bool thread_reg_inits(oparser *p, lit_thread *th, int num)
{
    for (int i = 0; i < p->nrinit; i++)
        if (p->rinit[i].thread == num) {
            if (litmus_reg_index(th, p->rinit[i].name) >= 0) {
                lex_error(LX, p->rinit[i].line, p->rinit[i].col, "register %d:%s is initialised twice",
                          num, p->rinit[i].name);
                return false;
            }
            litmus_add_reg(th, p->rinit[i].name, p->rinit[i].v);
        }
    return true;
}

/* Start compiling th: no parameters, variables or code yet; its initialised
 * registers are variables. */
static bool begin_thread(oparser *p, lit_thread *th)
{
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
    for (int i = 0; i < th->nregs; i++)
        if (!ocl_declare(p, th->reg_names[i]))
            return false;
    return true;
}

/* "(param, ...)" or "(void)" or "()" */
static bool parse_param_list(oparser *p)
{
    if (!ocl_expect_punct(p, "(", "'(' to open the parameter list"))
        return false;
    if (lex_is_ident(&TOK, "void") && char_after(p) != ' ') {
        lex_advance(LX);
    } else if (!lex_is_punct(&TOK, ")")) {
        for (;;) {
            if (!parse_param(p))
                return false;
            if (lex_is_punct(&TOK, ")"))
                break;
            if (!ocl_expect_punct(p, ",", "',' or ')' in the parameter list"))
                return false;
        }
    }
    return ocl_expect_punct(p, ")", "')' to close the parameter list");
}

/* Branch targets from labels to instruction indices; the thread's
 * parameters kept for the final condition. */
static void finish_thread(oparser *p, lit_thread *th, int num)
{
    litmus_test *t = p->t;
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
    ocl_finish_unsequenced(p, th);
}

static bool parse_thread(oparser *p)
{
    int num;
    lit_thread *th = thread_head(p, &num);
    if (!th || !thread_reg_inits(p, th, num) || !begin_thread(p, th) || !parse_param_list(p))
        return false;
    if (!lex_is_punct(&TOK, "{")) {
        ocl_expected(p, "'{' to open the thread body");
        return false;
    }
    int end = ocl_new_label(p);          /* label 0: the end of the thread (return) */
    if (end != 0 || !ocl_parse_block_ex(p, true))
        return false;
    ocl_place_label(p, end);
    finish_thread(p, th, num);
    return true;
}

/* The scope tree's placements, once every thread is known; register
 * initialisations of threads the test lacks are errors. */
static bool place_threads(oparser *p)
{
    litmus_test *t = p->t;
    for (int i = 0; i < p->nplaces; i++) {
        placement *pl = &p->places[i];
        if (pl->thread >= t->nthreads) {
            lex_error(LX, pl->line, pl->col, "unknown thread P%d in the scope tree (the test has %d thread%s)",
                      pl->thread, t->nthreads, t->nthreads == 1 ? "" : "s");
            return false;
        }
        t->threads[pl->thread].cta = pl->cta;
        t->threads[pl->thread].gpu = pl->gpu;
    }
    for (int i = 0; i < p->nrinit; i++)
        if (p->rinit[i].thread >= t->nthreads) {
            lex_error(LX, p->rinit[i].line, p->rinit[i].col,
                      "unknown thread %d in the init block (the test has %d thread%s)",
                      p->rinit[i].thread, t->nthreads, t->nthreads == 1 ? "" : "s");
            return false;
        }
    return true;
}

/* Registers the final condition added (from nregs[i] on in thread i) that
 * name a pointer parameter of their thread hold its address. */
static void parameter_addresses(oparser *p, const int *nregs)
{
    litmus_test *t = p->t;
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
}

/* Threads and scope trees, in any order, up to the final condition. */
static bool parse_threads(oparser *p)
{
    litmus_test *t = p->t;
    for (;;) {
        if (lex_is_ident(&TOK, "scopeTree")) {
            if (!parse_scope_tree(p))
                return false;
            continue;
        }
        if (TOK.kind == TOK_EOF) {
            lex_error(LX, TOK.line, TOK.col, "unexpected end of file: expected %s",
                      t->nthreads ? "the final condition" : "a thread (P0 ...)");
            return false;
        }
        if (TOK.kind == TOK_ERROR)
            return false;
        if (litmus_final_starts(&TOK))
            break;
        if (!parse_thread(p))
            return false;
    }
    if (t->nthreads == 0) {
        lex_error(LX, TOK.line, TOK.col, "expected a thread (P0 ...) before the final condition");
        return false;
    }
    return true;
}

/* The final condition.  The registers it names that no thread has are
 * added (see parameter_addresses); a location it names must exist. */
static bool parse_final(oparser *p)
{
    litmus_test *t = p->t;
    lex_token fin = TOK;
    int nlocs = t->nlocs;
    int *nregs = GC_MALLOC_ATOMIC(sizeof *nregs * (size_t)t->nthreads);
    for (int i = 0; i < t->nthreads; i++)
        nregs[i] = t->threads[i].nregs;
    if (!litmus_parse_final(LX, t))
        return false;
    parameter_addresses(p, nregs);
    if (t->nlocs > nlocs) {
        lex_error(LX, fin.line, fin.col, "unknown location '%s' in the final condition",
                  t->locs[nlocs].name);
        return false;
    }
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
    if (!parse_header(p) || !parse_init(p) || !parse_threads(p) || !place_threads(p) || !parse_final(p))
        return NULL;
    return t;
}
