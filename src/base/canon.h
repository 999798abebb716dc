/*
 * base/canon.h: the canonical text of a JSON value and SHA-256 digests,
 * the one definition that `scopecheck export` (which stamps exported
 * tables) and `scopesim` (which checks the stamp) share.
 *
 * Contract.  canon_text returns the canonical text of a JSON value: no
 * whitespace, object members sorted by key (byte order), integers in
 * decimal, strings with jansson's escapes (\" \\ \b \f \n \r \t, \u00XX
 * for other control characters, \uXXXX for every non-ASCII character), so
 * that `jq -acS . | tr -d '\n'` reproduces it for the documents we write
 * (docs/tables-format.md).  Reals never occur in stamped documents.  The
 * text is malloc'ed (free it); NULL when out of memory.  canon_sha256 is
 * the SHA-256 of that text as 64 lower-case hexadecimal digits; false when
 * out of memory.  sha256_hex digests any bytes.  Nothing here keeps state.
 */
#ifndef SCOPECHECK_BASE_CANON_H
#define SCOPECHECK_BASE_CANON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define CANON_HEX_LEN 64

char *canon_text(const json_t *v);
bool canon_sha256(const json_t *v, char hex[CANON_HEX_LEN + 1]);
void sha256_hex(const void *data, size_t n, char hex[CANON_HEX_LEN + 1]);

#endif
