/*
 * search/bfs.h: breadth-first exploration of an nsi_model (nsi.h).
 *
 * Contract.  bfs_run() stores the initial state, then expands stored states
 * in index order: the store numbers states in discovery order, so the BFS
 * queue is the range of indices not yet expanded and needs no memory of its
 * own.  Each new state is checked with the model's `violated` as it is
 * stored; the search stops at the first violation, which (BFS) has a
 * shortest path from the initial state.  An expanded state with no
 * successor that `is_final` does not accept is a deadlock: the first
 * BFS_KEEP_DEADLOCKS are kept by index, all are counted, and the search
 * goes on.  Every expanded state that `is_final` accepts is passed to the
 * optional `on_final` callback.  The optional `progress` callback is
 * called every `progress_every_s` seconds of wall time (the clock is read
 * every few hundred expansions, so a report costs nothing measurable).
 *
 * Limits (max states, max memory, timeout, the caller's stop flag) stop the
 * search gracefully: the
 * result says which one, its statistics are those of the partial search,
 * and `complete` is false.  The search object outlives bfs_run() so that
 * traces can be read from it; bfs_free() releases it (malloc'd memory, no
 * GC).  Not thread-safe; no global state.
 */
#ifndef SCOPECHECK_SEARCH_BFS_H
#define SCOPECHECK_SEARCH_BFS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "search/nsi.h"
#include "search/state_store.h"
#include "search/visited.h"

#define BFS_KEEP_DEADLOCKS 8

typedef enum bfs_stop {
    BFS_EXHAUSTED,       /* every reachable state explored */
    BFS_VIOLATION,       /* an invariant is violated (result.violated) */
    BFS_MAX_STATES,      /* --max-states reached */
    BFS_MAX_MEMORY,      /* the store refused: --max-memory (or malloc) */
    BFS_TIMEOUT,         /* --timeout reached */
    BFS_BAD_MODEL,       /* state_bytes 0 or nrules beyond SS_MAX_RULE+1 */
    BFS_INTERRUPTED,     /* the caller's stop flag was set (a signal) */
} bfs_stop;

/* Called for each expanded state that the model's is_final accepts. */
typedef void (*bfs_final_fn)(void *ctx, const uint8_t *state, uint32_t index);
/* Called for each transition, in expansion order (so `from` never
 * decreases): the stored indices of both ends and the rule. */
typedef void (*bfs_edge_fn)(void *ctx, uint32_t from, uint32_t to, int rule);

/* Where a running search stands, for progress reports. */
typedef struct bfs_progress {
    uint64_t states;         /* stored (discovered) so far */
    uint64_t expanded;       /* states whose successors were generated */
    uint64_t queue;          /* stored, not yet expanded */
    uint64_t transitions;
    uint32_t depth;          /* BFS level being expanded */
    double seconds;          /* since bfs_run started */
    double states_per_s;     /* stored states per second, since the start */
    size_t store_bytes;      /* the state store's memory now */
} bfs_progress;

/* Called about every `progress_every_s` seconds while the search runs.
 * The search knows nothing of terminals: the caller decides whether and
 * where to print. */
typedef void (*bfs_progress_fn)(void *ctx, const bfs_progress *p);

typedef struct bfs_options {
    uint64_t max_states;     /* 0: no limit */
    size_t max_memory;       /* bytes of store (arena + table); 0: none */
    double timeout_s;        /* wall seconds; 0: none */
    bfs_final_fn on_final;   /* optional */
    void *final_ctx;
    bfs_edge_fn on_edge;     /* optional: the graph, for cycle detection (search/fair_cycle.h) */
    void *edge_ctx;
    bfs_progress_fn progress;    /* optional */
    void *progress_ctx;
    double progress_every_s;     /* > 0 with `progress` */
    /* Optional: polled before each state is expanded; when it reads
     * non-zero the search stops as a limit would (BFS_INTERRUPTED).  The
     * caller owns it (a signal handler sets it); the search only reads. */
    const volatile sig_atomic_t *stop;
    /* The visited-state store (search/visited.h); the zero value is the
     * plain store.  A probabilistic one (hash compaction, bit-state)
     * cannot give `on_edge` the index of a state seen before: bfs_run
     * refuses the two together (BFS_BAD_MODEL). */
    visited_kind store;
    /* Optional: called after each state is expanded, with its index (the
     * verify command notes there where unhandled events first appear
     * when the store cannot give states back to look again). */
    void (*on_expanded)(void *ctx, uint32_t index);
    void *expanded_ctx;
    /* Threads to search with: 0 or 1, this thread alone (bfs.c); more,
     * the level-synchronous search of search/par_bfs.h, same results.
     * With on_edge set, or a store other than the plain one, the search
     * runs on one thread whatever this says (the liveness pass and the
     * compact stores are single-threaded). */
    int threads;
} bfs_options;

typedef struct bfs_result {
    bfs_stop stop;
    bool complete;               /* stop == BFS_EXHAUSTED */
    const char *violated;        /* the invariant's name (model's string) */
    uint32_t violation_index;    /* valid when stop == BFS_VIOLATION */
    uint64_t deadlocks;          /* how many deadlock states were expanded */
    int deadlocks_kept;
    uint32_t deadlock_index[BFS_KEEP_DEADLOCKS];
    uint64_t finals;             /* expanded states is_final accepted */
    uint64_t states;             /* stored (discovered) states */
    uint64_t expanded;           /* states whose successors were generated */
    uint64_t transitions;        /* successors emitted, duplicates included */
    uint32_t depth;              /* BFS level of the deepest stored state */
    double seconds;              /* wall time of bfs_run */
    double states_per_s;
    size_t store_bytes;          /* the store's bytes at the end */
    size_t store_peak_bytes;     /* counting both tables while doubling */
    double bytes_per_state;      /* store_bytes / states */
    size_t peak_rss;             /* VmHWM of the process, bytes (0: unknown) */
    visited_kind store;          /* the store the search used */
    /* The store is probabilistic: an exhausted search may have missed
     * states, so `complete` is false and `omission` bounds the miss
     * (hash compaction: the probability that any state was missed;
     * bit-state: the expected number of states missed; docs/search.md). */
    bool probabilistic;
    double omission;
    uint64_t bitstate_bits;      /* bit-state: the bit array's size in bits */
    int threads;                 /* how many threads searched */
    bool canonical;              /* the model canonicalized states: counts are of orbits */
} bfs_result;

typedef struct bfs_search bfs_search;

/* One step of a trace: the state reached and the rule that reached it
 * (SS_NO_RULE for the initial state, which is always step 0). */
typedef struct bfs_step {
    uint32_t state;
    int rule;
} bfs_step;

/* Explores `model` (which must outlive the search object); `opt` may be
 * NULL (no limits, no callback).  Fills *res and returns the search object,
 * or NULL (res->stop says why: BFS_BAD_MODEL or BFS_MAX_MEMORY) when not
 * even the initial state could be stored. */
bfs_search *bfs_run(const nsi_model *model, const bfs_options *opt, bfs_result *res);

void bfs_free(bfs_search *s);

/* The plain store of a one-thread search (bfs_options.store
 * VISITED_PLAIN), to read states in place; NULL with any other store or
 * when several threads searched: use bfs_state(). */
const state_store *bfs_store(const bfs_search *s);

/* Stored state `index`, with any store: a pointer into the plain store,
 * or into the parallel search's store (`buf` unused then),
 * or `buf` (state_bytes bytes, the caller's) filled from the tree store
 * or, for a probabilistic store, by replaying the path's rules from the
 * initial state (each step the ordinal-th successor of the one before: a
 * concrete run of the model).  NULL only when a replay fails (a model
 * whose successors changed) or memory runs out.  Valid until `buf` is
 * reused or the search freed. */
const uint8_t *bfs_state(const bfs_search *s, uint32_t index, uint8_t *buf);

/* The states of a trace (bfs_trace's steps, n of them), n * state_bytes
 * bytes, malloc'd (the caller frees it): for a probabilistic store one
 * replay along the whole path.  NULL when out of memory or a replay
 * fails. */
uint8_t *bfs_trace_states(const bfs_search *s, const bfs_step *steps, size_t n);

/* Stored states (any store). */
uint32_t bfs_count(const bfs_search *s);

/* The shortest path from the initial state to `index`: a malloc'd array
 * of *len steps (the caller frees it), or NULL when out of memory. */
bfs_step *bfs_trace(const bfs_search *s, uint32_t index, size_t *len);

/* A path as concrete states of the model, each with the rule that
 * reached it (rules[0] is SS_NO_RULE): what traces print.  Without the
 * model's `canonicalize` they are the stored states.  With it, the stored
 * states are canonical representatives, and a stored state need not be a
 * successor of its stored parent; bfs_path_to then replays: from the
 * model's initial state, each step takes the first successor whose
 * canonical form is the next stored state (the symmetry makes one exist;
 * the path keeps the stored path's length, so it stays shortest).  Its
 * last state is then in the orbit of the stored one, not necessarily equal
 * to it. */
typedef struct bfs_path {
    size_t len, state_bytes;
    uint8_t *states;        /* len * state_bytes */
    int *rules;
} bfs_path;

static inline const uint8_t *bfs_path_state(const bfs_path *p, size_t k) { return p->states + k * p->state_bytes; }

/* The concrete shortest path to stored state `index` (malloc'd; the
 * caller frees it with bfs_path_free), or NULL when out of memory or when
 * a replayed step finds no matching successor (a model whose canonicalize
 * is not a symmetry of its successors). */
bfs_path *bfs_path_to(const bfs_search *s, uint32_t index);
/* Recomputes p's rules for the states it holds, each the first successor
 * of its predecessor equal to it byte for byte (after a caller has mapped
 * every state of a path through one symmetry); false when one is not. */
bool bfs_path_rerule(const nsi_model *m, bfs_path *p);
void bfs_path_free(bfs_path *p);

/* Prints the trace to `index` (its concrete path), one numbered line per
 * step, using the model's `describe` where it has one (else the rule id). */
void bfs_print_trace(const bfs_search *s, uint32_t index, FILE *out);
/* The same for a path of the model m. */
void bfs_print_path(const nsi_model *m, const bfs_path *p, FILE *out);

/* One step between two stored states, as bfs_print_trace prints it
 * (without the number): the model's description on one line. */
void bfs_print_step(const bfs_search *s, uint32_t from, uint32_t to, int rule, FILE *out);

/* The model the search explored. */
const nsi_model *bfs_model(const bfs_search *s);

/* "exhausted", "violation", "max-states", "max-memory", "timeout", ... */
const char *bfs_stop_name(bfs_stop stop);

/* The statistics, one "key: value" line each, with a line that says when
 * the search stopped early and its figures are partial, or that it was
 * probabilistic and what it may have missed. */
void bfs_print_stats(const bfs_result *r, FILE *out);

/* Peak resident set of this process (VmHWM), bytes; 0 when unknown. */
size_t bfs_peak_rss(void);

#endif
