/* litmus/outcome.c: see outcome.h.  Open addressing on a hash of the values. */
#include "litmus/outcome.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

struct outcome_set {
    int width;
    int count;
    int slots;          /* power of two */
    int *slot_index;    /* -1 empty, else index into values */
    lit_value *values;  /* count * width, insertion order */
    int capacity;       /* states that `values` can hold */
};

static uint64_t hash_state(const lit_value *v, int width)
{
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i < width; i++) {
        h ^= (uint64_t)v[i];
        h *= 1099511628211u;
        h ^= h >> 29;
    }
    return h;
}

static void make_slots(outcome_set *s, int slots)
{
    s->slots = slots;
    s->slot_index = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)slots);
    memset(s->slot_index, -1, sizeof(int) * (size_t)slots);
    for (int i = 0; i < s->count; i++) {
        uint64_t h = hash_state(&s->values[(size_t)i * (size_t)s->width], s->width);
        int at = (int)(h & (uint64_t)(slots - 1));
        while (s->slot_index[at] >= 0)
            at = (at + 1) & (slots - 1);
        s->slot_index[at] = i;
    }
}

outcome_set *outcome_set_new(int width)
{
    outcome_set *s = GC_MALLOC(sizeof *s);
    s->width = width;
    s->capacity = 16;
    s->values = GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(width ? width : 1) * 16);
    make_slots(s, 64);
    return s;
}

/* The state's index, or -1 with *slot the empty slot where it belongs. */
static int probe(const outcome_set *s, const lit_value *state, int *slot)
{
    size_t w = (size_t)s->width;
    int at = (int)(hash_state(state, s->width) & (uint64_t)(s->slots - 1));
    for (; s->slot_index[at] >= 0; at = (at + 1) & (s->slots - 1)) {
        int i = s->slot_index[at];
        if (memcmp(&s->values[(size_t)i * w], state, sizeof(lit_value) * w) == 0)
            return i;
    }
    *slot = at;
    return -1;
}

int outcome_add(outcome_set *s, const lit_value *state)
{
    size_t w = (size_t)s->width;
    int at;
    int found = probe(s, state, &at);
    if (found >= 0)
        return found;
    if (s->count == s->capacity) {
        s->capacity *= 2;
        lit_value *grown = GC_MALLOC_ATOMIC(sizeof(lit_value) * (w ? w : 1) * (size_t)s->capacity);
        memcpy(grown, s->values, sizeof(lit_value) * w * (size_t)s->count);
        s->values = grown;
    }
    memcpy(&s->values[(size_t)s->count * w], state, sizeof(lit_value) * w);
    s->slot_index[at] = s->count;
    s->count++;
    if (2 * s->count > s->slots)
        make_slots(s, 2 * s->slots);
    return s->count - 1;
}

int outcome_find(const outcome_set *s, const lit_value *state)
{
    int slot;
    return probe(s, state, &slot);
}

/* States in insertion order: count * width values. */
const lit_value *outcome_values(const outcome_set *s) { return s->values; }

int outcome_count(const outcome_set *s) { return s->count; }
int outcome_width(const outcome_set *s) { return s->width; }

/* glibc's qsort_r passes the state width as context. */
static int compare_states(const void *a, const void *b, void *width)
{
    const lit_value *x = a, *y = b;
    int n = *(const int *)width;
    for (int i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

const lit_value *outcome_sorted(outcome_set *s)
{
    size_t w = (size_t)s->width;
    lit_value *copy = GC_MALLOC_ATOMIC(sizeof(lit_value) * (w ? w : 1) * (size_t)(s->count ? s->count : 1));
    memcpy(copy, s->values, sizeof(lit_value) * w * (size_t)s->count);
    if (w)
        qsort_r(copy, (size_t)s->count, sizeof(lit_value) * w, compare_states, &s->width);
    return copy;
}
