/* search/par_store.c: the lock-free visited set of the multi-threaded search
 * (see search/par_store.h for the contract, docs/search.md for the
 * design). */
#include "search/par_store.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define META_BYTES 6                /* uint32 parent + uint16 rule, as state_store.c */
#define RULE_NONE 0xFFFFu
#define FIRST_LOG2_SLOTS 12         /* 4 Ki slots: the last tenth holds every thread's in-flight claim */
#define MAX_LOG2_SLOTS 31
#define CHUNK_TARGET_BYTES ((size_t)1 << 20)
#define CHUNK_MIN_SHIFT 10
#define CHUNK_MAX_SHIFT 16

/* An array in chunks of 1 << shift elements of `elem` bytes; a chunk is
 * installed in the directory by the first thread that needs it. */
typedef struct chunked {
    _Atomic(uint8_t *) *dir;
    size_t ndir;
    size_t elem;
} chunked;

struct par_store {
    size_t state_bytes;
    size_t stride;                  /* state_bytes + META_BYTES */
    unsigned shift;                 /* records per chunk = 1 << shift */
    chunked arena;                  /* the records */
    chunked keys;                   /* per state of the level being built: its sort key (atomic) */
    chunked slots;                  /* ... and its table slot (for the renumbering) */
    _Atomic uint32_t count;
    _Atomic uint32_t *table;
    _Atomic uint32_t *next_table;   /* twice as large, while growing */
    unsigned lg;                    /* log2 of the table's slots */
    uint32_t level_start;
    _Atomic size_t bytes, peak;
    ss_limits lim;
};

/* ---- accounting ---- */

static void raise_peak(par_store *s, size_t now)
{
    size_t p = atomic_load_explicit(&s->peak, memory_order_relaxed);
    while (now > p && !atomic_compare_exchange_weak_explicit(&s->peak, &p, now, memory_order_relaxed,
                                                             memory_order_relaxed))
        ;
}

/* Takes `n` bytes from the budget; false (nothing taken) when it has not
 * got them. */
static bool take_bytes(par_store *s, size_t n)
{
    size_t before = atomic_fetch_add_explicit(&s->bytes, n, memory_order_relaxed);
    if (s->lim.max_bytes && before + n > s->lim.max_bytes) {
        atomic_fetch_sub_explicit(&s->bytes, n, memory_order_relaxed);
        return false;
    }
    raise_peak(s, before + n);
    return true;
}

static void give_bytes(par_store *s, size_t n)
{
    atomic_fetch_sub_explicit(&s->bytes, n, memory_order_relaxed);
}

/* ---- chunked arrays ---- */

static uint8_t *chunk_of(const par_store *s, const chunked *c, uint32_t i)
{
    uint8_t *base = atomic_load_explicit(&c->dir[i >> s->shift], memory_order_acquire);
    return base + (size_t)(i & (((uint32_t)1 << s->shift) - 1)) * c->elem;
}

/* The chunk holding element i exists (installing it if need be); false
 * when the budget or malloc refuses it. */
static bool ensure_chunk(par_store *s, chunked *c, uint32_t i)
{
    size_t k = i >> s->shift;
    if (k >= c->ndir)
        return false;
    if (atomic_load_explicit(&c->dir[k], memory_order_acquire))
        return true;
    size_t n = c->elem << s->shift;
    if (!take_bytes(s, n))
        return false;
    uint8_t *p = malloc(n);
    uint8_t *none = NULL;
    if (!p || !atomic_compare_exchange_strong_explicit(&c->dir[k], &none, p, memory_order_acq_rel,
                                                       memory_order_acquire)) {
        free(p);
        give_bytes(s, n);
        return p != NULL;            /* another thread installed it */
    }
    return true;
}

static bool chunked_init(par_store *s, chunked *c, size_t elem, size_t ndir)
{
    c->elem = elem;
    c->ndir = ndir;
    c->dir = calloc(ndir, sizeof *c->dir);
    return c->dir && take_bytes(s, ndir * sizeof *c->dir);
}

static void chunked_free(chunked *c)
{
    for (size_t k = 0; c->dir && k < c->ndir; k++)
        free(atomic_load_explicit(&c->dir[k], memory_order_relaxed));
    free(c->dir);
}

/* ---- records ---- */

static uint8_t *record(const par_store *s, uint32_t index) { return chunk_of(s, &s->arena, index); }

const uint8_t *ps_state(const par_store *s, uint32_t index) { return record(s, index); }

uint32_t ps_parent(const par_store *s, uint32_t index)
{
    uint32_t p;
    memcpy(&p, record(s, index) + s->state_bytes, sizeof p);
    return p;
}

int ps_rule(const par_store *s, uint32_t index)
{
    uint16_t r;
    memcpy(&r, record(s, index) + s->state_bytes + 4, sizeof r);
    return r == RULE_NONE ? SS_NO_RULE : (int)r;
}

uint32_t ps_count(const par_store *s) { return atomic_load_explicit(&s->count, memory_order_relaxed); }
uint32_t ps_level_start(const par_store *s) { return s->level_start; }
size_t ps_bytes(const par_store *s) { return atomic_load_explicit(&s->bytes, memory_order_relaxed); }
size_t ps_peak_bytes(const par_store *s) { return atomic_load_explicit(&s->peak, memory_order_relaxed); }
size_t ps_table_slots(const par_store *s) { return (size_t)1 << s->lg; }

uint64_t ps_key(uint32_t parent, uint32_t position, int rule)
{
    uint64_t pos = position > 0xFFFFu ? 0xFFFFu : position;
    uint64_t r = rule < 0 ? RULE_NONE : (uint64_t)rule;
    return (uint64_t)parent << 32 | pos << 16 | r;
}

static void write_meta(par_store *s, uint32_t index, uint64_t key)
{
    uint32_t parent = (uint32_t)(key >> 32);
    uint16_t rule = (uint16_t)(key & 0xFFFFu);
    uint8_t *r = record(s, index);
    memcpy(r + s->state_bytes, &parent, sizeof parent);
    memcpy(r + s->state_bytes + 4, &rule, sizeof rule);
}

static _Atomic uint64_t *key_at(const par_store *s, uint32_t index)
{
    return (_Atomic uint64_t *)chunk_of(s, &s->keys, index - s->level_start);
}

static uint32_t *slot_at(const par_store *s, uint32_t index)
{
    return (uint32_t *)chunk_of(s, &s->slots, index - s->level_start);
}

/* ---- the table ---- */

static uint32_t home_slot(uint64_t h, unsigned lg) { return (uint32_t)(h >> (64 - lg)); }
static uint32_t tag_of(uint64_t h, unsigned lg) { return (uint32_t)h & (((uint32_t)1 << (32 - lg)) - 1); }
static size_t table_bytes(unsigned lg) { return ((size_t)1 << lg) * sizeof(uint32_t); }

/* Slot values besides 0 (empty) and tag|index+1: a claimed slot whose
 * record is being written, and one whose insertion was refused. */
static uint32_t busy_field(unsigned lg) { return ((uint32_t)1 << lg) - 1; }
static uint32_t dead_field(unsigned lg) { return ((uint32_t)1 << lg) - 2; }

/* Waiting for another thread's record: tell the core (x86 `pause`). */
static void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static bool same_state(const uint8_t *a, const uint8_t *b, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            return false;
    }
    return memcmp(a + i, b + i, len - i) == 0;
}

void ps_prefetch(const par_store *s, uint64_t hash)
{
    __builtin_prefetch(&s->table[home_slot(hash, s->lg)]);
}

static bool too_full(const par_store *s)
{
    uint64_t n = (uint64_t)ps_count(s) + 1;
    return n * 10 > ((uint64_t)1 << s->lg) * 9;
}

static void lower_key(par_store *s, uint32_t index, uint64_t key)
{
    _Atomic uint64_t *k = key_at(s, index);
    uint64_t cur = atomic_load_explicit(k, memory_order_relaxed);
    while (key < cur && !atomic_compare_exchange_weak_explicit(k, &cur, key, memory_order_relaxed,
                                                               memory_order_relaxed))
        ;
}

/* Reserves the next index (never beyond max_states, and only with its
 * arena and level chunks in place), or says why not. */
static ps_status reserve_index(par_store *s, uint32_t *index)
{
    uint32_t r = atomic_load_explicit(&s->count, memory_order_relaxed);
    for (;;) {
        if ((s->lim.max_states && r >= s->lim.max_states) || r >= dead_field(s->lg) - 2)
            return PS_FULL_STATES;
        if (!ensure_chunk(s, &s->arena, r) || !ensure_chunk(s, &s->keys, r - s->level_start) ||
            !ensure_chunk(s, &s->slots, r - s->level_start))
            return PS_FULL_MEMORY;
        if (atomic_compare_exchange_weak_explicit(&s->count, &r, r + 1, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *index = r;
            return PS_NEW;
        }
    }
}

/* The slot at `pos` is ours (BUSY): store the state and publish it. */
static ps_status fill_slot(par_store *s, uint32_t pos, uint32_t tag, const uint8_t *state, uint64_t key,
                           uint32_t *index)
{
    unsigned lg = s->lg;
    uint32_t i;
    ps_status st = reserve_index(s, &i);
    if (st != PS_NEW) {
        atomic_store_explicit(&s->table[pos], tag << lg | dead_field(lg), memory_order_release);
        return st;
    }
    memcpy(record(s, i), state, s->state_bytes);
    write_meta(s, i, key);
    atomic_store_explicit(key_at(s, i), key, memory_order_relaxed);
    *slot_at(s, i) = pos;
    atomic_store_explicit(&s->table[pos], tag << lg | (i + 1), memory_order_release);
    *index = i;
    return PS_NEW;
}

/* A slot whose tag matches: waits while it is being filled; true and
 * *index when it holds `state`. */
static bool slot_holds(par_store *s, uint32_t pos, uint32_t v, const uint8_t *state, uint32_t *index)
{
    unsigned lg = s->lg;
    uint32_t mask = busy_field(lg);
    while ((v & mask) == busy_field(lg)) {
        spin_pause();
        v = atomic_load_explicit(&s->table[pos], memory_order_acquire);
    }
    if ((v & mask) == dead_field(lg))
        return false;
    uint32_t i = (v & mask) - 1;
    if (!same_state(record(s, i), state, s->state_bytes))
        return false;
    *index = i;
    return true;
}

ps_status ps_insert(par_store *s, const uint8_t *state, uint64_t h, uint64_t key, uint32_t *index)
{
    unsigned lg = s->lg;
    uint32_t mask = busy_field(lg), tag = tag_of(h, lg);
    uint32_t pos = home_slot(h, lg);
    for (;;) {
        uint32_t v = atomic_load_explicit(&s->table[pos], memory_order_acquire);
        if (v == 0) {
            if (too_full(s))
                return PS_TABLE_FULL;
            if (atomic_compare_exchange_strong_explicit(&s->table[pos], &v, tag << lg | busy_field(lg),
                                                        memory_order_acq_rel, memory_order_acquire))
                return fill_slot(s, pos, tag, state, key, index);
            continue;                /* taken meanwhile: look at it again */
        }
        if ((v >> lg) == tag && slot_holds(s, pos, v, state, index)) {
            if (*index >= s->level_start)
                lower_key(s, *index, key);
            return PS_OLD;
        }
        pos = (pos + 1) & mask;
    }
}

/* ---- growth (no insert in flight) ---- */

/* Places a stored state in the table being built; several threads may
 * place different states at once.  Returns its slot. */
static uint32_t place(_Atomic uint32_t *t, unsigned lg, uint64_t h, uint32_t index)
{
    uint32_t mask = busy_field(lg);
    uint32_t v = tag_of(h, lg) << lg | (index + 1);
    for (uint32_t pos = home_slot(h, lg);; pos = (pos + 1) & mask) {
        uint32_t none = 0;
        if (atomic_load_explicit(&t[pos], memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong_explicit(&t[pos], &none, v, memory_order_relaxed, memory_order_relaxed))
            return pos;
    }
}

bool ps_should_grow(const par_store *s, uint64_t expected)
{
    return ((uint64_t)ps_count(s) + expected) * 4 > ((uint64_t)1 << s->lg) * 3;
}

ps_status ps_grow_refusal(const par_store *s)
{
    return s->lg + 1 > MAX_LOG2_SLOTS ? PS_FULL_STATES : PS_FULL_MEMORY;
}

bool ps_grow_begin(par_store *s)
{
    unsigned lg = s->lg + 1;
    if (lg > MAX_LOG2_SLOTS || !take_bytes(s, table_bytes(lg)))
        return false;
    s->next_table = calloc((size_t)1 << lg, sizeof *s->next_table);
    if (!s->next_table) {
        give_bytes(s, table_bytes(lg));
        return false;
    }
    return true;
}

void ps_grow_part(par_store *s, uint32_t from, uint32_t to)
{
    unsigned lg = s->lg + 1;
    for (uint32_t i = from; i < to; i++) {
        uint32_t pos = place(s->next_table, lg, ss_hash(record(s, i), s->state_bytes), i);
        if (i >= s->level_start)
            *slot_at(s, i) = pos;
    }
}

void ps_grow_end(par_store *s)
{
    give_bytes(s, table_bytes(s->lg));
    free(s->table);
    s->table = s->next_table;
    s->next_table = NULL;
    s->lg++;
}

bool ps_grow(par_store *s)
{
    if (!ps_grow_begin(s))
        return false;
    ps_grow_part(s, 0, ps_count(s));
    ps_grow_end(s);
    return true;
}

/* ---- levels (no insert in flight) ---- */

void ps_begin_level(par_store *s) { s->level_start = ps_count(s); }

/* order[0..n-1]: the level's states (offsets from its start) by key: a
 * counting sort on the parent, then by position within each parent's
 * (few) successors.  False when out of memory. */
static bool sort_by_key(const uint64_t *k, uint32_t n, uint32_t *order)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t p = (uint32_t)(k[j] >> 32);
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
    }
    uint32_t *start = calloc((size_t)(hi - lo) + 2, sizeof *start);
    if (!start)
        return false;
    for (uint32_t j = 0; j < n; j++)
        start[(k[j] >> 32) - lo + 1]++;
    for (size_t p = 1; p <= (size_t)(hi - lo) + 1; p++)
        start[p] += start[p - 1];
    for (uint32_t j = 0; j < n; j++)
        order[start[(k[j] >> 32) - lo]++] = j;
    free(start);
    for (uint32_t q = 1; q < n; q++) {       /* within a parent's run only */
        uint32_t x = order[q], at = q;
        while (at > 0 && k[order[at - 1]] > k[x]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = x;
    }
    return true;
}

/* Moves each record j of the level to moved[j] (cycle by cycle, one spare
 * record). */
static bool permute_records(par_store *s, const uint32_t *moved, uint32_t n)
{
    uint32_t ls = s->level_start;
    uint8_t *done = calloc(n, 1), *tmp = malloc(2 * s->stride);
    if (!done || !tmp) {
        free(done);
        free(tmp);
        return false;
    }
    uint8_t *carry = tmp, *spare = tmp + s->stride;
    for (uint32_t start = 0; start < n; start++) {
        if (done[start])
            continue;
        memcpy(carry, record(s, ls + start), s->stride);
        for (uint32_t cur = start;;) {
            uint32_t d = moved[cur] - ls;
            done[cur] = 1;
            if (d == start) {
                memcpy(record(s, ls + start), carry, s->stride);
                break;
            }
            memcpy(spare, record(s, ls + d), s->stride);
            memcpy(record(s, ls + d), carry, s->stride);
            uint8_t *x = carry;
            carry = spare;
            spare = x;
            cur = d;
        }
    }
    free(done);
    free(tmp);
    return true;
}

/* The new order of the level: moved[j] = its new index; NULL when out of
 * memory. */
static uint32_t *new_order(const uint64_t *k, uint32_t n, uint32_t ls)
{
    uint32_t *order = malloc((size_t)n * sizeof *order);
    uint32_t *moved = malloc((size_t)n * sizeof *moved);
    if (!order || !moved || !sort_by_key(k, n, order)) {
        free(order);
        free(moved);
        return NULL;
    }
    for (uint32_t q = 0; q < n; q++)
        moved[order[q]] = ls + q;
    free(order);
    return moved;
}

bool ps_end_level(par_store *s, uint32_t **moved_out)
{
    uint32_t ls = s->level_start, n = ps_count(s) - ls;
    *moved_out = NULL;
    if (n == 0)
        return true;
    uint64_t *k = malloc((size_t)n * sizeof *k);
    if (!k)
        return false;
    for (uint32_t j = 0; j < n; j++)
        k[j] = atomic_load_explicit(key_at(s, ls + j), memory_order_relaxed);
    uint32_t *moved = new_order(k, n, ls);
    if (moved && !permute_records(s, moved, n)) {
        free(moved);
        moved = NULL;
    }
    uint32_t mask = busy_field(s->lg);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t to = moved ? moved[j] : ls + j;
        write_meta(s, to, k[j]);
        if (moved) {
            uint32_t pos = *slot_at(s, ls + j);
            uint32_t v = atomic_load_explicit(&s->table[pos], memory_order_relaxed);
            atomic_store_explicit(&s->table[pos], (v & ~mask) | (to + 1), memory_order_relaxed);
        }
    }
    free(k);
    *moved_out = moved;
    return moved != NULL;
}

/* ---- creation ---- */

static unsigned chunk_shift_for(size_t stride, size_t max_bytes)
{
    size_t target = CHUNK_TARGET_BYTES;
    if (max_bytes && max_bytes / 16 < target)
        target = max_bytes / 16;
    unsigned shift = CHUNK_MAX_SHIFT;
    while (shift > CHUNK_MIN_SHIFT && (stride << shift) > target)
        shift--;
    return shift;
}

/* As state_store.c: with a budget, the largest table that filled to 3/4
 * leaves room for the states it then holds. */
static unsigned first_log2_slots(size_t stride, size_t max_bytes)
{
    unsigned lg = FIRST_LOG2_SLOTS;
    if (!max_bytes)
        return lg;
    while (lg < MAX_LOG2_SLOTS) {
        uint64_t slots = (uint64_t)1 << (lg + 1);
        if (slots * sizeof(uint32_t) + slots / 4 * 3 * stride > max_bytes)
            break;
        lg++;
    }
    return lg;
}

/* Directory entries: enough chunks for every index the limits allow. */
static size_t directory_size(const par_store *s)
{
    uint64_t most = (uint64_t)1 << 32;
    if (s->lim.max_states && s->lim.max_states < most)
        most = s->lim.max_states + 1;
    size_t chunk = s->stride << s->shift;
    if (s->lim.max_bytes && s->lim.max_bytes / chunk + 1 < (most >> s->shift) + 1)
        return s->lim.max_bytes / chunk + 1;
    return (size_t)(most >> s->shift) + 1;
}

par_store *ps_create(size_t state_bytes, const ss_limits *limits)
{
    if (state_bytes == 0)
        return NULL;
    par_store *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (limits)
        s->lim = *limits;
    s->state_bytes = state_bytes;
    s->stride = state_bytes + META_BYTES;
    s->shift = chunk_shift_for(s->stride, s->lim.max_bytes);
    s->lg = first_log2_slots(s->stride, s->lim.max_bytes);
    size_t ndir = directory_size(s);
    bool ok = take_bytes(s, sizeof *s + table_bytes(s->lg)) && chunked_init(s, &s->arena, s->stride, ndir) &&
              chunked_init(s, &s->keys, sizeof(uint64_t), ndir) && chunked_init(s, &s->slots, sizeof(uint32_t), ndir);
    s->table = ok ? calloc((size_t)1 << s->lg, sizeof *s->table) : NULL;
    if (!s->table) {
        ps_destroy(s);
        return NULL;
    }
    return s;
}

void ps_destroy(par_store *s)
{
    if (!s)
        return;
    chunked_free(&s->arena);
    chunked_free(&s->keys);
    chunked_free(&s->slots);
    free(s->table);
    free(s->next_table);
    free(s);
}
