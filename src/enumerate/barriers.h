/*
 * enumerate/barriers.h: which barrier events synchronise with which, in one
 * combination of thread traces (the syncbar relation and its choices).
 *
 * Contract: the barrier events of one candidate combination, in event order
 * (within a thread, event order is program order), are grouped by CTA and
 * barrier id.  A group is used in phases: a phase completes when its
 * expected arrivals are in, releases the syncs that wait in it, and the
 * barrier starts over.  syncbar relates an arrival a to a waiting event s
 * when a arrives no later than s departs.  Which arrivals a phase expects
 * is the reading (enum bar_reading, docs/liveness.md "Barrier readings"),
 * one for the safety and the liveness half alike:
 *  - Without a thread count (`bar.cta.sync 0`), a thread's k-th event on
 *    the barrier belongs to phase k.  No arrival order matters: one
 *    choice.  The participants (bar_event.mates, and the threads that
 *    arrive) take part in
 *    every phase: under Dat3M's reading the threads of the CTA whose code
 *    holds a barrier of that id, or that reach it (threads of the CTA
 *    without it are not waited for; one that branches around it, or is
 *    starved before it, is), under the hardware's every thread of the
 *    CTA.  A sync in a phase that some participant never reaches waits
 *    forever.
 *  - With a count (`bar.cta.sync 0, 2`, `bar.cta.arrive 0, 2`), phases are
 *    runs of `count` arrivals in arrival order, and each arrival order
 *    (merging the threads' events in program order) may group them
 *    differently: one choice per distinct relation.  A sync in an
 *    incomplete first phase waits forever.  In an incomplete later phase,
 *    Dat3M's reading lets it pass at its own arrival, as the reference's
 *    quorum tests have it (three threads at a barrier of count 2: the third
 *    is not held); the hardware's holds it forever.
 * Arrival orders in which a sync waits forever make no execution (and are
 * reported, barriers_hang).
 * Allocation: Boehm GC, per test (a barrier_set is reused by every
 * combination); nothing per candidate.
 */
#ifndef SCOPECHECK_ENUMERATE_BARRIERS_H
#define SCOPECHECK_ENUMERATE_BARRIERS_H

#include <stdbool.h>
#include <stdint.h>

#include "cat/relation.h"
#include "litmus/litmus.h"

/* The most events of one counted barrier whose arrival orders are listed
 * (8! orders). */
#define BAR_MAX_COUNTED_EVENTS 8

/* How a barrier's uses are filled (the contract above): Dat3M's reading,
 * which the PTX reference verdicts use, or the hardware's (PTX ISA: a
 * barrier without a count waits for all threads of the CTA, a counted one
 * releases exactly `count` arrivals at a time). */
enum bar_reading { BAR_READ_DAT3M, BAR_READ_HARDWARE };

typedef struct bar_event {
    int event;          /* index in the execution */
    int thread;
    int cta, gpu;
    uint32_t mates;     /* bit per thread: whom a use without a count waits for, besides
                         * the threads that arrive (above) */
    lit_value id;
    lit_value count;    /* -1: none */
    bool waits;         /* sync (true) or arrive (false) */
} bar_event;

enum bar_status {
    BAR_OK,             /* every group has at least one choice */
    BAR_HANG,           /* some group releases no sync in any arrival order */
    BAR_TOO_MANY,       /* a counted group has more than BAR_MAX_COUNTED_EVENTS events */
};

typedef struct barrier_set barrier_set;

barrier_set *barriers_new(void);

/* Groups the events (nev of them, in event order) and lists each group's
 * choices under `reading`. */
enum bar_status barriers_build(barrier_set *b, const bar_event *ev, int nev, enum bar_reading reading);

/* Whether the last barriers_build dropped arrival orders that leave a sync
 * waiting forever. */
bool barriers_hang(const barrier_set *b);

int barriers_groups(const barrier_set *b);
int barriers_choices(const barrier_set *b, int group);

/* Adds the pairs of choice `choice` of `group` to syncbar (n events). */
void barriers_apply(const barrier_set *b, int group, int choice, relation *syncbar, int n);

#endif
