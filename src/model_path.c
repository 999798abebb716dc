/* model_path.c: see model_path.h. */
#include "model_path.h"

#include <gc.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool is_path(const char *name)
{
    size_t len = strlen(name);
    return strchr(name, '/') || (len > 4 && strcmp(name + len - 4, ".cat") == 0);
}

static const char *existing(const char *dir, const char *name)
{
    size_t size = strlen(dir) + strlen(name) + 8;
    char *path = GC_MALLOC_ATOMIC(size);
    snprintf(path, size, "%s/%s.cat", dir, name);
    return access(path, R_OK) == 0 ? path : NULL;
}

/* models/ beside the directory that holds the running executable */
static const char *beside_executable(const char *name)
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
    size_t size = strlen(exe) + 8;
    char *dir = GC_MALLOC_ATOMIC(size);
    snprintf(dir, size, "%s/models", exe);
    return existing(dir, name);
}

const char *model_path_resolve(const char *name)
{
    if (is_path(name))
        return access(name, R_OK) == 0 ? GC_STRDUP(name) : NULL;
    if (!*name || strchr(name, '.'))
        return NULL;
    const char *env = getenv("SCOPECHECK_MODELS");
    const char *found = env && *env ? existing(env, name) : NULL;
    if (!found)
        found = beside_executable(name);
    if (!found)
        found = existing("models", name);
    return found;
}
