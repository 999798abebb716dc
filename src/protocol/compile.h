/*
 * protocol/compile.h: the tables of an instance compiled for the search,
 * once per instance (proto_instantiate), read-only afterwards, so that any
 * number of threads may expand states with one instance.
 *
 * The compiled form is a row dispatch: for each controller, each event key
 * and each line state, the rows that match the pair, in table order.  The
 * interpreter then finds a row by an array lookup instead of scanning the
 * controller's table and testing each row's state set and event pattern;
 * it still evaluates the guards of the candidates in table order and fires
 * the first that holds, so the row it picks is the one the scan would have
 * picked (the scan remains for events that have no key, see below).
 *
 * Event keys number every event a controller can be offered:
 *   - a processor event (load, store, rmw, fence) with its order, scope and
 *     remote flag: ((kind * LIT_NORDERS + order) * LIT_NSCOPES + scope) * 2
 *     + remote, keys 0 .. PCODE_PROC_KEYS-1; a row written with `*` for
 *     the order or the scope is listed under every order or scope;
 *   - a delivery of message m on channel ch: recv_base + ch * nmsgs + m;
 *   - internal event x of the controller: internal_base + x.
 * An event outside those ranges (an order or scope the vocabulary does not
 * have) has no key (-1): the interpreter scans the table for it.
 *
 * For controller c, candidates of (key, state) are
 *   rows[first[key * nstates + state] .. first[key * nstates + state + 1] - 1],
 * indices into the controller's `rows` (protocol/internal.h), ascending.
 */
#ifndef SCOPECHECK_PROTOCOL_COMPILE_H
#define SCOPECHECK_PROTOCOL_COMPILE_H

#include <stdint.h>

#include "base/vocab.h"
#include "protocol/protocol.h"

#define PCODE_PROC_KEYS (4 * LIT_NORDERS * LIT_NSCOPES * 2)

/* One controller's dispatch: `first` has nkeys * nstates + 1 entries. */
typedef struct pdispatch {
    int nstates;
    const int32_t *first;
    const int32_t *rows;
} pdispatch;

typedef struct proto_code {
    int nkeys;              /* the same for every controller of the protocol */
    int recv_base, internal_base, nchans, nmsgs;
    const pdispatch *ctrl;  /* per controller */
} proto_code;

/* The compiled form of `in` (garbage-collected), built from its protocol;
 * never NULL. */
const proto_code *proto_compile(const proto_instance *in);

/* The key of an event (kind: enum event_kind of base/vocab.h; order and
 * scope: enum lit_order / lit_scope, or -1 for a delivery or an internal
 * event; chan, msg for a delivery; internal for an internal event), or -1
 * when it has none. */
static inline int proto_code_key(const proto_code *k, int kind, int order, int scope, int remote, int chan,
                                 int msg, int internal)
{
    switch (kind) {
    case EVENT_LOAD:
    case EVENT_STORE:
    case EVENT_RMW:
    case EVENT_FENCE:
        if (order < 0 || order >= LIT_NORDERS || scope < 0 || scope >= LIT_NSCOPES || (remote & ~1))
            return -1;
        return ((kind * LIT_NORDERS + order) * LIT_NSCOPES + scope) * 2 + remote;
    case EVENT_RECV:
        return chan >= 0 && chan < k->nchans && msg >= 0 && msg < k->nmsgs ? k->recv_base + chan * k->nmsgs + msg : -1;
    case EVENT_INTERNAL: {
        int key = k->internal_base + internal;
        return internal >= 0 && key < k->nkeys ? key : -1;
    }
    }
    return -1;
}

/* The candidates of controller ctrl for (key, state): *n rows from the
 * returned pointer; NULL when the pair is outside the tables (key -1, a
 * state the controller does not have): the caller then scans. */
static inline const int32_t *proto_code_rows(const proto_code *k, int ctrl, int key, int state, int *n)
{
    const pdispatch *d = &k->ctrl[ctrl];
    if (key < 0 || key >= k->nkeys || state < 0 || state >= d->nstates)
        return NULL;
    int i = key * d->nstates + state;
    *n = d->first[i + 1] - d->first[i];
    return d->rows + d->first[i];
}

/* The compiled form an instance carries (for the unit tests). */
const proto_code *proto_instance_code(const proto_instance *in);

#endif
