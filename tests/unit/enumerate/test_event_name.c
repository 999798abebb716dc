/* test_event_name.c: herd's event names (enumerate/event_name.h). */
#include <CUnit/CUnit.h>
#include <string.h>

#include "enumerate/event_name.h"
#include "unit_suites.h"

static void test_names(void)
{
    char s[ENUM_EVENT_NAME_SIZE];
    /* bijective base 26: 0..25 one letter, 26..26+676-1 two, then three */
    CU_ASSERT_STRING_EQUAL(enum_event_name(0, s), "a");
    CU_ASSERT_STRING_EQUAL(enum_event_name(25, s), "z");
    CU_ASSERT_STRING_EQUAL(enum_event_name(26, s), "aa");
    CU_ASSERT_STRING_EQUAL(enum_event_name(27, s), "ab");
    CU_ASSERT_STRING_EQUAL(enum_event_name(51, s), "az");
    CU_ASSERT_STRING_EQUAL(enum_event_name(52, s), "ba");
    CU_ASSERT_STRING_EQUAL(enum_event_name(26 + 676 - 1, s), "zz");
    CU_ASSERT_STRING_EQUAL(enum_event_name(26 + 676, s), "aaa");
    /* 4095 = 26 + 676 + 3393, and 3393 = 5*676 + 0*26 + 13: f a n */
    CU_ASSERT_STRING_EQUAL(enum_event_name(4095, s), "fan");
    CU_ASSERT_STRING_EQUAL(enum_event_name(-1, s), "?");
    CU_ASSERT_EQUAL(strlen(enum_event_name(2147483647, s)), 7);
}

void register_event_name_tests(void)
{
    CU_pSuite s = CU_add_suite("event names", NULL, NULL);
    CU_add_test(s, "a..z, aa.., aaa..", test_names);
}
