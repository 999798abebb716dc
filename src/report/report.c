/* report/report.c: herd7-style blocks and JSON lines (see report.h). */
#include "report/report.h"

#include <gc.h>
#include <inttypes.h>
#include <string.h>

#include "enumerate/barriers.h"
#include "litmus/hash.h"

const char *report_incomplete(const check_result *r)
{
    const char *why = enumerate_incomplete(r);
    return why ? why : r->unroll_cut ? "loop-bound" : NULL;
}

const char *report_verdict(const litmus_test *t, const check_result *r, const cat_model *m)
{
    if (m && cat_model_flags_make_undefined(m, r->flags))
        return "Undef";
    if (enumerate_incomplete(r) && !report_established(t, r, m))
        return "Unknown";
    return report_condition_ok(t, r) ? "Ok" : "No";
}

void report_verdict_line(FILE *out, const litmus_test *t, const check_result *r, const cat_model *m)
{
    const char *verdict = report_verdict(t, r, m);
    if (r->unroll_cut && strcmp(verdict, "Unknown") != 0)
        fputs("Loop ", out);
    fprintf(out, "%s\n", verdict);
}

bool report_established(const litmus_test *t, const check_result *r, const cat_model *m)
{
    if (!report_incomplete(r))
        return true;
    if (m && cat_model_flags_undefined(m))
        return r->flags != 0; /* a skipped execution may have raised a flag */
    switch (t->quant) {
    case QUANT_EXISTS:
    case QUANT_NOT_EXISTS: return r->positive > 0;
    case QUANT_FORALL: return r->negative > 0;
    }
    return false;
}

bool report_condition_ok(const litmus_test *t, const check_result *r)
{
    switch (t->quant) {
    case QUANT_EXISTS: return r->positive > 0;
    case QUANT_NOT_EXISTS: return r->positive == 0;
    case QUANT_FORALL: return r->negative == 0;
    }
    return false;
}

static const char *quantifier_word(enum lit_quantifier q)
{
    switch (q) {
    case QUANT_EXISTS: return "exists";
    case QUANT_NOT_EXISTS: return "~exists";
    case QUANT_FORALL: return "forall";
    }
    return "?";
}

/* herd prints registers as THREAD:REG with the thread's number. */
static void print_term(FILE *out, const litmus_test *t, const lit_term *term, bool json_key)
{
    switch (term->kind) {
    case TERM_REG:
        if (json_key)
            fprintf(out, "%s:%s", t->threads[term->thread].name, t->threads[term->thread].reg_names[term->reg]);
        else
            fprintf(out, "%d:%s", term->thread, t->threads[term->thread].reg_names[term->reg]);
        break;
    case TERM_LOC:
        /* herd7 writes a memory location as [x] in states and conditions */
        if (!json_key)
            fputc('[', out);
        fputs(t->locs[term->loc].name, out);
        if (!json_key)
            fputc(']', out);
        break;
    case TERM_CONST:
        fprintf(out, "%" PRId64, term->value);
        break;
    }
}

/* herd7's printer for propositions (ConstrGen.pp_prop): a conjunction or
 * disjunction nested in one of the same kind needs no parentheses, a
 * disjunction inside a conjunction does, negation is "not (...)" and
 * a != b is not (a=b).  The whole is parenthesised by the caller. */
enum herd_op { HERD_TOP, HERD_AND, HERD_OR };

static bool herd_paren(enum herd_op above, enum herd_op here)
{
    return above == HERD_AND && here == HERD_OR;
}

static void print_atom(FILE *out, const litmus_test *t, const lit_cond *c)
{
    print_term(out, t, &c->lhs, false);
    fputc('=', out);
    print_term(out, t, &c->rhs, false);
}

static void print_prop(FILE *out, const litmus_test *t, const lit_cond *c, enum herd_op above);

/* A chain of one connective, nested to the left as deep as it is long
 * (x=1 /\ y=1 /\ ... with 40,000 terms), printed by a loop down its left
 * spine rather than by recursion: herd7's printer puts no parentheses
 * between links of one kind, so the text is the recursive printer's. */
static void print_chain(FILE *out, const litmus_test *t, const lit_cond *c, enum herd_op above)
{
    enum lit_cond_kind kind = c->kind;
    enum herd_op here = kind == COND_AND ? HERD_AND : HERD_OR;
    int n = 0;
    for (const lit_cond *x = c; x->kind == kind; x = x->left)
        n++;
    const lit_cond **spine = GC_MALLOC(sizeof *spine * (size_t)n);
    n = 0;
    for (const lit_cond *x = c; x->kind == kind; x = x->left)
        spine[n++] = x;
    bool paren = herd_paren(above, here);
    if (paren)
        fputc('(', out);
    print_prop(out, t, spine[n - 1]->left, here);
    while (n-- > 0) {
        fputs(here == HERD_AND ? " /\\ " : " \\/ ", out);
        print_prop(out, t, spine[n]->right, here);
    }
    if (paren)
        fputc(')', out);
}

static void print_prop(FILE *out, const litmus_test *t, const lit_cond *c, enum herd_op above)
{
    switch (c->kind) {
    case COND_TRUE: fputs("true", out); break;
    case COND_FALSE: fputs("false", out); break;
    case COND_AND:
    case COND_OR:
        print_chain(out, t, c, above);
        break;
    case COND_NOT:
        fputs("not (", out);
        print_prop(out, t, c->left, HERD_TOP);
        fputc(')', out);
        break;
    case COND_EQ:
        print_atom(out, t, c);
        break;
    case COND_NE:
        fputs("not (", out);
        print_atom(out, t, c);
        fputc(')', out);
        break;
    }
}

/* "exists (1:r0=1 /\ [x]=0)", as herd7 prints it. */
static void print_cond(FILE *out, const litmus_test *t)
{
    fprintf(out, "%s (", quantifier_word(t->quant));
    if (t->cond)
        print_prop(out, t, t->cond, HERD_TOP);
    else
        fputs("true", out);
    fputc(')', out);
}

static void print_instr_ref(FILE *out, const litmus_test *t, int thread, int instr)
{
    if (thread < 0) {
        fputs("the initial write", out);
        return;
    }
    const lit_instr *in = &t->threads[thread].instrs[instr];
    fprintf(out, "%s line %d `%s`", t->threads[thread].name, in->line, in->text ? in->text : "?");
}

static void herd_races(FILE *out, const litmus_test *t, const check_result *r, const report_info *info)
{
    for (int i = 0; info->races && i < r->nraces; i++) {
        const race_report *rr = &r->races[i];
        fprintf(out, "Race %s: ", cat_model_flag_name(info->cat, rr->flag));
        print_instr_ref(out, t, rr->thread_a, rr->instr_a);
        fputs(" and ", out);
        print_instr_ref(out, t, rr->thread_b, rr->instr_b);
        if (rr->loc >= 0)
            fprintf(out, " on %s", t->locs[rr->loc].name);
        fputc('\n', out);
    }
}

void report_state(FILE *out, const litmus_test *t, const lit_value *state)
{
    for (int i = 0; i < t->nobserved; i++) {
        print_term(out, t, &t->observed[i], false);
        fprintf(out, "=%" PRId64 ";%s", state[i], i + 1 < t->nobserved ? " " : "");
    }
}

const char *report_observation(const check_result *r)
{
    if (r->positive > 0 && r->negative > 0)
        return "Sometimes";
    if (enumerate_incomplete(r))
        return "Unknown"; /* an unchecked execution may be of the missing kind */
    return r->positive == 0 ? "Never" : "Always";
}

/* herd7's Witnesses: Positive counts the executions that validate the
 * condition, and `~exists p` is validated where p fails (herd7 7.58 prints
 * "Positive: 3 Negative: 1" beside "Observation Sometimes 1 3"). */
static void herd_witnesses(FILE *out, const litmus_test *t, const check_result *r)
{
    bool swap = t->quant == QUANT_NOT_EXISTS;
    fprintf(out, "Witnesses\nPositive: %" PRIu64 " Negative: %" PRIu64 "\n", swap ? r->negative : r->positive,
            swap ? r->positive : r->negative);
}

/* What was not checked, one line each (the verdict line says Unknown
 * when it matters). */
/* A signal cuts the search as a limit does: every execution counted was
 * checked whole, so a verdict they settle stands (as verify keeps a
 * violation found before the cut). */
static void herd_cut_warnings(FILE *out, const litmus_test *t, const check_result *r)
{
    if (r->interrupted)
        fprintf(out, "Warning %s: interrupted by a signal; only the executions found so far were checked\n",
                t->name);
    if (r->timed_out)
        fprintf(out, "Warning %s: time limit reached; only the executions found so far were checked\n", t->name);
    if (r->out_of_memory)
        fprintf(out, "Warning %s: memory limit reached; only the executions found so far were checked\n", t->name);
    if (r->too_big)
        fprintf(out, "Warning %s: executions with more than %d events were skipped\n", t->name, REL_MAX_EVENTS);
    if (r->writes_cut)
        fprintf(out, "Warning %s: executions with more writes to one location than coherence orders are listed for were skipped\n",
                t->name);
    if (r->paths_cut)
        fprintf(out, "Warning %s: a thread has more paths than are listed (lower --unroll); the others were skipped\n",
                t->name);
    if (r->barriers_cut)
        fprintf(out, "Warning %s: executions with more than %d arrivals at one counted barrier were skipped\n", t->name,
                BAR_MAX_COUNTED_EVENTS);
    if (r->undecided)
        fprintf(out, "Warning %s: the model could not decide some executions (a linearisation of more than 64 events)\n",
                t->name);
}

/* herd7's kind of a test: exists is Allowed, ~exists Forbidden, forall
 * Required. */
static const char *kind_word(enum lit_quantifier q)
{
    return q == QUANT_EXISTS ? "Allowed" : q == QUANT_NOT_EXISTS ? "Forbidden" : "Required";
}

static void herd_flags(FILE *out, const check_result *r, const report_info *info)
{
    bool undef = false;
    for (int f = 0; f < cat_model_flag_count(info->cat); f++) {
        if (!(r->flags & (1u << f)))
            continue;
        if (cat_model_flag_undefined(info->cat, f))
            undef = true; /* herd prints one line for every undefined_unless that fails */
        else
            fprintf(out, "Flag %s\n", cat_model_flag_name(info->cat, f));
    }
    if (undef)
        fputs("Flag *undef*\n", out);
}

/* The block in herd7's order: Test, States, verdict, Witnesses, Flag
 * lines, Condition, Observation, then our own lines (Race, Warning), Time
 * and Hash. */
void report_herd(FILE *out, const litmus_test *t, check_result *r, const report_info *info)
{
    fprintf(out, "Test %s %s\n", t->name, kind_word(t->quant));
    int count = outcome_count(r->states), width = t->nobserved;
    const lit_value *states = outcome_sorted(r->states);
    fprintf(out, "States %d\n", count);
    for (int s = 0; s < count; s++) {
        report_state(out, t, &states[(size_t)s * (size_t)width]);
        fputc('\n', out);
    }
    report_verdict_line(out, t, r, info->cat);
    herd_witnesses(out, t, r);
    herd_flags(out, r, info);
    fputs("Condition ", out);
    print_cond(out, t);
    fputc('\n', out);
    fprintf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", t->name, report_observation(r), r->positive,
            r->negative);
    herd_races(out, t, r, info);
    if (r->unroll_cut)
        fprintf(out, "Warning %s: loop bound %d cut some executions (raise --unroll)\n", t->name, info->unroll);
    if (r->values_cut)
        fprintf(out, "Warning %s: value search stopped before closing; outcomes may be missing\n", t->name);
    herd_cut_warnings(out, t, r);
    if (r->hang)
        fprintf(out, "Warning %s: some executions wait forever at a counted barrier\n", t->name);
    if (info->extra_herd)
        info->extra_herd(out, t, info->extra);
    fprintf(out, "Time %s %.2f\n", t->name, info->seconds);
    fprintf(out, "Hash=%s\n\n", litmus_herd_hash(t));
}

void report_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

/* The decimal digits of v, without printf (JSON states are most of a
 * run's output), ending at `end` (no terminator); returns the first. */
static char *value_digits(lit_value v, char *end)
{
    char *p = end;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return p;
}

/* A state is built in a buffer and written with one call: a corpus
 * prints thousands of them, and a stdio call per piece was most of
 * the cost of the JSON report. */
typedef struct state_buf {
    FILE *out;
    size_t n;
    char b[512];
} state_buf;

static void sb_put(state_buf *sb, const char *s, size_t len)
{
    if (sb->n + len > sizeof sb->b) {
        fwrite(sb->b, 1, sb->n, sb->out);
        sb->n = 0;
        if (len > sizeof sb->b) {
            fwrite(s, 1, len, sb->out);
            return;
        }
    }
    memcpy(sb->b + sb->n, s, len);
    sb->n += len;
}

static void sb_str(state_buf *sb, const char *s) { sb_put(sb, s, strlen(s)); }

/* {"P1:r0":1,"x":2}: the JSON key of a register is "THREAD:REG", of a
 * location its name. */
void report_json_state(FILE *out, const litmus_test *t, const lit_value *state)
{
    state_buf sb = {.out = out};
    char digits[24];
    sb_put(&sb, "{", 1);
    for (int i = 0; i < t->nobserved; i++) {
        const lit_term *term = &t->observed[i];
        sb_put(&sb, i ? ",\"" : "\"", i ? 2 : 1);
        if (term->kind == TERM_REG) {
            sb_str(&sb, t->threads[term->thread].name);
            sb_put(&sb, ":", 1);
            sb_str(&sb, t->threads[term->thread].reg_names[term->reg]);
        } else if (term->kind == TERM_LOC) {
            sb_str(&sb, t->locs[term->loc].name);
        } else {
            char *p = value_digits(term->value, digits + sizeof digits);
            sb_put(&sb, p, (size_t)(digits + sizeof digits - p));
        }
        sb_put(&sb, "\":", 2);
        char *p = value_digits(state[i], digits + sizeof digits);
        sb_put(&sb, p, (size_t)(digits + sizeof digits - p));
    }
    sb_put(&sb, "}", 1);
    fwrite(sb.b, 1, sb.n, out);
}

static void json_states(FILE *out, const litmus_test *t, check_result *r)
{
    int count = outcome_count(r->states), width = t->nobserved;
    const lit_value *states = outcome_sorted(r->states);
    fputc('[', out);
    for (int s = 0; s < count; s++) {
        if (s)
            fputc(',', out);
        report_json_state(out, t, &states[(size_t)s * (size_t)width]);
    }
    fputc(']', out);
}

static void json_instr_ref(FILE *out, const litmus_test *t, int thread, int instr)
{
    if (thread < 0) {
        fputs("{\"thread\":null,\"line\":null,\"instruction\":\"initial write\"}", out);
        return;
    }
    const lit_instr *in = &t->threads[thread].instrs[instr];
    fputs("{\"thread\":", out);
    report_json_string(out, t->threads[thread].name);
    fprintf(out, ",\"line\":%d,\"instruction\":", in->line);
    report_json_string(out, in->text ? in->text : "");
    fputc('}', out);
}

static void json_flags_and_races(FILE *out, const litmus_test *t, const check_result *r, const report_info *info)
{
    fputs(",\"flags\":[", out);
    bool first = true;
    for (int f = 0; f < cat_model_flag_count(info->cat); f++)
        if (r->flags & (1u << f)) {
            if (!first)
                fputc(',', out);
            report_json_string(out, cat_model_flag_name(info->cat, f));
            first = false;
        }
    fputc(']', out);
    if (!info->races)
        return;
    fputs(",\"races\":[", out);
    for (int i = 0; i < r->nraces; i++) {
        const race_report *rr = &r->races[i];
        fputs(i ? ",{\"kind\":" : "{\"kind\":", out);
        report_json_string(out, cat_model_flag_name(info->cat, rr->flag));
        fputs(",\"a\":", out);
        json_instr_ref(out, t, rr->thread_a, rr->instr_a);
        fputs(",\"b\":", out);
        json_instr_ref(out, t, rr->thread_b, rr->instr_b);
        fputs(",\"location\":", out);
        if (rr->loc >= 0)
            report_json_string(out, t->locs[rr->loc].name);
        else
            fputs("null", out);
        fputc('}', out);
    }
    fputc(']', out);
}

/* "complete": whether every execution was checked whole, within the loop
 * bound too (and the other check, if any, was not cut); if not, why: a
 * limit's word first, then the other check's, then "loop-bound". */
static void json_completeness(FILE *out, const check_result *r, const report_info *info)
{
    const char *why = enumerate_incomplete(r);
    if (!why)
        why = info->extra_incomplete;
    if (!why && r->unroll_cut)
        why = "loop-bound";
    fprintf(out, ",\"complete\":%s", why ? "false" : "true");
    if (why)
        fprintf(out, ",\"incomplete\":\"%s\"", why);
}

void report_json(FILE *out, const litmus_test *t, check_result *r, const report_info *info)
{
    fputs("{\"test\":", out);
    report_json_string(out, t->name);
    fputs(",\"file\":", out);
    report_json_string(out, t->file);
    fputs(",\"model\":", out);
    report_json_string(out, info->model);
    fprintf(out, ",\"condition\":\"%s\",\"kind\":\"%s\",\"verdict\":\"%s\"", quantifier_word(t->quant),
            kind_word(t->quant), report_verdict(t, r, info->cat));
    fputs(",\"hash\":", out);
    report_json_string(out, litmus_herd_hash(t));
    fprintf(out, ",\"positive\":%" PRIu64 ",\"negative\":%" PRIu64, r->positive, r->negative);
    fputs(",\"states\":", out);
    json_states(out, t, r);
    fprintf(out, ",\"candidates\":%" PRIu64 ",\"consistent\":%" PRIu64, r->candidates, r->consistent);
    json_flags_and_races(out, t, r, info);
    if (info->extra_json)
        info->extra_json(out, t, info->extra);
    fprintf(out, ",\"unroll\":%d,\"unroll_cut\":%s,\"values_cut\":%s,\"hang\":%s",
            info->unroll, r->unroll_cut ? "true" : "false", r->values_cut ? "true" : "false",
            r->hang ? "true" : "false");
    json_completeness(out, r, info);
    if (info->options_json)
        fprintf(out, ",\"options\":%s", info->options_json);
    fprintf(out, ",\"time_us\":%.0f}\n", info->seconds * 1e6);
}

void report_flags_text(FILE *out, const litmus_test *t, const check_result *r, const cat_model *m, bool races)
{
    report_info info = {.cat = m, .races = races};
    herd_flags(out, r, &info);
    herd_races(out, t, r, &info);
}

void report_flags_json(FILE *out, const litmus_test *t, const check_result *r, const cat_model *m, bool races)
{
    report_info info = {.cat = m, .races = races};
    json_flags_and_races(out, t, r, &info);
}
