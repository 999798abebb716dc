/* protocol/msc.c: a trace as a message-sequence chart (see protocol/msc.h). */
#include "protocol/msc.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "base/textbuf.h"

/* A message sent and not yet matched to the step that takes it. */
typedef struct pending {
    proto_msg_ref ref;
    int lane, row, step;
    const char *detail;
    bool taken;
} pending;

typedef struct builder {
    const proto_instance *in;
    msc_chart *c;
    int *lane;                /* agent number -> lifeline, -1: none */
    int cap_arrows, cap_notes;
    pending *sent;
    int nsent, cap_sent;
} builder;

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = GC_MALLOC(size * (size_t)n);
    if (p && *cap)
        memcpy(q, p, size * (size_t)*cap);
    *cap = n;
    return q;
}

/* ---- lifelines ------------------------------------------------------------ */
static void mark(builder *b, const proto_agent *a, bool *used)
{
    int k = proto_agent_number(b->in, a);
    if (k >= 0 && k < proto_agent_count(b->in))
        used[k] = true;
}

/* By place: GPU, then CU (controllers not tied to one after those that
 * are), threads before controllers, then declaration and instance order. */
static long place_key(const proto_agent *a)
{
    long gpu = a->gpu < 0 ? 9999 : a->gpu, cu = a->cu < 0 ? 99999 : a->cu;
    long ctrl = a->ctrl < 0 ? 0 : 1 + a->ctrl;
    return ((gpu * 100000 + cu) * 100 + ctrl) * 100000 + a->index;
}

static int by_place(const void *x, const void *y)
{
    long a = place_key(x), b = place_key(y);
    return a < b ? -1 : a > b;
}

static void lifelines(builder *b, const proto_step_desc *steps, int nsteps)
{
    int n = proto_agent_count(b->in);
    bool *used = GC_MALLOC_ATOMIC(sizeof *used * (size_t)(n ? n : 1));
    memset(used, 0, sizeof *used * (size_t)(n ? n : 1));
    for (int k = 0; k < nsteps; k++) {
        const proto_step_desc *s = &steps[k];
        if (s->kind == PSTEP_NONE)
            continue;
        mark(b, &s->actor, used);
        if (s->thread >= 0) {
            proto_agent t;
            proto_agent_at(b->in, s->thread, &t);
            mark(b, &t, used);
        }
        for (int i = 0; i < s->nsends && i < PSTEP_MAX_SENDS; i++)
            mark(b, &s->sends[i].to, used);
    }
    msc_chart *c = b->c;
    c->lifelines = GC_MALLOC(sizeof *c->lifelines * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++)
        if (used[k])
            proto_agent_at(b->in, k, &c->lifelines[c->nlifelines++]);
    qsort(c->lifelines, (size_t)c->nlifelines, sizeof *c->lifelines, by_place);
    b->lane = GC_MALLOC_ATOMIC(sizeof *b->lane * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++)
        b->lane[k] = -1;
    for (int i = 0; i < c->nlifelines; i++)
        b->lane[proto_agent_number(b->in, &c->lifelines[i])] = i;
}

static int lane_of(const builder *b, const proto_agent *a)
{
    int k = proto_agent_number(b->in, a);
    return k >= 0 && k < proto_agent_count(b->in) ? b->lane[k] : -1;
}

static int thread_lane(const builder *b, int t)
{
    proto_agent a;
    proto_agent_at(b->in, t, &a);
    return lane_of(b, &a);
}

/* ---- arrows and notes --------------------------------------------------------- */
static void arrow(builder *b, msc_arrow a)
{
    msc_chart *c = b->c;
    if (a.from < 0 || a.to < 0)
        return;
    c->arrows = grow(c->arrows, &b->cap_arrows, c->narrows + 1, sizeof *c->arrows);
    c->arrows[c->narrows++] = a;
}

/* A note; one already at that lifeline and row gets the text appended. */
static void note(builder *b, int lane, int row, int step, const char *text, const char *detail)
{
    msc_chart *c = b->c;
    if (lane < 0)
        return;
    for (int i = 0; i < c->nnotes; i++)
        if (c->notes[i].lifeline == lane && c->notes[i].row == row) {
            size_t n = strlen(c->notes[i].text) + strlen(text) + 3;
            char *joined = GC_MALLOC_ATOMIC(n);
            snprintf(joined, n, "%s; %s", c->notes[i].text, text);
            c->notes[i].text = joined;
            return;
        }
    c->notes = grow(c->notes, &b->cap_notes, c->nnotes + 1, sizeof *c->notes);
    c->notes[c->nnotes++] = (msc_note){lane, row, step, GC_STRDUP(text), detail};
}

/* "step 3: TEXT (row FILE:LINE)". */
static const char *step_detail(const proto_step_desc *s, int step)
{
    char buf[PSTEP_TEXT_MAX + 256];
    textbuf t = tb_over(buf, sizeof buf);
    tb_printf(&t, "step %d: %s", step, s->text);
    if (s->row_file)
        tb_printf(&t, " (row %s:%d)", s->row_file, s->row_line);
    return GC_STRDUP(buf);
}

/* The oldest message sent on the same channel instance with the same
 * content that no step took yet. */
static pending *match_send(builder *b, const proto_msg_ref *m)
{
    for (int i = 0; i < b->nsent; i++) {
        pending *p = &b->sent[i];
        if (!p->taken && p->ref.chan == m->chan && p->ref.chan_inst == m->chan_inst &&
            strcmp(p->ref.text, m->text) == 0)
            return p;
    }
    return NULL;
}

static void receive(builder *b, const proto_step_desc *s, int lane, int row, int step, const char *detail)
{
    pending *p = match_send(b, &s->received);
    if (!p) {       /* sent before the trace began: cannot happen from the initial state */
        char text[PROTO_NAME_MAX * 3];
        snprintf(text, sizeof text, "took %s", s->received.text);
        note(b, lane, row, step, text, detail);
        return;
    }
    p->taken = true;
    size_t n = strlen(p->detail) + strlen(detail) + 2;
    char *both = GC_MALLOC_ATOMIC(n);
    snprintf(both, n, "%s\n%s", p->detail, detail);
    arrow(b, (msc_arrow){MSC_MESSAGE, p->lane, lane, p->row, row, p->step, step, GC_STRDUP(p->ref.text), both});
}

static void remember_sends(builder *b, const proto_step_desc *s, int lane, int row, int step, const char *detail)
{
    for (int i = 0; i < s->nsends && i < PSTEP_MAX_SENDS; i++) {
        b->sent = grow(b->sent, &b->cap_sent, b->nsent + 1, sizeof *b->sent);
        b->sent[b->nsent++] = (pending){s->sends[i], lane, row, step, detail, false};
    }
}

/* The notes of a step on its actor: a line's state change, the lines
 * invalidate_all dropped, an internal event, a barrier arrival. */
static void step_notes(builder *b, const proto_step_desc *s, int lane, int row, int step, const char *detail)
{
    char text[PSTEP_TEXT_MAX];
    textbuf t = tb_over(text, sizeof text);
    if (s->kind == PSTEP_INTERNAL)
        tb_printf(&t, "%s [%s]", s->event, s->loc ? s->loc : "?");
    else if (s->kind == PSTEP_BARRIER || s->kind == PSTEP_LOCAL) {
        const char *arrow_at = strstr(s->text, " -> ");
        tb_printf(&t, "%s%s:%s", s->kind == PSTEP_LOCAL ? "local " : "", s->event, arrow_at ? arrow_at + 3 : "");
    }
    if (s->loc && s->next_state && strcmp(s->state, s->next_state) != 0)
        tb_printf(&t, "%s[%s] %s -> %s", t.len ? "; " : "", s->loc, s->state, s->next_state);
    if (s->ndrops) {
        tb_printf(&t, "%sinvalidate_all dropped ", t.len ? "; " : "");
        for (int i = 0; i < s->ndrops && i < PSTEP_MAX_DROPS; i++)
            tb_printf(&t, "%s%s (%s)", i ? ", " : "", s->drops[i].loc, s->drops[i].held);
    }
    if (t.len)
        note(b, lane, row, step, text, detail);
}

/* "r1 = 1" for the values read, else "done". */
static const char *return_label(const proto_step_desc *s)
{
    char text[PROTO_NAME_MAX * 2];
    textbuf t = tb_over(text, sizeof text);
    for (int i = 0; i < s->nreads && i < PSTEP_MAX_READS; i++)
        tb_printf(&t, "%s%s = %ld", i ? ", " : "", s->reads[i].reg, s->reads[i].value);
    if (!t.len)
        tb_puts(&t, "done");
    return GC_STRDUP(text);
}

static int add_step(builder *b, const proto_step_desc *s, int row, int step)
{
    int lane = lane_of(b, &s->actor);
    int tlane = s->thread >= 0 ? thread_lane(b, s->thread) : -1;
    const char *detail = step_detail(s, step);
    if (s->kind == PSTEP_PROCESSOR)
        arrow(b, (msc_arrow){MSC_CALL, tlane, lane, row, row, step, step,
                             GC_STRDUP(s->instr ? s->instr : s->event), detail});
    else if (s->kind == PSTEP_RECEIVE)
        receive(b, s, lane, row, step, detail);
    remember_sends(b, s, lane, row, step, detail);
    step_notes(b, s, lane, row, step, detail);
    bool hands_back = s->nreads > 0 || (s->kind == PSTEP_RECEIVE && s->completes);
    if (!hands_back || tlane < 0 || s->kind == PSTEP_BARRIER || s->kind == PSTEP_LOCAL)
        return row;
    arrow(b, (msc_arrow){MSC_RETURN, lane, tlane, row + 1, row + 1, step, step, return_label(s), detail});
    return row + 1;
}

msc_chart *msc_build(const proto_instance *in, const proto_step_desc *steps, int nsteps)
{
    msc_chart *c = GC_MALLOC(sizeof *c);
    builder b = {in, c, NULL, 0, 0, NULL, 0, 0};
    lifelines(&b, steps, nsteps);
    int row = 0;
    for (int k = 0; k < nsteps; k++)
        if (steps[k].kind != PSTEP_NONE)
            row = add_step(&b, &steps[k], row + 1, k + 1);
    bool in_flight = false;
    for (int i = 0; i < b.nsent; i++) {
        pending *p = &b.sent[i];
        if (p->taken)
            continue;
        in_flight = true;
        arrow(&b, (msc_arrow){MSC_IN_FLIGHT, p->lane, lane_of(&b, &p->ref.to), p->row, row + 1, p->step, -1,
                              GC_STRDUP(p->ref.text), p->detail});
    }
    c->nrows = row + in_flight;
    return c;
}
