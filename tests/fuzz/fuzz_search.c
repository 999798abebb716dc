/* tests/fuzz/fuzz_search.c: a protocol (and, after a line "%%", a litmus
 * test; MP-release on two CUs otherwise) instantiated and searched with a
 * tiny budget (2,000 states): the layout, the interpreter's successors,
 * final states and invariants, traces of deadlocks and unhandled events. */
#include "harness.h"
#include "keywords.h"
#include "litmus/read.h"
#include "protocol/protocol.h"
#include "search/bfs.h"

static const char *const ops[] = {"+", "-", "*", "/", "%", "==", "!=", "<", "&&", "||", NULL};
static const char *const terms[] = {"1", "addr", "NCU", "line.val", "acks", "msg.val", "(1 + 2)", NULL};
static const char *const prefixes[] = {"!", "-", "(", NULL};
static const char *const words[] = {
    "send", "recv", "done", "wait", "stall", "invalidate", "invalidate_all", "set", "push", "pop", "clear",
    "reg :=", "line.val :=", "acks += 1", "|", ";", "load.weak", "store.release.gpu", "rmw.*.*",
    "fence.sc.*", "capacity", "unordered", "sliced 2", "per gpu", "NSLICE=2", "%%", "\n", NULL,
};
static const fuzz_grammar grammar = {ops, terms, prefixes, words, protocol_keywords, "(", ")", 256};

static const char default_test[] =
    "PTX MP-release\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu x, 1 | ld.acquire.gpu r1, y ;\n"
    " atom.release.gpu.exch r0, y, 1 | ld.relaxed.gpu r2, x ;\n"
    "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";
static litmus_test *mp;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    mp = litmus_parse_text("mp.litmus", default_test, sizeof default_test - 1, stderr);
    if (!mp)
        abort();
    return 0;
}

typedef struct finals { const proto_instance *in; lit_value *values; } finals;

static void on_final(void *ctx, const uint8_t *state, uint32_t index)
{
    finals *f = ctx;
    (void)index;
    proto_final_values(f->in, state, f->values);
}

static void search(proto_instance *in, const litmus_test *t)
{
    finals f = {in, GC_MALLOC_ATOMIC(sizeof(lit_value) * (size_t)(t->nobserved + 1))};
    bfs_options bo = {.max_states = 2000, .timeout_s = 2, .on_final = on_final, .final_ctx = &f};
    bfs_result r;
    bfs_search *s = bfs_run(proto_nsi(in), &bo, &r);
    if (!s)
        return;
    for (int i = 0; i < r.deadlocks_kept; i++)
        bfs_print_trace(s, r.deadlock_index[i], fuzz_sink());
    if (r.stop == BFS_VIOLATION)
        bfs_print_trace(s, r.violation_index, fuzz_sink());
    bfs_print_stats(&r, fuzz_sink());
    proto_unhandled_pair pairs[8];
    proto_unhandled(in, pairs, 8);
    bfs_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *split = strstr(text, "\n%%\n");
    size_t proto_len = split ? (size_t)(split - text) + 1 : size;
    litmus_test *t = mp;
    if (split) {
        split[1] = '\0';
        const char *lit = split + 4;
        t = litmus_parse_text("fuzz.litmus", lit, size - (size_t)(lit - text), fuzz_sink());
    }
    protocol *p = t ? protocol_parse_buffer(FUZZ_MODELS_DIR "/mutants/fuzz.proto", text, proto_len,
                                            fuzz_sink())
                    : NULL;
    free(text);
    proto_instance *in = p ? proto_instantiate(p, t, NULL, fuzz_sink()) : NULL;
    if (in)
        search(in, t);
    return 0;
}

FUZZ_MUTATOR(grammar)
