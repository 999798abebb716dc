/* test_sim.c: CUnit suites for the simulator: the event queues, caches,
 * the line store, reading tables, one step of the tables, and the timing
 * of each controller on a protocol small enough to follow by hand
 * (tests/unit/sim/toy.tables.json: an L1 per CU that misses to one shared
 * memory-backed L2; every expected cycle count is derived in a comment
 * from the system's latencies, not taken from a run), and the RSP table
 * features on tests/unit/sim/rsptoy.proto (exported as rsptoy.tables.json). */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cache.h"
#include "sim/config.h"
#include "sim/heap.h"
#include "sim/interp.h"
#include "sim/lines.h"
#include "sim/machine.h"
#include "sim/queue.h"
#include "sim/tables.h"
#include "sim/tables_check.h"
#include "sim/workload.h"
#include "unit_suites.h"

#define TOY "tests/unit/sim/toy.tables.json"

/* ---- event queues ------------------------------------------------------------------ */

/* The reference: the earliest pending (time, push order), found by scanning. */
typedef struct ref_event { uint64_t time, order; uint32_t id; bool live; } ref_event;

static int ref_pop(ref_event *r, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (r[i].live && (best < 0 || r[i].time < r[best].time ||
                          (r[i].time == r[best].time && r[i].order < r[best].order)))
            best = i;
    if (best >= 0)
        r[best].live = false;
    return best;
}

/* Random pushes (near, same-time and far beyond the window) and pops,
 * never into the past, against the reference. */
static void check_queue_against_reference(bool use_heap)
{
    enum { N = 20000 };
    ref_event *ref = calloc(N, sizeof *ref);
    sim_queue *q = malloc(sizeof *q);
    sim_heap h;
    queue_init(q);
    heap_init(&h);
    uint64_t x = 12345, now = 0;
    int pushed = 0, mismatches = 0;
    for (int step = 0; step < 3 * N && !mismatches; step++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (pushed < N && (x % 3 != 0 || step % 5 == 0)) {
            uint64_t dt = x % 7 == 0 ? 5000 + x % 20000 : x % 11 == 0 ? 0 : x % 300;
            ref[pushed] = (ref_event){now + dt, (uint64_t)pushed, (uint32_t)pushed, true};
            CU_ASSERT_TRUE(use_heap ? heap_push(&h, now + dt, 1, (uint32_t)pushed)
                                    : queue_push(q, now + dt, 1, (uint32_t)pushed));
            pushed++;
            continue;
        }
        sim_event e;
        bool got = use_heap ? heap_pop(&h, &e) : queue_pop(q, &e);
        int want = ref_pop(ref, pushed);
        if (got != (want >= 0) || (got && (e.id != (uint32_t)want || e.time != ref[want].time)))
            mismatches++;
        if (got)
            now = e.time;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    queue_free(q);
    heap_free(&h);
    free(q);
    free(ref);
}

static void test_queue_reference(void) { check_queue_against_reference(false); }
static void test_heap_reference(void) { check_queue_against_reference(true); }

static void test_queue_same_time_fifo_and_past(void)
{
    sim_queue *q = malloc(sizeof *q);
    queue_init(q);
    sim_event e;
    for (uint32_t i = 0; i < 5; i++)
        CU_ASSERT_TRUE(queue_push(q, 10, 0, i));
    CU_ASSERT_TRUE(queue_push(q, 10 + 3 * SIM_QUEUE_WINDOW, 0, 99));   /* far */
    CU_ASSERT_TRUE(queue_push(q, 9, 0, 50));
    CU_ASSERT_TRUE(queue_pop(q, &e) && e.id == 50 && e.time == 9);
    for (uint32_t i = 0; i < 5; i++)
        CU_ASSERT_TRUE(queue_pop(q, &e) && e.id == i && e.time == 10);
    CU_ASSERT_FALSE(queue_push(q, 9, 0, 7));           /* before the last event: refused */
    CU_ASSERT_EQUAL(queue_count(q), 1);
    CU_ASSERT_TRUE(queue_pop(q, &e) && e.id == 99 && e.time == 10 + 3 * SIM_QUEUE_WINDOW);
    CU_ASSERT_FALSE(queue_pop(q, &e));
    CU_ASSERT_EQUAL(q->peak, 7);
    queue_free(q);
    free(q);
}

/* ---- caches ---------------------------------------------------------------------- */

static void test_cache_geometry(void)
{
    sim_cache c;
    CU_ASSERT_TRUE(cache_init(&c, 32 * 1024, 128, 4, REPL_LRU, 1));
    CU_ASSERT_EQUAL(c.nsets, 64);       /* 32768 / (128 * 4) */
    cache_free(&c);
    CU_ASSERT_TRUE(cache_init(&c, 128, 128, 4, REPL_LRU, 1));
    CU_ASSERT_EQUAL(c.nsets, 1);        /* smaller than a set: one set */
    cache_free(&c);
    CU_ASSERT_FALSE(cache_init(&c, 64, 128, 4, REPL_LRU, 1));   /* smaller than a line */
    CU_ASSERT_FALSE(cache_init(&c, 4096, 128, SIM_MAX_ASSOC + 1, REPL_LRU, 1));
}

/* One set of two ways.  LRU: A B A C -> C replaces B (A was used last);
 * then B misses and replaces A; A misses.  FIFO: A B A C -> C replaces A
 * (filled first) although A was just used; then A misses. */
static void test_cache_replacement(void)
{
    sim_cache c;
    CU_ASSERT_TRUE(cache_init(&c, 256, 128, 2, REPL_LRU, 1));
    CU_ASSERT_FALSE(cache_access(&c, 10));
    CU_ASSERT_FALSE(cache_access(&c, 20));
    CU_ASSERT_TRUE(cache_access(&c, 10));
    CU_ASSERT_FALSE(cache_access(&c, 30));
    CU_ASSERT_TRUE(cache_access(&c, 10));
    CU_ASSERT_FALSE(cache_access(&c, 20));      /* B was replaced */
    CU_ASSERT_FALSE(cache_access(&c, 30));      /* B replaced C (A used after C) */
    cache_free(&c);
    CU_ASSERT_TRUE(cache_init(&c, 256, 128, 2, REPL_FIFO, 1));
    CU_ASSERT_FALSE(cache_access(&c, 10));
    CU_ASSERT_FALSE(cache_access(&c, 20));
    CU_ASSERT_TRUE(cache_access(&c, 10));
    CU_ASSERT_FALSE(cache_access(&c, 30));
    CU_ASSERT_FALSE(cache_access(&c, 10));      /* A went first */
    CU_ASSERT_TRUE(cache_access(&c, 30));
    cache_free(&c);
}

/* cache_victims lists a full set's frames best first; random
 * replacement is the same sequence for the same seed. */
static void test_cache_victims(void)
{
    sim_cache c, d;
    long order[SIM_MAX_ASSOC], order2[SIM_MAX_ASSOC];
    CU_ASSERT_TRUE(cache_init(&c, 512, 128, 4, REPL_LRU, 1));
    for (uint64_t a = 1; a <= 4; a++)
        cache_fill(&c, cache_free_frame(&c, 0), a, (int32_t)a);
    CU_ASSERT_EQUAL(cache_free_frame(&c, 0), -1);
    cache_touch(&c, cache_find(&c, 1));
    CU_ASSERT_EQUAL(cache_victims(&c, 0, order), 4);
    CU_ASSERT_EQUAL(c.tag[order[0]], 2);        /* least recently used */
    CU_ASSERT_EQUAL(c.tag[order[3]], 1);        /* just touched */
    cache_clear(&c, cache_find(&c, 3));
    CU_ASSERT_EQUAL(cache_find(&c, 3), -1);
    CU_ASSERT_NOT_EQUAL(cache_free_frame(&c, 0), -1);
    cache_free(&c);
    CU_ASSERT_TRUE(cache_init(&c, 512, 128, 4, REPL_RANDOM, 7));
    CU_ASSERT_TRUE(cache_init(&d, 512, 128, 4, REPL_RANDOM, 7));
    bool same = true, varied = false;
    long first = -1;
    for (int k = 0; k < 20; k++) {
        cache_victims(&c, 0, order);
        cache_victims(&d, 0, order2);
        same &= order[0] == order2[0];
        varied |= k > 0 && order[0] != first;
        first = k == 0 ? order[0] : first;
    }
    CU_ASSERT_TRUE(same);
    CU_ASSERT_TRUE(varied);
    cache_free(&c);
    cache_free(&d);
}

/* ---- the line store ----------------------------------------------------------------- */

/* Random adds and removes of (instance, address) keys against a plain
 * table of which keys are present; removal shifts probe chains. */
static void test_lines_reference(void)
{
    enum { KEYS = 3000 };
    sim_lines l;
    CU_ASSERT_TRUE(lines_init(&l, 2, 4));
    int32_t *rec = malloc(sizeof *rec * KEYS);
    for (int k = 0; k < KEYS; k++)
        rec[k] = -1;
    uint64_t x = 99;
    int bad = 0;
    for (int step = 0; step < 40000; step++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int k = (int)(x % KEYS), inst = k % 4;
        uint64_t addr = (uint64_t)k * 977u;
        if (rec[k] < 0) {
            int64_t slots[2] = {k, -k};
            rec[k] = lines_add(&l, inst, addr, slots);
        } else if (x % 2) {
            lines_remove(&l, rec[k]);
            rec[k] = -1;
        }
        int32_t got = lines_find(&l, inst, addr);
        bad += got != rec[k] || (got >= 0 && (lines_slots(&l, got)[0] != k || lines_addr(&l, got) != addr ||
                                              lines_inst(&l, got) != inst));
    }
    size_t present = 0;
    for (int k = 0; k < KEYS; k++) {
        present += rec[k] >= 0;
        bad += lines_find(&l, k % 4, (uint64_t)k * 977u) != rec[k];
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(l.count, present);
    size_t listed = 0;                  /* the instance lists hold every line once */
    for (int i = 0; i < 4; i++)
        for (int32_t r = l.inst_head[i]; r >= 0; r = l.next[r])
            listed += lines_inst(&l, r) == i;
    CU_ASSERT_EQUAL(listed, present);
    lines_free(&l);
    free(rec);
}

/* ---- tables -------------------------------------------------------------------------- */

static FILE *null_stream(void) { return fopen("/dev/null", "w"); }

static sim_tables *load_toy(void)
{
    FILE *err = null_stream();
    sim_tables *t = sim_tables_load(TOY, true, err);
    fclose(err);
    return t;
}

static void test_tables_load_and_stamp(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    CU_ASSERT_PTR_NULL(sim_tables_load(TOY, false, err));    /* the toy file has no stamp */
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "not stamped"));
    free(text);
    sim_tables *t = load_toy();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_FALSE(t->verified);
    CU_ASSERT_STRING_EQUAL(t->protocol, "toy");
    CU_ASSERT_EQUAL(t->nctrls, 2);
    CU_ASSERT_EQUAL(t->proc_ctrl, 0);
    CU_ASSERT_EQUAL(t->ctrls[0].evict, 0);
    CU_ASSERT_TRUE(t->ctrls[1].memory_backed);
    CU_ASSERT_EQUAL(t->mem_ctrl, 1);
    CU_ASSERT_EQUAL(t->nprograms, 5);
    CU_ASSERT_PTR_NOT_NULL(sim_tables_program(t, "evict"));
    long b[SB_COUNT] = {2, 1, 2, 2, 4};
    CU_ASSERT_TRUE(sim_tables_bind(t, b, true, stderr));
    CU_ASSERT_TRUE(t->data_independent);        /* no guard reads a value */
    CU_ASSERT_EQUAL(t->vhi, 0x7fffffffL);
    CU_ASSERT_EQUAL(t->ctrls[0].ninst, 2);
    CU_ASSERT_EQUAL(t->ctrls[0].line_slots, 2);   /* state, val */
    CU_ASSERT_EQUAL(t->ctrls[0].vars[0].type.hi, 4);   /* acks : 0..MAXOPS */
}

/* A document whose row names a state the controller lacks is refused
 * with the field where it was met. */
static void test_tables_bad_reference(void)
{
    char path[] = "/tmp/scopesim-unit-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *in = fopen(TOY, "r"), *out = fdopen(fd, "w");
    char line[512];
    while (fgets(line, sizeof line, in))
        fputs(strstr(line, "\"next\": \"V\"") ? "    \"next\": \"W\",\n" : line, out);
    fclose(in);
    fclose(out);
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    CU_ASSERT_PTR_NULL(sim_tables_load(path, true, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "content.controllers[0].rows[5]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "unknown state 'W'"));
    free(text);
    unlink(path);
}

/* ---- one step of the tables ---------------------------------------------------------------- */

static sim_tables *bound_toy(void)
{
    sim_tables *t = load_toy();
    long b[SB_COUNT] = {2, 1, 2, 2, 4};
    sim_tables_bind(t, b, true, stderr);
    return t;
}

static const int cu_gpu_zero[2] = {0, 0};

static sim_ctx l1_ctx(const sim_tables *t, int64_t *line, const int64_t *init, int64_t *vars)
{
    return (sim_ctx){.t = t, .ctrl = 0, .inst = 1, .cu = 1, .gpu = 0, .cu_gpu = cu_gpu_zero, .addr = 5,
                     .has_line = true, .line = line, .line_init = init, .vars = vars, .tid = 0, .has_thread = true,
                     .order = 0, .value = 7};
}

static void test_interp_rows(void)
{
    sim_tables *t = bound_toy();
    const sim_row *row;
    sim_effects fx;
    int64_t init[2] = {0, 0}, line[2] = {1, 42}, vars[1] = {0};
    sim_event_desc load = {SE_LOAD, 0, 0, 0, 0, 0, false};
    sim_ctx c = l1_ctx(t, line, init, vars);
    CU_ASSERT_EQUAL(sim_fire(&c, &load, &row, &fx), FIRE_OK);   /* V: a hit */
    CU_ASSERT_TRUE(fx.done && fx.reg_set && fx.reg == 42 && fx.nsends == 0);
    line[0] = 0;
    CU_ASSERT_EQUAL(sim_fire(&c, &load, &row, &fx), FIRE_OK);   /* I: a miss */
    CU_ASSERT_TRUE(fx.wait && !fx.done && fx.nsends == 1);
    CU_ASSERT_EQUAL(fx.sends[0].dest, SD_SELF);
    CU_ASSERT_EQUAL(fx.sends[0].index, 1);                      /* the CU's own req inbox */
    CU_ASSERT_EQUAL(fx.sends[0].fields[0], 5);
    sim_event_desc store = {SE_STORE, 0, 0, 0, 0, 0, false};
    line[0] = 1;
    CU_ASSERT_EQUAL(sim_fire(&c, &store, &row, &fx), FIRE_OK);
    CU_ASSERT_EQUAL(line[1], 7);                                /* line.val := value */
    CU_ASSERT_EQUAL(vars[0], 1);                                /* acks += 1 */
    sim_event_desc fence = {SE_FENCE, 4, 2, 0, 0, 0, false};
    c.has_line = false;
    CU_ASSERT_EQUAL(sim_fire(&c, &fence, &row, &fx), FIRE_BLOCKED);  /* acks == 0 does not hold */
    vars[0] = 4;
    c.has_line = true;
    line[0] = 0;
    CU_ASSERT_EQUAL(sim_fire(&c, &store, &row, &fx), FIRE_BLOCKED);  /* acks would leave 0..MAXOPS */
    sim_event_desc evict = {SE_INTERNAL, 0, 0, 0, 0, 0, false};
    line[0] = 1, line[1] = 9;
    CU_ASSERT_EQUAL(sim_fire(&c, &evict, &row, &fx), FIRE_OK);
    CU_ASSERT_TRUE(line[0] == 0 && line[1] == 0);               /* invalidate: the initial line */
    CU_ASSERT_EQUAL(sim_fire(&c, &evict, &row, &fx), FIRE_BLOCKED);  /* no evict row for I */
    sim_event_desc resp = {SE_RECV, 0, 0, 1, 3, 0, false};             /* a StoreAck: acks -= 1 */
    CU_ASSERT_EQUAL(sim_fire(&c, &resp, &row, &fx), FIRE_OK);
    CU_ASSERT_EQUAL(vars[0], 3);
    sim_event_desc odd = {SE_RECV, 0, 0, 1, 0, 0, false};              /* a Load on resp: no row at all */
    CU_ASSERT_EQUAL(sim_fire(&c, &odd, &row, &fx), FIRE_UNHANDLED);
}

/* Why a row does not fire, as the deadlock report prints it: the toy's
 * fence row (line 5, `acks == 0`) with acks 2, and its store row in state
 * I (line 4, `acks += 1`) with acks at MAXOPS = 4. */
static void test_interp_explain(void)
{
    sim_tables *t = bound_toy();
    int64_t init[2] = {0, 0}, line[2] = {0, 0}, vars[1] = {2}, sl[2], sv[1];
    sim_ctx c = l1_ctx(t, line, init, vars);
    c.line_scratch = sl, c.vars_scratch = sv;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    sim_event_desc fence = {SE_FENCE, 4, 2, 0, 0, 0, false};
    sim_explain(&c, &fence, out);
    fputc('|', out);
    vars[0] = 4;
    sim_event_desc store = {SE_STORE, 0, 0, 0, 0, 0, false};
    sim_explain(&c, &store, out);
    fclose(out);
    CU_ASSERT_STRING_EQUAL(text, "row at line 5: guard `acks == 0` is false; variables acks=2|"
                                 "row at line 4: acks += `1` (gives 5) cannot be done: the range is 0..4; variables acks=4");
    CU_ASSERT_EQUAL(vars[0], 4);            /* nothing stored changed */
    CU_ASSERT_EQUAL(line[0], 0);
    free(text);
}

/* A constant the system outgrows is refused with the fix: the toy's
 * store row (line 3) made to set `acks := 9` while acks is 0..MAXOPS and
 * MAXOPS is 4 here; the fix is the system's maxops. */
static void test_tables_check_constants(void)
{
    sim_tables *t = bound_toy();
    CU_ASSERT_TRUE(sim_tables_check(t, stderr));
    sim_action *a = &t->ctrls[0].rows[2].acts[2];              /* acks += 1 */
    sim_expr nine = {.kind = SX_NUM, .num = 9};
    a->mode = SM_SET;
    a->e = &nine;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CU_ASSERT_FALSE(sim_tables_check(t, out));
    fclose(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "content.controllers.L1: the row at line 3 sets acks to `9`, 9 in this "
                                        "system, outside its range 0..4 (0..MAXOPS): the row could never fire"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "set `maxops 9` or more in the system"));
    free(text);
}

/* With scratch buffers, rows read the stored line and variables in place
 * and copy them only to change them (sim/interp.h); a blocked row leaves
 * the stored contents as they were. */
static void test_interp_copy_on_write(void)
{
    sim_tables *t = bound_toy();
    const sim_row *row;
    sim_effects fx;
    int64_t init[2] = {0, 0}, stored[2] = {1, 42}, vars[1] = {0};
    int64_t line_scratch[2] = {-1, -1}, vars_scratch[1] = {-1};
    sim_ctx c = l1_ctx(t, stored, init, vars);
    c.line_scratch = line_scratch;
    c.vars_scratch = vars_scratch;
    sim_event_desc load = {SE_LOAD, 0, 0, 0, 0, 0, false};
    CU_ASSERT_EQUAL(sim_fire(&c, &load, &row, &fx), FIRE_OK);   /* V: a hit changes nothing */
    CU_ASSERT_FALSE(row->changes_line || row->changes_vars);
    CU_ASSERT_PTR_EQUAL(c.line, stored);
    CU_ASSERT_PTR_EQUAL(c.vars, vars);
    CU_ASSERT_EQUAL(line_scratch[0], -1);                      /* nothing copied */
    sim_event_desc store = {SE_STORE, 0, 0, 0, 0, 0, false};
    CU_ASSERT_EQUAL(sim_fire(&c, &store, &row, &fx), FIRE_OK);  /* line.val := value; acks += 1 */
    CU_ASSERT_TRUE(row->changes_line && row->changes_vars);
    CU_ASSERT_PTR_EQUAL(c.line, line_scratch);
    CU_ASSERT_PTR_EQUAL(c.vars, vars_scratch);
    CU_ASSERT_TRUE(line_scratch[0] == 1 && line_scratch[1] == 7 && vars_scratch[0] == 1);
    CU_ASSERT_TRUE(stored[0] == 1 && stored[1] == 42 && vars[0] == 0);   /* the stored contents untouched */
    vars[0] = 4;                                                /* acks would leave 0..MAXOPS */
    c = l1_ctx(t, stored, init, vars);
    c.line_scratch = line_scratch;
    c.vars_scratch = vars_scratch;
    CU_ASSERT_EQUAL(sim_fire(&c, &store, &row, &fx), FIRE_BLOCKED);
    CU_ASSERT_TRUE(stored[0] == 1 && stored[1] == 42 && vars[0] == 4);
}

/* ---- timing of each controller -------------------------------------------------------------- */

/* The toy system: 2 CUs of one warp with one slot; L1: 3 cycles per
 * lookup, 1 per fill, one 64-byte frame; L2: 10 cycles, memory behind it
 * (every access reads or writes the memory field: DRAM 40 cycles, 16
 * bytes a cycle, so 4 cycles per line); local links: 5 cycles, 8 bytes
 * a cycle.  Messages: Load and StoreAck 8 bytes (1 cycle on a link),
 * LoadResp and Store 8 + 64 = 72 bytes (9 cycles). */
static const char toy_system[] =
    "system toy\ncus_per_gpm 2\nwarps_per_cu 1\nslots_per_warp 1\nline_bytes 64\nheader_bytes 8\n"
    "l1 latency 3 fill 1 rate 1 cache 64 1 lru\nl2 latency 10 rate 1\nlink local latency 5 bandwidth 8\n"
    "dram latency 40 bandwidth 16\n";

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/scopesim-unit-XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static sim_results *run_toy(const char *test, int *status)
{
    char wl_text[128];
    snprintf(wl_text, sizeof wl_text, "kind litmus\ntest %s\niterations 1\n", test);
    char *sys_path = write_temp(toy_system), *wl_path = write_temp(wl_text);
    sim_tables *t = load_toy();
    sim_system *s = sys_config_read(sys_path, NULL, 0, stderr);
    sim_workload *w = workload_read(wl_path, NULL, 0, stderr);
    static sim_results r;
    sim_run_opts o = {.seed = 1, .unverified = true};
    *status = t && s && w ? machine_run(t, s, w, &o, &r, stderr) : -1;
    unlink(sys_path);
    unlink(wl_path);
    free(sys_path);
    free(wl_path);
    return &r;
}

/* One load, then the end-of-program release fence.
 *   0  L1 misses: Load leaves at 0+3, serialised 1, arrives 3+1+5 = 9
 *   9  L2 reads memory: DRAM free, 40 more: LoadResp leaves 9+10+40 = 59,
 *      serialised 9, arrives 59+9+5 = 73
 *  73  L1 fills (1): the load completes at 74; the fence fires at 74 and
 *      completes at 77, the end. */
static void test_timing_one_load(void)
{
    int status;
    sim_results *r = run_toy("one-load", &status);
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_EQUAL(r->cycles, 77);
    CU_ASSERT_EQUAL(r->ctrl[0].read_misses, 1);
    CU_ASSERT_EQUAL(r->ctrl[1].dram, 1);
    CU_ASSERT_EQUAL(r->messages, 2);
    CU_ASSERT_EQUAL(r->bytes, 8 + 72);
    CU_ASSERT_TRUE(r->complete);
}

/* The same load again hits at 74 (3 cycles: 77); the fence: 80. */
static void test_timing_hit(void)
{
    int status;
    sim_results *r = run_toy("load-twice", &status);
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_EQUAL(r->cycles, 80);
    CU_ASSERT_EQUAL(r->ctrl[0].read_hits, 1);
    CU_ASSERT_EQUAL(r->ctrl[0].read_misses, 1);
}

/* Two CUs miss at 0; both Loads reach the L2 at 9.  The L2 serves one
 * event a cycle: CU 0's at 9 (DRAM busy until 13: done as above, 77);
 * CU 1's at 10, whose DRAM access starts at 13 (3 cycles of waiting):
 * LoadResp leaves 10+10+3+40 = 63, arrives 63+9+5 = 77; fill, done at
 * 78, fence 78..81. */
static void test_timing_contention(void)
{
    int status;
    sim_results *r = run_toy("two-cus", &status);
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_EQUAL(r->cycles, 81);
    CU_ASSERT_EQUAL(r->ctrl[1].dram, 2);
}

/* A one-frame L1: x (done at 74), y, x again.
 *  74  y misses: Load leaves 77, arrives 83; L2 at 83, DRAM 83..87:
 *      LoadResp leaves 133, arrives 147.  Filling y needs the frame: the
 *      evict row fires on x (eviction 1), then y fills: done at 148.
 * 148  x misses again: Load at 151, arrives 157; LoadResp leaves 207,
 *      arrives 221; evict y (eviction 2), fill x, done at 222; the
 *      fence: 225. */
static void test_timing_eviction(void)
{
    int status;
    sim_results *r = run_toy("evict", &status);
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_EQUAL(r->cycles, 225);
    CU_ASSERT_EQUAL(r->ctrl[0].evictions, 2);
    CU_ASSERT_EQUAL(r->ctrl[0].read_misses, 3);
}

/* A store: done at 3 (write-through, acknowledged later); the Store
 * leaves at 3, 72 bytes (9 cycles), arrives 17; the L2 writes memory
 * (DRAM 17..21) and answers at 17+10+40 = 67, StoreAck arrives 67+1+5 =
 * 73.  The fence waits for acks == 0 (blocked from 3), fires at 74 (the
 * L1 served the StoreAck at 73, one event a cycle) and completes at 77. */
static void test_timing_release_drain(void)
{
    int status;
    sim_results *r = run_toy("store-fence", &status);
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_EQUAL(r->cycles, 77);
    CU_ASSERT_EQUAL(r->stall[STALL_TABLE_FENCE], 74 - 3);
}

/* ---- the RSP table features (tests/unit/sim/rsptoy.proto, exported) --------------------------------- */

#define RSPTOY "tests/unit/sim/rsptoy.tables.json"

/* 2 CUs, 1 GPU, 3 lines, 2 threads, MAXOPS 4. */
static sim_tables *bound_rsptoy(void)
{
    sim_tables *t = sim_tables_load(RSPTOY, false, stderr);   /* stamped by export */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    long b[SB_COUNT] = {2, 1, 3, 2, 4};
    CU_ASSERT_TRUE(sim_tables_bind(t, b, true, stderr));
    return t;
}

static int internal_index(const sim_ctrl *c, const char *name)
{
    for (int i = 0; i < c->ninternal; i++)
        if (!strcmp(c->internal[i], name))
            return i;
    return -1;
}

/* The reader: `times` in a bound, the wi scope, remote rows, hold, and
 * which internal events have their line pinned by their guards. */
static void test_rsp_tables_read(void)
{
    sim_tables *t = bound_rsptoy();
    const sim_ctrl *l1 = &t->ctrls[0];
    CU_ASSERT_TRUE(t->verified);
    CU_ASSERT_EQUAL(l1->vars[0].type.hi, 2 * 3 - 1);    /* sfifo : fifo SF of 0..2*NADDR-1 */
    CU_ASSERT_EQUAL(l1->vars[0].type.n, 2);             /* SF */
    CU_ASSERT_EQUAL(l1->rows[2].scope, 4);              /* load.*.wi */
    CU_ASSERT_TRUE(l1->rows[4].remote);                 /* load.acquire.gpu.remote */
    CU_ASSERT_FALSE(l1->rows[5].remote);
    CU_ASSERT_TRUE(sim_row_matches(&l1->rows[4], SE_LOAD, 2, 2, true));
    CU_ASSERT_FALSE(sim_row_matches(&l1->rows[4], SE_LOAD, 2, 2, false));
    CU_ASSERT_FALSE(sim_row_matches(&l1->rows[5], SE_LOAD, 2, 2, true));
    CU_ASSERT_PTR_NOT_NULL(l1->hold);
    int drain = internal_index(l1, "drain"), tidy = internal_index(l1, "tidy");
    CU_ASSERT_FATAL(drain >= 0 && tidy >= 0);
    CU_ASSERT_TRUE(l1->pinned[drain]);                  /* sfifo[0] % NADDR == addr in every row */
    CU_ASSERT_FALSE(l1->pinned[tidy]);                  /* mark == 0 && len(sfifo) == 0: no line named */
    CU_ASSERT_PTR_NOT_NULL(l1->rows[12].pin);
    CU_ASSERT_EQUAL(l1->rows[12].pin_k, 0);
    CU_ASSERT_TRUE(t->data_independent);                /* no guard reads a value */
}

/* rsptoy.tables.json with the first line containing `from` replaced by
 * `to`, loaded unverified: NULL expected, and the error text returned. */
static char *load_edited_rsptoy(const char *from, const char *to)
{
    char path[] = "/tmp/scopesim-unit-XXXXXX";
    int fd = mkstemp(path);
    FILE *in = fopen(RSPTOY, "r"), *out = fdopen(fd, "w");
    char line[512];
    bool done = false;
    while (fgets(line, sizeof line, in)) {
        bool hit = !done && strstr(line, from);
        fputs(hit ? to : line, out);
        done |= hit;
    }
    fclose(in);
    fclose(out);
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    CU_ASSERT_PTR_NULL(sim_tables_load(path, true, err));
    fclose(err);
    unlink(path);
    return text;
}

/* Bad RSP members are refused with the field where they were met. */
static void test_rsp_tables_bad(void)
{
    char *e = load_edited_rsptoy("\"scope\": \"wi\"", "       \"scope\": \"warp\"\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "content.controllers[0].rows[2].event"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "unknown scope 'warp'"));
    free(e);
    e = load_edited_rsptoy("\"times\": 2", "         \"times\": \"two\"\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "times: must be an integer"));
    free(e);
    e = load_edited_rsptoy("\"name\": \"L2\",", "    \"name\": \"L2\", \"hold\": {\"op\": \"num\", \"value\": 1},\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "only the processor controller may hold"));
    free(e);
    e = load_edited_rsptoy("\"remote\": true", "       \"remote\": 1\n");
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "remote: must be true or false"));
    free(e);
}

/* Variables of the toy's L1: sfifo (length, 2 entries), wbs, rem, rt, mark. */
enum { V_LEN, V_E0, V_E1, V_WBS, V_REM, V_RT, V_MARK, V_SLOTS };

static sim_ctx rsp_ctx(const sim_tables *t, int64_t *line, const int64_t *init, int64_t *vars, int tid)
{
    return (sim_ctx){.t = t, .ctrl = 0, .inst = 0, .cu = 0, .gpu = 0, .cu_gpu = cu_gpu_zero, .addr = 1,
                     .has_line = true, .line = line, .line_init = init, .vars = vars, .tid = tid, .has_thread = true,
                     .order = 2, .value = 1};
}

static void test_rsp_interp(void)
{
    sim_tables *t = bound_rsptoy();
    CU_ASSERT_EQUAL_FATAL(t->ctrls[0].var_slots, V_SLOTS);
    const sim_row *row;
    sim_effects fx;
    int64_t init[2] = {0, 0}, line[2] = {0, 0}, vars[V_SLOTS] = {0};
    /* a remote acquire load takes the remote row: rem := 1, rt := tid */
    sim_ctx c = rsp_ctx(t, line, init, vars, 1);
    sim_event_desc racq = {SE_LOAD, 2, 2, 0, 0, 0, true}, acq = {SE_LOAD, 2, 2, 0, 0, 0, false};
    CU_ASSERT_EQUAL(sim_fire(&c, &racq, &row, &fx), FIRE_OK);
    CU_ASSERT_EQUAL(row - t->ctrls[0].rows, 4);
    CU_ASSERT_TRUE(vars[V_REM] == 1 && vars[V_RT] == 1 && fx.wait && fx.nsends == 1);
    /* hold rem > 0 && tid != rt: the other thread of the CU waits, the remote one does not */
    CU_ASSERT_TRUE(sim_held(&c) == false);
    c.tid = 0;
    CU_ASSERT_TRUE(sim_held(&c));
    c.has_thread = false;                   /* a message or internal event: tid is -1 */
    CU_ASSERT_TRUE(sim_held(&c));
    c.has_thread = true;
    vars[V_REM] = 0;
    CU_ASSERT_FALSE(sim_held(&c));
    /* the same load without .remote takes the plain row and leaves rem */
    CU_ASSERT_EQUAL(sim_fire(&c, &acq, &row, &fx), FIRE_OK);
    CU_ASSERT_EQUAL(row - t->ctrls[0].rows, 5);
    CU_ASSERT_EQUAL(vars[V_REM], 0);
    /* a wi store pushes NADDR + addr = 4, inside 0..2*NADDR-1 */
    sim_event_desc wst = {SE_STORE, 1, 4, 0, 0, 0, false};
    CU_ASSERT_EQUAL(sim_fire(&c, &wst, &row, &fx), FIRE_OK);
    CU_ASSERT_TRUE(vars[V_LEN] == 1 && vars[V_E0] == 4 && line[0] == 2 && line[1] == 1);
    /* a weak store to the same line: sfifo [4, 1] */
    sim_event_desc st = {SE_STORE, 0, 0, 0, 0, 0, false};
    CU_ASSERT_EQUAL(sim_fire(&c, &st, &row, &fx), FIRE_OK);
    CU_ASSERT_TRUE(vars[V_LEN] == 2 && vars[V_E1] == 1);
    CU_ASSERT_EQUAL(sim_fire(&c, &st, &row, &fx), FIRE_BLOCKED);   /* full: len(sfifo) < SF fails */
    /* drain on line 1: the head 4 % 3 == 1, last(sfifo, 1) = 1 > 0: pop without a write-back */
    sim_event_desc drain = {SE_INTERNAL, 0, 0, 0, 0, internal_index(&t->ctrls[0], "drain"), false};
    c.has_thread = false;
    int64_t a = -1;
    CU_ASSERT_TRUE(sim_pin_addr(&c, &t->ctrls[0].rows[12], &a));
    CU_ASSERT_EQUAL(a, 1);
    CU_ASSERT_EQUAL(sim_fire(&c, &drain, &row, &fx), FIRE_OK);
    CU_ASSERT_EQUAL(row - t->ctrls[0].rows, 13);
    CU_ASSERT_TRUE(fx.nsends == 0 && vars[V_LEN] == 1 && vars[V_E0] == 1 && line[0] == 2);
    /* now last(sfifo, 1) = 0 and last(sfifo, 4) = -1: the write-back */
    CU_ASSERT_EQUAL(sim_fire(&c, &drain, &row, &fx), FIRE_OK);
    CU_ASSERT_EQUAL(row - t->ctrls[0].rows, 12);
    CU_ASSERT_TRUE(fx.nsends == 1 && fx.sends[0].fields[0] == 1 && fx.sends[0].fields[1] == 1);
    CU_ASSERT_TRUE(vars[V_LEN] == 0 && vars[V_WBS] == 1 && line[0] == 1);
    /* an empty fifo pins no address (its head cannot be read) */
    CU_ASSERT_FALSE(sim_pin_addr(&c, &t->ctrls[0].rows[12], &a));
}

/* rsptoy-drain on the toy system (test_timing_one_load's latencies):
 *   0  st.weak x: the store row fires (D, sfifo [x]), done at 3
 *   1  drain (pinned on x): WB leaves at 1+3 = 4, 72 bytes: arrives
 *      4+9+5 = 18; wbs = 1
 *   2  tidy (no line named: tried on the held line x, now V): mark := 1
 *   3  the fence (issued when the store is done) waits: wbs == 0 fails
 *  18  the L2 writes memory (DRAM 40): WBAck leaves 18+10+40 = 68,
 *      arrives 68+1+5 = 74; the L1 takes it at 74 (wbs = 0)
 *  75  the fence fires (one event a cycle), done at 78
 *  78  ld.weak x hits (V), done at 81; the kernel's end fence 81..84.
 * L1 events: store, drain, tidy, WBAck, fence, load, fence = 7. */
static void test_timing_rsp_drain(void)
{
    char *sys_path = write_temp(toy_system), *wl_path = write_temp("kind litmus\ntest rsptoy-drain\niterations 1\n");
    sim_tables *t = sim_tables_load(RSPTOY, false, stderr);
    sim_system *s = sys_config_read(sys_path, NULL, 0, stderr);
    sim_workload *w = workload_read(wl_path, NULL, 0, stderr);
    static sim_results r;
    sim_run_opts o = {.seed = 1, .unverified = true};
    int status = t && s && w ? machine_run(t, s, w, &o, &r, stderr) : -1;
    CU_ASSERT_EQUAL(status, 0);
    CU_ASSERT_EQUAL(r.cycles, 84);
    CU_ASSERT_EQUAL(r.messages, 2);
    CU_ASSERT_EQUAL(r.ctrl[0].events, 7);
    CU_ASSERT_EQUAL(r.ctrl[1].dram, 1);
    CU_ASSERT_EQUAL(r.stall[STALL_TABLE_FENCE], 75 - 3);
    unlink(sys_path);
    unlink(wl_path);
    free(sys_path);
    free(wl_path);
}

/* ---- configuration and workload files --------------------------------------------------------------- */

static void expect_config_error(const char *text, const char *want)
{
    char *path = write_temp(text), *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    CU_ASSERT_PTR_NULL(sys_config_read(path, NULL, 0, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, want));
    unlink(path);
    free(path);
    free(msg);
}

static void test_config_errors(void)
{
    expect_config_error("system x\nwarps 4\n", ":2:1: error: unknown setting");
    expect_config_error("l1 latency 3 cache 32K 4 lrux\n", ":1:26: error: the replacement policy");
    expect_config_error("gpus 0\n", ":1:6: error: '0' is not an integer in 1..64");
    expect_config_error("link gpu latency 3\n", ":1:1: error: expected: link");
}

static void test_workload_errors(void)
{
    char *path = write_temp("workload w\nkind stream\nlinez 4\n"), *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    CU_ASSERT_PTR_NULL(workload_read(path, NULL, 0, err));
    fclose(err);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, ":3:1: error: unknown parameter 'linez'"));
    unlink(path);
    free(path);
    free(msg);
}

void register_sim_tests(void)
{
    CU_pSuite s = CU_add_suite("sim", NULL, NULL);
    CU_add_test(s, "calendar queue against a reference", test_queue_reference);
    CU_add_test(s, "heap against a reference", test_heap_reference);
    CU_add_test(s, "queue: same-time order, far events, no past", test_queue_same_time_fifo_and_past);
    CU_add_test(s, "cache geometry", test_cache_geometry);
    CU_add_test(s, "cache replacement (lru, fifo)", test_cache_replacement);
    CU_add_test(s, "cache victims and random replacement", test_cache_victims);
    CU_add_test(s, "line store against a reference", test_lines_reference);
    CU_add_test(s, "tables: load, stamp, bind", test_tables_load_and_stamp);
    CU_add_test(s, "tables: a bad reference names its field", test_tables_bad_reference);
    CU_add_test(s, "interp: rows, guards, ranges, evict, unhandled", test_interp_rows);
    CU_add_test(s, "interp: copy on write into the scratch buffers", test_interp_copy_on_write);
    CU_add_test(s, "interp: why a row does not fire", test_interp_explain);
    CU_add_test(s, "tables: constants checked against the system", test_tables_check_constants);
    CU_add_test(s, "timing: a miss through L1, link, L2, DRAM", test_timing_one_load);
    CU_add_test(s, "timing: an L1 hit", test_timing_hit);
    CU_add_test(s, "timing: L2 rate and DRAM bandwidth", test_timing_contention);
    CU_add_test(s, "timing: evictions run the evict row", test_timing_eviction);
    CU_add_test(s, "timing: a release fence waits for the write-through", test_timing_release_drain);
    CU_add_test(s, "rsp tables: times, wi, remote, hold, pins", test_rsp_tables_read);
    CU_add_test(s, "rsp tables: bad members name their field", test_rsp_tables_bad);
    CU_add_test(s, "rsp interp: remote row, hold and tid, last, drain", test_rsp_interp);
    CU_add_test(s, "timing: an internal drain before a fence", test_timing_rsp_drain);
    CU_add_test(s, "config errors have positions", test_config_errors);
    CU_add_test(s, "workload errors have positions", test_workload_errors);
}
