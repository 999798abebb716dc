/*
 * sim/interp.h: one step of the tables: choosing a controller's row for an
 * event and running its actions, as docs/protocol-tables.md defines them
 * (the same meaning as the checker's interpreter, src/protocol/interp.c,
 * written again over the exported form; the arithmetic of expressions and
 * read-modify-writes is both interpreters' base/arith.h, so an overflow
 * disables a row here exactly where it does in the checker).
 *
 * Contract.  sim_fire changes the line and the instance's variables only
 * through scratch copies: when the ctx names scratch buffers (line_scratch,
 * vars_scratch), `line` and `vars` may point at the stored contents, and
 * a row that changes them first copies them into the scratch buffer and
 * points the ctx there (so a row that changes nothing copies nothing);
 * without scratch buffers `line` and `vars` are the caller's own scratch
 * copies, changed in place.  Nothing else changes: what reaches
 * beyond them (messages to send, the thread's completion, wait or read
 * value, the reset of the instance's other lines) is returned in
 * `sim_effects` for the caller to commit.  Rows are tried top to bottom;
 * the first whose state column and event pattern match and whose guard
 * holds fires, and if one of its actions cannot be done (a range left, an
 * index out of range, a `stall`, a full fifo) the step is FIRE_BLOCKED and
 * the scratch copies must be discarded (the event waits).  FIRE_UNHANDLED:
 * no row matches the (state, event) pair at all.  No allocation, no
 * global state.
 */
#ifndef SCOPECHECK_SIM_INTERP_H
#define SCOPECHECK_SIM_INTERP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/tables.h"

#define SIM_MAX_SENDS 16
#define SIM_EACH_WORDS 4            /* a multicast reaches at most 256 destinations */

/* The event offered to a controller. */
typedef struct sim_event_desc {
    enum sim_ev kind;
    int order, scope;               /* processor events */
    int chan, msg;                  /* SE_RECV */
    int internal;                   /* SE_INTERNAL */
    bool remote;                    /* processor events: a remote-scope-promotion form */
} sim_event_desc;

/* Everything a row may read besides its line and variables. */
typedef struct sim_ctx {
    const sim_tables *t;
    int ctrl, inst;
    int cu, gpu;                    /* the context's CU and GPU, -1 when none */
    const int *cu_gpu;              /* CU -> GPU */
    uint64_t addr;
    bool has_line;
    int64_t *line;                  /* state, then fields (see the contract) */
    const int64_t *line_init;       /* the line's initial contents */
    int64_t *vars;                  /* the instance's variables (see the contract) */
    int64_t *line_scratch, *vars_scratch;   /* copy-on-write buffers, or NULL */
    const int64_t *msg;             /* the received message's fields, or NULL */
    int tid;                        /* sender's thread slot within its CU, for sends */
    bool has_thread;
    int order;                      /* the thread's instruction: order, operand, rmw */
    int64_t value;
    int rmw_op;
    bool rmw_has_a;
    int64_t rmw_b;
    bool ok;
} sim_ctx;

typedef struct sim_send {
    int chan, msg;
    enum sim_dest dest;
    int index;                      /* SD_SELF, SD_INDEX: the destination */
    uint64_t each[SIM_EACH_WORDS];  /* SD_EACH: the destinations */
    int64_t fields[SIM_MAX_FIELDS];
} sim_send;

typedef struct sim_effects {
    int nsends;
    sim_send sends[SIM_MAX_SENDS];
    bool done, wait, reg_set, inv_all;
    int64_t reg;
} sim_effects;

enum sim_fire { FIRE_OK, FIRE_BLOCKED, FIRE_UNHANDLED };

enum sim_fire sim_fire(sim_ctx *c, const sim_event_desc *ev, const sim_row **row, sim_effects *fx);

/* Why no row fires for the event in c, written to `to` as the checker's
 * "Why stuck" does: for each row whose state and event match, in table
 * order, "row at line N: guard `E` is false" or the action that cannot be done
 * and its value, then the instance's scalar variables.  The ctx must name
 * scratch buffers: nothing stored changes.  For messages, not the hot
 * path. */
void sim_explain(sim_ctx *c, const sim_event_desc *ev, FILE *to);

/* The processor controller's `hold` holds on the event's context (the
 * line and variables in c): no processor event may fire.  As the
 * checker, an expression that cannot be evaluated does not hold. */
bool sim_held(sim_ctx *c);

/* The address internal row `row` (which has a pin) can fire on, from
 * the instance's variables in c; false when the pin cannot be evaluated
 * (an empty fifo's head). */
bool sim_pin_addr(sim_ctx *c, const sim_row *row, int64_t *addr);

/* The value of e when it reads only numbers and constants (bound by
 * sim_tables_bind); false when it reads anything else, or when it
 * overflows or divides by 0 (then *overflow: as in the checker, the row
 * that computes it cannot fire). */
bool sim_const_value(const sim_tables *t, const sim_expr *e, int64_t *value, bool *overflow);

/* The home `h` of address a (for placing data and routing). */
int64_t sim_home_of(const sim_tables *t, int h, uint64_t addr);

#endif
