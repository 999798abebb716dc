/* base/vocab.c: the shared names (see base/vocab.h).  Each array is
 * defined without a length and checked against its enum's count, so
 * that a value added to an enum without its name fails to compile. */
#include "base/vocab.h"

#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *const vocab_opcodes[] = {[OP_LOAD] = "load",       [OP_STORE] = "store", [OP_RMW] = "rmw",
                                     [OP_RED] = "red",         [OP_FENCE] = "fence", [OP_BARRIER] = "barrier",
                                     [OP_MOV] = "mov",         [OP_ALU] = "alu",     [OP_BRANCH] = "branch",
                                     [OP_GOTO] = "goto"};
_Static_assert(COUNT(vocab_opcodes) == LIT_NOPCODES, "one name per enum lit_opcode value");

const char *const vocab_orders[] = {[ORD_WEAK] = "weak",       [ORD_RELAXED] = "relaxed", [ORD_ACQUIRE] = "acquire",
                                    [ORD_RELEASE] = "release", [ORD_ACQ_REL] = "acq_rel", [ORD_SC] = "sc",
                                    [ORD_CONSUME] = "consume"};
_Static_assert(COUNT(vocab_orders) == LIT_NORDERS, "one name per enum lit_order value");

const char *const vocab_scopes[] = {[SCOPE_NONE] = "none", [SCOPE_CTA] = "cta", [SCOPE_GPU] = "gpu",
                                    [SCOPE_SYS] = "sys",   [SCOPE_WI] = "wi"};
_Static_assert(COUNT(vocab_scopes) == LIT_NSCOPES, "one name per enum lit_scope value");

const char *const vocab_scope_suffixes[] = {[SCOPE_NONE] = "", [SCOPE_CTA] = ".cta", [SCOPE_GPU] = ".gpu",
                                            [SCOPE_SYS] = ".sys", [SCOPE_WI] = ".wi"};
_Static_assert(COUNT(vocab_scope_suffixes) == LIT_NSCOPES, "one suffix per enum lit_scope value");

const char *const vocab_rmw_ops[] = {[RMW_ADD] = "add",   [RMW_SUB] = "sub", [RMW_INC] = "inc", [RMW_DEC] = "dec",
                                     [RMW_EXCH] = "exch", [RMW_CAS] = "cas", [RMW_AND] = "and", [RMW_OR] = "or",
                                     [RMW_XOR] = "xor",   [RMW_MIN] = "min", [RMW_MAX] = "max"};
_Static_assert(COUNT(vocab_rmw_ops) == LIT_NRMW_OPS, "one name per enum lit_rmw_op value");

const char *const vocab_alu_ops[] = {[ALU_ADD] = "add", [ALU_SUB] = "sub", [ALU_MUL] = "mul",
                                     [ALU_AND] = "and", [ALU_OR] = "or",   [ALU_XOR] = "xor"};
_Static_assert(COUNT(vocab_alu_ops) == LIT_NALU_OPS, "one name per enum lit_alu_op value");

const char *const vocab_cmps[] = {[CMP_EQ] = "eq", [CMP_NE] = "ne", [CMP_LT] = "lt",
                                  [CMP_GT] = "gt", [CMP_LE] = "le", [CMP_GE] = "ge"};
_Static_assert(COUNT(vocab_cmps) == LIT_NCMPS, "one name per enum lit_cmp value");

const char *const vocab_expr_ops[] = {[OPX_ADD] = "+",  [OPX_SUB] = "-",  [OPX_EQ] = "==", [OPX_NE] = "!=",
                                      [OPX_LT] = "<",   [OPX_LE] = "<=",  [OPX_GT] = ">",  [OPX_GE] = ">=",
                                      [OPX_AND] = "&&", [OPX_OR] = "||",  [OPX_MUL] = "*", [OPX_DIV] = "/",
                                      [OPX_MOD] = "%"};
_Static_assert(COUNT(vocab_expr_ops) == EXPR_NOPS, "one name per enum expr_op value");

const char *const vocab_event_kinds[] = {[EVENT_LOAD] = "load", [EVENT_STORE] = "store", [EVENT_RMW] = "rmw",
                                         [EVENT_FENCE] = "fence", [EVENT_RECV] = "recv", [EVENT_INTERNAL] = "internal"};
_Static_assert(COUNT(vocab_event_kinds) == NEVENT_KINDS, "one name per enum event_kind value");

int vocab_find(const char *const *names, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}
