/* verify/witness.c: see verify/witness.h. */
#include "verify/witness.h"

#include <gc.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "enumerate/event_name.h"

struct witness_set {
    const litmus_test *t;
    outcome_set *seen;       /* the outcomes met so far, in enumeration order */
    const char **text;       /* per outcome of `seen` */
    int cap;
};

static const char *loc_name(const litmus_test *t, int loc)
{
    return loc >= 0 && loc < t->nlocs ? t->locs[loc].name : "?";
}

static void print_event(FILE *f, const litmus_test *t, const enum_event_info *e, int i)
{
    char name[ENUM_EVENT_NAME_SIZE];
    enum_event_name(i, name);
    fprintf(f, "  %s: %s ", name, e->thread >= 0 ? t->threads[e->thread].name : "init");
    if (e->kind == 'R' || e->kind == 'W')
        fprintf(f, "%c[%s]=%" PRId64, e->kind, loc_name(t, e->loc), e->value);
    else
        fputs(e->kind == 'F' ? "F" : e->kind == 'B' ? "B" : "?", f);
    if (e->thread >= 0 && e->instr >= 0 && e->instr < t->threads[e->thread].ninstrs) {
        const char *text = t->threads[e->thread].instrs[e->instr].text;
        if (text && *text)
            fprintf(f, "   %s", text);
    }
    fputc('\n', f);
}

/* The pairs of r, or only its immediate steps (co is closed transitively). */
static void print_pairs(FILE *f, const char *what, const relation *r, int n, bool immediate_only)
{
    char a[ENUM_EVENT_NAME_SIZE], b[ENUM_EVENT_NAME_SIZE];
    bool any = false;
    fprintf(f, "  %s:", what);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (!rel_has(r, i, j, n))
                continue;
            bool implied = false;
            for (int k = 0; immediate_only && k < n && !implied; k++)
                implied = k != i && k != j && rel_has(r, i, k, n) && rel_has(r, k, j, n);
            if (implied)
                continue;
            enum_event_name(i, a);
            enum_event_name(j, b);
            fprintf(f, "%s %s->%s", any ? "," : "", a, b);
            any = true;
        }
    fputs(any ? "\n" : " none\n", f);
}

/* The text of outcome k (new): the events, rf and co of `x`. */
static void keep_text(witness_set *w, int k, const exec *x, const enum_event_info *events, int n)
{
    if (k == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        const char **grown = GC_MALLOC(sizeof *grown * (size_t)w->cap);
        if (k)
            memcpy(grown, w->text, sizeof *grown * (size_t)k);
        w->text = grown;
    }
    w->text[k] = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    for (int i = 0; i < n; i++)
        print_event(f, w->t, &events[i], i);
    print_pairs(f, "rf", x->rel[XR_RF], n, false);
    print_pairs(f, "co", x->rel[XR_CO], n, true);
    fclose(f);
    w->text[k] = GC_STRNDUP(buf, len);
    free(buf);
}

static void keep(void *ctx, const exec *x, const enum_event_info *events, int n, const lit_value *state, bool holds,
                 unsigned flags)
{
    (void)holds, (void)flags;
    witness_set *w = ctx;
    int before = outcome_count(w->seen);
    int k = outcome_add(w->seen, state);
    if (k >= before)
        keep_text(w, k, x, events, n);
}

witness_set *witness_hook(const litmus_test *t, enum_options *o)
{
    witness_set *w = GC_MALLOC(sizeof *w);
    w->t = t;
    w->seen = outcome_set_new(t->nobserved);
    o->on_execution = keep;
    o->execution_ctx = w;
    return w;
}

const char *witness_text(const witness_set *w, const lit_value *outcome)
{
    int k = w ? outcome_find(w->seen, outcome) : -1;
    return k >= 0 ? w->text[k] : NULL;
}
