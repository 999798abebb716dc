/* sim/lines.c: stored lines of one controller kind (see sim/lines.h). */
#include "sim/lines.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_of(int inst, uint64_t addr) { return (uint64_t)inst << 44 | addr; }

static size_t hash_of(uint64_t key, size_t cap)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ull;
    key ^= key >> 32;
    return (size_t)key & (cap - 1);
}

bool lines_init(sim_lines *l, int slots_per_line, int ninst)
{
    *l = (sim_lines){.slots_per_line = slots_per_line, .ninst = ninst, .free_head = -1};
    l->cap = 1024;
    l->keys = malloc(l->cap * sizeof *l->keys);
    l->index = malloc(l->cap * sizeof *l->index);
    l->inst_head = malloc((size_t)(ninst > 0 ? ninst : 1) * sizeof *l->inst_head);
    if (!l->keys || !l->index || !l->inst_head) {
        lines_free(l);
        return false;
    }
    memset(l->index, 0xff, l->cap * sizeof *l->index);
    for (int i = 0; i < ninst; i++)
        l->inst_head[i] = -1;
    return true;
}

void lines_free(sim_lines *l)
{
    free(l->keys);
    free(l->index);
    free(l->slots);
    free(l->rec_key);
    free(l->prev);
    free(l->next);
    free(l->frame);
    free(l->inst_head);
    *l = (sim_lines){0};
}

int32_t lines_find(const sim_lines *l, int inst, uint64_t addr)
{
    uint64_t key = key_of(inst, addr);
    for (size_t i = hash_of(key, l->cap);; i = (i + 1) & (l->cap - 1)) {
        if (l->index[i] < 0)
            return -1;
        if (l->keys[i] == key)
            return l->index[i];
    }
}

static void insert_slot(sim_lines *l, uint64_t key, int32_t rec)
{
    size_t i = hash_of(key, l->cap);
    while (l->index[i] >= 0)
        i = (i + 1) & (l->cap - 1);
    l->keys[i] = key;
    l->index[i] = rec;
}

static bool grow_hash(sim_lines *l)
{
    size_t old_cap = l->cap;
    uint64_t *old_keys = l->keys;
    int32_t *old_index = l->index;
    l->cap *= 2;
    l->keys = malloc(l->cap * sizeof *l->keys);
    l->index = malloc(l->cap * sizeof *l->index);
    if (!l->keys || !l->index) {
        free(l->keys);
        free(l->index);
        l->keys = old_keys, l->index = old_index, l->cap = old_cap;
        return false;
    }
    memset(l->index, 0xff, l->cap * sizeof *l->index);
    for (size_t i = 0; i < old_cap; i++)
        if (old_index[i] >= 0)
            insert_slot(l, old_keys[i], old_index[i]);
    free(old_keys);
    free(old_index);
    return true;
}

static bool grow_records(sim_lines *l)
{
    size_t cap = l->rec_cap ? 2 * l->rec_cap : 256;
    int64_t *slots = realloc(l->slots, cap * (size_t)l->slots_per_line * sizeof *slots);
    if (slots)
        l->slots = slots;
    uint64_t *rk = realloc(l->rec_key, cap * sizeof *rk);
    if (rk)
        l->rec_key = rk;
    int32_t *p = realloc(l->prev, cap * sizeof *p);
    if (p)
        l->prev = p;
    int32_t *n = realloc(l->next, cap * sizeof *n);
    if (n)
        l->next = n;
    int32_t *f = realloc(l->frame, cap * sizeof *f);
    if (f)
        l->frame = f;
    if (!slots || !rk || !p || !n || !f)
        return false;
    l->rec_cap = cap;
    return true;
}

int32_t lines_add(sim_lines *l, int inst, uint64_t addr, const int64_t *slots)
{
    if (2 * (l->count + 1) > l->cap && !grow_hash(l))
        return -1;
    int32_t rec = l->free_head;
    if (rec >= 0) {
        l->free_head = l->next[rec];
    } else {
        if (l->nrec == l->rec_cap && !grow_records(l))
            return -1;
        rec = (int32_t)l->nrec++;
    }
    uint64_t key = key_of(inst, addr);
    memcpy(lines_slots(l, rec), slots, (size_t)l->slots_per_line * sizeof *slots);
    l->rec_key[rec] = key;
    l->frame[rec] = -1;
    l->prev[rec] = -1;
    l->next[rec] = l->inst_head[inst];
    if (l->inst_head[inst] >= 0)
        l->prev[l->inst_head[inst]] = rec;
    l->inst_head[inst] = rec;
    insert_slot(l, key, rec);
    l->count++;
    return rec;
}

/* Backward-shift deletion keeps every probe chain unbroken. */
static void delete_slot(sim_lines *l, size_t i)
{
    size_t mask = l->cap - 1;
    l->index[i] = -1;
    for (size_t j = (i + 1) & mask; l->index[j] >= 0; j = (j + 1) & mask) {
        size_t home = hash_of(l->keys[j], l->cap);
        bool movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
        if (movable) {
            l->keys[i] = l->keys[j];
            l->index[i] = l->index[j];
            l->index[j] = -1;
            i = j;
        }
    }
}

void lines_remove(sim_lines *l, int32_t rec)
{
    uint64_t key = l->rec_key[rec];
    for (size_t i = hash_of(key, l->cap);; i = (i + 1) & (l->cap - 1))
        if (l->index[i] == rec) {
            delete_slot(l, i);
            break;
        }
    int inst = (int)(key >> 44);
    if (l->prev[rec] >= 0)
        l->next[l->prev[rec]] = l->next[rec];
    else
        l->inst_head[inst] = l->next[rec];
    if (l->next[rec] >= 0)
        l->prev[l->next[rec]] = l->prev[rec];
    l->next[rec] = l->free_head;
    l->free_head = rec;
    l->count--;
}
