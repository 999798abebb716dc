/*
 * cli/model_path.h: where a model named on the command line lives.
 *
 * Contract: a name with a '/' or ending in ".cat" is a path, used as it is;
 * any other name NAME means NAME.cat in the first of: the directory in
 * $SCOPECHECK_MODELS, PREFIX/models and PREFIX/share/scopecheck/models for
 * the executable PREFIX/bin/scopecheck (the build tree and `make install`,
 * base/data_path.h), and ./models.  The result is a GC string, or NULL when no file exists.
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
 * `ext` is a path (one that does not exist from here is looked for in the
 * bundled tree, base/data_path.h: models/mutants/X.proto from any
 * directory); otherwise NAME`ext` in models/ or models/mutants/ of the
 * same places (protocol tables: ".proto"). */
const char *model_path_find(const char *name, const char *ext);

/* The bundled protocol tables' names, "brsp, gpu_vi, ...", from the first
 * models directory that holds any; NULL when none is found. */
const char *model_path_protocol_names(void);

/* A model in a search directory (herd's -I): DIR/NAME, or DIR/NAME.cat when
 * NAME has no ".cat"; NULL when no such file exists or NAME is absolute. */
const char *model_path_in(const char *dir, const char *name);

/* Where compiled models are kept between runs (cat/cache.h): the directory
 * $SCOPECHECK_CACHE names ("off" or empty: no cache), else
 * $XDG_CACHE_HOME/scopecheck, else $HOME/.cache/scopecheck (XDG's default);
 * NULL for none. */
const char *model_path_cache_dir(void);
#endif
