/* tests/fuzz/fuzz_enumerate.c: a litmus test (either dialect) through the
 * whole `litmus` pipeline: thread paths, candidate executions against the
 * dialect's bundled model, the herd block and the JSON line.  The budget is
 * tiny (3 threads, 16 instructions, 16 traces per thread, loops taken
 * once), so that each input takes milliseconds; a slow input within it is
 * a finding (libFuzzer's -timeout). */
#include "harness.h"
#include "keywords.h"
#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"
#include "report/report.h"

#define MAX_THREADS 3
#define MAX_INSTRS 16

static const char *const ops[] = {"/\\", "\\/", NULL};
static const char *const terms[] = {"P0:r0 == 0", "x == 1", "1:r1=0", "true", NULL};
static const char *const prefixes[] = {"~", "(", NULL};
static const char *const words[] = {
    "ld.weak r0, x", "ld.acquire.gpu r1, y", "st.relaxed.sys x, 1", "st.release.cta y, r0",
    "atom.add.relaxed.gpu r2, x, 1", "atom.cas.acq_rel.sys r0, x, 0, 1", "red.add.release.gpu x, 1",
    "fence.sc.cta", "fence.acq_rel.gpu", "bar.cta.sync 0", "bar.cta.arrive 0, 2", "mov r0, 1",
    "add r1, r0, 1", "beq r0, 0, L", "L:", "goto L", "|", ";",
    "atomic_store_explicit(x, 1, memory_order_release, memory_scope_device);",
    "r0 = atomic_load_explicit(x, memory_order_acquire, memory_scope_work_group);",
    "atomic_fetch_add_explicit(x, 1, memory_order_relaxed, memory_scope_device);",
    "atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);",
    "work_group_barrier(CLK_GLOBAL_MEM_FENCE);", "if (r0 == 1) {", "}", "while (r0 != 0) {",
    NULL,
};
static const fuzz_grammar grammar = {ops, terms, prefixes, words, ptx_keywords, "(", ")", 64};

static cat_model *ptx_model, *opencl_model;
static cat_workspace *ptx_ws, *opencl_ws;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    ptx_model = cat_load(FUZZ_MODELS_DIR "/ptx6.cat", stderr);
    opencl_model = cat_load(FUZZ_MODELS_DIR "/opencl.cat", stderr);
    if (!ptx_model || !opencl_model)
        abort();
    ptx_ws = cat_workspace_new(ptx_model);
    opencl_ws = cat_workspace_new(opencl_model);
    return 0;
}

static bool small(const litmus_test *t)
{
    int n = 0;
    for (int i = 0; i < t->nthreads; i++)
        n += t->threads[i].ninstrs;
    return t->nthreads <= MAX_THREADS && n <= MAX_INSTRS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    litmus_test *t = litmus_parse_text("fuzz.litmus", text, size, fuzz_sink());
    free(text);
    if (!t || !small(t))
        return 0;
    bool ptx = strcmp(t->arch, "PTX") == 0;
    cat_model *m = ptx ? ptx_model : opencl_model;
    enum_options eo = {.unroll = 1, .max_traces = 16, .races = true};
    check_result r;
    if (!enumerate_check(t, m, ptx ? ptx_ws : opencl_ws, &eo, &r, fuzz_sink()))
        return 0;
    report_info info = {.model = ptx ? "ptx6" : "opencl", .cat = m, .unroll = 1, .races = true};
    report_herd(fuzz_sink(), t, &r, &info);
    report_json(fuzz_sink(), t, &r, &info);
    return 0;
}

FUZZ_MUTATOR(grammar)
