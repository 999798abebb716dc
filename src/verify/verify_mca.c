/* verify/verify_mca.c: write atomicity against the MCA-strengthened model (see
 * verify/verify_mca.h). */
#include "verify/verify_mca.h"

#include <gc.h>
#include <stdlib.h>
#include <string.h>

#include "verify/json_lines.h"
#include "enumerate/enumerate.h"
#include "report/report.h"

bool verify_mca_load(verify_mca *vm, const char *path, FILE *err)
{
    if (!path) {
        fprintf(err, "scopecheck verify: error: --write-atomicity needs models/%s.cat, which is missing\n",
                VERIFY_MCA_MODEL);
        return false;
    }
    cat_model *m = cat_load(path, err);
    if (!m)
        return false;
    vm->model = m;
    vm->ws = cat_workspace_new(m);
    return true;
}

static lit_value wrap(lit_value x, long lo, long hi)
{
    long span = hi - lo + 1, r = ((long)x - lo) % span;
    return (lit_value)(lo + (r < 0 ? r + span : r));
}

bool verify_mca_outcomes(verify_mca *vm, const litmus_test *t, const enum_options *limits, long lo, long hi,
                         bool wrapping, FILE *err)
{
    vm->violations = 0;
    enum_options eo = *limits;
    eo.races = false;
    check_result r;
    if (!enumerate_check(t, vm->model, vm->ws, &eo, &r, err))
        return false;
    vm->allowed = r.states;
    vm->cut = enumerate_incomplete(&r);
    if (!wrapping)
        return true;
    int width = t->nobserved, n = outcome_count(r.states);
    const lit_value *all = outcome_values(r.states);
    outcome_set *wrapped = outcome_set_new(width);
    lit_value *one = GC_MALLOC_ATOMIC(sizeof *one * (size_t)(width ? width : 1));
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < width; k++)
            one[k] = wrap(all[(size_t)i * (size_t)width + (size_t)k], lo, hi);
        outcome_add(wrapped, one);
    }
    vm->allowed = wrapped;
    return true;
}

/* Protocol outcome i: allowed by the base model, forbidden with MCA? */
static bool non_mca(const verify_mca *vm, const litmus_test *t, outcome_set *protocol, outcome_set *base, int i)
{
    const lit_value *state = &outcome_values(protocol)[(size_t)i * (size_t)t->nobserved];
    return base && !vm->cut && outcome_find(base, state) >= 0 && outcome_find(vm->allowed, state) < 0;
}

void verify_mca_compare(verify_mca *vm, outcome_set *protocol, outcome_set *base)
{
    vm->violations = 0;
    if (!vm->model || !vm->allowed || !base || vm->cut)
        return;
    int width = outcome_width(protocol);
    const lit_value *mine = outcome_values(protocol);
    for (int i = 0; i < outcome_count(protocol); i++) {
        const lit_value *state = &mine[(size_t)i * (size_t)width];
        if (outcome_find(base, state) >= 0 && outcome_find(vm->allowed, state) < 0)
            vm->violations++;
    }
}

void verify_mca_text(FILE *out, const verify_mca *vm, const litmus_test *t, outcome_set *protocol,
                     outcome_set *base, const uint32_t *witness, const bfs_search *bfs)
{
    if (!vm->model)
        return;
    if (vm->cut) {
        fprintf(out, "Write-atomic unknown (reference %s: its outcomes are incomplete: %s)\n", VERIFY_MCA_MODEL,
                vm->cut);
        return;
    }
    fprintf(out, "Write-atomic %s (reference %s)\n", vm->violations ? "no" : "yes", VERIFY_MCA_MODEL);
    for (int i = 0; i < outcome_count(protocol); i++) {
        if (!non_mca(vm, t, protocol, base, i))
            continue;
        fputs("Violation not write-atomic: ", out);
        report_state(out, t, &outcome_values(protocol)[(size_t)i * (size_t)t->nobserved]);
        fputs(" (the base model allows it; only a non-multi-copy-atomic machine produces it)\nTrace\n", out);
        bfs_print_trace(bfs, witness[i], out);
    }
}

void verify_mca_json(FILE *out, const verify_mca *vm, const litmus_test *t, outcome_set *protocol,
                     outcome_set *base, const uint32_t *witness, const bfs_search *bfs)
{
    if (!vm->model)
        return;
    if (vm->cut) {
        fputs(",\"write_atomic\":null,\"write_atomic_incomplete\":", out);
        report_json_string(out, vm->cut);
        fputs(",\"non_mca_outcomes\":[]", out);
        return;
    }
    fprintf(out, ",\"write_atomic\":%s,\"non_mca_outcomes\":[", vm->violations ? "false" : "true");
    bool first = true;
    for (int i = 0; i < outcome_count(protocol); i++) {
        if (!non_mca(vm, t, protocol, base, i))
            continue;
        fputs(first ? "{\"outcome\":" : ",{\"outcome\":", out);
        report_json_state(out, t, &outcome_values(protocol)[(size_t)i * (size_t)t->nobserved]);
        fputs(",\"trace\":", out);
        json_bfs_trace(out, bfs, witness[i]);
        fputc('}', out);
        first = false;
    }
    fputc(']', out);
}
