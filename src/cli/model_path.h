/*
 * cli/model_path.h: where a model named on the command line lives.
 *
 * Contract: a name with a '/' or ending in ".cat" is a path, used as it is;
 * any other name NAME means NAME.cat in the first of: the directory in
 * $SCOPECHECK_MODELS, PREFIX/models and PREFIX/share/scopecheck/models for
 * the executable PREFIX/bin/scopecheck (the build tree and `make install`),
 * and ./models.  The result is a GC string, or NULL when no file exists.
 */
#ifndef SCOPECHECK_CLI_MODEL_PATH_H
#define SCOPECHECK_CLI_MODEL_PATH_H

#include <stdio.h>

const char *model_path_resolve(const char *name);

/* "ptx6 (default), ptx75, sc, opencl, ...": the bundled models, for help
 * texts and errors. */
const char *model_path_bundled_names(void);

/* "scopecheck CMD: error: no model 'NAME' (bundled models: ...)", or the
 * explanation of a conformance table's NAME-race column. */
void model_path_unknown(FILE *err, const char *cmd, const char *name);

/* The same for other files kept in models/: a name with a '/' or ending in
 * `ext` is a path; otherwise models/NAME`ext` (protocol tables: ".proto"). */
const char *model_path_find(const char *name, const char *ext);

#endif
