/*
 * enumerate/trace_filter.c: combinations of thread traces whose reads can
 * be served (see enumerate/trace_filter.h).
 *
 * Each (location, value) pair that some trace reads or writes is a bit;
 * pair sets are as many words as the test has pairs.
 */
#include "enumerate/trace_filter.h"

#include <gc.h>
#include <string.h>

/* The pairs, numbered in order of first use, found through a hash table
 * (slots hold a pair's number + 1). */
typedef struct pair_index {
    int count, cap;
    int *phys;
    lit_value *value;
    int *slot;
    size_t slots;
} pair_index;

/* The pairs of one trace: `needs` are the reads that no write of the trace
 * itself may serve.  Each is a set of `words` words. */
typedef struct trace_pairs {
    uint64_t *reads, *writes, *needs;
} trace_pairs;

/* The pairs one choice so far writes, and the pairs some chosen thread
 * needs that no other chosen thread writes and the initial state does not
 * hold. */
typedef struct chosen_pairs {
    uint64_t *written, *unmet;
} chosen_pairs;

typedef struct trace_classes {
    int count;
    int *of;               /* per trace: its class */
    /* the traces of each class, in trace order: members[start[k] ..
     * start[k + 1]) */
    int *start, *members;
    const trace_pairs **rep; /* per class: the pairs of its first trace */
    /* scratch of the recursion at this thread: per trace, one bit, set
     * when its class extends the current choice (to next[class]) */
    uint64_t *passing;
    chosen_pairs *next;
} trace_classes;

struct trace_filter {
    const tp_result *paths;
    int nthreads;
    int words;             /* words of a pair set */
    trace_pairs **pairs;   /* per thread, per trace */
    trace_classes *classes; /* per thread */
    uint64_t **later;      /* per thread: what threads from it on may write */
    uint64_t *init;        /* the initial values' pairs */
    chosen_pairs none;
};

/* ---- pairs ---- */

static size_t pair_hash(int phys, lit_value v, size_t slots)
{
    uint64_t h = ((uint64_t)v * 0x9e3779b97f4a7c15u) ^ ((uint64_t)phys * 0xc2b2ae3d27d4eb4fu);
    return (size_t)(h ^ (h >> 29)) & (slots - 1);
}

static void rehash(pair_index *px, size_t slots)
{
    px->slots = slots;
    px->slot = GC_MALLOC_ATOMIC(sizeof *px->slot * slots);
    memset(px->slot, 0, sizeof *px->slot * slots);
    for (int i = 0; i < px->count; i++) {
        size_t at = pair_hash(px->phys[i], px->value[i], slots);
        while (px->slot[at])
            at = (at + 1) & (slots - 1);
        px->slot[at] = i + 1;
    }
}

static int pair_find(const pair_index *px, int phys, lit_value v)
{
    for (size_t at = pair_hash(phys, v, px->slots); px->slot[at]; at = (at + 1) & (px->slots - 1)) {
        int i = px->slot[at] - 1;
        if (px->phys[i] == phys && px->value[i] == v)
            return i;
    }
    return -1;
}

static int pair_of(pair_index *px, int phys, lit_value v)
{
    size_t at = pair_hash(phys, v, px->slots);
    for (; px->slot[at]; at = (at + 1) & (px->slots - 1)) {
        int i = px->slot[at] - 1;
        if (px->phys[i] == phys && px->value[i] == v)
            return i;
    }
    if (px->count == px->cap) {
        int cap = px->cap ? 2 * px->cap : 64;
        int *phys_grown = GC_MALLOC_ATOMIC(sizeof *phys_grown * (size_t)cap);
        lit_value *value_grown = GC_MALLOC_ATOMIC(sizeof *value_grown * (size_t)cap);
        if (px->count) {
            memcpy(phys_grown, px->phys, sizeof *phys_grown * (size_t)px->count);
            memcpy(value_grown, px->value, sizeof *value_grown * (size_t)px->count);
        }
        px->phys = phys_grown;
        px->value = value_grown;
        px->cap = cap;
    }
    px->phys[px->count] = phys;
    px->value[px->count] = v;
    px->slot[at] = ++px->count;
    if ((size_t)px->count * 2 > px->slots)
        rehash(px, 2 * px->slots);
    return px->count - 1;
}

static uint64_t *new_set(int words)
{
    uint64_t *s = GC_MALLOC_ATOMIC(sizeof *s * (size_t)words);
    memset(s, 0, sizeof *s * (size_t)words);
    return s;
}

static void set_put(uint64_t *s, int i) { s[i / 64] |= (uint64_t)1 << (i % 64); }
static bool set_holds(const uint64_t *s, int i) { return (s[i / 64] >> (i % 64)) & 1u; }

static void set_or(uint64_t *out, const uint64_t *a, const uint64_t *b, int words)
{
    for (int i = 0; i < words; i++)
        out[i] = a[i] | b[i];
}

static bool set_within(const uint64_t *a, const uint64_t *b, int words)
{
    for (int i = 0; i < words; i++)
        if (a[i] & ~b[i])
            return false;
    return true;
}

static bool set_empty(const uint64_t *s, int words)
{
    for (int i = 0; i < words; i++)
        if (s[i])
            return false;
    return true;
}

static bool is_access(const tp_event *te)
{
    return te->kind == EV_READ || te->kind == EV_WRITE || te->kind == EV_RMW;
}

/* Numbers every pair the traces touch, and the initial pair of every
 * location they touch (pairs of locations no trace touches cannot matter);
 * returns, per thread, per trace, per event, two entries: its pair (the
 * one read, or written by a plain write) or -1, and the pair a C
 * read-modify-write (EV_RMW) writes or -1. */
static int ***index_pairs(const litmus_test *t, const tp_result *paths, pair_index *px)
{
    bool *touched = GC_MALLOC_ATOMIC(sizeof *touched * (size_t)(t->nlocs ? t->nlocs : 1));
    memset(touched, 0, sizeof *touched * (size_t)t->nlocs);
    int ***ids = GC_MALLOC(sizeof *ids * (size_t)(t->nthreads ? t->nthreads : 1));
    for (int th = 0; th < t->nthreads; th++) {
        const tp_thread *tt = &paths->threads[th];
        long events = 0;
        for (int i = 0; i < tt->ntraces; i++)
            events += tt->traces[i].nevents;
        int *all = GC_MALLOC_ATOMIC(sizeof *all * (size_t)(events ? 2 * events : 1));
        ids[th] = GC_MALLOC(sizeof *ids[th] * (size_t)(tt->ntraces ? tt->ntraces : 1));
        for (int i = 0; i < tt->ntraces; i++) {
            const tp_trace *tr = &tt->traces[i];
            ids[th][i] = all;
            for (int e = 0; e < tr->nevents; e++) {
                const tp_event *te = &tr->events[e];
                int phys = is_access(te) ? t->locs[te->loc].physical : -1;
                all[2 * e] = phys >= 0 ? pair_of(px, phys, te->value) : -1;
                all[2 * e + 1] = te->kind == EV_RMW ? pair_of(px, phys, te->wvalue) : -1;
                if (phys >= 0)
                    touched[phys] = true;
            }
            all += 2 * tr->nevents;
        }
    }
    for (int l = 0; l < t->nlocs; l++)
        if (touched[l])
            pair_of(px, l, t->locs[l].init);
    return ids;
}

/* With thread coherence a read is served by its own thread only from an
 * earlier write; without, from any write of the thread.  pair: the pair
 * of each event (index_pairs).  The sets go into `block` (3 * words
 * zeroed words); `own` is scratch. */
static void trace_pairs_of(const tp_trace *tr, const int *pair, bool coherent, int words, uint64_t *block,
                           uint64_t *own, trace_pairs *out)
{
    out->reads = block;
    out->writes = block + words;
    out->needs = block + 2 * words;
    memset(own, 0, sizeof *own * (size_t)words);
    for (int e = 0; e < tr->nevents; e++) {
        if (pair[2 * e] >= 0)
            set_put(tr->events[e].kind == EV_WRITE ? out->writes : out->reads, pair[2 * e]);
        if (pair[2 * e + 1] >= 0)
            set_put(out->writes, pair[2 * e + 1]);
    }
    for (int e = 0; e < tr->nevents; e++) {
        if (pair[2 * e] < 0)
            continue;
        if (tr->events[e].kind == EV_WRITE) {
            set_put(own, pair[2 * e]);
            continue;
        }
        if (!set_holds(coherent ? own : out->writes, pair[2 * e]))
            set_put(out->needs, pair[2 * e]);
        if (pair[2 * e + 1] >= 0) /* after its read: an event never reads its own write */
            set_put(own, pair[2 * e + 1]);
    }
}

static uint64_t pairs_hash(const trace_pairs *tp, int words)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < words; i++)
        h = (h ^ tp->reads[i] ^ (tp->writes[i] << 1) ^ (tp->needs[i] << 2)) * 0x100000001b3u;
    return h;
}

static bool same_pairs(const trace_pairs *a, const trace_pairs *b, int words)
{
    for (int i = 0; i < words; i++)
        if (a->reads[i] != b->reads[i] || a->writes[i] != b->writes[i] || a->needs[i] != b->needs[i])
            return false;
    return true;
}

/* The traces of each class, in trace order (a counting sort). */
static void list_members(trace_classes *tc, int ntraces)
{
    tc->start = GC_MALLOC_ATOMIC(sizeof *tc->start * (size_t)(tc->count + 1));
    memset(tc->start, 0, sizeof *tc->start * (size_t)(tc->count + 1));
    for (int i = 0; i < ntraces; i++)
        tc->start[tc->of[i] + 1]++;
    for (int k = 0; k < tc->count; k++)
        tc->start[k + 1] += tc->start[k];
    int *fill = GC_MALLOC_ATOMIC(sizeof *fill * (size_t)(tc->count ? tc->count : 1));
    memcpy(fill, tc->start, sizeof *fill * (size_t)tc->count);
    tc->members = GC_MALLOC_ATOMIC(sizeof *tc->members * (size_t)(ntraces ? ntraces : 1));
    for (int i = 0; i < ntraces; i++)
        tc->members[fill[tc->of[i]]++] = i;
}

/* Numbers the distinct trace_pairs of one thread (open addressing on a
 * hash of their words; slots hold a representative trace + 1). */
static void classify_traces(const trace_pairs *tp, int ntraces, int words, trace_classes *tc)
{
    size_t size = 16;
    while (size < 2 * (size_t)ntraces)
        size *= 2;
    int *slot = GC_MALLOC_ATOMIC(sizeof *slot * size);
    memset(slot, 0, sizeof *slot * size);
    int *class_of_rep = GC_MALLOC_ATOMIC(sizeof *class_of_rep * (size_t)(ntraces ? ntraces : 1));
    tc->of = GC_MALLOC_ATOMIC(sizeof *tc->of * (size_t)(ntraces ? ntraces : 1));
    tc->count = 0;
    for (int i = 0; i < ntraces; i++) {
        size_t at = (size_t)pairs_hash(&tp[i], words) & (size - 1);
        while (slot[at] && !same_pairs(&tp[slot[at] - 1], &tp[i], words))
            at = (at + 1) & (size - 1);
        if (!slot[at]) {
            slot[at] = i + 1;
            class_of_rep[i] = tc->count++;
        }
        tc->of[i] = class_of_rep[slot[at] - 1];
    }
    int classes = tc->count ? tc->count : 1;
    list_members(tc, ntraces);
    tc->rep = GC_MALLOC(sizeof *tc->rep * (size_t)classes);
    for (int k = 0; k < tc->count; k++)
        tc->rep[k] = &tp[tc->members[tc->start[k]]];
    tc->passing = new_set((ntraces + 63) / 64 ? (ntraces + 63) / 64 : 1);
    tc->next = GC_MALLOC(sizeof *tc->next * (size_t)classes);
    uint64_t *sets = new_set(2 * words * classes);
    for (int k = 0; k < classes; k++)
        tc->next[k] = (chosen_pairs){sets + (size_t)(2 * k) * (size_t)words, sets + (size_t)(2 * k + 1) * (size_t)words};
}

trace_filter *trace_filter_build(const litmus_test *t, const tp_result *paths, bool coherent)
{
    trace_filter *f = GC_MALLOC(sizeof *f);
    pair_index px;
    memset(&px, 0, sizeof px);
    rehash(&px, 64);
    int ***ids = index_pairs(t, paths, &px);
    int words = f->words = (px.count + 63) / 64 ? (px.count + 63) / 64 : 1;
    f->paths = paths;
    f->nthreads = t->nthreads;
    f->init = new_set(words);
    for (int l = 0; l < t->nlocs; l++) {
        int i = t->locs[l].physical == l ? pair_find(&px, l, t->locs[l].init) : -1;
        if (i >= 0)
            set_put(f->init, i);
    }
    uint64_t *own = new_set(words);
    f->pairs = GC_MALLOC(sizeof *f->pairs * (size_t)(t->nthreads ? t->nthreads : 1));
    f->classes = GC_MALLOC(sizeof *f->classes * (size_t)(t->nthreads ? t->nthreads : 1));
    f->later = GC_MALLOC(sizeof *f->later * (size_t)(t->nthreads + 1));
    for (int th = 0; th < t->nthreads; th++) {
        const tp_thread *tt = &paths->threads[th];
        f->pairs[th] = GC_MALLOC(sizeof(trace_pairs) * (size_t)(tt->ntraces ? tt->ntraces : 1));
        uint64_t *block = new_set(3 * words * (tt->ntraces ? tt->ntraces : 1));
        for (int i = 0; i < tt->ntraces; i++)
            trace_pairs_of(&tt->traces[i], ids[th][i], coherent, words, block + (size_t)(3 * i) * (size_t)words,
                           own, &f->pairs[th][i]);
        classify_traces(f->pairs[th], tt->ntraces, words, &f->classes[th]);
    }
    f->later[t->nthreads] = new_set(words);
    for (int th = t->nthreads - 1; th >= 0; th--) {
        f->later[th] = new_set(words);
        set_or(f->later[th], f->later[th], f->later[th + 1], words);
        for (int i = 0; i < paths->threads[th].ntraces; i++)
            set_or(f->later[th], f->later[th], f->pairs[th][i].writes, words);
    }
    f->none = (chosen_pairs){new_set(words), new_set(words)};
    return f;
}

/* ---- the combinations ---- */

/* Adds trace tp of thread th to the choice so far; false when the pairs
 * that must still be written exceed what the threads after th may write. */
static inline bool extend_choice(const trace_filter *f, int th, const trace_pairs *tp, const chosen_pairs *so_far,
                                 chosen_pairs *out)
{
    if (f->words == 1) { /* most tests: the loop below, without the loop */
        uint64_t unmet = (so_far->unmet[0] & ~tp->writes[0]) | (tp->needs[0] & ~(f->init[0] | so_far->written[0]));
        out->written[0] = so_far->written[0] | tp->writes[0];
        out->unmet[0] = unmet;
        return (unmet & ~f->later[th + 1][0]) == 0;
    }
    for (int i = 0; i < f->words; i++) {
        out->written[i] = so_far->written[i] | tp->writes[i];
        /* the threads chosen before th are other threads to th, and th is
         * another thread to each of them */
        out->unmet[i] = (so_far->unmet[i] & ~tp->writes[i]) |
                        (tp->needs[i] & ~(f->init[i] | so_far->written[i]));
    }
    return set_within(out->unmet, f->later[th + 1], f->words);
}

typedef struct walk_ctx {
    const trace_filter *f;
    int *choice;
    bool (*visit)(void *ctx);
    bool (*poll)(void *ctx);
    void *ctx;
    int *cls;              /* any order: the class chosen per thread */
    unsigned ticks;
    bool stop;
} walk_ctx;

#define POLL_MASK 4095u   /* ask poll every 4096 tests */

static bool poll_now(walk_ctx *w)
{
    if ((++w->ticks & POLL_MASK) == 0 && w->poll && w->poll(w->ctx))
        w->stop = true;
    return w->stop;
}

/* In trace order: each class is tested once per choice of the threads
 * before, and only the traces of the classes that pass are walked (a loop
 * gives a thread hundreds of traces, of which a choice lets few through). */
static void choose(walk_ctx *w, int th, const chosen_pairs *so_far)
{
    const trace_filter *f = w->f;
    if (th == f->nthreads) {
        if (set_empty(so_far->unmet, f->words) && !w->visit(w->ctx))
            w->stop = true;
        return;
    }
    const trace_classes *tc = &f->classes[th];
    int words = (f->paths->threads[th].ntraces + 63) / 64;
    memset(tc->passing, 0, sizeof *tc->passing * (size_t)words);
    for (int k = 0; k < tc->count && !poll_now(w); k++) {
        if (extend_choice(f, th, tc->rep[k], so_far, &tc->next[k]))
            for (int j = tc->start[k]; j < tc->start[k + 1]; j++)
                set_put(tc->passing, tc->members[j]);
    }
    for (int i = 0; i < words && !w->stop; i++)
        for (uint64_t left = tc->passing[i]; left && !w->stop; left &= left - 1) {
            int trace = 64 * i + __builtin_ctzll(left);
            w->choice[th] = trace;
            choose(w, th + 1, &tc->next[tc->of[trace]]);
        }
}

/* Every combination of the traces of the classes w->cls[0..]. */
static void expand_classes(walk_ctx *w, int th)
{
    const trace_filter *f = w->f;
    if (th == f->nthreads) {
        if (!w->visit(w->ctx))
            w->stop = true;
        return;
    }
    const trace_classes *tc = &f->classes[th];
    int k = w->cls[th];
    for (int j = tc->start[k]; j < tc->start[k + 1] && !w->stop; j++) {
        w->choice[th] = tc->members[j];
        expand_classes(w, th + 1);
    }
}

/* In class order: the same pairs make the same decision at every later
 * thread, so the choice is made over classes, and only a combination of
 * classes that passes is expanded into its traces. */
static void choose_classes(walk_ctx *w, int th, const chosen_pairs *so_far)
{
    const trace_filter *f = w->f;
    if (th == f->nthreads) {
        if (set_empty(so_far->unmet, f->words))
            expand_classes(w, 0);
        return;
    }
    const trace_classes *tc = &f->classes[th];
    for (int k = 0; k < tc->count && !poll_now(w); k++) {
        if (!extend_choice(f, th, tc->rep[k], so_far, &tc->next[k]))
            continue;
        w->cls[th] = k;
        choose_classes(w, th + 1, &tc->next[k]);
    }
}

void trace_filter_each(const trace_filter *f, int *choice, bool any_order, bool (*visit)(void *ctx),
                       bool (*poll)(void *ctx), void *ctx)
{
    walk_ctx w = {f, choice, visit, poll, ctx, NULL, 0, false};
    if (!any_order) {
        choose(&w, 0, &f->none);
        return;
    }
    w.cls = GC_MALLOC_ATOMIC(sizeof *w.cls * (size_t)(f->nthreads ? f->nthreads : 1));
    choose_classes(&w, 0, &f->none);
}
