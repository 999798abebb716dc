/* report/status.c: exit statuses and the words for cuts (see status.h). */
#include "report/status.h"

#include <stddef.h>

/* Higher is more serious: unusable input hides everything, a violation
 * stands even when the rest of the work was cut, a cut hides a pass. */
static int rank(int status)
{
    switch (status) {
    case SC_STATUS_OK: return 0;
    case SC_STATUS_INCOMPLETE: return 1;
    case SC_STATUS_VIOLATION: return 2;
    default: return 3;
    }
}

int sc_status_merge(int a, int b)
{
    int worse = rank(a) >= rank(b) ? a : b;
    return rank(worse) == 3 ? SC_STATUS_UNUSABLE : worse;
}

const char *sc_cut_name(enum sc_cut cut)
{
    switch (cut) {
    case SC_CUT_NONE: return NULL;
    case SC_CUT_TIMEOUT: return "timeout";
    case SC_CUT_MAX_MEMORY: return "max-memory";
    case SC_CUT_MAX_STATES: return "max-states";
    case SC_CUT_TOO_MANY_EVENTS: return "too-many-events";
    case SC_CUT_INTERRUPTED: return "interrupted";
    case SC_CUT_VIOLATION: return "violation";
    case SC_CUT_VALUE_RANGE: return "value-range";
    case SC_CUT_PROBABILISTIC: return "probabilistic";
    }
    return NULL;
}

const char *sc_cut_phrase(enum sc_cut cut)
{
    switch (cut) {
    case SC_CUT_NONE: return "";
    case SC_CUT_TIMEOUT: return "stopped by the time limit (--timeout)";
    case SC_CUT_MAX_MEMORY: return "stopped by the memory limit (--max-memory)";
    case SC_CUT_MAX_STATES: return "stopped by the state limit (--max-states)";
    case SC_CUT_TOO_MANY_EVENTS: return "some executions were too large to check";
    case SC_CUT_INTERRUPTED: return "interrupted by a signal";
    case SC_CUT_VIOLATION: return "stopped at the first invariant violation";
    case SC_CUT_VALUE_RANGE: return "steps that would leave the value range were not taken";
    case SC_CUT_PROBABILISTIC: return "the search was probabilistic and may have missed states (--store)";
    }
    return "";
}
