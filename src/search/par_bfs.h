/*
 * search/par_bfs.h: breadth-first exploration of an nsi_model on several
 * threads, level by level.
 *
 * Contract.  par_bfs_run() does what bfs_run() (search/bfs.h) does, with
 * `threads` threads (the caller's and threads - 1 more), and gives the same
 * result: the same states, transitions, depth, deadlocks, final states and
 * verdict; and, because each level is renumbered in discovery order before
 * the next is expanded (search/par_store.h), the same indices, parents,
 * rules, kept deadlocks and order of on_final calls as one thread, so
 * traces are the same shortest paths.  bfs_run() calls it when
 * bfs_options.threads > 1 and no on_edge callback is set (the liveness
 * pass runs on one thread); other callers reach it through bfs_run().
 *
 * Level-synchronous: the threads claim chunks of the current level's index
 * range, insert successors into the shared lock-free store and meet at a
 * barrier; between levels the calling thread alone renumbers the new
 * level, grows the table when it is getting full, delivers the level's
 * final states to on_final (in index order), keeps deadlocks (the smallest
 * indices), and calls `progress` (which it also calls while it expands).
 * Callbacks therefore all run on the calling thread: only the model's
 * successors, canonicalize, is_final and violated run on the others (the
 * reentrancy nsi.h requires).  No thread allocates GC memory.
 *
 * Differences, all on searches that stop early: a violation found while
 * expanding level d is reported after the whole level is expanded (the
 * smallest index among the violating states of level d + 1, the one a
 * single thread stops at), so the partial statistics count all of level
 * d + 1; on a limit or a signal every thread stops after its current
 * state.  --max-states is exact (never one state more).
 */
#ifndef SCOPECHECK_SEARCH_PAR_BFS_H
#define SCOPECHECK_SEARCH_PAR_BFS_H

#include "search/bfs.h"

/* The most threads a search uses (more are clamped to it). */
#define PAR_BFS_MAX_THREADS 256

typedef struct par_bfs par_bfs;

/* As bfs_run (opt may be NULL; opt->on_edge is ignored: bfs_run never
 * passes one).  Fills *res (res->threads: how many ran; res->peak_rss is
 * left 0, bfs_run fills it) and returns the search, or NULL when not even
 * the initial state could be stored. */
par_bfs *par_bfs_run(const nsi_model *model, const bfs_options *opt, int threads, bfs_result *res);
void par_bfs_free(par_bfs *p);

/* The stored states, as bfs_state and friends. */
const uint8_t *par_bfs_state(const par_bfs *p, uint32_t index);
uint32_t par_bfs_parent(const par_bfs *p, uint32_t index);
int par_bfs_rule(const par_bfs *p, uint32_t index);
uint32_t par_bfs_count(const par_bfs *p);

/* The CPUs this process may run on (its affinity mask), at least 1. */
int par_bfs_cores(void);

#endif
