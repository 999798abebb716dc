/*
 * sim/internal.h: the state of one run, shared by sim/setup.c (which
 * builds it from the tables, the system and the workload) and
 * sim/machine.c (which runs it).  Not for other modules.
 */
#ifndef SCOPECHECK_SIM_INTERNAL_H
#define SCOPECHECK_SIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/cache.h"
#include "sim/config.h"
#include "sim/queue.h"
#include "sim/interp.h"
#include "sim/lines.h"
#include "sim/machine.h"
#include "sim/warps.h"

#define NO_TIME UINT64_MAX

enum { EV_WARP, EV_ARRIVE, EV_CTL, EV_KERNEL };

/* Where an instance sits: its GPM and GPU (global numbers). */
typedef struct sim_place { int gpm, gpu; } sim_place;

/* One instance of a controller: a server with a queue of items (a
 * thread's operation: the thread's number; a channel instance: -1 - its
 * number) ready to try, and the items that could not fire. */
typedef struct ctl_inst {
    int ctrl, inst;
    sim_place at;
    uint64_t busy_until, wake_at;
    int fired_this_cycle;
    int32_t *ready;
    int rhead, rcount, rcap;
    int32_t *blocked;           /* could not fire: retried when the instance's state changes */
    int nblocked;
    int32_t *parked;            /* a channel they send on was full: retried when one drains */
    int nparked;
    int64_t *vars;
    sim_cache cache;            /* the tables' capacity (lines out of the initial state), if configured */
    sim_cache memcache;         /* memory-backed: the memory-side cache, if configured */
    uint64_t dram_free;
    uint64_t served;            /* events fired (utilisation: served / (rate * cycles)) */
} ctl_inst;

/* A kind of controller: its instances, lines, configuration and role. */
typedef struct ctl_kind {
    sim_ctl_conf conf;
    int role;
    int first;                  /* its first instance in m->ci */
    sim_lines lines;
    bool capacity;              /* lines need frames: a cache with evict rows */
    bool timing_cache;          /* a memory-side cache (memory-backed controllers) */
    int64_t *line_init;         /* a line's initial contents, memory fields set per address */
    bool *row_touches_memory;   /* per row: reads or writes the memory field */
} ctl_kind;

/* One instance of a channel: the messages that have arrived (a list in
 * arrival order), how many it holds in all (in flight too), and the
 * destination it leads to. */
typedef struct chan_inst {
    int chan, dest_ci;          /* destination controller instance (m->ci) */
    int sender;                 /* the sending instance with per-source channels, else -1 */
    int32_t head, tail;
    int count;
    bool listed;                /* in its destination's ready or blocked list */
    bool waiters;               /* a send found it full: wake its sender when it drains */
    uint64_t last_arrive, free_at;
    uint64_t busy;              /* cycles its own port spent serialising (local link) */
} chan_inst;

typedef struct machine {
    const sim_tables *t;
    const sim_system *s;
    sim_workload *wl;
    const sim_run_opts *o;
    sim_results *r;
    FILE *errors;
    int ncu, ngpu, ngpm_total, threads_per_cu;
    int *cu_gpu;
    sim_place *cu_at;
    ctl_kind *kinds;
    ctl_inst *ci;
    int nci;
    chan_inst *chi;
    int *chan_first;            /* first instance of each channel in m->chi */
    int nchi;
    int *msg_bytes;
    const sim_link_conf **chan_port;    /* per channel: its own port's latency and bandwidth, or NULL */
    /* messages */
    int32_t *msg_next;
    int32_t *msg_ci;
    int16_t *msg_type, *msg_tid;
    int64_t *msg_fields;        /* SIM_MAX_FIELDS per message */
    int32_t msg_free;
    int nmsgs;
    /* links between GPMs and GPUs: when each is free again */
    uint64_t *gpm_link_free, *gpu_link_free;
    uint64_t *gpm_link_busy, *gpu_link_busy;    /* cycles each spent serialising */
    uint64_t kernels_done;      /* kernel boundaries passed */
    sim_warps warps;
    sim_queue queue;
    uint64_t now;
    bool fatal;
    int status;
    int64_t *scratch_line, *scratch_vars, *default_line;
    const int64_t *line_default;        /* the initial contents of the line being fired (fire_event) */
    int *dests;                 /* a send's destinations (the most instances of any channel level) */
    int max_line_slots, max_var_slots;
} machine;

/* setup.c: binds everything and allocates the run; false after an
 * error (m->status says which). */
bool machine_setup(machine *m);
void machine_teardown(machine *m);
/* The initial contents of line addr of controller kind c, into out. */
void machine_default_line(const machine *m, int c, uint64_t addr, int64_t *out);

#endif
