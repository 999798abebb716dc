/* litmus/read.c: see litmus/read.h. */
#include "litmus/read.h"

#include <string.h>

#include "base/diag.h"
#include "base/textfile.h"
#include "litmus/opencl/opencl.h"
#include "litmus/ptx.h"

/* The header words of the dialects, for messages. */
#define SUPPORTED_ARCHS "PTX, OPENCL or OpenCL"

/* Offset of the first byte that makes the text binary, or len if none:
 * NUL and control characters other than \t \n \v \f \r, DEL, and bytes
 * that are not well-formed UTF-8. */
static size_t first_binary_byte(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            if ((c < 0x20 && !(c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r')) ||
                c == 0x7f)
                return i;
            i++;
            continue;
        }
        size_t n;
        unsigned min;
        if (c >= 0xc2 && c <= 0xdf) { n = 1; min = 0x80; }
        else if (c >= 0xe0 && c <= 0xef) { n = 2; min = 0x800; }
        else if (c >= 0xf0 && c <= 0xf4) { n = 3; min = 0x10000; }
        else return i;
        unsigned cp = c & (0x3fu >> n);
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= len || (s[i + k] & 0xc0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return i;
        i += n + 1;
    }
    return len;
}

litmus_test *litmus_parse_text(const char *path, const char *text, size_t len, FILE *errors)
{
    if (len > LITMUS_MAX_BYTES) {
        diag_error(errors, path, 1, 1, "file too large (%zu bytes, the limit is %u)",
                   len, LITMUS_MAX_BYTES);
        return NULL;
    }
    size_t bad = first_binary_byte((const unsigned char *)text, len);
    if (bad < len) {
        int line, col;
        textfile_position(text, bad, &line, &col);
        diag_error(errors, path, line, col, "binary data in file (byte 0x%02x): not a litmus test",
                   (unsigned)(unsigned char)text[bad]);
        return NULL;
    }
    size_t i = 0;
    while (i < len && strchr(" \t\n\v\f\r", text[i]))
        i++;
    if (i == len) {
        diag_error(errors, path, 1, 1, "empty file: expected a litmus test");
        return NULL;
    }
    if (i > 0) {
        int line, col;
        textfile_position(text, i, &line, &col);
        diag_error(errors, path, line, col,
                   "expected the architecture name (" SUPPORTED_ARCHS ") at the very start of the file");
        return NULL;
    }
    size_t n = 0;
    while (n < len && ((text[n] >= 'A' && text[n] <= 'Z') || (text[n] >= 'a' && text[n] <= 'z') ||
                       (text[n] >= '0' && text[n] <= '9') || text[n] == '_'))
        n++;
    if (n == 3 && memcmp(text, "PTX", 3) == 0)
        return litmus_parse_ptx(path, text, len, errors);
    /* OPENCL: the dialect of Dat3M's corpus; OpenCL: herd's legacy format */
    if (n == 6 && (memcmp(text, "OPENCL", 6) == 0 || memcmp(text, "OpenCL", 6) == 0))
        return litmus_parse_opencl(path, text, len, errors);
    if (n == 0)
        diag_error(errors, path, 1, 1, "expected the architecture name (" SUPPORTED_ARCHS
                   ") at the start of the file");
    else
        diag_error(errors, path, 1, 1, "unknown architecture '%.*s' (supported: " SUPPORTED_ARCHS ")",
                   (int)(n > 40 ? 40 : n), text);
    return NULL;
}

litmus_test *litmus_read_file(const char *path, FILE *errors)
{
    size_t len;
    const char *why;
    char *text = textfile_read(path, LITMUS_MAX_BYTES, &len, &why);
    if (!text) {
        diag_error(errors, path, 1, 1, "%s", why);
        return NULL;
    }
    return litmus_parse_text(path, text, len, errors);
}
