/*
 * draw/graph_input.h: what the drawings of `scopecheck graph` share once
 * its inputs are read: the litmus test bound to the protocol and the model's
 * outcomes (the verification library's verify_prepare, whose rules say which
 * outcome is unsound), the limits and the output.
 */
#ifndef SCOPECHECK_DRAW_GRAPH_INPUT_H
#define SCOPECHECK_DRAW_GRAPH_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "litmus/outcome.h"
#include "protocol/protocol.h"
#include "verify/verify.h"

typedef struct graph_input {
    const char *litmus_path, *model_name, *format, *output;
    const litmus_test *t;
    proto_instance *inst;
    const protocol *p;
    const verify_result *verdict; /* the test bound to the protocol, the model's outcomes: verify_prepare's */
    uint64_t max_states;     /* the search stops there */
    bool full;               /* draw every state, however many */
} graph_input;

#endif
