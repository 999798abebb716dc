/*
 * cat/cat.h: memory models written in (a subset of) herd's cat language.
 *
 * Folder src/cat/: the cat language and the execution a model reads (exec.h,
 * relation.h).  A new memory model is a .cat file in models/, not code here.
 * May include base/; knows executions, never litmus programs.
 *
 * Contract: cat_load parses and resolves a model once; cat_check evaluates
 * it on one candidate execution.  cat_check never allocates: every value
 * lives in a workspace made by cat_workspace_new for that model, so one
 * workspace serves all the executions of a run (one per thread if ever run
 * in parallel).  Models see executions only through exec.h.
 */
#ifndef SCOPECHECK_CAT_CAT_H
#define SCOPECHECK_CAT_CAT_H

#include <stdbool.h>
#include <stdio.h>

#include "cat/exec.h"

typedef struct cat_model cat_model;
typedef struct cat_workspace cat_workspace;

#define CAT_MAX_FLAGS 32

/* How the enumerator must range over coherence orders for this model:
 * total orders per location (herd's default), or every strict partial order
 * (a model statement `option co = partial`, a scopecheck extension). */
enum cat_co_mode { CAT_CO_TOTAL, CAT_CO_PARTIAL };

/* Limits on a model's text: each file (the model, each include), and all
 * of them together. */
#define CAT_MAX_FILE_BYTES (4u << 20)
#define CAT_MAX_MODEL_BYTES (16u << 20)

/* Parses the model in `path`; `include "f.cat"` is looked up beside it.
 * On bad input (a file that is not a regular file or a pipe, or is too
 * large, included files too, and every syntax, name or type error): one or
 * more "file:line:col: error: ..." lines on `errors` and NULL.  Allocation:
 * Boehm GC. */
cat_model *cat_load(const char *path, FILE *errors);

/* herd's habits when loading a model: a search path (herd's -I and
 * -set-libdir) where `include` looks after the including file's directory,
 * where herd's prelude stdlib.cat is found (it is read before the model
 * whenever the model's directory or a search directory holds one), and the
 * variants (herd's -variant) that `if "name"` tests, compared without case. */
typedef struct cat_load_options {
    const char *const *dirs;
    int ndirs;
    const char *const *variants;
    int nvariants;
    const char *cache_dir;   /* compiled models kept there between runs (cat/cache.h); NULL: none */
} cat_load_options;

cat_model *cat_load_opts(const char *path, const cat_load_options *opts, FILE *errors);

/* Same, from text in memory: `len` bytes (NUL bytes are errors), or a C
 * string.  `name` is used in diagnostics and for includes relative to the
 * current directory. */
cat_model *cat_load_text(const char *name, const char *text, size_t len, FILE *errors);
cat_model *cat_load_string(const char *name, const char *text, FILE *errors);

const char *cat_model_title(const cat_model *m);  /* the model's first-line name */
enum cat_co_mode cat_model_co_mode(const cat_model *m);

/* A model with `option thread-coherence = enforced` promises that every
 * execution it accepts orders each two writes of one thread to one location
 * by coherence in program order, and has no read that reads from a later
 * write of its own thread or from a write coherence-before an earlier write
 * of its own thread to that location.  The enumerator then never builds the
 * other candidates. */
bool cat_model_thread_coherent(const cat_model *m);

/* What the model says of thin air (`option thin-air = ...`):
 *  - CAT_THIN_AIR_FORBIDDEN, its promise that it rejects every execution in
 *    which a value is justified only around a cycle of reads-from and
 *    dependencies (or program order): the enumerator builds values only as
 *    chains of writes compute them;
 *  - CAT_THIN_AIR_ALLOWED: it has no no-thin-air axiom, a value that flows
 *    only around such a cycle is unconstrained: every atomic read may also
 *    guess each constant of the litmus condition (the values a condition
 *    can tell apart);
 *  - CAT_THIN_AIR_UNSAID (herd's own models): it may allow such cycles, and
 *    every atomic read may also guess each constant the program writes,
 *    which is what herd7 finds (a store of a constant under a control
 *    dependency closes the cycle; a value no write names stays symbolic in
 *    herd7 and is not guessed). */
enum cat_thin_air { CAT_THIN_AIR_UNSAID, CAT_THIN_AIR_FORBIDDEN, CAT_THIN_AIR_ALLOWED };
enum cat_thin_air cat_model_thin_air(const cat_model *m);

/* A model with `option flags = undefined` (SC-for-HRF) gives programs whose
 * executions raise one of its flags (a race) no defined behaviour: the
 * verdict is then "Undef", as herd prints it. */
bool cat_model_flags_undefined(const cat_model *m);
int cat_model_flag_count(const cat_model *m);
const char *cat_model_flag_name(const cat_model *m, int flag);
/* A flag from herd's `undefined_unless C`: raised when C fails, it makes
 * the program undefined (herd's verdict "Undef", printed "Flag *undef*"). */
bool cat_model_flag_undefined(const cat_model *m, int flag);
/* Some flag of `flags` makes the program undefined (option flags =
 * undefined, or an undefined_unless flag). */
bool cat_model_flags_make_undefined(const cat_model *m, unsigned flags);

/* A workspace starts with room for executions of 64 events and grows, in
 * cat_prepare, to the largest execution it is given. */
cat_workspace *cat_workspace_new(const cat_model *m);

/* The bytes a workspace of model m takes for executions of `cap` events:
 * for a caller that must keep within a memory limit. */
size_t cat_workspace_bytes(const cat_model *m, int cap);

/* Result of evaluating a model on one execution. */
typedef struct cat_verdict {
    bool consistent;          /* some choice of `with` bindings passes every check */
    unsigned flags;           /* bit i: flag i raised (in a passing choice) */
    const char *failed_check; /* when inconsistent: name (or "acyclic ..." text) of a failing check */
} cat_verdict;

cat_verdict cat_check(const cat_model *m, cat_workspace *ws, const exec *x);

/* cat_check in two steps, for an enumerator that varies only rf, co, fr and
 * syncbar between calls: cat_prepare evaluates, once, the code that depends
 * on none of them (nor on a `with`); cat_check_prepared and cat_check_co
 * then evaluate the rest for `x` as it is now.  Call cat_prepare again
 * whenever anything else in `x` changes.  Neither allocates. */
void cat_prepare(const cat_model *m, cat_workspace *ws, const exec *x);
cat_verdict cat_check_prepared(const cat_model *m, cat_workspace *ws, const exec *x);

/* Coherence choices for cat_check_co, supplied by the enumerator. */
typedef struct cat_co_source {
    long count;
    /* Writes co and fr of choice k into the execution; false to skip k. */
    bool (*apply)(void *ctx, long k);
    /* Choice k passes every check (for some choice of `with` bindings),
     * raising `flags`; true when the source needs no more choices.  It may
     * be called more than once for the same k (once per passing `with`
     * choice). */
    bool (*accept)(void *ctx, long k, unsigned flags);
    void *ctx;
    /* Optional (NULL: every choice is tried).  clear writes an empty co and
     * fr into the execution; the checks that can only fail more as co and
     * fr grow are then run once (cat_co_may_pass's test) before the
     * choices, and when one fails, rejected_all is called instead of
     * trying any: every choice fails it. */
    void (*clear)(void *ctx);
    void (*rejected_all)(void *ctx);
} cat_co_source;

/* After cat_prepare on `x`, whose co and fr the caller has emptied: false
 * when some consistency check fails that can only fail more as co and fr
 * grow (its operand is built from them by unions, intersections,
 * sequences, closures and inverses, never subtracted), so that no
 * coherence choice of cat_check_co can pass; true otherwise (the other
 * checks and the flags are not looked at).  *co_reached: the co block
 * was run (some `with` choice and every earlier check let it), that is
 * cat_check_co would have applied every coherence choice.  The enumerator
 * asks it once per reads-from choice before listing coherence choices. */
bool cat_co_may_pass(const cat_model *m, cat_workspace *ws, const exec *x, bool *co_reached);

/* Whether the model's code that depends on co or fr was set apart (it is,
 * unless a `with` statement depends on co). */
bool cat_model_co_staged(const cat_model *m);

/* After cat_prepare on `x`: evaluates what does not depend on co once,
 * then, innermost, the rest for every choice of `src`; reports each passing
 * choice through src->accept.  Returns whether some choice passed.  For
 * co-staged models only; like cat_check, it never allocates. */
bool cat_check_co(const cat_model *m, cat_workspace *ws, const exec *x, const cat_co_source *src);

/* Whether the last cat_check_prepared or cat_check_co met a candidate it
 * could not decide: a `with` over more than 64 events whose orders would
 * have to be listed one by one.  Such a candidate counts as inconsistent,
 * so a caller must not give a verdict that depends on it. */
bool cat_undecided(const cat_workspace *ws);

/* After a consistent cat_check that raised `flag`: the pairs of the flag's
 * relation in the passing choice (race reports use it).  NULL when the
 * flag's expression is a set. */
const relation *cat_flag_relation(const cat_model *m, const cat_workspace *ws, int flag);

#endif
