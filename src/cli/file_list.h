/*
 * cli/file_list.h: the litmus files named on a command line.
 *
 * Contract.  file_list_add_arg() adds a file as it is, or every *.litmus
 * below a directory (recursively, hidden entries skipped, a directory
 * reached twice through symbolic links read once; deeper than 32 levels
 * is an error), in sorted order so that runs are reproducible; it returns
 * false, with "PATH: error: REASON" on `err`, when the argument or a
 * directory cannot be read (the readable part is still added).  `litmus`
 * and `verify` take the same arguments this way.  A relative path that
 * does not exist from here names a bundled suite or test
 * (base/data_path.h: `litmus/ptx`, `ptx/proxy`, from any directory).  Memory: Boehm GC.
 */
#ifndef SCOPECHECK_CLI_FILE_LIST_H
#define SCOPECHECK_CLI_FILE_LIST_H

#include <stdbool.h>
#include <stdio.h>

typedef struct file_list_seen file_list_seen;

typedef struct file_list {
    int count, capacity;
    const char **paths;
    file_list_seen *seen;   /* directories read so far (a symbolic link loop is read once) */
} file_list;

void file_list_add(file_list *l, const char *path);
bool file_list_add_arg(file_list *l, const char *arg, FILE *err);

#endif
