/*
 * cat/explain.h: the relations a drawing of one execution shows (`litmus
 * -show ... -o DIR`): the model's `show` statements, and the check the
 * execution fails.
 *
 * Contract.  cat_explainer_new() compiles, once, a second copy of the
 * model in which each `show e as name` is kept (the checking model drops
 * them) and no check is fused; the checking path is untouched.
 * cat_explain() evaluates that copy on one execution, failing no check
 * (a `with` takes its first order), and returns what it found: first the
 * shown relations, in the model's order, then at most one failed check:
 * the first consistency check, in the model's order (herd's), that the
 * execution fails, with its operand (the relation of `acyclic r`, `irreflexive r`,
 * `empty r`, or the set of `empty s`).  A check that fails through
 * `~empty r` has an empty operand.  Values live until the next call.
 * Slow by design (it allocates): call it only for what is drawn.
 */
#ifndef SCOPECHECK_CAT_EXPLAIN_H
#define SCOPECHECK_CAT_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "cat/cat.h"

typedef struct cat_explainer cat_explainer;

enum cat_explained_kind {
    CAT_SHOWN,               /* show e as name */
    CAT_FAILED_ACYCLIC,      /* acyclic r as name: r has a cycle */
    CAT_FAILED_IRREFLEXIVE,  /* irreflexive r: r relates some event to itself */
    CAT_FAILED_EMPTY,        /* empty r (or a set): it has elements */
    CAT_FAILED_NONEMPTY,     /* ~empty r, ~acyclic r, ~irreflexive r */
};

typedef struct cat_explained {
    enum cat_explained_kind kind;
    const char *name;        /* the `as` name, else the statement's text */
    const relation *rel;     /* the operand, or NULL when it is a set */
    const evword *set;       /* the operand when it is a set, else NULL */
} cat_explained;

/* NULL, with a message on `errors`, only if the model cannot be compiled
 * with its `show` statements (a show that names what does not exist). */
cat_explainer *cat_explainer_new(const cat_model *m, FILE *errors);

/* Fills *out with the items found on x and returns how many.  `*failed`
 * (optional) gets a failure that is no check (a `with` with no order, a
 * `let rec` with no fixpoint), or NULL. */
int cat_explain(cat_explainer *e, const exec *x, const cat_explained **out, const char **failed);

#endif
