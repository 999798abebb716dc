/* test_print.c: litmus tests written back as text (litmus/print.h).  The
 * round trip is checked structurally: every file of our PTX suite (and of
 * the shared PTX corpus, when it is there) is parsed, printed, parsed
 * again, and the two programs must have the same threads, placements,
 * locations, registers, instructions and condition.  OpenCL translations
 * are checked by their outcomes under the SC model. */
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "enumerate/enumerate.h"
#include "litmus/outcome.h"
#include "litmus/print.h"
#include "litmus/read.h"
#include "unit_suites.h"

typedef bool (*printer)(FILE *, const litmus_test *, const char **);

static litmus_test *round_trip(const litmus_test *t, printer print, const char **why)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    bool ok = print(f, t, why);
    fclose(f);
    litmus_test *back = ok ? litmus_parse_text("printed.litmus", buf, n, stderr) : NULL;
    if (ok && !back)
        fprintf(stderr, "printed text that does not read back:\n%s\n", buf);
    free(buf);
    return back;
}

static bool same_operand(const lit_thread *a, const lit_thread *b, lit_operand x, lit_operand y)
{
    if (x.kind != y.kind)
        return false;
    if (x.kind == OPND_REG)
        return strcmp(a->reg_names[x.reg], b->reg_names[y.reg]) == 0;
    return x.kind != OPND_IMM || x.imm == y.imm;
}

static bool same_instr(const litmus_test *ta, const lit_thread *a, const lit_instr *x, const litmus_test *tb,
                       const lit_thread *b, const lit_instr *y)
{
    if (x->op != y->op || x->order != y->order || x->scope != y->scope || x->proxy != y->proxy ||
        x->barrier_waits != y->barrier_waits || x->target != y->target || x->remote != y->remote ||
        x->regions != y->regions || (x->dst < 0) != (y->dst < 0) || (x->loc < 0) != (y->loc < 0))
        return false;
    if ((x->op == OP_RMW || x->op == OP_RED) && x->rmw_op != y->rmw_op)
        return false;
    if (x->op == OP_ALU && x->alu_op != y->alu_op)
        return false;
    if (x->op == OP_BRANCH && x->cmp != y->cmp)
        return false;
    if (x->dst >= 0 && strcmp(a->reg_names[x->dst], b->reg_names[y->dst]) != 0)
        return false;
    if (x->loc >= 0 && strcmp(ta->locs[x->loc].name, tb->locs[y->loc].name) != 0)
        return false;
    return same_operand(a, b, x->a, y->a) && same_operand(a, b, x->b, y->b);
}

static bool same_thread(const litmus_test *ta, const lit_thread *a, const litmus_test *tb, const lit_thread *b)
{
    if (a->cta != b->cta || a->gpu != b->gpu || a->ninstrs != b->ninstrs)
        return false;
    for (int r = 0; r < a->nregs; r++) {
        int s = litmus_reg_index(b, a->reg_names[r]);
        if (s < 0 || a->reg_init[r] != b->reg_init[s])
            return false;
    }
    for (int k = 0; k < a->ninstrs; k++)
        if (!same_instr(ta, a, &a->instrs[k], tb, b, &b->instrs[k]))
            return false;
    return true;
}

static char *cond_text(const litmus_test *t)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    litmus_print_cond(f, t, t->cond);
    fclose(f);
    return buf;
}

static bool same_test(const litmus_test *a, const litmus_test *b)
{
    if (a->nthreads != b->nthreads || a->nlocs != b->nlocs || a->quant != b->quant || a->nobserved != b->nobserved)
        return false;
    for (int l = 0; l < a->nlocs; l++)
        if (strcmp(a->locs[l].name, b->locs[l].name) != 0 || a->locs[l].init != b->locs[l].init ||
            a->locs[l].physical != b->locs[l].physical || a->locs[l].alias_proxy != b->locs[l].alias_proxy)
            return false;
    for (int i = 0; i < a->nthreads; i++)
        if (!same_thread(a, &a->threads[i], b, &b->threads[i]))
            return false;
    char *ca = cond_text(a), *cb = cond_text(b);
    bool same = strcmp(ca, cb) == 0;
    free(ca);
    free(cb);
    return same;
}

/* Calls check(path) for every *.litmus in dir and, one level down, in its
 * folders; returns how many files were found. */
static int each_file(const char *dir, int depth, void (*check)(const char *))
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        if (len > 7 && strcmp(e->d_name + len - 7, ".litmus") == 0) {
            check(path);
            n++;
        } else if (depth < 3) {
            n += each_file(path, depth + 1, check);
        }
    }
    closedir(d);
    return n;
}

static void check_ptx_round_trip(const char *path)
{
    litmus_test *t = litmus_read_file(path, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const char *why = NULL;
    litmus_test *back = round_trip(t, litmus_print_ptx, &why);
    if (!back || !same_test(t, back))
        fprintf(stderr, "PTX round trip differs: %s (%s)\n", path, why ? why : "printed");
    CU_ASSERT_PTR_NOT_NULL(back);
    CU_ASSERT_TRUE(back && same_test(t, back));
}

static void test_ptx_round_trip(void)
{
    CU_ASSERT_TRUE(each_file("litmus/ptx", 0, check_ptx_round_trip) > 40);
    int shared = each_file("../shared/corpus/ptx", 0, check_ptx_round_trip);
    if (shared == 0)
        fprintf(stderr, "test_print: ../shared/corpus/ptx not found, shared corpus round trip skipped\n");
}

static cat_model *sc_model;
static cat_workspace *sc_ws;
static int opencl_checked;

static outcome_set *sc_outcomes(const litmus_test *t)
{
    enum_options o = {.unroll = 2, .max_traces = 100000};
    check_result r;
    CU_ASSERT_TRUE_FATAL(enumerate_check(t, sc_model, sc_ws, &o, &r, stderr));
    return r.states;
}

/* Both tests observe the same terms in the same order (the condition is
 * printed as it is), so their sorted states compare value by value. */
static bool same_outcomes(outcome_set *sa, outcome_set *sb)
{
    int n = outcome_count(sa), w = outcome_width(sa);
    if (n != outcome_count(sb) || w != outcome_width(sb))
        return false;
    return memcmp(outcome_sorted(sa), outcome_sorted(sb), sizeof(lit_value) * (size_t)n * (size_t)w) == 0;
}

static void check_opencl_translation(const char *path)
{
    litmus_test *t = litmus_read_file(path, stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const char *why = NULL;
    litmus_test *back = round_trip(t, litmus_print_opencl, &why);
    if (!back) {
        CU_ASSERT_PTR_NOT_NULL(why); /* refused, with a reason */
        return;
    }
    opencl_checked++;
    bool same = same_outcomes(sc_outcomes(t), sc_outcomes(back));
    if (!same)
        fprintf(stderr, "OpenCL translation changes the SC outcomes: %s\n", path);
    CU_ASSERT_TRUE(same);
}

static void test_opencl_translation(void)
{
    sc_model = cat_load("models/sc.cat", stderr);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc_model);
    sc_ws = cat_workspace_new(sc_model);
    opencl_checked = 0;
    each_file("litmus/ptx", 0, check_opencl_translation);
    CU_ASSERT_TRUE(opencl_checked >= 15);
}

void register_print_tests(void)
{
    CU_pSuite s = CU_add_suite("litmus print", NULL, NULL);
    CU_add_test(s, "PTX round trip over our suites", test_ptx_round_trip);
    CU_add_test(s, "OpenCL translations keep the SC outcomes", test_opencl_translation);
}
