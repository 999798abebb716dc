/* proto_bfs.c: see proto_bfs.h. */
#include "proto_bfs.h"

#include "protocol/symmetry.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BYTES 4096

static uint64_t hash(const uint8_t *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

static void rehash(proto_bfs *b)
{
    size_t ncap = b->cap ? 2 * b->cap : 1024;
    free(b->table);
    b->table = calloc(ncap, sizeof *b->table);
    b->cap = ncap;
    for (size_t k = 0; k < b->n; k++) {
        size_t i = hash(b->states + k * b->bytes, b->bytes) & (ncap - 1);
        while (b->table[i])
            i = (i + 1) & (ncap - 1);
        b->table[i] = k + 1;
    }
}

static void insert(proto_bfs *b, const uint8_t *s)
{
    if (2 * (b->n + 1) > b->cap)
        rehash(b);
    size_t i = hash(s, b->bytes) & (b->cap - 1);
    while (b->table[i]) {
        if (!memcmp(b->states + (b->table[i] - 1) * b->bytes, s, b->bytes))
            return;
        i = (i + 1) & (b->cap - 1);
    }
    if (b->n == b->room) {
        b->room = b->room ? 2 * b->room : 1024;
        b->states = realloc(b->states, b->room * b->bytes);
    }
    memcpy(b->states + b->n * b->bytes, s, b->bytes);
    b->table[i] = ++b->n;
}

static void on_succ(void *ctx, const uint8_t *next, int rule)
{
    proto_bfs *b = ctx;
    (void)rule;
    b->transitions++;
    if (b->m->canonicalize) {
        memcpy(b->scratch, next, b->bytes);
        b->m->canonicalize(b->m->ctx, b->scratch);
        next = b->scratch;
    }
    insert(b, next);
}

static void note_values(proto_bfs *b, const lit_value *v)
{
    for (int k = 0; k < b->noutcomes; k++)
        if (!memcmp(b->outcome[k], v, sizeof b->outcome[k]))
            return;
    if (b->noutcomes < PROTO_BFS_MAX_OUTCOMES)
        memcpy(b->outcome[b->noutcomes++], v, sizeof b->outcome[0]);
}

/* A final state's outcome; under symmetry reduction, that of every state
 * of its orbit, each built by applying a group element (not through
 * proto_symmetry_orbit_values, which the tests check against this). */
static void note_outcome(proto_bfs *b, const uint8_t *s)
{
    int order = proto_symmetry_active(b->in) ? proto_symmetry_order(b->in) : 1;
    for (int g = 0; g < order; g++) {
        lit_value v[PROTO_BFS_MAX_OBS] = {0};
        proto_symmetry_apply(b->in, g, s, b->scratch);
        proto_final_values(b->in, b->scratch, v);
        note_values(b, v);
    }
}

size_t proto_bfs_explore(proto_bfs *b, proto_instance *in)
{
    const nsi_model *m = proto_nsi(in);
    uint8_t cur[MAX_BYTES];
    if (m->state_bytes > MAX_BYTES)
        abort();                /* a test configuration error, not a result */
    b->in = in;
    b->m = m;
    b->bytes = m->state_bytes;
    b->scratch = malloc(b->bytes);
    m->initial(m->ctx, cur);
    if (m->canonicalize)
        m->canonicalize(m->ctx, cur);
    insert(b, cur);
    for (size_t k = 0; k < b->n; k++) {
        memcpy(cur, b->states + k * b->bytes, b->bytes);
        int ns = m->successors(m->ctx, cur, on_succ, b);
        const char *bad = m->violated(m->ctx, cur);
        if (bad && !b->violated)
            b->violated = bad;
        if (m->is_final(m->ctx, cur)) {
            b->finals++;
            note_outcome(b, cur);
        } else if (ns == 0) {
            b->deadlocks++;
        }
    }
    return b->n;
}

bool proto_bfs_saw(const proto_bfs *b, const lit_value *want, int nobs)
{
    for (int k = 0; k < b->noutcomes; k++)
        if (!memcmp(b->outcome[k], want, sizeof *want * (size_t)nobs))
            return true;
    return false;
}

void proto_bfs_free(proto_bfs *b)
{
    free(b->states);
    free(b->table);
    free(b->scratch);
}

typedef struct collect { proto_succs *s; size_t bytes; } collect;

static void on_collect(void *ctx, const uint8_t *next, int rule)
{
    collect *c = ctx;
    if (c->s->n < PROTO_STEP_MAX) {
        c->s->rule[c->s->n] = rule;
        memcpy(c->s->state[c->s->n], next, c->bytes);
    }
    c->s->n++;
}

void proto_successors(const nsi_model *m, const uint8_t *state, proto_succs *s)
{
    collect c = {s, m->state_bytes};
    s->n = 0;
    CU_ASSERT_FATAL(m->state_bytes <= PROTO_STEP_BYTES);
    m->successors(m->ctx, state, on_collect, &c);
}

void proto_step(const nsi_model *m, uint8_t *state, const char *prefix, const char *want)
{
    static proto_succs s;
    proto_successors(m, state, &s);
    for (int i = 0; i < s.n && i < PROTO_STEP_MAX; i++) {
        char buf[512] = {0};
        FILE *f = fmemopen(buf, sizeof buf - 1, "w");
        m->describe(m->ctx, state, s.rule[i], s.state[i], f);
        fclose(f);
        if (strncmp(buf, prefix, strlen(prefix)))
            continue;
        if (strcmp(buf, want))
            fprintf(stderr, "\nwanted '%s', got '%s'\n", want, buf);
        CU_ASSERT_STRING_EQUAL(buf, want);
        memcpy(state, s.state[i], m->state_bytes);
        return;
    }
    fprintf(stderr, "\nno step starts with '%s'\n", prefix);
    CU_FAIL("no such step");
}

char *proto_read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}
