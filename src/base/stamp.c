/* base/stamp.c: making and checking a document's stamp (see base/stamp.h). */
#include "base/stamp.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/canon.h"

static bool add_digest(json_t *sections, const char *name, const json_t *v)
{
    char hex[CANON_HEX_LEN + 1];
    if (!canon_sha256(v, hex))
        return false;
    return json_object_set_new(sections, name, json_string(hex)) == 0;
}

/* An array whose every element is an object with a string "name". */
static bool named_array(const json_t *v)
{
    if (!json_is_array(v) || json_array_size(v) == 0)
        return false;
    size_t i;
    json_t *el;
    json_array_foreach(v, i, el) if (!json_is_string(json_object_get(el, "name"))) return false;
    return true;
}

static bool content_sections(json_t *sections, const json_t *content)
{
    const char *key;
    json_t *v;
    char name[512];
    json_object_foreach((json_t *)content, key, v) {
        if (!named_array(v)) {
            snprintf(name, sizeof name, "content.%s", key);
            if (!add_digest(sections, name, v))
                return false;
            continue;
        }
        size_t i;
        json_t *el;
        json_array_foreach(v, i, el) {
            snprintf(name, sizeof name, "content.%s.%s", key, json_string_value(json_object_get(el, "name")));
            if (!add_digest(sections, name, el))
                return false;
        }
    }
    return true;
}

static json_t *sections_of(const json_t *doc)
{
    json_t *sections = json_object();
    const char *key;
    json_t *v;
    bool ok = sections != NULL;
    json_object_foreach((json_t *)doc, key, v) {
        if (!ok || !strcmp(key, "stamp"))
            continue;
        if (!strcmp(key, "content") && json_is_object(v))
            ok = content_sections(sections, v);
        else
            ok = add_digest(sections, key, v);
    }
    if (!ok)
        json_decref(sections);
    return ok ? sections : NULL;
}

/* SHA-256 of the document without its stamp. */
static bool document_digest(const json_t *doc, char hex[CANON_HEX_LEN + 1])
{
    json_t *copy = json_copy((json_t *)doc);
    if (!copy)
        return false;
    json_object_del(copy, "stamp");
    bool ok = canon_sha256(copy, hex);
    json_decref(copy);
    return ok;
}

json_t *stamp_make(const json_t *doc)
{
    char hex[CANON_HEX_LEN + 1];
    json_t *sections = sections_of(doc);
    if (!sections || !document_digest(doc, hex)) {
        json_decref(sections);
        return NULL;
    }
    return json_pack("{s:s, s:s, s:o}", "algorithm", "sha256", "digest", hex, "sections", sections);
}

static void append(char *why, size_t whylen, const char *what, const char *name)
{
    size_t used = strlen(why);
    if (used + 1 < whylen)
        snprintf(why + used, whylen - used, "%s%s %s", used ? "; " : "", name, what);
}

/* Names the sections of `now` that differ from `stamped`, or are missing
 * from either. */
static void explain(const json_t *stamped, const json_t *now, char *why, size_t whylen)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)now, key, v) {
        json_t *was = json_object_get(stamped, key);
        if (!was)
            append(why, whylen, "was added", key);
        else if (!json_equal(was, v))
            append(why, whylen, "differs", key);
    }
    json_object_foreach((json_t *)stamped, key, v) if (!json_object_get(now, key))
        append(why, whylen, "was removed", key);
    if (!why[0])
        snprintf(why, whylen, "the stamp itself was edited");
}

enum stamp_status stamp_check(const json_t *doc, char *why, size_t whylen)
{
    char hex[CANON_HEX_LEN + 1];
    if (whylen)
        why[0] = '\0';
    const json_t *stamp = json_object_get(doc, "stamp");
    const char *digest = json_string_value(json_object_get(stamp, "digest"));
    if (!json_is_object(stamp) || !digest)
        return STAMP_MISSING;
    if (!document_digest(doc, hex))
        return STAMP_NO_MEMORY;
    if (!strcmp(hex, digest))
        return STAMP_OK;
    json_t *now = sections_of(doc);
    if (!now)
        return STAMP_NO_MEMORY;
    const json_t *stamped = json_object_get(stamp, "sections");
    json_t *empty = json_object();
    explain(json_is_object(stamped) ? stamped : empty, now, why, whylen);
    json_decref(empty);
    json_decref(now);
    return STAMP_MISMATCH;
}
