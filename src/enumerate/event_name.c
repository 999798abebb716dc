/* enumerate/event_name.c: see enumerate/event_name.h. */
#include "enumerate/event_name.h"

#include <string.h>

char *enum_event_name(int i, char out[ENUM_EVENT_NAME_SIZE])
{
    if (i < 0) {
        strcpy(out, "?");
        return out;
    }
    char rev[ENUM_EVENT_NAME_SIZE];
    int len = 0;
    /* bijective base 26: no zero digit, so "z" is followed by "aa" */
    for (long k = (long)i + 1; k > 0 && len < ENUM_EVENT_NAME_SIZE - 1; k = (k - 1) / 26)
        rev[len++] = (char)('a' + (k - 1) % 26);
    for (int j = 0; j < len; j++)
        out[j] = rev[len - 1 - j];
    out[len] = '\0';
    return out;
}
