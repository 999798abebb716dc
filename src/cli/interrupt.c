/* cli/interrupt.c: see cli/interrupt.h. */
#include "cli/interrupt.h"

#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
    signal(sig, SIG_DFL);   /* async-signal-safe; a second signal ends the process */
}

static void install(int sig, void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* A signal the shell told us to ignore (a background job under nohup)
 * stays ignored. */
static void watch(int sig)
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    install(sig, on_signal);
}

const volatile sig_atomic_t *interrupt_watch(void)
{
    interrupted = 0;
    watch(SIGINT);
    watch(SIGTERM);
    return &interrupted;
}

static void release(int sig)
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == on_signal)
        install(sig, SIG_DFL);
}

void interrupt_release(void)
{
    release(SIGINT);
    release(SIGTERM);
}

int interrupt_signal(void) { return (int)interrupted; }
