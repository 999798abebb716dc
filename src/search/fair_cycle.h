/*
 * search/fair_cycle.h: non-progress cycles under fairness on the reachable
 * state graph of an nsi_model (docs/liveness.md, section 2).
 *
 * Contract.  A liveness violation is a lasso: a path from the initial
 * state to a state s, then a cycle back to s, such that some thread T is
 * unfinished on the cycle and never at a progress state on it, and the
 * cycle is fair: under weak fairness, every unit (a thread or a channel
 * instance, nsi_fairness) that is enabled in every state of the cycle takes a
 * step on it; without fairness, any cycle.  An infinite run that goes
 * round the cycle forever is a run in which T never completes.
 *
 * The graph is the one breadth-first search stores: fc_graph collects its
 * edges while bfs_run explores (bfs_options.on_edge, fc_on_edge), so the
 * store is the visited set and nothing is expanded twice.  fc_search then
 * finds the strongly connected components (Tarjan, iterative) and decides
 * each: the states of a component are all reachable from each other, so it
 * holds a fair cycle exactly when each unit either moves inside it or is
 * disabled in one of its states (weak fairness needs nothing finer).  A
 * thread with progress labels in the component is checked again on the
 * component without its progress states (their strongly connected parts).
 * Each violation comes with a lasso: the shortest (BFS) path to the
 * component's shallowest state, and a cycle through it that meets every
 * unit's obligation.
 *
 * Memory: the edges (6 bytes each) and about 20 bytes per state during the
 * search; malloc'd, released by fc_free.  Not thread-safe; no global state.
 */
#ifndef SCOPECHECK_SEARCH_FAIR_CYCLE_H
#define SCOPECHECK_SEARCH_FAIR_CYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "search/bfs.h"
#include "search/nsi.h"

typedef struct fc_graph fc_graph;

#define FC_MAX_CYCLES 8

/* One violation: thread `thread` never completes on the cycle through
 * `entry`; `cycle` holds the steps from entry back to entry. */
typedef struct fc_cycle {
    int thread;
    uint32_t entry;
    size_t len;
    bfs_step *cycle;      /* malloc'd; step i reaches cycle[i].state by cycle[i].rule */
} fc_cycle;

typedef struct fc_result {
    bool searched;                /* false: the graph was incomplete, nothing decided */
    int ncycles;                  /* one per thread that can starve, at most FC_MAX_CYCLES */
    fc_cycle cycles[FC_MAX_CYCLES];
    uint64_t components;          /* strongly connected components with a cycle */
    uint64_t edges;
    double seconds;               /* the component search, after the BFS */
    size_t bytes;                 /* edges and search arrays at their largest */
} fc_result;

/* A graph to fill during a search of `m` (which must have m->fairness). */
fc_graph *fc_graph_new(const nsi_model *m);
/* bfs_options.on_edge with edge_ctx = the graph.  Out of memory stops
 * recording; fc_search then reports nothing decided. */
void fc_on_edge(void *graph, uint32_t from, uint32_t to, int rule);

/* Searches the graph of a complete BFS (`s`'s store holds its states).
 * `fair`: weak fairness per unit; false: no fairness.  Returns false when
 * out of memory (res->searched false). */
bool fc_search(fc_graph *g, const bfs_search *s, bool fair, fc_result *res);

/* The lasso of one violation: the stem, a marker line, the cycle; one
 * numbered line per step as bfs_print_trace writes them. */
void fc_print_lasso(const bfs_search *s, const fc_cycle *c, FILE *out);

void fc_result_free(fc_result *res);
void fc_graph_free(fc_graph *g);

#endif
