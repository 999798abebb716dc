/* cli/output.c: see cli/output.h. */
#include "cli/output.h"

#include <errno.h>
#include <string.h>

bool output_broken(FILE *out)
{
    return fflush(out) != 0 || ferror(out);
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
