/*
 * protocol/html.h: a protocol's transition tables as an HTML document, for
 * reading.
 *
 * Contract.  proto_html_write writes one section per controller: its
 * declarations (controller, states, field, var, final, and the invariants
 * on it) as they are written in the source file, then one <table> with the
 * columns state | event | guard | actions | next, one row per table row of
 * the protocol, each taken from its source line (so the text is exactly the
 * file's, comments dropped).  The protocol-wide declarations (constants,
 * values, messages, channels, memory) come first.  Every piece of text is
 * HTML-escaped.  Needs the protocol's source file (protocol_load's path);
 * returns false with a message on `err` when it cannot be read.
 */
#ifndef SCOPECHECK_PROTOCOL_HTML_H
#define SCOPECHECK_PROTOCOL_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "protocol/protocol.h"

bool proto_html_write(const protocol *p, FILE *out, FILE *err);

#endif
