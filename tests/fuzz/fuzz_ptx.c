/* tests/fuzz/fuzz_ptx.c: the PTX litmus front end (litmus/read.c's checks,
 * then litmus/ptx.c and the final condition). */
#include "harness.h"
#include "keywords.h"
#include "litmus/read.h"

static const char *const ops[] = {"/\\", "\\/", NULL};
static const char *const terms[] = {"P0:r0 == 0", "x == 1", "1:r1=0", "true", "~false", NULL};
static const char *const prefixes[] = {"~", "(", NULL};
static const char *const words[] = {
    "PTX", "{", "}", ";", "|", ",", "exists", "~exists", "forall", "locations", "[", "]",
    "P0@cta 0,gpu 0", "P5@cta 3,gpu 2", "x=0;", "1:r0=1;", "ld.weak r0, x", "ld.acquire.gpu r1, y",
    "st.relaxed.sys x, 1", "st.release.cta y, r0", "atom.add.relaxed.gpu r2, x, 1",
    "atom.cas.acq_rel.sys r0, x, 0, 1", "red.add.release.gpu x, 1", "fence.sc.cta", "fence.acq_rel.gpu",
    "fence.proxy.alias", "membar.gl", "bar.cta.sync 0", "bar.cta.arrive 1, 2", "barrier.sync 0",
    "mov r0, 1", "add r1, r0, 1", "mul r2, r1, r1", "beq r0, 0, L", "bne r1, 1, L", "L:", "goto L",
    ".texture", ".surface", ".constant", "x @ .texture aliases y", NULL,
};
static const fuzz_grammar grammar = {ops, terms, prefixes, words, ptx_keywords, "(", ")", 8192};

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
