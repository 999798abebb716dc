/*
 * cli/interrupt.h: SIGINT and SIGTERM as a limit.
 *
 * Contract.  interrupt_watch() installs handlers for SIGINT and SIGTERM
 * that only set a flag (the first signal) and put the default action back,
 * so that a second signal ends the process at once.  It returns the flag,
 * which the commands pass down to the back ends (bfs_options.stop,
 * enum_options.stop); the back ends poll it and stop as a limit would, and
 * the command flushes its partial results and exits with status 3
 * ("interrupted").  interrupt_release() puts the default actions back.
 *
 * The flag is the one piece of process-wide mutable state a signal needs;
 * it lives here, in the command layer, and nowhere below it.
 */
#ifndef SCOPECHECK_CLI_INTERRUPT_H
#define SCOPECHECK_CLI_INTERRUPT_H

#include <signal.h>

const volatile sig_atomic_t *interrupt_watch(void);
void interrupt_release(void);

/* The signal that set the flag (SIGINT or SIGTERM), or 0. */
int interrupt_signal(void);

#endif
