/* base/output_file.c: output files written whole or not at all (see
 * base/output_file.h). */
#include "base/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <gc.h>
#include <limits.h>
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
    mode_t mask = umask(0);     /* mkstemp makes 0600; a written file gets the usual 0666 & ~umask */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
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

/* What writing to `path` means: replacing it through a temporary (it is
 * absent or a regular file), writing into it where it is (a device, a
 * FIFO, a socket: replacing it would destroy it), or nothing (a
 * directory).  A symbolic link is followed: *target is the name to
 * replace, so that the link stays a link. */
enum destination { DEST_REPLACE, DEST_IN_PLACE, DEST_REFUSED };

static enum destination destination_of(const char *path, const char **target)
{
    *target = path;
    struct stat st;
    if (stat(path, &st) != 0)
        return DEST_REPLACE;             /* absent (or unreachable: creating it says why) */
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return DEST_REFUSED;
    }
    if (!S_ISREG(st.st_mode))
        return DEST_IN_PLACE;
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char *real = realpath(path, NULL);
        if (real) {
            *target = GC_STRDUP(real);
            free(real);
        }
    }
    return DEST_REPLACE;
}

/* Opens an existing non-regular file for writing where it is (no
 * creation, no truncation, no rename); NULL with errno set. */
static FILE *open_in_place(const char *path)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* Flushes and closes a stream written in place; errno describes a failure. */
static bool finish_in_place(FILE *f, bool ok)
{
    int e = ok ? 0 : errno;
    if (fflush(f) != 0 || ferror(f)) {
        ok = false;
        e = e ? e : errno;
    }
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok)
        committed = 1;
    errno = e;
    return ok;
}

/* Opens the stream `path`'s document is written to: *tmp is the temporary
 * to rename over *target, or NULL when the file is written in place. */
static FILE *open_output(const char *path, const char **target, char **tmp)
{
    *tmp = NULL;
    switch (destination_of(path, target)) {
    case DEST_REFUSED:
        return NULL;
    case DEST_IN_PLACE:
        return open_in_place(path);
    default:
        return open_temporary(*target, tmp);
    }
}

static bool close_output(FILE *f, const char *tmp, const char *target, bool ok)
{
    return tmp ? finish(f, tmp, target, ok) : finish_in_place(f, ok);
}

int output_write_data(const char *cmd, const char *path, const void *data, size_t len, FILE *err)
{
    const char *target;
    char *tmp;
    FILE *f = open_output(path, &target, &tmp);
    if (!f)
        return write_error(cmd, path, errno, err);
    errno = 0;
    bool ok = fwrite(data, 1, len, f) == len;
    if (!close_output(f, tmp, target, ok))
        return write_error(cmd, path, errno, err);
    return 0;
}

int output_write_stream(const char *cmd, const char *path, output_fn fn, void *ctx, FILE *err)
{
    const char *target;
    char *tmp;
    FILE *f = open_output(path, &target, &tmp);
    if (!f)
        return write_error(cmd, path, errno, err);
    errno = 0;
    if (!fn(ctx, f, err) && !ferror(f)) {      /* fn said why */
        close_output(f, tmp, target, false);
        return 2;
    }
    if (!close_output(f, tmp, target, true))
        return write_error(cmd, path, errno, err);
    return 0;
}
