/* test_diag.c: the one diagnostic form, "file:line:col: error: message\n". */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "unit_suites.h"

static void test_form(void)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    diag_error(f, "dir/t.litmus", 12, 3, "expected %s, found '%c'", "';'", 'x');
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "dir/t.litmus:12:3: error: expected ';', found 'x'\n");
    free(buf);
}

void register_diag_tests(void)
{
    CU_pSuite s = CU_add_suite("diag", NULL, NULL);
    CU_add_test(s, "file:line:col: error: message", test_form);
}
