/* draw/output_file.c: output files written whole or not at all (see
 * draw/output_file.h). */
#include "draw/output_file.h"

#include <errno.h>
#include <gc.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file being written, for the signal handler and the exit
 * hook: set before the file is created, cleared after it is renamed or
 * removed (removing a name that is not there is harmless). */
static const char *volatile pending_tmp;
/* Set once an output file has been renamed into place: a signal after that
 * must not claim that nothing was written. */
static volatile sig_atomic_t committed;

static void remove_pending(void)
{
    const char *tmp = pending_tmp;
    if (tmp)
        unlink(tmp);
}

static void on_signal(int sig)
{
    static const char none[] = "scopecheck: interrupted; no output file written\n";
    static const char done[] = "scopecheck: interrupted after its output file was written whole\n";
    (void)sig;
    bool after = committed && !pending_tmp;
    remove_pending();
    ssize_t ignored = after ? write(STDERR_FILENO, done, sizeof done - 1) : write(STDERR_FILENO, none, sizeof none - 1);
    (void)ignored;
    _exit(3);
}

/* The signals output_guard_signals handles, blocked (old mask in *old) or
 * restored: the rename and the bookkeeping after it happen as one step for
 * the handler. */
static void guarded_signals(bool block, sigset_t *old)
{
    if (!block) {
        sigprocmask(SIG_SETMASK, old, NULL);
        return;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, old);
}

void output_guard_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal the caller ignores (nohup, a background job) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
}

static int write_error(const char *cmd, const char *path, int errnum, FILE *err)
{
    fprintf(err, "scopecheck %s: error: cannot write '%s': %s\n", cmd, path,
            errnum ? strerror(errnum) : "write error");
    return 2;
}

/* A fresh temporary file beside `path`, opened for writing; NULL (errno
 * set) when it cannot be made.  *tmp receives its name. */
static FILE *open_temporary(const char *path, char **tmp)
{
    static bool hooked;
    if (!hooked)
        hooked = atexit(remove_pending) == 0;
    size_t n = strlen(path) + 16;
    *tmp = GC_MALLOC_ATOMIC(n);
    snprintf(*tmp, n, "%s.tmp-XXXXXX", path);
    pending_tmp = *tmp;
    int fd = mkstemp(*tmp);
    if (fd < 0) {
        pending_tmp = NULL;
        return NULL;
    }
    fchmod(fd, 0644);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(*tmp);
        pending_tmp = NULL;
        errno = e;
    }
    return f;
}

/* Closes f (its writes checked) and renames tmp to path; on failure
 * removes tmp.  errno describes a failure. */
static bool finish(FILE *f, const char *tmp, const char *path, bool ok)
{
    int e = ok ? 0 : errno;
    if (fflush(f) != 0 || ferror(f)) {
        ok = false;
        e = e ? e : errno;
    }
    if (fsync(fileno(f)) != 0 && errno != EINVAL && ok) {
        ok = false;
        e = errno;
    }
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    sigset_t old;
    guarded_signals(true, &old);
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok)
        unlink(tmp);
    pending_tmp = NULL;
    if (ok)
        committed = 1;
    guarded_signals(false, &old);
    errno = e;
    return ok;
}

int output_write_data(const char *cmd, const char *path, const void *data, size_t len, FILE *err)
{
    char *tmp;
    FILE *f = open_temporary(path, &tmp);
    if (!f)
        return write_error(cmd, path, errno, err);
    errno = 0;
    bool ok = fwrite(data, 1, len, f) == len;
    if (!finish(f, tmp, path, ok))
        return write_error(cmd, path, errno, err);
    return 0;
}

int output_write_stream(const char *cmd, const char *path, output_fn fn, void *ctx, FILE *err)
{
    char *tmp;
    FILE *f = open_temporary(path, &tmp);
    if (!f)
        return write_error(cmd, path, errno, err);
    errno = 0;
    if (!fn(ctx, f, err) && !ferror(f)) {      /* fn said why */
        finish(f, tmp, path, false);
        return 2;
    }
    if (!finish(f, tmp, path, true))
        return write_error(cmd, path, errno, err);
    return 0;
}
