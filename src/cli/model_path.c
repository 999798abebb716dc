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

/* The models bundled under a short name (docs/models.md,
 * docs/models-opencl.md), in the order the help lists them. */
static const char *const bundled[] = {
    "ptx6", "ptx75", "sc", "opencl", "opencl-rsp", "hrf-direct", "hrf-indirect", NULL,
};

const char *model_path_bundled_names(void)
{
    size_t size = 16;
    for (int i = 0; bundled[i]; i++)
        size += strlen(bundled[i]) + 2;
    char *list = GC_MALLOC_ATOMIC(size);
    list[0] = '\0';
    for (int i = 0; bundled[i]; i++) {
        if (i)
            strcat(list, ", ");
        strcat(list, bundled[i]);
        if (i == 0)
            strcat(list, " (default)");
    }
    return list;
}

void model_path_unknown(FILE *err, const char *cmd, const char *name)
{
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, "-race") == 0)
        fprintf(err, "scopecheck %s: error: no model '%s': a NAME-race column of an expected.tsv is the race "
                "verdict of model NAME, not a model; run --model %.*s --races (a racy test prints Flag and "
                "Race lines; scripts/conformance.sh turns them into Ok/No)\n", cmd, name, (int)(n - 5), name);
    else
        fprintf(err, "scopecheck %s: error: no model '%s' (bundled models: %s; or the path of a .cat file; "
                "models are looked up in $SCOPECHECK_MODELS, then beside the program)\n", cmd, name,
                model_path_bundled_names());
}

/* The directory of the running executable's parent (PREFIX for
 * PREFIX/bin/scopecheck), or NULL. */
static char *prefix_of_executable(void)
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

/* PREFIX/models (the build tree: bin/ beside models/) or
 * PREFIX/share/scopecheck/models (make install). */
static const char *beside_executable(const char *name, const char *ext)
{
    const char *prefix = prefix_of_executable();
    if (!prefix)
        return NULL;
    static const char *const subdirs[] = {"models", "share/scopecheck/models"};
    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
        size_t size = strlen(prefix) + strlen(subdirs[i]) + 2;
        char *dir = GC_MALLOC_ATOMIC(size);
        snprintf(dir, size, "%s/%s", prefix, subdirs[i]);
        const char *found = existing(dir, name, ext);
        if (found)
            return found;
    }
    return NULL;
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
