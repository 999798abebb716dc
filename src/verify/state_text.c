/* verify/state_text.c: a state's fields as text (see verify/state_text.h). */
#include "verify/state_text.h"

#include <string.h>

void state_text_write(FILE *out, const proto_state_field *now, const proto_state_field *before, int n,
                      const char *indent)
{
    const char *open = NULL;     /* the component whose line is being written */
    for (int k = 0; k < n; k++) {
        if (before && strcmp(now[k].value, before[k].value) == 0)
            continue;
        bool same = open && strcmp(open, now[k].component) == 0;
        if (!same) {
            if (open)
                fputc('\n', out);
            fprintf(out, "%s%s:", indent, now[k].component);
            open = now[k].component;
        }
        if (now[k].name[0])
            fprintf(out, "%s %s = %s", same ? "," : "", now[k].name, now[k].value);
        else
            fprintf(out, " %s", now[k].value);
    }
    if (open)
        fputc('\n', out);
}
