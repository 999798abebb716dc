/* unit_suites.h: one registration function per module's CUnit suite. */
#ifndef SCOPECHECK_UNIT_SUITES_H
#define SCOPECHECK_UNIT_SUITES_H

void register_diag_tests(void);
void register_arith_tests(void);
void register_input_tests(void);
void register_data_path_tests(void);
void register_cat_limits_tests(void);
void register_protocol_limits_tests(void);
void register_report_tests(void);
void register_relation_tests(void);
void register_cat_tests(void);
void register_cat_herd_tests(void);
void register_cat_explain_tests(void);
void register_cat_cache_tests(void);
void register_event_name_tests(void);
void register_litmus_ptx_tests(void);
void register_litmus_opencl_tests(void);
void register_litmus_c_tests(void);
void register_litmus_hash_tests(void);
void register_enumerate_tests(void);
void register_liveness_tests(void);
void register_enumerate_wide_tests(void);
void register_ptx_model_tests(void);
void register_protocol_tests(void);
void register_protocol_lang_tests(void);
void register_protocol_compile_tests(void);
void register_symmetry_tests(void);
void register_lit_ops_tests(void);
void register_search_tests(void);
void register_par_search_tests(void);
void register_store_tests(void);
void register_fair_cycle_tests(void);
void register_sched_tests(void);
void register_print_tests(void);
void register_gen_tests(void);
void register_describe_tests(void);
void register_msc_tests(void);
void register_sim_tests(void);
void register_sim_arith_tests(void);
void register_verify_tests(void);

#endif
