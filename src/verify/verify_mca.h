/*
 * verify/verify_mca.h: `scopecheck verify --write-atomicity` (docs/models.md,
 * "ptx6-mca"; docs/write-atomicity.md).
 *
 * Contract: the reference for write atomicity is models/ptx6-mca.cat, the
 * PTX model with a multi-copy-atomicity axiom.  For one test, the outcomes
 * it allows are computed beside the base model's; a protocol outcome that
 * the base model allows but the MCA model forbids is one only a
 * non-multi-copy-atomic machine produces: a write-atomicity violation, each
 * reported with the shortest trace to a state that reaches it.  Outcomes
 * the base model forbids are plain unsoundness and stay reported as such.
 */
#ifndef SCOPECHECK_VERIFY_VERIFY_MCA_H
#define SCOPECHECK_VERIFY_VERIFY_MCA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/litmus.h"
#include "litmus/outcome.h"
#include "search/bfs.h"

#define VERIFY_MCA_MODEL "ptx6-mca"

typedef struct verify_mca {
    const cat_model *model;      /* NULL: --write-atomicity not asked */
    cat_workspace *ws;
    outcome_set *allowed;        /* the MCA model's outcomes for the current test */
    const char *cut;             /* why those outcomes are incomplete, or NULL */
    int violations;              /* protocol outcomes only a non-MCA machine produces */
} verify_mca;

/* Loads the reference model from `path` (where the caller found
 * VERIFY_MCA_MODEL.cat, NULL when it is missing); false after writing an
 * error (exit 2). */
bool verify_mca_load(verify_mca *vm, const char *path, FILE *err);

/* The MCA model's outcomes of t under `limits` (loop bound, time, memory,
 * stop flag), taken modulo the protocol's value range [lo, hi] when
 * `wrap`; false after an error.  When the enumeration was cut, `cut` says
 * why and no violation is counted: the answer is unknown. */
bool verify_mca_outcomes(verify_mca *vm, const litmus_test *t, const enum_options *limits, long lo, long hi,
                         bool wrap, FILE *err);

/* Counts the violations: protocol outcomes in `base` but not in the MCA
 * outcomes (none when those are incomplete). */
void verify_mca_compare(verify_mca *vm, outcome_set *protocol, outcome_set *base);

/* "Write-atomic yes|no|unknown", then per violation a line and its trace
 * to the witness state (witness[i]: a final state of protocol outcome i). */
void verify_mca_text(FILE *out, const verify_mca *vm, const litmus_test *t, outcome_set *protocol,
                     outcome_set *base, const uint32_t *witness, const bfs_search *bfs);
/* JSON members "write_atomic" (null when unknown, with
 * "write_atomic_incomplete") and "non_mca_outcomes" (each with a trace). */
void verify_mca_json(FILE *out, const verify_mca *vm, const litmus_test *t, outcome_set *protocol,
                     outcome_set *base, const uint32_t *witness, const bfs_search *bfs);

#endif
