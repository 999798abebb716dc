/*
 * report/status.h: the exit statuses every command shares, and the words
 * that say why a result is incomplete.
 *
 * Contract.  Every command of scopecheck ends with one of four statuses
 * (docs/exit-status.md):
 *   0  done, and every result established (verify: pass; litmus: every file
 *      checked, every verdict established);
 *   1  a violation was found (verify; export);
 *   2  unusable input or arguments, or output that could not be written;
 *   3  incomplete: a limit (time, memory, states, an execution too large, a
 *      signal) cut some work and at least one result is unknown.
 * A violation found before a cut stands: merging the statuses of several
 * results keeps the most serious one, in the order 2, 1, 3, 0.
 *
 * A cut is named by one word, the same in text and JSON
 * (`"incomplete": "<word>"`).  Pure functions; no state.
 */
#ifndef SCOPECHECK_REPORT_STATUS_H
#define SCOPECHECK_REPORT_STATUS_H

enum sc_status {
    SC_STATUS_OK = 0,
    SC_STATUS_VIOLATION = 1,
    SC_STATUS_UNUSABLE = 2,
    SC_STATUS_INCOMPLETE = 3,
};

/* Why some work was not done. */
enum sc_cut {
    SC_CUT_NONE,
    SC_CUT_TIMEOUT,          /* --timeout */
    SC_CUT_MAX_MEMORY,       /* --max-memory, or memory ran out */
    SC_CUT_MAX_STATES,       /* --max-states */
    SC_CUT_TOO_MANY_EVENTS,  /* an execution larger than the engine holds */
    SC_CUT_INTERRUPTED,      /* SIGINT or SIGTERM */
    SC_CUT_VIOLATION,        /* the search stopped at its first invariant violation */
    SC_CUT_VALUE_RANGE,      /* a step would have left the value range and was not taken */
    SC_CUT_PROBABILISTIC,    /* a probabilistic store (verify --store) may have missed states */
};

/* The more serious of two statuses (2 > 1 > 3 > 0); any other value
 * counts as 2. */
int sc_status_merge(int a, int b);

/* "timeout", "max-memory", "max-states", "too-many-events", "interrupted",
 * "violation", "value-range"; NULL for SC_CUT_NONE. */
const char *sc_cut_name(enum sc_cut cut);

/* A sentence for people: "stopped by the timeout", "interrupted by a
 * signal", ...; "" for SC_CUT_NONE. */
const char *sc_cut_phrase(enum sc_cut cut);

#endif
