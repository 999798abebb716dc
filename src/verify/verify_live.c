/* verify/verify_live.c: liveness for `scopecheck verify` (see verify/verify_live.h). */
#include "verify/verify_live.h"

#include <stdlib.h>
#include <string.h>

#include "verify/json_lines.h"
#include "report/report.h"

/* Where the protocol's threads run, for the scheduler. */
static int thread_cta(const void *in, int t, int *gpu) { return proto_thread_cta(in, t, gpu); }

static bool thread_waiting(const void *in, const uint8_t *state, int t)
{
    return proto_thread_waiting(in, state, t);
}

const nsi_model *verify_live_prepare(verify_live *vl, const schedule_opts *o, proto_instance *in,
                                     const char *proto_label, bfs_options *bo, FILE *err)
{
    memset(vl, 0, sizeof *vl);
    vl->opts = o;
    const nsi_model *m = proto_nsi(in);
    if (o->preempt && !proto_preempts(in)) {
        fprintf(err, "scopecheck verify: error: --preempt: protocol %s declares no context switch "
                     "(a `preempt` line in its tables)\n", proto_label);
        return NULL;
    }
    if (o->occupancy > 0 || o->preempt) {
        sched_options so = {.occupancy = o->occupancy > 0 ? o->occupancy : SCHEDULE_MAX_OCCUPANCY,
                            .preempt = o->preempt};
        sched_gpu gpu = {in, thread_cta, thread_waiting, proto_preempts(in)};
        vl->sched = sched_wrap(m, &gpu, &so);
        if (!vl->sched) {
            fprintf(err, "scopecheck verify: error: cannot schedule protocol %s's CTAs "
                         "(too many CTAs or too large a state)\n", proto_label);
            return NULL;
        }
        m = sched_nsi(vl->sched);
    }
    if (o->liveness) {
        if (vs_kind_probabilistic(bo->store)) {
            fprintf(err, "scopecheck verify: error: --liveness needs a lossless store (--store plain or tree): "
                         "the %s store keeps no graph of the states\n", vs_kind_name(bo->store));
            return NULL;
        }
        if (!m->fairness) {
            fprintf(err, "scopecheck verify: error: protocol %s's model has no threads to check liveness of\n",
                    proto_label);
            return NULL;
        }
        vl->graph = fc_graph_new(m);
        if (!vl->graph) {
            fprintf(err, "scopecheck verify: error: out of memory\n");
            return NULL;
        }
        bo->on_edge = fc_on_edge;
        bo->edge_ctx = vl->graph;
    }
    return m;
}

void verify_live_decide(verify_live *vl, const bfs_search *s, const bfs_result *r)
{
    if (!vl->graph)
        return;
    if (!r->complete) {
        vl->unknown = "the search stopped before every reachable state was explored";
        return;
    }
    if (!fc_search(vl->graph, s, vl->opts->fair_weak, &vl->result)) {
        vl->unknown = "out of memory for the state graph";
        return;
    }
    vl->decided = true;
}

void verify_live_undecided(verify_live *vl, const char *why)
{
    if (vl->graph)
        vl->unknown = why;
}

bool verify_live_failed(const verify_live *vl)
{
    return vl->decided && vl->result.ncycles > 0;
}

bool verify_live_unknown(const verify_live *vl)
{
    return vl->graph && !vl->decided;
}

static const char *verdict(const verify_live *vl)
{
    if (!vl->decided)
        return "Unknown";
    return vl->result.ncycles ? "No" : "Ok";
}

static void assumptions(FILE *out, const verify_live *vl)
{
    fprintf(out, "fairness %s", vl->opts->fair_weak ? "weak" : "none");
    if (vl->opts->occupancy > 0)
        fprintf(out, ", occupancy %d", vl->opts->occupancy);
    if (vl->opts->preempt)
        fputs(", preempt", out);
}

static void thread_name(FILE *out, const bfs_search *s, int t)
{
    const nsi_model *m = bfs_model(s);
    m->fairness->unit_name(m->ctx, t, out);
}

void verify_live_text(FILE *out, const verify_live *vl, const bfs_search *s, const proto_instance *in,
                      trace_detail detail)
{
    if (!vl->graph)
        return;
    fprintf(out, "Liveness %s (", verdict(vl));
    assumptions(out, vl);
    fputs(")\n", out);
    if (!vl->decided) {
        fprintf(out, "Warning liveness not established: %s\n", vl->unknown);
        return;
    }
    for (int i = 0; i < vl->result.ncycles; i++) {
        const fc_cycle *c = &vl->result.cycles[i];
        fputs("Violation non-progress cycle: ", out);
        thread_name(out, s, c->thread);
        fprintf(out, " never completes (a %scycle of %zu steps)\nTrace\n",
                vl->opts->fair_weak ? "weakly fair " : "", c->len);
        trace_print_lasso(out, s, in, c, detail);
    }
    fprintf(out, "liveness: %llu cyclic components, %llu edges, %.3f s, %.1f MiB\n",
            (unsigned long long)vl->result.components, (unsigned long long)vl->result.edges,
            vl->result.seconds, (double)vl->result.bytes / 1048576.0);
}

/* The lasso as two JSON arrays of lines: the stem and the cycle (split at
 * fc_print_lasso's marker). */
static void json_lasso(FILE *out, const bfs_search *s, const fc_cycle *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        fc_print_lasso(s, c, mem);
        fclose(mem);
    }
    char *marker = text ? strstr(text, "  -- cycle:") : NULL;
    char *cycle = marker ? strchr(marker, '\n') : NULL;
    if (marker)
        *marker = '\0';
    fputs("\"stem\":", out);
    json_lines(out, text);
    fputs(",\"cycle\":", out);
    json_lines(out, cycle ? cycle + 1 : NULL);
    free(text);
}

void verify_live_json(FILE *out, const verify_live *vl, const bfs_search *s)
{
    if (!vl->graph)
        return;
    fprintf(out, ",\"liveness\":\"%s\",\"fairness\":\"%s\",\"occupancy\":%d,\"preempt\":%s,\"cycles\":[",
            verdict(vl), vl->opts->fair_weak ? "weak" : "none", vl->opts->occupancy,
            vl->opts->preempt ? "true" : "false");
    for (int i = 0; vl->decided && i < vl->result.ncycles; i++) {
        const fc_cycle *c = &vl->result.cycles[i];
        char *name = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&name, &len);
        if (mem) {
            thread_name(mem, s, c->thread);
            fclose(mem);
        }
        fputs(i ? ",{\"thread\":" : "{\"thread\":", out);
        report_json_string(out, name ? name : "?");
        free(name);
        fputc(',', out);
        json_lasso(out, s, c);
        fputc('}', out);
    }
    fputc(']', out);
    if (!vl->decided) {
        fputs(",\"liveness_unknown\":", out);
        report_json_string(out, vl->unknown);
    }
}

void verify_live_free(verify_live *vl)
{
    fc_result_free(&vl->result);
    fc_graph_free(vl->graph);
    sched_free(vl->sched);
    vl->graph = NULL;
    vl->sched = NULL;
}
