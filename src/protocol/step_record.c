/* protocol/step_record.c: a step as a record of strings (protocol/step.h's
 * proto_step_record), converted from proto_describe_step so that the JSON
 * traces and the text traces come from one replay. */
#include <gc.h>
#include <string.h>

#include "protocol/internal.h"

static void record_add(const char **items, int *n, const char *s)
{
    if (*n < PROTO_RECORD_MAX_ITEMS)
        items[(*n)++] = s;
}

/* The actions the replay recorded, each whole (an action's text may hold
 * "; ", as invalidate_all's list of dropped lines does); the messages
 * sent ("req[0] Load(x)") and the values read ("P1:r0=1"). */
static void record_lists(const proto_step_desc *s, proto_step_record *out)
{
    for (int k = 0; k < s->nactions; k++)
        record_add(out->actions, &out->nactions, GC_STRNDUP(s->text + s->actions[k].start, s->actions[k].len));
    for (int k = 0; k < s->nsends; k++) {
        char buf[PROTO_NAME_MAX * 4];
        snprintf(buf, sizeof buf, "%s %s", s->sends[k].channel, s->sends[k].text);
        record_add(out->sent, &out->nsent, GC_STRDUP(buf));
    }
    for (int k = 0; k < s->nreads; k++) {
        char buf[96];
        snprintf(buf, sizeof buf, "%s:%s=%ld", s->reads[k].thread_name, s->reads[k].reg, s->reads[k].value);
        record_add(out->read, &out->nread, GC_STRDUP(buf));
    }
}

/* Who took the step: the thread and its instruction's litmus line (a
 * message or internal step names a thread only in its text), the
 * controller instance. */
static void record_who(const proto_instance *in, const uint8_t *state, const proto_step_desc *s,
                       proto_step_record *out)
{
    bool by_thread = s->kind == PSTEP_PROCESSOR || s->kind == PSTEP_BARRIER || s->kind == PSTEP_LOCAL;
    out->thread = by_thread ? s->thread_name : NULL;
    if (by_thread && s->thread >= 0 && s->instr) {
        int32_t v[PROTO_MAX_SLOTS];
        proto_unpack(in, state, v);
        const lit_instr *ins = proto_current_instr(in, v, s->thread);
        out->litmus_line = ins ? ins->line : 0;
        out->instruction = s->instr;
    }
    if (s->actor.ctrl >= 0) {
        out->controller = in->p->ctrls[s->actor.ctrl].name;
        out->instance_kind = proto_instance_kind(in, s->actor.ctrl);
        if (out->instance_kind)
            out->instance = s->actor.index;
    }
}

bool proto_step_record_of(const proto_instance *in, const uint8_t *state, int rule, const uint8_t *next,
                          proto_step_record *out)
{
    proto_step_desc s;
    proto_describe_step(in, state, rule, next, &s);
    memset(out, 0, sizeof *out);
    out->instance = -1;
    if (s.kind == PSTEP_NONE && !s.fired && s.thread < 0 && s.actor.ctrl < 0)
        return false;
    record_who(in, state, &s, out);
    out->address = s.loc;
    out->state = s.state;
    out->next_state = s.next_state;
    out->event = s.kind == PSTEP_BARRIER ? "barrier" : GC_STRDUP(s.event);
    out->row_file = s.row_file;
    out->row_line = s.row_line;
    record_lists(&s, out);
    if (s.kind == PSTEP_BARRIER)
        out->note = GC_STRDUP(s.text);
    else if (!s.row_file)
        out->note = strstr(s.text, "no guard holds") ? "no guard holds" : "no row";
    return true;
}
