/*
 * cat/ast.h: internal forms of a cat model, shared by the parser
 * (cat/parse.c), the compiler (cat/compile.c) and the evaluator
 * (cat/eval.c).
 *
 * Contract: the parser produces a cat_ast (statements of all included files
 * in order, names unresolved).  The compiler resolves names and types and
 * produces a cat_model: straight-line code over numbered slots, split into
 * blocks at each `with` statement, so that evaluation only interprets
 * precomputed instructions on workspace slots and never allocates.
 */
#ifndef SCOPECHECK_CAT_AST_H
#define SCOPECHECK_CAT_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cat/cat.h"

/* ---- Limits (docs/cat.md) ---- */

/* Brackets, parentheses and call arguments nested in one another. */
#define CAT_MAX_EXPR_DEPTH 256
/* Files included in one another. */
#define CAT_MAX_INCLUDE_DEPTH 16
/* Function calls expanded inside one another (a call in a function body). */
#define CAT_MAX_CALL_DEPTH 256
/* Expressions nested in the compiler, function bodies expanded in place
 * (nesting in a body called from nested calls adds up). */
#define CAT_MAX_COMPILE_DEPTH 1024
/* Expression nodes compiled in all, each function call expanded: bounds the
 * time and memory a model whose calls double at each level would take. */
#define CAT_MAX_COMPILED_NODES (1 << 22)
/* `with` statements: each multiplies the work by its linearisations. */
#define CAT_MAX_WITHS 16

/* ---- Syntax ---- */

typedef struct cat_pos {
    const char *file;
    int line, col;
} cat_pos;

enum cat_expr_kind {
    CE_NAME, CE_ZERO, CE_UNIV, CE_BRACKET, CE_CALL,
    CE_UNION, CE_SEQ, CE_DIFF, CE_INTER, CE_CART,
    CE_COMPL, CE_INV, CE_PLUS, CE_STAR, CE_OPT,
};

typedef struct cat_expr {
    enum cat_expr_kind kind;
    cat_pos pos;             /* of the operator, or of the primary */
    const char *name;        /* CE_NAME, CE_CALL */
    struct cat_expr *a, *b;  /* operands (unary: a) */
    struct cat_expr **args;  /* CE_CALL */
    int nargs;
} cat_expr;

typedef struct cat_binding {
    const char *name;
    cat_pos pos;
    bool is_func;            /* let f(a, b) = e */
    const char **params;
    int nparams;
    cat_expr *body;
} cat_binding;

enum cat_stmt_kind { CS_LET, CS_LET_REC, CS_CHECK, CS_WITH };
enum cat_check_kind { CK_ACYCLIC, CK_IRREFLEXIVE, CK_EMPTY };

typedef struct cat_stmt {
    enum cat_stmt_kind kind;
    cat_pos pos;
    const char *text;            /* the statement's source, blanks squeezed */
    /* CS_LET, CS_LET_REC */
    cat_binding *binds;
    int nbinds;
    /* CS_CHECK */
    enum cat_check_kind check;
    bool negate, flag;
    const char *name;            /* `as name`, or NULL */
    cat_expr *expr;
    /* CS_WITH: with var from linearisations(set, rel) */
    const char *var;
    cat_expr *set, *rel;
} cat_stmt;

typedef struct cat_ast {
    const char *title;           /* NULL when the model has none */
    enum cat_co_mode co_mode;
    bool thread_coherent;        /* option thread-coherence = enforced */
    bool thin_air;               /* option thin-air = allowed */
    bool flags_undefined;        /* option flags = undefined */
    cat_stmt *stmts;
    int nstmts;
} cat_ast;

/* Parses `text` (len bytes, at most CAT_MAX_FILE_BYTES) named `name`;
 * includes are looked up in `dir` ("" for the current directory) and read
 * through base/textfile.h, each at most CAT_MAX_FILE_BYTES and the model's
 * files at most CAT_MAX_MODEL_BYTES in all.  NULL after reporting errors. */
cat_ast *cat_parse(const char *name, const char *text, size_t len, const char *dir,
                   FILE *errors);

/* The directory part of a path ("" when it has none). */
char *cat_dir_of(const char *path);

/* ---- Compiled form ---- */

/* Blocks.  Block 0 runs first, per reads-from (and barrier) choice, after
 * the static block; a block ending in a `with` runs the next block once
 * per linearisation; the co block runs innermost, per coherence choice.
 *
 * Slots.  Relation slots 0..XR_COUNT-1 are the execution's base relations,
 * the others live in the workspace (index - XR_COUNT).  Set slots
 * 0..XS_COUNT-1 are the base sets, CAT_SLOT_UNIV is the set of all events,
 * the others are workspace sets.  Slot -1 as an operand means "empty". */
#define CAT_SLOT_UNIV XS_COUNT

enum cat_op {
    CI_S_EMPTY, CI_S_UNION, CI_S_INTER, CI_S_DIFF, CI_S_COMPL,
    CI_S_DOMAIN, CI_S_RANGE, CI_S_UPDATE,
    CI_R_EMPTY, CI_R_UNION, CI_R_INTER, CI_R_DIFF, CI_R_SEQ, CI_R_COMPL,
    CI_R_INV, CI_R_PLUS, CI_R_STAR, CI_R_OPT, CI_R_IDENT, CI_R_CART,
    CI_R_RESTRICT, CI_R_UPDATE,
    CI_FIX_START, CI_FIX_LOOP, CI_CHECK, CI_CHECK_FUSED,
};

/* dst = a op b (c: third operand of CI_R_RESTRICT: dst = [b];a;[c]).
 * CI_*_UPDATE: copy b into a, noting a change.  CI_FIX_LOOP: if something
 * changed since the loop start, jump back a instructions (b: the number of
 * variables; at most b * n * n + 2 times on n events).
 * CI_CHECK: a = operand slot, b = index into checks.  CI_CHECK_FUSED: the
 * check of index dst on `a op b`, op (in c) CI_R_INTER or CI_R_DIFF for an
 * empty check, CI_R_SEQ for an irreflexive one, without building it. */
typedef struct cat_instr {
    int op;
    int dst, a, b, c;
} cat_instr;

typedef struct cat_check_info {
    enum cat_check_kind kind;
    bool negate;
    bool is_set;
    int flag;                    /* flag index, or -1 for a consistency check */
    const char *name;
} cat_check_info;

typedef struct cat_with_info {
    int set, rel;                /* operand slots (-1: empty) */
    int var, pred;               /* relation slots: the order, scratch */
    int next;                    /* block evaluated for each order */
    const char *text;
} cat_with_info;

typedef struct cat_block {
    cat_instr *code;
    int ncode, cap;
    int with;                    /* with statement ending the block, or -1 */
} cat_block;

struct cat_model {
    const char *title;
    enum cat_co_mode co_mode;
    bool thread_coherent;
    bool thin_air;
    bool flags_undefined;
    int nflags;
    const char *flag_names[CAT_MAX_FLAGS];
    cat_block *blocks;
    int nblocks;
    cat_check_info *checks;
    int nchecks;
    cat_with_info *withs;
    int nwiths;
    int co_block;                /* block of the code that depends on co or fr, or -1 */
    int static_block;            /* block of the code that depends on neither rf, co, fr,
                                  * syncbar nor a `with`: once per trace combination */
    int nrel_slots, nset_slots;  /* totals, base slots included */
};

/* Resolves and compiles a parsed model; NULL after reporting errors. */
cat_model *cat_compile(const cat_ast *ast, const char *default_title, FILE *errors);

#endif
