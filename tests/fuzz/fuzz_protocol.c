/* tests/fuzz/fuzz_protocol.c: the protocol table front end (lexer, parser,
 * name resolution, variants through `extends`). */
#include "harness.h"
#include "keywords.h"
#include "protocol/protocol.h"

static const char *const ops[] = {"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", NULL};
static const char *const terms[] = {"1", "addr", "NCU", "line.val", "acks", "msg.val", "(1 + 2)",
                                    "cond(1, 2, 3)", "len(q)", NULL};
static const char *const prefixes[] = {"!", "-", "(", NULL};
static const char *const words[] = {
    "protocol", "extends", "\"gpu_vi.proto\"", "const", "value", "wrap", "message", "channel", "controller",
    "states", "field", "var", "final", "memory", "invariant", "home", "table", "end", "per cu", "per gpu",
    "shared", "sliced", "processor", "from", "each", "to", "fifo", "unordered", "capacity", "vnet", "init",
    "keep", "bits", "array", "fifo 2 of", "of", "at", "|", ";", ":", ",", ".", "..", ":=", "+=", "-=", "*",
    "load.weak", "store.release.gpu", "rmw.*.sys", "fence.sc.*", "recv", "send", "done", "wait", "stall",
    "invalidate", "invalidate_all", "set", "push", "pop", "clear", "reg", "rmw(msg.val, 1)", "has(s, 1)",
    "each s", "all", "[", "]", "NGPU", "NADDR", "NTHREADS", "MAXOPS", "state", "order", "cu", "gpu", "#",
    "\n", NULL,
};
static const fuzz_grammar grammar = {ops, terms, prefixes, words, protocol_keywords, "(", ")", 8192};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    /* named inside models/mutants/, as the mutants are, so that their
     * `extends "../gpu_vi.proto"` finds its base */
    protocol_parse_buffer(FUZZ_MODELS_DIR "/mutants/fuzz.proto", text, size, fuzz_sink());
    free(text);
    return 0;
}

FUZZ_MUTATOR(grammar)
