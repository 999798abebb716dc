/*
 * bench_search.c: throughput of the breadth-first back end (search_bfs +
 * state_store) on a synthetic model, one core.
 *
 * The model: NC counters in 0..MAXV, spread over a state of SB bytes (one
 * counter every SB/NC bytes; the other bytes hold a value derived from the
 * counters, so the state stays canonical and every word of it varies).
 * Rule 2i increments counter i below MAXV; rule 2i+1 resets it to 0 at
 * MAXV.  Every state has exactly NC successors and there are (MAXV+1)^NC
 * states, most successors being states already seen, as in a protocol.
 *
 * Usage: bench_search [NC [MAXV [SB [max-memory-MiB [STORE]]]]] (default 8 5
 * 38 0 plain; STORE: plain, tree, hash-compact or bitstate, search/visited.h).
 * Prints one "key: value" line per statistic (bfs_print_stats) plus the
 * model's parameters and transitions/s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/bfs.h"

typedef struct counters {
    int nc, maxv;
    size_t bytes, gap;
} counters;

/* Rewrites the derived bytes (everything but the counters) from the
 * counters, cheaply: a 64-bit digest of them repeated over the state. */
static void derive(const counters *c, uint8_t *s)
{
    uint64_t acc = 0;
    for (int i = 0; i < c->nc; i++)
        acc = (acc << 8) ^ (acc >> 56) ^ s[(size_t)i * c->gap];
    acc *= 0x9E3779B97F4A7C15ULL;
    uint8_t keep[256];
    for (int i = 0; i < c->nc; i++)
        keep[i] = s[(size_t)i * c->gap];
    size_t b = 0;
    for (; b + 8 <= c->bytes; b += 8)
        memcpy(s + b, &acc, 8);
    memcpy(s + b, &acc, c->bytes - b);
    for (int i = 0; i < c->nc; i++)
        s[(size_t)i * c->gap] = keep[i];
}

static void initial(void *ctx, uint8_t *s)
{
    const counters *c = ctx;
    memset(s, 0, c->bytes);
    derive(c, s);
}

static int successors(void *ctx, const uint8_t *s, nsi_emit emit, void *cb)
{
    const counters *c = ctx;
    uint8_t next[256];
    for (int i = 0; i < c->nc; i++) {
        size_t at = (size_t)i * c->gap;
        bool at_max = s[at] == c->maxv;
        memcpy(next, s, c->bytes);
        next[at] = at_max ? 0 : (uint8_t)(s[at] + 1);
        derive(c, next);
        emit(cb, next, 2 * i + (at_max ? 1 : 0));
    }
    return c->nc;
}

int main(int argc, char **argv)
{
    counters c = {.nc = 8, .maxv = 5, .bytes = 38};
    if (argc > 1)
        c.nc = atoi(argv[1]);
    if (argc > 2)
        c.maxv = atoi(argv[2]);
    if (argc > 3)
        c.bytes = (size_t)atoi(argv[3]);
    size_t mem_mib = argc > 4 ? (size_t)atoi(argv[4]) : 0;
    visited_kind store = VISITED_PLAIN;
    int threads = argc > 6 ? atoi(argv[6]) : 1;
    if (threads < 1 || c.nc < 1 || c.maxv < 1 || c.maxv > 255 || c.bytes > 256 || c.bytes < (size_t)c.nc ||
        (argc > 5 && !vs_kind_parse(argv[5], &store))) {
        fprintf(stderr, "usage: bench_search [NC [MAXV [SB [max-memory-MiB [plain|tree|hash-compact|bitstate [THREADS]]]]]]\n");
        return 2;
    }
    c.gap = c.bytes / (size_t)c.nc;
    nsi_model m = {.ctx = &c, .state_bytes = c.bytes, .nrules = 2 * c.nc,
                   .initial = initial, .successors = successors};
    bfs_options o = {.max_memory = mem_mib << 20, .store = store, .threads = threads};
    bfs_result r;
    bfs_search *s = bfs_run(&m, &o, &r);
    printf("model: %d counters 0..%d in %zu-byte states\n", c.nc, c.maxv, c.bytes);
    bfs_print_stats(&r, stdout);
    printf("transitions/s: %.0f\n", r.seconds > 0 ? (double)r.transitions / r.seconds : 0.0);
    printf("RSS bytes/state: %.1f\n", r.states ? (double)r.peak_rss / (double)r.states : 0.0);
    bfs_free(s);
    return r.stop == BFS_EXHAUSTED && !r.probabilistic ? 0 : 1;
}
