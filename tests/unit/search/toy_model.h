/*
 * toy_model.h: a synthetic nsi_model for the unit tests of the back ends
 * (search/fair_cycle) and of the scheduler wrapper (tests/unit/schedule/).
 *
 * Contract.  Two threads and a flag.  State bytes: pc of T0, pc of T1,
 * flag, T0's waiting bit, a pending wake-up message (a channel).  Rules:
 * 0 = T0's step, 1 = T1's step, 2 = delivery of the wake-up (unit 2, a
 * channel), 3 = an internal event (no unit).  Each scenario says what the
 * steps do.  describe writes "rule N".  No allocation; the toy must outlive its model.
 */
#ifndef SCOPECHECK_TESTS_TOY_MODEL_H
#define SCOPECHECK_TESTS_TOY_MODEL_H

#include <stdbool.h>

#include "search/bfs.h"
#include "search/fair_cycle.h"
#include "search/nsi.h"

enum { PC0, PC1, FLAG, WAIT0, MSG, NBYTES };

typedef enum scenario {
    SPIN,       /* T0 spins (self-loop) until flag = 1; T1 sets flag; T0 then ends */
    GUARDED,    /* T0 may end only while flag = 1; T1 toggles flag forever (progress at pc 0) */
    DETOUR,     /* T1 loops at pc 0 (a self-loop) or goes to pc 1 (progress) and back; T0 as SPIN but T1 never sets flag */
    BLOCK,      /* T0 blocks (waiting) until a wake-up, sent when T1 sets flag; T1 in another CTA */
    SPLIT,      /* T1: 0 -> 1 (progress) -> 2, then 2 -> 0 or a loop at 2; T0 done from the start */
} scenario;

typedef struct toy {
    scenario sc;
    nsi_fairness fairness;
} toy;

nsi_model toy_model(toy *t, scenario sc);

/* Explores m (with the graph) and searches it; returns the result. */
fc_result cycles_of(const nsi_model *m, bool fair, bfs_result *br);
bool reports(const fc_result *r, int thread);

#endif
