/* cat/cache.c: compiled models kept on disk between processes (see
 * cat/cache.h). */
#include "cat/cache.h"

#include <elf.h>
#include <errno.h>
#include <gc.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/canon.h"
#include "base/textfile.h"
#include "cat/source_log.h"

#define MAGIC "scopecheck compiled cat model 1\n"
#define NO_STRING UINT64_MAX
/* An entry larger than this is not ours: refused before it is read. */
#define MAX_ENTRY_BYTES ((long)64 << 20)

/* ---- this build's identity ------------------------------------------------------ */

typedef struct build_id {
    const unsigned char *bytes;
    size_t len;
} build_id;

/* The NT_GNU_BUILD_ID note of the main program (the first object
 * dl_iterate_phdr reports). */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    build_id *id = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            size_t name_at = sizeof *nh, desc_at = name_at + ((nh->n_namesz + 3u) & ~3u);
            size_t next = desc_at + ((nh->n_descsz + 3u) & ~3u);
            if (p + next > end)
                break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(p + name_at, "GNU", 4) == 0) {
                id->bytes = p + desc_at;
                id->len = nh->n_descsz;
                return 1;
            }
            p += next;
        }
    }
    return 1; /* only the first object, the program, counts */
}

static build_id this_build(void)
{
    build_id id = {NULL, 0};
    dl_iterate_phdr(find_build_id, &id);
    return id;
}

/* ---- writing an entry -------------------------------------------------------------- */

static void put_u64(FILE *f, uint64_t v) { fwrite(&v, sizeof v, 1, f); }
static void put_i32(FILE *f, int v)
{
    int32_t x = v;
    fwrite(&x, sizeof x, 1, f);
}
static void put_bool(FILE *f, bool v) { fputc(v ? 1 : 0, f); }
static void put_bytes(FILE *f, const void *p, size_t n)
{
    put_u64(f, n);
    if (n)
        fwrite(p, 1, n, f);
}
static void put_str(FILE *f, const char *s)
{
    if (s)
        put_bytes(f, s, strlen(s));
    else
        put_u64(f, NO_STRING);
}

/* What a load is asked: the build, the model's path and text, the options. */
static void put_inputs(FILE *f, build_id id, const char *path, const char *text, size_t len,
                       const cat_load_options *opts, bool prelude)
{
    fputs(MAGIC, f);
    put_bytes(f, id.bytes, id.len);
    put_str(f, path);
    put_bytes(f, text, len);
    put_i32(f, opts->ndirs);
    for (int i = 0; i < opts->ndirs; i++)
        put_str(f, opts->dirs[i]);
    put_i32(f, opts->nvariants);
    for (int i = 0; i < opts->nvariants; i++)
        put_str(f, opts->variants[i]);
    put_bool(f, prelude);
}

static void put_model(FILE *f, const cat_model *m)
{
    put_str(f, m->title);
    put_i32(f, m->co_mode);
    put_bool(f, m->thread_coherent);
    put_i32(f, m->thin_air);
    put_bool(f, m->flags_undefined);
    put_i32(f, m->nflags);
    for (int i = 0; i < m->nflags; i++)
        put_str(f, m->flag_names[i]);
    put_u64(f, m->undefined_flags);
    put_i32(f, m->nblocks);
    for (int b = 0; b < m->nblocks; b++) {
        const cat_block *blk = &m->blocks[b];
        put_i32(f, blk->ncode);
        put_i32(f, blk->with);
        for (int i = 0; i < blk->ncode; i++) {
            const cat_instr *in = &blk->code[i];
            put_i32(f, in->op), put_i32(f, in->dst), put_i32(f, in->a), put_i32(f, in->b), put_i32(f, in->c);
        }
    }
    put_i32(f, m->nchecks);
    for (int i = 0; i < m->nchecks; i++) {
        const cat_check_info *c = &m->checks[i];
        put_i32(f, c->kind), put_bool(f, c->negate), put_bool(f, c->is_set), put_i32(f, c->flag);
        put_str(f, c->name);
    }
    put_i32(f, m->nwiths);
    for (int i = 0; i < m->nwiths; i++) {
        const cat_with_info *w = &m->withs[i];
        put_i32(f, w->set), put_i32(f, w->rel), put_bool(f, w->per_loc);
        put_i32(f, w->var), put_i32(f, w->pred), put_i32(f, w->next);
        put_str(f, w->text);
    }
    put_i32(f, m->co_block);
    put_i32(f, m->static_block);
    put_i32(f, m->nrel_slots);
    put_i32(f, m->nset_slots);
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

/* The entry's file: one per model path and options. */
static const char *entry_path(const char *path, const cat_load_options *opts, bool prelude)
{
    char *key = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&key, &len);
    if (!f)
        return NULL;
    put_inputs(f, (build_id){NULL, 0}, path, "", 0, opts, prelude);
    if (fclose(f) != 0) {
        free(key);
        return NULL;
    }
    char hex[CANON_HEX_LEN + 1];
    sha256_hex(key, len, hex);
    free(key);
    size_t size = strlen(opts->cache_dir) + sizeof "/model-.bin" + 32;
    char *name = GC_MALLOC_ATOMIC(size);
    snprintf(name, size, "%s/model-%.32s.bin", opts->cache_dir, hex);
    return name;
}

/* The directory and its parents, as `mkdir -p` (mode 0700: XDG's). */
static bool make_dirs(const char *dir)
{
    char *d = GC_STRDUP(dir);
    for (char *s = d + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(d, 0700) != 0 && errno != EEXIST)
                return false;
            *s = '/';
        }
    return mkdir(d, 0700) == 0 || errno == EEXIST;
}

bool cat_cache_store(const char *path, const char *text, size_t len, const cat_load_options *opts, bool prelude,
                     const cat_source_log *log, const cat_model *m)
{
    build_id id = this_build();
    const char *name = opts && opts->cache_dir ? entry_path(path, opts, prelude) : NULL;
    if (!id.len || !name || !make_dirs(opts->cache_dir))
        return false;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return false;
    put_inputs(f, id, path, text, len, opts, prelude);
    put_i32(f, log->n);
    for (int i = 0; i < log->n; i++) {
        put_str(f, log->v[i].dir);
        put_str(f, log->v[i].name);
        put_str(f, log->v[i].found);
        if (log->v[i].found)
            put_bytes(f, log->v[i].text, log->v[i].len);
    }
    put_model(f, m);
    if (fclose(f) != 0) {
        free(buf);
        return false;
    }
    uint64_t sum = fnv1a((const unsigned char *)buf, n);
    size_t tsize = strlen(name) + sizeof ".tmp-XXXXXX";
    char *tmp = GC_MALLOC_ATOMIC(tsize);
    snprintf(tmp, tsize, "%s.tmp-XXXXXX", name);
    int fd = mkstemp(tmp);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    bool ok = out && fwrite(buf, 1, n, out) == n && fwrite(&sum, sizeof sum, 1, out) == 1;
    free(buf);
    if (out)
        ok = fclose(out) == 0 && ok;
    else if (fd >= 0)
        close(fd);
    if (ok)
        ok = rename(tmp, name) == 0;
    if (!ok && fd >= 0)
        unlink(tmp);
    return ok;
}

/* ---- reading an entry ---------------------------------------------------------------- */

typedef struct reader {
    const unsigned char *p, *end;
    bool bad;
} reader;

static bool take(reader *r, void *out, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        memset(out, 0, n);
        return false;
    }
    memcpy(out, r->p, n);
    r->p += n;
    return true;
}
static uint64_t get_u64(reader *r)
{
    uint64_t v;
    take(r, &v, sizeof v);
    return v;
}
static int get_i32(reader *r)
{
    int32_t v;
    take(r, &v, sizeof v);
    return v;
}
static bool get_bool(reader *r)
{
    unsigned char c;
    take(r, &c, 1);
    return c != 0;
}
/* A count of things of at least `unit` bytes each: refused when negative
 * or more than the rest of the entry could hold. */
static int get_count(reader *r, size_t unit)
{
    int n = get_i32(r);
    if (n < 0 || (size_t)n > (size_t)(r->end - r->p) / unit)
        r->bad = true;
    return r->bad ? 0 : n;
}
/* The next string (NULL for none), in collector memory. */
static const char *get_str(reader *r)
{
    uint64_t n = get_u64(r);
    if (n == NO_STRING || r->bad)
        return NULL;
    if (n > (uint64_t)(r->end - r->p)) {
        r->bad = true;
        return NULL;
    }
    char *s = GC_MALLOC_ATOMIC((size_t)n + 1);
    memcpy(s, r->p, (size_t)n);
    s[n] = '\0';
    r->p += n;
    return s;
}
/* The next byte string equals want[0..n): consumed, true. */
static bool same_bytes(reader *r, const void *want, size_t n)
{
    uint64_t len = get_u64(r);
    if (r->bad || len != n || (size_t)(r->end - r->p) < n || (n && memcmp(r->p, want, n) != 0))
        return false;
    r->p += n;
    return true;
}
static bool same_str(reader *r, const char *want)
{
    if (!want)
        return get_u64(r) == NO_STRING && !r->bad;
    return same_bytes(r, want, strlen(want));
}

/* The entry asks what this load asks. */
static bool same_inputs(reader *r, build_id id, const char *path, const char *text, size_t len,
                        const cat_load_options *opts, bool prelude)
{
    size_t m = sizeof MAGIC - 1;
    if ((size_t)(r->end - r->p) < m || memcmp(r->p, MAGIC, m) != 0)
        return false;
    r->p += m;
    if (!same_bytes(r, id.bytes, id.len) || !same_str(r, path) || !same_bytes(r, text, len))
        return false;
    if (get_i32(r) != opts->ndirs)
        return false;
    for (int i = 0; i < opts->ndirs; i++)
        if (!same_str(r, opts->dirs[i]))
            return false;
    if (get_i32(r) != opts->nvariants)
        return false;
    for (int i = 0; i < opts->nvariants; i++)
        if (!same_str(r, opts->variants[i]))
            return false;
    return get_bool(r) == prelude && !r->bad;
}

/* Every lookup the parse made finds the same file with the same text now. */
static bool same_sources(reader *r, const cat_load_options *opts)
{
    int n = get_count(r, 3 * sizeof(uint64_t));
    for (int i = 0; i < n && !r->bad; i++) {
        const char *dir = get_str(r), *name = get_str(r), *found = get_str(r);
        if (r->bad || !dir || !name)
            return false;
        const char *now = cat_find_include(dir, opts, name);
        if (!found != !now || (found && strcmp(found, now) != 0))
            return false;
        if (!found)
            continue;
        size_t len;
        const char *why;
        char *text = textfile_read(now, CAT_MAX_FILE_BYTES, &len, &why);
        if (!text || !same_bytes(r, text, len))
            return false;
    }
    return !r->bad;
}

static cat_model *get_model(reader *r)
{
    cat_model *m = GC_MALLOC(sizeof *m);
    m->title = get_str(r);
    m->co_mode = (enum cat_co_mode)get_i32(r);
    m->thread_coherent = get_bool(r);
    m->thin_air = get_i32(r);
    m->flags_undefined = get_bool(r);
    m->nflags = get_count(r, sizeof(uint64_t));
    if (m->nflags > CAT_MAX_FLAGS)
        return NULL;
    for (int i = 0; i < m->nflags; i++)
        m->flag_names[i] = get_str(r);
    m->undefined_flags = (unsigned)get_u64(r);
    m->nblocks = get_count(r, 2 * sizeof(int32_t));
    m->blocks = GC_MALLOC(sizeof *m->blocks * (size_t)(m->nblocks ? m->nblocks : 1));
    for (int b = 0; b < m->nblocks && !r->bad; b++) {
        cat_block *blk = &m->blocks[b];
        blk->ncode = blk->cap = get_count(r, 5 * sizeof(int32_t));
        blk->with = get_i32(r);
        blk->code = GC_MALLOC_ATOMIC(sizeof *blk->code * (size_t)(blk->ncode ? blk->ncode : 1));
        for (int i = 0; i < blk->ncode; i++) {
            cat_instr *in = &blk->code[i];
            in->op = get_i32(r), in->dst = get_i32(r), in->a = get_i32(r), in->b = get_i32(r), in->c = get_i32(r);
        }
    }
    m->nchecks = get_count(r, 2 * sizeof(int32_t));
    m->checks = GC_MALLOC(sizeof *m->checks * (size_t)(m->nchecks ? m->nchecks : 1));
    for (int i = 0; i < m->nchecks && !r->bad; i++) {
        cat_check_info *c = &m->checks[i];
        c->kind = (enum cat_check_kind)get_i32(r), c->negate = get_bool(r), c->is_set = get_bool(r);
        c->flag = get_i32(r);
        c->name = get_str(r);
    }
    m->nwiths = get_count(r, 5 * sizeof(int32_t));
    m->withs = GC_MALLOC(sizeof *m->withs * (size_t)(m->nwiths ? m->nwiths : 1));
    for (int i = 0; i < m->nwiths && !r->bad; i++) {
        cat_with_info *w = &m->withs[i];
        w->set = get_i32(r), w->rel = get_i32(r), w->per_loc = get_bool(r);
        w->var = get_i32(r), w->pred = get_i32(r), w->next = get_i32(r);
        w->text = get_str(r);
    }
    m->co_block = get_i32(r);
    m->static_block = get_i32(r);
    m->nrel_slots = get_i32(r);
    m->nset_slots = get_i32(r);
    if (r->bad || r->p != r->end)
        return NULL;
    cat_find_prunable(m); /* derived from the code, as cat_compile derives it */
    return m;
}

/* The whole entry file and its checksum checked; NULL when absent, too
 * large or damaged. */
static unsigned char *read_entry(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size >= (long)sizeof(uint64_t) && size <= MAX_ENTRY_BYTES && fseek(f, 0, SEEK_SET) == 0) {
        buf = GC_MALLOC_ATOMIC((size_t)size);
        if (fread(buf, 1, (size_t)size, f) != (size_t)size)
            buf = NULL;
    }
    fclose(f);
    if (!buf)
        return NULL;
    *len = (size_t)size - sizeof(uint64_t);
    uint64_t sum;
    memcpy(&sum, buf + *len, sizeof sum);
    return sum == fnv1a(buf, *len) ? buf : NULL;
}

cat_model *cat_cache_load(const char *path, const char *text, size_t len, const cat_load_options *opts,
                          bool prelude)
{
    if (!opts || !opts->cache_dir)
        return NULL;
    build_id id = this_build();
    const char *name = id.len ? entry_path(path, opts, prelude) : NULL;
    size_t n;
    unsigned char *buf = name ? read_entry(name, &n) : NULL;
    if (!buf)
        return NULL;
    reader r = {buf, buf + n, false};
    if (!same_inputs(&r, id, path, text, len, opts, prelude) || !same_sources(&r, opts))
        return NULL;
    return get_model(&r);
}

const unsigned char *cat_cache_model_bytes(const cat_model *m, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    put_model(f, m);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    unsigned char *copy = GC_MALLOC_ATOMIC(n ? n : 1);
    memcpy(copy, buf, n);
    free(buf);
    *len = n;
    return copy;
}
