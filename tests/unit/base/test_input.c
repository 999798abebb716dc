/* test_input.c: the two readers of user input in base/: textfile_read, the
 * one way every front end reads a file (size cap, what is not a regular
 * file or a pipe refused, named pipes without a writer not waited for), and
 * size_parse, the one reader of sizes on the command line (no overflow). */
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/size.h"
#include "base/textfile.h"
#include "unit_suites.h"

static char dir[64];

static const char *path_in_dir(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static const char *write_bytes(const char *name, const char *bytes, size_t n)
{
    const char *path = path_in_dir(name);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, n, f), n);
    fclose(f);
    return path;
}

static int make_dir(void)
{
    strcpy(dir, "/tmp/scopecheck-input-XXXXXX");
    return mkdtemp(dir) ? 0 : 1;
}

static int remove_dir(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

/* A file is read whole, NUL bytes included, with a NUL after it. */
static void test_regular(void)
{
    size_t len = 99;
    const char *why = NULL;
    char *t = textfile_read(write_bytes("a", "ab\0c", 4), 100, &len, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(len, 4);
    CU_ASSERT(memcmp(t, "ab\0c", 5) == 0);
    t = textfile_read(write_bytes("empty", "", 0), 100, &len, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(t[0], '\0');
}

/* Exactly max_bytes is accepted; one byte more is refused with the limit
 * in the message; a file that starts small and larger than 16 KiB (the
 * first buffer) is read across buffer growth. */
static void test_limit(void)
{
    enum { big = 100000 };
    char *bytes = malloc(big + 1);
    for (int i = 0; i < big + 1; i++)
        bytes[i] = (char)('a' + i % 26);
    size_t len = 0;
    const char *why = NULL;
    char *t = textfile_read(write_bytes("exact", bytes, big), big, &len, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(len, big);
    CU_ASSERT(memcmp(t, bytes, big) == 0);
    CU_ASSERT_PTR_NULL(textfile_read(write_bytes("over", bytes, big + 1), big, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "file too large (more than 100000 bytes)");
    free(bytes);
}

/* A directory, a character device that never ends, a missing file: each
 * refused at once with the reason. */
static void test_not_regular(void)
{
    size_t len;
    const char *why = NULL;
    CU_ASSERT_PTR_NULL(textfile_read(dir, 100, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "not a regular file (a directory)");
    CU_ASSERT_PTR_NULL(textfile_read("/dev/zero", 100, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "not a regular file (a character device)");
    CU_ASSERT_PTR_NULL(textfile_read(path_in_dir("missing"), 100, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "cannot open: No such file or directory");
}

/* A named pipe without a writer reads as empty (open does not block); a
 * pipe with data is read to its end, and past the limit it is refused. */
static void test_pipes(void)
{
    const char *fifo = path_in_dir("fifo");
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    size_t len = 99;
    const char *why = NULL;
    char *t = textfile_read(fifo, 100, &len, &why);
    CU_ASSERT_PTR_NOT_NULL(t);
    CU_ASSERT_EQUAL(len, 0);

    int fds[2];
    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    CU_ASSERT_EQUAL(write(fds[1], "hello", 5), 5);
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    t = textfile_read(path, 100, &len, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(len, 5);
    CU_ASSERT_STRING_EQUAL(t, "hello");
    close(fds[0]);

    CU_ASSERT_EQUAL_FATAL(pipe(fds), 0);
    CU_ASSERT_EQUAL(write(fds[1], "0123456789", 10), 10);
    close(fds[1]);
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    CU_ASSERT_PTR_NULL(textfile_read(path, 9, &len, &why));
    CU_ASSERT_STRING_EQUAL(why, "file too large (more than 9 bytes)");
    close(fds[0]);
}

static void test_position(void)
{
    int line, col;
    textfile_position("ab\ncd\n\nx", 0, &line, &col);
    CU_ASSERT(line == 1 && col == 1);
    textfile_position("ab\ncd\n\nx", 4, &line, &col);
    CU_ASSERT(line == 2 && col == 2);
    textfile_position("ab\ncd\n\nx", 7, &line, &col);
    CU_ASSERT(line == 4 && col == 1);
}

/* Sizes: digits and one suffix (powers of 1024); anything else, and
 * anything of 2^64 or more, is refused rather than wrapped. */
static void test_sizes(void)
{
    uint64_t v = 7;
    CU_ASSERT(size_parse("0", &v) && v == 0);
    CU_ASSERT(size_parse("1000", &v) && v == 1000);
    CU_ASSERT(size_parse("64K", &v) && v == 65536);
    CU_ASSERT(size_parse("512m", &v) && v == 512ull << 20);
    CU_ASSERT(size_parse("2G", &v) && v == 2ull << 30);
    CU_ASSERT(size_parse("3T", &v) && v == 3ull << 40);
    CU_ASSERT(size_parse("18446744073709551615", &v) && v == UINT64_MAX);
    CU_ASSERT(size_parse("16777215T", &v) && v == 16777215ull << 40);   /* 2^64 - 2^40 */
    v = 7;
    CU_ASSERT_FALSE(size_parse("16777216T", &v));                      /* 2^64 */
    CU_ASSERT_FALSE(size_parse("99999999999999G", &v));
    CU_ASSERT_FALSE(size_parse("18446744073709551616", &v));
    CU_ASSERT_FALSE(size_parse("-1", &v));
    CU_ASSERT_FALSE(size_parse("+1", &v));
    CU_ASSERT_FALSE(size_parse(" 1", &v));
    CU_ASSERT_FALSE(size_parse("1 ", &v));
    CU_ASSERT_FALSE(size_parse("1.5G", &v));
    CU_ASSERT_FALSE(size_parse("1GB", &v));
    CU_ASSERT_FALSE(size_parse("1X", &v));
    CU_ASSERT_FALSE(size_parse("", &v));
    CU_ASSERT_FALSE(size_parse("G", &v));
    CU_ASSERT_EQUAL(v, 7);  /* untouched by every refusal */

    /* a bound of its own: too large is told from malformed */
    CU_ASSERT_EQUAL(size_parse_max("1K", 1024, &v), SIZE_OK);
    CU_ASSERT_EQUAL(v, 1024);
    v = 7;
    CU_ASSERT_EQUAL(size_parse_max("1025", 1024, &v), SIZE_TOO_LARGE);
    CU_ASSERT_EQUAL(size_parse_max("2K", 2047, &v), SIZE_TOO_LARGE);   /* 2048 > 2047 */
    CU_ASSERT_EQUAL(size_parse_max("18446744073709551616", UINT64_MAX, &v), SIZE_TOO_LARGE);
    CU_ASSERT_EQUAL(size_parse_max("1KB", 1u << 20, &v), SIZE_BAD);
    CU_ASSERT_EQUAL(size_parse_max("99999999999999999999x", UINT64_MAX, &v), SIZE_BAD);
    CU_ASSERT_EQUAL(v, 7);
}

void register_input_tests(void)
{
    CU_pSuite s = CU_add_suite("base input", make_dir, remove_dir);
    CU_add_test(s, "textfile: regular files, NUL bytes", test_regular);
    CU_add_test(s, "textfile: the size limit", test_limit);
    CU_add_test(s, "textfile: directories, devices, missing files", test_not_regular);
    CU_add_test(s, "textfile: pipes, named pipes without a writer", test_pipes);
    CU_add_test(s, "textfile: positions", test_position);
    CU_add_test(s, "size_parse: suffixes, overflow, junk", test_sizes);
}
