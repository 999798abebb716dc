/* cli/main.c: scopecheck's command dispatcher.
 *
 * Folder src/cli/: the commands (litmus, verify, graph, export, gen...) and main, the one
 * place with process-wide setup.  May include every folder but sim/; a new
 * command is a module here and one branch in main below. */
#include <gc.h>
#include <stdio.h>
#include <string.h>

#include "base/version.h"
#include "cli/export_cmd.h"
#include "cli/gen_cmd.h"
#include "cli/compare_cmd.h"
#include "cli/graph_cmd.h"
#include "cli/litmus_cmd.h"
#include "cli/output.h"
#include "cli/verify_cmd.h"

static void usage(FILE *to)
{
    fputs("usage: scopecheck COMMAND [ARGS]\n"
          "commands:\n"
          "  litmus   check litmus tests against a memory model (scopecheck litmus --help)\n"
          "  verify   run litmus tests on a protocol and check it against a model (scopecheck verify --help)\n"
          "  graph    draw a protocol's state graph on a litmus test, or render its tables (scopecheck graph --help)\n"
          "  export   verify a protocol, then write its tables for scopesim (scopecheck export --help)\n"
          "  gen      write random litmus tests (scopecheck gen --help)\n"
          "  convert  write a litmus test in the other dialect (PTX, OpenCL)\n"
          "  shrink   print a one-step reduction of a litmus test (for scripts/difftest.sh)\n"
          "  compare  logs of several models or tools side by side, test by test (scopecheck compare --help)\n"
          "  version  print the version\n",
          to);
}

static int run_command(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "litmus") == 0)
        return litmus_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "verify") == 0)
        return verify_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "export") == 0)
        return export_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "graph") == 0)
        return graph_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "gen") == 0)
        return gen_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "convert") == 0)
        return convert_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "shrink") == 0)
        return shrink_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "compare") == 0)
        return compare_cmd_main(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("scopecheck %s\n", SCOPECHECK_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "scopecheck: error: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}

/* A result that could not be written is exit status 2, whatever the
 * command found (cli/output.h). */
int main(int argc, char **argv)
{
    GC_INIT();
    int status = run_command(argc, argv);
    return output_close(stdout, stderr, argc >= 2 ? argv[1] : "", status);
}
