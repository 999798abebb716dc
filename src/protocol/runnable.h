/*
 * protocol/runnable.h: whether the protocol interpreter can run a litmus
 * test at all, asked by every command that runs a test on a protocol
 * (verify, graph, graph --msc, export) before it binds the two.
 *
 * Contract.  The interpreter runs a read-modify-write as a read and a
 * write and knows the orders of PTX and OpenCL; the C dialect's
 * read-modify-writes are herd's single events with a success flag
 * (litmus/litmus.h), and C has memory_order_consume, which the
 * interpreter's order names do not cover.  proto_test_runnable() refuses
 * such a test rather than misread it: false after writing one line
 * "PATH:LINE:COL: error: ..." (the first such instruction) to `err`.
 */
#ifndef SCOPECHECK_PROTOCOL_RUNNABLE_H
#define SCOPECHECK_PROTOCOL_RUNNABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "litmus/litmus.h"

bool proto_test_runnable(const litmus_test *t, const char *path, FILE *err);

#endif
