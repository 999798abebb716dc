# scopecheck build.  `make` builds bin/scopecheck; `make test` runs every test;
# `make asan` runs the unit and end-to-end tests under AddressSanitizer and UBSan.
#
# Sources live in one folder per layer under src/ (docs/ARCHITECTURE.md);
# every folder but src/cli/ is library code shared by the programs and the
# unit tests.  Objects mirror the tree under build/<flavour>/, and -MMD -MP
# keeps header dependencies automatic.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
INC     := -Isrc
LDLIBS  := -lgc -lnettle $(shell pkg-config --libs libgvc 2>/dev/null || echo -lgvc -lcgraph -lcdt)
TESTLIBS := -lcunit

LIB_DIRS := base litmus litmus/opencl cat enumerate protocol search report gen
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard src/$(d)/*.c))
CLI_SRC  := $(wildcard src/cli/*.c)
UNIT_SRC := $(wildcard tests/unit/*.c tests/unit/*/*.c)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# $(call objs,FLAVOUR,SOURCES): src/x/y.c -> build/FLAVOUR/x/y.o, tests/unit/x/y.c -> build/FLAVOUR/unit/x/y.o
objs = $(patsubst tests/unit/%.c,build/$(1)/unit/%.o,$(patsubst src/%.c,build/$(1)/%.o,$(2)))

OBJ           := $(call objs,obj,$(LIB_SRC) $(CLI_SRC))
LIB_OBJ       := $(call objs,obj,$(LIB_SRC))
UNIT_OBJ      := $(call objs,obj,$(UNIT_SRC))
ASAN_OBJ      := $(call objs,asan,$(LIB_SRC) $(CLI_SRC))
ASAN_LIB_OBJ  := $(call objs,asan,$(LIB_SRC))
ASAN_UNIT_OBJ := $(call objs,asan,$(UNIT_SRC))

.PHONY: all test unit e2e conformance asan check-layers difftest bench bench-protocol bench-search clean
.PHONY: all test unit e2e conformance asan check-layers bench bench-protocol bench-search clean install uninstall

all: bin/scopecheck

# ---- one rule per kind of file ----------------------------------------------

build/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(INC) -MMD -MP -c -o $@ $<

build/obj/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(INC) -Itests/unit -MMD -MP -c -o $@ $<

build/asan/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) $(INC) -MMD -MP -c -o $@ $<

build/asan/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) $(INC) -Itests/unit -MMD -MP -c -o $@ $<

# ---- programs ---------------------------------------------------------------

bin/scopecheck: $(OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

bin/unit_tests: $(LIB_OBJ) $(UNIT_OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)

build/asan/scopecheck: $(ASAN_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS)

build/asan/unit_tests: $(ASAN_LIB_OBJ) $(ASAN_UNIT_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)

# ---- tests ------------------------------------------------------------------

unit: bin/unit_tests
	bin/unit_tests

e2e: bin/scopecheck
	bash tests/e2e/run.sh bin/scopecheck

conformance: bin/scopecheck
	bash tests/conformance_if_shared.sh bin/scopecheck

asan: build/asan/scopecheck build/asan/unit_tests
	ASAN_OPTIONS=detect_leaks=0 build/asan/unit_tests
	ASAN_OPTIONS=detect_leaks=0 bash tests/e2e/run.sh build/asan/scopecheck

# The dependency rules of docs/ARCHITECTURE.md (folders, no circles).
check-layers: bin/scopecheck
	bash scripts/check_layers.sh build/obj

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

# Search back end throughput on a synthetic model (docs/search.md).
bench-search: bin/bench_search
	bash scripts/bench_search.sh bin/bench_search

bin/bench_search: tests/bench/bench_search.c build/obj/search/state_store.o build/obj/search/bfs.o
	@mkdir -p bin
	$(CC) $(WARN) $(CFLAGS) $(INC) -o $@ $^

# ---- installation -----------------------------------------------------------
# make install PREFIX=/usr/local [DESTDIR=...]: the program, the bundled
# models and protocols (found from PREFIX/bin/scopecheck at run time, see
# cli/model_path.h), scripts/compare_models.sh and the man pages.

PREFIX  ?= /usr/local
BINDIR  := $(DESTDIR)$(PREFIX)/bin
DATADIR := $(DESTDIR)$(PREFIX)/share/scopecheck
MANDIR  := $(DESTDIR)$(PREFIX)/share/man

install: bin/scopecheck
	install -d $(BINDIR) $(DATADIR)/models/mutants $(DATADIR)/scripts $(MANDIR)/man1 $(MANDIR)/man5
	install -m 755 bin/scopecheck $(BINDIR)/scopecheck
	install -m 644 models/*.cat models/*.proto $(DATADIR)/models/
	install -m 644 models/mutants/*.proto $(DATADIR)/models/mutants/
	install -m 755 scripts/compare_models.sh $(DATADIR)/scripts/
	install -m 644 man/scopecheck.1 $(MANDIR)/man1/
	install -m 644 man/scopecheck-litmus.5 man/scopecheck-cat.5 man/scopecheck-proto.5 $(MANDIR)/man5/

uninstall:
	rm -f $(BINDIR)/scopecheck $(MANDIR)/man1/scopecheck.1 $(MANDIR)/man5/scopecheck-litmus.5 \
	      $(MANDIR)/man5/scopecheck-cat.5 $(MANDIR)/man5/scopecheck-proto.5
	rm -rf $(DATADIR)

clean:
	rm -rf build bin

-include $(OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(ASAN_OBJ:.o=.d) $(ASAN_UNIT_OBJ:.o=.d)
