/* verify/trace_json.c: see verify/trace_json.h. */
#include "verify/trace_json.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/step.h"
#include "report/report.h"

static void member_string(FILE *out, const char *key, const char *value)
{
    if (!value)
        return;
    fprintf(out, ",\"%s\":", key);
    report_json_string(out, value);
}

static void member_list(FILE *out, const char *key, const char *const *items, int n)
{
    fprintf(out, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        report_json_string(out, items[i]);
    }
    fputc(']', out);
}

/* The model's one-line description, without its line end. */
static void member_text(FILE *out, const nsi_model *m, const uint8_t *from, int rule, const uint8_t *to)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = m->describe ? open_memstream(&buf, &len) : NULL;
    if (!mem) {
        fprintf(out, ",\"rule\":%d", rule);
        return;
    }
    m->describe(m->ctx, from, rule, to, mem);
    fclose(mem);
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
        buf[--len] = '\0';
    member_string(out, "text", buf);
    free(buf);
}

static void step_members(FILE *out, const proto_step_record *st)
{
    member_string(out, "thread", st->thread);
    if (st->litmus_line > 0)
        fprintf(out, ",\"line\":%d", st->litmus_line);
    member_string(out, "instruction", st->instruction);
    member_string(out, "controller", st->controller);
    if (st->instance_kind) {
        fputs(",\"instance\":{\"kind\":", out);
        report_json_string(out, st->instance_kind);
        fprintf(out, ",\"index\":%d}", st->instance);
    }
    member_string(out, "address", st->address);
    member_string(out, "state", st->state);
    member_string(out, "event", st->event);
    if (st->row_file && st->row_line > 0) {
        fputs(",\"row\":", out);
        size_t n = strlen(st->row_file) + 24;
        char *row = malloc(n);
        if (row) {
            snprintf(row, n, "%s:%d", st->row_file, st->row_line);
            report_json_string(out, row);
            free(row);
        } else {
            report_json_string(out, st->row_file);
        }
    }
    if (st->nactions)
        member_list(out, "actions", st->actions, st->nactions);
    if (st->controller) {
        member_list(out, "sent", st->sent, st->nsent);
        member_list(out, "read", st->read, st->nread);
    }
    member_string(out, "next_state", st->next_state);
    member_string(out, "note", st->note);
}

/* The step's record: the scheduler's own step, or the protocol's. */
static void step_record(FILE *out, const proto_instance *in, const sched_model *sched, const uint8_t *from, int rule,
                        const uint8_t *to)
{
    sched_step ss;
    proto_step_record st;
    if (sched && sched_step_of(sched, rule, &ss)) {
        st = (proto_step_record){.thread = ss.who, .event = ss.event, .note = ss.note, .instance = -1};
        step_members(out, &st);
    } else if (proto_step_record_of(in, from, rule, to, &st)) {
        step_members(out, &st);
    }
}

void trace_json_path(FILE *out, const nsi_model *m, const proto_instance *in, const sched_model *sched,
                     const bfs_path *p)
{
    fputc('[', out);
    if (!p) {
        fputs("{\"step\":0,\"note\":\"trace unavailable: out of memory\"}]", out);
        return;
    }
    fputs("{\"step\":0,\"initial\":true}", out);
    for (size_t k = 1; k < p->len; k++) {
        const uint8_t *from = bfs_path_state(p, k - 1), *to = bfs_path_state(p, k);
        fprintf(out, ",{\"step\":%zu", k);
        member_text(out, m, from, p->rules[k], to);
        step_record(out, in, sched, from, p->rules[k], to);
        fputc('}', out);
    }
    fputc(']', out);
}

void trace_json(FILE *out, const bfs_search *s, const proto_instance *in, const sched_model *sched, uint32_t index)
{
    bfs_path *p = bfs_path_to(s, index);
    trace_json_path(out, bfs_model(s), in, sched, p);
    bfs_path_free(p);
}
