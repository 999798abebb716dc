/*
 * enumerate/liveness.h: does every thread of a litmus test terminate, in
 * every execution the model allows, under the stated scheduling?
 *
 * Contract (docs/liveness.md).  A liveness violation is a consistent
 * partial execution in which every thread has either finished, or is
 * stuck, or (by the scheduling assumptions) does not run, and at least one
 * thread is stuck:
 *
 *  - spinning: its trace ends with one pure iteration of a loop that comes
 *    back to the same state (thread_paths, liveness mode), and every read
 *    of that iteration reads a final value: every write coherence-after its
 *    source is itself a write of a stuck iteration with the value read.
 *    Nothing left could change what the loop reads, so it reads the same
 *    values and repeats forever;
 *  - blocked: its trace ends with a bar.cta.sync whose use receives fewer
 *    arrivals in the execution than it expects under the barrier reading
 *    (enumerate/barriers.h), and no thread passes that use;
 *  - never dispatched (with an occupancy bound): its CTA waits for a slot
 *    that no finished CTA frees.
 *
 * Under weak fairness every other thread has finished.  Under no fairness
 * any thread may also stop at any point (starved).  With occupancy N, per
 * GPU the CTAs (in the order of their first thread) are dispatched while
 * fewer than N are resident, the next one each time one finishes: in a
 * stuck execution the first N + F of them were dispatched, F being the
 * CTAs all of whose threads finished, and the rest have no events.
 *
 * The answer does not depend on the loop bound: liveness mode explores
 * paths up to the repetition of a loop state instead, and where a loop
 * that writes is cut after a few iterations, asks whether any consistent
 * execution reaches the cut (Dat3M's check that the bound is unreachable):
 * only then is the answer LIVE_UNKNOWN (unless a violation is found).
 *
 * The checks run inside the enumerator (enumerate.c calls the live_*
 * hooks below); this module holds the decisions and the result.
 */
#ifndef SCOPECHECK_ENUMERATE_LIVENESS_H
#define SCOPECHECK_ENUMERATE_LIVENESS_H

#include <stdbool.h>
#include <stdint.h>

#include "cat/exec.h"
#include "enumerate/barriers.h"
#include "litmus/thread_paths.h"
#include "litmus/litmus.h"

enum live_fairness { LIVE_FAIR_WEAK, LIVE_FAIR_NONE };

typedef struct live_options {
    enum live_fairness fairness;
    int occupancy;              /* CTAs resident per GPU; 0: all */
} live_options;

enum live_verdict { LIVE_OK, LIVE_NO, LIVE_UNKNOWN };
enum live_kind { LIVE_SPIN, LIVE_BARRIER, LIVE_UNDISPATCHED };

#define LIVE_MAX_READS 4
#define LIVE_MAX_STUCK 32

/* One stuck thread: where, and (spin) what its loop reads forever. */
typedef struct live_stuck {
    int thread;
    enum live_kind kind;
    int instr;                  /* the loop head, or the barrier; -1 when undispatched */
    int nreads;
    int read_loc[LIVE_MAX_READS];
    lit_value read_value[LIVE_MAX_READS];
} live_stuck;

typedef struct live_result {
    enum live_verdict verdict;
    const char *unknown;        /* LIVE_UNKNOWN: why, for people */
    const char *incomplete;     /* LIVE_UNKNOWN: why, as one word of the JSON convention
                                 * ("timeout", "max-memory", "interrupted",
                                 * "too-many-events", "too-many-paths",
                                 * "too-many-values", "loop-bound", "unsupported") */
    int nstuck;                 /* distinct (thread, kind, instr), over all violations */
    live_stuck stuck[LIVE_MAX_STUCK];
    uint64_t violations;        /* stuck executions found */
    uint64_t candidates;        /* candidate executions evaluated for liveness */
} live_result;

/* The checker's per-test state (opaque to the enumerator). */
typedef struct live_ctx live_ctx;

/* Does any thread have something to get stuck in (a backward branch or a
 * waiting barrier)?  When none does, every thread terminates. */
bool live_test_may_hang(const litmus_test *t);

live_ctx *live_ctx_new(const litmus_test *t, const live_options *o, live_result *r);

/* The path options liveness needs (on top of the enumerator's). */
void live_path_limits(const live_ctx *lc, tp_limits *lim);

/* A choice of one trace per thread: can it be a stuck execution, given
 * how each trace ends and the scheduling?  Sets up live_* below for it. */
bool live_accept_combination(live_ctx *lc, const tp_result *paths, const int *choice);

/* Whether the rest of the accepted combination can be skipped: a
 * violation was found and every stuck thread of the combination, at its
 * place, is already reported (so the verdict is No and no executions of it
 * could add to the result).  True right after live_record records a
 * violation in it. */
bool live_combination_done(const live_ctx *lc);

/* The events of the accepted combination, in the enumerator's numbering:
 * thread th's trace starts at first[th]; `value` gives each event's value
 * and `thread` its thread (-1: an initial write).  False when the
 * combination has more events than the check follows (64): it is then
 * skipped and the answer becomes unknown. */
bool live_set_events(live_ctx *lc, const tp_result *paths, const int *choice, const int *first, int n,
                     const int *thread, const lit_value *value);

/* A barrier group (CTA, id) of the combination: its events, its count (-1:
 * none) and its number of participants (enumerate/barriers.h: the CTA's
 * thread count under the hardware's reading), under `reading` (enumerate/barriers.h:
 * the safety half's reading, so that both halves agree on which uses
 * release).  Returns 0 when no sync of it waits forever and none is
 * blocked (the enumerator handles it as usual, as in the safety half); -1
 * when the combination is impossible (a blocked thread would be released,
 * a thread passes a use that cannot release) or beyond the check (then the
 * answer becomes unknown); else the number of syncbar alternatives written
 * to alts[0..].  The hardware's reading: one per distinct arrival order in
 * which the blocked syncs are exactly those after the last use that
 * releases (a counted barrier releases each `count` arrivals; a barrier
 * without a count waits for the whole CTA, its uses told apart by
 * generation, a thread's k-th arrival belonging to the k-th use).  Dat3M's
 * reading: one, the safety half's phases (a counted barrier releases
 * everyone once `count` arrive, and no one if fewer do; one without a count
 * waits, per generation, only for the threads that use it). */
int live_barrier_group(live_ctx *lc, const int *events, int m, lit_value count, int participants,
                       enum bar_reading reading, relation *const *alts, int max_alts);

/* Whether barrier event `event` of the combination is blocked or ends a
 * partial trace: its group is then live_barrier_group's, not the
 * enumerator's usual choices. */
bool live_barrier_special(const live_ctx *lc, int event);

/* The enumerator skipped part of a combination it could not follow: the
 * answer becomes unknown (why) unless a violation is found. */
void live_give_up(live_ctx *lc, const char *why);

/* Under the current rf and co: does every read of a stuck iteration read
 * a final value? */
bool live_reads_final(const live_ctx *lc, const exec *x);

/* The same, one location at a time and before co is built (to prune the
 * orders handed on): the rf choice (read_ev[i] reads from source[i]),
 * then for one location its k writes (event indices, k <= 8) and its
 * initial write.  What it asks of the location's order is OR-ed into
 * never[0..k-1] in the form of thread coherence's masks (bit j of
 * never[i]: writes[i] may not be co-before writes[j]): a write a stuck
 * read reads may be followed only by writes of the value it keeps
 * reading.  False when no order of the location can do (a stuck read of
 * the initial value while a write of another value exists). */
void live_set_rf(live_ctx *lc, int nreads, const int *read_ev, const int *source);
bool live_order_never(const live_ctx *lc, const int *writes, int k, int init, uint8_t *never);

/* A consistent execution of an accepted combination whose reads are final:
 * a violation.  Records its stuck threads. */
void live_record(live_ctx *lc, const exec *x);

/* The second question, asked when some path was cut by a liveness-mode
 * bound (TP_END_CUT): does any consistent partial execution (every other
 * thread anywhere on its paths: traces built with `prefixes`) reach a
 * cut?  If none does, the bound lost nothing and the first answer stands.
 * In the cut phase live_accept_combination accepts combinations with a
 * cut trace and live_record notes that a cut is reached. */
void live_set_phase(live_ctx *lc, bool cut_phase);
bool live_cut_reached(const live_ctx *lc);

/* Closes the result: the verdict from what was found and what was cut.
 * A stuck execution found before a limit stopped the search stands (No);
 * else a limit or anything left undecided makes it LIVE_UNKNOWN. */
void live_finish(live_ctx *lc, const char *unknown);

#endif
