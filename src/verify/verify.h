/*
 * verify/verify.h: the verification library, one litmus test on one
 * protocol against one memory model.
 *
 * Folder src/verify/: the pipeline every command that runs a test on a
 * protocol goes through (verify, graph, graph --msc, export), its sub-checks
 * (liveness: verify_live.h; write atomicity: verify_mca.h; the model's
 * executions for --complete: witness.h; the value range: value_range.h),
 * and its printers (text, JSON, traces).  May include base/, litmus/,
 * cat/, enumerate/, search/, protocol/ and report/; cli/ and draw/ call it.
 * A new check of `verify` is one entry here (a field of verify_result, a
 * rule in verdict.c, a line in the printers), used by every command.
 *
 * Contract.  verify_prepare() binds a test to a protocol: refuses what the
 * protocol layer cannot run (protocol/runnable.h), derives the value range
 * (unless --const sets it), instantiates the protocol and computes the
 * model's outcomes once (used for soundness, the write-atomicity reference
 * and the --complete witnesses alike), fitted to a protocol range set by
 * --const (wrapped, or refused).  verify_test() does that, searches the
 * state space and decides the verdict.  Both return an exit status: 0 pass,
 * 1 violation, 2 unusable input (a message on `err`), 3 incomplete; a
 * result with `searched` false has no report.  The verdict rules (what is
 * unsound, missing, undefined, cut, refused) are the functions below, the
 * only place they are written.  Memory is GC memory except the search,
 * which verify_result_release() frees.
 */
#ifndef SCOPECHECK_VERIFY_VERIFY_H
#define SCOPECHECK_VERIFY_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/litmus.h"
#include "litmus/outcome.h"
#include "protocol/protocol.h"
#include "report/status.h"
#include "search/bfs.h"
#include "verify/progress.h"
#include "verify/schedule_opts.h"
#include "verify/trace_print.h"
#include "verify/verify_live.h"
#include "verify/verify_mca.h"
#include "verify/witness.h"

#define VERIFY_MAX_UNHANDLED 32

/* --symmetry (docs/search.md, "Symmetry reduction"): off; auto, on when
 * protocol/symmetry.h finds interchangeable CUs and shows the reduction
 * sound, and no check that needs every concrete state runs (liveness, the
 * scheduler, write atomicity); on, the same but a request (the report says
 * why it could not be used).  The library's default is off, so that
 * graph and export see every state; `verify` defaults to auto. */
typedef enum verify_symmetry { VERIFY_SYMMETRY_OFF, VERIFY_SYMMETRY_AUTO, VERIFY_SYMMETRY_ON } verify_symmetry;

/* "off", "auto", "on" into *out; false for anything else. */
bool verify_symmetry_parse(const char *text, verify_symmetry *out);

/* How to verify: every option that changes a result (not argv). */
typedef struct verify_settings {
    const char *model_name;      /* as named by the user ("ptx6", a path, "none") */
    int unroll;                  /* ENUM_DEFAULT_UNROLL unless --unroll */
    bfs_options bfs;             /* limits and the stop flag; the library sets the callbacks */
    proto_options proto;         /* --net, --const */
    trace_detail trace;
    progress_mode progress;
    double progress_every_s;
    schedule_opts sched;         /* --liveness, --fairness, --occupancy, --preempt */
    verify_mca *mca;             /* --write-atomicity, else NULL */
    bool racy_undefined;         /* --racy undefined: a test the model flags allows every outcome */
    bool complete;               /* --complete: the protocol must reach every model outcome */
    verify_symmetry symmetry;    /* --symmetry */
} verify_settings;

/* verify_settings with every default (model ptx6, unroll ENUM_DEFAULT_UNROLL). */
void verify_settings_default(verify_settings *s);

/* The first final state of each protocol outcome, in the order the search
 * met them: a bfs on_final callback (ctx: the collector). */
typedef struct verify_collector {
    const proto_instance *inst;
    outcome_set *outcomes;
    uint32_t *witness;           /* per outcome: a final state reaching it */
    int cap;
    lit_value *scratch;
} verify_collector;

void verify_collector_init(verify_collector *c, const proto_instance *inst, int width);
void verify_on_final(void *ctx, const uint8_t *state, uint32_t index);

/* What one test's check found. */
typedef struct verify_result {
    const verify_settings *settings;
    const litmus_test *t;
    const protocol *p;
    const cat_model *m;          /* NULL: --model none */
    proto_instance *inst;
    proto_options bound;         /* the settings' protocol options with the test's value range */
    bool searched;               /* the search ran: the result has a report */
    verify_collector found;      /* the protocol's outcomes */
    outcome_set *model_outcomes; /* NULL with --model none */
    check_result model;          /* the model's check of the test: flags, races */
    bool undefined;              /* the model leaves the test undefined (a race): every outcome is allowed */
    enum sc_cut cut;             /* why the search stopped early (SC_CUT_NONE: it did not) */
    bool overflow;               /* a step would have left the value range: not taken */
    long overflow_value;
    int unsound;                 /* protocol outcomes the model forbids */
    /* Why the model's outcomes are incomplete (enumerate_incomplete), or
     * NULL.  Then a protocol outcome outside them is not established as
     * unsound: it is counted in `unsure`, and the result is Incomplete. */
    const char *model_cut;
    int unsure;
    int unobserved;              /* model outcomes the protocol never reaches */
    witness_set *missing_why;    /* --complete: an execution per unobserved outcome */
    int nunhandled;
    proto_unhandled_pair unhandled[VERIFY_MAX_UNHANDLED];
    uint32_t unhandled_at[VERIFY_MAX_UNHANDLED];  /* the first state (BFS order) that meets it */
    int unhandled_noted;         /* probabilistic stores: pairs located during the search */
    bfs_result search;
    bfs_search *bfs;
    verify_live live;            /* --liveness, --occupancy, --preempt */
    verify_mca *mca;             /* --write-atomicity */
    progress_sink sink;
    double start;                /* the --timeout budget began here */
    /* Symmetry reduction: whether the search stored one state per orbit
     * (outcomes are then collected over each final state's orbit, traces
     * mapped back to concrete states), and what the report says of it:
     * the group, or why it was not used. */
    bool symmetry_used;
    const char *symmetry_note;
} verify_result;

/* ---- the pipeline ------------------------------------------------------- */

/* `path` names the test in messages.  m NULL: --model none; ws its
 * workspace. */
int verify_prepare(const verify_settings *s, const litmus_test *t, const char *path, const protocol *p,
                   const cat_model *m, cat_workspace *ws, verify_result *out, FILE *err);
int verify_test(const verify_settings *s, const litmus_test *t, const char *path, const protocol *p,
                const cat_model *m, cat_workspace *ws, verify_result *out, FILE *err);
void verify_result_release(verify_result *v);

/* The concrete path the report prints for stored state `index`
 * (search/bfs.h's bfs_path_to).  With symmetry reduction it is mapped
 * through the group element that makes its last state the stored state
 * itself (want NULL: what the report says of that state, why it is stuck
 * or what it left unhandled, holds of the trace's end) or a state whose
 * observed final values are `want` (the witness of an outcome met in the
 * orbit of a stored final state).  NULL when out of memory.  Free it with
 * bfs_path_free. */
bfs_path *verify_trace_path(const verify_result *v, uint32_t index, const lit_value *want);

/* ---- the verdict rules (verdict.c) ---------------------------------------- */

typedef enum verify_outcome_class {
    VERIFY_OUTCOME_ALLOWED,      /* the model allows it, leaves the test undefined, or none compares */
    VERIFY_OUTCOME_UNSOUND,      /* the model forbids it */
    VERIFY_OUTCOME_UNKNOWN,      /* outside the model's outcomes, which are incomplete */
} verify_outcome_class;

/* A protocol outcome judged against the model's outcomes. */
verify_outcome_class verify_classify_outcome(const verify_result *v, const lit_value *outcome);
/* --complete: model outcomes the protocol never reached are violations
 * (the whole state space explored, nothing dropped for its value). */
bool verify_missing_established(const verify_result *v);
/* The model outcomes missing from the protocol's, as violations, one at a
 * time: the first at index *at or after it (*at is moved there), NULL
 * when none is left or missing outcomes are no violation.  Loop as
 * `for (int i = 0; (s = verify_next_missing(v, &i)); i++)`. */
const lit_value *verify_next_missing(const verify_result *v, int *at);
enum sc_cut verify_cut_of(bfs_stop stop);
void verify_compare_outcomes(verify_result *v);
bool verify_has_violation(const verify_result *v);
/* Fail when a violation was found (it stands even if the search was cut),
 * Incomplete when something was cut before finding one, else Pass. */
int verify_status(const verify_result *v);
const char *verify_result_word(const verify_result *v);
/* What a JSON "sound" says: "true", "false" or "null". */
const char *verify_sound_json(const verify_result *v);

/* What a caller that needs more than the printed report keeps of a test
 * (`scopecheck export` stamps its tables with it).  `checks` names each
 * property checked and whether it held; a new kind of check adds an
 * entry, so a consumer lists whatever was checked without knowing the
 * kinds in advance. */
#define VERIFY_MAX_CHECKS 8
typedef struct verify_check_result {
    const char *name;       /* "outcomes", "deadlock", "unhandled", "invariants", ... */
    bool passed;
} verify_check_result;

typedef struct verify_record {
    const litmus_test *test;
    const proto_instance *inst;
    const char *model;
    int status;             /* this test's exit status: 0 pass, 1 violation, 3 incomplete */
    bool complete;          /* the search explored every reachable state */
    uint64_t states, transitions;
    int nchecks;
    verify_check_result checks[VERIFY_MAX_CHECKS];
} verify_record;

void verify_record_of(const verify_result *v, int status, verify_record *r);

/* ---- printing (print_text.c, print_json.c) --------------------------------- */

/* herd-like text: the outcomes, soundness, each violation with its trace,
 * statistics and the Result line. */
void verify_print_text(FILE *out, const verify_result *v);
/* One JSON object and a newline. */
void verify_print_json(FILE *out, const verify_result *v);

#endif
