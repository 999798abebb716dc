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

/* Two forms share these types.  The parser (cat/parse.c) produces the
 * surface form: herd's whole expression language, with functions, tuples,
 * tags, explicit sets, `let ... in`, `match`, procedures.  The lowering pass
 * (cat/lower.c) evaluates everything that is known when the model is loaded
 * and produces the core form that the compiler reads: set and relation
 * expressions over uniquely named bindings (the kinds up to CE_LET_IN, and
 * CE_CALL only for domain and range), and statements CS_LET, CS_LET_REC,
 * CS_CHECK and CS_WITH. */
enum cat_expr_kind {
    CE_NAME, CE_ZERO, CE_UNIV, CE_BRACKET, CE_CALL,
    CE_UNION, CE_SEQ, CE_DIFF, CE_INTER, CE_CART,
    CE_COMPL, CE_INV, CE_PLUS, CE_STAR, CE_OPT,
    CE_LET_IN,               /* core: let name = a in b */
    /* surface only */
    CE_APP,                  /* a b: application (f(x, y) applies f to a tuple) */
    CE_TUPLE,                /* (args) */
    CE_SET,                  /* {args} */
    CE_TAG,                  /* 'name */
    CE_ADD,                  /* a ++ b: b with the element a added */
    CE_FUN,                  /* fun params -> a */
    CE_LET,                  /* let [rec] binds in a */
    CE_MATCH,                /* match a with clauses end */
    CE_TRY,                  /* try a with b */
    CE_IF,                   /* if a = b then args[0] else args[1] */
};

/* A function's parameters: one name, or a tuple of names. */
typedef struct cat_params {
    const char **names;
    int n;
    bool tuple;              /* (a, b): the argument is a tuple */
} cat_params;

/* A clause of `match`: a tag ('a -> e), the default (_ -> e), the empty
 * set ({} -> e) or an element and the rest (x ++ rest -> e). */
enum cat_clause_kind { CL_TAG, CL_DEFAULT, CL_EMPTY, CL_ADD };
typedef struct cat_clause {
    enum cat_clause_kind kind;
    const char *tag, *elem, *rest;
    struct cat_expr *body;
} cat_clause;

typedef struct cat_expr {
    enum cat_expr_kind kind;
    cat_pos pos;             /* of the operator, or of the primary */
    const char *name;        /* CE_NAME, CE_CALL, CE_TAG, CE_LET_IN; CE_FUN: the function's name */
    struct cat_expr *a, *b;  /* operands (unary: a) */
    struct cat_expr **args;  /* CE_CALL, CE_TUPLE, CE_SET, CE_IF */
    int nargs;
    cat_params params;       /* CE_FUN */
    struct cat_binding *binds; /* CE_LET */
    int nbinds;
    bool rec;                /* CE_LET */
    cat_clause *clauses;     /* CE_MATCH */
    int nclauses;
} cat_expr;

/* `name = body`, `(a, b) = body`, and functions `f(a, b) = e`, `f x = e`
 * (the parser makes their body a CE_FUN).  In the core form only
 * `name = body`. */
typedef struct cat_binding {
    const char *name;        /* NULL for a tuple pattern */
    cat_pos pos;
    cat_params pattern;      /* (a, b) = e */
    bool is_func;            /* core: never; kept for the compiler */
    const char **params;
    int nparams;
    cat_expr *body;
} cat_binding;

enum cat_stmt_kind {
    CS_LET, CS_LET_REC, CS_CHECK, CS_WITH,
    /* surface only */
    CS_PROCEDURE, CS_CALL, CS_ENUM, CS_FORALL,
    CS_SHOW,                     /* show expr as name */
};
/* CK_SHOW: a `show` kept for drawing (cat_lower_shows); it never fails
 * and exists only in a model compiled by cat_explainer_new. */
enum cat_check_kind { CK_ACYCLIC, CK_IRREFLEXIVE, CK_EMPTY, CK_SHOW };

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
    bool undefined;              /* undefined_unless: a flag that makes the program undefined */
    const char *name;            /* `as name`, or NULL; CS_PROCEDURE, CS_CALL, CS_ENUM: the name */
    cat_expr *expr;              /* CS_CHECK; CS_WITH (surface), CS_CALL, CS_FORALL: the operand */
    /* CS_WITH: with var from expr (surface); core: linearisations(set, rel),
     * or with per_loc one per location class of set (herd's generate_orders) */
    const char *var;             /* also CS_FORALL */
    cat_expr *set, *rel;
    bool per_loc;
    /* CS_PROCEDURE, CS_FORALL: the body */
    cat_params params;
    struct cat_stmt *body;
    int nbody;
    /* CS_ENUM */
    const char **tags;
    int ntags;
} cat_stmt;

typedef struct cat_ast {
    const char *title;           /* NULL when the model has none */
    enum cat_co_mode co_mode;
    bool thread_coherent;        /* option thread-coherence = enforced */
    int thin_air;                /* enum cat_thin_air */
    bool flags_undefined;        /* option flags = undefined */
    cat_stmt *stmts;
    int nstmts;
} cat_ast;

/* How a model is loaded: where `include` looks (after the including file's
 * directory) and herd's prelude stdlib.cat is searched, and which herd
 * variants `if "name"` tests.  NULL means none. */
struct cat_load_options;

/* Parses `text` (len bytes, at most CAT_MAX_FILE_BYTES) named `name` into
 * the surface form; includes are looked up in `dir` ("" for the current
 * directory), then in the options' directories, and read through
 * base/textfile.h, each at most CAT_MAX_FILE_BYTES and the model's files at
 * most CAT_MAX_MODEL_BYTES in all.  With `prelude`, herd's stdlib.cat, when
 * one of those directories holds it, comes first (and counts in that
 * total).  NULL after reporting errors. */
cat_ast *cat_parse(const char *name, const char *text, size_t len, const char *dir,
                   const struct cat_load_options *opts, bool prelude, FILE *errors);

/* Same, telling `log` (cat/cache.h) of every file looked up and read
 * after the model's own text: the prelude's lookup (found or not) and each
 * include, in order; NULL: none. */
struct cat_source_log;
cat_ast *cat_parse_logged(const char *name, const char *text, size_t len, const char *dir,
                          const struct cat_load_options *opts, bool prelude, struct cat_source_log *log,
                          FILE *errors);

/* Where `include "name"` in a file of directory `dir` is read from: dir/name
 * when a file of that name can be opened, else the first search directory
 * of opts (NULL: none) that holds one; NULL when found nowhere.  The parse
 * and the cache's check of its entries (cat/cache.c) both ask here. */
const char *cat_find_include(const char *dir, const struct cat_load_options *opts, const char *name);

/* The surface form to the core form (cat/lower.c): functions expanded,
 * tags, tuples and explicit sets evaluated, bindings renamed apart and
 * emitted only when something uses them (herd's laziness: an unused
 * binding is never evaluated).  NULL after reporting errors. */
cat_ast *cat_lower(const cat_ast *surface, FILE *errors);
/* Same, keeping each `show` as a CK_SHOW check (for drawings). */
cat_ast *cat_lower_shows(const cat_ast *surface, FILE *errors);

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
    bool per_loc;                /* one order per location class of set (herd's generate_orders) */
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
    int thin_air;                /* enum cat_thin_air */
    bool flags_undefined;
    int nflags;
    const char *flag_names[CAT_MAX_FLAGS];
    unsigned undefined_flags;    /* bit i: flag i comes from undefined_unless */
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
    /* per check: in the co block, and failing with co and fr empty means
     * failing for every coherence choice (cat_find_prunable) */
    bool *prunable;
    bool any_prunable;
    bool *prune_skip;            /* per instruction of the co block: no prunable check needs it */
    /* how the model was loaded, for cat_explainer_new to load it again
     * with its `show` statements kept (the text, not the parsed form, is
     * kept: the collector would scan a parsed form at every collection) */
    const char *source_name, *source_text, *source_dir;
    size_t source_len;
    const struct cat_load_options *source_opts;
    bool source_prelude;
};

/* What cat_eval_explain records, per check of a model compiled by
 * cat_compile_explain: whether the evaluation reached it, its operand's
 * value then (rel or set, each allocated by the caller for the
 * execution's size), whether it held; the first consistency check that
 * failed in evaluation order (-1: none), and a failure that is no check (a `with` with no
 * order, a `let rec` with no fixpoint), or NULL. */
typedef struct cat_explain_rec {
    relation **rel;
    evword **set;
    bool *reached, *held;
    int first_failed;
    const char *failed_other;
} cat_explain_rec;

/* Evaluates the whole model on x, failing no check (each `with` takes its
 * first order), recording every check in rec.  For drawings only: it runs
 * a separate copy of the evaluator, and the checking path never sees rec. */
void cat_eval_explain(const cat_model *m, cat_workspace *ws, const exec *x, cat_explain_rec *rec);

/* Marks m->prunable: the consistency checks of the co block whose operand
 * can only grow as co and fr grow (cat/prune.c). */
void cat_find_prunable(cat_model *m);

/* Resolves and compiles a parsed model; NULL after reporting errors. */
cat_model *cat_compile(const cat_ast *ast, const char *default_title, FILE *errors);
/* Same, for drawings (cat/explain.c): no check is fused, so that each
 * check's operand is built in a slot that cat_eval_explain can read. */
cat_model *cat_compile_explain(const cat_ast *ast, const char *default_title, FILE *errors);

#endif
