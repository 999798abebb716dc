/* sim/machine.c: the event loop of one run (see sim/machine.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/expr_text.h"
#include "sim/internal.h"

/* R_STAYED: a processor row fired but neither completed the operation nor
 * made it wait (a release that first starts a flush): the operation is
 * offered again, as the checker offers a thread's instruction again. */
enum try_result { R_FIRED, R_STAYED, R_BLOCKED, R_EMPTY };

/* The ready-list item that offers an instance's internal events (other
 * than evict); threads are >= 0, channel instances -1 - number. */
#define INTERNAL_ITEM INT32_MIN

static void fatal(machine *m, const char *fmt, const char *a, const char *b, const char *c)
{
    if (m->fatal)
        return;
    fprintf(m->errors, "scopesim: error: ");
    fprintf(m->errors, fmt, a, b, c);
    fprintf(m->errors, " (cycle %llu)\n", (unsigned long long)m->now);
    m->fatal = true;
    m->status = 1;
}

static void schedule(machine *m, uint64_t t, int kind, int id)
{
    if (!queue_push(&m->queue, t, (uint32_t)kind, (uint32_t)id))
        fatal(m, "out of memory for the event queue%s%s%s", "", "", "");
}

/* Controller instance x should serve at t (or when it is next free). */
static void poke(machine *m, int x, uint64_t t)
{
    ctl_inst *ci = &m->ci[x];
    if (t < ci->busy_until)
        t = ci->busy_until;
    if (ci->wake_at <= t)
        return;
    ci->wake_at = t;
    schedule(m, t, EV_CTL, x);
}

static void serve(machine *m, int xi);

/* From an event handler: serve x now if it is free, without a trip
 * through the event queue; else as poke. */
static void poke_now(machine *m, int x)
{
    ctl_inst *ci = &m->ci[x];
    if (ci->busy_until <= m->now && ci->wake_at > m->now) {
        ci->wake_at = m->now;
        serve(m, x);
        return;
    }
    poke(m, x, m->now);
}

static void wake_warp(machine *m, int w, uint64_t t)
{
    sim_warp *wp = &m->warps.w[w];
    if (wp->wake_at <= t)
        return;
    wp->wake_at = t;
    schedule(m, t, EV_WARP, w);
}

static void ready_push(ctl_inst *x, int32_t item)
{
    int i = x->rhead + x->rcount;      /* the ring never holds more than rcap */
    x->ready[i < x->rcap ? i : i - x->rcap] = item;
    x->rcount++;
}

static int32_t ready_pop(ctl_inst *x)
{
    int32_t item = x->ready[x->rhead];
    x->rhead = x->rhead + 1 < x->rcap ? x->rhead + 1 : 0;
    x->rcount--;
    return item;
}

/* The instance's state changed: what could not fire may fire now. */
static void unblock(ctl_inst *x)
{
    for (int i = 0; i < x->nblocked; i++)
        ready_push(x, x->blocked[i]);
    x->nblocked = 0;
}

/* A channel drained: what waited for room may fire now. */
static void unpark(ctl_inst *x)
{
    for (int i = 0; i < x->nparked; i++)
        ready_push(x, x->parked[i]);
    x->nparked = 0;
}

/* ---- messages ------------------------------------------------------------------------------ */

static int link_class(sim_place a, sim_place b)
{
    return a.gpu != b.gpu ? LINK_GPU : a.gpm != b.gpm ? LINK_GPM : LINK_LOCAL;
}

/* When a message that leaves at `depart` arrives, after the link it
 * crosses (serialised at the link's bandwidth, then its latency); FIFO
 * channel instances never reorder. */
static uint64_t cross(machine *m, const ctl_inst *from, chan_inst *ch, int bytes, uint64_t depart)
{
    sim_place a = from->at, b = m->ci[ch->dest_ci].at;
    int cls = link_class(a, b);
    const sim_link_conf *l = cls == LINK_LOCAL && m->chan_port[ch->chan] ? m->chan_port[ch->chan] : &m->s->link[cls];
    int pair = cls == LINK_GPM ? a.gpm * m->ngpm_total + b.gpm : a.gpu * m->s->gpus + b.gpu;
    uint64_t *free_at = cls == LINK_LOCAL ? &ch->free_at : cls == LINK_GPM ? &m->gpm_link_free[pair]
                                                                            : &m->gpu_link_free[pair];
    uint64_t ser = (uint64_t)((double)bytes / l->bandwidth + 0.999999);
    *(cls == LINK_LOCAL ? &ch->busy : cls == LINK_GPM ? &m->gpm_link_busy[pair] : &m->gpu_link_busy[pair]) += ser;
    uint64_t start = depart > *free_at ? depart : *free_at;
    *free_at = start + ser;
    uint64_t arrive = start + ser + (uint64_t)l->latency;
    if (!m->t->chans[ch->chan].unordered) {
        if (arrive < ch->last_arrive)
            arrive = ch->last_arrive;
        ch->last_arrive = arrive;
    }
    m->r->link_messages[cls]++;
    m->r->link_bytes[cls] += (uint64_t)bytes;
    return arrive;
}

static int channel_instance(const machine *m, int chan, int sender_inst, int d)
{
    const sim_chan *ch = &m->t->chans[chan];
    return m->chan_first[chan] + (ch->per_source ? sender_inst * ch->ndest + d : d);
}

/* The destinations of a send, into out (at most ndest); their count. */
static int destinations(const sim_send *s, int ndest, int *out)
{
    int n = 0;
    switch (s->dest) {
    case SD_SELF:
    case SD_INDEX: out[n++] = s->index; break;
    case SD_ALL:
        for (int d = 0; d < ndest; d++)
            out[n++] = d;
        break;
    case SD_EACH:
        for (int w = 0; w < SIM_EACH_WORDS; w++)
            for (uint64_t bits = s->each[w]; bits; bits &= bits - 1)
                out[n++] = w * 64 + __builtin_ctzll(bits);
        break;
    }
    return n;
}

static bool sends_to(const sim_send *s, int d)
{
    switch (s->dest) {
    case SD_SELF:
    case SD_INDEX: return d == s->index;
    case SD_EACH: return s->each[d / 64] >> (d % 64) & 1;
    case SD_ALL: return true;
    }
    return false;
}

/* Whether every message the row sends fits its channel instance (several
 * sends of one row to one instance all need room). */
static bool sends_fit(machine *m, const ctl_inst *x, const sim_effects *fx)
{
    for (int k = 0; k < fx->nsends; k++) {
        const sim_send *s = &fx->sends[k];
        int nd = m->t->chans[s->chan].ndest, n = destinations(s, nd, m->dests);
        for (int i = 0; i < n; i++) {
            int need = 1;
            for (int j = 0; j < k; j++)
                need += fx->sends[j].chan == s->chan && sends_to(&fx->sends[j], m->dests[i]);
            chan_inst *ch = &m->chi[channel_instance(m, s->chan, x->inst, m->dests[i])];
            if (ch->count + need > m->s->channel_capacity) {
                ch->waiters = true;
                return false;
            }
        }
    }
    return true;
}

static void send_all(machine *m, const ctl_inst *x, const sim_effects *fx, int tid, uint64_t depart)
{
    for (int k = 0; k < fx->nsends; k++) {
        const sim_send *s = &fx->sends[k];
        int bytes = m->msg_bytes[s->msg], n = destinations(s, m->t->chans[s->chan].ndest, m->dests);
        for (int i = 0; i < n; i++) {
            int msg = m->msg_free;
            if (msg < 0) {
                fatal(m, "the message pool ran out%s%s%s", "", "", "");
                return;
            }
            int ci = channel_instance(m, s->chan, x->inst, m->dests[i]);
            m->msg_free = m->msg_next[msg];
            m->msg_next[msg] = -1;
            m->msg_ci[msg] = ci;
            m->msg_type[msg] = (int16_t)s->msg;
            m->msg_tid[msg] = (int16_t)tid;
            memcpy(&m->msg_fields[(size_t)msg * SIM_MAX_FIELDS], s->fields, sizeof s->fields);
            m->chi[ci].count++;
            m->r->chan[s->chan].messages++;
            m->r->chan[s->chan].bytes += (uint64_t)bytes;
            m->r->messages++;
            m->r->bytes += (uint64_t)bytes;
            schedule(m, cross(m, x, &m->chi[ci], bytes, depart), EV_ARRIVE, msg);
        }
    }
}

/* Takes message msg out of its channel instance (at position prev's next). */
static void consume(machine *m, chan_inst *ch, int32_t prev, int32_t msg)
{
    if (prev < 0)
        ch->head = m->msg_next[msg];
    else
        m->msg_next[prev] = m->msg_next[msg];
    if (ch->tail == msg)
        ch->tail = prev;
    ch->count--;
    m->msg_next[msg] = m->msg_free;
    m->msg_free = msg;
    if (ch->waiters) {                  /* a sender waited for room: it may go on */
        ch->waiters = false;
        const ctl_kind *k = &m->kinds[m->t->chans[ch->chan].from];
        int n = m->t->ctrls[m->t->chans[ch->chan].from].ninst;
        for (int i = ch->sender >= 0 ? ch->sender : 0; i < (ch->sender >= 0 ? ch->sender + 1 : n); i++) {
            ctl_inst *x = &m->ci[k->first + i];
            if (x->nparked) {
                unpark(x);
                poke(m, k->first + i, m->now);
            }
        }
    }
}

/* ---- committing a fired row ----------------------------------------------------------------- */

/* The event being fired: who, where, what. */
typedef struct firing {
    int xi;                     /* controller instance (m->ci) */
    sim_event_desc ev;
    sim_ctx ctx;
    int thread;                 /* the thread whose operation it is or whose message it answers, or -1 */
    bool processor;             /* a processor event (the thread's own operation) */
    bool request;               /* a message from a controller closer to the CUs */
    int msg_type;
    bool stayed;                /* set by commit: see R_STAYED */
} firing;

/* Resets the instance's other lines (invalidate_all), keeping `keep` fields. */
static void invalidate_others(machine *m, ctl_inst *x, uint64_t except, bool has_except)
{
    ctl_kind *k = &m->kinds[x->ctrl];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    int32_t rec = k->lines.inst_head[x->inst];
    while (rec >= 0) {
        int32_t next = k->lines.next[rec];
        uint64_t a = lines_addr(&k->lines, rec);
        if (!has_except || a != except) {
            int64_t *slots = lines_slots(&k->lines, rec);
            machine_default_line(m, x->ctrl, a, m->default_line);
            slots[0] = m->default_line[0];
            for (int f = 0; f < ct->nfields; f++)
                if (!ct->fields[f].keep)
                    memcpy(&slots[ct->field_off[f]], &m->default_line[ct->field_off[f]],
                           sizeof *slots * (size_t)ct->fields[f].type.slots);
            if (k->lines.frame[rec] >= 0) {
                cache_clear(&x->cache, k->lines.frame[rec]);
                k->lines.frame[rec] = -1;
            }
            if (!memcmp(slots, m->default_line, sizeof *slots * (size_t)ct->line_slots))
                lines_remove(&k->lines, rec);
        }
        rec = next;
    }
}

/* Writes the line a row left back: stored while it differs from its
 * initial contents, in a frame while it is out of its initial state.
 * `line` is the scratch copy if the row changed it, else the stored
 * record (or the initial contents when none is stored). */
static void write_line(machine *m, ctl_inst *x, int32_t rec, uint64_t addr, const int64_t *line)
{
    ctl_kind *k = &m->kinds[x->ctrl];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    const int64_t *initial = m->line_default;     /* this line's, from fire_event */
    if (line != m->scratch_line) {              /* unchanged: only the replacement order moves */
        if (rec < 0 || !k->capacity)
            return;
        if (line[0] != 0 && k->lines.frame[rec] >= 0) {
            cache_touch(&x->cache, k->lines.frame[rec]);
            return;
        }
    }
    if (rec >= 0 && k->lines.frame[rec] >= 0 && line[0] == 0) {
        cache_clear(&x->cache, k->lines.frame[rec]);
        k->lines.frame[rec] = -1;
    }
    if (!memcmp(line, initial, sizeof *line * (size_t)ct->line_slots)) {
        if (rec >= 0)
            lines_remove(&k->lines, rec);
        return;
    }
    if (rec >= 0 && line != lines_slots(&k->lines, rec))
        memcpy(lines_slots(&k->lines, rec), line, sizeof *line * (size_t)ct->line_slots);
    else if (rec < 0 && (rec = lines_add(&k->lines, x->inst, addr, line)) < 0) {
        fatal(m, "out of memory for lines%s%s%s", "", "", "");
        return;
    }
    if (!k->capacity || line[0] == 0)
        return;
    if (k->lines.frame[rec] >= 0) {
        cache_touch(&x->cache, k->lines.frame[rec]);
        return;
    }
    long f = cache_free_frame(&x->cache, cache_set_of(&x->cache, addr));
    cache_fill(&x->cache, f, addr, rec);
    k->lines.frame[rec] = (int32_t)f;
}

/* Extra cycles a memory-backed controller's access takes: its
 * memory-side cache, else DRAM (serialised at its bandwidth). */
static uint64_t memory_delay(machine *m, ctl_inst *x, uint64_t addr, sim_ctrl_stats *st)
{
    ctl_kind *k = &m->kinds[x->ctrl];
    if (k->timing_cache) {
        if (cache_access(&x->memcache, addr)) {
            st->mem_hits++;
            return 0;
        }
        st->mem_misses++;
    }
    st->dram++;
    uint64_t ser = (uint64_t)((double)m->s->line_bytes / m->s->dram_bandwidth + 0.999999);
    uint64_t start = m->now > x->dram_free ? m->now : x->dram_free;
    x->dram_free = start + ser;
    return start - m->now + (uint64_t)m->s->dram_latency;
}

static void count_event(machine *m, const firing *f, const sim_row *row, int64_t old_state, const sim_effects *fx,
                        sim_ctrl_stats *st)
{
    st->events++;
    m->r->events++;
    if (row->writes_line)
        st->writes++;
    else
        st->reads++;
    bool read_like = f->processor ? f->ev.kind == SE_LOAD
                   : f->request && !m->t->msgs[f->msg_type].carries_value && !m->t->ctrls[f->ctx.ctrl].memory_backed;
    if (!read_like)
        return;
    bool hit = f->processor ? fx->done && fx->nsends == 0 : old_state != 0;
    if (hit)
        st->read_hits++;
    else
        st->read_misses++;
}

static void thread_effects(machine *m, firing *f, const sim_effects *fx, uint64_t at)
{
    if (f->thread < 0)
        return;
    sim_thread *th = &m->warps.th[f->thread];
    if (fx->reg_set)
        th->result = fx->reg;
    if (f->processor && !fx->done && !fx->wait) {
        f->stayed = true;
    } else if (f->processor) {
        warps_fired(&m->warps, f->thread, m->now, fx->done, at, th->result);
        uint64_t ready = m->warps.w[th->warp].ready_at;
        wake_warp(m, th->warp, ready > m->now ? ready : m->now);
    } else if (fx->done && th->state == TS_WAITING) {
        warps_completed(&m->warps, f->thread, at, th->result);
        wake_warp(m, th->warp, at);
    }
}

static void commit(machine *m, firing *f, int32_t rec, const sim_row *row, const sim_effects *fx, int64_t old_state)
{
    ctl_inst *x = &m->ci[f->xi];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    sim_ctrl_stats *st = &m->r->ctrl[x->ctrl];
    count_event(m, f, row, old_state, fx, st);
    if (f->ctx.has_line)
        write_line(m, x, rec, f->ctx.addr, f->ctx.line);
    if (f->ctx.vars != x->vars)
        memcpy(x->vars, f->ctx.vars, sizeof *x->vars * (size_t)ct->var_slots);
    if (fx->inv_all)
        invalidate_others(m, x, f->ctx.addr, f->ctx.has_line);
    const sim_ctl_conf *conf = &m->kinds[x->ctrl].conf;
    uint64_t delay = (uint64_t)(f->ev.kind == SE_RECV && conf->fill >= 0 ? conf->fill : conf->latency);
    if (ct->memory_backed && f->ev.kind == SE_RECV && m->kinds[x->ctrl].row_touches_memory[row - ct->rows])
        delay += memory_delay(m, x, f->ctx.addr, st);
    send_all(m, x, fx, f->ctx.tid, m->now + delay);
    thread_effects(m, f, fx, m->now + delay);
}

/* ---- firing an event ---------------------------------------------------------------------- */

static enum try_result fire_event(machine *m, firing *f, enum sim_stall *cause);

/* Gives up a frame of the set by firing the tables' evict row on a
 * victim (best first); false when no line of the set can be evicted now. */
static bool evict_one(machine *m, int xi, int set)
{
    ctl_inst *x = &m->ci[xi];
    ctl_kind *k = &m->kinds[x->ctrl];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    long order[SIM_MAX_ASSOC];
    int n = cache_victims(&x->cache, set, order);
    for (int i = 0; i < n; i++) {
        int32_t rec = x->cache.payload[order[i]];
        if (rec < 0)
            continue;
        firing v = {.xi = xi, .thread = -1, .msg_type = -1};
        v.ev = (sim_event_desc){.kind = SE_INTERNAL, .internal = ct->evict};
        v.ctx = (sim_ctx){.t = m->t, .ctrl = x->ctrl, .inst = x->inst, .cu_gpu = m->cu_gpu, .has_line = true,
                          .addr = lines_addr(&k->lines, rec), .tid = -1, .order = -1,
                          .cu = ct->level == SL_CU ? x->inst : -1,
                          .gpu = ct->level == SL_CU ? m->cu_gpu[x->inst] : ct->level == SL_GPU ? x->inst : -1};
        enum sim_stall cause;
        if (fire_event(m, &v, &cause) != R_FIRED)
            continue;
        m->r->ctrl[x->ctrl].evictions++;
        if (x->cache.payload[order[i]] >= 0 && x->cache.tag[order[i]] == v.ctx.addr) {
            char state[16];
            snprintf(state, sizeof state, "%d", (int)lines_slots(&k->lines, x->cache.payload[order[i]])[0]);
            fatal(m, "%s's evict row leaves a line in state %s, not the initial state %s: the simulator needs "
                     "eviction to free the frame", ct->name, state, ct->states[0]);
        }
        return true;
    }
    return false;
}

/* The event as the tables name it: "recv req.Load", "store.release.sys". */
static void event_name(const machine *m, const firing *f, char *ev, size_t n)
{
    if (f->ev.kind == SE_RECV)
        snprintf(ev, n, "recv %s.%s", m->t->chans[f->ev.chan].name, m->t->msgs[f->ev.msg].name);
    else if (f->ev.kind == SE_INTERNAL)
        snprintf(ev, n, "%s", m->t->ctrls[f->ctx.ctrl].internal[f->ev.internal]);
    else
        snprintf(ev, n, "%s.%s%s%s", vocab_event_kinds[f->ev.kind], vocab_orders[f->ev.order],
                 vocab_scope_suffixes[f->ev.scope % SIM_NSCOPES], f->ev.remote ? ".remote" : "");
}

static void unhandled(machine *m, const firing *f, int64_t state)
{
    const sim_ctrl *ct = &m->t->ctrls[f->ctx.ctrl];
    char ev[96];
    event_name(m, f, ev, sizeof ev);
    fatal(m, "controller %s in state %s has no row for %s: the verified tests never reached this pair, so the "
             "tables do not cover this run (check them with a test that reaches it)", ct->name,
          ct->states[state >= 0 && state < ct->nstates ? state : 0], ev);
}

/* Points f's context at its line (stored, or the initial contents) and
 * the instance's variables, with the scratch buffers: the row reads them
 * in place and sim_fire copies what a row changes (see sim/interp.h).
 * Returns the line's record, or -1. */
static inline __attribute__((always_inline)) int32_t load_line(machine *m, firing *f)
{
    ctl_inst *x = &m->ci[f->xi];
    ctl_kind *k = &m->kinds[x->ctrl];
    int32_t rec = f->ctx.has_line ? lines_find(&k->lines, x->inst, f->ctx.addr) : -1;
    int64_t *initial = k->line_init;
    if (f->ctx.has_line && m->t->ctrls[x->ctrl].memory_backed) {   /* the memory field's initial value depends on the address */
        machine_default_line(m, x->ctrl, f->ctx.addr, m->default_line);
        initial = m->default_line;
    }
    m->line_default = initial;
    f->ctx.line = !f->ctx.has_line ? m->scratch_line : rec >= 0 ? lines_slots(&k->lines, rec) : initial;
    f->ctx.line_init = initial;
    f->ctx.vars = x->vars;
    f->ctx.line_scratch = m->scratch_line;
    f->ctx.vars_scratch = m->scratch_vars;
    return rec;
}

static enum try_result fire_event(machine *m, firing *f, enum sim_stall *cause)
{
    ctl_inst *x = &m->ci[f->xi];
    ctl_kind *k = &m->kinds[x->ctrl];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    for (int attempt = 0; attempt < 2 * SIM_MAX_ASSOC; attempt++) {
        int32_t rec = load_line(m, f);
        int64_t old_state = f->ctx.has_line ? f->ctx.line[0] : 0;
        if (f->processor && ct->hold && sim_held(&f->ctx)) {
            *cause = STALL_HOLD;
            return R_BLOCKED;
        }
        const sim_row *row;
        sim_effects fx;
        enum sim_fire r = sim_fire(&f->ctx, &f->ev, &row, &fx);
        if (r == FIRE_UNHANDLED) {
            unhandled(m, f, old_state);
            return R_BLOCKED;
        }
        if (r == FIRE_BLOCKED) {
            *cause = STALL_NONE;
            return R_BLOCKED;
        }
        if (k->capacity && f->ctx.has_line && old_state == 0 && f->ctx.line[0] != 0 &&
            (rec < 0 || k->lines.frame[rec] < 0)) {
            int set = cache_set_of(&x->cache, f->ctx.addr);
            if (cache_free_frame(&x->cache, set) < 0) {
                if (!evict_one(m, f->xi, set)) {
                    *cause = STALL_SET_FULL;
                    return R_BLOCKED;
                }
                continue;       /* the eviction changed the instance: choose the row again */
            }
        }
        if (!sends_fit(m, x, &fx)) {
            *cause = STALL_CHANNEL_FULL;
            return R_BLOCKED;
        }
        commit(m, f, rec, row, &fx, old_state);
        return R_FIRED;
    }
    *cause = STALL_SET_FULL;
    return R_BLOCKED;
}

/* ---- items: a thread's operation, a channel's messages -------------------------------------- */

static void thread_context(const machine *m, sim_ctx *c, int thread)
{
    c->has_thread = thread >= 0;
    if (thread < 0)
        return;
    const sim_thread *th = &m->warps.th[thread];
    bool live = th->state != TS_FREE;
    c->order = live ? th->op.order : -1;
    c->value = live ? th->op.a : 0;
    c->rmw_op = th->op.rmw;
    c->rmw_has_a = th->op.rmw_has_a;
    c->rmw_b = th->op.b;
}

/* Thread t's operation offered to instance xi. */
static inline __attribute__((always_inline)) void thread_firing(const machine *m, int xi, int t, firing *f)
{
    const ctl_inst *x = &m->ci[xi];
    const sim_op *op = &m->warps.th[t].op;
    static const enum sim_ev kinds[] = {SE_LOAD, SE_STORE, SE_RMW, SE_FENCE};
    *f = (firing){.xi = xi, .thread = t, .processor = true, .msg_type = -1};
    f->ev = (sim_event_desc){.kind = kinds[op->kind], .order = op->order, .scope = op->scope, .remote = op->remote};
    f->ctx = (sim_ctx){.t = m->t, .ctrl = x->ctrl, .inst = x->inst, .cu = x->inst, .gpu = m->cu_gpu[x->inst],
                       .cu_gpu = m->cu_gpu, .addr = op->addr, .has_line = op->kind != OPK_FENCE,
                       .tid = t - x->inst * m->threads_per_cu};
    thread_context(m, &f->ctx, t);
}

static enum try_result try_thread(machine *m, int xi, int t, enum sim_stall *why)
{
    ctl_inst *x = &m->ci[xi];
    const sim_op *op = &m->warps.th[t].op;
    firing f;
    thread_firing(m, xi, t, &f);
    enum sim_stall cause = STALL_NONE;
    enum try_result r = fire_event(m, &f, &cause);
    *why = cause;
    if (r == R_FIRED && f.stayed) {
        warps_blocked(&m->warps, t, warps_table_cause(op), m->now);
        return R_STAYED;
    }
    if (r == R_BLOCKED && !m->fatal) {
        m->r->ctrl[x->ctrl].blocked++;
        warps_blocked(&m->warps, t, cause == STALL_NONE ? warps_table_cause(op) : cause, m->now);
    }
    return r;
}

/* The delivery of message msg of channel instance ci: its context, as
 * docs/protocol-tables.md defines it ("Routing above the CU"). */
static inline __attribute__((always_inline)) void delivery(const machine *m, int ci, int msg, firing *f)
{
    const chan_inst *x = &m->chi[ci];
    const sim_chan *ch = &m->t->chans[x->chan];
    const sim_msg *mt = &m->t->msgs[m->msg_type[msg]];
    const int64_t *fields = &m->msg_fields[(size_t)msg * SIM_MAX_FIELDS];
    int local = ci - m->chan_first[x->chan];
    int d = ch->per_source ? local % ch->ndest : local;
    enum sim_level from = ch->per_source ? m->t->ctrls[ch->from].level : SL_SHARED;
    int cu = ch->level == SL_CU ? d : from == SL_CU ? x->sender : mt->cu_field >= 0 ? (int)fields[mt->cu_field] : -1;
    cu = cu >= 0 && cu < m->ncu ? cu : -1;
    int gpu = ch->level == SL_GPU ? d : from == SL_GPU ? x->sender
            : mt->gpu_field >= 0 ? (int)fields[mt->gpu_field] : cu >= 0 ? m->cu_gpu[cu] : -1;
    int tid = m->msg_tid[msg];
    const ctl_inst *dest = &m->ci[x->dest_ci];
    f->xi = x->dest_ci;
    f->thread = cu >= 0 && tid >= 0 && tid < m->threads_per_cu ? cu * m->threads_per_cu + tid : -1;
    f->processor = false;
    f->request = m->kinds[ch->from].role < m->kinds[ch->to].role;
    f->msg_type = m->msg_type[msg];
    f->ev = (sim_event_desc){.kind = SE_RECV, .chan = x->chan, .msg = m->msg_type[msg]};
    f->ctx = (sim_ctx){.t = m->t, .ctrl = dest->ctrl, .inst = dest->inst, .cu = cu,
                       .gpu = gpu >= 0 && gpu < m->ngpu ? gpu : -1, .cu_gpu = m->cu_gpu, .addr = (uint64_t)fields[0],
                       .has_line = true, .msg = fields, .tid = tid};
    thread_context(m, &f->ctx, f->thread);
}

static enum try_result try_channel(machine *m, int ci, enum sim_stall *why)
{
    chan_inst *x = &m->chi[ci];
    if (x->head < 0)
        return R_EMPTY;
    bool unordered = m->t->chans[x->chan].unordered;
    for (int32_t prev = -1, msg = x->head; msg >= 0; prev = msg, msg = m->msg_next[msg]) {
        firing f;
        enum sim_stall cause = STALL_NONE;
        delivery(m, ci, msg, &f);
        /* the message leaves its channel before the row's actions run */
        x->count--;
        enum try_result r = fire_event(m, &f, &cause);
        x->count++;
        *why = cause;
        if (r == R_FIRED) {
            consume(m, x, prev, msg);
            return R_FIRED;
        }
        if (m->fatal || !unordered)
            break;
    }
    m->r->ctrl[m->ci[x->dest_ci].ctrl].blocked++;
    return R_BLOCKED;
}

/* ---- internal events ----------------------------------------------------------------------------- */

/* Fires internal event e of instance xi on line addr, if a row can. */
static enum try_result fire_internal(machine *m, int xi, int e, uint64_t addr, enum sim_stall *cause)
{
    const ctl_inst *x = &m->ci[xi];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    firing f = {.xi = xi, .thread = -1, .msg_type = -1};
    f.ev = (sim_event_desc){.kind = SE_INTERNAL, .internal = e};
    f.ctx = (sim_ctx){.t = m->t, .ctrl = x->ctrl, .inst = x->inst, .cu_gpu = m->cu_gpu, .has_line = true,
                      .addr = addr, .tid = -1, .order = -1, .cu = ct->level == SL_CU ? x->inst : -1,
                      .gpu = ct->level == SL_CU ? m->cu_gpu[x->inst] : ct->level == SL_GPU ? x->inst : -1};
    return fire_event(m, &f, cause);
}

/* Internal event e on the addresses its rows' pins name, in row order. */
static enum try_result try_pinned(machine *m, int xi, int e, enum sim_stall *why)
{
    const ctl_inst *x = &m->ci[xi];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    int key = sim_event_key(m->t, SE_INTERNAL, 0, 0, false, 0, 0, e);
    int64_t naddr = m->t->const_values[SB_NADDR], tried = -1;
    for (int i = ct->cand_first[key]; i < ct->cand_first[key + 1]; i++) {
        sim_ctx pc = {.t = m->t, .ctrl = x->ctrl, .inst = x->inst, .cu_gpu = m->cu_gpu, .vars = x->vars, .tid = -1,
                      .cu = ct->level == SL_CU ? x->inst : -1, .gpu = -1};
        int64_t a;
        if (!sim_pin_addr(&pc, &ct->rows[ct->cand_rows[i]], &a) || a < 0 || a >= naddr || a == tried)
            continue;
        tried = a;
        enum sim_stall cause = STALL_NONE;
        if (fire_internal(m, xi, e, (uint64_t)a, &cause) == R_FIRED)
            return R_FIRED;
        if (cause == STALL_CHANNEL_FULL)
            *why = cause;
    }
    return R_BLOCKED;
}

/* Internal event e on every line the instance holds out of its initial
 * contents (an event whose rows do not name their line). */
static enum try_result try_held(machine *m, int xi, int e, enum sim_stall *why)
{
    ctl_inst *x = &m->ci[xi];
    ctl_kind *k = &m->kinds[x->ctrl];
    const uint64_t *evictions = &m->r->ctrl[x->ctrl].evictions;
    for (int32_t rec = k->lines.inst_head[x->inst]; rec >= 0; rec = k->lines.next[rec]) {
        enum sim_stall cause = STALL_NONE;
        uint64_t before = *evictions;
        if (fire_internal(m, xi, e, lines_addr(&k->lines, rec), &cause) == R_FIRED)
            return R_FIRED;
        if (*evictions != before)
            return R_FIRED;     /* an eviction changed the lines (and the list walked): offer again */
        if (cause == STALL_CHANNEL_FULL)
            *why = cause;
    }
    return R_BLOCKED;
}

/* The instance's internal events other than evict (which only a full
 * cache fires), in the table's order: the first that fires. */
static enum try_result try_internal(machine *m, int xi, enum sim_stall *why)
{
    const sim_ctrl *ct = &m->t->ctrls[m->ci[xi].ctrl];
    *why = STALL_NONE;
    for (int e = 0; e < ct->ninternal && !m->fatal; e++) {
        if (e == ct->evict)
            continue;
        if ((ct->pinned[e] ? try_pinned(m, xi, e, why) : try_held(m, xi, e, why)) == R_FIRED)
            return R_FIRED;
    }
    return R_BLOCKED;
}

/* ---- serving a controller instance ------------------------------------------------------------ */

static void serve(machine *m, int xi)
{
    ctl_inst *x = &m->ci[xi];
    if (x->wake_at != m->now)
        return;                 /* a later or earlier wake-up replaced this one */
    x->wake_at = NO_TIME;
    if (x->busy_until > m->now) {
        poke(m, xi, x->busy_until);
        return;
    }
    int rate = m->kinds[x->ctrl].conf.rate;
    int fired = 0;
    while (x->rcount > 0 && fired < rate && !m->fatal) {
        int32_t item = ready_pop(x);
        enum sim_stall why = STALL_NONE;
        enum try_result r = item == INTERNAL_ITEM ? try_internal(m, xi, &why)
                          : item >= 0 ? try_thread(m, xi, item, &why) : try_channel(m, -1 - item, &why);
        if (r == R_FIRED || r == R_STAYED) {
            fired++;
            x->served++;
            unblock(x);
            if (r == R_STAYED)
                x->blocked[x->nblocked++] = item;
            else if (item == INTERNAL_ITEM)
                ready_push(x, item);    /* another may fire now */
            else if (item < 0 && m->chi[-1 - item].head >= 0)
                ready_push(x, item);
            else if (item < 0)
                m->chi[-1 - item].listed = false;
        } else if (r == R_BLOCKED && why == STALL_CHANNEL_FULL) {
            x->parked[x->nparked++] = item;
        } else if (r == R_BLOCKED) {
            x->blocked[x->nblocked++] = item;
        } else {
            m->chi[-1 - item].listed = false;
        }
    }
    if (fired >= rate)
        x->busy_until = m->now + 1;
    if (x->rcount > 0)
        poke(m, xi, m->now + (fired >= rate));
}

/* ---- warps ---------------------------------------------------------------------------------------- */

static void kernel_check(machine *m)
{
    sim_warps *ws = &m->warps;
    if (ws->at_kernel > 0 && ws->at_kernel == ws->nwarps - ws->finished)
        schedule(m, m->now + (uint64_t)m->s->kernel_launch, EV_KERNEL, 0);
}

static void run_warp(machine *m, int w)
{
    warp_step s = warps_advance(&m->warps, w, m->now);
    for (int i = 0; i < s.nwake; i++)
        wake_warp(m, s.wake[i], m->now);
    switch (s.d) {
    case WD_ISSUE: {
        int xi = m->kinds[m->t->proc_ctrl].first + m->warps.w[w].cu;
        ready_push(&m->ci[xi], s.thread);
        poke_now(m, xi);
        break;
    }
    case WD_SLEEP: wake_warp(m, w, s.until); break;
    case WD_WAIT: break;
    case WD_KERNEL:
    case WD_FINISHED: kernel_check(m); break;
    }
}

static void release_kernel(machine *m)
{
    m->kernels_done++;
    warps_release_kernel(&m->warps, m->now);
    for (int w = 0; w < m->warps.nwarps; w++)
        if (!m->warps.w[w].finished)
            wake_warp(m, w, m->now);
}

static void arrive(machine *m, int msg)
{
    int ci = m->msg_ci[msg];
    chan_inst *x = &m->chi[ci];
    if (x->tail >= 0)
        m->msg_next[x->tail] = msg;
    else
        x->head = msg;
    x->tail = msg;
    if (!x->listed) {
        x->listed = true;
        ready_push(&m->ci[x->dest_ci], -1 - ci);
    }
    poke_now(m, x->dest_ci);
}

/* ---- the loop --------------------------------------------------------------------------------- */

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

static void progress(machine *m, double started, double *last)
{
    double now = wall_seconds();
    if (now - *last < 1.0)
        return;
    *last = now;
    long total = workload_kernels(m->wl);
    fprintf(stderr, "\rscopesim: kernel %llu of %ld, cycle %llu, %llu operations, %d of %d warps done, %.0f s",
            (unsigned long long)(m->kernels_done < (uint64_t)total ? m->kernels_done + 1 : (uint64_t)total), total,
            (unsigned long long)m->now, (unsigned long long)(m->warps.ops[0] + m->warps.ops[1] + m->warps.ops[2]),
            m->warps.finished, m->warps.nwarps, now - started);
    fflush(stderr);
}

/* One event that cannot fire, and why: who offers it, where, in which
 * state, and each matching row's reason (sim_explain). */
static void explain_item(machine *m, int xi, int32_t item, FILE *to)
{
    const ctl_inst *x = &m->ci[xi];
    const sim_ctrl *ct = &m->t->ctrls[x->ctrl];
    firing f;
    if (item == INTERNAL_ITEM)
        return;
    if (item >= 0) {
        thread_firing(m, xi, item, &f);
        fprintf(to, "  warp %d (CU %d, slot %d): ", m->warps.th[item].warp, x->inst, f.ctx.tid);
    } else {
        const chan_inst *ch = &m->chi[-1 - item];
        if (ch->head < 0)
            return;
        delivery(m, -1 - item, ch->head, &f);
        fputs("  a message", to);
        if (f.thread >= 0)
            fprintf(to, " for warp %d", m->warps.th[f.thread].warp);
        fputs(": ", to);
    }
    char ev[96];
    event_name(m, &f, ev, sizeof ev);
    load_line(m, &f);
    fprintf(to, "%s", ev);
    if (f.ctx.has_line)
        fprintf(to, " at address %llu", (unsigned long long)f.ctx.addr);
    fprintf(to, " waits at %s[%d]", ct->name, x->inst);
    if (f.ctx.has_line)
        fprintf(to, " in state %s", ct->states[f.ctx.line[0] >= 0 && f.ctx.line[0] < ct->nstates ? f.ctx.line[0] : 0]);
    fputs(": ", to);
    if (f.processor && ct->hold && sim_held(&f.ctx)) {
        fputs("the controller's hold `", to);
        sim_expr_text(to, m->t, ct, NULL, ct->hold);
        fputs("` holds it", to);
    } else {
        sim_explain(&f.ctx, &f.ev, to);
    }
    fputc('\n', to);
}

/* As verify's "Why stuck": the first events that wait, and why. */
static void explain_deadlock(machine *m, int waiting)
{
    enum { SHOWN = 8 };
    int shown = 0;
    /* per controller: 1 + the instance whose first event was shown, 0 none */
    int *first = calloc((size_t)m->t->nctrls, sizeof *first);
    fputs("Why stuck:\n", m->errors);
    for (int i = 0; i < m->nci && first && shown < SHOWN; i++) {     /* one event of each controller first */
        const ctl_inst *x = &m->ci[i];
        if (x->nblocked + x->nparked > 0 && !first[x->ctrl]) {
            first[x->ctrl] = i + 1;
            explain_item(m, i, x->nblocked ? x->blocked[0] : x->parked[0], m->errors);
            shown++;
        }
    }
    for (int i = 0; i < m->nci && shown < SHOWN; i++) {
        const ctl_inst *x = &m->ci[i];
        for (int k = first && first[x->ctrl] == i + 1; k < x->nblocked + x->nparked && shown < SHOWN; k++, shown++)
            explain_item(m, i, k < x->nblocked ? x->blocked[k] : x->parked[k - x->nblocked], m->errors);
    }
    free(first);
    if (waiting > shown)
        fprintf(m->errors, "  ... and %d more waiting events\n", waiting - shown);
    if (!waiting)
        fputs("  no event waits at a controller: the unfinished warps wait for answers that no message carries\n",
              m->errors);
}

static void report_deadlock(machine *m)
{
    int waiting = 0;
    for (int i = 0; i < m->nci; i++)
        waiting += m->ci[i].nblocked + m->ci[i].nparked;
    fprintf(m->errors, "scopesim: error: deadlock at cycle %llu: %d of %d warps unfinished, %d events blocked at "
            "the controllers, nothing left to happen\n", (unsigned long long)m->now,
            m->warps.nwarps - m->warps.finished, m->warps.nwarps, waiting);
    explain_deadlock(m, waiting);
    m->status = 1;
    m->r->incomplete = "deadlock";
}

/* An operation as the tables name its event: "load.acquire.gpu". */
static void op_name(const sim_op *op, char *buf, size_t n)
{
    static const enum sim_ev kinds[] = {SE_LOAD, SE_STORE, SE_RMW, SE_FENCE};
    if (op->kind > OPK_FENCE)
        snprintf(buf, n, "%s", op->kind == OPK_COMPUTE ? "compute" : "a barrier");
    else
        snprintf(buf, n, "%s.%s%s%s", vocab_event_kinds[kinds[op->kind]], vocab_orders[op->order],
                 vocab_scope_suffixes[op->scope % SIM_NSCOPES], op->remote ? ".remote" : "");
}

/* No warp has made progress for SIM_NO_PROGRESS cycles: the warps only
 * spin (each value they wait for is the one they read before) or sleep,
 * and no write will end it. */
static void report_no_progress(machine *m)
{
    enum { SHOWN = 8 };
    fprintf(m->errors, "scopesim: error: no progress at cycle %llu: for %d cycles no operation completed but reads "
            "that returned the value the warp had read before (a spin that no write ends); %d of %d warps "
            "unfinished\nWhy stuck:\n", (unsigned long long)m->now, SIM_NO_PROGRESS,
            m->warps.nwarps - m->warps.finished, m->warps.nwarps);
    int shown = 0, spinning = 0;
    for (int i = 0; i < m->warps.nwarps; i++) {
        const sim_warp *w = &m->warps.w[i];
        if (w->finished || w->at_kernel)
            continue;
        spinning++;
        if (shown++ == SHOWN)
            continue;
        char op[64];
        op_name(&w->pending, op, sizeof op);
        fprintf(m->errors, "  warp %d (CU %d) waits for another value: its next operation is %s at address %llu, "
                "the value it last read %lld\n", i, w->cu, op, (unsigned long long)w->pending.addr, (long long)w->last);
    }
    if (spinning > SHOWN)
        fprintf(m->errors, "  ... and %d more warps\n", spinning - SHOWN);
    m->status = 1;
    m->r->incomplete = "no-progress";
}

static void loop(machine *m)
{
    double started = wall_seconds(), last = started, cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    bool tty = m->o->progress && isatty(2);
    sim_event ev;
    uint64_t n = 0;
    while (!m->fatal && queue_pop(&m->queue, &ev)) {
        if (m->queue.failed)
            fatal(m, "out of memory for the event queue%s%s%s", "", "", "");
        if (m->o->max_cycles && ev.time > m->o->max_cycles) {
            m->status = 3;
            m->r->incomplete = "max-cycles";
            m->now = m->o->max_cycles;
            break;
        }
        m->now = ev.time;
        switch (ev.kind) {
        case EV_WARP:
            if (m->warps.w[ev.id].wake_at == ev.time) {
                m->warps.w[ev.id].wake_at = NO_TIME;
                run_warp(m, (int)ev.id);
            }
            break;
        case EV_ARRIVE: arrive(m, (int)ev.id); break;
        case EV_CTL: serve(m, (int)ev.id); break;
        case EV_KERNEL: release_kernel(m); break;
        }
        if ((++n & 0x3ff) != 0)
            continue;       /* every 1024 events: a signal, no progress, the progress line */
        if (m->o->stop && *m->o->stop) {
            m->status = 3;
            m->r->incomplete = "interrupted";
            break;
        }
        if (m->now - m->warps.progress_at > SIM_NO_PROGRESS) {
            report_no_progress(m);
            break;
        }
        if (tty && (n & 0xffff) == 0)
            progress(m, started, &last);
    }
    if (tty)
        fputs("\r\033[K", stderr);
    if (!m->fatal && m->status == 0 && m->warps.finished < m->warps.nwarps)
        report_deadlock(m);
    m->r->seconds = wall_seconds() - started;
    m->r->cpu_seconds = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
}

/* Controllers: events fired per instance over rate * cycles. */
static void controller_utilisation(machine *m, double cycles)
{
    for (int c = 0; c < m->r->nctrls; c++) {
        const ctl_kind *k = &m->kinds[c];
        double sum = 0, peak = 0, cap = cycles * k->conf.rate;
        int n = m->t->ctrls[c].ninst;
        for (int i = 0; i < n; i++) {
            double u = (double)m->ci[k->first + i].served / cap;
            sum += u;
            peak = u > peak ? u : peak;
        }
        m->r->ctrl[c].util = sum / n;
        m->r->ctrl[c].peak_util = peak;
    }
}

/* One link's busy cycles into its class's mean (over links that carried
 * a message) and peak. */
static void add_link(sim_results *r, int cls, uint64_t busy, double cycles, int *used)
{
    if (!busy)
        return;
    double u = (double)busy / cycles;
    r->link_util[cls] += u;
    r->link_peak_util[cls] = u > r->link_peak_util[cls] ? u : r->link_peak_util[cls];
    used[cls]++;
}

static void link_utilisation(machine *m, double cycles)
{
    int used[LINK_COUNT] = {0};
    for (int i = 0; i < m->nchi; i++)
        add_link(m->r, LINK_LOCAL, m->chi[i].busy, cycles, used);
    for (int i = 0; i < m->ngpm_total * m->ngpm_total; i++)
        add_link(m->r, LINK_GPM, m->gpm_link_busy[i], cycles, used);
    for (int i = 0; i < m->s->gpus * m->s->gpus; i++)
        add_link(m->r, LINK_GPU, m->gpu_link_busy[i], cycles, used);
    for (int k = 0; k < LINK_COUNT; k++)
        m->r->link_util[k] = used[k] ? m->r->link_util[k] / used[k] : 0;
}

/* Average, median, 99th percentile and largest load latency. */
static void load_latency(machine *m)
{
    const uint64_t *h = m->warps.load_latency;
    sim_results *r = m->r;
    for (int b = 0; b < SIM_LATENCY_BUCKETS; b++)
        r->load_count += h[b];
    uint64_t seen = 0, p50 = (r->load_count + 1) / 2, p99 = r->load_count - r->load_count / 100;
    for (int b = 0; b < SIM_LATENCY_BUCKETS && r->load_count; b++) {
        if (seen < p50 && seen + h[b] >= p50)
            r->load_p50 = (uint64_t)b;
        if (seen < p99 && seen + h[b] >= p99)
            r->load_p99 = (uint64_t)b;
        seen += h[b];
        if (h[b])
            r->load_max = (uint64_t)b;
    }
    r->load_avg = r->load_count ? (double)m->warps.load_latency_sum / (double)r->load_count : 0;
}

static void finish_results(machine *m)
{
    sim_results *r = m->r;
    warps_close(&m->warps, m->now);
    r->cycles = m->now;
    r->loads = m->warps.ops[OPK_LOAD];
    r->stores = m->warps.ops[OPK_STORE];
    r->rmws = m->warps.ops[OPK_RMW];
    r->fences = m->warps.ops[OPK_FENCE];
    r->ops = r->loads + r->stores + r->rmws;
    r->compute_cycles = m->warps.compute_cycles;
    memcpy(r->stall, m->warps.stall, sizeof r->stall);
    r->peak_events = m->queue.peak;
    /* kernels completed: a boundary ends each but the last, which ends with the warps */
    r->kernels = m->kernels_done + (m->warps.finished == m->warps.nwarps);
    r->kernels_total = (uint64_t)workload_kernels(m->wl);
    if (m->now) {
        controller_utilisation(m, (double)m->now);
        link_utilisation(m, (double)m->now);
    }
    load_latency(m);
    r->complete = m->status == 0;
    if (m->fatal && !r->incomplete)
        r->incomplete = "tables";
    results_energy(r, m->s);
}

int machine_run(sim_tables *t, const sim_system *s, sim_workload *wl, const sim_run_opts *o, sim_results *r,
                FILE *errors)
{
    machine m = {.t = t, .s = s, .wl = wl, .o = o, .r = r, .errors = errors};
    memset(r, 0, sizeof *r);
    if (!machine_setup(&m)) {
        machine_teardown(&m);
        return m.status ? m.status : 2;
    }
    for (int w = 0; w < m.warps.nwarps; w++)
        wake_warp(&m, w, 0);
    for (int i = 0; i < m.nci; i++)
        if (sim_ctrl_has_internal(&t->ctrls[m.ci[i].ctrl])) {
            ready_push(&m.ci[i], INTERNAL_ITEM);
            poke(&m, i, 0);
        }
    loop(&m);
    finish_results(&m);
    int status = m.status;
    machine_teardown(&m);
    return status;
}
