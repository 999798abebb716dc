/*
 * litmus/hash.h: herd7's digest of a litmus test (the `Hash=` line).
 *
 * herd7 and mcompare7 match a test across logs by its hash: the MD5 (hex)
 * of the concatenated MD5s of three canonical texts (herdtools7's TestHash
 * and CTestHash):
 *   init      the initial state, entries sorted (registers "P:r" by thread
 *             then name, before locations by name), "loc=v" or "type loc=v",
 *             joined by "; ";
 *   code      the threads side by side as herd prints a program: row by row,
 *             each cell " %-*s " padded to its column's widest cell, cells
 *             joined by "|", each row ended by ";\n";
 *   observed  the locations the condition and the `locations` clause name,
 *             sorted the same way, joined by "; ".
 * For herd's C tests, a thread's only cell is "P<n>(<type>* <param>, ...)
 * {\n<body as written between the braces>\n}\n" with the parameters'
 * types printed the way herd prints C types (herd_hash_c_cell); the texts
 * match herd7 7.58's byte for byte (read from herd7 itself under gdb at
 * caml_MD5Update; tests/unit/litmus/test_hash.c).
 *
 * Contract.  The builders return GC strings; herd_hash_digest writes 32 hex
 * digits and a NUL.  litmus_herd_hash() returns t->hash when the front end
 * set it (a dialect herd7 reads, computed from its own parse), otherwise
 * the same recipe over scopecheck's reading of the test: locations with
 * their initial values, registers with a non-zero initial value, each
 * thread's instructions as written (blanks collapsed, one cell each) and
 * the observed locations.  herd7 has no PTX or OpenCL reader, so those
 * hashes cannot be compared with a herd7 log; they identify a test across
 * scopecheck runs whatever its layout and comments.
 */
#ifndef SCOPECHECK_LITMUS_HASH_H
#define SCOPECHECK_LITMUS_HASH_H

#include "litmus/litmus.h"

/* One entry of the initial state: thread -1 for a location. */
typedef struct herd_init_item {
    int thread;
    const char *name;
    const char *type;        /* as written ("int", "_Atomic int"), or NULL */
    lit_value value;
} herd_init_item;

const char *herd_hash_init_text(const herd_init_item *items, int n);

/* Columns of cells: column c has ncells[c] cells, cells[c][k]. */
const char *herd_hash_code_text(int ncols, const char *const *const *cells, const int *ncells);

const char *herd_hash_observed_text(const litmus_test *t);

/* "P0(int* x, _Atomic int* y) {\nBODY\n}\n": types are herd's C types without
 * their top-level '*' (herd_hash_c_type gives herd's spelling). */
const char *herd_hash_c_cell(int proc, int nparams, const char *const *types, const char *const *names,
                             const char *body);

/* herd's spelling of a C type written as `text` (without the top-level
 * '*'): "const int" is "int const", "atomic_int" is "_Atomic int". */
const char *herd_hash_c_type(const char *text);

void herd_hash_digest(const char *init, const char *code, const char *observed, char hex[33]);

/* The test's hash (see above): 32 hex digits, a GC string. */
const char *litmus_herd_hash(const litmus_test *t);

#endif
