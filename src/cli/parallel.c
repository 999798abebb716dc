/* cli/parallel.c: see cli/parallel.h.
 *
 * A child sends one record per item on its pipe: a header (item index,
 * status, output and message lengths) and the two texts.  The parent
 * polls every pipe, keeps the records it has, and writes them out in item
 * order. */
#include "cli/parallel.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/output.h"
#include "report/status.h"

#define MAX_JOBS 256
#define STOP_POLL_MS 200

typedef struct record_header {
    int32_t index, status;
    uint64_t out_len, err_len;
} record_header;

typedef struct item_result {
    bool have;
    int status;
    char *out, *err;       /* malloc'd */
    size_t out_len, err_len;
} item_result;

typedef struct worker {
    pid_t pid;
    int fd;                /* read end; -1 when closed */
    char *buf;             /* bytes received, not yet parsed */
    size_t len, cap;
} worker;

static bool write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static int run_one(parallel_work_fn work, void *ctx, int i, FILE *out, FILE *err)
{
    return work(ctx, i, out, err);
}

static void child_main(int k, int jobs, int n, parallel_work_fn work, void *ctx,
                       const volatile sig_atomic_t *stop, int fd)
{
    for (int i = k; i < n && !(stop && *stop); i += jobs) {
        char *ob = NULL, *eb = NULL;
        size_t ol = 0, el = 0;
        FILE *o = open_memstream(&ob, &ol), *e = open_memstream(&eb, &el);
        int status = SC_STATUS_UNUSABLE;
        if (o && e)
            status = run_one(work, ctx, i, o, e);
        if (o)
            fclose(o);
        if (e)
            fclose(e);
        record_header h = {i, status, ob ? ol : 0, eb ? el : 0};
        bool ok = write_all(fd, &h, sizeof h) && write_all(fd, ob, h.out_len) && write_all(fd, eb, h.err_len);
        free(ob);
        free(eb);
        if (!ok)
            break;
    }
    close(fd);
    _exit(0);
}

/* Moves every complete record out of w's buffer into results. */
static void parse_records(worker *w, item_result *results, int n)
{
    size_t at = 0;
    while (w->len - at >= sizeof(record_header)) {
        record_header h;
        memcpy(&h, w->buf + at, sizeof h);
        size_t need = sizeof h + h.out_len + h.err_len;
        if (w->len - at < need)
            break;
        if (h.index >= 0 && h.index < n && !results[h.index].have) {
            item_result *r = &results[h.index];
            r->have = true;
            r->status = h.status;
            r->out_len = h.out_len;
            r->err_len = h.err_len;
            r->out = malloc(h.out_len + 1);
            r->err = malloc(h.err_len + 1);
            if (r->out)
                memcpy(r->out, w->buf + at + sizeof h, h.out_len);
            if (r->err)
                memcpy(r->err, w->buf + at + sizeof h + h.out_len, h.err_len);
        }
        at += need;
    }
    memmove(w->buf, w->buf + at, w->len - at);
    w->len -= at;
}

static bool receive(worker *w, item_result *results, int n)
{
    if (w->cap - w->len < 65536) {
        size_t cap = w->cap ? 2 * w->cap : 1 << 17;
        char *grown = realloc(w->buf, cap);
        if (!grown)
            return false;
        w->buf = grown;
        w->cap = cap;
    }
    ssize_t got = read(w->fd, w->buf + w->len, w->cap - w->len);
    if (got < 0 && errno == EINTR)
        return true;
    if (got <= 0)
        return false;
    w->len += (size_t)got;
    parse_records(w, results, n);
    return true;
}

/* Writes out the items from *next on that have arrived, in order. */
static void emit_ready(item_result *results, int n, int *next, FILE *out, FILE *err, int *status)
{
    while (*next < n && results[*next].have) {
        item_result *r = &results[*next];
        if (r->out)
            output_whole(out, r->out, r->out_len);
        if (r->err)
            fwrite(r->err, 1, r->err_len, err);
        fflush(out);
        free(r->out);
        free(r->err);
        r->out = r->err = NULL;
        *status = sc_status_merge(*status, r->status);
        (*next)++;
    }
}

static int run_here(int n, parallel_work_fn work, void *ctx, const volatile sig_atomic_t *stop, FILE *out,
                    FILE *err, int *skipped)
{
    int status = SC_STATUS_OK, i = 0;
    /* each item's output is made here and written whole; one stream for
     * all of them (rewound: its size is the position at each flush) */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    bool ok = true;
    for (; i < n && !(stop && *stop) && ok; i++) {
        status = sc_status_merge(status, run_one(work, ctx, i, mem ? mem : out, err));
        if (mem) {
            ok = fflush(mem) == 0 && output_whole(out, buf, len);
            rewind(mem);
        }
        ok = ok && fflush(out) == 0 && !ferror(out);
    }
    if (mem)
        fclose(mem);
    free(buf);
    if (!ok)
        return status;      /* nothing more can arrive; the caller reports the lost output */
    *skipped = n - i;
    return status;
}

static int start_workers(worker *ws, int jobs, int n, parallel_work_fn work, void *ctx,
                         const volatile sig_atomic_t *stop)
{
    int started = 0;
    for (int k = 0; k < jobs; k++) {
        int fds[2];
        if (pipe(fds) != 0)
            break;
        pid_t pid = fork();
        if (pid < 0) {
            close(fds[0]);
            close(fds[1]);
            break;
        }
        if (pid == 0) {
            close(fds[0]);
            for (int j = 0; j < started; j++)
                close(ws[j].fd);
            child_main(k, jobs, n, work, ctx, stop, fds[1]);
        }
        close(fds[1]);
        ws[started++] = (worker){pid, fds[0], NULL, 0, 0};
    }
    return started;
}

/* A signal sent to this process alone (kill PID, a service manager's
 * SIGTERM) does not reach the workers: they are told to stop too, as a
 * signal to the process group would. */
static void stop_workers(const worker *ws, int started)
{
    for (int k = 0; k < started; k++)
        if (ws[k].fd >= 0)
            kill(ws[k].pid, SIGTERM);
}

int parallel_run(int n, int jobs, parallel_work_fn work, void *ctx, const volatile sig_atomic_t *stop,
                 FILE *out, FILE *err, int *skipped)
{
    *skipped = 0;
    if (jobs > MAX_JOBS)
        jobs = MAX_JOBS;
    if (jobs > n)
        jobs = n;
    if (jobs <= 1)
        return run_here(n, work, ctx, stop, out, err, skipped);
    item_result *results = calloc((size_t)n, sizeof *results);
    if (!results)
        return run_here(n, work, ctx, stop, out, err, skipped);
    fflush(out);
    fflush(err);
    worker ws[MAX_JOBS];
    int started = start_workers(ws, jobs, n, work, ctx, stop);
    if (started < jobs) {     /* no child for some share: do it all here instead */
        for (int k = 0; k < started; k++) {
            kill(ws[k].pid, SIGKILL);
            close(ws[k].fd);
            waitpid(ws[k].pid, NULL, 0);
        }
        free(results);
        return run_here(n, work, ctx, stop, out, err, skipped);
    }
    int status = SC_STATUS_OK, next = 0, open_fds = started;
    bool forwarded = false;
    while (open_fds > 0) {
        if (stop && *stop && !forwarded) {
            stop_workers(ws, started);
            forwarded = true;
        }
        struct pollfd pfd[MAX_JOBS];
        for (int k = 0; k < started; k++)
            pfd[k] = (struct pollfd){ws[k].fd, POLLIN, 0};
        /* a bounded wait: a signal that comes just before poll is seen at the next turn */
        if (poll(pfd, (nfds_t)started, STOP_POLL_MS) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int k = 0; k < started; k++)
            if (ws[k].fd >= 0 && (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) && !receive(&ws[k], results, n)) {
                close(ws[k].fd);
                ws[k].fd = -1;
                open_fds--;
            }
        emit_ready(results, n, &next, out, err, &status);
    }
    for (int k = 0; k < started; k++) {
        if (ws[k].fd >= 0)
            close(ws[k].fd);
        int wstatus = 0;
        while (waitpid(ws[k].pid, &wstatus, 0) < 0 && errno == EINTR)
            ;
        if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) != SIGINT && WTERMSIG(wstatus) != SIGTERM) {
            fprintf(err, "scopecheck: error: a worker process died (signal %d); its remaining items are unchecked\n",
                    WTERMSIG(wstatus));
            status = sc_status_merge(status, SC_STATUS_UNUSABLE);
        }
        free(ws[k].buf);
    }
    /* Items after a gap (a worker stopped or died early) are written now, in order. */
    int missing = 0;
    for (int i = next; i < n; i++) {
        if (!results[i].have) {
            missing++;
            continue;
        }
        int at = i;
        emit_ready(results, n, &at, out, err, &status);
        i = at - 1;
    }
    free(results);
    if (missing && stop && *stop) {
        *skipped = missing;
    } else if (missing) {
        fprintf(err, "scopecheck: error: %d item%s not checked (a worker process failed)\n", missing,
                missing == 1 ? " was" : "s were");
        status = sc_status_merge(status, SC_STATUS_UNUSABLE);
    }
    return status;
}
