/* tests/fuzz/fuzz_cat.c: the cat front end (lexer, parser, compiler), then
 * the model on the executions of a small fixed test (evaluation, `with`
 * linearisations, flags): a model that compiles must also run; and, as a
 * drawing would, the model compiled with its shows (cat/explain.h) on every
 * execution, consistent or rejected. */
#include "harness.h"
#include "keywords.h"
#include "cat/cat.h"
#include "cat/explain.h"
#include "enumerate/enumerate.h"
#include "litmus/read.h"

static const char *const ops[] = {"|", ";", "&", "\\", "*", NULL};
static const char *const terms[] = {"po", "rf", "co", "fr", "[W]", "loc", "ext", "(po | rf)", "0", "id", NULL};
static const char *const prefixes[] = {"~", "(", "[", NULL};
static const char *const words[] = {
    "let", "let rec", "and", "as", "flag", "acyclic", "irreflexive", "empty", "include", "show",
    "unshow", "with", "from", "linearisations(W, co)", "option co = partial",
    "option thread-coherence = enforced", "option thin-air = allowed", "option flags = undefined",
    "^-1", "+", "*", "?", "domain(po)", "range(rf)", "f(x) = x | po", "f(po)", "=", "(*", "*)", "\"t\"",
    "R", "W", "M", "F", "_", "sc", "acq", "rel", "rmw", "addr", "data", "ctrl", "int", "syncbar",
    NULL,
};
static const fuzz_grammar grammar = {ops, terms, prefixes, words, cat_keywords, "(", ")", 8192};

static const char test_text[] =
    "PTX MP\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu x, 1 | ld.acquire.gpu r1, y ;\n"
    " st.release.gpu y, 1 | ld.relaxed.gpu r2, x ;\nexists (P1:r1 == 1 /\\ P1:r2 == 0)\n";
static litmus_test *test;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    test = litmus_parse_text("mp.litmus", test_text, sizeof test_text - 1, stderr);
    if (!test)
        abort();
    return 0;
}

static void explain(void *ctx, const exec *x, const enum_event_info *events, int n, const lit_value *state,
                    bool holds, unsigned flags)
{
    (void)events, (void)n, (void)state, (void)holds, (void)flags;
    const cat_explained *items;
    const char *other;
    int count = cat_explain(ctx, x, &items, &other);
    for (int i = 0; i < count; i++)
        if (!items[i].name || (!items[i].rel && !items[i].set))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    cat_model *m = cat_load_text("fuzz.cat", text, size, fuzz_sink());
    free(text);
    if (!m)
        return 0;
    enum_options eo = {.unroll = 1, .max_traces = 16, .races = true};
    check_result r;
    enumerate_check(test, m, cat_workspace_new(m), &eo, &r, fuzz_sink());
    cat_explainer *e = cat_explainer_new(m, fuzz_sink());
    if (e) {
        eo.on_execution = eo.on_rejected = explain;
        eo.execution_ctx = e;
        enumerate_check(test, m, cat_workspace_new(m), &eo, &r, fuzz_sink());
    }
    return 0;
}

FUZZ_MUTATOR(grammar)
