/* cli/model_path.c: see cli/model_path.h. */
#include "cli/model_path.h"

#include <dirent.h>
#include <gc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/data_path.h"

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

/* NAME`ext` in the models directory `models` or its mutants/. */
static const char *in_models(const char *models, const char *name, const char *ext)
{
    if (!models)
        return NULL;
    const char *found = existing(models, name, ext);
    if (!found) {
        size_t size = strlen(models) + sizeof "/mutants";
        char *mutants = GC_MALLOC_ATOMIC(size);
        snprintf(mutants, size, "%s/mutants", models);
        found = existing(mutants, name, ext);
    }
    return found;
}

const char *model_path_find(const char *name, const char *ext)
{
    if (is_path(name, ext)) {
        const char *path = data_path_arg(name);
        return access(path, R_OK) == 0 ? GC_STRDUP(path) : NULL;
    }
    if (!*name || strchr(name, '.'))
        return NULL;
    const char *env = getenv("SCOPECHECK_MODELS");
    const char *found = env && *env ? in_models(env, name, ext) : NULL;
    if (!found)
        found = in_models(data_path_bundled("models"), name, ext);
    if (!found)
        found = in_models("models", name, ext);
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

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The NAMEs of DIR/NAME`ext`, sorted and joined by ", "; NULL when DIR
 * cannot be read or holds none. */
static const char *names_in(const char *dir, const char *ext)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return NULL;
    const char **names = NULL;
    size_t count = 0, capacity = 0, size = 1, elen = strlen(ext);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len <= elen || strcmp(e->d_name + len - elen, ext) != 0)
            continue;
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            const char **grown = GC_MALLOC(capacity * sizeof *grown);
            if (count)
                memcpy(grown, names, count * sizeof *grown);
            names = grown;
        }
        names[count++] = GC_STRNDUP(e->d_name, len - elen);
        size += len + 2;
    }
    closedir(d);
    if (!count)
        return NULL;
    qsort(names, count, sizeof *names, compare_names);
    char *list = GC_MALLOC_ATOMIC(size);
    list[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        if (i)
            strcat(list, ", ");
        strcat(list, names[i]);
    }
    return list;
}

const char *model_path_protocol_names(void)
{
    const char *env = getenv("SCOPECHECK_MODELS");
    const char *list = env && *env ? names_in(env, ".proto") : NULL;
    if (!list)
        list = names_in(data_path_bundled("models"), ".proto");
    if (!list)
        list = names_in("models", ".proto");
    return list;
}

/* DIR/scopecheck when DIR (an environment variable's value) is an
 * absolute path, as XDG asks; NULL otherwise. */
static const char *cache_under(const char *dir, const char *sub)
{
    if (!dir || dir[0] != '/')
        return NULL;
    size_t size = strlen(dir) + strlen(sub) + 1;
    char *path = GC_MALLOC_ATOMIC(size);
    snprintf(path, size, "%s%s", dir, sub);
    return path;
}

const char *model_path_cache_dir(void)
{
    const char *chosen = getenv("SCOPECHECK_CACHE");
    if (chosen)
        return *chosen && strcmp(chosen, "off") != 0 ? chosen : NULL;
    const char *xdg = cache_under(getenv("XDG_CACHE_HOME"), "/scopecheck");
    return xdg ? xdg : cache_under(getenv("HOME"), "/.cache/scopecheck");
}
