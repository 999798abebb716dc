/* litmus/print.c: a litmus_test as PTX or OpenCL C text (see print.h). */
#include "litmus/print.h"

#include <ctype.h>
#include <gc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared pieces ---------------------------------------------------------- */

static bool is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

static void print_operand(FILE *out, const lit_thread *th, lit_operand o)
{
    if (o.kind == OPND_REG)
        fputs(th->reg_names[o.reg], out);
    else
        fprintf(out, "%" PRId64, o.imm);
}

static void print_term(FILE *out, const litmus_test *t, const lit_term *term)
{
    switch (term->kind) {
    case TERM_REG: fprintf(out, "P%d:%s", term->thread, t->threads[term->thread].reg_names[term->reg]); break;
    case TERM_LOC: fputs(t->locs[term->loc].name, out); break;
    case TERM_CONST: fprintf(out, "%" PRId64, term->value); break;
    }
}

/* prec: 0 at the top or under \/ on its left, 1 under /\ on its left, 2 in
 * a right operand or under ~.  The parser is left-associative and /\ binds
 * tighter than \/, so parentheses go exactly where the tree needs them. */
static void print_prop(FILE *out, const litmus_test *t, const lit_cond *c, int prec)
{
    switch (c->kind) {
    case COND_TRUE: fputs("true", out); break;
    case COND_FALSE: fputs("false", out); break;
    case COND_AND:
    case COND_OR: {
        bool and = c->kind == COND_AND;
        bool paren = and ? prec >= 2 : prec >= 1;
        if (paren)
            fputc('(', out);
        print_prop(out, t, c->left, and ? 1 : 0);
        fputs(and ? " /\\ " : " \\/ ", out);
        print_prop(out, t, c->right, 2);
        if (paren)
            fputc(')', out);
        break;
    }
    case COND_NOT:
        fputc('~', out);
        print_prop(out, t, c->left, 2);
        break;
    case COND_EQ:
    case COND_NE:
        print_term(out, t, &c->lhs);
        fputs(c->kind == COND_EQ ? " == " : " != ", out);
        print_term(out, t, &c->rhs);
        break;
    }
}

void litmus_print_cond(FILE *out, const litmus_test *t, const lit_cond *c) { print_prop(out, t, c, 0); }

static bool same_term(const lit_term *a, const lit_term *b)
{
    return a->kind == b->kind && (a->kind == TERM_REG ? a->thread == b->thread && a->reg == b->reg
                                                      : a->kind == TERM_LOC && a->loc == b->loc);
}

/* The observed terms in the order the condition alone would give them. */
static void cond_terms(const lit_cond *c, lit_term *terms, int *n, int max)
{
    if (c->kind == COND_AND || c->kind == COND_OR) {
        cond_terms(c->left, terms, n, max);
        cond_terms(c->right, terms, n, max);
    } else if (c->kind == COND_NOT) {
        cond_terms(c->left, terms, n, max);
    } else if (c->kind == COND_EQ || c->kind == COND_NE) {
        const lit_term *side[2] = {&c->lhs, &c->rhs};
        for (int s = 0; s < 2; s++) {
            if (side[s]->kind == TERM_CONST)
                continue;
            bool seen = false;
            for (int i = 0; i < *n && !seen; i++)
                seen = same_term(&terms[i], side[s]);
            if (!seen && *n < max)
                terms[(*n)++] = *side[s];
        }
    }
}

/* The final part: a locations clause when the observed terms are not
 * exactly those of the condition in its order, then the quantified
 * condition. */
static void print_final(FILE *out, const litmus_test *t)
{
    int max = t->nobserved + 1;
    lit_term *terms = GC_MALLOC_ATOMIC(sizeof *terms * (size_t)max);
    int n = 0;
    cond_terms(t->cond, terms, &n, max);
    bool same = n == t->nobserved;
    for (int i = 0; i < n && same; i++)
        same = same_term(&terms[i], &t->observed[i]);
    if (!same) {
        fputs("locations [", out);
        for (int i = 0; i < t->nobserved; i++) {
            print_term(out, t, &t->observed[i]);
            fputs("; ", out);
        }
        fputs("]\n", out);
    }
    static const char *const quant[] = {[QUANT_EXISTS] = "exists", [QUANT_NOT_EXISTS] = "~exists",
                                        [QUANT_FORALL] = "forall"};
    fprintf(out, "%s (", quant[t->quant]);
    litmus_print_cond(out, t, t->cond);
    fputs(")\n", out);
}

/* Checks shared by both dialects: names that a file can spell (PTX also
 * spells its registers %r0), no computed address. */
static bool names_ok(const litmus_test *t, bool ptx, const char **why)
{
    for (int l = 0; l < t->nlocs; l++)
        if (!is_identifier(t->locs[l].name)) {
            *why = "a location name that is not an identifier";
            return false;
        }
    for (int i = 0; i < t->nthreads; i++)
        for (int r = 0; r < t->threads[i].nregs; r++)
            if (!is_identifier(t->threads[i].reg_names[r]) &&
                !(ptx && t->threads[i].reg_names[r][0] == '%' && is_identifier(t->threads[i].reg_names[r] + 1))) {
                *why = "a register name that is not an identifier (a compiler temporary)";
                return false;
            }
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].ninstrs; k++)
            if (t->threads[i].instrs[k].addr.kind != OPND_NONE || t->threads[i].instrs[k].addr_select) {
                *why = "an access at a computed address (x + r), which neither form writes with its dependency";
                return false;
            }
    return true;
}

/* Is instruction i of th the target of some branch? */
static bool is_target(const lit_thread *th, int i)
{
    for (int j = 0; j < th->ninstrs; j++) {
        const lit_instr *in = &th->instrs[j];
        if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target == i)
            return true;
    }
    return false;
}

/* ---- PTX ----------------------------------------------------------------------- */

static const char *ptx_scope(enum lit_scope s)
{
    return s == SCOPE_CTA || s == SCOPE_GPU || s == SCOPE_SYS ? vocab_scopes[s] : NULL;
}

static const char *ptx_access_prefix(const lit_instr *in)
{
    static const char *const loads[] = {[PROXY_GENERIC] = "ld", [PROXY_SURFACE] = "suld",
                                        [PROXY_TEXTURE] = "tld", [PROXY_CONSTANT] = "cold",
                                        [PROXY_ALIAS] = "ld"};
    if (in->op == OP_LOAD)
        return loads[in->proxy];
    return in->proxy == PROXY_SURFACE ? "sust" : "st";
}

/* "ld.weak", "st.release.gpu": the mnemonic of a load or store. */
static bool ptx_access(FILE *out, const lit_instr *in, const char **why)
{
    const char *prefix = ptx_access_prefix(in);
    if (in->order == ORD_WEAK) {
        fprintf(out, "%s.weak", prefix);
        return true;
    }
    bool load = in->op == OP_LOAD;
    bool ok = in->order == ORD_RELAXED || in->order == (load ? ORD_ACQUIRE : ORD_RELEASE);
    if (!ok || !ptx_scope(in->scope) || in->remote) {
        *why = "an access order, scope or remote form that PTX does not have";
        return false;
    }
    fprintf(out, "%s.%s.%s", prefix, vocab_orders[in->order], ptx_scope(in->scope));
    return true;
}

static bool ptx_rmw(FILE *out, const lit_thread *th, const lit_instr *in, const litmus_test *t,
                    const char **why)
{
    if (in->order == ORD_WEAK || in->order == ORD_SC || !ptx_scope(in->scope) || in->remote) {
        *why = "an atomic order, scope or remote form that PTX does not have";
        return false;
    }
    if (in->proxy != PROXY_GENERIC && in->proxy != PROXY_SURFACE) {
        *why = "a read-modify-write through a proxy PTX has none for";
        return false;
    }
    bool red = in->op == OP_RED, surface = in->proxy == PROXY_SURFACE;
    fprintf(out, "%s%s.%s.%s.%s ", surface ? "su" : "", red ? "red" : "atom", vocab_orders[in->order],
            ptx_scope(in->scope), vocab_rmw_ops[in->rmw_op]);
    if (!red)
        fprintf(out, "%s, ", th->reg_names[in->dst]);
    fprintf(out, "%s, ", t->locs[in->loc].name);
    print_operand(out, th, in->a);
    if (in->rmw_op == RMW_CAS) {
        fputs(", ", out);
        print_operand(out, th, in->b);
    }
    return true;
}

static bool ptx_fence(FILE *out, const lit_instr *in, const char **why)
{
    static const char *const proxies[] = {[PROXY_SURFACE] = "surface", [PROXY_TEXTURE] = "texture",
                                          [PROXY_CONSTANT] = "constant", [PROXY_ALIAS] = "alias"};
    if (in->proxy != PROXY_GENERIC) {
        fprintf(out, "fence.proxy.%s", proxies[in->proxy]);
        return true;
    }
    if ((in->order != ORD_SC && in->order != ORD_ACQ_REL) || !ptx_scope(in->scope) || in->regions) {
        *why = "a fence that PTX does not have";
        return false;
    }
    fprintf(out, "fence.%s.%s", vocab_orders[in->order], ptx_scope(in->scope));
    return true;
}

static bool ptx_barrier(FILE *out, const lit_thread *th, const lit_instr *in, const char **why)
{
    if (in->scope != SCOPE_CTA || in->regions) {
        *why = "a barrier that PTX does not have";
        return false;
    }
    fputs(in->barrier_waits ? "bar.cta.sync " : "bar.cta.arrive ", out);
    if (in->b.kind == OPND_NONE) {
        print_operand(out, th, in->a);
        return true;
    }
    fputs("0, ", out);
    print_operand(out, th, in->a);
    fputs(", ", out);
    print_operand(out, th, in->b);
    return true;
}

static bool ptx_instr(FILE *out, const litmus_test *t, const lit_thread *th, const lit_instr *in,
                      const char **why)
{
    switch (in->op) {
    case OP_LOAD:
        if (!ptx_access(out, in, why))
            return false;
        fprintf(out, " %s, %s", th->reg_names[in->dst], t->locs[in->loc].name);
        return true;
    case OP_STORE:
        if (!ptx_access(out, in, why))
            return false;
        fprintf(out, " %s, ", t->locs[in->loc].name);
        print_operand(out, th, in->a);
        return true;
    case OP_RMW:
    case OP_RED: return ptx_rmw(out, th, in, t, why);
    case OP_FENCE: return ptx_fence(out, in, why);
    case OP_BARRIER: return ptx_barrier(out, th, in, why);
    case OP_MOV:
        fprintf(out, "mov %s, ", th->reg_names[in->dst]);
        print_operand(out, th, in->a);
        return true;
    case OP_ALU:
        fprintf(out, "%s %s, ", vocab_alu_ops[in->alu_op], th->reg_names[in->dst]);
        print_operand(out, th, in->a);
        fputs(", ", out);
        print_operand(out, th, in->b);
        return true;
    case OP_BRANCH:
        fprintf(out, "%s ", (const char *const[]){"beq", "bne", "blt", "bgt", "ble", "bge"}[in->cmp]);
        print_operand(out, th, in->a);
        fputs(", ", out);
        print_operand(out, th, in->b);
        fprintf(out, ", L%d", in->target);
        return true;
    case OP_GOTO: fprintf(out, "goto L%d", in->target); return true;
    }
    *why = "an unknown instruction";
    return false;
}

/* The cells of one thread's column: "L3: ld.weak r0, x", and a last cell
 * with only a label when a branch targets the end. */
static bool ptx_cells(const litmus_test *t, const lit_thread *th, char ***cells, int *ncells, const char **why)
{
    size_t n = (size_t)(th->ninstrs > 0 ? th->ninstrs : 0) + (is_target(th, th->ninstrs) ? 1 : 0);
    *cells = GC_MALLOC(sizeof **cells * (n ? n : 1));
    for (int i = 0; i < (int)n; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *cell = open_memstream(&buf, &len);
        if (!cell) {
            *why = "out of memory";
            return false;
        }
        if (is_target(th, i))
            fprintf(cell, "L%d: ", i);
        bool ok = i == th->ninstrs || ptx_instr(cell, t, th, &th->instrs[i], why);
        fclose(cell);
        (*cells)[i] = GC_STRDUP(buf);
        free(buf);
        if (!ok)
            return false;
    }
    *ncells = (int)n;
    return true;
}

static bool ptx_locations(FILE *out, const litmus_test *t, const char **why)
{
    static const char *const proxies[] = {[PROXY_GENERIC] = "generic", [PROXY_SURFACE] = "surface",
                                          [PROXY_TEXTURE] = "texture", [PROXY_CONSTANT] = "constant",
                                          [PROXY_ALIAS] = "generic"};
    for (int l = 0; l < t->nlocs; l++) {
        const lit_location *loc = &t->locs[l];
        if (loc->region == REGION_LOCAL) {
            *why = "local memory, which PTX tests do not have";
            return false;
        }
        /* The parser resolves aliases after the whole init block, so an
         * alias may come before its target; naming the physical location
         * keeps both the location and the virtual address it names (the
         * accesses already name that address). */
        if (loc->physical == l)
            fprintf(out, "%s=%" PRId64 "; ", loc->name, loc->init);
        else
            fprintf(out, "%s @ %s aliases %s; ", loc->name, proxies[loc->alias_proxy],
                    t->locs[loc->physical].name);
    }
    return true;
}

static void ptx_registers(FILE *out, const litmus_test *t)
{
    for (int i = 0; i < t->nthreads; i++) {
        const lit_thread *th = &t->threads[i];
        for (int r = 0; r < th->nregs; r++)
            fprintf(out, "P%d:%s=%" PRId64 "; ", i, th->reg_names[r], th->reg_init[r]);
    }
}

static bool ptx_body(FILE *out, const litmus_test *t, const char **why)
{
    char ***cols = GC_MALLOC(sizeof *cols * (size_t)t->nthreads);
    int *ncells = GC_MALLOC_ATOMIC(sizeof *ncells * (size_t)t->nthreads);
    int rows = 0;
    for (int i = 0; i < t->nthreads; i++) {
        if (!ptx_cells(t, &t->threads[i], &cols[i], &ncells[i], why))
            return false;
        if (ncells[i] > rows)
            rows = ncells[i];
    }
    for (int i = 0; i < t->nthreads; i++)
        fprintf(out, "%s P%d@cta %d,gpu %d", i ? " |" : "", i, t->threads[i].cta, t->threads[i].gpu);
    fputs(" ;\n", out);
    for (int r = 0; r < rows; r++) {
        for (int i = 0; i < t->nthreads; i++)
            fprintf(out, "%s %s", i ? " |" : "", r < ncells[i] ? cols[i][r] : "");
        fputs(" ;\n", out);
    }
    return true;
}

bool litmus_print_ptx(FILE *out, const litmus_test *t, const char **why)
{
    if (!names_ok(t, true, why))
        return false;
    char *buf = NULL;
    size_t len = 0;
    FILE *text = open_memstream(&buf, &len);
    if (!text) {
        *why = "out of memory";
        return false;
    }
    fprintf(text, "PTX %s\n", t->name);
    if (t->doc)
        fprintf(text, "\"%s\"\n", t->doc);
    fputs("{\n", text);
    bool ok = ptx_locations(text, t, why);
    if (ok) {
        fputc('\n', text);
        ptx_registers(text, t);
        fputs("\n}\n", text);
        ok = ptx_body(text, t, why);
    }
    if (ok)
        print_final(text, t);
    fclose(text);
    if (ok)
        fwrite(buf, 1, len, out);
    free(buf);
    return ok;
}

/* ---- OpenCL ------------------------------------------------------------------- */

typedef struct ocl_printer {
    FILE *out;
    const litmus_test *t;
    const lit_thread *th;
    const char *why;
} ocl_printer;

static const char *ocl_order(enum lit_order o)
{
    static const char *const words[] = {[ORD_RELAXED] = "memory_order_relaxed",
                                        [ORD_ACQUIRE] = "memory_order_acquire",
                                        [ORD_RELEASE] = "memory_order_release",
                                        [ORD_ACQ_REL] = "memory_order_acq_rel",
                                        [ORD_SC] = "memory_order_seq_cst"};
    return o == ORD_WEAK ? NULL : words[o];
}

static const char *ocl_scope(enum lit_scope s)
{
    switch (s) {
    case SCOPE_WI: return "memory_scope_work_item";
    case SCOPE_CTA: return "memory_scope_work_group";
    case SCOPE_GPU: return "memory_scope_device";
    case SCOPE_SYS: return "memory_scope_all_svm_devices";
    default: return NULL;
    }
}

static void indent(ocl_printer *p, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", p->out);
}

static void ocl_operand(ocl_printer *p, lit_operand o) { print_operand(p->out, p->th, o); }

static bool refuse(ocl_printer *p, const char *why)
{
    p->why = why;
    return false;
}

/* ", memory_order_X, memory_scope_Y)" */
static bool ocl_order_scope(ocl_printer *p, const lit_instr *in)
{
    if (!ocl_scope(in->scope))
        return refuse(p, "an atomic access without a scope");
    fprintf(p->out, ", %s, %s)", ocl_order(in->order), ocl_scope(in->scope));
    return true;
}

static bool ocl_access(ocl_printer *p, const lit_instr *in)
{
    const char *loc = p->t->locs[in->loc].name;
    if (in->proxy != PROXY_GENERIC || in->remote)
        return refuse(p, "a proxy or remote access");
    if (in->op == OP_LOAD) {
        if (in->order == ORD_WEAK) {
            fprintf(p->out, "%s = *%s;\n", p->th->reg_names[in->dst], loc);
            return true;
        }
        fprintf(p->out, "%s = atomic_load_explicit(%s", p->th->reg_names[in->dst], loc);
        return ocl_order_scope(p, in) && fputs(";\n", p->out) >= 0;
    }
    if (in->order == ORD_WEAK) {
        fprintf(p->out, "*%s = ", loc);
        ocl_operand(p, in->a);
        fputs(";\n", p->out);
        return true;
    }
    fprintf(p->out, "atomic_store_explicit(%s, ", loc);
    ocl_operand(p, in->a);
    return ocl_order_scope(p, in) && fputs(";\n", p->out) >= 0;
}

static bool ocl_rmw(ocl_printer *p, const lit_instr *in)
{
    static const char *const fetch[] = {[RMW_ADD] = "atomic_fetch_add_explicit",
                                        [RMW_SUB] = "atomic_fetch_sub_explicit",
                                        [RMW_EXCH] = "atomic_exchange_explicit",
                                        [RMW_AND] = "atomic_fetch_and_explicit",
                                        [RMW_OR] = "atomic_fetch_or_explicit",
                                        [RMW_MIN] = "atomic_fetch_min_explicit",
                                        [RMW_MAX] = "atomic_fetch_max_explicit"};
    if (in->rmw_op >= sizeof fetch / sizeof fetch[0] || !fetch[in->rmw_op])
        return refuse(p, "a read-modify-write (cas, inc, dec, xor) with no exact OpenCL form");
    if (in->remote || in->order == ORD_WEAK)
        return refuse(p, "a remote or weak read-modify-write");
    if (in->op == OP_RMW && in->dst >= 0)
        fprintf(p->out, "%s = ", p->th->reg_names[in->dst]);
    fprintf(p->out, "%s(%s, ", fetch[in->rmw_op], p->t->locs[in->loc].name);
    ocl_operand(p, in->a);
    return ocl_order_scope(p, in) && fputs(";\n", p->out) >= 0;
}

static bool ocl_plain(ocl_printer *p, const lit_instr *in)
{
    static const char *const ops[] = {[ALU_ADD] = "+", [ALU_SUB] = "-", [ALU_MUL] = "*",
                                      [ALU_AND] = "&", [ALU_OR] = "|", [ALU_XOR] = NULL};
    fprintf(p->out, "%s = ", p->th->reg_names[in->dst]);
    ocl_operand(p, in->a);
    if (in->op == OP_ALU) {
        if (!ops[in->alu_op])
            return refuse(p, "xor, which the OpenCL dialect does not have");
        fprintf(p->out, " %s ", ops[in->alu_op]);
        ocl_operand(p, in->b);
    }
    fputs(";\n", p->out);
    return true;
}

static bool ocl_statement(ocl_printer *p, const lit_instr *in)
{
    switch (in->op) {
    case OP_LOAD:
    case OP_STORE: return ocl_access(p, in);
    case OP_RMW:
    case OP_RED: return ocl_rmw(p, in);
    case OP_MOV:
    case OP_ALU: return ocl_plain(p, in);
    case OP_FENCE: return refuse(p, "a fence (PTX fences name no memory region; OpenCL's do)");
    case OP_BARRIER: return refuse(p, "a barrier (OpenCL numbers barriers by position)");
    default: return refuse(p, "a branch that does not nest");
    }
}

/* "(a == b)" for a branch taken when the condition holds, or its negation. */
static void ocl_condition(ocl_printer *p, const lit_instr *br, bool taken)
{
    if (br->op == OP_GOTO) {
        fputs(taken ? "(1)" : "(0)", p->out);
        return;
    }
    /* a comparison and its negation: ==/!=, </>=, >/<= */
    static const char *const ops[] = {" == ", " != ", " < ", " > ", " <= ", " >= "};
    static const enum lit_cmp negation[] = {CMP_NE, CMP_EQ, CMP_GE, CMP_LE, CMP_GT, CMP_LT};
    fputc('(', p->out);
    ocl_operand(p, br->a);
    fputs(ops[taken ? br->cmp : negation[br->cmp]], p->out);
    ocl_operand(p, br->b);
    fputc(')', p->out);
}

static bool is_branch(const lit_instr *in) { return in->op == OP_BRANCH || in->op == OP_GOTO; }

/* Every branch in [from, to) stays inside [from, to]: the region nests. */
static bool nests(const lit_thread *th, int from, int to)
{
    for (int i = from; i < to; i++)
        if (is_branch(&th->instrs[i]) && (th->instrs[i].target < from || th->instrs[i].target > to))
            return false;
    return true;
}

static bool ocl_range(ocl_printer *p, int from, int to, int depth);

/* A do-while: the furthest backward branch in [i, to) to i. */
static int loop_end(const lit_thread *th, int i, int to)
{
    int end = -1;
    for (int j = i; j < to; j++)
        if (is_branch(&th->instrs[j]) && th->instrs[j].target == i)
            end = j;
    return end;
}

static bool ocl_loop(ocl_printer *p, int i, int j, int depth)
{
    if (!nests(p->th, i, j))
        return refuse(p, "a loop whose branches do not nest");
    indent(p, depth);
    fputs("do {\n", p->out);
    if (!ocl_range(p, i, j, depth + 1))
        return false;
    indent(p, depth);
    fputs("} while ", p->out);
    ocl_condition(p, &p->th->instrs[j], true);
    fputs(";\n", p->out);
    return true;
}

/* if (!cond) { [i+1, k) } for the forward branch at i to k. */
static bool ocl_if(ocl_printer *p, int i, int k, int depth)
{
    if (!nests(p->th, i + 1, k))
        return refuse(p, "an if whose branches do not nest");
    indent(p, depth);
    fputs("if ", p->out);
    ocl_condition(p, &p->th->instrs[i], false);
    fputs(" {\n", p->out);
    if (!ocl_range(p, i + 1, k, depth + 1))
        return false;
    indent(p, depth);
    fputs("}\n", p->out);
    return true;
}

static bool ocl_range(ocl_printer *p, int from, int to, int depth)
{
    const lit_thread *th = p->th;
    for (int i = from; i < to;) {
        int end = loop_end(th, i, to);
        const lit_instr *in = &th->instrs[i];
        if (end >= 0) {
            if (!ocl_loop(p, i, end, depth))
                return false;
            i = end + 1;
        } else if (is_branch(in)) {
            if (in->target <= i || in->target > to || in->op == OP_GOTO)
                return refuse(p, "a branch that does not nest");
            if (!ocl_if(p, i, in->target, depth))
                return false;
            i = in->target;
        } else {
            indent(p, depth);
            if (!ocl_statement(p, in))
                return false;
            i++;
        }
    }
    return true;
}

/* Is location l accessed atomically anywhere in the test? */
static bool used_atomically(const litmus_test *t, int l)
{
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].ninstrs; k++) {
            const lit_instr *in = &t->threads[i].instrs[k];
            if (in->loc == l && (in->op == OP_RMW || in->op == OP_RED || in->order != ORD_WEAK))
                return true;
        }
    return false;
}

static bool uses(const lit_thread *th, int l)
{
    for (int k = 0; k < th->ninstrs; k++)
        if ((th->instrs[k].op == OP_LOAD || th->instrs[k].op == OP_STORE || th->instrs[k].op == OP_RMW ||
             th->instrs[k].op == OP_RED) &&
            th->instrs[k].loc == l)
            return true;
    return false;
}

static bool ocl_thread(ocl_printer *p, int i)
{
    const litmus_test *t = p->t;
    p->th = &t->threads[i];
    fprintf(p->out, "P%d@wg %d, dev %d (", i, p->th->cta, p->th->gpu);
    bool first = true;
    for (int l = 0; l < t->nlocs; l++)
        if (uses(p->th, l)) {
            fprintf(p->out, "%sglobal %s* %s", first ? "" : ", ", used_atomically(t, l) ? "atomic_int" : "int",
                    t->locs[l].name);
            first = false;
        }
    fputs(") {\n", p->out);
    if (!ocl_range(p, 0, p->th->ninstrs, 1))
        return false;
    fputs("}\n\n", p->out);
    return true;
}

static bool ocl_text(ocl_printer *p)
{
    const litmus_test *t = p->t;
    fprintf(p->out, "OPENCL %s\n", t->name);
    if (t->doc)
        fprintf(p->out, "\"%s\"\n", t->doc);
    fputs("{\n", p->out);
    for (int l = 0; l < t->nlocs; l++) {
        if (t->locs[l].physical != l || t->locs[l].region == REGION_LOCAL)
            return refuse(p, "an alias or a local location");
        fprintf(p->out, "  [%s] = %" PRId64 ";\n", t->locs[l].name, t->locs[l].init);
    }
    for (int i = 0; i < t->nthreads; i++)
        for (int r = 0; r < t->threads[i].nregs; r++)
            fprintf(p->out, "  P%d:%s = %" PRId64 ";\n", i, t->threads[i].reg_names[r], t->threads[i].reg_init[r]);
    fputs("}\n\n", p->out);
    for (int i = 0; i < t->nthreads; i++)
        if (!ocl_thread(p, i))
            return false;
    print_final(p->out, t);
    return true;
}

bool litmus_print_opencl(FILE *out, const litmus_test *t, const char **why)
{
    if (!names_ok(t, false, why))
        return false;
    char *buf = NULL;
    size_t len = 0;
    ocl_printer p = {.t = t};
    p.out = open_memstream(&buf, &len);
    if (!p.out) {
        *why = "out of memory";
        return false;
    }
    bool ok = ocl_text(&p);
    fclose(p.out);
    if (ok)
        fwrite(buf, 1, len, out);
    else
        *why = p.why;
    free(buf);
    return ok;
}
