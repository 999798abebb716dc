/* cli/model_path.c: see cli/model_path.h. */
#include "cli/model_path.h"

#include <gc.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool is_path(const char *name, const char *ext)
{
    size_t len = strlen(name), elen = strlen(ext);
    return strchr(name, '/') || (len > elen && strcmp(name + len - elen, ext) == 0);
}

static const char *existing(const char *dir, const char *name, const char *ext)
{
    size_t size = strlen(dir) + strlen(name) + strlen(ext) + 2;
    char *path = GC_MALLOC_ATOMIC(size);
    snprintf(path, size, "%s/%s%s", dir, name, ext);
    return access(path, R_OK) == 0 ? path : NULL;
}

/* models/ beside the directory that holds the running executable */
static const char *beside_executable(const char *name, const char *ext)
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
    return existing(dir, name, ext);
}

const char *model_path_find(const char *name, const char *ext)
{
    if (is_path(name, ext))
        return access(name, R_OK) == 0 ? GC_STRDUP(name) : NULL;
    if (!*name || strchr(name, '.'))
        return NULL;
    const char *env = getenv("SCOPECHECK_MODELS");
    const char *found = env && *env ? existing(env, name, ext) : NULL;
    if (!found)
        found = beside_executable(name, ext);
    if (!found)
        found = existing("models", name, ext);
    return found;
}

const char *model_path_resolve(const char *name) { return model_path_find(name, ".cat"); }

const char *model_path_in(const char *dir, const char *name)
{
    if (!*name || name[0] == '/')
        return NULL;
    bool has_ext = strlen(name) > 4 && strcmp(name + strlen(name) - 4, ".cat") == 0;
    return existing(dir, name, has_ext ? "" : ".cat");
}
