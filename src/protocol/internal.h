/*
 * protocol/internal.h: the resolved form of a protocol table file and of an
 * instance, shared by the modules of src/protocol/ (the parser, the layout,
 * the interpreter interp.c, and the print-time modules that replay it:
 * describe.c, stuck.c, step_record.c, nsi_adapter.c).  Not for other
 * modules: they use protocol.h and step.h.
 */
#ifndef SCOPECHECK_PROTOCOL_INTERNAL_H
#define SCOPECHECK_PROTOCOL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/textbuf.h"
#include "protocol/compile.h"
#include "protocol/protocol.h"
#include "protocol/step.h"

/* ---- tokens ---------------------------------------------------------- */
enum ptok_kind { PT_EOF, PT_NL, PT_IDENT, PT_NUM, PT_STRING, PT_PUNCT };

typedef struct ptok {
    enum ptok_kind kind;
    const char *text;   /* identifier, string contents or punctuation */
    long num;
    int line, col;
} ptok;

/* Splits `text` into tokens (GC array ending in PT_EOF); NULL on error
 * after writing "file:line:col: error: ..." to `errors`. */
ptok *ptok_split(const char *path, const char *text, FILE *errors);

/* Where a declaration was written: its file (a variant's base or the
 * variant), line and column, for the errors found when an instance is
 * laid out. */
typedef struct ppos { const char *path; int line, col; } ppos;

/* ---- declarations ------------------------------------------------------ */
/* A bound: a configuration constant times a factor plus an offset
 * (cst >= 0: NCU-1, 2*NADDR-1) or a number. */
typedef struct pbound { int cst; long num; long mul; } pbound;
/* A range of small integers; is_value: the protocol's value range. */
typedef struct prange { bool is_value; pbound lo, hi; } prange;

/* The type of a line field or a controller variable: a scalar in a range,
 * or a small aggregate of `len` elements in the range `r` (bits: 0..1).
 * A fifo is a count followed by its elements, oldest first, unused ones
 * at their lowest value (canonical). */
enum ptype_kind { T_SCALAR, T_BITS, T_ARRAY, T_FIFO };
typedef struct ptype { enum ptype_kind kind; prange r; pbound len; ppos at; } ptype;

/* The topology levels a controller or a channel is placed at, finest
 * first: one instance per compute unit, per GPU, or one for the system;
 * and `sliced N`: N instances tied to no CU or GPU (L2 slices, directory
 * banks), reached by index. */
enum plevel { LV_CU, LV_GPU, LV_SYS, LV_SLICE };

/* A placement: its level, and for LV_SLICE the number of slices. */
typedef struct pplace { enum plevel level; pbound slices; } pplace;

enum pex_kind { EX_NUM, EX_CONST, EX_VAR, EX_LINEF, EX_MSGF, EX_ADDR, EX_VALUE,
                EX_STATE, EX_BIN, EX_NOT, EX_RMW, EX_NEG,
                EX_INDEX,       /* l[r]: element r of an aggregate (l: EX_VAR / EX_LINEF) */
                EX_LEN,         /* len(l): fifo length, bits: number set, array: size */
                EX_HAS,         /* has(l, r): some element equals r (bits: bit r set) */
                EX_LAST,        /* last(l, r): the index of the last element equal to r, or -1 */
                EX_HOME,        /* home idx of the address r */
                EX_CU, EX_GPU,  /* the context's compute unit, GPU */
                EX_TID,         /* the context's thread slot within its CU, or -1 */
                EX_ORDER,       /* the order of the instruction of the event's thread */
                EX_COND,        /* if l then r else r2: written cond(c, a, b) */
                EX_CHAIN };     /* terms[0] ops[0] terms[1] ops[1] ... folded from the left */
/* Binary operators: enum expr_op of base/vocab.h (OPX_ADD ...), shared with
 * the exported tables and the simulator; base/arith.h computes them.  Their
 * precedence in the table language (1 ||, 2 &&, 3 comparisons, 4 + -,
 * 5 * / %), for the parser and the printer (expr_text.c). */
extern const int proto_op_prec[EXPR_NOPS];

typedef struct pexpr {
    enum pex_kind kind;
    enum expr_op op;
    int idx;            /* const, var, field, home index */
    long num;
    struct pexpr *l, *r, *r2;
    /* EX_CHAIN: a chain of two or more binary operators (`a + b - c`,
     * `x == 1 && y == 2`), kept flat so that evaluating a long one takes a
     * loop, not a recursion as deep as the chain is long. */
    int nterms;
    struct pexpr **terms;
    enum expr_op *ops;   /* nterms - 1 */
} pexpr;

enum pact_kind { A_SEND, A_LINEF, A_VAR_SET, A_VAR_ADD, A_VAR_SUB, A_REG, A_DONE,
                 A_WAIT, A_STALL, A_INV, A_INV_ALL, A_SET,
                 A_PUSH, A_POP, A_CLEAR };

/* Where a send goes: the context's own instance of the channel's level,
 * an instance by number, each instance whose bit is set in a bits
 * variable or field, or every instance. */
enum pdest { D_SELF, D_INDEX, D_EACH, D_ALL };

typedef struct pact {
    enum pact_kind kind;
    int idx;            /* field, var, channel or state */
    int msg;            /* A_SEND: message type */
    int nargs;
    pexpr **args;       /* A_SEND: one per message field */
    pexpr *e;
    pexpr *index;       /* element assignments: the element; A_SEND: the destination */
    enum pdest dest;    /* A_SEND */
    bool on_line;       /* A_PUSH/A_POP/A_CLEAR/element: a line field, not a variable */
} pact;

/* base/vocab.h's event kinds (vocab_event_kinds names them). */
enum pev_kind { EV_LOAD = EVENT_LOAD, EV_STORE = EVENT_STORE, EV_RMW = EVENT_RMW, EV_FENCE = EVENT_FENCE,
                EV_RECV = EVENT_RECV, EV_INTERNAL = EVENT_INTERNAL };
#define PEV_ANY (-1)

typedef struct pevent {
    enum pev_kind kind;
    int order;          /* enum lit_order or PEV_ANY */
    int scope;          /* enum lit_scope or PEV_ANY */
    int chan, msg;      /* EV_RECV */
    int internal;       /* EV_INTERNAL: index in the controller's internal events */
    int remote;         /* processor events: 1 for a remote-scope-promotion form
                           (`rmw.acquire.gpu.remote`), 0 otherwise; a row matches
                           only instructions with the same flag */
} pevent;

typedef struct prow {
    const char *path;   /* the file the row was written in (variants: base or variant) */
    uint64_t states;    /* bit s: matches line state s */
    pevent ev;
    pexpr *guard;       /* NULL: true */
    int nacts;
    pact *acts;
    int next;           /* state index, or -1: unchanged */
    int line, col;
} prow;

#define PROTO_MAX_STATES 64
#define PROTO_MAX_FIELDS 8

typedef struct pctrl {
    const char *name;
    enum plevel level;
    pbound slices;          /* LV_SLICE: how many */
    bool processor;
    int nstates;
    const char **states;
    int nfields;
    const char **fields;
    ptype *field_type;
    bool *field_memory;     /* initialised from the litmus location */
    bool *field_keep;       /* not reset by invalidate / invalidate_all */
    bool any_keep;
    int nvars;
    const char **vars;
    ptype *var_type;
    pexpr *final;           /* NULL: always */
    pexpr *hold;            /* processor controller: no processor event is taken while it
                               holds (evaluated on the event's line); NULL: never */
    int ninternal;
    const char **internal;
    int nrows, rows_cap;    /* rows_cap: room in `rows` (it grows as rows are read) */
    prow *rows;
    ppos at;                /* the controller declaration */
} pctrl;

typedef struct pchan {
    const char *name;
    enum plevel level;
    pbound slices;          /* LV_SLICE: how many */
    bool unordered;
    bool per_source;        /* `from each X`: one channel per (sender, destination) pair */
    int from, to;
    pbound cap;
    int vnet;
    ppos at;                /* the channel declaration */
} pchan;

typedef struct pmsg {
    const char *name;
    int nfields;            /* field 0 is addr */
    const char **fields;
    prange *range;
    int cu_field, gpu_field;   /* fields named `cu` / `gpu` (routing above the CU), or -1 */
} pmsg;

typedef struct pinv {
    const char *name;
    int ctrl;
    pexpr *e;
} pinv;

/* A named function of the address: `home NAME = EXPR` (EXPR over addr). */
typedef struct phome { const char *name; pexpr *e; ppos at; } phome;

enum { PB_NCU, PB_NGPU, PB_NADDR, PB_NTHREADS, PB_MAXOPS, PB_NBUILTIN };

struct protocol {
    const char *path, *name;
    int nsources;              /* files read: the base of a variant first, this one last */
    const char **sources;
    int nconsts;
    const char **const_names;
    long *const_values;     /* first PB_NBUILTIN are set at instantiation */
    prange value;
    bool value_wrap, has_value;
    ppos decl_at, value_at;    /* the `protocol` and `value` declarations */
    int nmsgs;
    pmsg *msgs;
    int nchans;
    pchan *chans;
    int nctrls;
    pctrl *ctrls;
    int ninvs;
    pinv *invs;
    int nhomes;
    phome *homes;
    int mem_ctrl, mem_field;   /* memory declaration, or -1 */
    int mem_home;              /* the memory instance of an address: a home, or -1 (instance 0) */
    int proc_ctrl;             /* the controller with processor events */
    bool preempt;              /* `preempt`: a waiting CTA may be swapped out (partial context switch) */
};

/* ---- instance ----------------------------------------------------------- */
#define PROTO_MAX_SLOTS 4096
#define PROTO_MAX_DESTS 64      /* destinations of a channel (a send to `all` reaches each) */
#define PROTO_MAX_UNHANDLED 64

typedef struct pslot { int32_t lo, hi; uint32_t off; uint8_t bits; bool is_value; } pslot;
/* A slot as unpacking reads it (layout.c tables one per slot): the 64-bit
 * word at byte `byte` of the packed state, shifted right by `shift`,
 * masked, plus lo. */
typedef struct pslot_read { uint32_t byte, shift, mask; int32_t lo; } pslot_read;
/* A message field's declared range, resolved. */
typedef struct pfield_range { long lo, hi; bool is_value; } pfield_range;

typedef struct pthread_info {
    int cu, tid;            /* compute unit, slot within it */
    int base;               /* pc, waiting, regs... */
    const lit_thread *th;
} pthread_info;

typedef struct pchan_info {
    int ninst, base, cap, msg_slots;  /* msg_slots: kind, tid, fields */
    int ndest;              /* destinations; ninst = senders * ndest with `from each` */
    bool unordered;
    int rule_base;
    int unit_base;          /* the fairness unit (nsi_fairness) of instance 0 */
} pchan_info;

/* The arrival counter of one CTA barrier: CU and barrier id, its slot. */
typedef struct pbar_info { int cu; long id; int slot; } pbar_info;

/* Barrier ids a register operand may name: PTX has 16 barriers per CTA. */
#define PROTO_MAX_BAR_ID 15
/* The largest barrier thread count a test may give as a number. */
#define PROTO_MAX_BAR_COUNT 65536

typedef struct pctrl_info {
    int ninst, base, line_slots, inst_slots;
    int rule_base;          /* internal events */
    int unit_base;          /* the fairness unit of its first internal rule (one per rule) */
    int *field_off;         /* slot of field f relative to its line's first slot */
    int *var_off;           /* slot of variable v relative to the instance's variables */
    int *field_len, *var_len; /* elements of an aggregate (1: scalar) */
} pctrl_info;

/* What happened to values during a search: written through a pointer so
 * that the callbacks, which see a const instance, can record it (like the
 * unhandled pairs, the only mutable part of an instance).  Several search
 * threads may record at once: `wrapped` is set with a relaxed atomic
 * store, the overflow and the unhandled pairs under `lock`. */
typedef struct pvalue_record {
    bool overflow;          /* a value left vlo..vhi and the step was not taken */
    long overflow_value;    /* the first such value (with several threads: the first recorded) */
    bool wrapped;           /* a value was wrapped into the range (`value ... wrap`) */
    pthread_mutex_t lock;   /* the overflow and the instance's unhandled pairs */
} pvalue_record;

struct proto_instance {
    const protocol *p;
    const litmus_test *t;
    long *consts;           /* resolved configuration */
    long vlo, vhi;
    bool values_derived;    /* vlo..vhi is the range the test needs, not the declared one */
    bool wraps;             /* out-of-range values wrap (declared `wrap`, declared range) */
    pvalue_record *vrec;
    int ncu, ngpu, naddr, nthreads, max_tid_per_cu;
    int *cu_gpu;            /* cu -> its GPU */
    pfield_range *msg_range; /* [message * PROTO_MAX_FIELDS + field] */
    int **cu_threads;       /* cu -> tid -> thread */
    int *cu_size;           /* cu -> its number of threads */
    pthread_info *threads;
    pchan_info *chans;
    pctrl_info *ctrls;
    int maxfields;
    int nslots;
    pslot *slots;
    pslot_read *reads;      /* one per slot, from `slots` */
    int nbars;              /* barrier counters, (cu, id) pairs the test may use */
    pbar_info *bars;
    int *local_slot;        /* per location: its scratchpad slot (local region), or -1 */
    int32_t *init;          /* unpacked initial state */
    int state_bits;
    nsi_model model;
    nsi_fairness fairness;  /* the fairness units (model.fairness points here) */
    int nrules;
    int32_t *unit_of_rule;      /* nsi_fairness's rule_unit, tabled by proto_init_fairness (-1: none) */
    int nunhandled;
    proto_unhandled_pair unhandled[PROTO_MAX_UNHANDLED];
    uint32_t unhandled_key[PROTO_MAX_UNHANDLED];
    const proto_code *code; /* the compiled tables (compile.h), set after the layout */
    struct proto_symmetry *sym;     /* symmetry.c's analysis (NULL: not yet run) */
};

/* layout.c.  proto_layout fixes the configuration, places threads on CUs,
 * checks the program against the tables and lays out the packed state;
 * false after writing an error. */
bool proto_layout(proto_instance *in, const proto_options *o, FILE *errors);
long pbound_value(const proto_instance *in, pbound b);
/* Instances of a level in this instance: NCU, NGPU or 1. */
int proto_level_count(const proto_instance *in, enum plevel lv, pbound slices);
void proto_pack(const proto_instance *in, const int32_t *v, uint8_t *out);
void proto_unpack(const proto_instance *in, const uint8_t *s, int32_t *v);
/* One slot, and the slots first..last-1 only (the predicates that look at
 * a few slots do not unpack the whole state). */
int32_t proto_slot(const proto_instance *in, const uint8_t *s, int i);
void proto_unpack_range(const proto_instance *in, const uint8_t *s, int32_t *v, int first, int last);
/* Rewrites in `out` (a copy of the packed `old`) the slots where v differs
 * from old.  `out` must have PROTO_PACK_SLACK bytes after the state: each
 * slot is written with one 64-bit read-modify-write, which reads those
 * bytes and writes them back unchanged. */
#define PROTO_PACK_SLACK 8
void proto_repack(const proto_instance *in, const int32_t *old, const int32_t *v, uint8_t *out);
/* proto_repack over the ranges of `d` only (all of them when d->all): v
 * must equal old outside them. */
struct pdirty;
void proto_repack_dirty(const proto_instance *in, const int32_t *old, const int32_t *v, uint8_t *out,
                        const struct pdirty *d);

/* interp.c.  proto_home_value: home h of address a in this instance; false
 * when it cannot be computed (a division by zero, an overflow). */
bool proto_home_value(const proto_instance *in, int h, int a, long *out);
/* names.c: what traces, state listings and charts call things. */
const char *proto_loc_name(const proto_instance *in, long a);
/* How an instance of controller c is named in traces: "CU", "GPU",
 * "slice" (a lone slice is not named), or NULL (one instance, or c < 0). */
const char *proto_instance_kind(const proto_instance *in, int c);
/* The variable or line field an action names. */
const char *proto_storage_name(const pctrl *pc, const pact *a);
void proto_thread_agent(const proto_instance *in, int t, proto_agent *out);
void proto_ctrl_agent(const proto_instance *in, int ctrl, int inst, proto_agent *out);
int proto_chan_receiver(const proto_instance *in, int ch, int inst);
void proto_chan_name(const proto_instance *in, int ch, int inst, textbuf *b);
void proto_msg_text(const proto_instance *in, int msg, const int32_t *fields, textbuf *b);
void proto_msg_ref_of(const proto_instance *in, int ch, int inst, const int32_t *m, proto_msg_ref *out);
/* An aggregate's elements as state listings print them: "{0, 2}" (the
 * set bits of a bits), "[1, 0]" (an array; a fifo's queued elements). */
void proto_aggregate_text(enum ptype_kind kind, const int32_t *first, int len, textbuf *b);

/* expr_text.c: an expression as it would be written in the table file,
 * names resolved back (controller `ctrl`'s variables, fields and states;
 * message `msg`'s fields, or -1). */
void proto_expr_text(const protocol *p, int ctrl, int msg, const pexpr *e, textbuf *b);

/* scratchpad.c: OpenCL local memory.  A location in the local region is
 * kept in one slot, the scratchpad of the CU that uses it, and accessed by
 * the interpreter itself (no table row sees it); a fence that orders only
 * local memory does nothing.  proto_scratchpad_check refuses (with an
 * error at the instruction) a local location used from two CUs;
 * proto_scratchpad_step performs thread t's load, store or rmw of a local
 * location (or a local-only fence) on w, without completing the
 * instruction, and is false (w untouched) when a value would leave the
 * range of a protocol that does not wrap. */
bool proto_scratchpad_is_local(const litmus_test *t, int loc);
bool proto_scratchpad_serves(const proto_instance *in, const lit_instr *ins);
int proto_scratchpad_slot(const proto_instance *in, int loc);
bool proto_scratchpad_check(const proto_instance *in, FILE *errors);
bool proto_scratchpad_step(const proto_instance *in, int32_t *w, int t, const lit_instr *ins);

/* ---- the interpreter (interp.c) -------------------------------------------- */
/* The model's callbacks (nsi.h), wired by proto_init_model. */
void proto_nsi_initial(void *vctx, uint8_t *state);
int proto_nsi_successors(void *vctx, const uint8_t *state, nsi_emit emit, void *cb_ctx);
bool proto_nsi_is_final(void *vctx, const uint8_t *state);
const char *proto_nsi_violated(void *vctx, const uint8_t *state);
int proto_local_steps(const proto_instance *in, int32_t *v, int thread);
long proto_eval_operand(const proto_instance *in, const int32_t *v, int thread, lit_operand o);

/* What the print-time modules replay of the interpreter: the same
 * functions the search runs (exported by thin wrappers, so that the search
 * keeps its inlining), never a copy of them, so that a description cannot
 * disagree with the step taken. */

/* The context a row runs in: the controller instance, the line, the
 * thread and message of the event, the working slots. */
typedef struct pctx {
    proto_instance *in;
    int32_t *v;             /* working slots */
    int ctrl, inst, cu;     /* controller, its instance, the CU (-1: none) */
    int addr;               /* line, or -1 */
    int thread, tid;        /* thread for reg/done (-1: none); tid for sends */
    const lit_instr *ins;   /* that thread's current instruction */
    long value;             /* processor event operand */
    const int32_t *msg;     /* received message fields, or NULL */
    bool ok;
    int gpu;                /* the GPU (-1: none) */
    struct pdirty *dirty;   /* where the actions log what they write (NULL: nowhere) */
} pctx;

/* The slot ranges a row's actions may have written (an over-approximation:
 * each action logs the storage it may change), so that the interpreter
 * repacks and restores those only; all: more than PROTO_MAX_DIRTY ranges,
 * every slot is compared. */
#define PROTO_MAX_DIRTY 16
typedef struct pdirty {
    int n;
    bool all;
    int first[PROTO_MAX_DIRTY], count[PROTO_MAX_DIRTY];
} pdirty;

/* A message to take out of its channel before the row's actions run
 * (ch < 0: none). */
typedef struct ptaken { int ch, inst, k; } ptaken;

/* Controller ctrl's instance inst on v, with no line, thread or message. */
pctx proto_ctx_at(proto_instance *in, int32_t *v, int ctrl, int inst);
/* Slots: a line's first (its state), a channel instance's count. */
int proto_line_slot(const pctx *c, int addr);
int proto_chan_slot(const proto_instance *in, int ch, int inst);
enum ptype_kind proto_storage_kind(const pctx *c, bool on_line, int idx);
/* The elements an aggregate holds now (a fifo: the queued ones). */
bool proto_aggregate_now(const pctx *c, bool on_line, int idx, int *first, int *len);
/* Thread t's current instruction in v, or NULL when it is done. */
const lit_instr *proto_current_instr(const proto_instance *in, const int32_t *v, int thread);
/* CTA barriers: the counter slot and expected count of t's barrier; the
 * slot thread u waits at (-1: none); t's arrival, on w. */
bool proto_barrier_of(const proto_instance *in, const int32_t *v, int t, const lit_instr *ins, int *slot,
                      long *expect);
int proto_barrier_waiting(const proto_instance *in, const int32_t *v, int u);
bool proto_barrier_arrive(const proto_instance *in, int32_t *w, int t, const lit_instr *ins, int *slot,
                          long *expect);
/* An expression's value on c (c->ok false when it cannot be computed). */
long proto_eval(pctx *c, const pexpr *e);
/* A send's destination instances (-1: none possible), the channel
 * instance of destination d, the message it builds. */
int proto_send_targets(pctx *c, const pact *a, int *out);
int proto_chan_instance(const pctx *c, int ch, int d);
bool proto_build_msg(pctx *c, const pact *a, int32_t *m);
void proto_chan_remove(const proto_instance *in, int32_t *v, int ch, int inst, int k);
/* The slot an assignment writes (-1: out of range); runs one action. */
int proto_target_slot(pctx *c, const pact *a);
void proto_act(pctx *c, const pact *a);
bool proto_event_matches(const pevent *r, const pevent *e);
/* The row that fires for (line state, e) on c->v, or NULL; *matched:
 * some row matched the pair at all. */
const prow *proto_select_row(pctx *c, const pevent *e, int state, bool *matched);
/* "rmw.acquire.gpu.remote"; an order's name (NULL: none). */
void proto_proc_event_text(const pevent *e, textbuf *b);
const char *proto_order_name(long order);
/* The event sources: thread t's next instruction (false: it offers
 * none), message k of a channel instance (m receives it), internal event
 * x of a controller instance's line a. */
bool proto_thread_source(proto_instance *in, const int32_t *cur, int t, pctx *c, pevent *e);
void proto_delivery_source(proto_instance *in, const int32_t *cur, int ch, int inst, int k, int32_t *m,
                           pctx *c, pevent *e);
void proto_internal_source(proto_instance *in, const int32_t *cur, int ctl, int i, int a, int x, pctx *c,
                           pevent *e);
/* The processor controller's `hold` holds on the event's context. */
bool proto_held(pctx *c);

/* ---- print-time modules ---------------------------------------------------- */
/* nsi_adapter.c: numbers the rules, tables the fairness units and fills
 * in->model, once per instance after the layout. */
void proto_init_model(proto_instance *in);

#endif
