/*
 * litmus/c/c.c: herd7's C litmus dialect, top level (grammar in
 * docs/litmus-c.md): the header "C name", doc strings, herd's key=value
 * lines (Variant=..., Hash=...), the init block with C declarations,
 * threads "P0 (atomic_int* x, int* y) { ... }", and the final condition
 * (litmus/cond.c: locations, filter, exists, ~exists, forall).
 *
 * Thread bodies are compiled by the OpenCL front end's statement and
 * expression modules, with C's builtins and type names plugged in through
 * the hooks of oparser (litmus/c/internal.h).
 */
#include "litmus/c/c.h"

#include <gc.h>
#include <string.h>

#include "litmus/c/internal.h"
#include "litmus/cond.h"
#include "litmus/hash.h"
#include "litmus/lex.h"
#include "litmus/litmus.h"

/* The parser: OpenCL's statement compiler state first (the hooks receive
 * a pointer to it), then what herd7's digest of the test needs (the
 * texts as written: litmus/hash.h). */
typedef struct cparser {
    oparser o;
    herd_init_item *init;    /* init block entries, as written */
    int ninit;
    const char **cells;      /* per thread: herd's "P0(type* x, ...) {BODY}" */
    const char **ptypes;     /* the thread being read: its parameters' types */
    const char **pnames;
    int ncap;
    const char *given_hash;  /* a "Hash=" line of the file, or NULL */
} cparser;

#define CP ((cparser *)p)

/* The source text from..to, blanks collapsed to one space and trimmed. */
static const char *collapsed_text(const char *from, const char *to)
{
    char *out = GC_MALLOC_ATOMIC((size_t)(to - from) + 1);
    size_t n = 0;
    for (const char *c = from; c < to; c++) {
        bool blank = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
        if (blank) {
            if (n && out[n - 1] != ' ')
                out[n++] = ' ';
        } else {
            out[n++] = *c;
        }
    }
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    return out;
}

static bool note_init(oparser *p, int thread, const char *name, const char *type, lit_value v)
{
    herd_init_item *grown = ocl_append(CP->init, CP->ninit, sizeof *grown);
    if (!grown)
        return false;
    CP->init = grown;
    CP->init[CP->ninit++] = (herd_init_item){thread, name, type, v};
    return true;
}

/* ---- header ---------------------------------------------------------------- */

/* herd's information lines between the header and the init block
 * ("Variant=S128", "Hash=...", "Cycle=Rfe PodRR Fre"): skipped. */
static bool skip_info_lines(oparser *p)
{
    while (TOK.kind == TOK_IDENT) {
        lex_token key = TOK;
        lex_raw_skip_hspace(LX);
        if (LX->pos >= LX->len || LX->src[LX->pos] != '=') {
            lex_error(LX, key.line, key.col, "expected '{' to open the init block, or a Key=Value line, got %s",
                      lex_describe(&key));
            return false;
        }
        const char *value = LX->src + LX->pos + 1;
        while (!lex_raw_at_eol(LX)) {
            const char *w;
            size_t n;
            int line, col;
            lex_raw_skip_hspace(LX);
            lex_raw_word(LX, &w, &n, &line, &col);
        }
        if (key.len == 4 && memcmp(key.text, "Hash", 4) == 0)
            CP->given_hash = collapsed_text(value, LX->src + LX->pos);   /* herd7 prints it as given */
        lex_advance(LX);
    }
    return !failed(p);
}

/* ---- init block -------------------------------------------------------------- */

/* Type words and qualifiers before a declared name. */
static bool skip_type(oparser *p, bool *pointer)
{
    bool any = false;
    *pointer = false;
    for (;;) {
        if (c_is_type_word(&TOK) || lex_is_ident(&TOK, "volatile") || lex_is_ident(&TOK, "const") ||
            lex_is_ident(&TOK, "restrict")) {
            any = true;
        } else if (any && lex_is_punct(&TOK, "*")) {
            *pointer = true;
        } else {
            return any;
        }
        lex_advance(LX);
    }
}

/* "T:r = v" (T a number or P<n>): kept until the thread is read, and
 * noted for the C dialect's type checks. */
static bool parse_reg_init(oparser *p, const lex_token *thread)
{
    if (!ocl_parse_reg_init(p, thread))
        return false;
    return note_init(p, p->rinit[p->nrinit - 1].thread, p->rinit[p->nrinit - 1].name, NULL,
                     p->rinit[p->nrinit - 1].v);
}

/* "= v" (or nothing, after a type) for the location `name`, just read;
 * `type` is the type as written, or NULL. */
static bool parse_loc_value(oparser *p, const lex_token *name, const char *type)
{
    bool typed = type != NULL;
    char *s = lex_tok_str(name);
    if (litmus_loc_index(p->t, s) >= 0 || ocl_array(p, s)) {
        lex_error(LX, name->line, name->col, "location '%s' is initialised twice", s);
        return false;
    }
    lit_value v = 0;
    if (lex_is_punct(&TOK, "=")) {
        lex_advance(LX);
        if (lex_is_punct(&TOK, "&") || TOK.kind == TOK_IDENT) {
            lex_error(LX, TOK.line, TOK.col, "locations holding addresses (pointers) are not supported");
            return false;
        }
        if (!lex_signed_number(LX, &v, "an integer value"))
            return false;
    } else if (!typed) {
        ocl_expected(p, "'=' after the location");
        return false;
    }
    litmus_add_loc(p->t, s, v);
    return note_init(p, -1, s, type ? herd_hash_c_type(type) : NULL, v);
}

/* "atomic_int y[2] = {0, 0}" (Dat3M's C tests; herd7 refuses it), at the
 * '[' after the name: an array whose elements are the locations "y[0]",
 * "y[1]", ..., as in the OpenCL dialect; a parameter y names y[0]. */
static bool parse_array(oparser *p, const lex_token *name)
{
    char *s = lex_tok_str(name);
    if (litmus_loc_index(p->t, s) >= 0 || ocl_array(p, s)) {
        lex_error(LX, name->line, name->col, "location '%s' is initialised twice", s);
        return false;
    }
    return ocl_parse_array_decl(p, name, 0, false);
}

/* "type x [= v]", "type y[n] = {v, ...}", "x = v", "[x] = v" or a
 * register's "T:r = v". */
static bool parse_init_item(oparser *p)
{
    lex_token start = TOK;
    bool pointer, typed = skip_type(p, &pointer);
    const char *type = typed ? collapsed_text(start.text, LX->prev.text + LX->prev.len) : NULL;
    if (pointer) {
        lex_error(LX, TOK.line, TOK.col, "locations holding addresses (pointers) are not supported");
        return false;
    }
    bool bracket = !typed && lex_is_punct(&TOK, "[");
    if (bracket)
        lex_advance(LX);
    lex_token first = TOK;
    if (first.kind != TOK_IDENT && (typed || bracket || first.kind != TOK_NUMBER)) {
        ocl_expected(p, "a location (x = v, int x = v) or register (0:r = v) initialisation");
        return false;
    }
    lex_advance(LX);
    if (!typed && !bracket && lex_is_punct(&TOK, ":"))
        return parse_reg_init(p, &first);
    if (first.kind != TOK_IDENT) {
        lex_error(LX, first.line, first.col, "bad location name %s", lex_describe(&first));
        return false;
    }
    if (bracket && !ocl_expect_punct(p, "]", "']'"))
        return false;
    if (typed && lex_is_punct(&TOK, "["))
        return parse_array(p, &first);
    return parse_loc_value(p, &first, type);
}

/* "{ item; item; ... }", the last ';' optional. */
static bool parse_init(oparser *p)
{
    if (!ocl_expect_punct(p, "{", "'{' to open the init block"))
        return false;
    while (!lex_is_punct(&TOK, "}")) {
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
            ocl_expected(p, "';' or '}' in the init block");
            return false;
        }
    }
    lex_advance(LX);
    return !failed(p);
}

/* ---- threads ------------------------------------------------------------------- */

/* "atomic_int* x", "const int *x", "volatile __int128* y": a pointer to a
 * location, which the parameter names. */
static bool parse_param(oparser *p)
{
    lex_token start = TOK;
    bool pointer;
    if (!skip_type(p, &pointer)) {
        ocl_expected(p, "a parameter type (int, atomic_int, ...)");
        return false;
    }
    if (!pointer) {
        lex_error(LX, start.line, start.col, "parameters are pointers to locations: expected '*'");
        return false;
    }
    const char *type = herd_hash_c_type(collapsed_text(start.text, LX->prev.text));  /* prev: the '*' */
    if (TOK.kind != TOK_IDENT) {
        ocl_expected(p, "a parameter name");
        return false;
    }
    char *name = lex_tok_str(&TOK);
    if (ocl_param_loc(p, name) >= 0) {
        lex_error(LX, TOK.line, TOK.col, "parameter '%s' is declared twice", name);
        return false;
    }
    const array_decl *a = ocl_array(p, name);   /* an array's name is its first element */
    int l = a ? a->base : litmus_loc_index(p->t, name);
    if (l < 0)
        l = litmus_add_loc(p->t, name, 0);
    param *np = ocl_append(p->params, p->nparams, sizeof *p->params);
    if (!np)
        return false;
    p->params = np;
    p->params[p->nparams++] = (param){ name, l };
    if (p->nparams > CP->ncap) {
        CP->ncap = 2 * p->nparams;
        const char **types = GC_MALLOC(sizeof *types * (size_t)CP->ncap);
        const char **names = GC_MALLOC(sizeof *names * (size_t)CP->ncap);
        if (p->nparams > 1) { /* (memcpy from the first, NULL, arrays is undefined) */
            memcpy(types, CP->ptypes, sizeof *types * (size_t)(p->nparams - 1));
            memcpy(names, CP->pnames, sizeof *names * (size_t)(p->nparams - 1));
        }
        CP->ptypes = types;
        CP->pnames = names;
    }
    CP->ptypes[p->nparams - 1] = type;
    CP->pnames[p->nparams - 1] = name;
    lex_advance(LX);
    return true;
}

/* "(param, ...)", "(void)" or "()" */
static bool parse_param_list(oparser *p)
{
    if (!ocl_expect_punct(p, "(", "'(' to open the parameter list"))
        return false;
    if (lex_is_ident(&TOK, "void")) {
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

/* "Pn": a new thread of the test, in order (NULL after reporting). */
static lit_thread *thread_head(oparser *p, int *num)
{
    litmus_test *t = p->t;
    lex_token head = TOK;
    *num = lex_thread_number(&TOK);
    if (*num < 0) {
        ocl_expected(p, "a thread (P0, P1, ...) or the final condition");
        return NULL;
    }
    if (*num != t->nthreads) {
        lex_error(LX, TOK.line, TOK.col, "thread %s out of order: expected P%d", lex_describe(&TOK), t->nthreads);
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
    return th;
}

/* A fresh code buffer for th; its initialised registers are variables. */
static bool begin_thread(oparser *p, lit_thread *th, int num)
{
    p->th = th;
    p->params = NULL;
    p->nparams = 0;
    p->decl = NULL;
    p->ndecl = 0;
    p->code = NULL;
    p->ncode = p->capcode = 0;
    p->labels = NULL;
    p->nlabels = p->caplabels = 0;
    p->ntemps = p->nbarriers = p->nloops = 0;
    for (int i = 0; i < p->nrinit; i++) {
        if (p->rinit[i].thread != num)
            continue;
        if (litmus_reg_index(th, p->rinit[i].name) >= 0) {
            lex_error(LX, p->rinit[i].line, p->rinit[i].col, "register %d:%s is initialised twice", num,
                      p->rinit[i].name);
            return false;
        }
        litmus_add_reg(th, p->rinit[i].name, p->rinit[i].v);
        if (!ocl_declare(p, p->rinit[i].name))
            return false;
    }
    return true;
}

/* Branch targets from labels to instruction indices. */
static void finish_thread(oparser *p, lit_thread *th)
{
    for (int i = 0; i < p->ncode; i++) {
        lit_instr *in = &p->code[i];
        if (in->op == OP_BRANCH || in->op == OP_GOTO)
            in->target = p->labels[in->target];
        if (!in->text)
            in->text = "";
    }
    th->ninstrs = p->ncode;
    th->instrs = p->ncode ? p->code : GC_MALLOC(sizeof *th->instrs);
    ocl_finish_unsequenced(p, th);
}

/* herd's cell of thread `num`: its head and its body as written. */
static bool note_cell(oparser *p, int num, const char *body, const char *body_end)
{
    size_t n = (size_t)(body_end - body);
    char *text = GC_MALLOC_ATOMIC(n + 1);
    memcpy(text, body, n);
    text[n] = '\0';
    const char **grown = ocl_append(CP->cells, num, sizeof *grown);
    if (!grown)
        return false;
    CP->cells = grown;
    CP->cells[num] = herd_hash_c_cell(num, p->nparams, CP->ptypes, CP->pnames, text);
    return true;
}

static bool parse_thread(oparser *p)
{
    int num;
    lit_thread *th = thread_head(p, &num);
    if (!th || !begin_thread(p, th, num) || !parse_param_list(p))
        return false;
    if (!lex_is_punct(&TOK, "{")) {
        ocl_expected(p, "'{' to open the thread body");
        return false;
    }
    const char *body = TOK.text + 1;
    int end = ocl_new_label(p);          /* label 0: the end of the thread (return) */
    if (end != 0 || !ocl_parse_block_ex(p, true))
        return false;
    ocl_place_label(p, end);
    finish_thread(p, th);
    return note_cell(p, num, body, LX->prev.text);   /* prev: the closing '}' */
}

/* herd's "regions: x:PROP ..." line (herd ignores it for C): skipped up to
 * the final condition. */
static void skip_regions(oparser *p)
{
    while (TOK.kind != TOK_EOF && TOK.kind != TOK_ERROR && !litmus_final_starts(&TOK))
        lex_advance(LX);
}

static bool parse_threads(oparser *p)
{
    litmus_test *t = p->t;
    for (;;) {
        if (TOK.kind == TOK_EOF && t->nthreads)
            break; /* no final condition: herd7 takes forall (true) (parse_final) */
        if (TOK.kind == TOK_EOF) {
            lex_error(LX, TOK.line, TOK.col, "unexpected end of file: expected a thread (P0 ...)");
            return false;
        }
        if (TOK.kind == TOK_ERROR)
            return false;
        if (lex_is_ident(&TOK, "regions") && t->nthreads) {
            skip_regions(p);
            continue;
        }
        if (litmus_final_starts(&TOK))
            break;
        if (!parse_thread(p))
            return false;
    }
    if (t->nthreads == 0) {
        lex_error(LX, TOK.line, TOK.col, "expected a thread (P0 ...) before the final condition");
        return false;
    }
    for (int i = 0; i < p->nrinit; i++)
        if (p->rinit[i].thread >= t->nthreads) {
            lex_error(LX, p->rinit[i].line, p->rinit[i].col,
                      "unknown thread %d in the init block (the test has %d thread%s)", p->rinit[i].thread,
                      t->nthreads, t->nthreads == 1 ? "" : "s");
            return false;
        }
    return true;
}

/* The final condition; a location it names must be declared. */
static bool parse_final(oparser *p)
{
    litmus_test *t = p->t;
    lex_token fin = TOK;
    int nlocs = t->nlocs;
    if (TOK.kind == TOK_EOF) {
        litmus_final_absent(t);
        return true;
    }
    if (!litmus_parse_final(LX, t))
        return false;
    if (t->nlocs > nlocs) {
        lex_error(LX, fin.line, fin.col, "unknown location '%s' in the final condition", t->locs[nlocs].name);
        return false;
    }
    return true;
}

/* herd7's digest, from the texts as written (litmus/hash.h). */
static void set_herd_hash(oparser *p)
{
    litmus_test *t = p->t;
    if (CP->given_hash && *CP->given_hash) {
        t->hash = CP->given_hash;
        return;
    }
    const char *const **cols = GC_MALLOC(sizeof *cols * (size_t)t->nthreads);
    int *ncells = GC_MALLOC_ATOMIC(sizeof *ncells * (size_t)t->nthreads);
    for (int i = 0; i < t->nthreads; i++) {
        cols[i] = &CP->cells[i];
        ncells[i] = 1;
    }
    char *hex = GC_MALLOC_ATOMIC(33);
    herd_hash_digest(herd_hash_init_text(CP->init, CP->ninit),
                     herd_hash_code_text(t->nthreads, cols, ncells), herd_hash_observed_text(t), hex);
    t->hash = hex;
}

litmus_test *litmus_parse_c(const char *path, const char *text, size_t len, FILE *errors)
{
    cparser cp;
    memset(&cp, 0, sizeof cp);
    oparser *p = &cp.o;
    lex_init(LX, path, text, len, LEX_COMMENT_ML | LEX_COMMENT_C, errors);
    litmus_test *t = GC_MALLOC(sizeof *t);
    if (!t)
        return NULL;
    t->file = path;
    t->c_event_sets = true;
    p->t = t;
    p->gen_call = c_gen_call;
    p->is_type_word = c_is_type_word;
    if (!litmus_lex_header(LX, t) || !skip_info_lines(p) || !parse_init(p) || !parse_threads(p) ||
        !parse_final(p))
        return NULL;
    set_herd_hash(p);
    return t;
}
