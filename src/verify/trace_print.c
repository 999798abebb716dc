/* verify/trace_print.c: counterexample traces, short and full (see
 * verify/trace_print.h). */
#include "verify/trace_print.h"

#include <stdlib.h>
#include <string.h>

#include "verify/state_text.h"
#include "protocol/step.h"
#include "search/state_store.h"
#include "search/fair_cycle.h"

#define INDENT "      "
#define MAX_REASONS 64

bool trace_detail_parse(const char *text, trace_detail *out)
{
    if (strcmp(text, "short") == 0)
        *out = TRACE_SHORT;
    else if (strcmp(text, "full") == 0)
        *out = TRACE_FULL;
    else
        return false;
    return true;
}

static void print_step(FILE *out, const proto_instance *in, const uint8_t *from, const bfs_step *st,
                       const uint8_t *to, size_t k)
{
    proto_step_desc d;
    proto_describe_step(in, from, st->rule, to, &d);
    fprintf(out, "  %zu: %s\n", k, d.text);
    if (d.row_file)
        fprintf(out, INDENT "row %s:%d\n", d.row_file, d.row_line);
    else if (d.kind == PSTEP_BARRIER)
        fputs(INDENT "no row (a CTA barrier is run by the threads' CU)\n", out);
    else if (d.kind == PSTEP_LOCAL)
        fputs(INDENT "no row (local memory is the CU's scratchpad, not cached)\n", out);
}

/* Steps k0.. of a lasso's cycle from state `from`, each with its row and
 * the fields it changed; `a` holds from's fields, `b` is scratch. */
static void print_full_cycle(FILE *out, const bfs_search *s, const proto_instance *in, const fc_cycle *c, size_t k0,
                             proto_state_field *a, proto_state_field *b)
{
    /* A lasso comes from the fair-cycle search, which runs on lossless
     * stores only: bfs_state never replays here. */
    size_t sb = bfs_model(s)->state_bytes;
    uint8_t *buf = malloc(2 * sb);
    if (!buf) {
        fputs("(trace unavailable: out of memory)\n", out);
        return;
    }
    int nf = proto_state_nfields(in);
    int slot = 0;
    const uint8_t *from = bfs_state(s, c->entry, buf);
    for (size_t k = 0; k < c->len; k++) {
        slot ^= 1;
        const uint8_t *to = bfs_state(s, c->cycle[k].state, buf + (size_t)slot * sb);
        print_step(out, in, from, &c->cycle[k], to, k0 + k);
        proto_state_fields(in, to, b);
        state_text_write(out, b, a, nf, INDENT);
        proto_state_field *t = a;
        a = b;
        b = t;
        from = to;
    }
    free(buf);
}

static void print_full(FILE *out, const bfs_search *s, const proto_instance *in, uint32_t index);

void trace_print_lasso(FILE *out, const bfs_search *s, const proto_instance *in, const fc_cycle *c, trace_detail d)
{
    if (d != TRACE_FULL) {
        fc_print_lasso(s, c, out);
        return;
    }
    size_t n = 0;
    bfs_step *stem = bfs_trace(s, c->entry, &n);
    int nf = proto_state_nfields(in);
    proto_state_field *a = malloc(sizeof *a * (size_t)(nf ? nf : 1));
    proto_state_field *b = malloc(sizeof *b * (size_t)(nf ? nf : 1));
    if (!stem || !a || !b) {
        fputs("(trace unavailable: out of memory)\n", out);
        free(stem), free(a), free(b);
        return;
    }
    free(stem);
    print_full(out, s, in, c->entry);
    fputs("  -- cycle: the steps below repeat forever --\n", out);
    uint8_t *entry = malloc(bfs_model(s)->state_bytes);
    if (entry)
        proto_state_fields(in, bfs_state(s, c->entry, entry), a);
    free(entry);
    print_full_cycle(out, s, in, c, n, a, b);
    free(a), free(b);
}

/* The path with, under each step, its row and the fields it changed. */
static void print_full_path(FILE *out, const proto_instance *in, const bfs_path *p)
{
    int nf = proto_state_nfields(in);
    proto_state_field *a = malloc(sizeof *a * (size_t)(nf ? nf : 1));
    proto_state_field *b = malloc(sizeof *b * (size_t)(nf ? nf : 1));
    if (!a || !b) {
        fputs("(trace unavailable: out of memory)\n", out);
        free(a), free(b);
        return;
    }
    fputs("  0: initial state\n", out);
    proto_state_fields(in, bfs_path_state(p, 0), a);
    state_text_write(out, a, NULL, nf, INDENT);
    for (size_t k = 1; k < p->len; k++) {
        const uint8_t *to = bfs_path_state(p, k);
        bfs_step st = {(uint32_t)k, p->rules[k]};
        print_step(out, in, bfs_path_state(p, k - 1), &st, to, k);
        proto_state_fields(in, to, b);
        state_text_write(out, b, a, nf, INDENT);
        proto_state_field *t = a;
        a = b;
        b = t;
    }
    free(a), free(b);
}

static void print_full(FILE *out, const bfs_search *s, const proto_instance *in, uint32_t index)
{
    bfs_path *p = bfs_path_to(s, index);
    if (!p) {
        fputs("(trace unavailable: out of memory)\n", out);
        return;
    }
    print_full_path(out, in, p);
    bfs_path_free(p);
}

void trace_print(FILE *out, const bfs_search *s, const proto_instance *in, uint32_t index, trace_detail d)
{
    if (d == TRACE_FULL)
        print_full(out, s, in, index);
    else
        bfs_print_trace(s, index, out);
}

void trace_print_path(FILE *out, const nsi_model *m, const proto_instance *in, const bfs_path *p, trace_detail d)
{
    if (!p)
        fputs("(trace unavailable: out of memory, or no concrete step matches a stored one)\n", out);
    else if (d == TRACE_FULL)
        print_full_path(out, in, p);
    else
        bfs_print_path(m, p, out);
}

void trace_print_stuck(FILE *out, const proto_instance *in, const uint8_t *state)
{
    proto_reason *r = malloc(sizeof *r * MAX_REASONS);
    if (!r) {
        fputs("Why stuck: (unavailable: out of memory)\n", out);
        return;
    }
    int n = proto_stuck_reasons(in, state, r, MAX_REASONS);
    fputs("Why stuck\n", out);
    for (int i = 0; i < n && i < MAX_REASONS; i++)
        fprintf(out, "  %s: %s\n", r[i].who, r[i].why);
    if (n > MAX_REASONS)
        fprintf(out, "  (%d more)\n", n - MAX_REASONS);
    if (n == 0)
        fputs("  (no reason found: every thread is done, every channel empty, every final condition holds)\n", out);
    free(r);
}
