/* base/data_path.c: see base/data_path.h. */
#include "base/data_path.h"

#include <gc.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char *joined(const char *a, const char *b, const char *c)
{
    size_t size = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = GC_MALLOC_ATOMIC(size);
    snprintf(s, size, "%s%s%s", a, b, c);
    return s;
}

/* PREFIX for the running executable PREFIX/bin/PROGRAM, or NULL. */
static const char *prefix_of_executable(void)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash)
            return NULL;
        *slash = '\0';
    }
    return GC_STRDUP(exe);
}

const char *data_path_bundled(const char *rel)
{
    if (!*rel || rel[0] == '/')
        return NULL;
    const char *prefix = prefix_of_executable();
    if (!prefix)
        return NULL;
    static const char *const roots[] = {"/", "/share/scopecheck/"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        char *path = joined(prefix, roots[i], rel);
        if (access(path, R_OK) == 0)
            return path;
    }
    return NULL;
}

const char *data_path_arg(const char *arg)
{
    if (!*arg || arg[0] == '/' || access(arg, F_OK) == 0)
        return arg;
    const char *found = data_path_bundled(arg);
    if (!found)
        found = data_path_bundled(joined("litmus/", arg, ""));
    return found ? found : arg;
}

const char *data_path_named(const char *name, const char *dir, const char *ext)
{
    if (!*name || strchr(name, '/') || strchr(name, '.') || access(name, F_OK) == 0)
        return data_path_arg(name);
    const char *rel = joined(dir, "/", joined(name, ext, ""));
    if (access(rel, R_OK) == 0)
        return rel;
    const char *found = data_path_bundled(rel);
    return found ? found : name;
}
