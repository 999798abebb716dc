/* tests/fuzz/fuzz_c.c: a C11 litmus test (litmus/c/, herd7's C dialect)
 * through the reader, and when it is read and small (3 threads, 16
 * instructions), through the `litmus` pipeline against the bundled sc
 * model (herd's C models are not bundled) with a tiny budget (16 traces
 * per thread, loops taken once), the herd block and the JSON line.  Seeds:
 * litmus/c11 and tests/bad/c (scripts/fuzz_seeds.sh c). */
#include "harness.h"
#include "keywords.h"
#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"
#include "report/report.h"

#define MAX_THREADS 3
#define MAX_INSTRS 16

static const char *const ops[] = {"+", "-", "*", "&", "|", "^", "&&", "||", "==", "!=", "<", "<=", ">", ">=", NULL};
static const char *const terms[] = {"r0", "1", "*x", "atomic_load(x)", "(r1 + 2)", "x + r0", NULL};
static const char *const prefixes[] = {"!", "-", "+", "*", "(", NULL};
static const char *const words[] = {
    "C", "{", "}", "(", ")", ";", ",", "=", "exists", "~exists", "forall", "locations [x; y;]", "x = 0;",
    "atomic_int y[2] = {0, 0};", "P0 (atomic_int* x, atomic_int* y)", "P1 (atomic_int* y, int* z)",
    "int r0 = 0;", "if (r0 == 1) {", "} else {", "while (r0 != 0) {", "do {", "} while (r1);",
    "atomic_store_explicit(x, 1, memory_order_release);",
    "int r1 = atomic_load_explicit(y, memory_order_acquire);",
    "atomic_load_explicit(x + (r0 & 128), memory_order_consume)",
    "atomic_fetch_add_explicit(x, 1, memory_order_relaxed)",
    "atomic_compare_exchange_strong_explicit(x, &r0, 1, memory_order_seq_cst, memory_order_relaxed)",
    "atomic_exchange_explicit(x, 2, memory_order_acq_rel)", "atomic_thread_fence(memory_order_seq_cst);",
    "*z = 1;", "int r2 = *z;", "0:r0 = 1", "[x] = 1", "memory_order_relaxed", "memory_order_seq_cst",
    NULL,
};
static const fuzz_grammar grammar = {ops, terms, prefixes, words, c_keywords, "(", ")", 8192};

static cat_model *model;
static cat_workspace *ws;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    model = cat_load(FUZZ_MODELS_DIR "/sc.cat", stderr);
    if (!model)
        abort();
    ws = cat_workspace_new(model);
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
    enum_options eo = {.unroll = 1, .max_traces = 16, .races = true};
    check_result r;
    if (!enumerate_check(t, model, ws, &eo, &r, fuzz_sink()))
        return 0;
    report_info info = {.model = "sc", .cat = model, .unroll = 1, .races = true};
    report_herd(fuzz_sink(), t, &r, &info);
    report_json(fuzz_sink(), t, &r, &info);
    return 0;
}

FUZZ_MUTATOR(grammar)
