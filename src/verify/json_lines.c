/* verify/json_lines.c: see verify/json_lines.h. */
#include "verify/json_lines.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

void json_lines(FILE *out, const char *text)
{
    fputc('[', out);
    bool first = true;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *one = malloc(len + 1);
        if (!one)
            break;
        memcpy(one, line, len);
        one[len] = '\0';
        if (!first)
            fputc(',', out);
        report_json_string(out, one);
        free(one);
        first = false;
        line = end ? end + 1 : line + len;
    }
    fputc(']', out);
}

void json_bfs_trace(FILE *out, const bfs_search *bfs, uint32_t index)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        bfs_print_trace(bfs, index, mem);
        fclose(mem);
    }
    json_lines(out, text);
    free(text);
}
