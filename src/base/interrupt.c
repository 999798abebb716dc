/* base/interrupt.c: see base/interrupt.h. */
#include "base/interrupt.h"

#include <string.h>
#include <time.h>

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t first_signal_ms;

/* Milliseconds on the monotonic clock, wrapped to fit a sig_atomic_t;
 * clock_gettime is async-signal-safe (POSIX.1-2008). */
static sig_atomic_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (sig_atomic_t)(((long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000) & 0x3fffffff);
}

/* The first signal sets the flag.  A repeat ends the process, but only
 * once INTERRUPT_REPEAT_MS have passed: timeout(1) and kill(0, sig)
 * deliver one SIGTERM twice within microseconds (to the command and to
 * its process group), and that must not cost the partial results. */
static void on_signal(int sig)
{
    if (!interrupted) {
        interrupted = sig;
        first_signal_ms = now_ms();
        return;
    }
    sig_atomic_t waited = (now_ms() - first_signal_ms) & 0x3fffffff;
    if (waited >= INTERRUPT_REPEAT_MS) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
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
    first_signal_ms = 0;
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
