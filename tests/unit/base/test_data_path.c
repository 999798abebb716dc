/* test_data_path.c: unit tests of base/data_path.h, the bundled files by
 * name.  bin/unit_tests is PREFIX/bin/unit_tests of the build tree, so its
 * bundled tree is the repository's (models/, litmus/); the tests run from
 * a scratch directory so that nothing is found from the current one. */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/data_path.h"
#include "unit_suites.h"

static char saved_cwd[4096];
static char scratch[] = "/tmp/scopecheck_data_path_XXXXXX";

static int enter_scratch(void)
{
    if (!getcwd(saved_cwd, sizeof saved_cwd) || !mkdtemp(scratch))
        return 1;
    return chdir(scratch);
}

static int leave_scratch(void)
{
    int status = chdir(saved_cwd);
    rmdir(scratch);
    return status;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* False, with a note, for a test binary outside PREFIX/bin (the ASan
 * build's build/asan/unit_tests): it has no bundled tree to find. */
static bool bundled_tree(void)
{
    if (data_path_bundled("models/sim"))
        return true;
    fputs("(no bundled tree beside this binary: skipped) ", stderr);
    return false;
}

/* A system and a workload by name, a mutant by its path in the tree. */
static void test_named(void)
{
    if (!bundled_tree())
        return;
    const char *sys = data_path_named("tiny", "models/sim", ".sys");
    CU_ASSERT(sys[0] == '/' && ends_with(sys, "/models/sim/tiny.sys"));
    CU_ASSERT(ends_with(data_path_named("stream", "models/sim", ".wl"), "/models/sim/stream.wl"));
    CU_ASSERT(ends_with(data_path_arg("models/mutants/gpu_vi_no_acquire_inval.proto"),
                        "/models/mutants/gpu_vi_no_acquire_inval.proto"));
}

/* A suite by its path in the tree, or under litmus/. */
static void test_suites(void)
{
    if (!bundled_tree())
        return;
    CU_ASSERT(ends_with(data_path_arg("litmus/ptx/proxy"), "/litmus/ptx/proxy"));
    CU_ASSERT(ends_with(data_path_arg("ptx/proxy"), "/litmus/ptx/proxy"));
}

/* What is not bundled comes back as given, for the caller's error; an
 * absolute path is never looked up. */
static void test_not_found(void)
{
    CU_ASSERT_STRING_EQUAL(data_path_named("nosuch", "models/sim", ".sys"), "nosuch");
    CU_ASSERT_STRING_EQUAL(data_path_arg("no/such.litmus"), "no/such.litmus");
    CU_ASSERT_STRING_EQUAL(data_path_arg("/models/sc.cat"), "/models/sc.cat");
    CU_ASSERT_PTR_NULL(data_path_bundled("/etc"));
    CU_ASSERT_PTR_NULL(data_path_bundled(""));
}

/* A plugin is looked for beside the running program first (here: the
 * test binary itself stands for a file beside it), then in
 * ../lib/scopecheck/; what is in neither place, or is not a file name, is
 * NULL, and `looked` names both places tried. */
static void test_plugin(void)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    CU_ASSERT_FATAL(len > 0);
    self[len] = '\0';
    const char *name = strrchr(self, '/') + 1;
    const char *looked = NULL;
    CU_ASSERT_STRING_EQUAL(data_path_plugin(name, &looked), self);
    CU_ASSERT_PTR_NOT_NULL_FATAL(looked);
    CU_ASSERT_PTR_NULL(data_path_plugin("no-such-plugin.so", &looked));
    CU_ASSERT(strstr(looked, "/no-such-plugin.so, ") != NULL);
    CU_ASSERT(ends_with(looked, "/../lib/scopecheck/no-such-plugin.so"));
    CU_ASSERT_PTR_NULL(data_path_plugin("", NULL));
    CU_ASSERT_PTR_NULL(data_path_plugin("lib/x.so", NULL));
}

void register_data_path_tests(void)
{
    CU_pSuite s = CU_add_suite("base data_path", enter_scratch, leave_scratch);
    CU_add_test(s, "systems, workloads and mutants by name", test_named);
    CU_add_test(s, "litmus suites by path", test_suites);
    CU_add_test(s, "what is not bundled", test_not_found);
    CU_add_test(s, "plugins beside the program or in lib/scopecheck", test_plugin);
}
