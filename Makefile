# scopecheck build.  `make` builds bin/scopecheck and bin/scopesim; `make test` runs every test;
# `make asan` runs the unit and end-to-end tests under AddressSanitizer and UBSan.
#
# Sources live in one folder per layer under src/ (docs/ARCHITECTURE.md);
# every folder but src/cli/ is library code shared by the programs and the
# unit tests.  Objects mirror the tree under build/<flavour>/, and -MMD -MP
# keeps header dependencies automatic.

CC      ?= cc
CFLAGS  ?= -O2 -g
# The litmus path (front ends, model interpreter, enumerator) takes 3.5%
# fewer instructions at -O3 on the ptx6 corpus; the protocol search takes
# 1.7% more, so only those folders get it (docs/PERFORMANCE.md).  Set
# HOT_CFLAGS= to build everything with CFLAGS alone (a debugging build).
HOT_CFLAGS ?= -O3
HOT_DIRS   := cat enumerate litmus
WARN    := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
INC     := -Isrc
LDLIBS  := -lgc -ljansson -lnettle -pthread -lm
# graphviz: only src/draw/ uses it, and only the drawing plugin
# bin/scopecheck-draw.so links it (draw/plugin.h); bin/scopecheck opens
# the plugin on demand (cli/draw_load.h)
GVLIBS  := $(shell pkg-config --libs libgvc 2>/dev/null || echo -lgvc -lcgraph -lcdt)
SIMLIBS := -lgc -ljansson -lnettle -lm
TESTLIBS := -lcunit

LIB_DIRS := base litmus litmus/opencl litmus/c cat enumerate protocol search schedule report verify gen
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard src/$(d)/*.c))
# the simulator's modules: in scopesim and the unit tests, never in scopecheck
SIM_LIB_SRC := $(filter-out src/sim/main.c,$(wildcard src/sim/*.c))
CLI_SRC  := $(wildcard src/cli/*.c)
# the drawing code (graphviz): the plugin scopecheck-draw.so only, built
# position-independent; never in the program or the unit tests' library
DRAW_SRC := $(wildcard src/draw/*.c)
# scopesim: its own main over sim/ and base/ only (docs/ARCHITECTURE.md)
SIM_SRC  := src/sim/main.c $(wildcard src/base/*.c) $(filter-out src/sim/main.c,$(wildcard src/sim/*.c))
UNIT_SRC := $(wildcard tests/unit/*.c tests/unit/*/*.c)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# ThreadSanitizer, for the multi-threaded search (`make tsan`)
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer

# $(call objs,FLAVOUR,SOURCES): src/x/y.c -> build/FLAVOUR/x/y.o, tests/unit/x/y.c -> build/FLAVOUR/unit/x/y.o
objs = $(patsubst tests/unit/%.c,build/$(1)/unit/%.o,$(patsubst src/%.c,build/$(1)/%.o,$(2)))

OBJ           := $(call objs,obj,$(LIB_SRC) $(CLI_SRC))
DRAW_OBJ      := $(call objs,obj,$(DRAW_SRC))
SIM_OBJ       := $(call objs,obj,$(SIM_SRC))
ASAN_SIM_OBJ  := $(call objs,asan,$(SIM_SRC))
LIB_OBJ       := $(call objs,obj,$(LIB_SRC) $(SIM_LIB_SRC))
UNIT_OBJ      := $(call objs,obj,$(UNIT_SRC))
ASAN_OBJ      := $(call objs,asan,$(LIB_SRC) $(CLI_SRC))
ASAN_DRAW_OBJ := $(call objs,asan,$(DRAW_SRC))
ASAN_LIB_OBJ  := $(call objs,asan,$(LIB_SRC) $(SIM_LIB_SRC))
ASAN_UNIT_OBJ := $(call objs,asan,$(UNIT_SRC))
TSAN_OBJ      := $(call objs,tsan,$(LIB_SRC) $(CLI_SRC))
TSAN_LIB_OBJ  := $(call objs,tsan,$(LIB_SRC) $(SIM_LIB_SRC))
TSAN_UNIT_OBJ := $(call objs,tsan,$(UNIT_SRC))

.PHONY: all test unit e2e conformance asan tsan fuzz-replay fuzz check-layers difftest bench bench-protocol bench-search bench-sim experiments clean install uninstall

all: bin/scopecheck bin/scopecheck-draw.so bin/scopesim

# ---- one rule per kind of file ----------------------------------------------

build/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(if $(filter $(HOT_DIRS:%=build/obj/%/%),$@),$(HOT_CFLAGS)) $(PIC) $(INC) -MMD -MP -c -o $@ $<

build/obj/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(INC) -Itests/unit -MMD -MP -c -o $@ $<

build/asan/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) $(PIC) $(INC) -MMD -MP -c -o $@ $<

# the plugin's objects go into a shared object
$(DRAW_OBJ) $(ASAN_DRAW_OBJ): PIC := -fPIC

build/asan/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) $(INC) -Itests/unit -MMD -MP -c -o $@ $<

build/tsan/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TSAN_FLAGS) $(INC) -MMD -MP -c -o $@ $<

build/tsan/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(TSAN_FLAGS) $(INC) -Itests/unit -MMD -MP -c -o $@ $<

# ---- programs ---------------------------------------------------------------

# The program exports (--dynamic-list) exactly what the plugin's objects
# leave undefined, so that the plugin calls the program's own copy of the
# library code it draws from (draw/plugin.h); libc's and graphviz's names
# in the list are ignored, the program defining none of them.
DYNLIST = { echo '{'; nm -u $^ | awk '$$1 == "U" { print "  " $$2 ";" }' | sort -u; echo '};'; } >$@
build/obj/draw.dynlist: $(DRAW_OBJ)
	$(DYNLIST)
build/asan/draw.dynlist: $(ASAN_DRAW_OBJ)
	$(DYNLIST)

# A process per test (herd7's users script so) pays for every shared
# library it loads: the program takes libgc, libjansson and libnettle from
# their Debian static archives (same packages, -dev), a tenth less CPU a
# one-test process (docs/PERFORMANCE.md); STATIC_LIBS= links them shared.
STATIC_LIBS ?= -lgc -ljansson -lnettle
PROG_LDLIBS = -Wl,-Bstatic $(filter $(STATIC_LIBS),$(LDLIBS)) -Wl,-Bdynamic $(filter-out $(STATIC_LIBS),$(LDLIBS))

bin/scopecheck: $(OBJ) build/obj/draw.dynlist | bin/scopecheck-draw.so
	@mkdir -p bin
	$(CC) $(CFLAGS) -Wl,--dynamic-list=build/obj/draw.dynlist -o $@ $(OBJ) $(PROG_LDLIBS)

# no -lgc: the plugin allocates with the program's collector (the program
# exports the collector's functions the plugin calls: the dynamic list)
bin/scopecheck-draw.so: $(DRAW_OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS) -shared -o $@ $^ $(GVLIBS)

bin/scopesim: $(SIM_OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(SIMLIBS)

bin/unit_tests: $(LIB_OBJ) $(UNIT_OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) -lm $(TESTLIBS)

build/asan/scopecheck: $(ASAN_OBJ) build/asan/draw.dynlist | build/asan/scopecheck-draw.so
	$(CC) $(ASAN_FLAGS) -Wl,--dynamic-list=build/asan/draw.dynlist -o $@ $(ASAN_OBJ) $(LDLIBS)

build/asan/scopecheck-draw.so: $(ASAN_DRAW_OBJ)
	$(CC) $(ASAN_FLAGS) -shared -o $@ $^ $(GVLIBS)

build/asan/scopesim: $(ASAN_SIM_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(SIMLIBS)

build/asan/unit_tests: $(ASAN_LIB_OBJ) $(ASAN_UNIT_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS) -lm $(TESTLIBS)

build/tsan/scopecheck: $(TSAN_OBJ)
	$(CC) $(TSAN_FLAGS) -o $@ $^ $(LDLIBS)

build/tsan/unit_tests: $(TSAN_LIB_OBJ) $(TSAN_UNIT_OBJ)
	$(CC) $(TSAN_FLAGS) -o $@ $^ $(LDLIBS) -lm $(TESTLIBS)

# ---- tests ------------------------------------------------------------------

# The unit tests and a few multi-threaded verify runs under ThreadSanitizer
# (docs/search.md); not part of `make test` (slow, and only the search runs
# threads).
tsan: build/tsan/scopecheck build/tsan/unit_tests
	TSAN_OPTIONS=halt_on_error=1 build/tsan/unit_tests par_search
	TSAN_OPTIONS=halt_on_error=1 SCOPECHECK=build/tsan/scopecheck bash scripts/threads_compare.sh litmus/protocol/verify.tsv 2 4

unit: bin/unit_tests
	bin/unit_tests

e2e: bin/scopecheck bin/scopecheck-draw.so bin/scopesim
	bash tests/e2e/run.sh bin/scopecheck

conformance: bin/scopecheck
	HERD_SUITES=$(HERD_SUITES) bash tests/conformance_if_shared.sh bin/scopecheck

# LeakSanitizer is on: memory outside the collector (the search's store,
# graphviz's objects we own) must be freed.  tests/lsan.supp names the
# leaks graphviz and its libraries keep for the process's life.
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
           LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0

asan: build/asan/scopecheck build/asan/scopesim build/asan/unit_tests fuzz-replay
	$(SAN_ENV) build/asan/unit_tests
	$(SAN_ENV) bash tests/e2e/run.sh build/asan/scopecheck

# ---- fuzzing (docs/fuzzing.md) ------------------------------------------------
# Eight harnesses in tests/fuzz/.  `make fuzz FUZZ_SECONDS=N` runs each under
# libFuzzer (clang) for N seconds (not in CI); `make fuzz-replay`, part of
# `make test`, replays the committed corpora and past crash inputs through
# the same harnesses built with gcc, ASan and UBSan, on a 1 MiB stack so
# that a recursion that input can deepen fails here, not only in the field.

FUZZ_NAMES   := ptx opencl c cat protocol enumerate search sim
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang-14
FUZZ_DEFS    := -DFUZZ_MODELS_DIR='"$(CURDIR)/models"' -Itests/fuzz
FUZZ_SAN     := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
# ASan cannot see overflows of collector memory unless told where objects end
FUZZ_GC      := -include $(CURDIR)/tests/fuzz/gc_redzone.h
FUZZ_OBJ     := $(call objs,fuzz,$(LIB_SRC) $(SIM_LIB_SRC))
FUZZ_STACK_KB ?= 1024

build/fuzz/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_SAN) $(FUZZ_GC) -fsanitize=fuzzer-no-link $(INC) -MMD -MP -c -o $@ $<

build/fuzz/harness/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_SAN) $(FUZZ_GC) -fsanitize=fuzzer-no-link $(INC) $(FUZZ_DEFS) -MMD -MP -c -o $@ $<

build/fuzz/fuzz_%: build/fuzz/harness/fuzz_%.o build/fuzz/harness/mutate.o $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

build/asan/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) $(INC) $(FUZZ_DEFS) -MMD -MP -c -o $@ $<

build/asan/fuzz/replay_%: build/asan/fuzz/fuzz_%.o build/asan/fuzz/mutate.o build/asan/fuzz/replay.o $(ASAN_LIB_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS)

fuzz-replay: $(foreach n,$(FUZZ_NAMES),build/asan/fuzz/replay_$(n))
	@for n in $(FUZZ_NAMES); do \
	    (ulimit -s $(FUZZ_STACK_KB) && $(SAN_ENV) build/asan/fuzz/replay_$$n $$(bash scripts/fuzz_seeds.sh $$n) \
	        tests/fuzz/corpus/$$n tests/fuzz/crashes/$$n) || exit 1; \
	done

fuzz: $(foreach n,$(FUZZ_NAMES),build/fuzz/fuzz_$(n))
	bash scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_NAMES)

# The dependency rules of docs/ARCHITECTURE.md (folders, internal headers,
# unit tests, no circles) over the objects of every file of src/, scopesim's
# included, and of tests/unit/; then the script's own tests, one breach each.
check-layers: $(OBJ) $(DRAW_OBJ) $(SIM_OBJ) $(UNIT_OBJ)
	bash scripts/check_layers.sh build/obj
	CC="$(CC)" bash tests/layers/run.sh build/obj

# The whole suite; the closing line of each part says what passed.
test: check-layers unit e2e conformance asan

# Generated tests through every pair of paths that must agree, with the
# disagreements shrunk (docs/difftest.md); the suite runs a few hundred.
DIFFTEST_N ?= 100000
DIFFTEST_SEED ?= 1
difftest: bin/scopecheck
	bash scripts/difftest.sh $(DIFFTEST_N) $(DIFFTEST_SEED)

# ---- benchmarks -------------------------------------------------------------

bench: bin/scopecheck
	bash scripts/bench_litmus.sh

# Side by side with Rumur on the GPU VI state spaces (needs the rumur package).
bench-protocol: bin/scopecheck
	bash scripts/bench_protocol.sh

# scopesim: operations and messages per second, memory at two run lengths (docs/PERFORMANCE.md).
bench-sim: bin/scopecheck bin/scopesim
	bash scripts/bench_sim.sh

# Every experiment of docs/EXPERIMENTS.md: tables and figures into out/experiments/.
experiments: bin/scopecheck bin/scopesim
	bash scripts/experiments.sh out/experiments

# Search back end throughput on a synthetic model (docs/search.md).
bench-search: bin/bench_search
	bash scripts/bench_search.sh bin/bench_search

# (bfs.c reads base/clock.c's clock, which links the collector)
SEARCH_OBJ := $(call objs,obj,$(filter-out src/search/fair_cycle.c,$(wildcard src/search/*.c)) src/base/clock.c)
bin/bench_search: tests/bench/bench_search.c $(SEARCH_OBJ)
	@mkdir -p bin
	$(CC) $(WARN) $(CFLAGS) $(INC) -o $@ $^ -lgc -lm -pthread

# ---- installation -----------------------------------------------------------
# make install PREFIX=/usr/local [DESTDIR=...]: the program, the bundled
# models, protocols and mutants, the litmus suites (litmus/), all found by
# name from PREFIX/bin/scopecheck at run time (base/data_path.h),
# scripts/compare_models.sh and scripts/plot.sh, and the man pages;
# scopesim and its system and workload files (models/sim/), found by name;
# the drawing plugin in PREFIX/lib/scopecheck (base/data_path.h).

PREFIX  ?= /usr/local
BINDIR  := $(DESTDIR)$(PREFIX)/bin
DATADIR := $(DESTDIR)$(PREFIX)/share/scopecheck
MANDIR  := $(DESTDIR)$(PREFIX)/share/man
PLUGDIR := $(DESTDIR)$(PREFIX)/lib/scopecheck

install: bin/scopecheck bin/scopecheck-draw.so bin/scopesim
	install -d $(BINDIR) $(PLUGDIR) $(DATADIR)/models/mutants $(DATADIR)/models/sim $(DATADIR)/scripts $(MANDIR)/man1 $(MANDIR)/man5
	install -m 755 bin/scopecheck $(BINDIR)/scopecheck
	install -m 755 bin/scopesim $(BINDIR)/scopesim
	install -m 644 bin/scopecheck-draw.so $(PLUGDIR)/scopecheck-draw.so
	install -m 644 models/*.cat models/*.proto $(DATADIR)/models/
	install -m 644 models/sim/*.sys models/sim/*.wl $(DATADIR)/models/sim/
	install -m 644 models/mutants/*.proto $(DATADIR)/models/mutants/
	install -m 755 scripts/compare_models.sh scripts/plot.sh $(DATADIR)/scripts/
	cp -R litmus $(DATADIR)/
	chmod -R u=rwX,go=rX $(DATADIR)/litmus
	install -m 644 man/scopecheck.1 man/scopesim.1 $(MANDIR)/man1/
	install -m 644 man/scopecheck-litmus.5 man/scopecheck-cat.5 man/scopecheck-proto.5 $(MANDIR)/man5/

uninstall:
	rm -f $(BINDIR)/scopecheck $(BINDIR)/scopesim $(MANDIR)/man1/scopecheck.1 $(MANDIR)/man1/scopesim.1 \
	      $(MANDIR)/man5/scopecheck-litmus.5 \
	      $(MANDIR)/man5/scopecheck-cat.5 $(MANDIR)/man5/scopecheck-proto.5
	rm -rf $(DATADIR) $(PLUGDIR)

clean:
	rm -rf build bin

-include $(OBJ:.o=.d) $(DRAW_OBJ:.o=.d) $(ASAN_DRAW_OBJ:.o=.d) $(SIM_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(ASAN_OBJ:.o=.d) $(ASAN_SIM_OBJ:.o=.d) $(ASAN_UNIT_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) $(TSAN_OBJ:.o=.d) $(TSAN_UNIT_OBJ:.o=.d)
-include $(wildcard build/fuzz/harness/*.d build/asan/fuzz/*.d)
