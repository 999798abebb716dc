/*
 * verify/model_outcomes.h: the memory model's side of verify_prepare
 * (verify/verify.h), internal to the verification library.
 *
 * Contract.  verify_model_enum_options() gives the enumeration limits of a
 * test whose --timeout budget began at `start` (one budget for the model's
 * outcomes, the write-atomicity reference, the witnesses and the search).
 * verify_model_outcomes() computes v->model_outcomes once, with whether
 * the model leaves the test undefined and why its outcomes are incomplete;
 * false after an error.  verify_fit_model_outcomes() takes them into a
 * protocol range set by --const: wrapped (a warning) when the protocol
 * wraps, else refused (false, an error naming `path`).
 */
#ifndef SCOPECHECK_VERIFY_MODEL_OUTCOMES_H
#define SCOPECHECK_VERIFY_MODEL_OUTCOMES_H

#include <stdbool.h>
#include <stdio.h>

#include "verify/verify.h"

enum_options verify_model_enum_options(const verify_settings *s, const cat_model *m, double start);
bool verify_model_outcomes(verify_result *v, cat_workspace *ws, FILE *err);
bool verify_fit_model_outcomes(verify_result *v, const char *path, FILE *err);

#endif
