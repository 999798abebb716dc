/*
 * gen/gen.h: random litmus tests, and the small steps that shrink a test.
 *
 * Folder src/gen/: test generation for differential testing (docs/difftest.md),
 * the part of scopecheck that writes programs rather than reads them, in
 * the spirit of herd's diy7.  May include base/ and litmus/; its tests are
 * written out with litmus/print.h and read back by the ordinary front ends.
 *
 * Contract.  gen_test builds test number `index` of the family named by
 * the options: the same options and index give the same test on every
 * machine (a counter-based generator, no global state).  With GEN_CYCLES,
 * most tests are critical cycles as diy7 builds them (MP, SB, LB, IRIW,
 * WRC, ISA2, 2+2W, ... with random orders, scopes, fences and
 * dependencies, and sometimes a load that puts a stale copy in a cache
 * first), their condition the outcome SC forbids.  The others are random
 * programs: 2..max_threads threads placed on CTAs and GPUs,
 * 1..max_locations locations, 1..max_ops operations per thread drawn from
 * the enabled features, distinct stored values per location (so that an
 * outcome says which write a read saw), and a final condition `exists` over
 * every register a load writes and every location, so that its outcome set
 * is the whole final state.  Barriers are given to every thread of a CTA
 * (no quorum question); a spin loop waits for a value some other thread
 * stores.
 *
 * shrink_candidate gives the k-th smaller variant of a test (a thread
 * removed, an instruction removed, a conjunct of the condition dropped),
 * NULL past the last; a driver keeps the first variant that still shows
 * what it looks for and starts again (scripts/difftest.sh).
 */
#ifndef SCOPECHECK_GEN_GEN_H
#define SCOPECHECK_GEN_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "litmus/litmus.h"

enum gen_feature {
    GEN_WEAK = 1 << 0,     /* weak (ld.weak, st.weak) accesses */
    GEN_RELAXED = 1 << 1,  /* relaxed accesses */
    GEN_ACQREL = 1 << 2,   /* acquire loads, release stores, acquire/release/acq_rel RMWs */
    GEN_FENCES = 1 << 3,   /* fence.sc, fence.acq_rel */
    GEN_RMW = 1 << 4,      /* atom add and exch */
    GEN_CAS = 1 << 5,      /* atom cas */
    GEN_RED = 1 << 6,      /* red add */
    GEN_BARRIERS = 1 << 7, /* bar.cta.sync given to every thread of a CTA */
    GEN_LOOPS = 1 << 8,    /* spin loops waiting for another thread's store */
    GEN_DEPS = 1 << 9,     /* data dependencies (a store of a loaded value) and control ones */
    GEN_SYS = 1 << 10,     /* .sys scope (meaningful with several GPUs) */
    GEN_CYCLES = 1 << 11,  /* most tests are critical cycles (MP, SB, IRIW...), as diy7 builds */
    GEN_ALL = (1 << 12) - 1,
};

typedef struct gen_options {
    uint64_t seed;
    int max_threads;       /* at least 2 */
    int max_locations;     /* at least 1 */
    int max_ops;           /* operations per thread, at least 1 */
    int max_ctas;          /* CTAs per GPU that threads are spread over */
    int max_gpus;
    unsigned features;     /* enum gen_feature bits */
} gen_options;

/* Defaults: 3 threads, 2 locations, 4 operations, 2 CTAs, 1 GPU, every
 * feature but GEN_SYS. */
void gen_defaults(gen_options *o);

/* Feature names ("fences", "cas", ...), for options and messages; the bit,
 * or 0 for an unknown name. */
unsigned gen_feature_bit(const char *name);
const char *gen_feature_names(void);

litmus_test *gen_test(const gen_options *o, long index);

litmus_test *shrink_candidate(const litmus_test *t, int k);

#endif
