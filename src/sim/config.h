/*
 * sim/config.h: a simulated system (models/sim/NAME.sys, docs/simulator.md):
 * topology, warps, caches, latencies, bandwidths, energies.
 *
 * Contract.  sys_config_read parses a system file, then the extra lines
 * given on the command line (--sys 'LINE', later ones win), into a
 * sim_system.  Unknown keys, wrong arities and out-of-range numbers are
 * "FILE:LINE:COL: error: ..." on `errors` and NULL.  Controllers are
 * configured by role (l1: the per-CU processor controller; l2: other
 * caches and a memory-backed controller that is the only one above the
 * CU; mem: memory-backed controllers behind an l2) or by name, a name
 * winning over its role.  Memory from Boehm GC.
 */
#ifndef SCOPECHECK_SIM_CONFIG_H
#define SCOPECHECK_SIM_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/cache.h"
#include "sim/words.h"

enum sim_role { ROLE_L1, ROLE_L2, ROLE_MEM, ROLE_COUNT };
enum sim_link_class { LINK_LOCAL, LINK_GPM, LINK_GPU, LINK_COUNT };
enum sim_energy { EN_COMPUTE, EN_L1_READ, EN_L1_WRITE, EN_L2_READ, EN_L2_WRITE, EN_MEM_READ, EN_MEM_WRITE,
                  EN_DRAM, EN_LINK_LOCAL, EN_LINK_GPM, EN_LINK_GPU, EN_COUNT };

typedef struct sim_cache_conf {
    bool present;
    bool total;             /* size is for all instances together */
    long size;
    int assoc;
    enum sim_repl repl;
} sim_cache_conf;

typedef struct sim_ctl_conf {
    bool set;
    int latency;            /* cycles from a row firing to its sends leaving and its `done` */
    int fill;               /* the same for a received message's row; -1: latency */
    int rate;               /* events per cycle */
    sim_cache_conf cache;
} sim_ctl_conf;

typedef struct sim_link_conf { int latency; double bandwidth; } sim_link_conf;   /* bytes per cycle */

#define SIM_MAX_NAMED 16

typedef struct sim_system {
    const char *name, *path;
    double clock_ghz;
    int gpus, gpms_per_gpu, cus_per_gpm;
    bool table_gpu_is_gpm;  /* the tables' GPU level stands for a GPM */
    int warps_per_cu, slots_per_warp;
    int maxops;             /* MAXOPS for the tables */
    int channel_capacity;
    int line_bytes, header_bytes;
    int kernel_launch;      /* cycles between kernels */
    int issue_interval;     /* cycles between two issues of one warp */
    sim_ctl_conf role[ROLE_COUNT];
    int nnamed;
    const char *named[SIM_MAX_NAMED];
    sim_ctl_conf named_conf[SIM_MAX_NAMED];
    sim_link_conf link[LINK_COUNT];
    int dram_latency;
    double dram_bandwidth;  /* bytes per cycle per memory instance */
    int nchan_links;            /* `channel NAME latency N bandwidth B`: a channel's own port */
    const char *chan_name[SIM_MAX_NAMED];
    sim_link_conf chan_link[SIM_MAX_NAMED];
    int nmsg_bytes;
    const char *msg_name[SIM_MAX_NAMED];
    int msg_bytes[SIM_MAX_NAMED];
    double energy[EN_COUNT];    /* pJ per event (docs/simulator.md) */
    int nconsts;                /* `const NAME VALUE`: a constant of the tables this system needs */
    const char *const_name[SIM_MAX_NAMED];
    long const_value[SIM_MAX_NAMED];
} sim_system;

/* `extra`: n lines of settings from the command line. */
sim_system *sys_config_read(const char *path, const char *const *extra, int nextra, FILE *errors);

extern const char *const sim_role_names[ROLE_COUNT];
extern const char *const sim_link_names[LINK_COUNT];
extern const char *const sim_energy_names[EN_COUNT];

#endif
