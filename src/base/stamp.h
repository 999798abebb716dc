/*
 * base/stamp.h: the stamp of an exported document (docs/tables-format.md,
 * "Stamp"): what `scopecheck export` writes and `scopesim` checks.
 *
 * A document is a JSON object; its stamp is its member "stamp":
 *   {"algorithm": "sha256", "digest": D, "sections": {NAME: D, ...}}
 * where each D is the SHA-256 (base/canon.h) of a canonical text:
 *   digest:   the document without its "stamp" member;
 *   sections: one per member of "content" ("content.NAME"), except that a
 *             member holding an array of objects with a "name" is split
 *             per element ("content.controllers.L1"), and one for each
 *             other top-level member but the stamp ("verification").
 * The sections only say where an edit was made; the digest decides.
 *
 * Contract.  stamp_make returns a new stamp object for `doc` (NULL when
 * out of memory).  stamp_check compares doc's stamp with what doc holds:
 * STAMP_OK, STAMP_MISSING (no stamp, or not an object with a digest),
 * STAMP_MISMATCH (the digest differs); for a mismatch it writes to `why`
 * (at most `whylen` bytes) the sections that differ, missing or extra
 * ("content.controllers.L1 differs; verification differs"), or "the stamp
 * itself was edited" when every section agrees.  No global state.
 */
#ifndef SCOPECHECK_BASE_STAMP_H
#define SCOPECHECK_BASE_STAMP_H

#include <jansson.h>
#include <stddef.h>

enum stamp_status { STAMP_OK, STAMP_MISSING, STAMP_MISMATCH, STAMP_NO_MEMORY };

json_t *stamp_make(const json_t *doc);
enum stamp_status stamp_check(const json_t *doc, char *why, size_t whylen);

#endif
