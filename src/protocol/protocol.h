/*
 * protocol/protocol.h: protocol transition tables (the .proto files in models/) and their
 * interpreter, a front end of the next-state interface (nsi.h).
 *
 * Folder src/protocol/: the protocol table language and its interpreter, a
 * front end of search/nsi.h.  A new protocol is a .proto file in models/.
 * May include base/, litmus/ and search/nsi.h, never a search back end.
 *
 * Contract.  protocol_load parses a table file (format: docs/protocol-tables.md)
 * into a `protocol`: declarations and rows with every name already resolved
 * to an index, so that nothing is looked up by name at run time.  On error
 * it writes one line "file:line:col: error: ..." to `errors` and returns
 * NULL.  Parser memory comes from Boehm GC.
 *
 * proto_instantiate binds a protocol to a litmus test: one compute unit (CU)
 * per CTA (threads of one CTA share their CU's controllers), one line per
 * litmus location, configuration constants from the file unless overridden
 * in `proto_options`.  It fixes the packed state layout and returns NULL
 * (with a "file:line:col: error:" line naming the litmus instruction, or a
 * plain "error:" line) when the test uses something the protocol cannot run:
 * an event with no row at all, a barrier that is not cta-scoped or has a bad
 * id or count (CTA barriers run in the interpreter), a proxy fence, a value outside the
 * protocol's value range.
 *
 * proto_nsi gives the nsi_model: rules are the threads' (0..nthreads-1),
 * then the channel instances' deliveries, then the controllers' internal
 * events; its fairness units are the threads, the channel instances and
 * the internal events but `evict`; its `describe` is proto_describe_step's
 * line (protocol/step.h, which also gives a step as data and why a state
 * is stuck).  Its callbacks do no heap allocation and
 * keep no mutable state in the instance except the unhandled-event record
 * (below), so several threads may call them at once.  States are bit-packed
 * and canonical: empty channel slots are zero, unordered channels are kept
 * sorted, lines reset to their initial state carry initial field values.
 *
 * Unhandled events.  When successors() meets an event that is offered in a
 * reached state (a thread's next instruction, the head of a FIFO channel or
 * any message of an unordered one) but no row of the receiving controller
 * matches its (state, event) pair, the event is not taken and the pair is
 * recorded; proto_unhandled lists the distinct pairs seen so far.
 */
#ifndef SCOPECHECK_PROTOCOL_PROTOCOL_H
#define SCOPECHECK_PROTOCOL_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "litmus/litmus.h"
#include "search/nsi.h"

typedef struct protocol protocol;
typedef struct proto_instance proto_instance;

/* Network ordering override for every channel of the protocol. */
enum proto_net { PROTO_NET_AS_DECLARED, PROTO_NET_FIFO, PROTO_NET_UNORDERED };

#define PROTO_MAX_OVERRIDES 16

typedef struct proto_options {
    enum proto_net net;                       /* channel ordering            */
    int noverrides;                           /* "const NAME = value" overrides */
    const char *override_name[PROTO_MAX_OVERRIDES];
    long override_value[PROTO_MAX_OVERRIDES];
    /* The range of values the litmus test needs (the caller derives it,
     * e.g. litmus/value_range.h).  When given, it replaces the protocol's
     * declared `value` range unless a --const override names one of that
     * range's constants; a range given this way never wraps. */
    bool has_values;
    long value_lo, value_hi;
} proto_options;

/* One reachable (controller state, event) pair that no row handles. */
typedef struct proto_unhandled_pair {
    const char *controller;   /* "L1" */
    const char *state;        /* line state name, or "*" for fences */
    char event[48];           /* "load.acquire.gpu", "recv req.Load" */
} proto_unhandled_pair;

/* Limits on a protocol file (docs/protocol-tables.md, "Limits"): its size
 * (a variant's base is read with the same limit), the nesting of
 * parentheses, calls and prefix operators in one expression, and of
 * variants (`extends`). */
#define PROTO_MAX_FILE_BYTES (4u << 20)
#define PROTO_MAX_EXPR_DEPTH 256
#define PROTO_MAX_EXTENDS_DEPTH 8

/* protocol_load reads `path` through base/textfile.h (a regular file or a
 * pipe).  protocol_parse_buffer parses `len` bytes of text (a NUL byte is
 * an error at its position); protocol_parse_text a C string. */
protocol *protocol_load(const char *path, FILE *errors);
protocol *protocol_parse_buffer(const char *path, const char *text, size_t len, FILE *errors);
protocol *protocol_parse_text(const char *path, const char *text, FILE *errors);
const char *protocol_name(const protocol *p);

proto_instance *proto_instantiate(const protocol *p, const litmus_test *t,
                                  const proto_options *o, FILE *errors);
const nsi_model *proto_nsi(proto_instance *in);

/* Where threads run, for a GPU scheduler in front of proto_nsi's model
 * (schedule/sched.h; the caller builds its sched_gpu from these): thread
 * t's CTA, which is its CU (CTAs numbered in CU order), and in *gpu that
 * CU's GPU; whether t waits in `state` (for a response, at a barrier);
 * whether the protocol declares the partial context switch (`preempt`). */
int proto_thread_cta(const proto_instance *in, int t, int *gpu);
bool proto_thread_waiting(const proto_instance *in, const uint8_t *state, int t);
bool proto_preempts(const proto_instance *in);

/* Observed values of a final state, in t->observed order: registers from
 * the threads, locations from the protocol's `memory` field (the ordering
 * point). */
void proto_final_values(const proto_instance *in, const uint8_t *state, lit_value *out);

/* Copies up to `max` distinct unhandled pairs met so far into `out`;
 * returns how many there are in all. */
int proto_unhandled(const proto_instance *in, proto_unhandled_pair *out, int max);

/* The protocol's data value range in this instance; true when its
 * arithmetic wraps (values are then taken modulo hi - lo + 1). */
bool proto_value_range(const proto_instance *in, long *lo, long *hi);
/* Whether a --const in `o` names a constant of p's declared value range:
 * then the declared range is used and the test's own is not needed. */
bool proto_value_range_overridden(const protocol *p, const proto_options *o);

/* Whether that range is the one the test needs (proto_options.has_values)
 * rather than the protocol's declared one. */
bool proto_values_derived(const proto_instance *in);
/* After a search: whether some step would have made a value outside the
 * range and was therefore not taken (*value: the first such value); and
 * whether some value was wrapped into it.  Neither is ever silent: the
 * caller reports them. */
bool proto_value_overflow(const proto_instance *in, long *value);
bool proto_value_wrapped(const proto_instance *in);

/* Bits and bytes of the packed state; fields of the layout. */
int proto_state_bits(const proto_instance *in);

#endif
