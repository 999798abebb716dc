/*
 * litmus/opencl/internal.h: the contract between the modules of the OpenCL
 * litmus front end (internal; the public entry point is litmus/opencl/opencl.h),
 * and with the C front end (litmus/c/), which compiles its thread bodies
 * with these statement and expression modules and its own builtins and
 * type names (the hooks in oparser).
 *
 *   litmus/opencl/opencl.c          the dialect's top level: header, init block,
 *                            scope tree, threads and parameters, placement,
 *                            the final condition; the parser helpers below
 *   litmus/opencl/code.c     the code buffer of the thread being compiled:
 *                            instructions, labels, text stamps, temporaries,
 *                            the names in scope
 *   litmus/opencl/expr.c     expressions: parsed into a node tree, compiled
 *                            into values, registers and conditional jumps
 *   litmus/opencl/builtin.c  calls of the builtins (atomics, fences, barriers)
 *   litmus/opencl/stmt.c     statements and control flow
 *   litmus/opencl/index.c    arrays: their elements as locations, and
 *                            accesses through an index held in a register
 *
 * Every function reports at most one diagnostic through the lexer (which
 * sets p->lx.failed) and returns false, NULL or -1 after it; callers stop.
 * Branch targets are label numbers (ocl_new_label) while a body is
 * compiled; the top level turns them into instruction indices.
 */
#ifndef SCOPECHECK_LITMUS_OPENCL_INTERNAL_H
#define SCOPECHECK_LITMUS_OPENCL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "litmus/litmus.h"
#include "litmus/lex.h"

#define MAX_DEPTH 200
#define MAX_ARGS 8

/* ---- expression trees ---------------------------------------------------- */

/* N_INDEX: name[index] (a plain access of an array element); N_ADDR:
 * &name, or &name[index] when index is set. */
enum node_kind { N_NUM, N_VAR, N_DEREF, N_ADDR, N_CALL, N_BIN, N_NOT, N_NEG, N_INDEX };
enum binop { B_ADD, B_SUB, B_MUL, B_AND, B_OR, B_EQ, B_NE, B_LT, B_GT, B_LE, B_GE, B_LAND, B_LOR, B_XOR };

typedef struct node {
    enum node_kind kind;
    enum binop op;
    lit_value num;
    const char *name;        /* N_VAR, N_DEREF, N_ADDR, N_CALL */
    struct node *l, *r;      /* N_BIN: both; N_NOT, N_NEG: l */
    struct node *args[MAX_ARGS];
    int nargs;
    struct node *index;      /* N_INDEX, N_ADDR: the element index, or NULL */
    int fixed;               /* while an access through a register index is
                              * compiled per element (index.c): that element */
    lit_operand addr;        /* ... and the index, the access's address
                              * dependency (lit_instr.addr) */
    int line, col;
} node;

/* An array of the init block: its elements are the locations base, ...,
 * base + len - 1, named "name[0]", ...  A location that is no array but is
 * accessed at an offset (x + r, x[r]) has one too, `scalar`, of length 1:
 * as in herd7, x + k for k != 0 is another location (index.c). */
typedef struct array_decl {
    const char *name;
    int base, len;
    int out_of_range;        /* a location no access may read, or -1 */
    bool scalar;
} array_decl;

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
    /* herd's legacy format (header "OpenCL", docs/litmus-opencl.md): info
     * lines after the header, variables introduced by assignment, loads and
     * stores of any order, names that no parameter declares, barriers
     * matched by their statement label */
    bool herd;
    const char *stmt_label;  /* the label of the statement being compiled, or NULL */
    const char **barrier_labels; /* herd: barrier labels of the whole test, by id */
    int nbarrier_labels;
    array_decl *arrays;      /* arrays of the init block */
    int narrays;
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
    lit_unseq *unseq;        /* unsequenced operand pairs of the thread (ocl_note_unsequenced) */
    int nunseq, capunseq;
    int *labels;             /* label number -> instruction index, -1 if not placed */
    int nlabels, caplabels;
    int ntemps;
    int nbarriers;
    loop_labels loops[MAX_DEPTH];
    int nloops;
    /* hooks of a dialect that reuses the statements and expressions with
     * its own builtins and types (the C dialect); NULL: OpenCL's
     * (ocl_gen_call, ocl_is_type_word) */
    bool (*gen_call)(struct oparser *p, node *e, int dst,
                     bool (*gen_value)(struct oparser *p, node *e, lit_operand *out));
    bool (*is_type_word)(const lex_token *t);
} oparser;

#define LX (&p->lx)
#define TOK (p->lx.tok)

static inline bool failed(oparser *p) { return p->lx.failed; }

/* The character just after the current token in the source, or -1. */
static inline int char_after(oparser *p)
{
    const char *e = TOK.text + TOK.len;
    return e < LX->src + LX->len ? (unsigned char)*e : -1;
}

static inline lit_operand imm(lit_value v)
{
    lit_operand o = { OPND_IMM, -1, v };
    return o;
}

static inline lit_operand regop(int r)
{
    lit_operand o = { OPND_REG, r, 0 };
    return o;
}

/* ---- parser helpers (litmus/opencl/opencl.c) ------------------------------------ */

/* Report "expected WHAT" at the current token unless the lexer already did. */
void ocl_expected(oparser *p, const char *what);
/* "T:r = v" with `thread` the current token T (a number or P<n>): kept in
 * p->rinit until its thread is read; false after a located error. */
bool ocl_parse_reg_init(oparser *p, const lex_token *thread);
/* Consume the punctuation `punct`, or report "expected WHAT". */
bool ocl_expect_punct(oparser *p, const char *punct, const char *what);
/* One level deeper into a nested construct, `what` ("expression", ...);
 * past MAX_DEPTH it reports "WHAT nested too deeply" at line:col and returns
 * false.  The caller steps out with p->depth--. */
bool ocl_enter(oparser *p, int line, int col, const char *what);
/* Make room for element n of the GC array *v (capacity *cap). */
bool ocl_grow(void **v, int n, int *cap, size_t elem);
/* The GC array arr of n elements copied into one with room for element n
 * (NULL when out of memory); the caller stores it back. */
void *ocl_append(void *arr, int n, size_t elem);

/* ---- code buffer (litmus/opencl/code.c) ---------------------------------- */

/* A new, unplaced label (-1 when out of memory); place it at the next instruction. */
int ocl_new_label(oparser *p);
void ocl_place_label(oparser *p, int l);
/* Append an instruction with no operands (NULL after reporting). */
lit_instr *ocl_emit(oparser *p, enum lit_opcode op, int line, int col);
/* The operands of one operator were compiled into [a0, a1) and [a1, b1):
 * their evaluations are unsequenced (lit_unseq).  False when out of memory. */
bool ocl_note_unsequenced(oparser *p, int a0, int a1, int b1);
/* The pairs noted for the thread being compiled, handed to it. */
void ocl_finish_unsequenced(oparser *p, lit_thread *th);
/* Instructions of one shape, their fields filled in (NULL after reporting). */
lit_instr *ocl_emit_mov(oparser *p, int dst, lit_operand a, int line, int col);
lit_instr *ocl_emit_alu(oparser *p, enum lit_alu_op op, int dst, lit_operand a, lit_operand b, int line,
                        int col);
lit_instr *ocl_emit_goto(oparser *p, int label, int line, int col);
lit_instr *ocl_emit_branch(oparser *p, enum lit_cmp cmp, lit_operand a, lit_operand b, int label, int line,
                           int col);
/* A non-atomic load or store (weak, no scope): C's *x. */
lit_instr *ocl_emit_plain_load(oparser *p, int dst, int loc, int line, int col);
lit_instr *ocl_emit_plain_store(oparser *p, int loc, lit_operand a, int line, int col);
/* Give instructions from `from` on that have no text yet the source slice
 * [s, e) and its position. */
void ocl_stamp(oparser *p, int from, const char *s, const char *e, int line, int col);
/* A fresh temporary register "t.N". */
int ocl_new_temp(oparser *p);
/* Declare the variable `name` (its register already exists) in the thread
 * being compiled; false when out of memory. */
bool ocl_declare(oparser *p, const char *name);
/* The register of a declared variable, the location of a parameter, or -1. */
int ocl_local_index(oparser *p, const char *name);
int ocl_param_loc(oparser *p, const char *name);
/* The location `name` denotes where a location is expected: a parameter of
 * the thread not hidden by a variable; in herd's format also any other name
 * that is no variable (a location of the test, created on first use); -1
 * if none. */
int ocl_location_named(oparser *p, const char *name);
/* The location *name reads or writes: that of the pointer parameter `name`
 * unless a variable hides it; -1 (reported at line:col) if there is none. */
int ocl_deref_loc(oparser *p, const char *name, int line, int col);

/* ---- expressions (litmus/opencl/expr.c) ---------------------------------- */

node *ocl_parse_expr(oparser *p);
/* At '*': the location a store *x = e or *(x + i) = e writes, an N_DEREF
 * or N_INDEX node (NULL after reporting). */
node *ocl_parse_deref_target(oparser *p);
/* e as an operand (an immediate, or a register, compiling what it needs). */
bool ocl_gen_value(oparser *p, node *e, lit_operand *out);
/* Compile e so that its value ends up in register dst. */
bool ocl_gen_into(oparser *p, node *e, int dst);
/* Jump to `label` when the truth of e equals jump_if; fall through otherwise. */
bool ocl_gen_cond(oparser *p, node *e, bool jump_if, int label);

/* ---- builtins (builtin.c) ------------------------------------------------ */

/* Compiles an argument expression to an operand: ocl_gen_value, passed in
 * by the callers so that the builtins do not depend on the expression
 * compiler that depends on them (calls nest inside expressions and
 * expressions inside calls). */
typedef bool (*ocl_value_compiler)(oparser *p, node *e, lit_operand *out);

/* Compile a call; `dst` is the register that receives its value, or -1
 * when the value is unused (a call statement). */
bool ocl_gen_call(oparser *p, node *e, int dst, ocl_value_compiler gen_value);
/* The dialect's: p->gen_call, or ocl_gen_call. */
bool ocl_call(oparser *p, node *e, int dst, ocl_value_compiler gen_value);

/* ---- arrays (litmus/opencl/index.c) --------------------------------------- */

/* The most elements an array may have. */
#define OCL_MAX_ARRAY 64

/* Declare array `name` of `len` locations from `base` on (false when out
 * of memory). */
bool ocl_add_array(oparser *p, const char *name, int base, int len);
/* The values of "= v" or "= {v, ...}" (up to max of them) into vals; *n
 * receives their number, -1 when there is no initialiser; *braced whether
 * they were in braces.  False after reporting. */
bool ocl_parse_init_values(oparser *p, lit_value *vals, int max, int *n, bool *braced);
/* The rest of an array declaration of the init block, at the '[' after
 * its name: "[len]", "[len] = {v, ...}" or "[] = {v, ...}" (missing values
 * are 0, as in C); its elements become the locations "name[0]", ... of
 * the region and atomicity given.  False after reporting. */
bool ocl_parse_array_decl(oparser *p, const lex_token *name, uint8_t region, bool atomic);
/* The array named `name` (the init block's), or NULL. */
const array_decl *ocl_array(oparser *p, const char *name);
/* The location an access names: x, &x, x[i], &x[i] (also written x + i)
 * with i a constant (or fixed by ocl_each_element); -2 when i is held in a
 * register and not fixed yet; -1 after reporting an error ("what" names
 * the position).  On a location x that is no array, x + 0 is x and x + k
 * the location "x+k", which has no initial value (herd7: only a write of
 * the test can be read there). */
int ocl_node_loc(oparser *p, node *e, const char *what);
/* The address dependency of an access of e: its index while
 * ocl_each_element compiles it, else none (OPND_NONE). */
lit_operand ocl_node_addr(const node *e);
/* Does e index an array through a register not fixed yet? */
bool ocl_needs_dispatch(const node *e);
/* Compile `body` once per element of the array e indexes, each copy run
 * when the index (compiled with gen_value) equals that element's number,
 * with e fixed to it; an index out of range leaves the path with no
 * execution (C: undefined behaviour).  On a location that is no array one
 * more copy, with e fixed to 1, runs when the index is not 0: it accesses
 * "x+?" (ocl_node_loc). */
bool ocl_each_element(oparser *p, node *e, ocl_value_compiler gen_value,
                      bool (*body)(oparser *p, void *ctx), void *ctx);

/* ---- statements (litmus/opencl/stmt.c) ----------------------------------- */

/* A type word of C (int, uint, long, ...). */
bool ocl_is_type_word(const lex_token *t);
/* The dialect's: p->is_type_word, or ocl_is_type_word. */
bool ocl_type_word(const oparser *p, const lex_token *t);
/* A { ... } block; `body` for a thread body (see litmus/opencl/stmt.c). */
bool ocl_parse_block_ex(oparser *p, bool body);

#endif
