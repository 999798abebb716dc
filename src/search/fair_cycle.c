/* search/fair_cycle.c: fair non-progress cycles on the BFS graph (see
 * search/fair_cycle.h). */
#include "search/fair_cycle.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "search/state_store.h"

#define NO_VERTEX UINT32_MAX

struct fc_graph {
    const nsi_model *m;
    uint32_t *first;          /* CSR: edges of v are first[v]..first[v+1]-1 */
    size_t first_cap;
    uint32_t nfirst;          /* entries of `first` written: states 0..nfirst-1 started */
    uint32_t *to;
    uint16_t *rule;
    size_t nedges, edge_cap;
    bool failed;
};

fc_graph *fc_graph_new(const nsi_model *m)
{
    fc_graph *g = calloc(1, sizeof *g);
    if (g)
        g->m = m;
    return g;
}

void fc_graph_free(fc_graph *g)
{
    if (!g)
        return;
    free(g->first);
    free(g->to);
    free(g->rule);
    free(g);
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

/* States are expanded in index order, so the edges arrive grouped by
 * source: `first` is written up to the source as it advances. */
static bool start_sources(fc_graph *g, uint32_t upto)
{
    if (!grow((void **)&g->first, &g->first_cap, (size_t)upto + 2, sizeof *g->first))
        return false;
    while (g->nfirst <= upto)
        g->first[g->nfirst++] = (uint32_t)g->nedges;
    return true;
}

void fc_on_edge(void *graph, uint32_t from, uint32_t to, int rule)
{
    fc_graph *g = graph;
    if (g->failed)
        return;
    size_t e = g->nedges;
    size_t cap = g->edge_cap;
    if (!start_sources(g, from) || e >= UINT32_MAX ||
        !grow((void **)&g->to, &cap, e + 1, sizeof *g->to) ||
        !grow((void **)&g->rule, &g->edge_cap, e + 1, sizeof *g->rule)) {
        g->failed = true;
        return;
    }
    g->to[e] = to;
    g->rule[e] = (uint16_t)rule;
    g->nedges = e + 1;
}

/* ---- the search's working memory ------------------------------------------------ */

typedef struct search {
    const fc_graph *g;
    const bfs_search *bfs;
    const nsi_model *m;
    const nsi_fairness *sc;
    void *mctx;
    uint32_t n;               /* states */
    bool fair;
    int words;                /* of a unit bitset */
    /* Tarjan over the vertices whose tag equals the current tag */
    uint32_t *tag;            /* per state: the set it belongs to now */
    uint32_t *index, *low;    /* NO_VERTEX: unvisited */
    uint32_t *stack, *call, *edge_at;
    uint8_t *on_stack;
    uint32_t counter;
    uint32_t next_tag;        /* a tag no set has had yet */
    /* the components of the whole graph, grouped */
    uint32_t *comp;           /* per state */
    uint32_t ncomp;
    /* breadth-first search inside a component (for the cycles) */
    uint32_t *parent, *parent_edge, *queue;
    uint32_t *seen;           /* generation stamps for it */
    uint32_t stamp;
    int thread;               /* the thread being checked */
    uint64_t *enabled_all, *taken, *unit_scratch;
    uint8_t *state_buf;          /* two states, read back from any store (bfs_state) */
    uint32_t *members;        /* the vertices of one component */
    fc_result *res;
    bool reported[64];        /* per thread (up to 64) */
    bool oom;
} search;

static int edge_unit(const search *s, size_t e)
{
    return s->sc->rule_unit(s->mctx, s->g->rule[e]);
}

static void set_bit(uint64_t *b, int i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
static bool has_bit(const uint64_t *b, int i) { return (b[i >> 6] >> (i & 63)) & 1u; }

/* The units with a successor from v (in the whole graph). */
static void enabled_units(const search *s, uint32_t v, uint64_t *out)
{
    memset(out, 0, sizeof *out * (size_t)s->words);
    for (uint32_t e = s->g->first[v]; e < s->g->first[v + 1]; e++) {
        int u = edge_unit(s, e);
        if (u >= 0 && u < s->sc->nunits)
            set_bit(out, u);
    }
}

/* ---- strongly connected components (Tarjan, iterative) ------------------------- */

typedef void (*component_fn)(search *s, const uint32_t *vertices, uint32_t count, uint32_t tag);

/* The components of the subgraph on the vertices tagged `tag`, each handed
 * to `found` (which may retag its vertices) in reverse topological order. */
static void tarjan_from(search *s, uint32_t root, uint32_t tag, component_fn found)
{
    uint32_t sp = 0, cp = 0;
    s->index[root] = s->low[root] = s->counter++;
    s->stack[sp++] = root;
    s->on_stack[root] = 1;
    s->call[cp] = root;
    s->edge_at[cp++] = s->g->first[root];
    while (cp > 0) {
        uint32_t v = s->call[cp - 1];
        uint32_t e = s->edge_at[cp - 1];
        if (e < s->g->first[v + 1]) {
            s->edge_at[cp - 1] = e + 1;
            uint32_t w = s->g->to[e];
            if (s->tag[w] != tag)
                continue;
            if (s->index[w] == NO_VERTEX) {
                s->index[w] = s->low[w] = s->counter++;
                s->stack[sp++] = w;
                s->on_stack[w] = 1;
                s->call[cp] = w;
                s->edge_at[cp++] = s->g->first[w];
            } else if (s->on_stack[w] && s->index[w] < s->low[v]) {
                s->low[v] = s->index[w];
            }
            continue;
        }
        cp--;
        if (cp > 0) {
            uint32_t u = s->call[cp - 1];
            if (s->low[v] < s->low[u])
                s->low[u] = s->low[v];
        }
        if (s->low[v] != s->index[v])
            continue;
        uint32_t start = sp;
        do
            s->on_stack[s->stack[--start]] = 0;
        while (s->stack[start] != v);
        uint32_t count = sp - start;
        sp = start;
        /* the component is stack[start .. start+count): copy it, since the
         * handler may run a nested search that reuses the stack */
        memcpy(s->members, &s->stack[start], sizeof *s->members * count);
        found(s, s->members, count, tag);
    }
}

static void tarjan(search *s, const uint32_t *vertices, uint32_t count, uint32_t tag, component_fn found)
{
    for (uint32_t i = 0; i < count; i++)
        s->index[vertices[i]] = NO_VERTEX;
    for (uint32_t i = 0; i < count; i++)
        if (s->tag[vertices[i]] == tag && s->index[vertices[i]] == NO_VERTEX)
            tarjan_from(s, vertices[i], tag, found);
}

/* ---- deciding one component --------------------------------------------------- */

/* Does the component (its vertices tagged `tag`) hold a cycle, and is the
 * cycle through all of it fair?  Fills s->enabled_all and s->taken. */
static bool fair_component(search *s, const uint32_t *vs, uint32_t count, uint32_t tag)
{
    bool cyclic = false;
    memset(s->taken, 0, sizeof *s->taken * (size_t)s->words);
    memset(s->enabled_all, 0xff, sizeof *s->enabled_all * (size_t)s->words);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = vs[i];
        for (uint32_t e = s->g->first[v]; e < s->g->first[v + 1]; e++) {
            if (s->tag[s->g->to[e]] != tag)
                continue;
            cyclic = true;
            int u = edge_unit(s, e);
            if (u >= 0 && u < s->sc->nunits)
                set_bit(s->taken, u);
        }
        enabled_units(s, v, s->unit_scratch);
        for (int w = 0; w < s->words; w++)
            s->enabled_all[w] &= s->unit_scratch[w];
    }
    if (!cyclic)
        return false;
    if (!s->fair)
        return true;
    for (int u = 0; u < s->sc->nunits; u++)
        if (has_bit(s->enabled_all, u) && !has_bit(s->taken, u))
            return false;
    return true;
}

/* Breadth-first from `from` to a vertex of the component satisfying
 * `goal`; the path's steps are appended to *path.  The goal is a vertex
 * (want != NO_VERTEX) or, for want_edge >= 0, a vertex with that
 * outgoing internal edge, which is then taken.  False when unreachable or
 * out of memory. */
typedef struct path { bfs_step *steps; size_t len, cap; } path;

static bool path_push(path *p, uint32_t state, int rule)
{
    if (!grow((void **)&p->steps, &p->cap, p->len + 1, sizeof *p->steps))
        return false;
    p->steps[p->len++] = (bfs_step){state, rule};
    return true;
}

static bool walk_to(search *s, uint32_t tag, uint32_t from, uint32_t want, long want_edge, bool nonempty,
                    path *p, uint32_t *end)
{
    uint32_t *queue = s->queue;
    uint32_t head = 0, tail = 0;
    uint32_t closing_edge = 0;
    s->stamp++;
    s->seen[from] = s->stamp;
    s->parent[from] = NO_VERTEX;
    queue[tail++] = from;
    uint32_t hit = NO_VERTEX;
    while (head < tail && hit == NO_VERTEX) {
        uint32_t v = queue[head++];
        bool at_goal = want_edge >= 0 ? (s->g->first[v] <= (uint32_t)want_edge && (uint32_t)want_edge < s->g->first[v + 1])
                                      : v == want;
        if (at_goal && (v != from || !nonempty)) {
            hit = v;
            break;
        }
        for (uint32_t e = s->g->first[v]; e < s->g->first[v + 1]; e++) {
            uint32_t w = s->g->to[e];
            if (s->tag[w] != tag)
                continue;
            if (w == from && nonempty && want == from && want_edge < 0) {
                s->parent[from] = v;        /* back at the start: the closing edge */
                closing_edge = e;
                hit = from;
                break;
            }
            if (s->seen[w] == s->stamp)
                continue;
            s->seen[w] = s->stamp;
            s->parent[w] = v;
            s->parent_edge[w] = e;
            queue[tail++] = w;
        }
    }
    if (hit == NO_VERTEX)
        return false;
    /* the vertices from `from` to `hit`, collected backwards */
    size_t start = p->len;
    uint32_t v = hit;
    bool closing = hit == from && nonempty && want_edge < 0;
    if (closing) {
        if (!path_push(p, from, s->g->rule[closing_edge]))
            return false;
        v = s->parent[from];
    }
    while (v != from) {
        if (!path_push(p, v, s->g->rule[s->parent_edge[v]]))
            return false;
        v = s->parent[v];
    }
    for (size_t i = start, j = p->len; i + 1 < j; i++, j--) {
        bfs_step t = p->steps[i];
        p->steps[i] = p->steps[j - 1];
        p->steps[j - 1] = t;
    }
    *end = hit;
    if (want_edge >= 0) {
        if (!path_push(p, s->g->to[want_edge], s->g->rule[want_edge]))
            return false;
        *end = s->g->to[want_edge];
    }
    return true;
}

/* A fair cycle through the component's shallowest vertex: for each unit
 * that is enabled everywhere in it, one of its internal edges; for each
 * other unit, a vertex where it is disabled; then back. */
static bool build_cycle(search *s, const uint32_t *vs, uint32_t count, uint32_t tag, fc_cycle *c)
{
    uint32_t entry = vs[0];
    for (uint32_t i = 1; i < count; i++)
        entry = vs[i] < entry ? vs[i] : entry;
    path p = {0};
    uint32_t cur = entry;
    uint64_t *at_entry = s->unit_scratch + s->words;   /* the second half (alloc_search) */
    enabled_units(s, entry, at_entry);
    for (int u = 0; u < s->sc->nunits && s->fair; u++) {
        long edge = -1;
        uint32_t want = NO_VERTEX;
        if (!has_bit(s->enabled_all, u) && !has_bit(at_entry, u))
            continue;       /* the cycle passes the entry, where u is disabled */
        for (uint32_t i = 0; i < count && edge < 0 && want == NO_VERTEX; i++) {
            uint32_t v = vs[i];
            if (has_bit(s->enabled_all, u)) {
                for (uint32_t e = s->g->first[v]; e < s->g->first[v + 1] && edge < 0; e++)
                    if (s->tag[s->g->to[e]] == tag && edge_unit(s, e) == u)
                        edge = (long)e;
            } else {
                enabled_units(s, v, s->unit_scratch);
                if (!has_bit(s->unit_scratch, u))
                    want = v;
            }
        }
        if (edge < 0 && want == NO_VERTEX)
            continue;
        if (!walk_to(s, tag, cur, want, edge, false, &p, &cur)) {
            free(p.steps);
            return false;
        }
    }
    if (!walk_to(s, tag, cur, entry, -1, p.len == 0, &p, &cur)) {
        free(p.steps);
        return false;
    }
    c->entry = entry;
    c->cycle = p.steps;
    c->len = p.len;
    return true;
}

/* Stored state v, in buffer `slot` (0 or 1) when the store does not keep
 * states whole.  The stores the fair-cycle search runs on are lossless
 * (bfs_run refuses on_edge with a probabilistic one), so never NULL. */
static const uint8_t *state_at(const search *s, uint32_t v, int slot)
{
    return bfs_state(s->bfs, v, s->state_buf + (size_t)slot * s->m->state_bytes);
}

static bool thread_progress_in(search *s, int t, const uint32_t *vs, uint32_t count)
{
    if (!s->sc->thread_progress)
        return false;
    for (uint32_t i = 0; i < count; i++)
        if (s->sc->thread_progress(s->mctx, state_at(s, vs[i], 1), t))
            return true;
    return false;
}

static void report(search *s, int t, const uint32_t *vs, uint32_t count, uint32_t tag)
{
    fc_result *r = s->res;
    if (r->ncycles == FC_MAX_CYCLES || (t < 64 && s->reported[t]))
        return;
    fc_cycle *c = &r->cycles[r->ncycles];
    c->thread = t;
    if (!build_cycle(s, vs, count, tag, c)) {
        s->oom = true;
        return;
    }
    r->ncycles++;
    if (t < 64)
        s->reported[t] = true;
}

/* A component of the graph without one thread's progress states.  The
 * components of that search share its tag; this one gets a tag of its own
 * (Tarjan never looks at a finished component again), so that the checks
 * and the cycle stay inside it. */
static void sub_component(search *s, const uint32_t *vs, uint32_t count, uint32_t tag)
{
    (void)tag;
    uint32_t own = s->next_tag++;
    for (uint32_t i = 0; i < count; i++)
        s->tag[vs[i]] = own;
    if (fair_component(s, vs, count, own))
        report(s, s->thread, vs, count, own);
}

/* One component of the whole graph: for each thread unfinished in it (the
 * same in all its states: a finished thread stays finished), a fair cycle
 * in which the thread never passes a progress state: in the component
 * itself when the thread has none there, else in the components of what is
 * left without them. */
static void decide_component(search *s, const uint32_t *vs, uint32_t count)
{
    uint32_t comp = s->next_tag++;
    for (uint32_t i = 0; i < count; i++)
        s->tag[vs[i]] = comp;
    if (!fair_component(s, vs, count, comp))
        return;
    s->res->components++;
    const uint8_t *any = state_at(s, vs[0], 0);
    for (int t = 0; t < s->sc->nthreads && !s->oom; t++) {
        if ((t < 64 && s->reported[t]) || s->sc->thread_done(s->mctx, any, t))
            continue;
        if (!thread_progress_in(s, t, vs, count)) {
            fair_component(s, vs, count, comp);
            report(s, t, vs, count, comp);
            continue;
        }
        uint32_t sub = s->next_tag++;
        for (uint32_t i = 0; i < count; i++)
            if (!s->sc->thread_progress(s->mctx, state_at(s, vs[i], 1), t))
                s->tag[vs[i]] = sub;
        s->thread = t;
        tarjan(s, vs, count, sub, sub_component);
        for (uint32_t i = 0; i < count; i++)
            s->tag[vs[i]] = comp;
    }
}

/* The outer pass only numbers the components: deciding one runs searches
 * of its own, which may not nest inside this one's. */
static void number_component(search *s, const uint32_t *vs, uint32_t count, uint32_t tag)
{
    (void)tag;
    for (uint32_t i = 0; i < count; i++)
        s->comp[vs[i]] = s->ncomp;
    s->ncomp++;
}

/* Numbers the components, groups their states (a counting sort) and
 * decides each. */
static bool decide_all(search *s)
{
    uint32_t n = s->n;
    uint32_t *order = calloc((size_t)n + 1, sizeof *order);
    if (!order)
        return false;
    for (uint32_t v = 0; v < n; v++)
        order[v] = v;
    tarjan(s, order, n, 0, number_component);
    uint32_t *start = calloc((size_t)s->ncomp + 1, sizeof *start);
    if (!start) {
        free(order);
        return false;
    }
    for (uint32_t v = 0; v < n; v++)
        start[s->comp[v] + 1]++;
    for (uint32_t c = 0; c < s->ncomp; c++)
        start[c + 1] += start[c];
    uint32_t *fill = s->queue;          /* free until the cycles are built */
    memcpy(fill, start, sizeof *fill * s->ncomp);
    for (uint32_t v = 0; v < n; v++)
        order[fill[s->comp[v]]++] = v;
    /* Tarjan numbers components in reverse topological order; deciding the
     * ones nearest the initial state first gives short stems */
    for (uint32_t c = s->ncomp; c-- > 0 && !s->oom && s->res->ncycles < FC_MAX_CYCLES;)
        decide_component(s, &order[start[c]], start[c + 1] - start[c]);
    free(start);
    free(order);
    return !s->oom;
}

static bool alloc_search(search *s)
{
    size_t n = (size_t)s->n + 1;
    s->words = (s->sc->nunits + 63) / 64;
    if (s->words == 0)
        s->words = 1;
    s->tag = calloc(n, sizeof *s->tag);
    s->comp = malloc(n * sizeof *s->comp);
    s->parent_edge = malloc(n * sizeof *s->parent_edge);
    s->queue = malloc(n * sizeof *s->queue);
    s->index = malloc(n * sizeof *s->index);
    s->low = malloc(n * sizeof *s->low);
    s->stack = malloc(n * sizeof *s->stack);
    s->call = malloc(n * sizeof *s->call);
    s->edge_at = malloc(n * sizeof *s->edge_at);
    s->on_stack = calloc(n, 1);
    s->parent = malloc(n * sizeof *s->parent);
    s->seen = calloc(n, sizeof *s->seen);
    s->members = malloc(n * sizeof *s->members);
    s->enabled_all = malloc(sizeof *s->enabled_all * (size_t)s->words);
    s->taken = malloc(sizeof *s->taken * (size_t)s->words);
    s->unit_scratch = malloc(sizeof *s->unit_scratch * 2 * (size_t)s->words);
    s->state_buf = malloc(2 * s->m->state_bytes);
    return s->state_buf && s->tag && s->comp && s->parent_edge && s->queue && s->index && s->low && s->stack && s->call && s->edge_at && s->on_stack && s->parent &&
           s->seen && s->members && s->enabled_all && s->taken && s->unit_scratch;
}

static void free_search(search *s)
{
    free(s->tag);
    free(s->comp);
    free(s->parent_edge);
    free(s->queue);
    free(s->index);
    free(s->low);
    free(s->stack);
    free(s->call);
    free(s->edge_at);
    free(s->on_stack);
    free(s->parent);
    free(s->seen);
    free(s->members);
    free(s->enabled_all);
    free(s->taken);
    free(s->unit_scratch);
    free(s->state_buf);
}

bool fc_search(fc_graph *g, const bfs_search *bfs, bool fair, fc_result *res)
{
    double t0 = clock_now();
    memset(res, 0, sizeof *res);
    const nsi_model *m = bfs_model(bfs);
    uint32_t n = bfs_count(bfs);
    if (g->failed || !m->fairness || !start_sources(g, n))
        return false;
    search s = {.g = g, .bfs = bfs, .m = m, .sc = m->fairness, .mctx = m->ctx, .n = n, .fair = fair, .res = res,
                .next_tag = 1};
    bool ok = alloc_search(&s) && decide_all(&s);
    res->edges = g->nedges;
    res->bytes = g->nedges * (sizeof *g->to + sizeof *g->rule) + (size_t)n * 53;
    free_search(&s);
    res->searched = ok;
    res->seconds = clock_now() - t0;
    return ok;
}

/* ---- printing -------------------------------------------------------------------- */

void fc_print_lasso(const bfs_search *s, const fc_cycle *c, FILE *out)
{
    size_t n = 0;
    bfs_step *stem = bfs_trace(s, c->entry, &n);
    if (!stem) {
        fprintf(out, "(trace unavailable: out of memory)\n");
        return;
    }
    fprintf(out, "  0: initial state\n");
    for (size_t k = 1; k < n; k++) {
        fprintf(out, "  %zu: ", k);
        bfs_print_step(s, stem[k - 1].state, stem[k].state, stem[k].rule, out);
    }
    free(stem);
    fprintf(out, "  -- cycle: the steps below repeat forever --\n");
    uint32_t from = c->entry;
    for (size_t k = 0; k < c->len; k++) {
        fprintf(out, "  %zu: ", n + k);
        bfs_print_step(s, from, c->cycle[k].state, c->cycle[k].rule, out);
        from = c->cycle[k].state;
    }
}

void fc_result_free(fc_result *res)
{
    for (int i = 0; i < res->ncycles; i++)
        free(res->cycles[i].cycle);
    res->ncycles = 0;
}
