/*
 * tests/fuzz/harness.h: what every fuzz harness shares (docs/fuzzing.md).
 *
 * A harness defines LLVMFuzzerTestOneInput over one front end (and, for
 * two of them, the engine behind it with a tiny budget), a fuzz_grammar for
 * the structure-aware mutator (mutate.h) and FUZZ_MUTATOR(grammar).  It is
 * built two ways: with clang's libFuzzer for campaigns (`make fuzz`), and
 * with gcc, ASan, UBSan and tests/fuzz/replay.c to replay the committed
 * corpora and crash inputs in `make test`.
 *
 * Inputs are copied into a buffer with a NUL after the last byte, as
 * base/textfile.h delivers files.  Diagnostics and reports go to a sink
 * (/dev/null): their code runs, their text is not looked at.
 */
#ifndef SCOPECHECK_FUZZ_HARNESS_H
#define SCOPECHECK_FUZZ_HARNESS_H

#include <gc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutate.h"

/* The models/ folder of the source tree (set by the Makefile). */
#ifndef FUZZ_MODELS_DIR
#define FUZZ_MODELS_DIR "models"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static FILE *fuzz_sink_file;

static inline FILE *fuzz_sink(void)
{
    if (!fuzz_sink_file)
        fuzz_sink_file = fopen("/dev/null", "w");
    return fuzz_sink_file;
}

/* A NUL-terminated copy of the input (malloc'd: the caller frees it). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

#define FUZZ_MUTATOR(grammar)                                                                      \
    size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) \
    {                                                                                              \
        return fuzz_custom_mutator(data, size, max_size, seed, &(grammar));                        \
    }

#endif
