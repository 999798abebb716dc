/*
 * protocol/symmetry.h: symmetry reduction of a protocol instance, the
 * front end's side of nsi.h's `canonicalize` hook.
 *
 * Contract.  proto_symmetry_find() decides, from the litmus program and
 * the protocol tables, which compute units (CUs) of an instance are
 * interchangeable, and whether permuting them is an automorphism of the
 * transition system.  Two CUs are interchangeable when they are on the
 * same GPU, run the same number of threads, thread k of the one runs the
 * same program as thread k of the other (instructions, register indices
 * and initial values equal; register names may differ), their slots have
 * the same layout and ranges, and neither touches local memory.  The
 * permutation is an automorphism only when no slot holds a CU's identity
 * and no step depends on it beyond the slots it addresses; the table
 * language does not type CU ids, so the analysis refuses (with a one-line
 * note) every protocol in which a CU id can reach a value or choose a
 * CU: an expression `cu`; a message with a `cu` field (its delivery is
 * routed by it); a send with an index or a bit set to a per-CU channel; a
 * channel from each CU to each CU; a channel into a per-CU controller
 * that is not itself per CU; the memory kept per CU.  GPUs, slices and
 * addresses are never permuted (the multi-GPU protocols carry GPU ids in
 * messages and map addresses to GPUs by their homes).
 *
 * Permuting CUs moves whole blocks of slots: each CU's threads (pc,
 * waiting flag, registers), its instances of per-CU controllers (lines
 * and variables), its channel instances (per-CU channels; `from each`
 * channels whose sender is the CU) and its CTA barrier counters.  The
 * canonical form sorts the CUs of each class by their blocks (compared as
 * runs of packed bits, a total order in which only equal blocks tie):
 * since no other slot depends on CU identity,
 * two states of one orbit give the same sorted blocks and two states of
 * different orbits do not, so the form is exact (one state per orbit), not
 * only sound.  A class of more than 8 CUs is split (a subgroup is still
 * sound), so that enumerating the group (outcomes, traces) stays cheap.
 *
 * proto_symmetry_enable() sets the model's canonicalize (proto_nsi) when
 * the analysis found a non-trivial, sound group; the group's elements are
 * numbered 0..order-1 (0 is the identity) for traces and outcomes.  All
 * functions but find/enable only read the instance (reentrant).
 */
#ifndef SCOPECHECK_PROTOCOL_SYMMETRY_H
#define SCOPECHECK_PROTOCOL_SYMMETRY_H

#include <stdbool.h>
#include <stdint.h>

#include "litmus/litmus.h"
#include "protocol/protocol.h"

/* The largest group enumerated: classes are split until the order fits. */
#define PROTO_SYM_MAX_ORDER 40320

/* Analyses the instance once (later calls return the first answer): true
 * when some CUs are interchangeable and permuting them is sound.  *note
 * (GC string, may be NULL) says the group ("CUs {1,2,3} interchangeable
 * (6 permutations)") or why there is none. */
bool proto_symmetry_find(proto_instance *in, const char **note);

/* Turns the reduction on: proto_nsi(in)->canonicalize is set.  Only after
 * proto_symmetry_find returned true. */
void proto_symmetry_enable(proto_instance *in);
/* Whether the reduction is on for this instance. */
bool proto_symmetry_active(const proto_instance *in);
/* The group's order (1 when there is none). */
int proto_symmetry_order(const proto_instance *in);

/* The canonical form of `state`, in place (the nsi hook). */
void proto_symmetry_canonicalize(void *vctx, uint8_t *state);

/* Group element g (0..order-1) applied to `state`, into `out`. */
void proto_symmetry_apply(const proto_instance *in, int g, const uint8_t *state, uint8_t *out);

/* Calls fn with the observed final values (proto_final_values) of every
 * state of the orbit of `state`: those of group element g applied to it,
 * once per g (values may repeat). */
typedef void (*proto_values_fn)(void *ctx, int g, const lit_value *values);
void proto_symmetry_orbit_values(const proto_instance *in, const uint8_t *state, proto_values_fn fn, void *ctx);

#endif
