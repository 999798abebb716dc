/* search/visited.c: the switch over the visited-state stores (see
 * search/visited.h). */
#include "search/visited.h"

#include <stdlib.h>
#include <string.h>

#include "search/prob_store.h"
#include "search/tree_store.h"

struct visited {
    visited_kind kind;
    size_t state_bytes;
    state_store *plain;
    tree_store *tree;
    prob_store *prob;
    uint8_t *buf;                /* the tree store's state being expanded */
};

static const char *const kind_names[] = {"plain", "tree", "hash-compact", "bitstate"};

const char *vs_kind_name(visited_kind kind)
{
    return (unsigned)kind < sizeof kind_names / sizeof *kind_names ? kind_names[kind] : "unknown";
}

bool vs_kind_parse(const char *name, visited_kind *kind)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof *kind_names; i++) {
        if (strcmp(name, kind_names[i]) == 0) {
            *kind = (visited_kind)i;
            return true;
        }
    }
    return false;
}

bool vs_kind_probabilistic(visited_kind kind)
{
    return kind == VISITED_HASH_COMPACT || kind == VISITED_BITSTATE;
}

visited *vs_create(visited_kind kind, size_t state_bytes, const ss_limits *limits)
{
    visited *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    v->kind = kind;
    v->state_bytes = state_bytes;
    bool ok = false;
    switch (kind) {
    case VISITED_PLAIN:
        ok = (v->plain = ss_create(state_bytes, limits)) != NULL;
        break;
    case VISITED_TREE:
        v->buf = malloc(state_bytes ? state_bytes : 1);
        ok = v->buf && (v->tree = ts_create(state_bytes, limits)) != NULL;
        break;
    case VISITED_HASH_COMPACT:
    case VISITED_BITSTATE:
        ok = (v->prob = pb_create(kind == VISITED_BITSTATE ? PB_BITSTATE : PB_HASH_COMPACT, state_bytes,
                                  limits)) != NULL;
        break;
    }
    if (!ok) {
        vs_destroy(v);
        return NULL;
    }
    return v;
}

void vs_destroy(visited *v)
{
    if (!v)
        return;
    ss_destroy(v->plain);
    ts_destroy(v->tree);
    pb_destroy(v->prob);
    free(v->buf);
    free(v);
}

visited_kind vs_kind(const visited *v) { return v->kind; }

ss_status vs_key(visited *v, const uint8_t *state, uint64_t *key)
{
    if (v->tree)
        return ts_root(v->tree, state, key);
    *key = ss_hash(state, v->state_bytes);
    return SS_NEW;
}

bool vs_batch_keys(const visited *v)
{
    return v->tree != NULL;
}

ss_status vs_keys(visited *v, const uint8_t *states, size_t stride, int n, uint64_t *keys)
{
    if (v->tree)
        return ts_roots(v->tree, states, stride, n, keys);
    for (int i = 0; i < n; i++) {
        ss_status st = vs_key(v, states + (size_t)i * stride, &keys[i]);
        if (st != SS_NEW)
            return st;
        vs_prefetch(v, keys[i]);
    }
    return SS_NEW;
}

ss_status vs_insert(visited *v, const uint8_t *state, uint64_t key, uint32_t parent, int rule,
                    unsigned ordinal, uint32_t *index)
{
    if (v->plain)
        return ss_insert_hashed(v->plain, state, key, parent, rule, index);
    if (v->tree)
        return ts_insert_root(v->tree, key, parent, rule, index);
    return pb_insert(v->prob, state, key, parent, rule, ordinal, index);
}

void vs_prefetch(const visited *v, uint64_t key)
{
    if (v->plain)
        ss_prefetch(v->plain, key);
    else if (v->tree)
        ts_prefetch(v->tree, key);
}

const uint8_t *vs_load(visited *v, uint32_t index)
{
    if (v->plain)
        return ss_state(v->plain, index);
    if (v->tree) {
        ts_load(v->tree, index, v->buf);
        return v->buf;
    }
    pb_release_below(v->prob, index);
    return pb_queued(v->prob, index);
}

bool vs_get(visited *v, uint32_t index, uint8_t *out)
{
    if (v->plain)
        memcpy(out, ss_state(v->plain, index), v->state_bytes);
    else if (v->tree)
        ts_get(v->tree, index, out);
    return !v->prob;
}

const state_store *vs_plain(const visited *v) { return v->plain; }

uint32_t vs_parent(const visited *v, uint32_t index)
{
    return v->plain ? ss_parent(v->plain, index) : v->tree ? ts_parent(v->tree, index) : pb_parent(v->prob, index);
}

int vs_rule(const visited *v, uint32_t index)
{
    return v->plain ? ss_rule(v->plain, index) : v->tree ? ts_rule(v->tree, index) : pb_rule(v->prob, index);
}

unsigned vs_ordinal(const visited *v, uint32_t index)
{
    return v->prob ? pb_ordinal(v->prob, index) : 0;
}

uint32_t vs_count(const visited *v)
{
    return v->plain ? ss_count(v->plain) : v->tree ? ts_count(v->tree) : pb_count(v->prob);
}

size_t vs_bytes(const visited *v)
{
    return v->plain ? ss_bytes(v->plain) : v->tree ? ts_bytes(v->tree) : pb_bytes(v->prob);
}

size_t vs_peak_bytes(const visited *v)
{
    return v->plain ? ss_peak_bytes(v->plain) : v->tree ? ts_peak_bytes(v->tree) : pb_peak_bytes(v->prob);
}

double vs_omission(const visited *v) { return v->prob ? pb_omission(v->prob) : 0.0; }
uint64_t vs_bits(const visited *v) { return v->prob ? pb_bits(v->prob) : 0; }
