/* unit_main.c: runs every CUnit suite of scopecheck, or the one named by
 * the first argument (`unit_tests par_search`, as `make tsan` runs it). */
#include <CUnit/Basic.h>
#include <gc.h>
#include <stdio.h>

#include "unit_suites.h"

int main(int argc, char **argv)
{
    GC_INIT();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    register_diag_tests();
    register_arith_tests();
    register_input_tests();
    register_data_path_tests();
    register_cat_limits_tests();
    register_protocol_limits_tests();
    register_relation_tests();
    register_cat_tests();
    register_cat_herd_tests();
    register_cat_explain_tests();
    register_cat_cache_tests();
    register_event_name_tests();
    register_litmus_ptx_tests();
    register_litmus_opencl_tests();
    register_litmus_c_tests();
    register_litmus_hash_tests();
    register_enumerate_tests();
    register_liveness_tests();
    register_enumerate_wide_tests();
    register_ptx_model_tests();
    register_protocol_tests();
    register_protocol_lang_tests();
    register_protocol_compile_tests();
    register_symmetry_tests();
    register_describe_tests();
    register_msc_tests();
    register_lit_ops_tests();
    register_search_tests();
    register_par_search_tests();
    register_store_tests();
    register_fair_cycle_tests();
    register_sched_tests();
    register_report_tests();
    register_print_tests();
    register_gen_tests();
    register_sim_tests();
    register_sim_arith_tests();
    register_verify_tests();
    CU_basic_set_mode(CU_BRM_NORMAL);
    if (argc > 1) {
        CU_pSuite only = CU_get_suite(argv[1]);
        if (!only) {
            fprintf(stderr, "unit_tests: no suite '%s'\n", argv[1]);
            CU_cleanup_registry();
            return 2;
        }
        CU_basic_run_suite(only);
    } else {
        CU_basic_run_tests();
    }
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    return failed == 0 && run > 0 ? 0 : 1;
}
