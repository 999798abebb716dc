/*
 * sim/workload.h: workloads (models/sim/NAME.wl, docs/simulator.md): the
 * memory operations each warp issues, generated on the fly.
 *
 * Contract.  workload_read parses a workload file (then the command
 * line's --work lines): `kind` picks a generator, every other line sets
 * one of its parameters; an unknown kind or parameter, a missing value or
 * one out of range is "FILE:LINE:COL: error: ..." and NULL.
 * workload_bind fits a workload to a machine (warps, CUs, GPUs, the tables'
 * programs for a litmus workload) and lays out its data; false after an
 * error ("FILE: parameter: ...").  workload_start initialises one warp's
 * generator state; workload_next gives that warp's next operation, given
 * the result of the last operation that asked for one (needs_result); it
 * allocates nothing and is deterministic for a given seed.  A generator
 * never waits: spinning is a repeated load, backoff is compute time.
 */
#ifndef SCOPECHECK_SIM_WORKLOAD_H
#define SCOPECHECK_SIM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/tables.h"

enum sim_op_kind { OPK_LOAD, OPK_STORE, OPK_RMW, OPK_FENCE, OPK_COMPUTE, OPK_KERNEL_END, OPK_CTA_BARRIER, OPK_END };
/* Orders, scopes and read-modify-write operations: base/vocab.h's (via sim/tables.h). */

typedef struct sim_op {
    uint8_t kind, order, scope, rmw;
    bool rmw_has_a, needs_result;
    bool remote;                /* a remote-scope-promotion form (.remote) */
    uint64_t addr;
    int64_t a, b;
    uint32_t cycles;            /* OPK_COMPUTE */
    int barrier_id, barrier_count;  /* OPK_CTA_BARRIER */
} sim_op;

#define WL_MAX_REGS 32

/* One warp's generator state. */
typedef struct sim_wstate {
    int warp, cu, gpu, lwarp;   /* lwarp: the warp's index within its GPU */
    int role, partner;
    int kernel, phase;
    long i, j, k, round;
    uint64_t rng;
    int64_t value;
    int pc, lthread, copy;      /* litmus: program counter, thread, copy */
    int64_t regs[WL_MAX_REGS];
} sim_wstate;

enum sim_wl_kind { WL_STREAM, WL_REUSE, WL_PRODCONS, WL_HISTOGRAM, WL_REDUCTION, WL_LOCK, WL_BARRIER,
                   WL_WORKSTEAL, WL_SHARING, WL_LITMUS, WL_KIND_COUNT };

#define WL_MAX_PARAMS 12
#define WL_PARAM_NAMES 48

typedef struct sim_workload {
    const char *name, *path;
    enum sim_wl_kind kind;
    long param[WL_MAX_PARAMS];  /* in the order of the kind's table */
    long by_name[WL_PARAM_NAMES];       /* the same values, a slot per name of any kind (workload.c) */
    const char *test;           /* litmus: the test's name */
    /* bound: */
    int nwarps, ncu, ngpu, warps_per_cu, cus_per_gpu;
    const int *cu_gpu;
    const sim_program *program;
    int copies;
    uint64_t region[8];         /* base addresses */
    uint64_t footprint;         /* lines */
    int owner_period;           /* memory home is addr % period == gpu; 0: no owner placement */
    bool uses_values;           /* waits on values: not for --ideal */
} sim_workload;

sim_workload *workload_read(const char *path, const char *const *extra, int nextra, FILE *errors);
/* ncu CUs (CU c on table GPU cu_gpu[c]), warps_per_cu warps each. */
bool workload_bind(sim_workload *w, const sim_tables *t, int ncu, int ngpu, const int *cu_gpu, int warps_per_cu,
                   FILE *errors);
void workload_start(const sim_workload *w, sim_wstate *s, int warp, uint64_t seed);
void workload_next(const sim_workload *w, sim_wstate *s, int64_t last, sim_op *op);
/* The kernels the workload runs (a litmus workload: its iterations). */
long workload_kernels(const sim_workload *w);
/* The initial value of a line (a litmus location's init, else 0). */
int64_t workload_init_value(const sim_workload *w, uint64_t addr);
/* Whether the processor events the workload issues all have rows: false
 * (after naming the first missing one) otherwise. */
bool workload_fits_tables(const sim_workload *w, const sim_tables *t, bool ideal, FILE *errors);
const char *workload_kind_name(enum sim_wl_kind k);

#endif
