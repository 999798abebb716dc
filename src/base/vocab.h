/*
 * base/vocab.h: the words that the checker, the exported tables and the
 * simulator share: instruction opcodes, memory orders, event kinds, scopes, read-modify-write and ALU
 * operations, branch comparisons and the binary operators of table
 * expressions.  Each is an enum here and one array of names indexed by it
 * (base/vocab.c), so that a name is spelled once: the protocol parser,
 * the exporter, the printers and scopesim's reader all look it up here.
 *
 * The enums keep the litmus layer's names (litmus/litmus.h includes this
 * header): the litmus instruction set is the vocabulary, and base/ may
 * include nothing outside itself, so the enums live here.
 *
 * Contract.  Every array has exactly as many entries as its enum has
 * values (a compile-time check in vocab.c) and no entry is NULL (a unit
 * test).  Names are the ones the table language and docs/tables-format.md
 * use.  Constant data, no state.
 */
#ifndef SCOPECHECK_BASE_VOCAB_H
#define SCOPECHECK_BASE_VOCAB_H

/* The instructions of a litmus program (litmus/litmus.h's register machine). */
enum lit_opcode {
    OP_LOAD,    /* dst <- [loc]                                           */
    OP_STORE,   /* [loc] <- a                                             */
    OP_RMW,     /* atom: dst <- [loc]; [loc] <- rmwop(old, a, b)           */
    OP_RED,     /* red: like OP_RMW without a destination register        */
    OP_FENCE,   /* order ORD_SC or ORD_ACQ_REL, or a proxy fence (proxy)   */
    OP_BARRIER, /* bar.cta.sync / bar.cta.arrive: id a, optional count b    */
    OP_MOV,     /* dst <- a                                               */
    OP_ALU,     /* dst <- a aluop b                                       */
    OP_BRANCH,  /* if (a cmp b) goto target                               */
    OP_GOTO,    /* goto target                                            */
};
#define LIT_NOPCODES (OP_GOTO + 1)

/* ORD_WEAK: PTX weak / OpenCL and C non-atomic.  ORD_SC: fence.sc, or an
 * OpenCL or C seq_cst access or fence.  ORD_CONSUME: C's
 * memory_order_consume (no protocol row can name it: protocols refuse it). */
enum lit_order { ORD_WEAK, ORD_RELAXED, ORD_ACQUIRE, ORD_RELEASE, ORD_ACQ_REL, ORD_SC, ORD_CONSUME };
#define LIT_NORDERS (ORD_CONSUME + 1)
/* The orders a protocol's row or an exported program may name. */
#define LIT_NPROTOCOL_ORDERS (ORD_SC + 1)

/* Scopes, narrow to wide.  OpenCL/HSA names map onto PTX ones:
 * work_group = cta, device (agent) = gpu, all_svm_devices (system) = sys;
 * SCOPE_WI is OpenCL's memory_scope_work_item. */
enum lit_scope { SCOPE_NONE, SCOPE_CTA, SCOPE_GPU, SCOPE_SYS, SCOPE_WI };
#define LIT_NSCOPES (SCOPE_WI + 1)

enum lit_rmw_op { RMW_ADD, RMW_SUB, RMW_INC, RMW_DEC, RMW_EXCH, RMW_CAS,
                  RMW_AND, RMW_OR, RMW_XOR, RMW_MIN, RMW_MAX };
#define LIT_NRMW_OPS (RMW_MAX + 1)

enum lit_alu_op { ALU_ADD, ALU_SUB, ALU_MUL, ALU_AND, ALU_OR, ALU_XOR };
#define LIT_NALU_OPS (ALU_XOR + 1)

/* A branch's comparison, signed (PTX's beq, bne, blt, bgt, ble, bge). */
enum lit_cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_GT, CMP_LE, CMP_GE };
#define LIT_NCMPS (CMP_GE + 1)

/* The events a protocol row handles: a thread's load, store, rmw or fence
 * (the processor events), a received message, an internal event.  The
 * checker's enum pev_kind and the simulator's enum sim_ev take their
 * values from these. */
enum event_kind { EVENT_LOAD, EVENT_STORE, EVENT_RMW, EVENT_FENCE, EVENT_RECV, EVENT_INTERNAL };
#define NEVENT_KINDS (EVENT_INTERNAL + 1)
#define NPROCESSOR_EVENT_KINDS (EVENT_FENCE + 1)

/* The binary operators of table expressions (docs/protocol-tables.md), in
 * the order the exported tables and both interpreters share. */
enum expr_op { OPX_ADD, OPX_SUB, OPX_EQ, OPX_NE, OPX_LT, OPX_LE, OPX_GT, OPX_GE,
               OPX_AND, OPX_OR, OPX_MUL, OPX_DIV, OPX_MOD };
#define EXPR_NOPS (OPX_MOD + 1)

extern const char *const vocab_opcodes[LIT_NOPCODES];          /* "load" ... "goto" */
extern const char *const vocab_orders[LIT_NORDERS];            /* "weak" ... "sc", "consume" */
extern const char *const vocab_scopes[LIT_NSCOPES];            /* "none", "cta", "gpu", "sys", "wi" */
extern const char *const vocab_scope_suffixes[LIT_NSCOPES];    /* "", ".cta", ... as an event names it */
extern const char *const vocab_rmw_ops[LIT_NRMW_OPS];          /* "add" ... "max" */
extern const char *const vocab_alu_ops[LIT_NALU_OPS];          /* "add" ... "xor" */
extern const char *const vocab_cmps[LIT_NCMPS];                /* "eq" ... "ge" */
extern const char *const vocab_expr_ops[EXPR_NOPS];
extern const char *const vocab_event_kinds[NEVENT_KINDS];      /* "load" ... "fence", "recv", "internal" */            /* "+", "-", "==" ... "%" */

/* The index of `name` among the first n entries of names, or -1. */
int vocab_find(const char *const *names, int n, const char *name);

#endif
