/*
 * enumerate/barriers.c: barrier groups, phases and syncbar choices (see
 * enumerate/barriers.h).
 */
#include "enumerate/barriers.h"

#include <gc.h>
#include <string.h>

typedef struct bar_group {
    int cta, gpu;
    lit_value id;
    lit_value count;       /* <= 0: every participant, once per phase */
    uint32_t takers;       /* bit per thread: the participants (barriers.h) */
    int m;                 /* events */
    int first;             /* its events: members[first .. first + m) */
    int nchoices;
    int first_choice;      /* its choices: choice_at[first_choice ..] */
} bar_group;

struct barrier_set {
    bar_event *ev;         /* the events of the last build */
    int *members;          /* per group, its events' indices into ev, in event order */
    int *group_of;
    int *phase;            /* scratch: per member of one group, its phase */
    int cap;
    bar_group *groups;
    int ngroups, groups_cap;
    /* choices: pairs (event indices in the execution), each choice a run */
    int *pair_from, *pair_to;
    int npairs, pairs_cap;
    int *choice_at, *choice_len;
    int nchoices, choices_cap;
    bool hang;
    enum bar_reading reading;
    /* listing one counted group's arrival orders */
    uint64_t *matrices;    /* the group's distinct choices so far, as local matrices */
    int nmatrices, matrices_cap;
};

static void *grown(void *old, int n, int *cap, size_t size, bool atomic)
{
    if (n < *cap)
        return old;
    int c = *cap ? 2 * *cap : 16;
    while (c <= n)
        c *= 2;
    void *p = atomic ? GC_MALLOC_ATOMIC(size * (size_t)c) : GC_MALLOC(size * (size_t)c);
    if (*cap)
        memcpy(p, old, size * (size_t)*cap);
    *cap = c;
    return p;
}

barrier_set *barriers_new(void)
{
    return GC_MALLOC(sizeof(barrier_set));
}

bool barriers_hang(const barrier_set *b) { return b->hang; }
int barriers_groups(const barrier_set *b) { return b->ngroups; }
int barriers_choices(const barrier_set *b, int group) { return b->groups[group].nchoices; }

void barriers_apply(const barrier_set *b, int group, int choice, relation *syncbar, int n)
{
    int c = b->groups[group].first_choice + choice;
    for (int p = b->choice_at[c]; p < b->choice_at[c] + b->choice_len[c]; p++)
        rel_add(syncbar, b->pair_from[p], b->pair_to[p], n);
}

static void add_pair(barrier_set *b, int from, int to)
{
    int cap = b->pairs_cap;
    b->pair_from = grown(b->pair_from, b->npairs, &cap, sizeof(int), true);
    cap = b->pairs_cap;
    b->pair_to = grown(b->pair_to, b->npairs, &cap, sizeof(int), true);
    b->pairs_cap = cap;
    b->pair_from[b->npairs] = from;
    b->pair_to[b->npairs++] = to;
}

static void start_choice(barrier_set *b, bar_group *g)
{
    int cap = b->choices_cap;
    b->choice_at = grown(b->choice_at, b->nchoices, &cap, sizeof(int), true);
    cap = b->choices_cap;
    b->choice_len = grown(b->choice_len, b->nchoices, &cap, sizeof(int), true);
    b->choices_cap = cap;
    b->choice_at[b->nchoices] = b->npairs;
    b->choice_len[b->nchoices++] = 0;
    g->nchoices++;
}

static void end_choice(barrier_set *b)
{
    b->choice_len[b->nchoices - 1] = b->npairs - b->choice_at[b->nchoices - 1];
}

static const bar_event *member(const barrier_set *b, const bar_group *g, int i)
{
    return &b->ev[b->members[g->first + i]];
}

/* ---- grouping ---- */

static int find_group(const barrier_set *b, const bar_event *e)
{
    for (int g = 0; g < b->ngroups; g++)
        if (b->groups[g].cta == e->cta && b->groups[g].gpu == e->gpu && b->groups[g].id == e->id)
            return g;
    return -1;
}

static void group_events(barrier_set *b, const bar_event *ev, int nev)
{
    if (nev > b->cap) {
        b->cap = nev;
        b->ev = GC_MALLOC_ATOMIC(sizeof *b->ev * (size_t)nev);
        b->members = GC_MALLOC_ATOMIC(sizeof *b->members * (size_t)nev);
        b->group_of = GC_MALLOC_ATOMIC(sizeof *b->group_of * (size_t)nev);
        b->phase = GC_MALLOC_ATOMIC(sizeof *b->phase * (size_t)nev);
    }
    memcpy(b->ev, ev, sizeof *ev * (size_t)nev);
    b->ngroups = 0;
    for (int i = 0; i < nev; i++) {
        int g = find_group(b, &ev[i]);
        if (g < 0) {
            b->groups = grown(b->groups, b->ngroups, &b->groups_cap, sizeof *b->groups, true);
            g = b->ngroups++;
            b->groups[g] = (bar_group){ev[i].cta, ev[i].gpu, ev[i].id, -1, 0, 0, 0, 0, 0};
        }
        b->groups[g].takers |= ev[i].mates | (uint32_t)1 << ev[i].thread;
        b->group_of[i] = g;
        b->groups[g].m++;
        if (b->groups[g].count < 0 && ev[i].count >= 0)
            b->groups[g].count = ev[i].count;
    }
    int at = 0;
    for (int g = 0; g < b->ngroups; g++) {
        b->groups[g].first = at;
        at += b->groups[g].m;
        b->groups[g].m = 0;
    }
    for (int i = 0; i < nev; i++) {
        bar_group *g = &b->groups[b->group_of[i]];
        b->members[g->first + g->m++] = i;
    }
}

/* ---- a barrier without a count: phases by occurrence ---- */

/* The k-th event of each participant is in phase k (the participants:
 * barriers.h). */
static bool phases_by_occurrence(barrier_set *b, bar_group *g)
{
    int *phase = b->phase;
    int threads = 0, phases = 0;
    for (int i = 0; i < g->m; i++) {
        int earlier = 0;
        bool new_thread = true;
        for (int j = 0; j < i; j++)
            if (member(b, g, j)->thread == member(b, g, i)->thread) {
                earlier++;
                new_thread = false;
            }
        phase[i] = earlier;
        threads += new_thread;
        if (earlier + 1 > phases)
            phases = earlier + 1;
    }
    int takers = __builtin_popcount(g->takers);
    if (takers > threads)
        threads = takers;
    /* a phase that not every thread reaches never completes: a sync in it
     * waits forever */
    for (int k = 0; k < phases; k++) {
        int size = 0;
        bool waits = false;
        for (int i = 0; i < g->m; i++)
            if (phase[i] == k) {
                size++;
                waits |= member(b, g, i)->waits;
            }
        if (size < threads && waits) {
            b->hang = true;
            return false;
        }
    }
    /* every event of a phase up to a sync's arrives before it departs */
    start_choice(b, g);
    for (int s = 0; s < g->m; s++) {
        if (!member(b, g, s)->waits)
            continue;
        for (int a = 0; a < g->m; a++)
            if (a != s && phase[a] <= phase[s])
                add_pair(b, member(b, g, a)->event, member(b, g, s)->event);
    }
    end_choice(b);
    return true;
}

/* ---- a counted barrier: phases by arrival order ---- */

typedef struct merge {
    int m, count;
    int nthreads;
    int seq[BAR_MAX_COUNTED_EVENTS][BAR_MAX_COUNTED_EVENTS]; /* per thread slot: its events in order */
    int len[BAR_MAX_COUNTED_EVENTS];
    int next[BAR_MAX_COUNTED_EVENTS];           /* per thread slot: events placed */
    int order[BAR_MAX_COUNTED_EVENTS];          /* arrival order so far */
} merge;

/* The choice an arrival order makes, as a local matrix (bit a*8+s: a
 * arrives no later than waiting s departs).  A sync departs when its phase
 * completes; in an incomplete last phase after a complete one, Dat3M's
 * reading lets it pass at its own arrival (the reference's quorum tests:
 * the arrivals beyond a quorum are not held).  False when a sync waits in
 * an incomplete phase forever: the first under Dat3M's reading, any under
 * the hardware's. */
static bool order_matrix(const barrier_set *b, const bar_group *g, const merge *mg, uint64_t *out)
{
    *out = 0;
    for (int p = 0; p < mg->m; p++) {
        int s = mg->order[p];
        if (!member(b, g, s)->waits)
            continue;
        int phase = p / mg->count, end = (phase + 1) * mg->count - 1;
        int depart = end < mg->m ? end : p;
        if (end >= mg->m && (phase == 0 || b->reading == BAR_READ_HARDWARE))
            return false;
        for (int q = 0; q <= depart; q++)
            if (q != p)
                *out |= (uint64_t)1 << (mg->order[q] * 8 + s);
    }
    return true;
}

static void add_matrix(barrier_set *b, bar_group *g, uint64_t matrix)
{
    for (int i = 0; i < b->nmatrices; i++)
        if (b->matrices[i] == matrix)
            return;
    b->matrices = grown(b->matrices, b->nmatrices, &b->matrices_cap, sizeof *b->matrices, true);
    b->matrices[b->nmatrices++] = matrix;
    start_choice(b, g);
    for (uint64_t bits = matrix; bits; bits &= bits - 1) {
        int k = __builtin_ctzll(bits);
        add_pair(b, member(b, g, k / 8)->event, member(b, g, k % 8)->event);
    }
    end_choice(b);
}

/* Every merge of the threads' events that keeps each thread's order. */
static void list_merges(barrier_set *b, bar_group *g, merge *mg, int placed)
{
    if (placed == mg->m) {
        uint64_t matrix;
        if (order_matrix(b, g, mg, &matrix))
            add_matrix(b, g, matrix);
        else
            b->hang = true;
        return;
    }
    for (int t = 0; t < mg->nthreads; t++) {
        if (mg->next[t] == mg->len[t])
            continue;
        mg->order[placed] = mg->seq[t][mg->next[t]++];
        list_merges(b, g, mg, placed + 1);
        mg->next[t]--;
    }
}

static void phases_by_arrival(barrier_set *b, bar_group *g)
{
    merge mg;
    memset(&mg, 0, sizeof mg);
    mg.m = g->m;
    mg.count = (int)g->count;
    int thread_id[BAR_MAX_COUNTED_EVENTS];
    for (int i = 0; i < g->m; i++) {
        int t = 0;
        while (t < mg.nthreads && thread_id[t] != member(b, g, i)->thread)
            t++;
        if (t == mg.nthreads)
            thread_id[mg.nthreads++] = member(b, g, i)->thread;
        mg.seq[t][mg.len[t]++] = i;
    }
    b->nmatrices = 0;
    list_merges(b, g, &mg, 0);
}

enum bar_status barriers_build(barrier_set *b, const bar_event *ev, int nev, enum bar_reading reading)
{
    b->hang = false;
    b->reading = reading;
    b->npairs = 0;
    b->nchoices = 0;
    group_events(b, ev, nev);
    for (int k = 0; k < b->ngroups; k++)
        if (b->groups[k].count > 0 && b->groups[k].m > BAR_MAX_COUNTED_EVENTS)
            return BAR_TOO_MANY;
    for (int k = 0; k < b->ngroups; k++) {
        bar_group *g = &b->groups[k];
        g->first_choice = b->nchoices;
        g->nchoices = 0;
        if (g->count > 0)
            phases_by_arrival(b, g);
        else
            phases_by_occurrence(b, g);
        if (g->nchoices == 0)
            return BAR_HANG;
    }
    return BAR_OK;
}
