/* base/canon.c: canonical JSON text and SHA-256 (see base/canon.h).
 * SHA-256 is nettle's (Debian nettle-dev); the canonical form is jansson's
 * compact, sorted, ASCII-only dump. */
#include "base/canon.h"

#include <nettle/sha2.h>
#include <stdlib.h>
#include <string.h>

char *canon_text(const json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
}

void sha256_hex(const void *data, size_t n, char hex[CANON_HEX_LEN + 1])
{
    static const char digits[] = "0123456789abcdef";
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, n, data);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[CANON_HEX_LEN] = '\0';
}

bool canon_sha256(const json_t *v, char hex[CANON_HEX_LEN + 1])
{
    char *text = canon_text(v);
    if (!text)
        return false;
    sha256_hex(text, strlen(text), hex);
    free(text);
    return true;
}
