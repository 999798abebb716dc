/* draw/graph_msc.c: `graph --msc` (see draw/graph_msc.h). */
#include "draw/graph_msc.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "draw/msc_draw.h"
#include "protocol/msc.h"
#include "protocol/step.h"
#include "report/report.h"
#include "search/bfs.h"

#define MAX_REASONS 8

/* The trace to draw: its last state and what it shows (a GC string); false
 * when there is none. */
static bool pick(const graph_input *g, const verify_collector *f, const bfs_search *s, const bfs_result *r,
                 uint32_t *state, char **why)
{
    size_t len = 0;
    FILE *mem = open_memstream(why, &len);
    if (!mem)
        return false;
    int width = g->t->nobserved, n = outcome_count(f->outcomes);
    const lit_value *all = outcome_values(f->outcomes);
    bool found = true;
    int unsound = -1;
    for (int i = 0; i < n && unsound < 0; i++)
        if (verify_classify_outcome(g->verdict, &all[(size_t)i * (size_t)width]) == VERIFY_OUTCOME_UNSOUND)
            unsound = i;
    if (unsound >= 0) {
        *state = f->witness[unsound];
        fputs("unsound outcome ", mem);
        report_state(mem, g->t, &all[(size_t)unsound * (size_t)width]);
        fprintf(mem, " (model %s forbids it)", g->model_name);
    } else if (r->stop == BFS_VIOLATION) {
        *state = r->violation_index;
        fprintf(mem, "invariant %s violated", r->violated);
    } else if (r->deadlocks_kept) {
        *state = r->deadlock_index[0];
        proto_reason reasons[MAX_REASONS];
        uint8_t *buf = GC_MALLOC_ATOMIC(bfs_model(s)->state_bytes);
        const uint8_t *st = buf ? bfs_state(s, *state, buf) : NULL;
        int k = st ? proto_stuck_reasons(g->inst, st, reasons, MAX_REASONS) : 0;
        fputs("deadlock", mem);
        for (int i = 0; i < k && i < MAX_REASONS; i++)
            fprintf(mem, "\n%s: %s", reasons[i].who, reasons[i].why);
    } else if (n && r->complete) {
        *state = f->witness[0];
        fputs("no counterexample; the shortest complete run, to outcome ", mem);
        report_state(mem, g->t, &all[0]);
    } else {
        found = false;
    }
    fclose(mem);
    char *copy = GC_STRDUP(*why ? *why : "");
    free(*why);
    *why = copy;
    return found;
}

/* The chart of the trace to `index`; NULL when out of memory. */
static msc_chart *chart_of(const graph_input *g, const bfs_search *s, uint32_t index, int *nsteps)
{
    size_t n = 0;
    bfs_step *steps = bfs_trace(s, index, &n);
    if (!steps)
        return NULL;
    uint8_t *states = bfs_trace_states(s, steps, n);
    if (!states) {
        free(steps);
        return NULL;
    }
    size_t sb = bfs_model(s)->state_bytes;
    proto_step_desc *d = GC_MALLOC(sizeof *d * (n ? n : 1));
    for (size_t k = 1; k < n; k++)
        proto_describe_step(g->inst, states + (k - 1) * sb, steps[k].rule, states + k * sb, &d[k - 1]);
    free(steps);
    free(states);
    *nsteps = (int)n - 1;
    return msc_build(g->inst, d, *nsteps);
}

static int draw(const graph_input *g, const bfs_search *s, const bfs_result *r, uint32_t index, const char *why,
                FILE *out, FILE *err)
{
    int nsteps = 0;
    msc_chart *c = chart_of(g, s, index, &nsteps);
    if (!c) {
        fputs("scopecheck graph: error: out of memory\n", err);
        return 2;
    }
    size_t n = strlen(why) + 256;
    char *title = GC_MALLOC_ATOMIC(n);
    snprintf(title, n, "%s on %s: %s\n%d steps%s", g->t->name, protocol_name(g->p), why, nsteps,
             r->complete || r->stop == BFS_VIOLATION ? "" : " (search cut by a limit)");
    int status = msc_draw(c, title, g->format, g->output, err);
    if (status == 0) {
        const char *nl = strchr(why, '\n');
        fprintf(out, "MSC %s protocol %s: %.*s\n%d steps, %d lifelines, %d arrows\nWrote %s\n", g->t->name,
                protocol_name(g->p), nl ? (int)(nl - why) : (int)strlen(why), why, nsteps, c->nlifelines,
                c->narrows, g->output);
    }
    return status;
}

int graph_msc(const graph_input *g, FILE *out, FILE *err)
{
    verify_collector f;
    verify_collector_init(&f, g->inst, g->t->nobserved);
    bfs_options bo = {.max_states = g->max_states, .on_final = verify_on_final, .final_ctx = &f};
    bfs_result r;
    bfs_search *s = bfs_run(proto_nsi(g->inst), &bo, &r);
    if (!s) {
        fprintf(err, "scopecheck graph: error: out of memory before the search of %s could start\n",
                g->litmus_path);
        return 2;
    }
    uint32_t index;
    char *why;
    int status = 2;
    if (pick(g, &f, s, &r, &index, &why))
        status = draw(g, s, &r, index, why, out, err);
    else
        fprintf(err,
                "scopecheck graph: error: no trace to draw: the search stopped early (%s) with no counterexample "
                "(raise --max-states)\n",
                bfs_stop_name(r.stop));
    bfs_free(s);
    return status;
}
