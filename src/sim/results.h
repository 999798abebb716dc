/*
 * sim/results.h: what one simulation run measured, and its JSON and CSV
 * forms (docs/simulator.md, "Results").
 *
 * Contract.  sim_results holds counters only (no pointers into a run's
 * state besides names that live as long as the tables); results_json
 * writes one JSON object on one line, results_csv_header and results_csv
 * one CSV line each with a fixed column list (per-controller and
 * per-channel columns are flattened as NAME.counter, in the tables'
 * order, so runs of one protocol share a header).  Energy is computed
 * from the counts and the system's per-event table.
 */
#ifndef SCOPECHECK_SIM_RESULTS_H
#define SCOPECHECK_SIM_RESULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/config.h"
#include "sim/warps.h"

#define SIM_MAX_CTRLS 16
#define SIM_MAX_CHANS 32
#define SIM_MAX_ASSUMPTIONS 8

typedef struct sim_ctrl_stats {
    const char *name;
    int role;
    uint64_t events, reads, writes;     /* rows fired; writes: rows that write a line field */
    uint64_t read_hits, read_misses;    /* read requests (or loads, at the processor) on a resident line or not */
    uint64_t evictions, dram;           /* evict rows fired; memory accesses */
    uint64_t mem_hits, mem_misses;      /* the memory-side cache of a memory-backed controller */
    uint64_t blocked;                   /* attempts that found no enabled row */
    double util, peak_util;             /* events fired / (rate * cycles): mean over instances, busiest */
} sim_ctrl_stats;

typedef struct sim_chan_stats { const char *name; uint64_t messages, bytes; } sim_chan_stats;

typedef struct sim_results {
    const char *protocol, *digest, *system, *workload, *kind;
    bool verified, ideal, complete;
    const char *incomplete;             /* why not complete: "max-cycles", a deadlock, ... */
    uint64_t seed;
    uint64_t cycles, ops, loads, stores, rmws, fences, compute_cycles;
    uint64_t events, messages, bytes;
    int nctrls, nchans;
    sim_ctrl_stats ctrl[SIM_MAX_CTRLS];
    sim_chan_stats chan[SIM_MAX_CHANS];
    uint64_t link_messages[LINK_COUNT], link_bytes[LINK_COUNT];
    /* cycles serialising / cycles: mean over the links that carried a
     * message, and the busiest link */
    double link_util[LINK_COUNT], link_peak_util[LINK_COUNT];
    /* loads from issue to done, in cycles (p50, p99: the smallest latency
     * that many percent of the loads do not exceed) */
    uint64_t load_count, load_p50, load_p99, load_max;
    double load_avg;
    uint64_t kernels, kernels_total;    /* kernel boundaries passed; the workload's kernels */
    uint64_t stall[STALL_COUNT];
    double energy_pj[EN_COUNT];
    double seconds;                     /* wall-clock time of the simulation */
    double cpu_seconds;                 /* processor time of the simulation (this process) */
    uint64_t peak_events;               /* the event queue's largest size */
    int nassumptions;
    const char *assumptions[SIM_MAX_ASSUMPTIONS];
    int ncu, ngpu, warps, slots;
} sim_results;

void results_energy(sim_results *r, const sim_system *s);
void results_json(FILE *out, const sim_results *r);
void results_csv_header(FILE *out, const sim_results *r);
void results_csv(FILE *out, const sim_results *r);
/* A short human summary. */
void results_text(FILE *out, const sim_results *r);

#endif
