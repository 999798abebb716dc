/*
 * tests/fuzz/mutate.h: structure-aware mutations shared by the fuzz
 * harnesses (docs/fuzzing.md).
 *
 * Byte mutations rarely grow an input into what breaks a front end: a
 * chain of ten thousand operators, a thousand nested parentheses, a
 * hundred threads or locations.  Each mutation below makes one such
 * shape from a valid-looking input, in the terms of the harness's
 * language (its `fuzz_grammar`):
 *
 *   chain    insert K copies of " OP TERM" after a token (a | b | ...);
 *   nest     wrap a span of the input in K "(" ... ")";
 *   prefix   insert K prefix operators (!!!!x, ~~~~r);
 *   lines    repeat a line K times, renaming in each copy either its
 *            short names (x -> x12, r0 -> r012) or every name that is
 *            not a keyword of the language (Load -> Load12), so that
 *            repeated lines declare new threads, locations, registers,
 *            messages, controllers, functions;
 *   column   repeat a "|"-separated column in every line that has one
 *            (a litmus program gains threads);
 *   number   replace a number by a boundary value (0, -1, 2^31, 2^63...);
 *   word     insert a keyword of the language.
 *
 * K is drawn up to `max_repeat` with a bias to small values.  Contract:
 * fuzz_mutate writes at most `max_size` bytes into data (which holds
 * max_size) and returns the new size; it is deterministic in `seed`.
 */
#ifndef SCOPECHECK_FUZZ_MUTATE_H
#define SCOPECHECK_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_grammar {
    const char *const *chain_ops;    /* binary operators ("|", ";", "+") */
    const char *const *terms;        /* operands for chains ("po", "1") */
    const char *const *prefixes;     /* prefix operators ("!", "~", "-") */
    const char *const *words;        /* keywords and punctuation worth inserting */
    const char *const *keywords;     /* names a renamed copy of a line keeps */
    const char *open, *close;        /* nesting brackets: "(" and ")" */
    int max_repeat;                  /* the largest K */
} fuzz_grammar;

size_t fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned seed, const fuzz_grammar *g);

/* The custom mutator every harness installs: half of the time libFuzzer's
 * own byte mutation, else one structural mutation. */
size_t fuzz_custom_mutator(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                           const fuzz_grammar *g);

#endif
