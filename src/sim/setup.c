/* sim/setup.c: binding tables, system and workload for one run, and
 * checking that they fit what was verified (see sim/internal.h,
 * sim/machine.h; the rules are docs/simulator.md, "What a run assumes"). */
#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "sim/internal.h"
#include "sim/tables_check.h"

static bool setup_error(machine *m, const char *file, const char *field, const char *msg)
{
    fprintf(m->errors, "%s: %s: %s\n", file, field, msg);
    m->status = 2;
    return false;
}

static void assume(machine *m, const char *text)
{
    if (m->r->nassumptions < SIM_MAX_ASSUMPTIONS)
        m->r->assumptions[m->r->nassumptions++] = GC_STRDUP(text);
}

static long constant(const sim_tables *t, const char *name, long missing)
{
    for (int k = SB_COUNT; k < t->nconsts; k++)
        if (!strcmp(t->const_names[k], name))
            return t->const_values[k];
    return missing;
}

/* The system may exceed what was verified in one dimension only when the
 * protocol names a cutoff in its constants (SIM_CUTOFF_CU, _GPU,
 * _THREADS: "checking with at least this many stands for any number")
 * and the checks reached it. */
static bool fits(machine *m, const char *what, const char *field, const char *cutoff, long simulated, long verified)
{
    char msg[512];
    if (simulated <= verified)
        return true;
    long cut = constant(m->t, cutoff, -1);
    if (cut >= 0 && verified >= cut) {
        snprintf(msg, sizeof msg, "%s: %ld simulated, %ld verified; protocol %s states %s=%ld (a cutoff: checking "
                 "that many stands for any number)", what, simulated, verified, m->t->protocol, cutoff, cut);
        assume(m, msg);
        return true;
    }
    if (m->o->unverified) {
        snprintf(msg, sizeof msg, "%s: %ld simulated, only %ld verified (--unverified)", what, simulated, verified);
        assume(m, msg);
        return true;
    }
    if (cut >= 0)
        snprintf(msg, sizeof msg, "the system has %ld %s; the tables were verified with at most %ld, fewer than "
                 "protocol %s's cutoff %s=%ld (export with tests that reach it)", simulated, what, verified,
                 m->t->protocol, cutoff, cut);
    else
        snprintf(msg, sizeof msg, "the system has %ld %s; the tables were verified with at most %ld, and protocol "
                 "%s's constants state no cutoff (%s) that would allow more", simulated, what, verified,
                 m->t->protocol, cutoff);
    return setup_error(m, m->s->path, field, msg);
}

static bool topology(machine *m)
{
    const sim_system *s = m->s;
    m->ngpm_total = s->gpus * s->gpms_per_gpu;
    m->ncu = m->ngpm_total * s->cus_per_gpm;
    m->ngpu = s->table_gpu_is_gpm ? m->ngpm_total : s->gpus;
    m->threads_per_cu = s->warps_per_cu * s->slots_per_warp;
    long threads = (long)m->ncu * m->threads_per_cu;
    if (m->ncu > SIM_MAX_CUS || threads > SIM_MAX_THREADS) {
        char msg[256];
        snprintf(msg, sizeof msg, "%d CUs (gpus x gpms_per_gpu x cus_per_gpm) of %d threads (warps_per_cu x "
                 "slots_per_warp) each, %ld threads: the simulator takes at most %d CUs and %d threads",
                 m->ncu, m->threads_per_cu, threads, SIM_MAX_CUS, SIM_MAX_THREADS);
        return setup_error(m, s->path, "system", msg);
    }
    m->cu_gpu = calloc((size_t)m->ncu, sizeof *m->cu_gpu);
    m->cu_at = calloc((size_t)m->ncu, sizeof *m->cu_at);
    if (!m->cu_gpu || !m->cu_at)
        return setup_error(m, s->path, "system", "out of memory");
    for (int c = 0; c < m->ncu; c++) {
        m->cu_gpu[c] = c / (m->ncu / m->ngpu);
        m->cu_at[c] = (sim_place){c / s->cus_per_gpm, c / (s->cus_per_gpm * s->gpms_per_gpu)};
    }
    const sim_tables *t = m->t;
    return fits(m, "CUs", "cus_per_gpm", "SIM_CUTOFF_CU", m->ncu, t->covered_ncu) &&
           fits(m, "GPUs", "gpus", "SIM_CUTOFF_GPU", m->ngpu, t->covered_ngpu) &&
           fits(m, "threads per CU", "warps_per_cu", "SIM_CUTOFF_THREADS", m->threads_per_cu,
                t->covered_threads_per_cu);
}

static bool bind_all(machine *m)
{
    long b[SB_COUNT] = {m->ncu, m->ngpu, 1, (long)m->ncu * m->threads_per_cu, m->s->maxops};
    sim_tables *t = (sim_tables *)m->t;
    if (!sim_tables_bind(t, b, true, m->errors)) {
        m->status = 2;
        return false;
    }
    if (!workload_bind(m->wl, t, m->ncu, m->ngpu, m->cu_gpu, m->s->warps_per_cu, m->errors)) {
        m->status = 2;
        return false;
    }
    b[SB_NADDR] = (long)m->wl->footprint;
    if (!sim_tables_bind(t, b, true, m->errors) || !sim_tables_check(t, m->errors) ||
        !sim_tables_check_system(t, m->s, m->errors) ||
        !workload_fits_tables(m->wl, t, m->o->ideal, m->errors)) {
        m->status = 2;
        return false;
    }
    char msg[256];
    if (t->data_independent) {
        snprintf(msg, sizeof msg, "values 0..%ld: the tables are data independent (verified with %ld..%ld)",
                 t->vhi, sim_bound_value(t, t->value.lo), sim_bound_value(t, t->value.hi));
        assume(m, msg);
    }
    if (m->o->ideal && m->wl->uses_values)
        return setup_error(m, m->wl->path, "kind", "this workload waits on values, which --ideal does not keep "
                                                   "(ideal mode serves workloads without value-dependent waits)");
    if (m->t->nchans > 0) {
        snprintf(msg, sizeof msg, "channel buffers of %d messages (verified with %ld)", m->s->channel_capacity,
                 sim_bound_value(t, t->chans[0].cap));
        assume(m, msg);
    }
    return true;
}

/* ---- controllers ------------------------------------------------------------------------ */

static int role_of(const sim_tables *t, int c)
{
    if (t->ctrls[c].processor)
        return ROLE_L1;
    if (!t->ctrls[c].memory_backed)
        return ROLE_L2;
    for (int k = 0; k < t->nctrls; k++)
        if (!t->ctrls[k].processor && !t->ctrls[k].memory_backed)
            return ROLE_MEM;
    return ROLE_L2;
}

static const sim_ctl_conf *conf_of(const sim_system *s, const char *name, int role)
{
    for (int k = 0; k < s->nnamed; k++)
        if (!strcmp(s->named[k], name))
            return &s->named_conf[k];
    return &s->role[role];
}

static bool expr_reads_field(const sim_expr *e, int f)
{
    return e && ((e->kind == SX_FIELD && e->idx == f) || ((e->kind == SX_INDEX || e->kind == SX_HAS ||
                                                           e->kind == SX_LEN) && e->on_line && e->idx == f) ||
                 expr_reads_field(e->l, f) || expr_reads_field(e->r, f) || expr_reads_field(e->r2, f));
}

/* Whether a row reads or writes field f (the memory field). */
static bool row_touches(const sim_row *row, int f)
{
    if (expr_reads_field(row->guard, f))
        return true;
    for (int k = 0; k < row->nacts; k++) {
        const sim_action *a = &row->acts[k];
        if ((a->on_line && a->idx == f && a->kind != SA_SEND) || expr_reads_field(a->e, f) ||
            expr_reads_field(a->index, f))
            return true;
        for (int j = 0; j < a->nargs; j++)
            if (expr_reads_field(a->args[j], f))
                return true;
    }
    return false;
}

static int memory_field(const sim_ctrl *c)
{
    for (int f = 0; f < c->nfields; f++)
        if (c->fields[f].memory)
            return f;
    return -1;
}

static bool has_evict_row(const sim_ctrl *ct)
{
    for (int r = 0; r < ct->nrows; r++)
        if (ct->rows[r].ev == SE_INTERNAL && ct->rows[r].internal == ct->evict && ct->evict >= 0)
            return true;
    return false;
}

static bool setup_kind(machine *m, int c)
{
    const sim_ctrl *ct = &m->t->ctrls[c];
    ctl_kind *k = &m->kinds[c];
    k->role = role_of(m->t, c);
    k->conf = *conf_of(m->s, ct->name, k->role);
    k->timing_cache = ct->memory_backed && k->conf.cache.present;
    k->capacity = !ct->memory_backed && k->conf.cache.present && ct->nstates > 1;
    char msg[256];
    if (k->capacity && !has_evict_row(ct)) {
        snprintf(msg, sizeof msg, "the system gives %s a cache, but its table has no evict row to give a line up "
                 "(add one, verified like every row, or give it no cache)", ct->name);
        return setup_error(m, m->s->path, sim_role_names[k->role], msg);
    }
    if (!ct->memory_backed && !k->conf.cache.present && ct->nstates > 1) {
        snprintf(msg, sizeof msg, "%s holds every line it is sent (no cache size in the system)", ct->name);
        assume(m, msg);
    }
    k->row_touches_memory = calloc((size_t)(ct->nrows + 1), sizeof *k->row_touches_memory);
    k->line_init = calloc((size_t)ct->line_slots, sizeof *k->line_init);
    if (!k->row_touches_memory || !k->line_init || !lines_init(&k->lines, ct->line_slots, ct->ninst))
        return setup_error(m, m->s->path, "system", "out of memory");
    int mf = memory_field(ct);
    for (int r = 0; r < ct->nrows && mf >= 0; r++)
        k->row_touches_memory[r] = row_touches(&ct->rows[r], mf);
    for (int f = 0; f < ct->nfields; f++)
        for (int e = 0; e < ct->fields[f].type.slots; e++)
            k->line_init[ct->field_off[f] + e] = ct->fields[f].type.kind == ST_FIFO && e == 0 ? 0 : ct->fields[f].type.lo;
    return true;
}

void machine_default_line(const machine *m, int c, uint64_t addr, int64_t *out)
{
    const sim_ctrl *ct = &m->t->ctrls[c];
    memcpy(out, m->kinds[c].line_init, sizeof *out * (size_t)ct->line_slots);
    if (ct->memory_backed)
        for (int f = 0; f < ct->nfields; f++)
            if (ct->fields[f].memory && ct->fields[f].type.kind == ST_SCALAR)
                out[ct->field_off[f]] = workload_init_value(m->wl, addr);
}

/* Where instance i of a controller or channel level sits. */
static sim_place place_of(const machine *m, enum sim_level lv, int i)
{
    int gpms = m->s->gpms_per_gpu;
    switch (lv) {
    case SL_CU: return m->cu_at[i];
    case SL_GPU:
        return m->s->table_gpu_is_gpm ? (sim_place){i, i / gpms} : (sim_place){i * gpms, i};
    case SL_SLICE: return (sim_place){i % m->ngpm_total, (i % m->ngpm_total) / gpms};
    case SL_SHARED: return (sim_place){0, 0};
    }
    return (sim_place){0, 0};
}

/* The caches' frames, per instance and in all, within what the simulator
 * allocates: a cache of 128G is refused by name, not left to malloc. */
static bool caches_fit(machine *m)
{
    long total = 0;
    for (int c = 0; c < m->t->nctrls; c++) {
        const ctl_kind *k = &m->kinds[c];
        const sim_cache_conf *cc = &k->conf.cache;
        long ninst = m->t->ctrls[c].ninst;
        if (!(k->capacity || k->timing_cache) || !cc->present)
            continue;
        long lines = (cc->total ? cc->size / ninst : cc->size) / m->s->line_bytes;
        if (lines > SIM_MAX_CACHE_LINES || (total += lines * ninst) > SIM_MAX_CACHE_TOTAL) {
            char msg[256];
            snprintf(msg, sizeof msg, "a cache of %ld lines per instance (%ld instances), more than the simulator "
                     "takes (%d lines per instance, %d in all)", lines, ninst, SIM_MAX_CACHE_LINES,
                     SIM_MAX_CACHE_TOTAL);
            return setup_error(m, m->s->path, sim_role_names[k->role], msg);
        }
    }
    return true;
}

static bool setup_instance(machine *m, int c, int i, ctl_inst *x)
{
    const sim_ctrl *ct = &m->t->ctrls[c];
    const ctl_kind *k = &m->kinds[c];
    x->ctrl = c;
    x->inst = i;
    x->at = place_of(m, ct->level, i);
    x->wake_at = NO_TIME;
    x->vars = calloc((size_t)(ct->var_slots + 1), sizeof *x->vars);
    if (!x->vars)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int v = 0; v < ct->nvars; v++)
        for (int e = 0; e < ct->vars[v].type.slots; e++)
            x->vars[ct->var_off[v] + e] = ct->vars[v].type.kind == ST_FIFO && e == 0 ? 0 : ct->vars[v].type.lo;
    const sim_cache_conf *cc = &k->conf.cache;
    long size = cc->total ? cc->size / ct->ninst : cc->size;
    sim_cache *target = k->capacity ? &x->cache : k->timing_cache ? &x->memcache : NULL;
    if (target && !cache_init(target, size, m->s->line_bytes, cc->assoc, cc->repl, m->o->seed + (uint64_t)i * 7919u + 1))
        return setup_error(m, m->s->path, sim_role_names[k->role], "a cache smaller than one line per way");
    return true;
}

static bool setup_controllers(machine *m)
{
    const sim_tables *t = m->t;
    m->kinds = calloc((size_t)t->nctrls, sizeof *m->kinds);
    if (!m->kinds)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int c = 0; c < t->nctrls; c++) {
        if (!setup_kind(m, c))
            return false;
        m->kinds[c].first = m->nci;
        m->nci += t->ctrls[c].ninst;
        if (t->ctrls[c].line_slots > m->max_line_slots)
            m->max_line_slots = t->ctrls[c].line_slots;
        if (t->ctrls[c].var_slots > m->max_var_slots)
            m->max_var_slots = t->ctrls[c].var_slots;
    }
    if (!caches_fit(m))
        return false;
    m->ci = calloc((size_t)m->nci, sizeof *m->ci);
    if (!m->ci)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int c = 0; c < t->nctrls; c++)
        for (int i = 0; i < t->ctrls[c].ninst; i++)
            if (!setup_instance(m, c, i, &m->ci[m->kinds[c].first + i]))
                return false;
    m->scratch_line = calloc((size_t)m->max_line_slots + 1, sizeof *m->scratch_line);
    m->scratch_vars = calloc((size_t)m->max_var_slots + 1, sizeof *m->scratch_vars);
    m->default_line = calloc((size_t)m->max_line_slots + 1, sizeof *m->default_line);
    return m->scratch_line && m->scratch_vars && m->default_line ? true
                                                                 : setup_error(m, m->s->path, "system", "out of memory");
}

/* ---- channels, messages, links -------------------------------------------------------------- */

static int dest_instance(const machine *m, const sim_chan *ch, int d)
{
    enum sim_level to = m->t->ctrls[ch->to].level;
    int local = to == SL_SHARED ? 0 : to == ch->level ? d : m->cu_gpu[d];
    return m->kinds[ch->to].first + local;
}

static int message_bytes(const machine *m, const sim_msg *msg)
{
    for (int k = 0; k < m->s->nmsg_bytes; k++)
        if (!strcmp(m->s->msg_name[k], msg->name))
            return m->s->msg_bytes[k];
    return m->s->header_bytes + (msg->carries_value ? m->s->line_bytes : 0);
}

static bool setup_channels(machine *m)
{
    const sim_tables *t = m->t;
    m->chan_first = calloc((size_t)t->nchans + 1, sizeof *m->chan_first);
    m->msg_bytes = calloc((size_t)t->nmsgs + 1, sizeof *m->msg_bytes);
    if (!m->chan_first || !m->msg_bytes)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int c = 0; c < t->nchans; c++) {
        m->chan_first[c] = m->nchi;
        m->nchi += t->chans[c].ninst;
    }
    for (int k = 0; k < t->nmsgs; k++)
        m->msg_bytes[k] = message_bytes(m, &t->msgs[k]);
    m->chan_port = calloc((size_t)t->nchans + 1, sizeof *m->chan_port);
    if (!m->chan_port)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int c = 0; c < t->nchans; c++)
        for (int k = 0; k < m->s->nchan_links; k++)
            if (!strcmp(m->s->chan_name[k], t->chans[c].name))
                m->chan_port[c] = &m->s->chan_link[k];
    m->chi = calloc((size_t)m->nchi + 1, sizeof *m->chi);
    int most = 1;
    for (int c = 0; c < t->nchans; c++)
        most = t->chans[c].ndest > most ? t->chans[c].ndest : most;
    m->dests = calloc((size_t)most + 64 * SIM_EACH_WORDS, sizeof *m->dests);
    if (!m->chi || !m->dests)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int c = 0; c < t->nchans; c++) {
        const sim_chan *ch = &t->chans[c];
        for (int i = 0; i < ch->ninst; i++) {
            chan_inst *x = &m->chi[m->chan_first[c] + i];
            int d = ch->per_source ? i % ch->ndest : i;
            *x = (chan_inst){.chan = c, .dest_ci = dest_instance(m, ch, d),
                             .sender = ch->per_source ? i / ch->ndest : -1, .head = -1, .tail = -1};
        }
    }
    return true;
}

static bool setup_messages(machine *m)
{
    long n = (long)m->nchi * m->s->channel_capacity;
    if (n > (1L << 26))
        return setup_error(m, m->s->path, "channel_capacity", "the channel buffers hold more than 2^26 messages");
    m->nmsgs = (int)n;
    m->msg_next = malloc(sizeof *m->msg_next * (size_t)(n + 1));
    m->msg_ci = malloc(sizeof *m->msg_ci * (size_t)(n + 1));
    m->msg_type = malloc(sizeof *m->msg_type * (size_t)(n + 1));
    m->msg_tid = malloc(sizeof *m->msg_tid * (size_t)(n + 1));
    m->msg_fields = malloc(sizeof *m->msg_fields * SIM_MAX_FIELDS * (size_t)(n + 1));
    size_t ngpm = (size_t)m->ngpm_total, ngpu = (size_t)m->s->gpus;
    m->gpm_link_free = calloc(ngpm * ngpm, sizeof *m->gpm_link_free);
    m->gpu_link_free = calloc(ngpu * ngpu, sizeof *m->gpu_link_free);
    m->gpm_link_busy = calloc(ngpm * ngpm, sizeof *m->gpm_link_busy);
    m->gpu_link_busy = calloc(ngpu * ngpu, sizeof *m->gpu_link_busy);
    if (!m->msg_next || !m->msg_ci || !m->msg_type || !m->msg_tid || !m->msg_fields || !m->gpm_link_free ||
        !m->gpu_link_free || !m->gpm_link_busy || !m->gpu_link_busy)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int i = 0; i < m->nmsgs; i++)
        m->msg_next[i] = i + 1 < m->nmsgs ? i + 1 : -1;
    m->msg_free = m->nmsgs ? 0 : -1;
    return true;
}

/* Each item (a thread of the CU, a channel instance leading here) is in
 * at most one of its controller's two lists, so their sizes are known. */
static bool setup_queues(machine *m)
{
    int *n = calloc((size_t)m->nci + 1, sizeof *n);
    if (!n)
        return setup_error(m, m->s->path, "system", "out of memory");
    for (int i = 0; i < m->nchi; i++)
        n[m->chi[i].dest_ci]++;
    int proc = m->kinds[m->t->proc_ctrl].first;
    for (int c = 0; c < m->ncu; c++)
        n[proc + c] += m->threads_per_cu;
    bool ok = true;
    for (int i = 0; i < m->nci; i++)
        n[i] += sim_ctrl_has_internal(&m->t->ctrls[m->ci[i].ctrl]);
    for (int i = 0; i < m->nci && ok; i++) {
        m->ci[i].rcap = n[i] + 1;
        m->ci[i].ready = malloc(sizeof *m->ci[i].ready * (size_t)m->ci[i].rcap);
        m->ci[i].blocked = malloc(sizeof *m->ci[i].blocked * (size_t)m->ci[i].rcap);
        m->ci[i].parked = malloc(sizeof *m->ci[i].parked * (size_t)m->ci[i].rcap);
        ok = m->ci[i].ready && m->ci[i].blocked && m->ci[i].parked;
    }
    free(n);
    return ok || setup_error(m, m->s->path, "system", "out of memory");
}

static void setup_results(machine *m)
{
    sim_results *r = m->r;
    const sim_tables *t = m->t;
    r->protocol = t->protocol;
    r->digest = t->digest;
    r->verified = t->verified && !m->o->unverified;
    r->ideal = m->o->ideal;
    r->seed = m->o->seed;
    r->system = m->s->name;
    r->workload = m->wl->name;
    r->kind = workload_kind_name(m->wl->kind);
    r->nctrls = t->nctrls < SIM_MAX_CTRLS ? t->nctrls : SIM_MAX_CTRLS;
    r->nchans = t->nchans < SIM_MAX_CHANS ? t->nchans : SIM_MAX_CHANS;
    for (int c = 0; c < r->nctrls; c++)
        r->ctrl[c] = (sim_ctrl_stats){.name = t->ctrls[c].name, .role = m->kinds[c].role};
    for (int c = 0; c < r->nchans; c++)
        r->chan[c].name = t->chans[c].name;
    r->ncu = m->ncu;
    r->ngpu = m->ngpu;
    r->warps = m->s->warps_per_cu;
    r->slots = m->s->slots_per_warp;
}

bool machine_setup(machine *m)
{
    m->status = 0;
    if (m->t->nctrls > SIM_MAX_CTRLS || m->t->nchans > SIM_MAX_CHANS)
        return setup_error(m, m->t->path, "content", "more controllers or channels than the simulator reports");
    if (!topology(m) || !bind_all(m) || !setup_controllers(m) || !setup_channels(m) || !setup_queues(m) ||
        !setup_messages(m))
        return false;
    setup_results(m);
    if (!warps_init(&m->warps, m->wl, m->ncu, m->s->warps_per_cu, m->s->slots_per_warp, m->s->issue_interval,
                    m->o->ideal, m->o->seed))
        return setup_error(m, m->s->path, "system", "out of memory");
    queue_init(&m->queue);
    return true;
}

void machine_teardown(machine *m)
{
    for (int c = 0; m->kinds && c < m->t->nctrls; c++) {
        lines_free(&m->kinds[c].lines);
        free(m->kinds[c].line_init);
        free(m->kinds[c].row_touches_memory);
    }
    for (int i = 0; m->ci && i < m->nci; i++) {
        free(m->ci[i].ready);
        free(m->ci[i].blocked);
        free(m->ci[i].parked);
        free(m->ci[i].vars);
        cache_free(&m->ci[i].cache);
        cache_free(&m->ci[i].memcache);
    }
    free(m->kinds);
    free(m->ci);
    free(m->chi);
    free(m->dests);
    free(m->chan_first);
    free(m->msg_bytes);
    free(m->chan_port);
    free(m->msg_next);
    free(m->msg_ci);
    free(m->msg_type);
    free(m->msg_tid);
    free(m->msg_fields);
    free(m->gpm_link_free);
    free(m->gpu_link_free);
    free(m->gpm_link_busy);
    free(m->gpu_link_busy);
    free(m->cu_gpu);
    free(m->cu_at);
    free(m->scratch_line);
    free(m->scratch_vars);
    free(m->default_line);
    warps_free(&m->warps);
    queue_free(&m->queue);
}
