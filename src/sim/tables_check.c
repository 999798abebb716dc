/* sim/tables_check.c: the bound tables checked against the simulated
 * system before a run (sim_tables_check, see sim/tables_check.h). */
#include "sim/tables_check.h"

#include <limits.h>
#include <string.h>

#include "sim/expr_text.h"
#include "sim/interp.h"

/* What to change so that value v fits bound b (the upper bound when
 * `upper`): a constant of the tables to export again, the system's
 * maxops, or nothing the tables can change. */
static void fix_text(FILE *to, const sim_tables *t, sim_bound b, int64_t v, bool upper)
{
    if (b.cst == SB_MAXOPS && b.times > 0) {
        fprintf(to, "set `maxops %ld` or more in the system", (long)((v - b.num + b.times - 1) / b.times));
    } else if (b.cst >= SB_COUNT && b.times > 0) {
        long need = upper ? (long)((v - b.num + b.times - 1) / b.times) : (long)((v - b.num) / b.times);
        fprintf(to, "export the tables again with --const %s=%ld (or %s)", t->const_names[b.cst], need,
                upper ? "more" : "less");
    } else {
        fputs("no constant of the tables bounds it: these tables do not fit this system", to);
    }
}

/* Checks one constant value against the range lo..hi a table states;
 * false after writing the error. */
static bool fits(const sim_tables *t, const sim_ctrl *c, const sim_row *row, const char *what, const sim_expr *e,
                 int64_t v, const sim_range *r, long lo, long hi, FILE *errors)
{
    if (v >= lo && v <= hi)
        return true;
    fprintf(errors, "%s: content.controllers.%s: the row at line %d sets %s to `", t->path, c->name, row->source_line,
            what);
    sim_expr_text(errors, t, c, NULL, e);
    fprintf(errors, "`, %lld in this system, outside its range %ld..%ld", (long long)v, lo, hi);
    if (!r->is_value) {
        fputs(" (", errors);
        sim_bound_text(errors, t, r->lo);
        fputs("..", errors);
        sim_bound_text(errors, t, r->hi);
        fputc(')', errors);
    }
    fputs(": the row could never fire and the run would wait forever; ", errors);
    if (r->is_value)
        fputs("the tables' values do not fit this system", errors);
    else
        fix_text(errors, t, v > hi ? r->hi : r->lo, v, v > hi);
    fputc('\n', errors);
    return false;
}

/* A constant expression that overflows int64 (or divides by 0) in this
 * system: the checker disables the row, so it could never fire. */
static bool overflows(const sim_tables *t, const sim_ctrl *c, const sim_row *row, const char *what,
                      const sim_expr *e, FILE *errors)
{
    fprintf(errors, "%s: content.controllers.%s: the row at line %d sets %s to `", t->path, c->name, row->source_line,
            what);
    sim_expr_text(errors, t, c, NULL, e);
    fputs("`, which overflows int64 (or divides by 0) in this system: the row could never fire, as in the "
          "checker; these tables do not fit this system\n", errors);
    return false;
}

static const sim_type *target_type(const sim_ctrl *c, const sim_action *a)
{
    if (a->idx < 0)
        return NULL;
    return a->on_line ? &c->fields[a->idx].type : &c->vars[a->idx].type;
}

static bool check_action(const sim_tables *t, const sim_ctrl *c, const sim_row *row, const sim_action *a,
                         FILE *errors)
{
    int64_t v;
    bool over;
    char what[160];
    if ((a->kind == SA_ASSIGN || a->kind == SA_PUSH) && a->mode == SM_SET && a->idx >= 0) {
        snprintf(what, sizeof what, "%s", a->on_line ? c->fields[a->idx].name : c->vars[a->idx].name);
        if (!sim_const_value(t, a->e, &v, &over))
            return !over || overflows(t, c, row, what, a->e, errors);
        const sim_type *ty = target_type(c, a);
        if (ty->kind == ST_BITS || (ty->r.is_value && t->value_wrap))
            return true;
        return fits(t, c, row, what, a->e, v, &ty->r, ty->lo, ty->hi, errors);
    }
    if (a->kind != SA_SEND || a->msg < 0)
        return true;
    const sim_msg *m = &t->msgs[a->msg];
    for (int k = 1; k < a->nargs && k < m->nfields; k++) {
        snprintf(what, sizeof what, "field %s of message %s", m->fields[k], m->name);
        if (!sim_const_value(t, a->args[k], &v, &over)) {
            if (over)
                return overflows(t, c, row, what, a->args[k], errors);
            continue;
        }
        if (m->range[k].is_value && t->value_wrap)
            continue;
        if (!fits(t, c, row, what, a->args[k], v, &m->range[k], m->lo[k], m->hi[k], errors))
            return false;
    }
    return true;
}

bool sim_tables_check(const sim_tables *t, FILE *errors)
{
    for (int c = 0; c < t->nctrls; c++) {
        const sim_ctrl *ct = &t->ctrls[c];
        for (int r = 0; r < ct->nrows; r++)
            for (int k = 0; k < ct->rows[r].nacts; k++)
                if (!check_action(t, ct, &ct->rows[r], &ct->rows[r].acts[k], errors))
                    return false;
    }
    return true;
}

bool sim_tables_check_system(const sim_tables *t, const sim_system *s, FILE *errors)
{
    for (int k = 0; k < s->nconsts; k++)
        for (int c = SB_COUNT; c < t->nconsts; c++)
            if (!strcmp(t->const_names[c], s->const_name[k]) && t->const_values[c] != s->const_value[k]) {
                fprintf(errors, "%s: const: the system needs %s = %ld, the tables were exported with %s = %ld: "
                                "export them again with --const %s=%ld\n", s->path, s->const_name[k],
                        s->const_value[k], t->const_names[c], t->const_values[c], s->const_name[k],
                        s->const_value[k]);
                return false;
            }
    return true;
}
