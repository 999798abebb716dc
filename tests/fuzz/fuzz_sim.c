/* tests/fuzz/fuzz_sim.c: the simulator's input readers, as scopesim reads
 * them from files: a system configuration (.sys), a workload (.wl) and
 * exported tables (JSON, read with the stamp check off so that a mutated
 * table reaches the reader behind it).  Text that starts with '{' goes to
 * the table reader; anything else to the other two. */
#include <ctype.h>
#include <stdio.h>
#include <unistd.h>

#include "harness.h"
#include "sim/config.h"
#include "sim/tables.h"
#include "sim/workload.h"

static char input_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    snprintf(input_path, sizeof input_path, "/tmp/scopecheck-fuzz-sim-%d.in", (int)getpid());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(input_path, "wb");
    if (!f)
        return 0;
    size_t wrote = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || wrote != size)
        return 0;
    size_t i = 0;
    while (i < size && isspace(data[i]))
        i++;
    if (i < size && data[i] == '{') {
        sim_tables_load(input_path, true, fuzz_sink());
    } else {
        sys_config_read(input_path, NULL, 0, fuzz_sink());
        workload_read(input_path, NULL, 0, fuzz_sink());
    }
    unlink(input_path);
    return 0;
}
