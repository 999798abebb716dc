/* search/prob_store.c: hash compaction and bit-state hashing (see
 * search/prob_store.h for the contract, docs/search.md for the bounds). */
#include "search/prob_store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/store_mem.h"

#define FIRST_LOG2_SLOTS 10
#define MAX_LOG2_SLOTS 40
#define META_CHUNK_SHIFT 14        /* 16 K records, 128 KiB */
#define QUEUE_CHUNK_BYTES ((size_t)256 << 10)
#define OMISSION_STEPS 4096        /* the bit-state sum, integrated in this many steps */

typedef struct record {
    uint32_t parent;
    uint16_t rule;                 /* 0xFFFF: none */
    uint16_t ordinal;
} record;

struct prob_store {
    pb_kind kind;
    size_t state_bytes;
    uint64_t max_states;
    store_budget mem;
    chunk_array meta;              /* record per state */
    chunk_array queue;             /* the states not yet expanded */
    uint64_t *table;               /* hash compaction: fingerprints, 0 empty */
    unsigned lg;                   /* log2 of slots, or of bits */
    uint64_t *bits;                /* bit-state */
};

/* ---- the two sets ---- */

static size_t words_bytes(unsigned lg) { return ((size_t)1 << lg) * sizeof(uint64_t); }

static uint64_t fingerprint(uint64_t hash) { return hash ? hash : 1; }

/* Home slot: the fingerprint's top bits. */
static uint64_t fp_home(uint64_t fp, unsigned lg) { return fp >> (64 - lg); }

static bool fp_find(const prob_store *p, uint64_t fp, uint64_t *empty)
{
    uint64_t mask = ((uint64_t)1 << p->lg) - 1;
    for (uint64_t pos = fp_home(fp, p->lg);; pos = (pos + 1) & mask) {
        if (p->table[pos] == fp)
            return true;
        if (p->table[pos] == 0) {
            *empty = pos;
            return false;
        }
    }
}

static void fp_place(uint64_t *table, unsigned lg, uint64_t fp)
{
    uint64_t mask = ((uint64_t)1 << lg) - 1, pos = fp_home(fp, lg);
    while (table[pos] != 0)
        pos = (pos + 1) & mask;
    table[pos] = fp;
}

static bool fp_grow(prob_store *p)
{
    unsigned lg = p->lg + 1;
    if (lg > MAX_LOG2_SLOTS || !sb_allows(&p->mem, words_bytes(lg)))
        return false;
    uint64_t *t = calloc((size_t)1 << lg, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < (size_t)1 << p->lg; i++)
        if (p->table[i])
            fp_place(t, lg, p->table[i]);
    sb_account(&p->mem, words_bytes(lg), words_bytes(p->lg));
    free(p->table);
    p->table = t;
    p->lg = lg;
    return true;
}

/* A second hash of the state, independent of ss_hash (other constants):
 * bit-state's k positions are h1 + i*h2 (Kirsch and Mitzenmacher 2006). */
static uint64_t second_hash(const uint8_t *bytes, size_t len)
{
    const uint64_t k = 0xC2B2AE3D27D4EB4FULL;
    uint64_t h = 0x165667B19E3779F9ULL ^ len;
    size_t i = 0;
    for (; i < len; i += 8) {
        uint64_t w = 0;
        memcpy(&w, bytes + i, len - i < 8 ? len - i : 8);
        h = (h ^ w) * k;
        h ^= h >> 31;
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    return h | 1;
}

/* The state's k bit positions: h1 + i*h2 modulo the array. */
static void bit_positions(const prob_store *p, const uint8_t *state, uint64_t h1, uint64_t *pos)
{
    uint64_t h2 = second_hash(state, p->state_bytes), mask = ((uint64_t)1 << p->lg) - 1;
    for (int i = 0; i < PB_BITSTATE_K; i++)
        pos[i] = (h1 + (uint64_t)i * h2) & mask;
}

static bool bit_is_set(const prob_store *p, uint64_t b)
{
    return (p->bits[b >> 6] >> (b & 63)) & 1;
}

/* ---- the store ---- */

static unsigned bitstate_log2_bits(size_t max_bytes)
{
    if (!max_bytes)
        return PB_BITSTATE_DEFAULT_LOG2_BITS;
    unsigned lg = 9;   /* 64 bytes */
    while (lg < 46 && ((size_t)1 << (lg + 1 - 3)) <= max_bytes / 2)
        lg++;
    return lg;
}

static unsigned queue_shift(size_t state_bytes)
{
    unsigned s = 4;
    while (s < 20 && (state_bytes << (s + 1)) <= QUEUE_CHUNK_BYTES)
        s++;
    return s;
}

prob_store *pb_create(pb_kind kind, size_t state_bytes, const ss_limits *limits)
{
    if (state_bytes == 0)
        return NULL;
    prob_store *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->kind = kind;
    p->state_bytes = state_bytes;
    if (limits) {
        p->mem.max = limits->max_bytes;
        p->max_states = limits->max_states;
    }
    ca_init(&p->meta, sizeof(record), META_CHUNK_SHIFT);
    ca_init(&p->queue, state_bytes, queue_shift(state_bytes));
    p->lg = kind == PB_BITSTATE ? bitstate_log2_bits(p->mem.max) : FIRST_LOG2_SLOTS;
    size_t set_bytes = kind == PB_BITSTATE ? ((size_t)1 << p->lg) / 8 : words_bytes(p->lg);
    sb_account(&p->mem, sizeof *p + set_bytes, 0);
    void *set = sb_allows(&p->mem, 0) ? calloc(1, set_bytes) : NULL;
    if (!set) {
        free(p);
        return NULL;
    }
    if (kind == PB_BITSTATE)
        p->bits = set;
    else
        p->table = set;
    return p;
}

void pb_destroy(prob_store *p)
{
    if (!p)
        return;
    ca_free(&p->meta, &p->mem);
    ca_free(&p->queue, &p->mem);
    free(p->table);
    free(p->bits);
    free(p);
}

/* Room for one more state: a record, a queue slot, and (hash compaction)
 * a table below 3/4 load, or 9/10 where the budget forbids doubling. */
static ss_status room(prob_store *p)
{
    if (p->max_states && p->meta.count >= p->max_states)
        return SS_FULL_STATES;
    if (p->meta.count >= UINT32_MAX - 1)
        return SS_FULL_STATES;
    if (p->kind == PB_HASH_COMPACT) {
        uint64_t slots = (uint64_t)1 << p->lg, n = p->meta.count + 1;
        if (!(n * 4 <= slots * 3 || fp_grow(p)) && n * 10 > slots * 9)
            return SS_FULL_MEMORY;
    }
    return ca_reserve(&p->meta, &p->mem) && ca_reserve(&p->queue, &p->mem) ? SS_NEW : SS_FULL_MEMORY;
}

ss_status pb_insert(prob_store *p, const uint8_t *state, uint64_t hash, uint32_t parent, int rule,
                    unsigned ordinal, uint32_t *index)
{
    uint64_t fp = fingerprint(hash), empty = 0;
    if (p->kind == PB_HASH_COMPACT && fp_find(p, fp, &empty))
        return SS_OLD;
    uint64_t pos[PB_BITSTATE_K];
    if (p->kind == PB_BITSTATE) {
        bit_positions(p, state, hash, pos);
        bool all = true;
        for (int i = 0; i < PB_BITSTATE_K; i++)
            all = all && bit_is_set(p, pos[i]);
        if (all)
            return SS_OLD;
    }
    unsigned lg = p->lg;
    ss_status st = room(p);
    if (st != SS_NEW)
        return st;
    if (p->kind == PB_BITSTATE)
        for (int i = 0; i < PB_BITSTATE_K; i++)
            p->bits[pos[i] >> 6] |= (uint64_t)1 << (pos[i] & 63);
    else if (lg != p->lg)
        fp_place(p->table, p->lg, fp);
    else
        p->table[empty] = fp;
    record r = {parent, rule < 0 ? 0xFFFF : (uint16_t)rule,
                (uint16_t)(ordinal < PB_MAX_ORDINAL ? ordinal : PB_MAX_ORDINAL)};
    memcpy(ca_push(&p->meta), &r, sizeof r);
    memcpy(ca_push(&p->queue), state, p->state_bytes);
    *index = (uint32_t)(p->meta.count - 1);
    return SS_NEW;
}

const uint8_t *pb_queued(const prob_store *p, uint32_t index)
{
    return ca_at(&p->queue, index);
}

void pb_release_below(prob_store *p, uint32_t index)
{
    ca_release_below(&p->queue, index, &p->mem);
}

static record record_at(const prob_store *p, uint32_t index)
{
    record r;
    memcpy(&r, ca_at(&p->meta, index), sizeof r);
    return r;
}

uint32_t pb_parent(const prob_store *p, uint32_t index) { return record_at(p, index).parent; }

int pb_rule(const prob_store *p, uint32_t index)
{
    uint16_t r = record_at(p, index).rule;
    return r == 0xFFFF ? SS_NO_RULE : (int)r;
}

unsigned pb_ordinal(const prob_store *p, uint32_t index) { return record_at(p, index).ordinal; }
uint32_t pb_count(const prob_store *p) { return (uint32_t)p->meta.count; }
size_t pb_bytes(const prob_store *p) { return p->mem.bytes; }
size_t pb_peak_bytes(const prob_store *p) { return p->mem.peak; }
uint64_t pb_bits(const prob_store *p) { return p->kind == PB_BITSTATE ? (uint64_t)1 << p->lg : 0; }

/* Bit-state: sum_{i<n} (1 - e^(-k i/m))^k, as the integral of the
 * (increasing) summand over 0..n by the trapezoid rule. */
static double bitstate_expected_misses(double n, double m)
{
    const double k = PB_BITSTATE_K;
    double sum = 0, step = n / OMISSION_STEPS, prev = 0;
    for (int s = 1; s <= OMISSION_STEPS; s++) {
        double x = step * s, f = pow(1.0 - exp(-k * x / m), k);
        sum += (prev + f) / 2 * step;
        prev = f;
    }
    return sum;
}

double pb_omission(const prob_store *p)
{
    double n = (double)p->meta.count;
    if (p->kind == PB_BITSTATE)
        return n > 0 ? bitstate_expected_misses(n, (double)pb_bits(p)) : 0.0;
    double pairs = n * (n - 1) / 2;
    double bound = pairs / 18446744073709551616.0;   /* 2^64 */
    return bound < 1 ? bound : 1;
}
