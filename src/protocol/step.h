/*
 * protocol/step.h: what one step of a protocol trace did, what a state
 * holds and why a state is stuck, as data.  The text traces
 * (`verify`, `verify --trace full`), the JSON traces and the
 * message-sequence charts (`graph --msc`) are all printed from these
 * structures, so that they cannot disagree.
 *
 * Contract.  Everything here is computed on demand from packed states of
 * one instance (proto_instantiate); nothing is stored by the search, which
 * stays ignorant of it.  No function allocates (but proto_step_record_of):
 * results go into the caller's structures (fixed-size text, truncated with "..." when a piece
 * does not fit), so they may be called from anywhere, while a search runs
 * or after.  Names are the ones a reader of the table file and the litmus
 * test knows: threads by their litmus name ("P1"), controller instances by
 * controller and place ("L1 (CU 1)", "L2", "L2 (slice 1)", "Home (GPU 0)"),
 * lines by location name, channel instances as traces print them
 * ("req[1]", "hresp[0->1]").
 */
#ifndef SCOPECHECK_PROTOCOL_STEP_H
#define SCOPECHECK_PROTOCOL_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "protocol/protocol.h"

#define PROTO_NAME_MAX 40
#define PROTO_TEXT_MAX 128
#define PSTEP_MAX_SENDS 16
#define PSTEP_MAX_READS 2
#define PSTEP_MAX_DROPS 16
#define PSTEP_MAX_ACTIONS 16
#define PSTEP_TEXT_MAX 1024

/* A participant of a trace, and a lifeline of a chart: a thread or a
 * controller instance. */
typedef struct proto_agent {
    int ctrl;                   /* controller index, or -1: a thread */
    int index;                  /* the controller's instance, or the thread's index */
    int cu, gpu;                /* where it sits (-1: not tied to one) */
    char name[PROTO_NAME_MAX];  /* "P1", "L1 (CU 1)", "L2" */
} proto_agent;

/* A message in a channel instance: sent by a step, or taken by one. */
typedef struct proto_msg_ref {
    int chan, chan_inst;            /* channel and instance (the state's numbering) */
    char channel[PROTO_NAME_MAX];   /* "req[1]", "hresp[0->1]" */
    char text[PROTO_NAME_MAX * 2];  /* "Store(x, 1)": the address by location name */
    proto_agent to;                 /* the controller instance that receives it */
} proto_msg_ref;

/* A value a step put in a thread's register (the read of a load or an rmw). */
typedef struct proto_read {
    int thread;
    const char *thread_name, *reg;  /* "P1", "r2" */
    long value;
} proto_read;

/* A line a bulk action (invalidate_all) reset: its location and what it
 * held, "V val=1". */
typedef struct proto_drop {
    const char *loc;
    char held[PROTO_NAME_MAX * 2];
} proto_drop;

typedef enum proto_step_kind {
    PSTEP_PROCESSOR,    /* a thread's memory instruction taken by its CU's processor controller */
    PSTEP_RECEIVE,      /* a controller instance takes a message out of a channel */
    PSTEP_INTERNAL,     /* a controller instance's internal event on a line ("evict") */
    PSTEP_BARRIER,      /* a thread arrives at a CTA barrier (no table row) */
    PSTEP_LOCAL,        /* a thread accesses local memory, its CU's scratchpad (no table row) */
    PSTEP_NONE          /* the rule offers no event in that state */
} proto_step_kind;

/* A stretch of a step's text: text[start, start + len). */
typedef struct proto_span {
    uint16_t start, len;
} proto_span;

typedef struct proto_step_desc {
    proto_step_kind kind;
    proto_agent actor;              /* who took the event (the thread, for a barrier) */
    int thread;                     /* the thread the event is for, or -1 */
    const char *thread_name;        /* its name, or NULL */
    const char *instr;              /* its instruction as written ("ld.acquire.gpu r1, y"), or NULL */
    const char *loc;                /* the line's location, or NULL (fences, barriers) */
    const char *state, *next_state; /* the line's state before and after, or NULL */
    char event[PROTO_NAME_MAX * 2]; /* "load.acquire.gpu", "recv req[1].Load(x)", "evict",
                                       "bar.cta.sync 0" */
    proto_msg_ref received;         /* PSTEP_RECEIVE: the message taken */
    bool fired;                     /* a row (or the barrier) fired; false: nothing enabled */
    const char *row_file;           /* the row that fired: its file (a variant's base for an
                                       inherited row) and line; NULL when no row fired */
    int row_line;
    int nsends;                     /* messages sent (one per destination of a multicast) */
    proto_msg_ref sends[PSTEP_MAX_SENDS];   /* the first PSTEP_MAX_SENDS */
    int nreads;
    proto_read reads[PSTEP_MAX_READS];
    bool completes;                 /* the thread's instruction completed ("done") */
    int ndrops;                     /* lines invalidate_all dropped (the first PSTEP_MAX_DROPS) */
    proto_drop drops[PSTEP_MAX_DROPS];
    int nactions;                   /* the actions the step took, as stretches of `text`
                                       ("send req[1] Load(y)", "invalidate_all (dropped x:
                                       V val=0; y: V val=1)"), the first PSTEP_MAX_ACTIONS;
                                       an action's own text may hold "; " */
    proto_span actions[PSTEP_MAX_ACTIONS];
    char text[PSTEP_TEXT_MAX];      /* the one line traces print, without newline: "P1 (CU 1)
                                       L1[y] in I: load.acquire.gpu -> invalidate_all (dropped
                                       x: V val=0); send req[1] Load(y); ...; next I" */
} proto_step_desc;

/* Describes the step that `rule` takes from `state` to `next` (a
 * successor successors() emitted with that rule).  The row is chosen
 * again exactly as successors() chose it and its actions are replayed on
 * a copy, so sends, writes and reads show the values they had. */
void proto_describe_step(const proto_instance *in, const uint8_t *state, int rule, const uint8_t *next,
                         proto_step_desc *out);

/* ---- a step as a record --------------------------------------------- */

/* The same step as a record of strings, for the JSON traces: who took
 * which event in which state, which table row fired, and what it did.
 * Every field is optional (NULL, 0 or -1 when the step has nothing to
 * say). */
#define PROTO_RECORD_MAX_ITEMS 16
typedef struct proto_step_record {
    const char *thread;          /* litmus thread that issued the event ("P0") */
    int litmus_line;             /* its instruction's line in the litmus file (0: none) */
    const char *instruction;     /* the instruction as written */
    const char *controller;      /* the controller that took the event ("L1") */
    const char *instance_kind;   /* "CU", "GPU", "slice" (NULL: a single instance) */
    int instance;                /* which one (-1: none) */
    const char *address;         /* the line's location ("x") */
    const char *state;           /* the line's state before the step */
    const char *next_state;      /* and after it */
    const char *event;           /* "load.acquire.gpu", "recv req[1].Load(x)" */
    const char *row_file;        /* the table row that fired */
    int row_line;                /* its line (0: none) */
    int nactions;                /* every action as it ran, in order */
    const char *actions[PROTO_RECORD_MAX_ITEMS];
    int nsent;                   /* the messages sent ("req[0] Load(x)") */
    const char *sent[PROTO_RECORD_MAX_ITEMS];
    int nread;                   /* the values read into registers ("P1:r0=1") */
    const char *read[PROTO_RECORD_MAX_ITEMS];
    const char *note;            /* anything else ("no row", a barrier's arrival) */
} proto_step_record;

/* Fills *out for the step `rule` takes from `state` to `next`; false when
 * the rule offers no event in `state` or is none of this instance's (a
 * scheduler's rule, say).  Unlike
 * the rest of this header it allocates: the strings come from Boehm GC and
 * live as long as the caller holds them. */
bool proto_step_record_of(const proto_instance *in, const uint8_t *state, int rule, const uint8_t *next,
                          proto_step_record *out);

/* ---- what a state holds ------------------------------------------------ */

/* One named piece of a state: component "L1 (CU 1) [x]", field "val",
 * value "1".  The fields of an instance are always the same, in the same
 * order (threads, then controller instances with their variables and
 * lines, then channels, then CTA barrier counters), so two states are
 * compared field by field.  Thread fields: "pc" ("1 (st.release.gpu y,
 * 1)" or "done"), "waiting" ("yes"/"no"), each register; a line: "state"
 * and its fields; a channel: one field "" holding its messages, oldest
 * first ("Load(x), Store(y, 1)" or "empty"); aggregates: "{0, 2}" (the set
 * bits of a bits), "[1, 0]" (an array, a fifo's queued elements). */
typedef struct proto_state_field {
    char component[PROTO_NAME_MAX];
    const char *name;
    char value[PROTO_TEXT_MAX];
} proto_state_field;

int proto_state_nfields(const proto_instance *in);
/* Fills out[0 .. proto_state_nfields(in) - 1] from `state`. */
void proto_state_fields(const proto_instance *in, const uint8_t *state, proto_state_field *out);

/* ---- why a state is stuck -------------------------------------------- */

/* One reason a state has no successor or is not an acceptable end:
 * `who` is a thread, a channel instance or a controller instance; `why`
 * says on what it waits, which row and guard refused it, with the values
 * the guard read, or which `final` condition is false and why. */
typedef struct proto_reason {
    char who[PROTO_NAME_MAX];
    char why[PROTO_TEXT_MAX * 3];
} proto_reason;

/* Writes up to `max` reasons into `out`; returns how many there are in
 * all.  For a deadlock state (no successor, not final) the list names
 * every thread not done (waiting for a response, at a barrier, or
 * offering an event no row takes), every message no row takes, and every
 * controller instance whose `final` condition is false. */
int proto_stuck_reasons(const proto_instance *in, const uint8_t *state, proto_reason *out, int max);

/* The agents of an instance, for charts: threads 0..nthreads-1, then
 * every controller instance. */
int proto_agent_count(const proto_instance *in);
void proto_agent_at(const proto_instance *in, int k, proto_agent *out);
/* The number that proto_agent_at gives `a`. */
int proto_agent_number(const proto_instance *in, const proto_agent *a);

#endif
