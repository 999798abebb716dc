/*
 * base/data_path.h: the files scopecheck and scopesim bundle (models,
 * protocol tables and their mutants, simulator systems and workloads,
 * litmus suites), found by name from wherever the program is run.
 *
 * Contract.  The bundled tree is the source tree's layout (models/,
 * models/mutants/, models/sim/, litmus/) under PREFIX, for the running
 * program PREFIX/bin/PROGRAM (the build tree), or under
 * PREFIX/share/scopecheck (`make install`).  Plugins (shared objects the
 * program opens on demand: draw/plugin.h) sit beside the program in the
 * build tree and in PREFIX/lib/scopecheck once installed.  Results are GC
 * strings, or NULL when no readable file or directory exists; nothing is
 * opened.
 */
#ifndef SCOPECHECK_BASE_DATA_PATH_H
#define SCOPECHECK_BASE_DATA_PATH_H

/* PREFIX/REL or PREFIX/share/scopecheck/REL, the first that exists; NULL
 * for an absolute or empty REL. */
const char *data_path_bundled(const char *rel);

/* A path given on the command line: itself when it exists or is absolute,
 * else the bundled file or directory of that relative path (REL, then
 * litmus/REL: `litmus/ptx` and `ptx` alike), else itself (the caller's
 * open reports the error). */
const char *data_path_arg(const char *arg);

/* A file named NAME or given as a path: a name without '/' or '.' means
 * DIR/NAME`ext` under ./ and then in the bundled tree (DIR "models/sim",
 * ext ".sys": `hmg4x1`); anything else is data_path_arg(NAME). */
const char *data_path_named(const char *name, const char *dir, const char *ext);

/* The plugin NAME (a file name, no '/') of the running program
 * DIR/PROGRAM: DIR/NAME (the build tree: bin/, build/asan/), else
 * DIR/../lib/scopecheck/NAME (`make install`), the first that is readable;
 * NULL when neither is.  `looked`, unless NULL, receives the two paths
 * tried ("A, B"), or a reason when the program's own path is unknown. */
const char *data_path_plugin(const char *name, const char **looked);

#endif
