/* search/tree_store.c: recursive tree compression of states (see
 * search/tree_store.h for the contract, docs/search.md for the layout). */
#include "search/tree_store.h"

#include <stdlib.h>
#include <string.h>

#include "search/store_mem.h"

#define FIRST_LOG2_SLOTS 10
#define MAX_LOG2_SLOTS 31
#define PAIR_CHUNK_SHIFT 13     /* 8 K pairs, 64 KiB a chunk */
#define META_CHUNK_SHIFT 14     /* 16 K parents and rules, 96 KiB */
#define META_BYTES 6            /* uint32 parent + uint16 rule */
#define RULE_NONE 0xFFFFu
/* The inner sets' memo of recent lookups: successors of nearby states
 * share most sub-vectors, and a hit there spares a probe of a table that
 * may be far larger than the cache. */
#define MEMO_LOG2 12

/* One inner node position: the distinct pairs met there, numbered in
 * insertion order, and an open-addressing table of 32-bit slots over them
 * (index+1 in the low lg bits, a hash tag in the high bits, as in
 * state_store.c). */
typedef struct pair_memo {
    uint64_t pair;
    uint32_t ref;               /* ref + 1; 0: empty */
    uint32_t unused;
} pair_memo;

typedef struct pair_set {
    chunk_array pairs;          /* uint64: left | right << 32 */
    uint32_t *table;
    unsigned lg;
    pair_memo *memo;            /* MEMO_SLOTS recent lookups, direct-mapped (inner sets only) */
} pair_set;

/* A child of an inner node: another node (>= 0) or a word (~word < 0). */
typedef struct tree_node {
    int left, right;
} tree_node;

struct tree_store {
    size_t state_bytes;
    int nwords, nnodes;
    tree_node *node;            /* pre-order: a child follows its parent */
    pair_set *set;              /* one per node; set[0] is the root: pair number = state index */
    chunk_array meta;           /* per state: parent, rule */
    uint64_t max_states;
    store_budget mem;
    uint32_t *words;            /* scratch: the state being inserted, as words */
    uint32_t *ref;              /* scratch: each node's reference */
    uint32_t *read_ref, *read_words;   /* ts_get's scratch (the hint's stays intact) */
    uint64_t *read_pair;
    uint32_t *bwords, *bref;    /* ts_roots' scratch: TS_BATCH states' words and references */
    bool hint;                  /* the references of the state last ts_load()ed: */
    uint32_t *hint_ref;
    uint64_t *hint_pair;
};

/* ---- the tree's shape ---- */

static int child(tree_store *t, int lo, int hi);

/* Builds the node over words lo..hi-1 (at least two), pre-order. */
static int build(tree_store *t, int lo, int hi)
{
    int k = t->nnodes++;
    int mid = lo + (hi - lo + 1) / 2;
    t->node[k].left = child(t, lo, mid);
    t->node[k].right = child(t, mid, hi);
    return k;
}

static int child(tree_store *t, int lo, int hi)
{
    return hi - lo == 1 ? ~lo : build(t, lo, hi);
}

/* ---- pair sets ---- */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDULL;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ULL;
    x ^= x >> 33;
    return x;
}

static size_t table_bytes(unsigned lg)
{
    return ((size_t)1 << lg) * sizeof(uint32_t);
}

static uint32_t home_slot(uint64_t h, unsigned lg)
{
    return (uint32_t)(h >> (64 - lg));
}

static uint32_t tag_of(uint64_t h, unsigned lg)
{
    return (uint32_t)h & (((uint32_t)1 << (32 - lg)) - 1);
}

static uint64_t pair_at(const pair_set *p, uint32_t i)
{
    uint64_t v;
    memcpy(&v, ca_at(&p->pairs, i), sizeof v);
    return v;
}

/* True and *ref when `pair` is in the set; else false and *empty. */
static bool ps_probe(const pair_set *p, uint64_t pair, uint64_t h, uint32_t *ref, uint32_t *empty)
{
    unsigned lg = p->lg;
    uint32_t mask = ((uint32_t)1 << lg) - 1, tag = tag_of(h, lg);
    for (uint32_t pos = home_slot(h, lg);; pos = (pos + 1) & mask) {
        uint32_t v = p->table[pos];
        if (v == 0) {
            *empty = pos;
            return false;
        }
        if ((v >> lg) == tag && pair_at(p, (v & mask) - 1) == pair) {
            *ref = (v & mask) - 1;
            return true;
        }
    }
}

static void ps_place(uint32_t *table, unsigned lg, uint64_t h, uint32_t i)
{
    uint32_t mask = ((uint32_t)1 << lg) - 1, pos = home_slot(h, lg);
    while (table[pos] != 0)
        pos = (pos + 1) & mask;
    table[pos] = (tag_of(h, lg) << lg) | (i + 1);
}

static size_t memo_bytes(void)
{
    return sizeof(pair_memo) << MEMO_LOG2;
}

static bool ps_init(pair_set *p, store_budget *b, bool memo)
{
    ca_init(&p->pairs, sizeof(uint64_t), PAIR_CHUNK_SHIFT);
    p->lg = FIRST_LOG2_SLOTS;
    if (memo) {
        if (!sb_allows(b, memo_bytes()) || !(p->memo = calloc(1, memo_bytes())))
            return false;
        sb_account(b, memo_bytes(), 0);
    }
    if (!sb_allows(b, table_bytes(p->lg)))
        return false;
    p->table = calloc((size_t)1 << p->lg, sizeof *p->table);
    if (p->table)
        sb_account(b, table_bytes(p->lg), 0);
    return p->table != NULL;
}

static void ps_free(pair_set *p, store_budget *b)
{
    ca_free(&p->pairs, b);
    if (p->memo)
        sb_account(b, 0, memo_bytes());
    free(p->memo);
    if (p->table)
        sb_account(b, 0, table_bytes(p->lg));
    free(p->table);
}

/* Doubles the table, rehashing the pairs in number order. */
static bool ps_grow(pair_set *p, store_budget *b)
{
    unsigned lg = p->lg + 1;
    if (lg > MAX_LOG2_SLOTS || !sb_allows(b, table_bytes(lg)))
        return false;
    uint32_t *t = calloc((size_t)1 << lg, sizeof *t);
    if (!t)
        return false;
    for (uint32_t i = 0; i < p->pairs.count; i++)
        ps_place(t, lg, mix64(pair_at(p, i)), i);
    sb_account(b, table_bytes(lg), table_bytes(p->lg));
    free(p->table);
    p->table = t;
    p->lg = lg;
    return true;
}

/* Room for one more pair: doubles at 3/4 load, else fills to 9/10. */
static ss_status ps_room(pair_set *p, store_budget *b)
{
    uint64_t slots = (uint64_t)1 << p->lg, n = p->pairs.count + 1;
    if (!(n * 4 <= slots * 3 || ps_grow(p, b)) && n * 10 > slots * 9)
        return p->lg >= MAX_LOG2_SLOTS ? SS_FULL_STATES : SS_FULL_MEMORY;
    return ca_reserve(&p->pairs, b) ? SS_NEW : SS_FULL_MEMORY;
}

static ss_status ps_add(pair_set *p, store_budget *b, uint64_t pair, uint64_t h, bool room_left, uint32_t *ref);

/* The number of `pair` in the set, adding it unless `room_left` is false
 * (the state limit, for the root). */
/* The memo's entry for a pair of hash h (NULL: the set has none). */
static pair_memo *memo_of(const pair_set *p, uint64_t h)
{
    return p->memo ? &p->memo[h & ((1u << MEMO_LOG2) - 1)] : NULL;
}

static ss_status ps_intern(pair_set *p, store_budget *b, uint64_t pair, bool room_left, uint32_t *ref)
{
    uint64_t h = mix64(pair);
    pair_memo *memo = memo_of(p, h);
    if (memo && memo->ref && memo->pair == pair) {
        *ref = memo->ref - 1;
        return SS_OLD;
    }
    ss_status st = ps_add(p, b, pair, h, room_left, ref);
    if (memo && (st == SS_OLD || st == SS_NEW))
        *memo = (pair_memo){pair, *ref + 1, 0};
    return st;
}

static ss_status ps_add(pair_set *p, store_budget *b, uint64_t pair, uint64_t h, bool room_left, uint32_t *ref)
{
    uint32_t empty;
    if (ps_probe(p, pair, h, ref, &empty))
        return SS_OLD;
    if (!room_left)
        return SS_FULL_STATES;
    unsigned lg = p->lg;
    ss_status st = ps_room(p, b);
    if (st != SS_NEW)
        return st;
    uint32_t i = (uint32_t)p->pairs.count;
    memcpy(ca_push(&p->pairs), &pair, sizeof pair);
    if (lg != p->lg)
        ps_place(p->table, p->lg, h, i);
    else
        p->table[empty] = (tag_of(h, lg) << lg) | (i + 1);
    *ref = i;
    return SS_NEW;
}

/* ---- the store ---- */

tree_store *ts_create(size_t state_bytes, const ss_limits *limits)
{
    if (state_bytes == 0 || state_bytes > (size_t)1 << 20)
        return NULL;
    tree_store *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->state_bytes = state_bytes;
    t->nwords = (int)((state_bytes + 3) / 4);
    if (t->nwords < 2)
        t->nwords = 2;
    if (limits) {
        t->mem.max = limits->max_bytes;
        t->max_states = limits->max_states;
    }
    int n = t->nwords - 1;
    t->node = calloc((size_t)n, sizeof *t->node);
    t->set = calloc((size_t)n, sizeof *t->set);
    t->words = calloc((size_t)t->nwords, sizeof *t->words);
    t->ref = calloc((size_t)n, sizeof *t->ref);
    t->hint_ref = calloc((size_t)n, sizeof *t->hint_ref);
    t->hint_pair = calloc((size_t)n, sizeof *t->hint_pair);
    t->read_ref = calloc((size_t)n, sizeof *t->read_ref);
    t->bwords = calloc((size_t)TS_BATCH * (size_t)t->nwords, sizeof *t->bwords);
    t->bref = calloc((size_t)TS_BATCH * (size_t)n, sizeof *t->bref);
    t->read_pair = calloc((size_t)n, sizeof *t->read_pair);
    t->read_words = calloc((size_t)t->nwords, sizeof *t->read_words);
    ca_init(&t->meta, META_BYTES, META_CHUNK_SHIFT);
    sb_account(&t->mem, sizeof *t + (size_t)n * (sizeof *t->node + sizeof *t->set + 3 * sizeof *t->ref +
                                                 2 * sizeof *t->hint_pair + TS_BATCH * sizeof *t->bref) +
                                   (size_t)t->nwords * (8 + TS_BATCH * sizeof *t->bwords), 0);
    bool ok = t->node && t->set && t->words && t->ref && t->hint_ref && t->hint_pair &&
              t->read_ref && t->read_pair && t->read_words && t->bwords && t->bref &&
              sb_allows(&t->mem, 0);
    if (ok)
        build(t, 0, t->nwords);
    for (int k = 0; ok && k < n; k++)
        ok = ps_init(&t->set[k], &t->mem, k > 0);
    if (!ok) {
        ts_destroy(t);
        return NULL;
    }
    return t;
}

void ts_destroy(tree_store *t)
{
    if (!t)
        return;
    for (int k = 0; t->set && k < t->nnodes; k++)
        ps_free(&t->set[k], &t->mem);
    ca_free(&t->meta, &t->mem);
    free(t->node);
    free(t->set);
    free(t->words);
    free(t->ref);
    free(t->hint_ref);
    free(t->hint_pair);
    free(t->read_ref);
    free(t->bwords);
    free(t->bref);
    free(t->read_pair);
    free(t->read_words);
    free(t);
}

static uint32_t child_ref(const tree_store *t, int c)
{
    return c < 0 ? t->words[~c] : t->ref[c];
}

/* Interns every inner node of t->words but the root, bottom-up (children
 * follow their parent in t->node), and writes the root's pair.  A node
 * whose pair is that of the state last loaded keeps its reference without
 * a lookup. */
static ss_status intern_inner(tree_store *t, uint64_t *root)
{
    for (int k = t->nnodes - 1; k > 0; k--) {
        uint64_t pair = child_ref(t, t->node[k].left) | (uint64_t)child_ref(t, t->node[k].right) << 32;
        if (t->hint && t->hint_pair[k] == pair) {
            t->ref[k] = t->hint_ref[k];
            continue;
        }
        ss_status st = ps_intern(&t->set[k], &t->mem, pair, true, &t->ref[k]);
        if (st != SS_NEW && st != SS_OLD)
            return st;
    }
    *root = child_ref(t, t->node[0].left) | (uint64_t)child_ref(t, t->node[0].right) << 32;
    return SS_NEW;
}

/* A node's pair from its children in `words` and `ref`. */
static uint64_t node_pair(const tree_store *t, int k, const uint32_t *words, const uint32_t *ref)
{
    int l = t->node[k].left, r = t->node[k].right;
    uint64_t lv = l < 0 ? words[~l] : ref[l], rv = r < 0 ? words[~r] : ref[r];
    return lv | rv << 32;
}

/* Node k of the batch's states: the hint or the memo answers where they
 * can; the others' home slots are prefetched, then looked up, so that
 * their cache misses overlap. */
static ss_status intern_node_batch(tree_store *t, int k, int n)
{
    pair_set *p = &t->set[k];
    uint64_t pair[TS_BATCH], h[TS_BATCH];
    bool need[TS_BATCH];
    for (int i = 0; i < n; i++) {
        uint32_t *ref = t->bref + (size_t)i * t->nnodes;
        pair[i] = node_pair(t, k, t->bwords + (size_t)i * t->nwords, ref);
        need[i] = false;
        if (t->hint && t->hint_pair[k] == pair[i]) {
            ref[k] = t->hint_ref[k];
            continue;
        }
        h[i] = mix64(pair[i]);
        pair_memo *memo = memo_of(p, h[i]);
        if (memo && memo->ref && memo->pair == pair[i]) {
            ref[k] = memo->ref - 1;
            continue;
        }
        need[i] = true;
        __builtin_prefetch(&p->table[home_slot(h[i], p->lg)]);
    }
    for (int i = 0; i < n; i++) {
        if (!need[i])
            continue;
        uint32_t *ref = t->bref + (size_t)i * t->nnodes;
        ss_status st = ps_add(p, &t->mem, pair[i], h[i], true, &ref[k]);
        if (st != SS_NEW && st != SS_OLD)
            return st;
        pair_memo *memo = memo_of(p, h[i]);
        if (memo)
            *memo = (pair_memo){pair[i], ref[k] + 1, 0};
    }
    return SS_NEW;
}

ss_status ts_roots(tree_store *t, const uint8_t *states, size_t stride, int n, uint64_t *roots)
{
    for (int i = 0; i < n; i++) {
        uint32_t *w = t->bwords + (size_t)i * t->nwords;
        w[t->nwords - 1] = 0;
        memcpy(w, states + (size_t)i * stride, t->state_bytes);
    }
    for (int k = t->nnodes - 1; k > 0; k--) {
        ss_status st = intern_node_batch(t, k, n);
        if (st != SS_NEW)
            return st;
    }
    for (int i = 0; i < n; i++) {
        roots[i] = node_pair(t, 0, t->bwords + (size_t)i * t->nwords, t->bref + (size_t)i * t->nnodes);
        ts_prefetch(t, roots[i]);
    }
    return SS_NEW;
}

static void to_words(tree_store *t, const uint8_t *state)
{
    t->words[t->nwords - 1] = 0;
    memcpy(t->words, state, t->state_bytes);
}

ss_status ts_root(tree_store *t, const uint8_t *state, uint64_t *root)
{
    to_words(t, state);
    return intern_inner(t, root);
}

void ts_prefetch(const tree_store *t, uint64_t root)
{
    const pair_set *p = &t->set[0];
    __builtin_prefetch(&p->table[home_slot(mix64(root), p->lg)]);
}

ss_status ts_insert_root(tree_store *t, uint64_t root, uint32_t parent, int rule, uint32_t *index)
{
    uint32_t empty;
    if (ps_probe(&t->set[0], root, mix64(root), index, &empty))
        return SS_OLD;
    if (t->max_states && t->set[0].pairs.count >= t->max_states)
        return SS_FULL_STATES;
    if (!ca_reserve(&t->meta, &t->mem))   /* the parent's room first: a root without one is never stored */
        return SS_FULL_MEMORY;
    ss_status st = ps_intern(&t->set[0], &t->mem, root, true, index);
    if (st == SS_NEW) {
        uint8_t *m = ca_push(&t->meta);
        uint16_t r16 = rule < 0 ? (uint16_t)RULE_NONE : (uint16_t)rule;
        memcpy(m, &parent, 4);
        memcpy(m + 4, &r16, 2);
    }
    return st;
}

ss_status ts_insert(tree_store *t, const uint8_t *state, uint32_t parent, int rule, uint32_t *index)
{
    uint64_t root;
    ss_status st = ts_root(t, state, &root);
    return st == SS_NEW ? ts_insert_root(t, root, parent, rule, index) : st;
}

/* Looks up without adding a state (inner pairs of a state not stored may
 * be added: harmless; a stored state adds none). */
bool ts_find(tree_store *t, const uint8_t *state, uint32_t *index)
{
    uint64_t root;
    uint32_t empty;
    return ts_root(t, state, &root) == SS_NEW && ps_probe(&t->set[0], root, mix64(root), index, &empty);
}

/* Reads state `index` top-down: each node's reference and pair (parents
 * before children) into ref and pair, the words into `words`. */
static void unfold(const tree_store *t, uint32_t index, uint32_t *ref, uint64_t *pair, uint32_t *words)
{
    ref[0] = index;
    for (int k = 0; k < t->nnodes; k++) {
        uint64_t p = pair_at(&t->set[k], ref[k]);
        pair[k] = p;
        int l = t->node[k].left, r = t->node[k].right;
        if (l < 0)
            words[~l] = (uint32_t)p;
        else
            ref[l] = (uint32_t)p;
        if (r < 0)
            words[~r] = (uint32_t)(p >> 32);
        else
            ref[r] = (uint32_t)(p >> 32);
    }
}

void ts_get(tree_store *t, uint32_t index, uint8_t *out)
{
    unfold(t, index, t->read_ref, t->read_pair, t->read_words);
    memcpy(out, t->read_words, t->state_bytes);
}

void ts_load(tree_store *t, uint32_t index, uint8_t *out)
{
    unfold(t, index, t->hint_ref, t->hint_pair, t->words);
    t->hint = true;
    memcpy(out, t->words, t->state_bytes);
}

uint32_t ts_parent(const tree_store *t, uint32_t index)
{
    uint32_t p;
    memcpy(&p, ca_at(&t->meta, index), 4);
    return p;
}

int ts_rule(const tree_store *t, uint32_t index)
{
    uint16_t r;
    memcpy(&r, ca_at(&t->meta, index) + 4, 2);
    return r == RULE_NONE ? SS_NO_RULE : (int)r;
}

uint32_t ts_count(const tree_store *t) { return (uint32_t)t->set[0].pairs.count; }
size_t ts_bytes(const tree_store *t) { return t->mem.bytes; }
size_t ts_peak_bytes(const tree_store *t) { return t->mem.peak; }

uint64_t ts_pairs(const tree_store *t)
{
    uint64_t n = 0;
    for (int k = 0; k < t->nnodes; k++)
        n += t->set[k].pairs.count;
    return n;
}
