/* sim/cache.c: set-associative tag arrays (see sim/cache.h). */
#include "sim/cache.h"

#include <stdlib.h>

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

bool cache_init(sim_cache *c, long size, int line, int assoc, enum sim_repl repl, uint64_t seed)
{
    *c = (sim_cache){0};
    if (line < 1 || assoc < 1 || assoc > SIM_MAX_ASSOC || size < (long)line)
        return false;
    long sets = size / ((long)line * assoc);
    c->nsets = sets < 1 ? 1 : (int)sets;
    c->assoc = assoc;
    c->repl = repl;
    c->rng = seed | 1;
    size_t n = (size_t)c->nsets * (size_t)assoc;
    c->tag = malloc(n * sizeof *c->tag);
    c->payload = malloc(n * sizeof *c->payload);
    c->stamp = calloc(n, sizeof *c->stamp);
    if (!c->tag || !c->payload || !c->stamp) {
        cache_free(c);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        c->tag[i] = SIM_CACHE_EMPTY;
        c->payload[i] = -1;
    }
    return true;
}

void cache_free(sim_cache *c)
{
    free(c->tag);
    free(c->payload);
    free(c->stamp);
    *c = (sim_cache){0};
}

int cache_set_of(const sim_cache *c, uint64_t addr) { return (int)(mix(addr) % (uint64_t)c->nsets); }

long cache_find(const sim_cache *c, uint64_t addr)
{
    long base = (long)cache_set_of(c, addr) * c->assoc;
    for (int w = 0; w < c->assoc; w++)
        if (c->tag[base + w] == addr)
            return base + w;
    return -1;
}

long cache_free_frame(const sim_cache *c, int set)
{
    long base = (long)set * c->assoc;
    for (int w = 0; w < c->assoc; w++)
        if (c->tag[base + w] == SIM_CACHE_EMPTY)
            return base + w;
    return -1;
}

void cache_fill(sim_cache *c, long frame, uint64_t addr, int32_t payload)
{
    c->tag[frame] = addr;
    c->payload[frame] = payload;
    c->stamp[frame] = ++c->clock;
}

void cache_touch(sim_cache *c, long frame)
{
    if (c->repl == REPL_LRU)
        c->stamp[frame] = ++c->clock;
}

void cache_clear(sim_cache *c, long frame)
{
    c->tag[frame] = SIM_CACHE_EMPTY;
    c->payload[frame] = -1;
}

static uint64_t next_random(sim_cache *c)
{
    c->rng ^= c->rng << 13;
    c->rng ^= c->rng >> 7;
    c->rng ^= c->rng << 17;
    return c->rng;
}

int cache_victims(sim_cache *c, int set, long *out)
{
    long base = (long)set * c->assoc;
    int n = c->assoc;
    if (c->repl == REPL_RANDOM) {
        int start = (int)(next_random(c) % (uint64_t)n);
        for (int k = 0; k < n; k++)
            out[k] = base + (start + k) % n;
        return n;
    }
    for (int k = 0; k < n; k++) {       /* insertion sort by stamp: assoc is small */
        long f = base + k;
        int j = k;
        while (j > 0 && c->stamp[out[j - 1]] > c->stamp[f]) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = f;
    }
    return n;
}

bool cache_access(sim_cache *c, uint64_t addr)
{
    long f = cache_find(c, addr);
    if (f >= 0) {
        cache_touch(c, f);
        return true;
    }
    int set = cache_set_of(c, addr);
    f = cache_free_frame(c, set);
    if (f < 0) {
        long order[SIM_MAX_ASSOC];
        cache_victims(c, set, order);
        f = order[0];
    }
    cache_fill(c, f, addr, -1);
    return false;
}
