/*
 * verify/json_lines.h: multi-line text (a trace) as a JSON array of strings,
 * one per line, for the verify reports that add traces of their own.
 */
#ifndef SCOPECHECK_VERIFY_JSON_LINES_H
#define SCOPECHECK_VERIFY_JSON_LINES_H

#include <stdint.h>
#include <stdio.h>

#include "search/bfs.h"

/* Writes [line, line, ...] for the text's lines (NULL: []). */
void json_lines(FILE *out, const char *text);
/* The trace bfs_print_trace prints to `index`, as a JSON array. */
void json_bfs_trace(FILE *out, const bfs_search *bfs, uint32_t index);

#endif
