# scopecheck build.  `make` builds bin/scopecheck; `make test` runs every test;
# `make asan` runs the unit and end-to-end tests under AddressSanitizer and UBSan.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
LDLIBS  := -lgc $(shell pkg-config --libs libgvc 2>/dev/null || echo -lgvc -lcgraph -lcdt)
TESTLIBS := -lcunit

SRC      := $(wildcard src/*.c)
LIB_SRC  := $(filter-out src/main.c,$(SRC))
UNIT_SRC := $(wildcard tests/unit/*.c)

OBJ      := $(SRC:src/%.c=build/obj/%.o)
LIB_OBJ  := $(LIB_SRC:src/%.c=build/obj/%.o)
UNIT_OBJ := $(UNIT_SRC:tests/unit/%.c=build/obj/unit/%.o)

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ASAN_OBJ      := $(SRC:src/%.c=build/asan/%.o)
ASAN_LIB_OBJ  := $(LIB_SRC:src/%.c=build/asan/%.o)
ASAN_UNIT_OBJ := $(UNIT_SRC:tests/unit/%.c=build/asan/unit/%.o)

.PHONY: all test unit e2e conformance asan bench bench-search clean

all: bin/scopecheck

bin/scopecheck: $(OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

bin/unit_tests: $(LIB_OBJ) $(UNIT_OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)

build/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

build/obj/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -Isrc -MMD -MP -c -o $@ $<

# Sanitizer build: same sources, separate objects.
build/asan/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) -MMD -MP -c -o $@ $<

build/asan/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(ASAN_FLAGS) -Isrc -MMD -MP -c -o $@ $<

build/asan/scopecheck: $(ASAN_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS)

build/asan/unit_tests: $(ASAN_LIB_OBJ) $(ASAN_UNIT_OBJ)
	$(CC) $(ASAN_FLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)

unit: bin/unit_tests
	bin/unit_tests

e2e: bin/scopecheck
	bash tests/e2e/run.sh bin/scopecheck

conformance: bin/scopecheck
	bash tests/conformance_if_shared.sh bin/scopecheck

asan: build/asan/scopecheck build/asan/unit_tests
	ASAN_OPTIONS=detect_leaks=0 build/asan/unit_tests
	ASAN_OPTIONS=detect_leaks=0 bash tests/e2e/run.sh build/asan/scopecheck

# The whole suite; the closing line of each part says what passed.
test: unit e2e conformance asan

bench: bin/scopecheck
	bash scripts/bench_litmus.sh

# Side by side with Rumur on the GPU VI state spaces (needs the rumur package).
bench-protocol: bin/scopecheck
	bash scripts/bench_protocol.sh

# Search back end throughput on a synthetic model (docs/search.md).
bench-search: bin/bench_search
	bash scripts/bench_search.sh bin/bench_search

bin/bench_search: tests/bench/bench_search.c build/obj/state_store.o build/obj/search_bfs.o
	@mkdir -p bin
	$(CC) $(WARN) $(CFLAGS) -Isrc -o $@ $^

clean:
	rm -rf build bin

-include $(OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(ASAN_OBJ:.o=.d) $(ASAN_UNIT_OBJ:.o=.d)
