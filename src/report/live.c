/* report/live.c: the liveness answer in herd's block and in JSON (see report/live.h). */
#include "report/live.h"

#include <inttypes.h>

#include "report/report.h"

const char *report_live_verdict(const live_result *r)
{
    switch (r->verdict) {
    case LIVE_OK: return "Ok";
    case LIVE_NO: return "No";
    case LIVE_UNKNOWN: break;
    }
    return "Unknown";
}

static const char *kind_word(enum live_kind k)
{
    switch (k) {
    case LIVE_SPIN: return "spin";
    case LIVE_BARRIER: return "barrier";
    case LIVE_UNDISPATCHED: break;
    }
    return "undispatched";
}

static const lit_instr *stuck_instr(const litmus_test *t, const live_stuck *s)
{
    const lit_thread *th = &t->threads[s->thread];
    return s->instr >= 0 && s->instr < th->ninstrs ? &th->instrs[s->instr] : NULL;
}

static void herd_stuck(FILE *out, const litmus_test *t, const live_stuck *s)
{
    const lit_instr *in = stuck_instr(t, s);
    fprintf(out, "Stuck %s ", t->threads[s->thread].name);
    if (s->kind == LIVE_UNDISPATCHED) {
        fputs("never dispatched (no resident CTA finishes)\n", out);
        return;
    }
    fprintf(out, "%s at line %d `%s`", s->kind == LIVE_SPIN ? "spins in the loop" : "waits forever at the barrier",
            in ? in->line : 0, in && in->text ? in->text : "?");
    for (int k = 0; k < s->nreads; k++)
        fprintf(out, "%s%s=%" PRId64, k ? ", " : " reading ", t->locs[s->read_loc[k]].name, s->read_value[k]);
    fputc('\n', out);
}

void report_live_herd(FILE *out, const litmus_test *t, const void *live)
{
    const live_result *r = &((const report_live *)live)->result;
    fprintf(out, "Liveness %s %s\n", t->name, report_live_verdict(r));
    for (int i = 0; i < r->nstuck; i++)
        herd_stuck(out, t, &r->stuck[i]);
    if (r->verdict == LIVE_UNKNOWN)
        fprintf(out, "Warning %s: liveness not established: %s\n", t->name, r->unknown);
}

static void json_stuck(FILE *out, const litmus_test *t, const live_stuck *s)
{
    const lit_instr *in = stuck_instr(t, s);
    fputs("{\"thread\":", out);
    report_json_string(out, t->threads[s->thread].name);
    fprintf(out, ",\"kind\":\"%s\"", kind_word(s->kind));
    if (in) {
        fprintf(out, ",\"line\":%d,\"instruction\":", in->line);
        report_json_string(out, in->text ? in->text : "");
    }
    if (s->kind == LIVE_SPIN) {
        fputs(",\"reads\":[", out);
        for (int k = 0; k < s->nreads; k++) {
            fputs(k ? ",{\"location\":" : "{\"location\":", out);
            report_json_string(out, t->locs[s->read_loc[k]].name);
            fprintf(out, ",\"value\":%" PRId64 "}", s->read_value[k]);
        }
        fputc(']', out);
    }
    fputc('}', out);
}

void report_live_json(FILE *out, const litmus_test *t, const void *live)
{
    const live_result *r = &((const report_live *)live)->result;
    const live_options *o = &((const report_live *)live)->options;
    fprintf(out, ",\"liveness\":\"%s\",\"fairness\":\"%s\",\"occupancy\":%d,\"stuck\":[", report_live_verdict(r),
            o->fairness == LIVE_FAIR_WEAK ? "weak" : "none", o->occupancy);
    for (int i = 0; i < r->nstuck; i++) {
        if (i)
            fputc(',', out);
        json_stuck(out, t, &r->stuck[i]);
    }
    fputc(']', out);
    if (r->verdict == LIVE_UNKNOWN) {
        fputs(",\"liveness_unknown\":", out);
        report_json_string(out, r->unknown);
        fprintf(out, ",\"liveness_incomplete\":\"%s\"", r->incomplete);
    }
}
