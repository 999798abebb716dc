/*
 * sim/tables.h: exported protocol tables (docs/tables-format.md) as the
 * simulator runs them.
 *
 * Folder src/sim/: the timing simulator scopesim, a program of its own
 * (sim/main.c).  May include base/ and itself only: it knows the protocol
 * only through the exported JSON, never through src/protocol/.
 *
 * Contract.  sim_tables_load reads a tables file, checks its format and
 * version, recomputes its stamp (base/stamp.h) and resolves every name to
 * an index, so that nothing is looked up by name while simulating.  A
 * file that is not stamped, or whose stamp does not match, is refused
 * unless `unverified` is set (the result then records it).  Errors are
 * one line "FILE: FIELD: message" (or "FILE:LINE:COL: error: ..." for
 * JSON syntax) written to `errors`; NULL is returned.  Memory comes from
 * Boehm GC.  Built-in constants (NCU, NGPU, NADDR, NTHREADS, MAXOPS) are
 * left symbolic: sim_tables_bind gives them the simulated system's values
 * and evaluates every bound.
 */
#ifndef SCOPECHECK_SIM_TABLES_H
#define SCOPECHECK_SIM_TABLES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/vocab.h"

#define SIM_MAX_FIELDS 8        /* message fields, addr included */
#define SIM_MAX_STATES 64
#define SIM_MAX_SLICES 64       /* slices of a sliced controller or channel, as the checker allows */
#define SIM_MAX_AGG 65536       /* elements of a bits/array/fifo (sRSP's tables are `bits NADDR`) */
#define SIM_NSCOPES LIT_NSCOPES  /* none, cta, gpu, sys, wi (base/vocab.h) */

/* Built-in constants, in the order of the file's "builtins". */
enum { SB_NCU, SB_NGPU, SB_NADDR, SB_NTHREADS, SB_MAXOPS, SB_COUNT };

typedef struct sim_bound { int cst; long num, times; } sim_bound;   /* cst >= 0: times * constant + num */
typedef struct sim_range { bool is_value; sim_bound lo, hi; } sim_range;

enum sim_type_kind { ST_SCALAR, ST_BITS, ST_ARRAY, ST_FIFO };
typedef struct sim_type {
    enum sim_type_kind kind;
    sim_range r;
    sim_bound len;
    /* bound: */
    long lo, hi;
    int n;                  /* elements (1 for a scalar) */
    int slots;              /* slots taken: n, or 1 + n for a fifo */
} sim_type;

enum sim_level { SL_CU, SL_GPU, SL_SHARED, SL_SLICE };

enum sim_ex { SX_NUM, SX_CONST, SX_VAR, SX_FIELD, SX_MSG, SX_ADDR, SX_VALUE, SX_STATE, SX_CU, SX_GPU,
              SX_ORDER, SX_BIN, SX_NOT, SX_NEG, SX_RMW, SX_INDEX, SX_LEN, SX_HAS, SX_HOME, SX_COND,
              SX_TID, SX_LAST };

typedef struct sim_expr {
    enum sim_ex kind;
    enum expr_op op;        /* SX_BIN: base/vocab.h's operators, the checker's */
    int idx;                /* constant, variable, field, message field, home */
    bool on_line;           /* SX_INDEX/LEN/HAS: a line field, not a variable */
    long num;
    struct sim_expr *l, *r, *r2;
} sim_expr;

enum sim_act { SA_SEND, SA_ASSIGN, SA_REG, SA_DONE, SA_WAIT, SA_STALL, SA_INV, SA_INV_ALL, SA_SET,
               SA_PUSH, SA_POP, SA_CLEAR };
enum sim_dest { SD_SELF, SD_INDEX, SD_EACH, SD_ALL };
enum sim_mode { SM_SET, SM_ADD, SM_SUB };

typedef struct sim_action {
    enum sim_act kind;
    int idx;                /* channel, storage (field or var), state */
    bool on_line;
    int msg;                /* SA_SEND */
    int nargs;
    sim_expr **args;
    enum sim_dest dest;
    enum sim_mode mode;
    sim_expr *e, *index;    /* value; element index, or the destination */
} sim_action;

/* base/vocab.h's event kinds (vocab_event_kinds names them), as the checker's. */
enum sim_ev { SE_LOAD = EVENT_LOAD, SE_STORE = EVENT_STORE, SE_RMW = EVENT_RMW, SE_FENCE = EVENT_FENCE,
              SE_RECV = EVENT_RECV, SE_INTERNAL = EVENT_INTERNAL };
#define SIM_ANY (-1)

typedef struct sim_row {
    uint64_t states;        /* bit s: matches state s */
    enum sim_ev ev;
    int order, scope;       /* SIM_ANY or the number (scope: 0 none, 1 cta, 2 gpu, 3 sys, 4 wi) */
    bool remote;            /* matches only remote-scope-promotion forms (and only those match it) */
    int chan, msg;          /* SE_RECV */
    int internal;           /* SE_INTERNAL */
    sim_expr *guard;        /* NULL: true */
    int nacts;
    sim_action *acts;
    int next;               /* state, or -1 */
    bool writes_line;       /* assigns a line field: a write for the energy table */
    bool changes_line;      /* may change the line (state or fields): the simulator copies it first */
    bool changes_vars;      /* may change the instance's variables */
    /* internal rows: a conjunct of the guard `addr + pin_k == pin` (either
     * side) whose `pin` reads neither the line nor the event: the only
     * address the row can fire on is pin - pin_k (sim_tables_pin) */
    sim_expr *pin;
    long pin_k;
    int source_line;
} sim_row;

typedef struct sim_field { const char *name; sim_type type; bool memory, keep; } sim_field;
typedef struct sim_var { const char *name; sim_type type; } sim_var;

typedef struct sim_ctrl {
    const char *name;
    enum sim_level level;
    sim_bound slices;
    bool processor;
    int nstates;
    const char **states;
    int nfields;
    sim_field *fields;
    int nvars;
    sim_var *vars;
    int ninternal;
    const char **internal;
    int evict;              /* the internal event "evict", or -1 */
    int nrows;
    sim_row *rows;
    sim_expr *hold;         /* processor controller: no processor event fires while it holds, or NULL */
    /* per internal event: every row of it has a pin (sim_row.pin), so
     * that the simulator offers it on the pinned addresses only; false:
     * on the lines the instance holds */
    bool *pinned;
    bool memory_backed;     /* holds a field initialised from memory */
    /* the rows whose event pattern matches each event, in table order
     * (sim_event_key): rows cand_rows[cand_first[k] .. cand_first[k+1]-1] */
    int *cand_first, *cand_rows;
    /* bound: */
    int ninst;
    int line_slots;         /* state + fields */
    int var_slots;
    int *field_off, *var_off;
} sim_ctrl;

typedef struct sim_chan {
    const char *name;
    enum sim_level level;
    sim_bound slices;
    int from, to;
    bool per_source, unordered;
    int vnet;
    sim_bound cap;          /* the capacity it was verified with */
    /* bound: */
    int ndest, ninst;       /* destinations; instances (senders * ndest with per_source) */
} sim_chan;

typedef struct sim_msg {
    const char *name;
    int nfields;
    const char **fields;
    sim_range *range;
    int cu_field, gpu_field;
    bool carries_value;     /* some field after addr is a value */
    long *lo, *hi;          /* bound ranges per field */
} sim_msg;

typedef struct sim_home { const char *name; sim_expr *e; } sim_home;

/* A litmus program the tables were checked with (for litmus workloads): its
 * instructions use base/vocab.h's opcodes and operations, as the checker's. */
typedef struct sim_operand { int kind; int reg; long imm; } sim_operand;  /* kind 0 none, 1 reg, 2 imm */
typedef struct sim_linstr {
    enum lit_opcode op;
    int order, scope, dst, loc, target;
    int rmw, alu, cmp;   /* enum lit_rmw_op, lit_alu_op, lit_cmp (base/vocab.h) */
    bool waits, remote;
    sim_operand a, b;
} sim_linstr;
typedef struct sim_lthread {
    const char *name;
    int cta, gpu, nregs, ninstrs;
    long *reg_init;
    sim_linstr *instrs;
} sim_lthread;
typedef struct sim_program {
    const char *test;
    int nlocs;
    long *loc_init;
    int nthreads;
    sim_lthread *threads;
} sim_program;

typedef struct sim_tables {
    const char *path;
    const char *protocol;
    const char *digest;     /* the stamp's digest, or NULL */
    bool verified;          /* stamped, and the stamp matched */
    int nconsts;
    const char **const_names;
    long *const_values;     /* first SB_COUNT: bound by sim_tables_bind */
    sim_range value;
    bool value_wrap;
    bool data_independent;  /* no guard, index, destination or range reads a data value */
    int nhomes;
    sim_home *homes;
    int nmsgs;
    sim_msg *msgs;
    int nctrls;
    sim_ctrl *ctrls;
    int nchans;
    sim_chan *chans;
    int mem_ctrl, mem_field, mem_home;
    int proc_ctrl;
    /* verification: what the checks covered */
    int covered_ncu, covered_ngpu, covered_threads_per_cu;
    int nchecks;
    const char *checks_summary;     /* "12 tests (ptx6): outcomes deadlock unhandled invariants" */
    int nprograms;
    sim_program *programs;
    /* bound: */
    long vlo, vhi;
} sim_tables;

sim_tables *sim_tables_load(const char *path, bool unverified, FILE *errors);

/* The value of a bound after binding. */
long sim_bound_value(const sim_tables *t, sim_bound b);

/* Binds the built-in constants and evaluates every range, size and
 * instance count; `wide_values`: take values as 0..2^31-1, wrapping (only
 * when the tables are data independent).  False after writing an error
 * ("FILE: ...") when a size does not fit the simulator. */
bool sim_tables_bind(sim_tables *t, const long builtins[SB_COUNT], bool wide_values, FILE *errors);

/* The instances of a level: NCU, NGPU, 1, or the slices. */
int sim_level_count(const sim_tables *t, enum sim_level lv, sim_bound slices);

/* The index of an event among a controller's events: processor events by
 * (kind, order, scope, remote), then (channel, message) pairs, then internal
 * events. */
int sim_event_key(const sim_tables *t, int kind, int order, int scope, bool remote, int chan, int msg, int internal);

/* Whether row r's pattern matches processor event (kind, order, scope,
 * remote): a remote row matches only remote forms, and only remote rows
 * match them. */
bool sim_row_matches(const sim_row *r, int kind, int order, int scope, bool remote);

/* Finds each internal row's pin (sim_row.pin) and marks the internal
 * events whose rows all have one (sim_ctrl.pinned). */
void sim_tables_pin(sim_tables *t);

/* The controller has internal events other than evict (the simulator
 * offers them after each of the instance's steps). */
bool sim_ctrl_has_internal(const sim_ctrl *ct);

/* A litmus program by test name, or NULL. */
const sim_program *sim_tables_program(const sim_tables *t, const char *test);

#endif
