/* cli/herd_args.c: see cli/herd_args.h. */
#include "cli/herd_args.h"

#include <stddef.h>
#include <string.h>

static const struct {
    const char *name;
    const char *advice;
} herd_only[] = {
    {"conf", "scopecheck reads no configuration file; give the options on the command line (-model, -unroll)"},
    {"set-libdir", "verify finds models in $SCOPECHECK_MODELS, then beside the program, or give -model PATH.cat (litmus takes -I DIR)"},
    {"libdir", "verify finds models in $SCOPECHECK_MODELS, then beside the program, or give -model PATH.cat (litmus takes -I DIR)"},
    {"I", "verify finds models in $SCOPECHECK_MODELS, then beside the program, or give -model PATH.cat (litmus takes -I DIR)"},
    {"bell", "scopecheck has no bell files: scopes come from the litmus test's placement"},
    {"macros", "scopecheck has no macro files"},
    {"through", "only consistent executions are counted; litmus -show all -through invalid -o DIR draws the others"},
    {"throughflag", "flags are reported for every consistent execution; use --races to list racing pairs"},
    {"skipcheck", "edit a copy of the .cat file and give it with -model PATH.cat"},
    {"skipchecks", "edit a copy of the .cat file and give it with -model PATH.cat"},
    {"strictskip", "edit a copy of the .cat file and give it with -model PATH.cat"},
    {"initwrites", "initial writes are always events (the set IW) in scopecheck's models"},
    {"speedcheck", "scopecheck always lists every final state"},
    {"variant", "verify's variants are part of the model: choose it with -model (ptx6, ptx75, opencl, ...); litmus takes --variant V"},
    {"hexa", "values are printed in decimal"},
    {"gv", "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"evince", "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"preview", "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"view", "draw with -show prop -o DIR and open DIR/TEST-1.svg"},
    {"dumpes", "event structures are not dumped; use --json for the final states"},
    {"optace", "the model says it: `option thread-coherence = enforced` (docs/cat.md)"},
    {"machsize", "values are 64-bit integers"},
    {"endian", "values are integers; there is no byte order"},
    {"archcheck", "the dialect is read from the test's first word (PTX, OPENCL)"},
    {"cycles", "use -show prop -o DIR to draw the executions"},
    {"suffix", "files written with -o DIR are named DIR/TEST.dot and DIR/TEST-N.svg"},
    {"debug", "scopecheck has no debug switches"},
    {"statelessrc11", "scopecheck has no RC11-specific checker"},
    {"maxphantom", "scopecheck has no phantom updates"},
    {"checkfilter", "a test's filter is always applied, as herd7 does by default"},
    {"badexecs", "use --races to list the racing pairs of flagged executions"},
    {"badflag", "use --races to list the racing pairs of flagged executions"},
    {"names", "name the tests (files or directories) on the command line"},
    {"excl", "name the tests (files or directories) on the command line"},
    {"rename", "name the tests (files or directories) on the command line"},
    {"kinds", "the test's own quantifier is used"},
    {"conds", "the test's own condition is used"},
    {"restrict", "every final state is listed"},
    {"outcomereads", "the final state lists the registers and locations the condition names"},
    {"candidates", "--json gives \"candidates\" and \"consistent\" counts"},
    {"dumpallfaults", "scopecheck has no faults"},
    {"exit", "the exit status always says what happened (0, 2, 3; docs/exit-status.md)"},
};

const char *herd_option_advice(const char *arg)
{
    if (!arg || arg[0] != '-')
        return NULL;
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    size_t len = strcspn(name, "=");
    for (size_t i = 0; i < sizeof herd_only / sizeof herd_only[0]; i++)
        if (strlen(herd_only[i].name) == len && strncmp(herd_only[i].name, name, len) == 0)
            return herd_only[i].advice;
    return NULL;
}
