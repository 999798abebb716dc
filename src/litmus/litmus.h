/*
 * litmus/litmus.h: a litmus test after parsing, independent of its dialect.
 *
 * Folder src/litmus/: the litmus front ends (a new dialect is one module
 * here plus one line in read.c), this dialect-independent program, the
 * arithmetic of its instructions (ops.h) and outcomes.  May include base/.
 *
 * Contract: a dialect front end (litmus/ptx.c, litmus/opencl/) turns text
 * into this structure; the execution enumerator reads it and never sees
 * text.  Every instruction is a small register-machine operation; labels are
 * already resolved to instruction indices.  All memory comes from Boehm GC
 * (GC_MALLOC), so a test is simply dropped when no longer needed.
 */
#ifndef SCOPECHECK_LITMUS_LITMUS_H
#define SCOPECHECK_LITMUS_LITMUS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arith.h"
#include "base/vocab.h"

typedef int64_t lit_value;

/* The initial value of a location that has none (herd's OpenCL format: a
 * name that no parameter or init item declares).  No read may take it: the
 * enumerator never guesses it, so a read of such a location can only read a
 * write of the test. */
#define LIT_NO_VALUE INT64_MIN

/* The opcodes, orders, scopes, read-modify-write and ALU operations and
 * branch comparisons (enum lit_opcode, lit_order, lit_scope, lit_rmw_op,
 * lit_alu_op, lit_cmp) and their names are base/vocab.h's, shared with the
 * exported tables and the simulator. */

/* Memory regions (OpenCL address spaces; fence and barrier flags).  A
 * location's region 0 means global (PTX); REGION_NONE is an OpenCL pointer
 * declared without an address space, which herd's OpenCL models put in
 * neither region. */
enum lit_region { REGION_GLOBAL = 1, REGION_LOCAL = 2, REGION_NONE = 4 };
enum lit_proxy { PROXY_GENERIC, PROXY_SURFACE, PROXY_TEXTURE, PROXY_CONSTANT, PROXY_ALIAS };


/* Whether a branch's comparison holds (base/arith.h: the simulator's too). */
static inline bool lit_cmp_holds(enum lit_cmp c, lit_value a, lit_value b) { return arith_cmp(c, a, b); }

enum lit_operand_kind { OPND_NONE, OPND_REG, OPND_IMM };

typedef struct lit_operand {
    enum lit_operand_kind kind;
    int reg;         /* index into the thread's register table, OPND_REG  */
    lit_value imm;   /* OPND_IMM                                         */
} lit_operand;

typedef struct lit_instr {
    enum lit_opcode op;
    enum lit_order order;
    enum lit_scope scope;
    enum lit_proxy proxy;    /* accesses: proxy used; fences: which proxy  */
    enum lit_rmw_op rmw_op;
    enum lit_alu_op alu_op;
    enum lit_cmp cmp;
    bool barrier_waits;      /* bar.sync (true) or bar.arrive (false)      */
    int dst;                 /* destination register, or -1              */
    int loc;                 /* location index for memory accesses, or -1 */
    lit_operand a, b;        /* value / compare / cas operands, barrier id & count */
    int target;              /* branch target: instruction index (may equal count: end) */
    int line, col;           /* source position, for diagnostics and traces */
    const char *text;        /* the instruction as written, for traces    */
    bool remote;             /* remote-scope-promotion form (..._remote)   */
    uint8_t regions;         /* fences and barriers: enum lit_region bits (0: all) */
    /* herd's C read-modify-writes (OP_RMW): one event that reads and
     * writes, with the whole order.  A compare-exchange (RMW_CAS, a =
     * expected, b = desired) that fails is only a read, with order_fail;
     * with cas_weak it may fail even when the values are equal; flag_dst
     * (when >= 0) receives 1 on success and 0 on failure. */
    bool single_event;
    bool cas_weak;
    uint8_t order_fail;      /* enum lit_order */
    int16_t flag_dst;
    bool progress;           /* a label whose name starts with "progress" names it
                              * (SPIN's progress labels: docs/liveness.md) */
    /* An access at a computed address (C's x + r, y[r]): the offset.  An
     * OPND_REG offset gives the access herd's addr dependency on what the
     * register depends on; OPND_NONE (zero) for a fixed address. */
    lit_operand addr;
    /* A branch that picks which location a computed address names (the
     * front end compiles x + r into one copy of the access per location):
     * what it compares is the access's address dependency, so it gives the
     * events after it no control dependency. */
    bool addr_select;
} lit_instr;

/* Two operands of one C/OpenCL operator, compiled one after the other into
 * instructions [a0, a1) and [a1, b1): C leaves their evaluations
 * unsequenced, so no event of the one is program-ordered with an event of
 * the other made by the same evaluation of the expression. */
typedef struct lit_unseq {
    int a0, a1, b1;
} lit_unseq;

typedef struct lit_thread {
    const char *name;        /* "P0" */
    int cta, gpu;            /* placement: P0@cta C,gpu G or P0@wg C, dev G (defaults 0,0) */
    int ninstrs;
    lit_instr *instrs;
    int nunseq;              /* unsequenced operand pairs (C dialects; PTX has none) */
    const lit_unseq *unseq;
    int nregs;
    const char **reg_names;  /* "r0", ... */
    lit_value *reg_init;     /* initial value of each register (0 if absent) */
} lit_thread;

typedef struct lit_location {
    const char *name;
    lit_value init;
    int physical;            /* index of the location it aliases, itself if none */
    enum lit_proxy alias_proxy; /* proxy named by "x @ P aliases y" */
    uint8_t region;          /* enum lit_region: where it lives (0: global) */
    bool atomic_type;        /* declared atomic (OpenCL atomic_int); PTX: some
                              * strong access (not weak) touches it */
} lit_location;

/* Condition: a proposition over final register and location values. */
enum lit_cond_kind { COND_TRUE, COND_FALSE, COND_AND, COND_OR, COND_NOT, COND_EQ, COND_NE };
enum lit_term_kind { TERM_REG, TERM_LOC, TERM_CONST };

typedef struct lit_term {
    enum lit_term_kind kind;
    int thread, reg;         /* TERM_REG */
    int loc;                 /* TERM_LOC */
    lit_value value;         /* TERM_CONST */
} lit_term;

typedef struct lit_cond {
    enum lit_cond_kind kind;
    struct lit_cond *left, *right;   /* AND, OR: both; NOT: left */
    lit_term lhs, rhs;               /* EQ, NE */
} lit_cond;

enum lit_quantifier { QUANT_EXISTS, QUANT_NOT_EXISTS, QUANT_FORALL };

typedef struct litmus_test {
    const char *file;
    const char *arch;        /* "PTX" */
    const char *name;        /* from the header line */
    const char *doc;         /* the quoted comment, if any */
    const char *hash;        /* herd's digest when the front end computes it (litmus/hash.h), or NULL */
    int nthreads;
    lit_thread *threads;
    int nlocs;
    lit_location *locs;
    enum lit_quantifier quant;
    lit_cond *cond;
    /* observed values, in the order herd prints them: the registers and
     * locations that the condition (or a locations clause) mentions */
    int nobserved;
    lit_term *observed;
    /* herd's `filter P`: executions whose final state fails P are dropped.
     * P's terms that the condition does not observe are `hidden`: they
     * follow the observed ones in each state the enumerator builds, and
     * are never printed. */
    lit_cond *filter;
    int nhidden;
    lit_term *hidden;
    /* herd's C event sets: NA holds every event that is not in A (initial
     * writes and fences too), as herd7 defines it for C. */
    bool c_event_sets;
} litmus_test;

/* Building a test (program.c), for the dialects.  Location table: index by
 * name, or -1; append (physical = itself).  Register table of a thread:
 * index by name, or -1; append.  Memory from Boehm GC. */
int litmus_loc_index(const litmus_test *t, const char *name);
int litmus_add_loc(litmus_test *t, const char *name, lit_value init);
int litmus_reg_index(const lit_thread *th, const char *name);
int litmus_add_reg(lit_thread *th, const char *name, lit_value init);
/* Observed terms: add one (once; constants are not observed), or every
 * register and location term of a condition, left to right. */
void litmus_add_observed(litmus_test *t, const lit_term *term);
void litmus_observe_cond(litmus_test *t, const lit_cond *c);

/* Does the test reach some physical location by more than one name (an
 * alias) or through a non-generic proxy?  A model that tells such accesses
 * apart (ptx75) does not order them by program order alone, so the
 * enumerator's thread-coherence pruning, which works per physical location,
 * must not be applied. */
bool litmus_mixed_addressing(const litmus_test *t);
/* Whether some thread has unsequenced operands (lit_thread.unseq), so that
 * its program order is not total. */
bool litmus_has_unsequenced(const litmus_test *t);

#endif
