/* base/textfile.c: see textfile.h. */
#include "base/textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <gc.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A message built at run time, in GC memory. */
static const char *message(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *s = GC_MALLOC_ATOMIC(strlen(buf) + 1);
    if (!s)
        return "out of memory";
    strcpy(s, buf);
    return s;
}

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file";
}

/* Opens for reading without blocking on a named pipe that has no writer,
 * then makes reads blocking again (a pipe with a writer is read to its end). */
static int open_input(const char *path, struct stat *st, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = message("cannot open: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        *why = message("cannot read: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode)) {
        *why = message("not a regular file (%s)", kind_of(st->st_mode));
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        *why = message("cannot read: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* Reads until end of file or limit bytes; *len gets the count.  The buffer
 * starts at `first` bytes and doubles, so a small file costs a small buffer. */
static char *read_all(int fd, size_t first, size_t limit, size_t *len, const char **why)
{
    size_t cap = first < limit ? first : limit, n = 0;
    char *buf = GC_MALLOC_ATOMIC(cap + 1);
    while (buf) {
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            *why = message("cannot read: %s", strerror(errno));
            return NULL;
        }
        n += (size_t)got;
        if (got == 0 || n == limit)
            break;
        if (n == cap) {
            size_t ncap = cap <= limit / 2 ? cap * 2 : limit;
            char *grown = GC_MALLOC_ATOMIC(ncap + 1);
            if (grown)
                memcpy(grown, buf, n);
            buf = grown;
            cap = ncap;
        }
    }
    if (!buf) {
        *why = "out of memory";
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *textfile_read(const char *path, size_t max_bytes, size_t *len, const char **why)
{
    struct stat st;
    int fd = open_input(path, &st, why);
    if (fd < 0)
        return NULL;
    size_t first = 16384;
    if (S_ISREG(st.st_mode)) {
        if ((unsigned long long)st.st_size > max_bytes) {
            close(fd);
            *why = message("file too large (more than %zu bytes)", max_bytes);
            return NULL;
        }
        first = (size_t)st.st_size + 1; /* +1: sees the end of file in one pass */
    }
    /* One byte over the limit tells a file of exactly max_bytes from a longer one. */
    char *text = read_all(fd, first, max_bytes + 1, len, why);
    close(fd);
    if (text && *len > max_bytes) {
        *why = message("file too large (more than %zu bytes)", max_bytes);
        return NULL;
    }
    return text;
}

void textfile_position(const char *text, size_t offset, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}
