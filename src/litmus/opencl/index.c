/*
 * litmus/opencl/index.c: arrays of the OpenCL dialect (see internal.h).
 *
 * An array of the init block ("atomic_int y[2] = {0,0};") is a run of
 * locations named "y[0]", "y[1]", ...; a parameter of the same name points
 * at its first element.  A constant index names one location at compile
 * time.  The register machine has no computed addresses, so an access
 * through an index held in a register becomes a chain of comparisons and
 * one copy of the access per element: the path that runs is the one whose
 * element the index names.  The comparisons give no control dependency;
 * the access gets an address dependency on the index (lit_instr.addr,
 * addr_select), as herd7 gives C's x + r.
 *
 * A location x that is no array may be accessed at an offset too (diy7's
 * x + (r0 & 128)): as herd7 reads C, x + 0 is x and x + k another
 * location, "x+k", with no initial value.  A register offset compiles as
 * an index into x taken as an array of one element; when it is not 0 the
 * access is of one location "x+?" standing for every x + k
 * (docs/litmus-c.md, "Computed addresses").
 */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "litmus/opencl/internal.h"

static bool add_array(oparser *p, const char *name, int base, int len, bool scalar)
{
    array_decl *a = ocl_append(p->arrays, p->narrays, sizeof *a);
    if (!a)
        return false;
    p->arrays = a;
    p->arrays[p->narrays++] = (array_decl){ name, base, len, -1, scalar };
    return true;
}

bool ocl_add_array(oparser *p, const char *name, int base, int len)
{
    return add_array(p, name, base, len, false);
}

const array_decl *ocl_array(oparser *p, const char *name)
{
    for (int i = 0; i < p->narrays; i++)
        if (!p->arrays[i].scalar && strcmp(p->arrays[i].name, name) == 0)
            return &p->arrays[i];
    return NULL;
}

/* The one-element array of location `loc`, which is no array (NULL when
 * out of memory, reported at e). */
static const array_decl *scalar_array(oparser *p, int loc, const node *e)
{
    for (int i = 0; i < p->narrays; i++)
        if (p->arrays[i].scalar && p->arrays[i].base == loc)
            return &p->arrays[i];
    if (!add_array(p, p->t->locs[loc].name, loc, 1, true)) {
        lex_error(LX, e->line, e->col, "out of memory");
        return NULL;
    }
    return &p->arrays[p->narrays - 1];
}

lit_operand ocl_node_addr(const node *e)
{
    lit_operand none = { OPND_NONE, -1, 0 };
    return e->index && e->fixed >= 0 ? e->addr : none;
}

bool ocl_needs_dispatch(const node *e)
{
    return (e->kind == N_INDEX || e->kind == N_ADDR) && e->index && e->index->kind != N_NUM && e->fixed < 0;
}

/* The array a parameter of the thread names (a scalar one for a location
 * that is no array), reporting when there is none. */
static const array_decl *indexed_array(oparser *p, node *e)
{
    int loc = ocl_location_named(p, e->name);
    if (loc < 0) {
        if (ocl_local_index(p, e->name) >= 0)
            lex_error(LX, e->line, e->col, "'%s' is a variable, not a location: it cannot be indexed", e->name);
        else
            lex_error(LX, e->line, e->col, "undeclared location '%s' (not a parameter of thread %s)", e->name,
                      p->th->name);
        return NULL;
    }
    const array_decl *a = ocl_array(p, e->name);
    return a ? a : scalar_array(p, loc, e);
}

/* Location x + k of a location x that is no array, k != 0: "x+k" (or
 * "x-k"), made on first use with no initial value, in x's region. */
static int offset_loc(oparser *p, const array_decl *a, lit_value k)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s%+lld", a->name, (long long)k);
    int l = litmus_loc_index(p->t, buf);
    if (l < 0) {
        l = litmus_add_loc(p->t, lex_strndup(buf, strlen(buf)), LIT_NO_VALUE);
        p->t->locs[l].region = p->t->locs[a->base].region;
        p->t->locs[l].atomic_type = p->t->locs[a->base].atomic_type;
    }
    return l;
}

/* Where an index out of range leads.  An array's: a location whose read
 * ends the path (it has no value, and nothing writes it).  A scalar's
 * (x + r, r != 0 at run time): "x+?", with no initial value, which the
 * access reads or writes as herd7 would reach x + r (a read sees only
 * writes to x+?; a write is kept). */
static int out_of_range_loc(oparser *p, array_decl *a)
{
    if (a->out_of_range < 0) {
        char buf[128];
        snprintf(buf, sizeof buf, a->scalar ? "%s+?" : "%s[out of range]", a->name);
        int l = litmus_add_loc(p->t, lex_strndup(buf, strlen(buf)), LIT_NO_VALUE);
        p->t->locs[l].region = a->scalar ? p->t->locs[a->base].region : REGION_NONE;
        p->t->locs[l].atomic_type = a->scalar && p->t->locs[a->base].atomic_type;
        a->out_of_range = l;
    }
    return a->out_of_range;
}

int ocl_node_loc(oparser *p, node *e, const char *what)
{
    if ((e->kind == N_VAR || e->kind == N_ADDR || e->kind == N_DEREF) && !e->index) {
        int l = ocl_location_named(p, e->name);
        if (l < 0)
            lex_error(LX, e->line, e->col, "%s must be a location (a pointer parameter)", what);
        return l;
    }
    if (!e->index) {
        lex_error(LX, e->line, e->col, "%s must be a location (a pointer parameter)", what);
        return -1;
    }
    const array_decl *a = indexed_array(p, e);
    if (!a)
        return -1;
    lit_value k = e->fixed;
    if (e->index->kind == N_NUM)
        k = e->index->num;
    else if (k < 0)
        return -2;
    if (a->scalar && k != 0 && e->fixed < 0)
        return offset_loc(p, a, k);
    if (a->scalar && e->fixed == a->len)     /* ocl_each_element's "elsewhere" copy */
        return out_of_range_loc(p, &p->arrays[a - p->arrays]);
    if (k < 0 || k >= a->len) {
        lex_error(LX, e->index->line, e->index->col, "index %lld is out of range for %s[%d]", (long long)k,
                  a->name, a->len);
        return -1;
    }
    return a->base + (int)k;
}

/* One copy of the access, e fixed to element k (for a scalar, k = 1 is
 * "elsewhere": x+?), with the index as its address dependency. */
static bool element_copy(oparser *p, node *e, int k, lit_operand idx, bool (*body)(oparser *p, void *ctx),
                         void *ctx)
{
    e->fixed = k;
    e->addr = idx;
    bool ok = body(p, ctx);
    e->fixed = -1;
    return ok;
}

bool ocl_each_element(oparser *p, node *e, ocl_value_compiler gen_value,
                      bool (*body)(oparser *p, void *ctx), void *ctx)
{
    const array_decl *ca = indexed_array(p, e);
    if (!ca)
        return false;
    int ai = (int)(ca - p->arrays), len = ca->len;   /* (body may grow p->arrays) */
    bool scalar = ca->scalar;
    lit_operand idx;
    if (!gen_value(p, e->index, &idx))
        return false;
    int end = ocl_new_label(p), first = -1;
    for (int k = 0; k < len; k++) {
        int l = ocl_new_label(p);
        lit_instr *select = l < 0 ? NULL : ocl_emit_branch(p, CMP_EQ, idx, imm(k), l, e->line, e->col);
        if (!select)
            return false;
        select->addr_select = true;
        if (k == 0)
            first = l;
    }
    if (end < 0)
        return false;
    /* no element: an array's path ends; a scalar's access goes to x+? */
    bool ok = scalar ? element_copy(p, e, len, idx, body, ctx)
                     : ocl_emit_plain_load(p, ocl_new_temp(p), out_of_range_loc(p, &p->arrays[ai]), e->line,
                                           e->col) != NULL;
    if (!ok || !ocl_emit_goto(p, end, e->line, e->col))
        return false;
    /* labels were made in order: element k's is first + k */
    for (int k = 0; k < len; k++) {
        ocl_place_label(p, first + k);
        if (!element_copy(p, e, k, idx, body, ctx) || !ocl_emit_goto(p, end, e->line, e->col))
            return false;
    }
    ocl_place_label(p, end);
    return true;
}

bool ocl_parse_init_values(oparser *p, lit_value *vals, int max, int *n, bool *braced)
{
    *n = -1;
    *braced = false;
    if (!lex_is_punct(&TOK, "="))
        return true;
    lex_advance(LX);
    if (!lex_is_punct(&TOK, "{")) {
        *n = 1;
        return lex_signed_number(LX, &vals[0], "an integer value");
    }
    *braced = true;
    lex_advance(LX);
    for (*n = 0; !lex_is_punct(&TOK, "}");) {
        if (*n == max) {
            lex_error(LX, TOK.line, TOK.col, "too many initial values (at most %d)", max);
            return false;
        }
        if (!lex_signed_number(LX, &vals[(*n)++], "an integer value"))
            return false;
        if (!lex_is_punct(&TOK, "}") && !ocl_expect_punct(p, ",", "',' or '}' in the initial values"))
            return false;
    }
    lex_advance(LX);
    return true;
}

/* "[len]" or "[]" at the current '[': the length, 0 when it comes from the
 * initial values; -1 after reporting. */
static int parse_array_length(oparser *p)
{
    lex_advance(LX);                /* [ */
    int len = 0;
    if (TOK.kind == TOK_NUMBER) {
        if (TOK.num < 1 || TOK.num > OCL_MAX_ARRAY) {
            lex_error(LX, TOK.line, TOK.col, "an array has 1 to %d elements, not %lld", OCL_MAX_ARRAY,
                      (long long)TOK.num);
            return -1;
        }
        len = (int)TOK.num;
        lex_advance(LX);
    }
    return ocl_expect_punct(p, "]", "']' after the array length") ? len : -1;
}

/* The checks of an array's initialiser: n values (-1: none) for length len
 * (0: from the values). */
static bool check_array_values(oparser *p, const lex_token *name, const lex_token *open, int len, int n,
                               bool braced)
{
    char *s = lex_tok_str(name);
    if (n >= 0 && !braced)
        lex_error(LX, name->line, name->col, "array '%s' is initialised with '= {v, ...}'", s);
    else if (len == 0 && n <= 0)
        lex_error(LX, open->line, open->col, "array '%s' needs a length or initial values", s);
    else if (len > 0 && n > len)
        lex_error(LX, name->line, name->col, "%d initial values for %s[%d]", n, s, len);
    else
        return true;
    return false;
}

bool ocl_parse_array_decl(oparser *p, const lex_token *name, uint8_t region, bool atomic)
{
    lex_token open = TOK;
    int len = parse_array_length(p);
    lit_value vals[OCL_MAX_ARRAY];
    int n;
    bool braced;
    if (len < 0 || !ocl_parse_init_values(p, vals, OCL_MAX_ARRAY, &n, &braced) ||
        !check_array_values(p, name, &open, len, n, braced))
        return false;
    if (len == 0)
        len = n;
    char *s = lex_tok_str(name);
    int base = p->t->nlocs;
    for (int k = 0; k < len; k++) {
        char buf[160];
        snprintf(buf, sizeof buf, "%s[%d]", s, k);
        int l = litmus_add_loc(p->t, lex_strndup(buf, strlen(buf)), k < n ? vals[k] : 0);
        p->t->locs[l].region = region;
        p->t->locs[l].atomic_type = atomic;
    }
    if (ocl_add_array(p, s, base, len))
        return true;
    lex_error(LX, name->line, name->col, "out of memory");
    return false;
}
