/* test_litmus_opencl.c: the OpenCL litmus front end, text -> litmus_test. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/litmus.h"
#include "litmus/read.h"
#include "unit_suites.h"

static char errbuf[1024];

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

static const char mp_text[] =
    "OPENCL MP\n"
    "(* a comment *)\n"
    "{ [x]=0; y = 5; }\n"
    "P0@wg 0, dev 0 (global int* x, local atomic_int* y) {\n"
    "  *x = 1; // data\n"
    "  atomic_store_explicit(y, 1, memory_order_release, memory_scope_work_group);\n"
    "}\n"
    "P1@wg 1, dev 2 (global int* x, local atomic_int* y) {\n"
    "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
    "  int r1 = *x; /* C comment */\n"
    "  int r2 = atomic_load(y);\n"
    "}\n"
    "exists (1:r0=1 /\\ 1:r1=0 /\\ y=1)\n";

static void test_mp(void)
{
    litmus_test *t = parse(mp_text);
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->arch, "OPENCL");
    CU_ASSERT_STRING_EQUAL(t->name, "MP");
    CU_ASSERT_EQUAL_FATAL(t->nthreads, 2);
    CU_ASSERT_EQUAL_FATAL(t->nlocs, 2);
    int x = litmus_loc_index(t, "x"), y = litmus_loc_index(t, "y");
    CU_ASSERT_EQUAL(t->locs[y].init, 5);
    CU_ASSERT_EQUAL(t->locs[x].region, REGION_GLOBAL);
    CU_ASSERT_EQUAL(t->locs[y].region, REGION_LOCAL);
    CU_ASSERT_FALSE(t->locs[x].atomic_type);
    CU_ASSERT_TRUE(t->locs[y].atomic_type);
    lit_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    CU_ASSERT_EQUAL(p1->cta, 1);
    CU_ASSERT_EQUAL(p1->gpu, 2);
    CU_ASSERT_EQUAL_FATAL(p0->ninstrs, 2);
    CU_ASSERT_EQUAL(p0->instrs[0].op, OP_STORE);
    CU_ASSERT_EQUAL(p0->instrs[0].order, ORD_WEAK);
    CU_ASSERT_EQUAL(p0->instrs[0].scope, SCOPE_NONE);
    CU_ASSERT_EQUAL(p0->instrs[0].loc, x);
    CU_ASSERT_EQUAL(p0->instrs[0].a.kind, OPND_IMM);
    CU_ASSERT_EQUAL(p0->instrs[0].a.imm, 1);
    CU_ASSERT_STRING_EQUAL(p0->instrs[0].text, "*x = 1;");
    CU_ASSERT_EQUAL(p0->instrs[0].line, 5);
    CU_ASSERT_EQUAL(p0->instrs[0].col, 3);
    CU_ASSERT_EQUAL(p0->instrs[1].op, OP_STORE);
    CU_ASSERT_EQUAL(p0->instrs[1].order, ORD_RELEASE);
    CU_ASSERT_EQUAL(p0->instrs[1].scope, SCOPE_CTA);
    CU_ASSERT_EQUAL_FATAL(p1->ninstrs, 3);
    CU_ASSERT_EQUAL(p1->instrs[0].op, OP_LOAD);
    CU_ASSERT_EQUAL(p1->instrs[0].order, ORD_ACQUIRE);
    CU_ASSERT_EQUAL(p1->instrs[0].scope, SCOPE_GPU);     /* default scope: device */
    CU_ASSERT_EQUAL(p1->instrs[0].dst, litmus_reg_index(p1, "r0"));
    CU_ASSERT_EQUAL(p1->instrs[1].order, ORD_WEAK);
    CU_ASSERT_EQUAL(p1->instrs[1].dst, litmus_reg_index(p1, "r1"));
    CU_ASSERT_EQUAL(p1->instrs[2].order, ORD_SC);
    CU_ASSERT_EQUAL(p1->instrs[2].scope, SCOPE_GPU);
    CU_ASSERT_EQUAL(t->quant, QUANT_EXISTS);
    CU_ASSERT_EQUAL(t->nobserved, 3);
}

static void test_fence_barrier_rmw(void)
{
    litmus_test *t = parse(
        "OPENCL F\n{ [x]=0; [y]=0; }\n"
        "P0 (global atomic_int* x, local atomic_int* y) {\n"
        "  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_all_svm_devices);\n"
        "  B1: barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);\n"
        "  int r = atomic_fetch_add_explicit_remote(x, 2, memory_order_relaxed, memory_scope_work_item);\n"
        "  atomic_exchange(y, 3);\n"
        "  atomic_store_explicit_remote(x, r + 1, memory_order_seq_cst);\n"
        "}\n"
        "exists (0:r=0)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    lit_thread *th = &t->threads[0];
    CU_ASSERT_EQUAL(th->cta, 0);
    CU_ASSERT_EQUAL(th->gpu, 0);
    CU_ASSERT_EQUAL_FATAL(th->ninstrs, 7);
    lit_instr *in = th->instrs;
    CU_ASSERT_EQUAL(in[0].op, OP_FENCE);
    CU_ASSERT_EQUAL(in[0].order, ORD_ACQ_REL);
    CU_ASSERT_EQUAL(in[0].scope, SCOPE_SYS);
    CU_ASSERT_EQUAL(in[0].regions, REGION_GLOBAL | REGION_LOCAL);
    CU_ASSERT_EQUAL(in[1].op, OP_BARRIER);
    CU_ASSERT_TRUE(in[1].barrier_waits);
    CU_ASSERT_EQUAL(in[1].a.kind, OPND_IMM);
    CU_ASSERT_EQUAL(in[1].a.imm, 0);
    CU_ASSERT_EQUAL(in[1].b.kind, OPND_NONE);
    CU_ASSERT_EQUAL(in[1].scope, SCOPE_CTA);
    CU_ASSERT_EQUAL(in[1].regions, REGION_LOCAL);
    CU_ASSERT_EQUAL(in[2].a.imm, 1);                 /* second barrier of the thread */
    CU_ASSERT_EQUAL(in[2].regions, REGION_GLOBAL);
    CU_ASSERT_EQUAL(in[3].op, OP_RMW);
    CU_ASSERT_EQUAL(in[3].rmw_op, RMW_ADD);
    CU_ASSERT_TRUE(in[3].remote);
    CU_ASSERT_EQUAL(in[3].scope, SCOPE_WI);
    CU_ASSERT_EQUAL(in[3].dst, litmus_reg_index(th, "r"));
    CU_ASSERT_EQUAL(in[4].op, OP_RMW);
    CU_ASSERT_EQUAL(in[4].rmw_op, RMW_EXCH);
    CU_ASSERT_EQUAL(in[4].order, ORD_SC);
    CU_ASSERT_FALSE(in[4].remote);
    CU_ASSERT_EQUAL(in[5].op, OP_ALU);
    CU_ASSERT_EQUAL(in[5].alu_op, ALU_ADD);
    CU_ASSERT_EQUAL(in[6].op, OP_STORE);
    CU_ASSERT_TRUE(in[6].remote);
    CU_ASSERT_EQUAL(in[6].a.kind, OPND_REG);
    CU_ASSERT_EQUAL(in[6].a.reg, in[5].dst);
}

static void test_control_flow(void)
{
    litmus_test *t = parse(
        "OPENCL C\n{ [x]=0; }\n"
        "P0@wg 0, dev 0 (global atomic_int* x) {\n"
        "  int r = -1;\n"
        "  if (atomic_load(x) == 1) { r = 1; } else r = 2;\n"
        "  while (r != 0) { r = r - 1; }\n"
        "  do { r++; } while (!(r == 3) && r != 7);\n"
        "}\n"
        "exists (0:r=3)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    lit_thread *th = &t->threads[0];
    for (int i = 0; i < th->ninstrs; i++) {
        const lit_instr *in = &th->instrs[i];
        if (in->op == OP_BRANCH || in->op == OP_GOTO) {
            CU_ASSERT_TRUE(in->target >= 0 && in->target <= th->ninstrs);
        }
        CU_ASSERT_PTR_NOT_NULL(in->text);
    }
    CU_ASSERT_EQUAL(th->instrs[0].op, OP_MOV);
    CU_ASSERT_EQUAL(th->instrs[0].a.imm, -1);
    CU_ASSERT_EQUAL(th->instrs[1].op, OP_LOAD);
    CU_ASSERT_EQUAL(th->instrs[2].op, OP_BRANCH);
    CU_ASSERT_EQUAL(th->instrs[2].cmp, CMP_NE);
    CU_ASSERT_STRING_EQUAL(th->instrs[2].text, "if (atomic_load(x) == 1)");
}

static void test_cas(void)
{
    litmus_test *t = parse(
        "OPENCL CAS\n{ [x]=0; [e]=0; }\n"
        "P0 (global atomic_int* x, int* e) {\n"
        "  int ok = atomic_compare_exchange_strong_explicit(x, e, 1, memory_order_acq_rel,\n"
        "          memory_order_relaxed, memory_scope_device);\n"
        "  int v = 0;\n"
        "  int ok2 = atomic_compare_exchange_strong(x, &v, 2);\n"
        "}\n"
        "exists (0:ok=1 /\\ 0:ok2=0 /\\ 0:v=1 /\\ e=0)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    lit_thread *th = &t->threads[0];
    lit_instr *in = th->instrs;
    CU_ASSERT_EQUAL(in[0].op, OP_LOAD);           /* the expected value, *e */
    CU_ASSERT_EQUAL(in[0].loc, litmus_loc_index(t, "e"));
    CU_ASSERT_EQUAL(in[1].op, OP_RMW);
    CU_ASSERT_EQUAL(in[1].rmw_op, RMW_CAS);
    CU_ASSERT_EQUAL(in[1].order, ORD_ACQ_REL);
    CU_ASSERT_EQUAL(in[1].a.reg, in[0].dst);
    CU_ASSERT_EQUAL(in[1].b.imm, 1);
    CU_ASSERT_EQUAL(in[2].op, OP_BRANCH);
    CU_ASSERT_EQUAL(in[3].op, OP_MOV);
    CU_ASSERT_EQUAL(in[3].dst, litmus_reg_index(th, "ok"));
    CU_ASSERT_EQUAL(in[3].a.imm, 1);
    CU_ASSERT_EQUAL(in[5].op, OP_STORE);          /* failure: *e = old */
    CU_ASSERT_EQUAL(in[5].order, ORD_WEAK);
}

static void test_scope_tree(void)
{
    litmus_test *t = parse(
        "OPENCL ST\n{ x=0; }\n"
        "P0 (global int* x) { *x = 1; }\n"
        "P1 (global int* x) { int r = *x; }\n"
        "P2 (global int* x) { }\n"
        "scopeTree (device (work_group P0 P1) (work_group P2))\n"
        "exists (1:r=1 /\\ 0:x=0)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->threads[0].cta, 0);
    CU_ASSERT_EQUAL(t->threads[1].cta, 0);
    CU_ASSERT_EQUAL(t->threads[2].cta, 1);
    CU_ASSERT_EQUAL(t->threads[2].ninstrs, 0);
    /* 0:x names the pointer parameter: it holds an address, never 0 */
    int r = litmus_reg_index(&t->threads[0], "x");
    CU_ASSERT_TRUE_FATAL(r >= 0);
    CU_ASSERT_NOT_EQUAL(t->threads[0].reg_init[r], 0);
}

/* herd's legacy format: header OpenCL, info lines, placement by scopeTree
 * with two devices, variables by assignment, undeclared locations, release
 * loads, fence(), labelled barriers, [x] and () in the condition. */
static const char herd_text[] =
    "OpenCL H\n"
    "\"PodWW Rfe\"\n"
    "Prefetch=0:x=F,1:y=T\n"
    "Com=Rf Fr\n"
    "{ [x]=0; [y]=0; }\n"
    "P0 (volatile int* x, global atomic_int* y) {\n"
    "  B1: barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  r0 = atomic_load_explicit(y, memory_order_release, memory_scope_device);\n"
    "  fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);\n"
    "  B2: barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "  r1 = *z;\n"
    "}\n"
    "P1 (global int* x, global atomic_int* y) {\n"
    "  B2: barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "}\n"
    "P2 (local int* w) { }\n"
    "scopeTree (device (work_group P0 P1)) ((device (work_group P2)))\n"
    "exists ([x]=0 /\\ ())\n";

static void test_herd_format(void)
{
    litmus_test *t = parse(herd_text);
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_STRING_EQUAL(t->arch, "OpenCL");
    CU_ASSERT_EQUAL(t->threads[1].gpu, 0);
    CU_ASSERT_EQUAL(t->threads[2].gpu, 1);
    CU_ASSERT_EQUAL(t->threads[2].cta, 1);
    int x = litmus_loc_index(t, "x"), z = litmus_loc_index(t, "z"), w = litmus_loc_index(t, "w");
    CU_ASSERT_TRUE_FATAL(x >= 0 && z >= 0 && w >= 0);
    CU_ASSERT_EQUAL(t->locs[x].region, REGION_GLOBAL);   /* global in P1, none in P0 */
    CU_ASSERT_EQUAL(t->locs[z].region, REGION_NONE);     /* never declared */
    CU_ASSERT_EQUAL(t->locs[z].init, LIT_NO_VALUE);
    CU_ASSERT_EQUAL(t->locs[w].region, REGION_LOCAL);
    lit_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
    CU_ASSERT_TRUE(litmus_reg_index(p0, "r0") >= 0);     /* declared by assignment */
    CU_ASSERT_EQUAL_FATAL(p0->ninstrs, 5);
    CU_ASSERT_EQUAL(p0->instrs[1].op, OP_LOAD);
    CU_ASSERT_EQUAL(p0->instrs[1].order, ORD_RELEASE);
    CU_ASSERT_EQUAL(p0->instrs[2].op, OP_FENCE);
    CU_ASSERT_EQUAL(p0->instrs[2].order, ORD_ACQUIRE);
    /* barriers meet by label: P0's B2 (its second) is P1's B2 (its first) */
    CU_ASSERT_EQUAL(p0->instrs[3].a.imm, p1->instrs[0].a.imm);
    CU_ASSERT_NOT_EQUAL(p0->instrs[0].a.imm, p1->instrs[0].a.imm);
    CU_ASSERT_EQUAL(p0->instrs[4].loc, z);
    /* [x]=0 /\ (): the empty proposition is true */
    CU_ASSERT_EQUAL_FATAL(t->cond->kind, COND_AND);
    CU_ASSERT_EQUAL(t->cond->left->lhs.kind, TERM_LOC);
    CU_ASSERT_EQUAL(t->cond->left->lhs.loc, x);
    CU_ASSERT_EQUAL(t->cond->right->kind, COND_TRUE);
}

/* In our dialect (OPENCL) a pointer without address space is in no region;
 * unlabelled barriers meet by position. */
static void test_regions_and_positions(void)
{
    litmus_test *t = parse("OPENCL R\n{ }\nP0 (int* a, global int* b) {\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                           "  L: barrier(CLK_LOCAL_MEM_FENCE);\n}\nexists (a=0)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->locs[litmus_loc_index(t, "a")].region, REGION_NONE);
    CU_ASSERT_EQUAL(t->locs[litmus_loc_index(t, "b")].region, REGION_GLOBAL);
    CU_ASSERT_EQUAL(t->threads[0].instrs[0].a.imm, 0);
    CU_ASSERT_EQUAL(t->threads[0].instrs[1].a.imm, 1);
}

/* Arrays: typed declarations with initialisers, constant and register
 * indices. */
static void test_arrays(void)
{
    litmus_test *t = parse("OPENCL A\n{ atomic_int y[2] = {0, 7}; int d[] = {1, 2, 3}; local int s = 4; }\n"
                           "P0 (global atomic_int* y, global int* d) {\n"
                           "  d[2] = 5;\n"
                           "  int i = atomic_load(&y[1]);\n"
                           "  int v = d[i];\n"
                           "}\n"
                           "exists (y[1]=7 /\\ d[0]=1)\n");
    CU_ASSERT_STRING_EQUAL(errbuf, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int y1 = litmus_loc_index(t, "y[1]"), d0 = litmus_loc_index(t, "d[0]"), d2 = litmus_loc_index(t, "d[2]");
    int s = litmus_loc_index(t, "s");
    CU_ASSERT_TRUE_FATAL(y1 >= 0 && d0 >= 0 && d2 >= 0 && s >= 0);
    CU_ASSERT_EQUAL(t->locs[y1].init, 7);
    CU_ASSERT_TRUE(t->locs[y1].atomic_type);
    CU_ASSERT_FALSE(t->locs[d0].atomic_type);
    CU_ASSERT_EQUAL(t->locs[d2].init, 3);
    CU_ASSERT_EQUAL(t->locs[s].region, REGION_LOCAL);
    CU_ASSERT_EQUAL(t->locs[d0].region, REGION_GLOBAL);   /* from the parameter */
    lit_thread *th = &t->threads[0];
    CU_ASSERT_EQUAL(th->instrs[0].op, OP_STORE);
    CU_ASSERT_EQUAL(th->instrs[0].loc, d2);
    CU_ASSERT_EQUAL(th->instrs[1].op, OP_LOAD);
    CU_ASSERT_EQUAL(th->instrs[1].loc, y1);
    /* d[i]: one comparison per element, then a load of each element */
    int branches = 0, loads_of_d = 0;
    for (int k = 2; k < th->ninstrs; k++) {
        branches += th->instrs[k].op == OP_BRANCH;
        loads_of_d += th->instrs[k].op == OP_LOAD && th->instrs[k].loc >= d0 && th->instrs[k].loc <= d2;
    }
    CU_ASSERT_EQUAL(branches, 3);
    CU_ASSERT_EQUAL(loads_of_d, 3);
    CU_ASSERT_EQUAL(t->cond->left->lhs.loc, y1);
}

/* x + k on a location that is no array: herd7's C reading, as in the C
 * dialect (docs/litmus-c.md): x + 0 is x, x + 1 the location "x+1" with
 * no initial value; y + r is one access per element, each with an address
 * dependency on r and comparisons that are no control dependency. */
static void test_offsets(void)
{
    litmus_test *t = parse("OPENCL o\n{ [x]=0; int y[2]; }\n"
                           "P0 (global atomic_int* x, global atomic_int* y) {\n"
                           "  atomic_store_explicit(x + 1, 1, memory_order_relaxed);\n"
                           "  atomic_store_explicit(x + 0, 2, memory_order_relaxed);\n"
                           "  int r = atomic_load_explicit(x, memory_order_relaxed);\n"
                           "  int s = atomic_load_explicit(y + r, memory_order_relaxed);\n}\nexists (x=1)\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int x = litmus_loc_index(t, "x"), x1 = litmus_loc_index(t, "x+1");
    CU_ASSERT_TRUE(x >= 0 && x1 >= 0 && x1 != x);
    CU_ASSERT_EQUAL(t->locs[x1].init, LIT_NO_VALUE);
    lit_thread *th = &t->threads[0];
    CU_ASSERT_EQUAL(th->instrs[0].loc, x1);
    CU_ASSERT_EQUAL(th->instrs[0].addr.kind, OPND_NONE);
    CU_ASSERT_EQUAL(th->instrs[1].loc, x);
    int loads_of_y = 0, selects = 0;
    for (int k = 3; k < th->ninstrs; k++) {
        const lit_instr *in = &th->instrs[k];
        selects += in->op == OP_BRANCH && in->addr_select;
        if (in->op == OP_LOAD && in->loc >= 0 && strncmp(t->locs[in->loc].name, "y[", 2) == 0 &&
            strcmp(t->locs[in->loc].name, "y[out of range]") != 0) {
            loads_of_y++;
            CU_ASSERT_EQUAL(in->addr.kind, OPND_REG);
        }
    }
    CU_ASSERT_EQUAL(loads_of_y, 2);
    CU_ASSERT_EQUAL(selects, 2);
}

static const struct { const char *text, *err; } bad[] = {
    { "OPENCL b\n{ int y[2]; }\nP0 (global int* y) {\n  y[2] = 1;\n}\nexists (y[0]=1)\n",
      "t.litmus:4:5: error: index 2 is out of range for y[2]\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  int r = 0;\n  r[1] = 1;\n}\nexists (x=1)\n",
      "t.litmus:5:3: error: 'r' is a variable, not a location: it cannot be indexed\n" },
    { "OPENCL b\n{ int y[2] = 3; }\nP0 (global int* y) { }\nexists (y[0]=1)\n",
      "t.litmus:2:7: error: array 'y' is initialised with '= {v, ...}'\n" },
    { "OPENCL b\n{ int y[1] = {1, 2}; }\nP0 (global int* y) { }\nexists (y[0]=1)\n",
      "t.litmus:2:7: error: 2 initial values for y[1]\n" },
    { "OPENCL b\n{ int y[]; }\nP0 (global int* y) { }\nexists (y[0]=1)\n",
      "t.litmus:2:8: error: array 'y' needs a length or initial values\n" },
    { "OPENCL b\n{ int y[0]; }\nP0 (global int* y) { }\nexists (y[0]=1)\n",
      "t.litmus:2:9: error: an array has 1 to 64 elements, not 0\n" },
    { "OpenCL b\nPrefetch=0:x=F\n", "t.litmus:3:1: error: unexpected end of file: expected '{' to open the init block\n" },
    { "OpenCL b\n{ [x]=0; }\nP0 (global int* x) { }\nscopeTree ((device (work_group P0))\nexists (x=1)\n",
      "t.litmus:5:1: error: expected ')' closing a group of devices in the scope tree, got 'exists'\n" },
    { "OpenCL b\n{ [x]=0; }\nP0 (global int* x) { }\nexists ([x=1)\n",
      "t.litmus:4:11: error: expected ']' after '[x', got '='\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  frob(x);\n}\nexists (x=1)\n",
      "t.litmus:4:3: error: unknown function 'frob'\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  *y = 1;\n}\nexists (x=1)\n",
      "t.litmus:4:4: error: undeclared location 'y' (not a parameter of thread P0)\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  *x = 1;\nexists (x=1)\n",
      "t.litmus:5:1: error: missing '}' for the '{' at 3:20 before the final condition\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  *x = 1;\n",
      "t.litmus:5:1: error: unexpected end of file: missing '}' for the '{' at 3:20\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  *x = 1;\n}\nexists (1:r=1)\n",
      "t.litmus:6:9: error: unknown thread '1' in condition (the test has 1 thread)\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  *x = 1;\n}\nexists (z=1)\n",
      "t.litmus:6:1: error: unknown location 'z' in the final condition\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  int r = atomic_load_explicit(x, memory_order_release);\n}\nexists (x=1)\n",
      "t.litmus:4:35: error: a load cannot have memory order release or acq_rel\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  r = 1;\n}\nexists (x=1)\n",
      "t.litmus:4:3: error: undeclared variable 'r' in thread P0\n" },
    { "OPENCL b\n{ [x]=0; }\nP1 (global int* x) { }\nexists (x=1)\n",
      "t.litmus:3:1: error: thread 'P1' out of order: expected P0\n" },
    { "OPENCL\n", "t.litmus:1:7: error: expected the test name after 'OPENCL' on the first line\n" },
    { "OPENCL b\n{ [x]=0; }\nP0 (global int* x) {\n  atomic_store(x);\n}\nexists (x=1)\n",
      "t.litmus:4:3: error: 'atomic_store' takes 2 arguments, not 1\n" },
};

static void test_errors(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        litmus_test *t = parse(bad[i].text);
        CU_ASSERT_PTR_NULL(t);
        if (strcmp(errbuf, bad[i].err) != 0)
            fprintf(stderr, "\ncase %zu: got '%s' want '%s'\n", i, errbuf, bad[i].err);
        CU_ASSERT_STRING_EQUAL(errbuf, bad[i].err);
    }
}

/* Every prefix of a valid test is refused cleanly (or parses). */
static void test_truncations(void)
{
    size_t n = strlen(mp_text);
    for (size_t k = 0; k < n; k++) {
        char *buf = malloc(k + 1);
        memcpy(buf, mp_text, k);
        buf[k] = '\0';
        litmus_test *t = parse(buf);
        if (!t)
            CU_ASSERT_PTR_NOT_NULL(strstr(errbuf, ": error: "));
        free(buf);
    }
}

void register_litmus_opencl_tests(void)
{
    CU_pSuite s = CU_add_suite("litmus_opencl", NULL, NULL);
    CU_add_test(s, "MP mapping", test_mp);
    CU_add_test(s, "fences, barriers, RMWs, remote", test_fence_barrier_rmw);
    CU_add_test(s, "if, while, do-while", test_control_flow);
    CU_add_test(s, "compare-exchange", test_cas);
    CU_add_test(s, "x + k and y + r: locations and addr", test_offsets);
    CU_add_test(s, "scopeTree and pointer registers", test_scope_tree);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "herd's legacy format", test_herd_format);
    CU_add_test(s, "arrays", test_arrays);
    CU_add_test(s, "regions and barrier positions", test_regions_and_positions);
    CU_add_test(s, "truncated input", test_truncations);
}
