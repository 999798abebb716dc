/* sim/warps.c: warps issuing a workload, and their stalls (see sim/warps.h). */
#include "sim/warps.h"

#include <stdlib.h>
#include <string.h>

#define MAX_BARRIER_IDS 16

const char *const sim_stall_names[STALL_COUNT] = {
    "slots_full", "drain", "load_value", "atomic_value", "acquire", "controller_busy",
    "table_acquire", "table_release", "table_fence", "table_atomic", "table_other",
    "set_full", "channel_full", "kernel_boundary", "cta_barrier", "table_hold"};

bool warps_init(sim_warps *ws, const sim_workload *wl, int ncu, int warps_per_cu, int slots, int issue_interval,
                bool ideal, uint64_t seed)
{
    memset(ws, 0, sizeof *ws);
    ws->wl = wl;
    ws->nwarps = ncu * warps_per_cu;
    ws->slots = slots;
    ws->warps_per_cu = warps_per_cu;
    ws->issue_interval = issue_interval;
    ws->ideal = ideal;
    ws->w = calloc((size_t)ws->nwarps, sizeof *ws->w);
    ws->th = calloc((size_t)ws->nwarps * (size_t)slots, sizeof *ws->th);
    ws->barrier_count = calloc((size_t)ncu * MAX_BARRIER_IDS, sizeof *ws->barrier_count);
    ws->wake = calloc((size_t)ws->nwarps, sizeof *ws->wake);
    ws->load_latency = calloc(SIM_LATENCY_BUCKETS, sizeof *ws->load_latency);
    if (!ws->w || !ws->th || !ws->barrier_count || !ws->wake || !ws->load_latency) {
        warps_free(ws);
        return false;
    }
    for (int i = 0; i < ws->nwarps; i++) {
        sim_warp *w = &ws->w[i];
        w->cu = i / warps_per_cu;
        w->first = i * slots;
        w->need_thread = w->queued = -1;
        w->cause = STALL_NONE;
        w->wake_at = UINT64_MAX;
        workload_start(wl, &w->ws, i, seed);
        for (int s = 0; s < slots; s++)
            ws->th[w->first + s].warp = i;
    }
    return true;
}

void warps_free(sim_warps *ws)
{
    free(ws->w);
    free(ws->th);
    free(ws->barrier_count);
    free(ws->wake);
    free(ws->load_latency);
    ws->w = NULL, ws->th = NULL, ws->barrier_count = NULL, ws->wake = NULL, ws->load_latency = NULL;
}

/* ---- stall intervals ---------------------------------------------------------------- */

static void set_cause(sim_warps *ws, sim_warp *w, enum sim_stall cause, uint64_t now)
{
    if (w->cause != STALL_NONE && now > w->since)
        ws->stall[w->cause] += now - w->since;
    w->cause = (uint8_t)cause;
    w->since = now;
}

void warps_close(sim_warps *ws, uint64_t now)
{
    for (int i = 0; i < ws->nwarps; i++)
        set_cause(ws, &ws->w[i], STALL_NONE, now);
}

enum sim_stall warps_table_cause(const sim_op *op)
{
    if (op->kind == OPK_FENCE)
        return STALL_TABLE_FENCE;
    if (op->kind == OPK_RMW)
        return op->order == ORD_RELAXED ? STALL_TABLE_ATOMIC
             : op->order == ORD_ACQUIRE ? STALL_TABLE_ACQUIRE : STALL_TABLE_RELEASE;
    if (op->order == ORD_ACQUIRE || op->order == ORD_SC)
        return STALL_TABLE_ACQUIRE;
    if (op->order == ORD_RELEASE)
        return STALL_TABLE_RELEASE;
    return STALL_TABLE_OTHER;
}

/* ---- issue rules ------------------------------------------------------------------------- */

static bool is_memory(const sim_op *op) { return op->kind <= OPK_FENCE; }

/* An operation that orders others: it waits for the warp's outstanding ones. */
static bool synchronises(const sim_op *op)
{
    return op->kind == OPK_FENCE || (op->order != ORD_WEAK && op->order != ORD_RELAXED);
}

/* Whether the warp must wait for this operation's completion. */
static bool blocks(const sim_op *op)
{
    return op->needs_result || op->kind == OPK_FENCE || op->order == ORD_ACQUIRE || op->order == ORD_ACQ_REL ||
           op->order == ORD_SC;
}

static void make_ideal(sim_op *op)
{
    if (op->kind == OPK_LOAD || op->kind == OPK_STORE)
        op->order = ORD_WEAK, op->scope = 0;
    else if (op->kind == OPK_RMW)
        op->order = ORD_RELAXED;
}

/* Frees the warp's threads that have completed by `now`; the earliest
 * completion still ahead, or UINT64_MAX. */
static uint64_t retire(sim_warps *ws, sim_warp *w, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (uint64_t m = w->done_mask; m; m &= m - 1) {
        int s = __builtin_ctzll(m);
        sim_thread *t = &ws->th[w->first + s];
        if (t->done_at > now) {
            next = t->done_at < next ? t->done_at : next;
            continue;
        }
        t->state = TS_FREE;
        if (t->op.kind == OPK_LOAD) {
            uint64_t lat = t->done_at - t->issued_at;
            ws->load_latency[lat < SIM_LATENCY_BUCKETS ? lat : SIM_LATENCY_BUCKETS - 1]++;
            ws->load_latency_sum += lat;
        }
        if (t->op.kind <= OPK_RMW)
            w->in_flight[t->op.addr % WARP_FLIGHT_BUCKETS]--;
        w->done_mask &= ~(1ull << s);
        w->busy_mask &= ~(1ull << s);
        /* a spin: a value the warp waited for, the same as its last one */
        if (!(t->op.needs_result && w->need_thread == w->first + s && t->result == w->last))
            ws->progress_at = now;
        if (w->need_thread == w->first + s) {
            w->last = t->result;
            w->need_thread = -1;
        }
    }
    return next;
}

/* Waiting for completions: sleep to the next one known, else wait. */
static warp_step await(sim_warps *ws, sim_warp *w, enum sim_stall cause, uint64_t now, uint64_t next)
{
    if (w->cause != cause)
        set_cause(ws, w, cause, now);
    if (next != UINT64_MAX)
        return (warp_step){.d = WD_SLEEP, .until = next};
    return (warp_step){.d = WD_WAIT};
}

static bool line_in_flight(const sim_warps *ws, const sim_warp *w, uint64_t addr)
{
    if (!w->in_flight[addr % WARP_FLIGHT_BUCKETS])
        return false;
    for (uint64_t m = w->busy_mask; m; m &= m - 1) {
        const sim_thread *t = &ws->th[w->first + __builtin_ctzll(m)];
        if (t->op.kind <= OPK_RMW && t->op.addr == addr)
            return true;
    }
    return false;
}

/* A CTA barrier of a litmus program: arrive; the last arrival releases
 * the warps of the CU waiting at it. */
static warp_step cta_barrier(sim_warps *ws, sim_warp *w, int id, uint64_t now)
{
    int key = w->cu * MAX_BARRIER_IDS + (id & (MAX_BARRIER_IDS - 1));
    int count = w->pending.barrier_count > 0 ? w->pending.barrier_count : 1;
    w->has_pending = false;
    if (++ws->barrier_count[key] < count) {
        w->at_barrier = true;
        w->barrier_key = key;
        set_cause(ws, w, STALL_BARRIER, now);
        return (warp_step){.d = WD_WAIT};
    }
    ws->barrier_count[key] = 0;
    int n = 0;
    for (int i = w->cu * ws->warps_per_cu; i < (w->cu + 1) * ws->warps_per_cu; i++)
        if (ws->w[i].at_barrier && ws->w[i].barrier_key == key) {
            ws->w[i].at_barrier = false;
            ws->wake[n++] = i;
        }
    return (warp_step){.d = WD_SLEEP, .until = now, .nwake = n, .wake = ws->wake};
}

static warp_step issue(sim_warps *ws, sim_warp *w, uint64_t now)
{
    int s = __builtin_ctzll(~w->busy_mask);    /* try_pending saw a free slot */
    int t = w->first + s;
    w->busy_mask |= 1ull << s;
    sim_thread *th = &ws->th[t];
    th->op = w->pending;
    th->state = TS_QUEUED;
    th->issued_at = now;
    w->has_pending = false;
    w->queued = t;
    ws->ops[th->op.kind]++;
    if (th->op.kind <= OPK_RMW)
        w->in_flight[th->op.addr % WARP_FLIGHT_BUCKETS]++;
    if (blocks(&th->op))
        w->need_thread = t;
    set_cause(ws, w, STALL_PORT, now);
    w->ready_at = now + (uint64_t)ws->issue_interval;
    return (warp_step){.d = WD_ISSUE, .thread = t};
}

/* The pending operation, issued if the rules allow it now. */
static warp_step try_pending(sim_warps *ws, sim_warp *w, uint64_t now, uint64_t next)
{
    sim_op *op = &w->pending;
    if (!is_memory(op)) {       /* the end of the program, or a kernel boundary: after a drain */
        if (w->busy_mask)
            return await(ws, w, STALL_DRAIN, now, next);
        w->has_pending = false;
        if (op->kind == OPK_END) {
            set_cause(ws, w, STALL_NONE, now);
            w->finished = true;
            ws->finished++;
            ws->progress_at = now;
            return (warp_step){.d = WD_FINISHED};
        }
        w->at_kernel = true;
        ws->at_kernel++;
        ws->progress_at = now;
        set_cause(ws, w, STALL_KERNEL, now);
        return (warp_step){.d = WD_KERNEL};
    }
    if ((synchronises(op) && w->busy_mask) || line_in_flight(ws, w, op->addr))
        return await(ws, w, STALL_DRAIN, now, next);
    if (__builtin_popcountll(w->busy_mask) == ws->slots)
        return await(ws, w, STALL_SLOTS, now, next);
    return issue(ws, w, now);
}

warp_step warps_advance(sim_warps *ws, int warp, uint64_t now)
{
    sim_warp *w = &ws->w[warp];
    for (;;) {
        if (w->finished)
            return (warp_step){.d = WD_FINISHED};
        uint64_t next = retire(ws, w, now);
        if (w->at_kernel || w->at_barrier || w->queued >= 0)
            return (warp_step){.d = WD_WAIT};
        if (w->need_thread >= 0) {
            const sim_thread *t = &ws->th[w->need_thread];
            enum sim_stall c = t->op.kind == OPK_RMW ? STALL_ATOMIC
                             : t->op.needs_result ? STALL_LOAD : STALL_ACQUIRE;
            return await(ws, w, c, now, t->state == TS_DONE ? t->done_at : UINT64_MAX);
        }
        if (now < w->ready_at) {
            set_cause(ws, w, STALL_NONE, now);
            return (warp_step){.d = WD_SLEEP, .until = w->ready_at};
        }
        if (!w->has_pending) {
            workload_next(ws->wl, &w->ws, w->last, &w->pending);
            w->has_pending = true;
            if (ws->ideal)
                make_ideal(&w->pending);
        }
        sim_op *op = &w->pending;
        if (op->kind == OPK_COMPUTE) {
            w->has_pending = false;
            ws->compute_ops++;
            ws->compute_cycles += op->cycles;
            w->ready_at = now + op->cycles;
            continue;
        }
        if (op->kind == OPK_FENCE && ws->ideal) {
            w->has_pending = false;
            continue;
        }
        if (op->kind == OPK_CTA_BARRIER) {
            if (w->busy_mask)
                return await(ws, w, STALL_DRAIN, now, next);
            return cta_barrier(ws, w, op->barrier_id, now);
        }
        return try_pending(ws, w, now, next);
    }
}

void warps_fired(sim_warps *ws, int t, uint64_t now, bool done, uint64_t done_at, int64_t result)
{
    sim_thread *th = &ws->th[t];
    sim_warp *w = &ws->w[th->warp];
    w->queued = -1;
    th->state = done ? TS_DONE : TS_WAITING;
    if (done)
        w->done_mask |= 1ull << (t - w->first);
    th->done_at = done_at;
    th->result = result;
    set_cause(ws, w, STALL_NONE, now);
}

void warps_blocked(sim_warps *ws, int t, enum sim_stall cause, uint64_t now)
{
    sim_warp *w = &ws->w[ws->th[t].warp];
    if (w->cause != cause)
        set_cause(ws, w, cause, now);
}

void warps_completed(sim_warps *ws, int t, uint64_t done_at, int64_t result)
{
    sim_thread *th = &ws->th[t];
    th->state = TS_DONE;
    ws->w[th->warp].done_mask |= 1ull << (t - ws->w[th->warp].first);
    th->done_at = done_at;
    th->result = result;
}

void warps_release_kernel(sim_warps *ws, uint64_t now)
{
    ws->progress_at = now;
    for (int i = 0; i < ws->nwarps; i++)
        if (ws->w[i].at_kernel) {
            ws->w[i].at_kernel = false;
            set_cause(ws, &ws->w[i], STALL_NONE, now);
        }
    ws->at_kernel = 0;
}
