/*
 * litmus/cond.h: the final condition of a litmus test, dialect-independent.
 *
 *   final    ::= [ "locations" "[" term { ";" term } [";"] "]" ] [ "filter" prop ] quant prop EOF
 *   quant    ::= "exists" | "~" "exists" | "forall"
 *   prop     ::= conj { "\/" conj }
 *   conj     ::= unary { "/\" unary }
 *   unary    ::= "~" unary | "(" prop ")" | "true" | "false" | term cmp term
 *   cmp      ::= "==" | "=" | "!="
 *   term     ::= P<n> ":" reg | <n> ":" reg | location | "[" location "]" | ["-"|"+"] number
 *
 * The threads of `t` must already exist.  A register the condition names that
 * its thread lacks is added (initial value 0), likewise a location.
 * Fills t->quant, t->cond and t->observed (each register or location term once,
 * in order of first mention, locations clause first; at most
 * LIT_MAX_OBSERVED of them), and herd's filter: t->filter, and in
 * t->hidden the terms only the filter names.
 *
 * Chains of /\ and \/ nest to the left (a /\ b /\ c is (a /\ b) /\ c) as
 * deep as they are long, which only the file size bounds: code that walks a
 * condition loops down this left spine (lit_cond_spine) and recurses only
 * into right operands and parentheses, whose nesting the parser bounds
 * (LIT_MAX_COND_DEPTH).
 */
#ifndef SCOPECHECK_LITMUS_COND_H
#define SCOPECHECK_LITMUS_COND_H

#include <stdbool.h>

#include "litmus/litmus.h"
#include "litmus/lex.h"

/* lx->tok must be the first token of the final part.  A final part of
 * only `locations [...]` and/or `filter P` (diy7's -cond observe) has the
 * condition forall (true), as herd7 reads it.  False on error (already
 * reported). */
bool litmus_parse_final(lexer *lx, litmus_test *t);

/* A test without a final part, as herd7 takes one in its C dialect:
 * `forall (true)`. */
void litmus_final_absent(litmus_test *t);

/* True if the token can start the final part (locations, exists, ~, forall). */
bool litmus_final_starts(const lex_token *tok);

#define LIT_MAX_COND_DEPTH 200
#define LIT_MAX_OBSERVED 1024

/* The nodes of c's left spine of /\ and \/ operators, c first, in *spine
 * (a GC array); returns how many (0 when c is no such operator).  The
 * leftmost operand is spine[n - 1]->left. */
int lit_cond_spine(const lit_cond *c, const lit_cond *const **spine);

#endif
