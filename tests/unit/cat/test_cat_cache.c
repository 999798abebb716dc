/* test_cat_cache.c: unit tests of cat/cache.h, compiled models kept on disk.
 * Each case builds a model and its includes in a scratch directory, loads
 * it once through cat_load_opts with a cache directory (which compiles and
 * stores), then asks the cache directly: a hit must give the very model a
 * compilation gives (the same bytes, the same prunable checks), and any
 * change to what the compilation read must be a miss. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cat/ast.h"
#include "cat/cache.h"
#include "cat/cat.h"
#include "unit_suites.h"

static char scratch[] = "/tmp/scopecheck_cat_cache_XXXXXX";

static int make_scratch(void) { return mkdtemp(scratch) ? 0 : 1; }

static int remove_scratch(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : 1;
}

/* scratch/REL (GC string). */
static const char *at(const char *rel)
{
    size_t size = strlen(scratch) + strlen(rel) + 2;
    char *p = GC_MALLOC_ATOMIC(size);
    snprintf(p, size, "%s/%s", scratch, rel);
    return p;
}

static void write_file(const char *rel, const char *text)
{
    const char *path = at(rel);
    char *dir = GC_STRDUP(path);
    for (char *c = dir + strlen(scratch) + 1; *c; c++)
        if (*c == '/') {
            *c = '\0';
            mkdir(dir, 0700);
            *c = '/';
        }
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static int entries(const char *cache)
{
    DIR *d = opendir(cache);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* The cache's answer for the model at rel (its text read here). */
static cat_model *cached(const char *rel, const cat_load_options *o)
{
    FILE *f = fopen(at(rel), "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    return cat_cache_load(at(rel), text, len, o, true);
}

static bool same_model(const cat_model *a, const cat_model *b)
{
    size_t na, nb;
    const unsigned char *ba = cat_cache_model_bytes(a, &na), *bb = cat_cache_model_bytes(b, &nb);
    if (!ba || !bb || na != nb || memcmp(ba, bb, na) != 0)
        return false;
    if (a->any_prunable != b->any_prunable || memcmp(a->prunable, b->prunable, (size_t)a->nchecks) != 0)
        return false;
    return !a->any_prunable ||
           memcmp(a->prune_skip, b->prune_skip, (size_t)a->blocks[a->co_block].ncode) == 0;
}

/* A compiled model comes back whole from the cache, in one entry file. */
static void test_hit(void)
{
    write_file("hit/inc.cat", "let com = rf | co | fr\n");
    write_file("hit/m.cat", "\"hit\"\ninclude \"inc.cat\"\nacyclic po | com as sc\nempty rmw & (fr; co) as atomic\n");
    cat_load_options o = {.cache_dir = at("hit/cache")};
    cat_model *compiled = cat_load_opts(at("hit/m.cat"), &o, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(compiled);
    CU_ASSERT_EQUAL(entries(o.cache_dir), 1);
    cat_model *back = cached("hit/m.cat", &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    CU_ASSERT(same_model(compiled, back));
    CU_ASSERT_STRING_EQUAL(cat_model_title(back), "hit");
    /* and through cat_load_opts, which keeps the source for drawings */
    cat_model *again = cat_load_opts(at("hit/m.cat"), &o, stderr);
    CU_ASSERT(again && same_model(compiled, again) && again->source_text && again->source_len > 0);
    /* without a cache directory nothing is looked up */
    cat_load_options none = {0};
    CU_ASSERT_PTR_NULL(cached("hit/m.cat", &none));
}

/* An include changed, even to a text of the same length: a miss; the next
 * load compiles the new model and replaces the entry. */
static void test_changed_include(void)
{
    write_file("inc/inc.cat", "let com = rf | co | fr\n");
    write_file("inc/m.cat", "include \"inc.cat\"\nacyclic po | com as sc\n");
    cat_load_options o = {.cache_dir = at("inc/cache")};
    CU_ASSERT_PTR_NOT_NULL_FATAL(cat_load_opts(at("inc/m.cat"), &o, stderr));
    CU_ASSERT_PTR_NOT_NULL(cached("inc/m.cat", &o));
    write_file("inc/inc.cat", "let com = rf | co & fr\n");
    CU_ASSERT_PTR_NULL(cached("inc/m.cat", &o));
    cat_model *fresh = cat_load_opts(at("inc/m.cat"), &o, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fresh);
    cat_model *back = cached("inc/m.cat", &o);
    CU_ASSERT(back && same_model(fresh, back));
    CU_ASSERT_EQUAL(entries(o.cache_dir), 1);
}

/* A file of the same name earlier in the search path, or a prelude that
 * appears, changes what the parse would read: a miss. */
static void test_search_path(void)
{
    write_file("sp/d2/lib.cat", "let com = rf | co | fr\n");
    write_file("sp/m.cat", "include \"lib.cat\"\nacyclic po | com as sc\n");
    const char *dirs[] = {at("sp/d1"), at("sp/d2")};
    cat_load_options o = {.dirs = dirs, .ndirs = 2, .cache_dir = at("sp/cache")};
    CU_ASSERT_PTR_NOT_NULL_FATAL(cat_load_opts(at("sp/m.cat"), &o, stderr));
    CU_ASSERT_PTR_NOT_NULL(cached("sp/m.cat", &o));
    write_file("sp/d1/stdlib.cat", "let stdlib_marker = po\n");
    CU_ASSERT_PTR_NULL(cached("sp/m.cat", &o));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cat_load_opts(at("sp/m.cat"), &o, stderr));
    CU_ASSERT_PTR_NOT_NULL(cached("sp/m.cat", &o));
    write_file("sp/d1/lib.cat", "let com = rf | co | fr\n"); /* same text, another file */
    CU_ASSERT_PTR_NULL(cached("sp/m.cat", &o));
    /* other options are other entries */
    CU_ASSERT_PTR_NOT_NULL_FATAL(cat_load_opts(at("sp/m.cat"), &o, stderr));
    const char *variants[] = {"mixed"};
    cat_load_options v = o;
    v.variants = variants, v.nvariants = 1;
    CU_ASSERT_PTR_NULL(cached("sp/m.cat", &v));
    CU_ASSERT_PTR_NOT_NULL(cached("sp/m.cat", &o));
}

/* A damaged or truncated entry is a miss, and the load still compiles. */
static void test_damaged(void)
{
    write_file("dm/m.cat", "acyclic po | rf | co | fr as sc\n");
    cat_load_options o = {.cache_dir = at("dm/cache")};
    cat_model *compiled = cat_load_opts(at("dm/m.cat"), &o, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(compiled);
    DIR *d = opendir(o.cache_dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    while ((e = readdir(d)) && e->d_name[0] == '.')
        ;
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    char entry[512];
    snprintf(entry, sizeof entry, "%s/%s", o.cache_dir, e->d_name);
    closedir(d);
    struct stat st;
    CU_ASSERT_FATAL(stat(entry, &st) == 0);
    FILE *f = fopen(entry, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, st.st_size / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, st.st_size / 2, SEEK_SET);
    fputc(c ^ 0x40, f);
    fclose(f);
    CU_ASSERT_PTR_NULL(cached("dm/m.cat", &o));
    CU_ASSERT_FATAL(truncate(entry, st.st_size - 9) == 0);
    CU_ASSERT_PTR_NULL(cached("dm/m.cat", &o));
    cat_model *again = cat_load_opts(at("dm/m.cat"), &o, stderr);
    CU_ASSERT(again && same_model(compiled, again));
    CU_ASSERT_PTR_NOT_NULL(cached("dm/m.cat", &o));
}

/* A cache directory that cannot be made: the model loads all the same. */
static void test_unwritable(void)
{
    write_file("uw/m.cat", "acyclic po | rf | co | fr as sc\n");
    write_file("uw/file", "a file, not a directory\n");
    cat_load_options o = {.cache_dir = at("uw/file/cache")};
    cat_model *m = cat_load_opts(at("uw/m.cat"), &o, stderr);
    CU_ASSERT_PTR_NOT_NULL(m);
    CU_ASSERT_PTR_NULL(cached("uw/m.cat", &o));
}

/* A model that fails to load is not kept. */
static void test_failure_not_kept(void)
{
    write_file("fl/m.cat", "acyclic po | nosuch as sc\n");
    cat_load_options o = {.cache_dir = at("fl/cache")};
    FILE *devnull = fopen("/dev/null", "w");
    CU_ASSERT_PTR_NULL(cat_load_opts(at("fl/m.cat"), &o, devnull));
    fclose(devnull);
    CU_ASSERT_EQUAL(entries(o.cache_dir), 0);
}

void register_cat_cache_tests(void)
{
    CU_pSuite s = CU_add_suite("cat cache", make_scratch, remove_scratch);
    CU_add_test(s, "a compiled model comes back whole", test_hit);
    CU_add_test(s, "a changed include is a miss", test_changed_include);
    CU_add_test(s, "the search path and the prelude are checked", test_search_path);
    CU_add_test(s, "a damaged entry is a miss", test_damaged);
    CU_add_test(s, "an unwritable cache is no cache", test_unwritable);
    CU_add_test(s, "a failed load is not kept", test_failure_not_kept);
}
