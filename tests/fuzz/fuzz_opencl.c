/* tests/fuzz/fuzz_opencl.c: the OpenCL C litmus front end (litmus/opencl/). */
#include "harness.h"
#include "keywords.h"
#include "litmus/read.h"

static const char *const ops[] = {"+", "-", "*", "&", "|", "^", "&&", "||", "==", "!=", NULL};
static const char *const terms[] = {"r0", "1", "*x", "atomic_load(x)", "(r1 + 2)", NULL};
static const char *const prefixes[] = {"!", "-", "+", "*", "(", NULL};
static const char *const words[] = {
    "OPENCL", "{", "}", "(", ")", ";", ",", "=", "exists", "~exists", "forall", "[x] = 0;",
    "P0@wg 0, dev 0 (global atomic_int* x, global int* y)", "P1@wg 1, dev 1 (local atomic_int* z)",
    "int r0 = 0;", "if (r0 == 1) {", "} else {", "while (r0 != 0) {", "do {", "} while (r1);", "goto L;",
    "L:", "atomic_store_explicit(x, 1, memory_order_release, memory_scope_device);",
    "atomic_load_explicit(x, memory_order_acquire, memory_scope_work_group)",
    "atomic_fetch_add_explicit(x, 1, memory_order_relaxed, memory_scope_device)",
    "atomic_fetch_add_explicit_remote(x, 1, memory_order_acq_rel, memory_scope_device)",
    "atomic_compare_exchange_strong_explicit(x, &r0, 1, memory_order_seq_cst, memory_order_relaxed, "
    "memory_scope_all_svm_devices)",
    "atomic_exchange(x, 2)", "atomic_init(x, 0);",
    "atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);",
    "work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);", "barrier(CLK_GLOBAL_MEM_FENCE);",
    "memory_order_relaxed", "memory_scope_work_item", "atomic_int", "atomic_uint", "global", "local",
    NULL,
};
static const fuzz_grammar grammar = {ops, terms, prefixes, words, opencl_keywords, "(", ")", 8192};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    litmus_parse_text("fuzz.litmus", text, size, fuzz_sink());
    free(text);
    return 0;
}

FUZZ_MUTATOR(grammar)
