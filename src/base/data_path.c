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

/* The running executable's path with its last `up` components removed
 * (1: its directory, 2: PREFIX for PREFIX/bin/PROGRAM), or NULL. */
static const char *executable_up(int up)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    for (int i = 0; i < up; i++) {
        char *slash = strrchr(exe, '/');
        if (!slash)
            return NULL;
        *slash = '\0';
    }
    return GC_STRDUP(exe);
}

/* PREFIX for the running executable PREFIX/bin/PROGRAM, or NULL. */
static const char *prefix_of_executable(void) { return executable_up(2); }

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

const char *data_path_plugin(const char *name, const char **looked)
{
    const char *dir = executable_up(1);
    if (looked)
        *looked = "nowhere: the program's own path (/proc/self/exe) is unknown";
    if (!dir || !*name || strchr(name, '/'))
        return NULL;
    const char *beside = joined(dir, "/", name);
    const char *installed = joined(dir, "/../lib/scopecheck/", name);
    if (looked)
        *looked = joined(beside, ", ", installed);
    if (access(beside, R_OK) == 0)
        return beside;
    return access(installed, R_OK) == 0 ? installed : NULL;
}
