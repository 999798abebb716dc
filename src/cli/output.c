/* cli/output.c: see cli/output.h. */
#include "cli/output.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

bool output_broken(FILE *out)
{
    return fflush(out) != 0 || ferror(out);
}

bool output_whole(FILE *out, const char *data, size_t len)
{
    if (fflush(out) != 0)
        return false;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    bool ok = fwrite(data, 1, len, out) == len && fflush(out) == 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return ok && !ferror(out);
}

int output_close(FILE *out, FILE *err, const char *cmd, int status)
{
    errno = 0;
    bool ok = fflush(out) == 0 && !ferror(out);
    int code = errno;
    if (!ok && !code) {         /* an earlier write failed: try once more to learn why */
        clearerr(out);
        if (fputc('\n', out) == EOF || fflush(out) != 0)
            code = errno;
    }
    if (fclose(out) != 0 && ok) {
        ok = false;
        code = errno;
    }
    if (ok)
        return status;
    fprintf(err, "scopecheck %s: error: cannot write the results: %s\n", cmd,
            code ? strerror(code) : "an earlier write failed");
    return 2;
}
