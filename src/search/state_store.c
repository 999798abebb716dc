/* search/state_store.c: arena of packed state records + open-addressing set of
 * 32-bit slots (see search/state_store.h for the contract, docs/search.md for the
 * layout). */
#include "search/state_store.h"

#include <stdlib.h>
#include <string.h>

#define META_BYTES 6            /* uint32 parent + uint16 rule */
#define RULE_NONE 0xFFFFu
#define FIRST_LOG2_SLOTS 10     /* 1024 slots, 4 KiB */
#define MAX_LOG2_SLOTS 31
#define CHUNK_TARGET_BYTES ((size_t)1 << 20)
#define CHUNK_MIN_SHIFT 10
#define CHUNK_MAX_SHIFT 16

struct state_store {
    size_t state_bytes;
    size_t stride;              /* state_bytes + META_BYTES */
    unsigned chunk_shift;       /* records per chunk = 1 << chunk_shift */
    size_t chunk_bytes;
    uint8_t **chunks;
    size_t nchunks, chunks_cap;
    uint32_t count;
    uint32_t *table;
    unsigned log2_slots;
    size_t bytes, peak;
    ss_limits lim;
};

/* ---- Hashing ---- */

static uint64_t final_mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

uint64_t ss_hash(const uint8_t *bytes, size_t len)
{
    const uint64_t k = 0x9E3779B97F4A7C15ULL;
    uint64_t h = k ^ (uint64_t)len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, bytes + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    if (i < len) {
        uint64_t w = 0;
        memcpy(&w, bytes + i, len - i);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    return final_mix(h);
}

/* ---- Records ---- */

/* Equality of two states, a word at a time (states are short; a libc call
 * per probe costs more than the compare). */
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

static uint8_t *record(const state_store *s, uint32_t index)
{
    uint32_t mask = ((uint32_t)1 << s->chunk_shift) - 1;
    return s->chunks[index >> s->chunk_shift] + (size_t)(index & mask) * s->stride;
}

const uint8_t *ss_state(const state_store *s, uint32_t index)
{
    return record(s, index);
}

uint32_t ss_parent(const state_store *s, uint32_t index)
{
    uint32_t p;
    memcpy(&p, record(s, index) + s->state_bytes, sizeof p);
    return p;
}

int ss_rule(const state_store *s, uint32_t index)
{
    uint16_t r;
    memcpy(&r, record(s, index) + s->state_bytes + 4, sizeof r);
    return r == RULE_NONE ? SS_NO_RULE : (int)r;
}

uint32_t ss_count(const state_store *s) { return s->count; }
size_t ss_state_bytes(const state_store *s) { return s->state_bytes; }
size_t ss_bytes(const state_store *s) { return s->bytes; }
size_t ss_peak_bytes(const state_store *s) { return s->peak; }
size_t ss_table_slots(const state_store *s) { return (size_t)1 << s->log2_slots; }

double ss_bytes_per_state(const state_store *s)
{
    return s->count ? (double)s->bytes / (double)s->count : 0.0;
}

/* ---- Accounting ---- */

static bool budget_allows(const state_store *s, size_t extra)
{
    return s->lim.max_bytes == 0 || s->bytes + extra <= s->lim.max_bytes;
}

static void account(state_store *s, size_t added, size_t removed)
{
    s->bytes += added;
    if (s->bytes > s->peak)
        s->peak = s->bytes;
    s->bytes -= removed;
}

/* ---- Table ---- */

static size_t table_bytes(unsigned log2_slots)
{
    return ((size_t)1 << log2_slots) * sizeof(uint32_t);
}

static uint32_t home_slot(uint64_t h, unsigned log2_slots)
{
    return (uint32_t)(h >> (64 - log2_slots));
}

static uint32_t tag_of(uint64_t h, unsigned log2_slots)
{
    return (uint32_t)h & (((uint32_t)1 << (32 - log2_slots)) - 1);
}

/* Linear probing from the home slot: true and *index when found, else
 * false and *empty = the first empty slot. */
static bool probe(const state_store *s, const uint8_t *state, uint64_t h, uint32_t *index,
                  uint32_t *empty)
{
    unsigned lg = s->log2_slots;
    uint32_t mask = ((uint32_t)1 << lg) - 1;
    uint32_t tag = tag_of(h, lg);
    for (uint32_t pos = home_slot(h, lg);; pos = (pos + 1) & mask) {
        uint32_t v = s->table[pos];
        if (v == 0) {
            *empty = pos;
            return false;
        }
        if ((v >> lg) == tag) {
            uint32_t i = (v & mask) - 1;
            if (same_state(record(s, i), state, s->state_bytes)) {
                *index = i;
                return true;
            }
        }
    }
}

static void place(uint32_t *table, unsigned lg, uint64_t h, uint32_t index)
{
    uint32_t mask = ((uint32_t)1 << lg) - 1;
    uint32_t pos = home_slot(h, lg);
    while (table[pos] != 0)
        pos = (pos + 1) & mask;
    table[pos] = (tag_of(h, lg) << lg) | (index + 1);
}

/* Doubles the table, rehashing the stored states in index order (the
 * arena is read sequentially).  False when the budget or the slot limit
 * forbids it or malloc fails; the store is then unchanged. */
static bool grow_table(state_store *s)
{
    unsigned lg = s->log2_slots + 1;
    if (lg > MAX_LOG2_SLOTS || !budget_allows(s, table_bytes(lg)))
        return false;
    uint32_t *t = calloc((size_t)1 << lg, sizeof *t);
    if (!t)
        return false;
    for (uint32_t i = 0; i < s->count; i++)
        place(t, lg, ss_hash(record(s, i), s->state_bytes), i);
    account(s, table_bytes(lg), table_bytes(s->log2_slots));
    free(s->table);
    s->table = t;
    s->log2_slots = lg;
    return true;
}

/* Makes room for one more entry: doubles at 3/4 load, or, when that is not
 * possible, allows up to 9/10. */
static ss_status table_room(state_store *s)
{
    uint64_t slots = (uint64_t)1 << s->log2_slots;
    uint64_t n = (uint64_t)s->count + 1;
    if (n * 4 <= slots * 3 || grow_table(s))
        return SS_NEW;
    if (n * 10 <= slots * 9)
        return SS_NEW;
    return s->log2_slots >= MAX_LOG2_SLOTS ? SS_FULL_STATES : SS_FULL_MEMORY;
}

/* ---- Arena ---- */

static ss_status arena_room(state_store *s)
{
    if ((s->count >> s->chunk_shift) < s->nchunks)
        return SS_NEW;
    size_t dir_extra = 0;
    if (s->nchunks == s->chunks_cap)
        dir_extra = (s->chunks_cap ? s->chunks_cap : 8) * sizeof(uint8_t *);
    if (!budget_allows(s, s->chunk_bytes + dir_extra))
        return SS_FULL_MEMORY;
    if (dir_extra) {
        size_t cap = s->chunks_cap ? 2 * s->chunks_cap : 8;
        uint8_t **d = realloc(s->chunks, cap * sizeof *d);
        if (!d)
            return SS_FULL_MEMORY;
        s->chunks = d;
        s->chunks_cap = cap;
        account(s, dir_extra, 0);
    }
    uint8_t *c = malloc(s->chunk_bytes);
    if (!c)
        return SS_FULL_MEMORY;
    s->chunks[s->nchunks++] = c;
    account(s, s->chunk_bytes, 0);
    return SS_NEW;
}

static void write_record(state_store *s, const uint8_t *state, uint32_t parent, int rule)
{
    uint8_t *r = record(s, s->count);
    uint16_t r16 = rule < 0 ? (uint16_t)RULE_NONE : (uint16_t)rule;
    memcpy(r, state, s->state_bytes);
    memcpy(r + s->state_bytes, &parent, sizeof parent);
    memcpy(r + s->state_bytes + 4, &r16, sizeof r16);
}

/* ---- Public ---- */

/* Records per chunk: a power of two, about 1 MiB a chunk, smaller under a
 * small budget (a sixteenth of it) so the budget is used finely. */
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

/* With a memory budget, the table is sized from it once: the largest table
 * that, filled to 3/4, leaves room in the budget for the states it then
 * holds, so the search never pauses to double it.  Pages are touched only
 * as slots are used. */
static unsigned first_log2_slots(size_t stride, size_t max_bytes)
{
    unsigned lg = FIRST_LOG2_SLOTS;
    if (!max_bytes)
        return lg;
    while (lg < MAX_LOG2_SLOTS) {
        uint64_t slots = (uint64_t)1 << (lg + 1);
        uint64_t need = slots * sizeof(uint32_t) + slots / 4 * 3 * stride;
        if (need > max_bytes)
            break;
        lg++;
    }
    return lg;
}

state_store *ss_create(size_t state_bytes, const ss_limits *limits)
{
    if (state_bytes == 0)
        return NULL;
    state_store *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (limits)
        s->lim = *limits;
    s->state_bytes = state_bytes;
    s->stride = state_bytes + META_BYTES;
    s->chunk_shift = chunk_shift_for(s->stride, s->lim.max_bytes);
    s->chunk_bytes = s->stride << s->chunk_shift;
    s->log2_slots = first_log2_slots(s->stride, s->lim.max_bytes);
    account(s, sizeof *s + table_bytes(s->log2_slots), 0);
    s->table = budget_allows(s, 0) ? calloc((size_t)1 << s->log2_slots, sizeof *s->table) : NULL;
    if (!s->table) {
        free(s);
        return NULL;
    }
    return s;
}

void ss_destroy(state_store *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nchunks; i++)
        free(s->chunks[i]);
    free(s->chunks);
    free(s->table);
    free(s);
}

bool ss_find(const state_store *s, const uint8_t *state, uint32_t *index)
{
    uint32_t empty;
    return probe(s, state, ss_hash(state, s->state_bytes), index, &empty);
}

void ss_prefetch(const state_store *s, uint64_t hash)
{
    __builtin_prefetch(&s->table[home_slot(hash, s->log2_slots)]);
}

ss_status ss_insert(state_store *s, const uint8_t *state, uint32_t parent, int rule,
                    uint32_t *index)
{
    return ss_insert_hashed(s, state, ss_hash(state, s->state_bytes), parent, rule, index);
}

ss_status ss_insert_hashed(state_store *s, const uint8_t *state, uint64_t h, uint32_t parent,
                           int rule, uint32_t *index)
{
    uint32_t empty;
    if (probe(s, state, h, index, &empty))
        return SS_OLD;
    if (s->lim.max_states && s->count >= s->lim.max_states)
        return SS_FULL_STATES;
    unsigned lg = s->log2_slots;
    ss_status st = table_room(s);
    if (st == SS_NEW)
        st = arena_room(s);
    if (st != SS_NEW)
        return st;
    write_record(s, state, parent, rule);
    if (lg != s->log2_slots)
        place(s->table, s->log2_slots, h, s->count);
    else
        s->table[empty] = (tag_of(h, lg) << lg) | (s->count + 1);
    *index = s->count++;
    return SS_NEW;
}
