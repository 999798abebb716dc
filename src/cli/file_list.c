/* cli/file_list.c: see cli/file_list.h. */
#include "cli/file_list.h"

#include <dirent.h>
#include <errno.h>
#include <gc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/data_path.h"

#define MAX_DEPTH 32

void file_list_add(file_list *l, const char *path)
{
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? 2 * l->capacity : 64;
        const char **grown = GC_MALLOC(sizeof *grown * (size_t)l->capacity);
        if (l->count)
            memcpy(grown, l->paths, sizeof *grown * (size_t)l->count);
        l->paths = grown;
    }
    l->paths[l->count++] = path;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Directories already read: a symbolic link back up the tree (or two links
 * to one directory) must not make the walk loop or repeat. */
struct file_list_seen {
    int count, capacity;
    dev_t *dev;
    ino_t *ino;
};

/* False when the directory was met before; else notes it. */
static bool first_visit(file_list *l, const struct stat *st)
{
    if (!l->seen)
        l->seen = GC_MALLOC(sizeof *l->seen);
    file_list_seen *seen = l->seen;
    for (int i = 0; i < seen->count; i++)
        if (seen->dev[i] == st->st_dev && seen->ino[i] == st->st_ino)
            return false;
    if (seen->count == seen->capacity) {
        seen->capacity = seen->capacity ? 2 * seen->capacity : 16;
        dev_t *dev = GC_MALLOC_ATOMIC(sizeof *dev * (size_t)seen->capacity);
        ino_t *ino = GC_MALLOC_ATOMIC(sizeof *ino * (size_t)seen->capacity);
        if (seen->count) {
            memcpy(dev, seen->dev, sizeof *dev * (size_t)seen->count);
            memcpy(ino, seen->ino, sizeof *ino * (size_t)seen->count);
        }
        seen->dev = dev;
        seen->ino = ino;
    }
    seen->dev[seen->count] = st->st_dev;
    seen->ino[seen->count++] = st->st_ino;
    return true;
}

/* Adds every *.litmus below dir, sorted. */
static bool collect_dir(const char *dir, file_list *l, FILE *err, int depth)
{
    if (depth > MAX_DEPTH) {
        fprintf(err, "%s: error: directories nested too deeply (more than %d levels): not read\n", dir, MAX_DEPTH);
        return false;
    }
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(err, "%s: error: cannot open directory: %s\n", dir, strerror(errno));
        return false;
    }
    file_list here = {0};
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        size_t size = strlen(dir) + strlen(ent->d_name) + 2;
        char *path = GC_MALLOC_ATOMIC(size);
        snprintf(path, size, "%s/%s", dir, ent->d_name);
        file_list_add(&here, path);
    }
    closedir(d);
    if (here.count)
        qsort(here.paths, (size_t)here.count, sizeof *here.paths, compare_paths);
    bool ok = true;
    for (int i = 0; i < here.count; i++) {
        struct stat st;
        if (stat(here.paths[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (first_visit(l, &st))
                ok &= collect_dir(here.paths[i], l, err, depth + 1);
        } else if (S_ISREG(st.st_mode) && has_suffix(here.paths[i], ".litmus")) {
            file_list_add(l, here.paths[i]);
        }
    }
    return ok;
}

bool file_list_add_arg(file_list *l, const char *arg, FILE *err)
{
    struct stat st;
    const char *path = data_path_arg(arg);
    if (stat(path, &st) != 0) {
        fprintf(err, "%s: error: %s\n", arg, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode))
        return !first_visit(l, &st) || collect_dir(path, l, err, 0);
    file_list_add(l, GC_STRDUP(path));
    return true;
}
