/* cli/json_error.c: see cli/json_error.h. */
#include "cli/json_error.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

FILE *errors_begin(errors_capture *c, FILE *real)
{
    c->buf = NULL;
    c->len = 0;
    c->real = real;
    c->mem = open_memstream(&c->buf, &c->len);
    return c->mem ? c->mem : real;
}

const char *errors_end(errors_capture *c)
{
    if (!c->mem)
        return "";
    fclose(c->mem);
    c->mem = NULL;
    char *copy = GC_MALLOC_ATOMIC(c->len + 1);
    memcpy(copy, c->buf ? c->buf : "", c->len);
    copy[c->len] = '\0';
    free(c->buf);
    c->buf = NULL;
    fputs(copy, c->real);
    return copy;
}

/* "FILE:LINE:COL: error: ..." -> LINE and COL after the file's name. */
static void position_of(const char *file, const char *msg, int *line, int *col)
{
    *line = *col = 0;
    size_t n = strlen(file);
    if (strncmp(msg, file, n) != 0 || msg[n] != ':')
        return;
    char *end;
    long l = strtol(msg + n + 1, &end, 10);
    if (end == msg + n + 1 || *end != ':')
        return;
    long c = strtol(end + 1, &end, 10);
    if (*end != ':')
        return;
    *line = (int)l;
    *col = (int)c;
}

void json_error_object(FILE *out, const char *file, const char *messages)
{
    const char *nl = strchr(messages, '\n');
    size_t first_len = nl ? (size_t)(nl - messages) : strlen(messages);
    char *first = GC_MALLOC_ATOMIC(first_len + 1);
    memcpy(first, messages, first_len);
    first[first_len] = '\0';
    fputs("{\"file\":", out);
    report_json_string(out, file);
    fputs(",\"error\":", out);
    report_json_string(out, first_len ? first : "unusable input");
    int line, col;
    position_of(file, first, &line, &col);
    if (line > 0)
        fprintf(out, ",\"line\":%d,\"col\":%d", line, col);
    fputs(",\"messages\":[", out);
    bool any = false;
    for (const char *p = messages; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len) {
            char *one = GC_MALLOC_ATOMIC(len + 1);
            memcpy(one, p, len);
            one[len] = '\0';
            if (any)
                fputc(',', out);
            report_json_string(out, one);
            any = true;
        }
        p += len + (e ? 1 : 0);
    }
    fputs("]}\n", out);
}
