/* tests/fuzz/fuzz_sim.c: the simulator's input readers, as scopesim reads
 * them from files, and then a short bounded simulation of what they read:
 * a system configuration (.sys), a workload (.wl) and exported tables
 * (JSON, read with the stamp check off so that a mutated table reaches the
 * reader behind it).  Text that starts with '{' goes to the table reader
 * and, when it reads, runs on tiny.sys with a stream and a prodcons
 * workload; anything else to the other two readers, and a system or
 * workload that reads runs with the unit tests' toy tables.  Runs are cut
 * at RUN_CYCLES and refused above RUN_CUS CUs, so that one input stays in
 * milliseconds. */
#include <ctype.h>
#include <stdio.h>
#include <unistd.h>

#include "harness.h"
#include "sim/config.h"
#include "sim/machine.h"
#include "sim/tables.h"
#include "sim/workload.h"

#define RUN_CYCLES 20000
#define RUN_CUS 16
#define RUN_WARPS 4

static char input_path[64];
static sim_tables *toy;         /* the unit tests' toy tables, read once */

#define SIM_DIR FUZZ_MODELS_DIR "/sim/"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    GC_INIT();
    snprintf(input_path, sizeof input_path, "/tmp/scopecheck-fuzz-sim-%d.in", (int)getpid());
    toy = sim_tables_load(FUZZ_MODELS_DIR "/../tests/unit/sim/toy.tables.json", true, fuzz_sink());
    return 0;
}

/* One run, bounded in size and cycles; its outcome is not looked at. */
static void simulate(sim_tables *t, const sim_system *s, sim_workload *w)
{
    if (!t || !s || !w || s->warps_per_cu > RUN_WARPS ||
        (long)s->gpus * s->gpms_per_gpu * s->cus_per_gpm > RUN_CUS)
        return;
    sim_run_opts o = {.seed = 1, .unverified = true, .max_cycles = RUN_CYCLES};
    sim_results *r = GC_MALLOC(sizeof *r);
    machine_run(t, s, w, &o, r, fuzz_sink());
}

static void tables_input(void)
{
    sim_tables *t = sim_tables_load(input_path, true, fuzz_sink());
    if (!t)
        return;
    const sim_system *tiny = sys_config_read(SIM_DIR "tiny.sys", NULL, 0, fuzz_sink());
    const char *stream[] = {"lines 4"}, *prodcons[] = {"rounds 2", "lines 2"};
    simulate(t, tiny, workload_read(SIM_DIR "stream.wl", stream, 1, fuzz_sink()));
    simulate(t, tiny, workload_read(SIM_DIR "prodcons_gpu.wl", prodcons, 2, fuzz_sink()));
}

static void text_input(void)
{
    const char *small[] = {"lines 4"};
    sim_system *s = sys_config_read(input_path, NULL, 0, fuzz_sink());
    if (s)
        simulate(toy, s, workload_read(SIM_DIR "stream.wl", small, 1, fuzz_sink()));
    sim_workload *w = workload_read(input_path, NULL, 0, fuzz_sink());
    if (w)
        simulate(toy, sys_config_read(SIM_DIR "tiny.sys", NULL, 0, fuzz_sink()), w);
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
    if (i < size && data[i] == '{')
        tables_input();
    else
        text_input();
    unlink(input_path);
    return 0;
}
