/* protocol/options.c: see protocol/options.h. */
#include "protocol/options.h"

#include <errno.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>

bool proto_options_net(proto_options *p, const char *text)
{
    if (strcmp(text, "fifo") == 0)
        p->net = PROTO_NET_FIFO;
    else if (strcmp(text, "unordered") == 0)
        p->net = PROTO_NET_UNORDERED;
    else
        return false;
    return true;
}

bool proto_options_const(proto_options *p, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || p->noverrides == PROTO_MAX_OVERRIDES)
        return false;
    char *end;
    errno = 0;
    long v = strtol(eq + 1, &end, 10);
    if (errno || end == eq + 1 || *end || v > PROTO_MAX_CONST || v < -PROTO_MAX_CONST)
        return false;
    p->override_name[p->noverrides] = GC_STRNDUP(text, (size_t)(eq - text));
    p->override_value[p->noverrides++] = v;
    return true;
}
