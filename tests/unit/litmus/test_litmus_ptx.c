/* test_litmus_ptx.c: the PTX litmus front end, text -> litmus_test. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"
#include "litmus/read.h"
#include "unit_suites.h"

static char errbuf[1024];

/* Parse `text` as file "t.litmus"; the error line (if any) goes to errbuf. */
static litmus_test *parse(const char *text)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *err = open_memstream(&buf, &n);
    litmus_test *t = litmus_parse_text("t.litmus", text, strlen(text), err);
    fclose(err);
    snprintf(errbuf, sizeof errbuf, "%s", buf ? buf : "");
    free(buf);
    return t;
}

static int reg(const lit_thread *th, const char *name)
{
    return litmus_reg_index(th, name);
}

static int loc(const litmus_test *t, const char *name)
{
    return litmus_loc_index(t, name);
}

static const char mp_text[] =
    "PTX MP+rel.acq-gpu_1\n"
    "\"message passing\"\n"
    "\"second line\"\n"
    "{\n"
    "x=0; y = 0;\n"
    "P1:r0=0;\n"
    "P1:r1 = 7\n"
    "}\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 2       ;\n"
    " st.weak x, 1         | ld.acquire.gpu r0, y ;\n"
    " st.release.gpu y, 1  | ld.weak r1, x        ;\n"
    "exists\n"
    "(P1:r0 == 1 /\\ P1:r1 == 0)\n";

static void test_mp(void)
{
    litmus_test *t = parse(mp_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_STRING_EQUAL(t->arch, "PTX");
    CU_ASSERT_STRING_EQUAL(t->name, "MP+rel.acq-gpu_1");
    CU_ASSERT_STRING_EQUAL(t->doc, "message passing\nsecond line");
    CU_ASSERT_STRING_EQUAL(t->file, "t.litmus");
    CU_ASSERT_EQUAL_FATAL(t->nthreads, 2);
    CU_ASSERT_STRING_EQUAL(t->threads[0].name, "P0");
    CU_ASSERT_EQUAL(t->threads[0].cta, 0);
    CU_ASSERT_EQUAL(t->threads[0].gpu, 0);
    CU_ASSERT_EQUAL(t->threads[1].cta, 1);
    CU_ASSERT_EQUAL(t->threads[1].gpu, 2);
    CU_ASSERT_EQUAL_FATAL(t->nlocs, 2);
    CU_ASSERT_STRING_EQUAL(t->locs[0].name, "x");
    CU_ASSERT_STRING_EQUAL(t->locs[1].name, "y");
    CU_ASSERT_EQUAL(t->locs[1].physical, 1);
    CU_ASSERT_EQUAL(t->locs[1].alias_proxy, PROXY_GENERIC);

    lit_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    CU_ASSERT_EQUAL(p0->nregs, 0);
    CU_ASSERT_EQUAL_FATAL(p1->nregs, 2);
    CU_ASSERT_STRING_EQUAL(p1->reg_names[0], "r0");
    CU_ASSERT_STRING_EQUAL(p1->reg_names[1], "r1");
    CU_ASSERT_EQUAL(p1->reg_init[0], 0);
    CU_ASSERT_EQUAL(p1->reg_init[1], 7);

    CU_ASSERT_EQUAL_FATAL(p0->ninstrs, 2);
    lit_instr *i = &p0->instrs[0];
    CU_ASSERT_EQUAL(i->op, OP_STORE);
    CU_ASSERT_EQUAL(i->order, ORD_WEAK);
    CU_ASSERT_EQUAL(i->scope, SCOPE_NONE);
    CU_ASSERT_EQUAL(i->proxy, PROXY_GENERIC);
    CU_ASSERT_EQUAL(i->loc, 0);
    CU_ASSERT_EQUAL(i->dst, -1);
    CU_ASSERT_EQUAL(i->a.kind, OPND_IMM);
    CU_ASSERT_EQUAL(i->a.imm, 1);
    CU_ASSERT_EQUAL(i->b.kind, OPND_NONE);
    CU_ASSERT_EQUAL(i->line, 10);
    CU_ASSERT_EQUAL(i->col, 2);
    CU_ASSERT_STRING_EQUAL(i->text, "st.weak x, 1");
    i = &p0->instrs[1];
    CU_ASSERT_EQUAL(i->op, OP_STORE);
    CU_ASSERT_EQUAL(i->order, ORD_RELEASE);
    CU_ASSERT_EQUAL(i->scope, SCOPE_GPU);
    CU_ASSERT_EQUAL(i->loc, 1);

    CU_ASSERT_EQUAL_FATAL(p1->ninstrs, 2);
    i = &p1->instrs[0];
    CU_ASSERT_EQUAL(i->op, OP_LOAD);
    CU_ASSERT_EQUAL(i->order, ORD_ACQUIRE);
    CU_ASSERT_EQUAL(i->scope, SCOPE_GPU);
    CU_ASSERT_EQUAL(i->dst, 0);
    CU_ASSERT_EQUAL(i->loc, 1);
    CU_ASSERT_EQUAL(i->line, 10);
    CU_ASSERT_EQUAL(i->col, 25);
    CU_ASSERT_STRING_EQUAL(i->text, "ld.acquire.gpu r0, y");
    i = &p1->instrs[1];
    CU_ASSERT_EQUAL(i->op, OP_LOAD);
    CU_ASSERT_EQUAL(i->order, ORD_WEAK);
    CU_ASSERT_EQUAL(i->scope, SCOPE_NONE);
    CU_ASSERT_EQUAL(i->dst, 1);
    CU_ASSERT_EQUAL(i->loc, 0);

    CU_ASSERT_EQUAL(t->quant, QUANT_EXISTS);
    lit_cond *c = t->cond;
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL_FATAL(c->kind, COND_AND);
    CU_ASSERT_EQUAL_FATAL(c->left->kind, COND_EQ);
    CU_ASSERT_EQUAL(c->left->lhs.kind, TERM_REG);
    CU_ASSERT_EQUAL(c->left->lhs.thread, 1);
    CU_ASSERT_EQUAL(c->left->lhs.reg, 0);
    CU_ASSERT_EQUAL(c->left->rhs.kind, TERM_CONST);
    CU_ASSERT_EQUAL(c->left->rhs.value, 1);
    CU_ASSERT_EQUAL(c->right->kind, COND_EQ);
    CU_ASSERT_EQUAL(c->right->lhs.reg, 1);
    CU_ASSERT_EQUAL(c->right->rhs.value, 0);
    CU_ASSERT_EQUAL_FATAL(t->nobserved, 2);
    CU_ASSERT_EQUAL(t->observed[0].kind, TERM_REG);
    CU_ASSERT_EQUAL(t->observed[0].thread, 1);
    CU_ASSERT_EQUAL(t->observed[0].reg, 0);
    CU_ASSERT_EQUAL(t->observed[1].reg, 1);
}

static const char kinds_text[] =
    "PTX kinds\n"
    "{ x=5; P0:r9=3; }\n"
    " P0                                 ;\n"
    " ld r0, 1                           ;\n"
    " ld.relaxed.sys r1, x               ;\n"
    " st.relaxed.cta x, r1               ;\n"
    " atom.acq_rel.sys.add r2, x, 2      ;\n"
    " atom.relaxed.gpu.cas r3, x, 0, r0  ;\n"
    " atom.cta.exch r4, x, 1             ;\n"
    " red.release.gpu.sub x, r0          ;\n"
    " fence.sc.sys                       ;\n"
    " fence.acq_rel.cta                  ;\n"
    " fence.proxy.texture                ;\n"
    " bar.cta.sync 3                     ;\n"
    " bar.cta.arrive 1, r9               ;\n"
    " bar.cta.sync 0, 2, 4               ;\n"
    " add r5, r1, 10                     ;\n"
    " xor r6, r5, r5                     ;\n"
    " mov r7, -4                         ;\n"
    " ld r8, r7                          ;\n"
    " L1:                                ;\n"
    " beq r8, 4, L1                      ;\n"
    " bne 1, r5, END                     ;\n"
    " goto L1                            ;\n"
    " END:                               ;\n"
    "forall (true)\n";

static void test_instruction_kinds(void)
{
    litmus_test *t = parse(kinds_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    lit_thread *th = &t->threads[0];
    CU_ASSERT_EQUAL_FATAL(th->ninstrs, 20);
    CU_ASSERT_EQUAL(th->reg_init[reg(th, "r9")], 3);
    CU_ASSERT_EQUAL(reg(th, "r9"), 0);   /* declared registers come first */
    int x = loc(t, "x");
    CU_ASSERT_EQUAL(x, 0);
    CU_ASSERT_EQUAL(t->locs[0].init, 5);
    lit_instr *in = th->instrs;

    CU_ASSERT_EQUAL(in[0].op, OP_MOV);
    CU_ASSERT_EQUAL(in[0].dst, reg(th, "r0"));
    CU_ASSERT_EQUAL(in[0].loc, -1);
    CU_ASSERT_EQUAL(in[0].a.kind, OPND_IMM);
    CU_ASSERT_EQUAL(in[0].a.imm, 1);

    CU_ASSERT_EQUAL(in[1].op, OP_LOAD);
    CU_ASSERT_EQUAL(in[1].order, ORD_RELAXED);
    CU_ASSERT_EQUAL(in[1].scope, SCOPE_SYS);

    CU_ASSERT_EQUAL(in[2].op, OP_STORE);
    CU_ASSERT_EQUAL(in[2].order, ORD_RELAXED);
    CU_ASSERT_EQUAL(in[2].scope, SCOPE_CTA);
    CU_ASSERT_EQUAL(in[2].a.kind, OPND_REG);
    CU_ASSERT_EQUAL(in[2].a.reg, reg(th, "r1"));

    CU_ASSERT_EQUAL(in[3].op, OP_RMW);
    CU_ASSERT_EQUAL(in[3].order, ORD_ACQ_REL);
    CU_ASSERT_EQUAL(in[3].scope, SCOPE_SYS);
    CU_ASSERT_EQUAL(in[3].rmw_op, RMW_ADD);
    CU_ASSERT_EQUAL(in[3].dst, reg(th, "r2"));
    CU_ASSERT_EQUAL(in[3].loc, x);
    CU_ASSERT_EQUAL(in[3].a.imm, 2);
    CU_ASSERT_EQUAL(in[3].b.kind, OPND_NONE);

    CU_ASSERT_EQUAL(in[4].rmw_op, RMW_CAS);
    CU_ASSERT_EQUAL(in[4].order, ORD_RELAXED);
    CU_ASSERT_EQUAL(in[4].a.kind, OPND_IMM);
    CU_ASSERT_EQUAL(in[4].a.imm, 0);
    CU_ASSERT_EQUAL(in[4].b.kind, OPND_REG);
    CU_ASSERT_EQUAL(in[4].b.reg, reg(th, "r0"));

    CU_ASSERT_EQUAL(in[5].op, OP_RMW);            /* missing SEM: relaxed */
    CU_ASSERT_EQUAL(in[5].order, ORD_RELAXED);
    CU_ASSERT_EQUAL(in[5].scope, SCOPE_CTA);
    CU_ASSERT_EQUAL(in[5].rmw_op, RMW_EXCH);

    CU_ASSERT_EQUAL(in[6].op, OP_RED);
    CU_ASSERT_EQUAL(in[6].dst, -1);
    CU_ASSERT_EQUAL(in[6].order, ORD_RELEASE);
    CU_ASSERT_EQUAL(in[6].rmw_op, RMW_SUB);
    CU_ASSERT_EQUAL(in[6].a.kind, OPND_REG);

    CU_ASSERT_EQUAL(in[7].op, OP_FENCE);
    CU_ASSERT_EQUAL(in[7].order, ORD_SC);
    CU_ASSERT_EQUAL(in[7].scope, SCOPE_SYS);
    CU_ASSERT_EQUAL(in[8].order, ORD_ACQ_REL);
    CU_ASSERT_EQUAL(in[8].scope, SCOPE_CTA);
    CU_ASSERT_EQUAL(in[9].op, OP_FENCE);
    CU_ASSERT_EQUAL(in[9].proxy, PROXY_TEXTURE);
    CU_ASSERT_EQUAL(in[9].order, ORD_WEAK);
    CU_ASSERT_EQUAL(in[9].scope, SCOPE_NONE);

    CU_ASSERT_EQUAL(in[10].op, OP_BARRIER);
    CU_ASSERT_TRUE(in[10].barrier_waits);
    CU_ASSERT_EQUAL(in[10].a.kind, OPND_IMM);
    CU_ASSERT_EQUAL(in[10].a.imm, 3);
    CU_ASSERT_EQUAL(in[10].b.kind, OPND_NONE);
    CU_ASSERT_FALSE(in[11].barrier_waits);
    CU_ASSERT_EQUAL(in[11].a.kind, OPND_REG);      /* id is the second operand */
    CU_ASSERT_EQUAL(in[11].a.reg, reg(th, "r9"));
    CU_ASSERT_EQUAL(in[11].b.kind, OPND_NONE);
    CU_ASSERT_EQUAL(in[12].a.imm, 2);
    CU_ASSERT_EQUAL(in[12].b.kind, OPND_IMM);
    CU_ASSERT_EQUAL(in[12].b.imm, 4);

    CU_ASSERT_EQUAL(in[13].op, OP_ALU);
    CU_ASSERT_EQUAL(in[13].alu_op, ALU_ADD);
    CU_ASSERT_EQUAL(in[13].dst, reg(th, "r5"));
    CU_ASSERT_EQUAL(in[13].a.reg, reg(th, "r1"));
    CU_ASSERT_EQUAL(in[13].b.imm, 10);
    CU_ASSERT_EQUAL(in[14].alu_op, ALU_XOR);
    CU_ASSERT_EQUAL(in[15].op, OP_MOV);
    CU_ASSERT_EQUAL(in[15].a.imm, -4);
    CU_ASSERT_EQUAL(in[16].op, OP_MOV);            /* ld from a register */
    CU_ASSERT_EQUAL(in[16].a.kind, OPND_REG);
    CU_ASSERT_EQUAL(in[16].a.reg, reg(th, "r7"));
    CU_ASSERT_EQUAL(t->nlocs, 1);

    CU_ASSERT_EQUAL(in[17].op, OP_BRANCH);
    CU_ASSERT_EQUAL(in[17].cmp, CMP_EQ);
    CU_ASSERT_EQUAL(in[17].target, 17);
    CU_ASSERT_EQUAL(in[17].b.imm, 4);
    CU_ASSERT_EQUAL(in[18].cmp, CMP_NE);
    CU_ASSERT_EQUAL(in[18].a.kind, OPND_IMM);
    CU_ASSERT_EQUAL(in[18].target, 20);           /* label at the end */
    CU_ASSERT_EQUAL(in[19].op, OP_GOTO);
    CU_ASSERT_EQUAL(in[19].target, 17);
    CU_ASSERT_EQUAL(in[0].target, -1);

    CU_ASSERT_EQUAL(t->quant, QUANT_FORALL);
    CU_ASSERT_EQUAL(t->cond->kind, COND_TRUE);
    CU_ASSERT_EQUAL(t->nobserved, 0);
}

static const char proxy_text[] =
    "PTX proxies\n"
    "{\n"
    "rd1 = 3;\n"
    "rd2 @ constant aliases rd1; rd3 @ surface aliases rd1\n"
    "; t @ texture aliases rd1; g @ generic aliases rd1;\n"
    "}\n"
    " P0@cta 0,gpu 0     | P1@gpu 1,cta 2 ;\n"
    " sust.weak rd3, 42  | suld.weak r0, rd3 ;\n"
    " fence.proxy.alias  | tld.weak r1, t ;\n"
    " cold.weak r2, rd2  | ld.weak r2, g ;\n"
    " fence.proxy.surface | fence.proxy.constant ;\n"
    "~exists (P0:r2 != 42 \\/ ~(P1:r0 == P1:r1) \\/ z == 1)\n";

/* Alias chains, declared in any order: physical location at the end of the
 * chain; a non-generic alias names its target's virtual address. */
static void test_alias_chains(void)
{
    litmus_test *t = parse("PTX chains\n{\ns @ surface aliases y; c @ constant aliases s;\n"
                           "y @ generic aliases x; x = 7;\n}\n"
                           " P0 ;\n sust.weak s, 1 ;\n cold.weak r0, c ;\n ld.weak r1, y ;\n"
                           "exists (P0:r0 == 1)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int x = loc(t, "x"), y = loc(t, "y");
    for (int l = 0; l < t->nlocs; l++) {
        CU_ASSERT_EQUAL(t->locs[l].physical, x);
        CU_ASSERT_EQUAL(t->locs[l].init, 7);
    }
    lit_instr *a = t->threads[0].instrs;
    CU_ASSERT_EQUAL(a[0].loc, y);                  /* s names y's address */
    CU_ASSERT_EQUAL(a[1].loc, y);                  /* c names s's, which is y's */
    CU_ASSERT_EQUAL(a[2].loc, y);
}

/* PTX has no atomic types: a location is an atomic object when some strong
 * access (relaxed or stronger, atom, red) touches it, through any alias;
 * the OpenCL models read the others as plain (NAL), as the test's OpenCL
 * translation declares them `int`. */
static void test_atomic_locations(void)
{
    litmus_test *t = parse("PTX atomics\n{\nw=0; x=0; y=0; z=0; v=0; a @ generic aliases v;\n}\n"
                           " P0@cta 0,gpu 0       | P1@cta 0,gpu 0 ;\n"
                           " st.weak w, 1         | ld.weak r0, w  ;\n"
                           " st.release.cta x, 1  | ld.weak r1, x  ;\n"
                           " atom.gpu.add r2, y, 1 | red.gpu.add z, 1   ;\n"
                           " st.weak v, 1         | ld.relaxed.gpu r3, a ;\n"
                           "exists (P1:r0 == 1)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_FALSE(t->locs[loc(t, "w")].atomic_type);
    CU_ASSERT_TRUE(t->locs[loc(t, "x")].atomic_type);
    CU_ASSERT_TRUE(t->locs[loc(t, "y")].atomic_type);
    CU_ASSERT_TRUE(t->locs[loc(t, "z")].atomic_type);
    CU_ASSERT_TRUE(t->locs[loc(t, "v")].atomic_type);
}

static void test_proxies_and_aliases(void)
{
    litmus_test *t = parse(proxy_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(t->nlocs, 6);
    int rd1 = loc(t, "rd1"), rd2 = loc(t, "rd2"), rd3 = loc(t, "rd3");
    int tx = loc(t, "t"), g = loc(t, "g"), z = loc(t, "z");
    CU_ASSERT_EQUAL(rd1, 0);
    CU_ASSERT_EQUAL(t->locs[rd1].physical, rd1);
    CU_ASSERT_EQUAL(t->locs[rd2].physical, rd1);
    CU_ASSERT_EQUAL(t->locs[rd2].alias_proxy, PROXY_CONSTANT);
    CU_ASSERT_EQUAL(t->locs[rd2].init, 3);
    CU_ASSERT_EQUAL(t->locs[rd3].alias_proxy, PROXY_SURFACE);
    CU_ASSERT_EQUAL(t->locs[tx].alias_proxy, PROXY_TEXTURE);
    CU_ASSERT_EQUAL(t->locs[g].alias_proxy, PROXY_GENERIC);
    CU_ASSERT_EQUAL(t->locs[g].physical, rd1);
    CU_ASSERT_EQUAL(z, 5);                         /* created by the condition */
    CU_ASSERT_EQUAL(t->locs[z].init, 0);
    CU_ASSERT_EQUAL(t->locs[z].physical, z);
    CU_ASSERT_EQUAL(t->threads[1].cta, 2);
    CU_ASSERT_EQUAL(t->threads[1].gpu, 1);

    lit_instr *a = t->threads[0].instrs, *b = t->threads[1].instrs;
    CU_ASSERT_EQUAL(a[0].op, OP_STORE);
    CU_ASSERT_EQUAL(a[0].proxy, PROXY_SURFACE);
    CU_ASSERT_EQUAL(a[0].loc, rd1);                /* rd3 is a synonym of rd1 */
    CU_ASSERT_EQUAL(a[1].op, OP_FENCE);
    CU_ASSERT_EQUAL(a[1].proxy, PROXY_ALIAS);
    CU_ASSERT_EQUAL(a[2].op, OP_LOAD);
    CU_ASSERT_EQUAL(a[2].proxy, PROXY_CONSTANT);
    CU_ASSERT_EQUAL(a[2].loc, rd1);
    CU_ASSERT_EQUAL(a[3].proxy, PROXY_SURFACE);
    CU_ASSERT_EQUAL(b[0].proxy, PROXY_SURFACE);
    CU_ASSERT_EQUAL(b[0].op, OP_LOAD);
    CU_ASSERT_EQUAL(b[1].proxy, PROXY_TEXTURE);
    CU_ASSERT_EQUAL(b[1].loc, rd1);
    CU_ASSERT_EQUAL(b[2].loc, g);                  /* a generic alias has its own address */
    CU_ASSERT_EQUAL(b[2].proxy, PROXY_GENERIC);
    CU_ASSERT_EQUAL(b[3].proxy, PROXY_CONSTANT);

    CU_ASSERT_EQUAL(t->quant, QUANT_NOT_EXISTS);
    lit_cond *c = t->cond;                         /* (A \/ B) \/ C */
    CU_ASSERT_EQUAL_FATAL(c->kind, COND_OR);
    CU_ASSERT_EQUAL(c->right->kind, COND_EQ);
    CU_ASSERT_EQUAL(c->right->lhs.kind, TERM_LOC);
    CU_ASSERT_EQUAL(c->right->lhs.loc, z);
    CU_ASSERT_EQUAL_FATAL(c->left->kind, COND_OR);
    CU_ASSERT_EQUAL(c->left->left->kind, COND_NE);
    CU_ASSERT_EQUAL_FATAL(c->left->right->kind, COND_NOT);
    lit_cond *eq = c->left->right->left;
    CU_ASSERT_EQUAL(eq->kind, COND_EQ);
    CU_ASSERT_EQUAL(eq->lhs.kind, TERM_REG);
    CU_ASSERT_EQUAL(eq->rhs.kind, TERM_REG);
    CU_ASSERT_EQUAL(eq->rhs.thread, 1);
    CU_ASSERT_EQUAL(eq->rhs.reg, reg(&t->threads[1], "r1"));
    CU_ASSERT_EQUAL_FATAL(t->nobserved, 4);
    CU_ASSERT_EQUAL(t->observed[0].thread, 0);
    CU_ASSERT_EQUAL(t->observed[1].thread, 1);
    CU_ASSERT_EQUAL(t->observed[2].reg, reg(&t->threads[1], "r1"));
    CU_ASSERT_EQUAL(t->observed[3].kind, TERM_LOC);
}

static void test_herd_condition_forms(void)
{
    litmus_test *t = parse(
        "PTX herd\n{}\n P0 | P1 ;\n ld.weak r0, x | st.weak x, 2 ;\n"
        "locations [y; 1:r4;]\n"
        "exists (0:r0 = 2 /\\ P1: r4 != -1 /\\ (false \\/ x == 0:r0))");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->name, "herd");
    CU_ASSERT_PTR_NULL(t->doc);
    CU_ASSERT_EQUAL(t->nlocs, 2);                 /* x from instructions, y from locations */
    CU_ASSERT_EQUAL(loc(t, "x"), 0);
    CU_ASSERT_EQUAL(loc(t, "y"), 1);
    CU_ASSERT_EQUAL(t->threads[1].nregs, 1);      /* r4 added by the condition */
    CU_ASSERT_EQUAL_FATAL(t->nobserved, 4);
    CU_ASSERT_EQUAL(t->observed[0].kind, TERM_LOC);
    CU_ASSERT_EQUAL(t->observed[0].loc, 1);
    CU_ASSERT_EQUAL(t->observed[1].kind, TERM_REG);
    CU_ASSERT_EQUAL(t->observed[1].thread, 1);
    CU_ASSERT_EQUAL(t->observed[2].thread, 0);
    CU_ASSERT_EQUAL(t->observed[3].kind, TERM_LOC);
    CU_ASSERT_EQUAL(t->observed[3].loc, 0);
    lit_cond *c = t->cond;                         /* (A /\ B) /\ (F \/ C) */
    CU_ASSERT_EQUAL_FATAL(c->kind, COND_AND);
    CU_ASSERT_EQUAL(c->left->kind, COND_AND);
    CU_ASSERT_EQUAL(c->left->right->kind, COND_NE);
    CU_ASSERT_EQUAL(c->left->right->rhs.value, -1);
    CU_ASSERT_EQUAL_FATAL(c->right->kind, COND_OR);
    CU_ASSERT_EQUAL(c->right->left->kind, COND_FALSE);

    /* comments, tabs, CRLF line ends, a label sharing a cell */
    t = parse("PTX misc\r\n(* a comment *)\r\n{ x=1 }\r\n P0\t;\r\n L: ld.weak r0, x ;\r\n"
              " bne r0, 0, L ;\r\nexists P0:r0 == 1\r\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->threads[0].ninstrs, 2);
    CU_ASSERT_EQUAL(t->threads[0].instrs[1].target, 0);
    CU_ASSERT_EQUAL(t->locs[0].init, 1);
}

/* ---- bad input: exact diagnostics -------------------------------------- */

static const struct bad_case {
    const char *text;
    const char *error;
} bad_cases[] = {
    { "", "t.litmus:1:1: error: empty file: expected a litmus test\n" },
    { " \n\t\n", "t.litmus:1:1: error: empty file: expected a litmus test\n" },
    { "ARM foo\n{}\n", "t.litmus:1:1: error: unknown architecture 'ARM' (supported: PTX, OPENCL, OpenCL or C)\n" },
    { "  PTX foo\n", "t.litmus:1:3: error: expected the architecture name (PTX, OPENCL, OpenCL or C) at the very start of the file\n" },
    { "PTX\n{}\n", "t.litmus:1:4: error: expected the test name after 'PTX' on the first line\n" },
    { "PTX a b\n{}\n", "t.litmus:1:7: error: unexpected text after the test name\n" },
    { "PTX a\n\"doc\n{}\n", "t.litmus:2:1: error: unterminated string\n" },
    { "PTX a\nx=0;\n", "t.litmus:2:1: error: expected '{' to open the init block, got 'x'\n" },
    { "PTX a\n{ x=0;\ny=1;\n", "t.litmus:4:1: error: unexpected end of file in the init block (missing '}')\n" },
    { "PTX a\n{ x=0\n y=1; }\n", "t.litmus:2:6: error: missing ';' in the init block\n" },
    { "PTX a\n{ x=0 y=1; }\n", "t.litmus:2:7: error: unexpected 'y' in the init block\n" },
    { "PTX a\n{ x=; }\n", "t.litmus:2:5: error: expected an integer value, got ';'\n" },
    { "PTX a\n{ x=0; x=1; }\n", "t.litmus:2:8: error: location 'x' is declared twice\n" },
    { "PTX a\n{ P0:1r=0; }\n", "t.litmus:2:6: error: malformed number '1r'\n" },
    { "PTX a\n{ Q0:r0=0; }\n", "t.litmus:2:3: error: bad thread name 'Q0' (expected P0, P1, ...)\n" },
    { "PTX a\n{ P3:r0=0; }\n P0 ;\nexists (true)",
      "t.litmus:2:3: error: unknown thread P3 in the init block (the test has 1 thread)\n" },
    { "PTX a\n{ x @ generic aliases y; y @ surface aliases x; }\n",
      "t.litmus:2:23: error: aliases of 'x' form a cycle\n" },
    { "PTX a\n{ y @ shared aliases x; }\n",
      "t.litmus:2:7: error: expected a proxy (generic, constant, surface or texture), got 'shared'\n" },
    { "PTX a\n{}\n P1 ;\n", "t.litmus:3:2: error: thread 'P1' in column 1: expected P0\n" },
    { "PTX a\n{}\n P0@cta x ;\n", "t.litmus:3:9: error: expected a cta or gpu number, got 'x'\n" },
    { "PTX a\n{}\n P0 | P1 ;\n st.weak x, 1 | frob r0 ;\nexists (true)",
      "t.litmus:4:17: error: unknown instruction 'frob'\n" },
    { "PTX a\n{}\n P0 ;\n ld.acquire.block r0, x ;\nexists (true)",
      "t.litmus:4:2: error: unknown instruction 'ld.acquire.block'\n" },
    { "PTX a\n{}\n P0 ;\n st.acquire.gpu x, 1 ;\nexists (true)",
      "t.litmus:4:2: error: unknown instruction 'st.acquire.gpu'\n" },
    { "PTX a\n{}\n P0 ;\n red.gpu.cas x, 1, 2 ;\nexists (true)",
      "t.litmus:4:2: error: unknown instruction 'red.gpu.cas'\n" },
    { "PTX a\n{}\n P0 ;\n beq r0, 0, L ;\nexists (true)",
      "t.litmus:4:13: error: undefined label 'L' in thread P0\n" },
    { "PTX a\n{}\n P0 | P1 ;\n L: | goto L ;\nexists (true)",
      "t.litmus:4:12: error: undefined label 'L' in thread P1\n" },
    { "PTX a\n{}\n P0 ;\n L: ;\n L: ;\nexists (true)",
      "t.litmus:5:2: error: label 'L' is defined twice in thread P0\n" },
    { "PTX a\n{}\n P0 | P1 ;\n fence.sc.gpu ;\nexists (true)",
      "t.litmus:4:15: error: row has 1 column but the thread header has 2\n" },
    { "PTX a\n{}\n P0 ;\n fence.sc.gpu | ;\nexists (true)",
      "t.litmus:4:15: error: row has more columns than the 1 thread of the header\n" },
    { "PTX a\n{ x=0; y @ generic virtually x; }\n P0 ;\n st.weak x, 1 ;\nexists (true)",
      "t.litmus:2:30: error: expected 'aliases', got 'x'\n" },
    { "PTX a\n{}\n P0 ;\n ld.weak %, x ;\nexists (true)",
      "t.litmus:4:10: error: unexpected character '%'\n" },
    { "PTX a\n{}\n P0 ;\n blt r0, 0 ;\nexists (true)",
      "t.litmus:4:2: error: 'blt' needs 3 operands, got 2\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\n",
      "t.litmus:5:1: error: unexpected end of file: expected the final condition (exists, ~exists or forall)\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1\n",
      "t.litmus:5:1: error: unexpected end of file at the end of the row (missing ';')\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1\n st.weak x, 2 ;\nexists (true)",
      "t.litmus:4:14: error: missing ';' at the end of the row\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 2 ;\nexists (true)",
      "t.litmus:4:15: error: unexpected '2' at the end of the row\n" },
    { "PTX a\n{}\n P0 ;\n ld.weak 7, x ;\nexists (true)",
      "t.litmus:4:10: error: expected a destination register as operand 1 of 'ld.weak', got '7'\n" },
    { "PTX a\n{}\n P0 ;\n st.weak 3, 1 ;\nexists (true)",
      "t.litmus:4:10: error: expected a location as operand 1 of 'st.weak', got '3'\n" },
    { "PTX a\n{}\n P0 ;\n st.weak [x], 1 ;\nexists (true)",
      "t.litmus:4:10: error: expected a location as operand 1 of 'st.weak', got '['\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x.y, 1 ;\nexists (true)",
      "t.litmus:4:10: error: bad location name 'x.y'\n" },
    { "PTX a\n{}\n P0 ;\n ld.weak r0 ;\nexists (true)",
      "t.litmus:4:2: error: 'ld.weak' needs 2 operands, got 1\n" },
    { "PTX a\n{}\n P0 ;\n ld.weak r0, x, y ;\nexists (true)",
      "t.litmus:4:17: error: too many operands for 'ld.weak' (it takes 2)\n" },
    { "PTX a\n{}\n P0 ;\n fence.sc.gpu x ;\nexists (true)",
      "t.litmus:4:15: error: 'fence.sc.gpu' takes no operands\n" },
    { "PTX a\n{}\n P0 ;\n ld.acquire.gpu r0, 1 ;\nexists (true)",
      "t.litmus:4:21: error: 'ld.acquire.gpu' needs a location: a constant source makes it a register move\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\nexists (P1:r0 == 1)",
      "t.litmus:5:9: error: unknown thread 'P1' in condition (the test has 1 thread)\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\nexists (3:r0 = 1)",
      "t.litmus:5:9: error: unknown thread '3' in condition (the test has 1 thread)\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\nexists (x == 1",
      "t.litmus:5:15: error: expected ')' to close '(' at 5:8, got end of file\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\nexists (x < 1)",
      "t.litmus:5:11: error: expected '==', '=' or '!=', got '<'\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\nexists\n",
      "t.litmus:6:1: error: unexpected end of file: expected a proposition\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\nexists (x == 1) junk",
      "t.litmus:5:17: error: unexpected 'junk' after the condition\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 ;\n~forall (x == 1)",
      "t.litmus:5:2: error: expected 'exists' after '~', got 'forall'\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 99999999999999999999 ;\nexists (true)",
      "t.litmus:4:13: error: number '99999999999999999999' is too large\n" },
    { "PTX a\n{}\n P0 ;\n st.weak x, 1 # ;\nexists (true)",
      "t.litmus:4:15: error: unexpected character '#'\n" },
    { "PTX a\n(* open\n{}\n", "t.litmus:2:1: error: unterminated comment\n" },
};

/* The six branch comparisons, %-registers and `virtually aliases`. */
static void test_ordered_branches_and_later_spellings(void)
{
    litmus_test *t = parse("PTX B\n{ x=0; y @ generic virtually aliases x; }\n"
                           " P0@cta 0,gpu 0 ;\n ld.weak %r0, y ;\n beq %r0, 1, L ;\n bne %r0, 1, L ;\n"
                           " blt %r0, 1, L ;\n bgt %r0, 1, L ;\n ble %r0, 1, L ;\n bge %r0, -1, L ;\n L: ;\n"
                           "exists (P0:%r0 == 0)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const lit_thread *th = &t->threads[0];
    CU_ASSERT_TRUE(reg(th, "%r0") >= 0);
    CU_ASSERT_EQUAL(t->locs[loc(t, "y")].physical, loc(t, "x"));
    CU_ASSERT_EQUAL_FATAL(th->ninstrs, 7);
    static const enum lit_cmp want[] = {CMP_EQ, CMP_NE, CMP_LT, CMP_GT, CMP_LE, CMP_GE};
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL(th->instrs[1 + i].op, OP_BRANCH);
        CU_ASSERT_EQUAL(th->instrs[1 + i].cmp, want[i]);
    }
    CU_ASSERT_EQUAL(th->instrs[6].b.imm, -1);
    /* signed comparisons */
    CU_ASSERT_TRUE(lit_cmp_holds(CMP_LT, -2, 1));
    CU_ASSERT_FALSE(lit_cmp_holds(CMP_GT, -2, 1));
    CU_ASSERT_TRUE(lit_cmp_holds(CMP_LE, 1, 1));
    CU_ASSERT_TRUE(lit_cmp_holds(CMP_GE, 1, 1));
    CU_ASSERT_FALSE(lit_cmp_holds(CMP_GE, 0, 1));
    CU_ASSERT_TRUE(lit_cmp_holds(CMP_NE, 0, 1));
}

static void test_bad_inputs(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        litmus_test *t = parse(bad_cases[i].text);
        CU_ASSERT_PTR_NULL(t);
        if (strcmp(errbuf, bad_cases[i].error) != 0) {
            fprintf(stderr, "\ncase %zu: got      %swant     %s", i, errbuf, bad_cases[i].error);
            CU_FAIL("wrong diagnostic");
        }
    }
}

static void test_binary_and_size(void)
{
    static const char nul[] = "PTX a\n{}\n P0 ;\n st.weak x,\0 1 ;\n";
    char *buf = NULL;
    size_t n = 0;
    FILE *err = open_memstream(&buf, &n);
    CU_ASSERT_PTR_NULL(litmus_parse_text("b.litmus", nul, sizeof nul - 1, err));
    /* a control byte, then bytes that are not UTF-8 */
    CU_ASSERT_PTR_NULL(litmus_parse_text("c.litmus", "PTX a\n\x01", 7, err));
    CU_ASSERT_PTR_NULL(litmus_parse_text("d.litmus", "PTX a\n\"\xff\xfe\"", 9, err));
    /* UTF-8 in a doc string is fine until it reaches the parser */
    size_t big = LITMUS_MAX_BYTES + 1;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    memcpy(huge, "PTX a", 5);
    CU_ASSERT_PTR_NULL(litmus_parse_text("e.litmus", huge, big, err));
    free(huge);
    CU_ASSERT_PTR_NULL(litmus_read_file("/nonexistent/dir/x.litmus", err));
    fclose(err);
    CU_ASSERT_STRING_EQUAL(buf,
        "b.litmus:4:12: error: binary data in file (byte 0x00): not a litmus test\n"
        "c.litmus:2:1: error: binary data in file (byte 0x01): not a litmus test\n"
        "d.litmus:2:2: error: binary data in file (byte 0xff): not a litmus test\n"
        "e.litmus:1:1: error: file too large (1048577 bytes, the limit is 1048576)\n"
        "/nonexistent/dir/x.litmus:1:1: error: cannot open: No such file or directory\n");
    free(buf);

    litmus_test *t = parse("PTX utf8\n\"caf\xc3\xa9\"\n{}\n P0 ;\n fence.sc.cta ;\nforall (true)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->doc, "caf\xc3\xa9");
}

static void test_deep_nesting(void)
{
    /* deep parentheses are refused, not a stack overflow */
    size_t depth = 100000;
    const char *head = "PTX a\n{}\n P0 ;\n fence.sc.cta ;\nexists ";
    size_t hl = strlen(head);
    char *s = malloc(hl + depth + 1);
    memcpy(s, head, hl);
    memset(s + hl, '(', depth);
    s[hl + depth] = '\0';
    CU_ASSERT_PTR_NULL(parse(s));
    CU_ASSERT_PTR_NOT_NULL(strstr(errbuf, "error: condition nested too deeply"));
    free(s);
}

static void test_read_file(void)
{
    char path[] = "/tmp/scopecheck_litmus_XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(mp_text, f);
    fclose(f);
    char *buf = NULL;
    size_t n = 0;
    FILE *err = open_memstream(&buf, &n);
    litmus_test *t = litmus_read_file(path, err);
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(t);
    CU_ASSERT_STRING_EQUAL(buf, "");
    if (t)
        CU_ASSERT_STRING_EQUAL(t->file, path);
    free(buf);
    remove(path);
}

void register_litmus_ptx_tests(void)
{
    CU_pSuite s = CU_add_suite("litmus_ptx", NULL, NULL);
    CU_add_test(s, "message passing: header, init, threads, condition", test_mp);
    CU_add_test(s, "every instruction kind", test_instruction_kinds);
    CU_add_test(s, "ordered branches, %-registers, virtually aliases", test_ordered_branches_and_later_spellings);
    CU_add_test(s, "proxies and aliases", test_proxies_and_aliases);
    CU_add_test(s, "alias chains", test_alias_chains);
    CU_add_test(s, "atomic locations: touched by a strong access", test_atomic_locations);
    CU_add_test(s, "herd condition forms, locations, comments", test_herd_condition_forms);
    CU_add_test(s, "bad inputs: exact diagnostics", test_bad_inputs);
    CU_add_test(s, "binary, oversized, unreadable input", test_binary_and_size);
    CU_add_test(s, "deeply nested condition", test_deep_nesting);
    CU_add_test(s, "litmus_read_file", test_read_file);
}
