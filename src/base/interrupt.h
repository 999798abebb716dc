/*
 * base/interrupt.h: SIGINT and SIGTERM as a limit.
 *
 * Contract.  interrupt_watch() installs handlers for SIGINT and SIGTERM
 * (unless the shell had them ignored) that only set a flag on the first
 * signal.  A later signal ends the process at once, unless it comes
 * within INTERRUPT_REPEAT_MS of the first: timeout(1) and a kill of the
 * process group deliver one SIGTERM twice within microseconds, and that
 * duplicate is the same request, not an insistence.  interrupt_watch()
 * returns the flag, which the programs pass down to the back ends
 * (bfs_options.stop, enum_options.stop, sim_run_opts.stop); the back ends
 * poll it and stop as a limit would, and the program flushes its partial
 * results and says it was interrupted.  interrupt_release() puts the
 * default actions back.
 *
 * The flag is the one piece of process-wide mutable state a signal needs;
 * only the programs' command layers (cli/, sim/main.c) call this module.
 */
#ifndef SCOPECHECK_BASE_INTERRUPT_H
#define SCOPECHECK_BASE_INTERRUPT_H

#include <signal.h>

/* A repeated signal sooner than this after the first is the same request. */
#define INTERRUPT_REPEAT_MS 500

const volatile sig_atomic_t *interrupt_watch(void);
void interrupt_release(void);

/* The signal that set the flag (SIGINT or SIGTERM), or 0. */
int interrupt_signal(void);

#endif
