/*
 * tests/fuzz/keywords.h: the names of each input language that the "lines"
 * mutation (mutate.h) keeps when it renames a copied line, taken from the
 * grammars (docs/litmus-ptx.md, docs/litmus-opencl.md, docs/litmus-c.md, docs/cat.md,
 * docs/protocol-tables.md) and their dictionaries (tests/fuzz/dict/).
 */
#ifndef SCOPECHECK_FUZZ_KEYWORDS_H
#define SCOPECHECK_FUZZ_KEYWORDS_H

static const char *const ptx_keywords[] = {
    "PTX", "exists", "forall", "locations", "true", "false", "gpu",
    "ld", "st", "atom", "red", "fence", "membar", "bar", "barrier", "mov", "add", "sub", "mul",
    "and", "or", "xor", "beq", "bne", "goto", "weak", "relaxed", "acquire", "release", "acq_rel",
    "sc", "cta", "sys", "sync", "arrive", "inc", "dec", "exch", "cas", "min", "max", "proxy",
    "alias", "texture", "surface", "constant", "gl", "aliases", NULL,
};

static const char *const opencl_keywords[] = {
    "OPENCL", "exists", "forall", "locations", "dev", "global", "local", "atomic_int",
    "atomic_uint", "atomic_long", "atomic_ulong", "int", "unsigned", "if", "else", "while", "do",
    "for", "goto", "return", "break", "continue", "atomic_load", "atomic_store", "atomic_exchange",
    "atomic_init", "atomic_load_explicit", "atomic_store_explicit", "atomic_exchange_explicit",
    "atomic_fetch_add_explicit", "atomic_fetch_sub_explicit", "atomic_fetch_and_explicit",
    "atomic_fetch_or_explicit", "atomic_fetch_xor_explicit", "atomic_fetch_min_explicit",
    "atomic_fetch_max_explicit", "atomic_compare_exchange_strong_explicit",
    "atomic_compare_exchange_weak_explicit", "_remote", "atomic_work_item_fence",
    "work_group_barrier", "barrier", "CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE",
    "memory_order_relaxed", "memory_order_acquire", "memory_order_release", "memory_order_acq_rel",
    "memory_order_seq_cst", "memory_scope_work_item", "memory_scope_work_group",
    "memory_scope_device", "memory_scope_all_svm_devices", "memory_scope_sub_group", NULL,
};

static const char *const c_keywords[] = {
    "C", "exists", "forall", "locations", "filter", "int", "atomic_int", "atomic_uint", "unsigned",
    "long", "if", "else", "while", "do", "for", "goto", "return", "break", "continue", "atomic_load",
    "atomic_store", "atomic_exchange", "atomic_init", "atomic_load_explicit", "atomic_store_explicit",
    "atomic_exchange_explicit", "atomic_fetch_add_explicit", "atomic_fetch_sub_explicit",
    "atomic_fetch_and_explicit", "atomic_fetch_or_explicit", "atomic_fetch_xor_explicit",
    "atomic_compare_exchange_strong_explicit", "atomic_compare_exchange_weak_explicit",
    "atomic_thread_fence", "atomic_signal_fence", "memory_order_relaxed", "memory_order_consume",
    "memory_order_acquire", "memory_order_release", "memory_order_acq_rel", "memory_order_seq_cst",
    NULL,
};

static const char *const cat_keywords[] = {
    "let", "rec", "and", "as", "flag", "acyclic", "irreflexive", "empty", "include", "show",
    "unshow", "with", "from", "linearisations", "option", "co", "partial", "total", "enforced",
    "allowed", "flags", "undefined", "domain", "range", "_", "id", "po", "rf", "fr", "loc", "ext",
    "int", "rmw", "addr", "data", "ctrl", "syncbar", "R", "W", "M", "F", "sc", "acq", "rel", "B",
    "scta", "sgpu", "ssys", NULL,
};

static const char *const protocol_keywords[] = {
    "protocol", "extends", "const", "value", "wrap", "message", "channel", "controller", "states",
    "field", "var", "final", "memory", "invariant", "home", "table", "end", "per", "cu", "gpu",
    "shared", "sliced", "processor", "from", "each", "to", "fifo", "unordered", "capacity", "vnet",
    "init", "keep", "bits", "array", "of", "at", "load", "store", "rmw", "fence", "recv", "send",
    "done", "wait", "stall", "invalidate", "invalidate_all", "set", "push", "pop", "clear", "reg",
    "weak", "relaxed", "acquire", "release", "acq_rel", "sc", "cta", "sys", "none", "line", "msg",
    "addr", "state", "order", "len", "has", "cond", "all", "NCU", "NGPU", "NADDR", "NTHREADS",
    "MAXOPS", NULL,
};

#endif
