#!/usr/bin/env bash
# tests/layers/run.sh [BUILD_DIR]: the tests of scripts/check_layers.sh.
# Each case copies src/, scripts/ and tests/unit/ into a scratch tree, with
# links to the built objects (BUILD_DIR, default build/obj), injects one
# breach of docs/ARCHITECTURE.md's rules, runs the script there and expects
# it to fail with the breach named; a few cases expect it to pass.  Objects
# are compiled only for the files a case adds.  One line per case, then
# "layers: N passed, M failed"; exits 1 if any failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
objdir=$(cd "${1:-build/obj}" 2>/dev/null && pwd) || { echo "layers: no ${1:-build/obj}; build first" >&2; exit 2; }
CC=${CC:-cc}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0

# A pristine copy, timestamps kept so that the objects stay up to date.
mkdir -p "$scratch/pristine/tests"
cp -a src scripts "$scratch/pristine/"
cp -a tests/unit "$scratch/pristine/tests/"
t=""   # the current case's tree

fresh() {  # a new scratch tree in $t, objects linked
    t=$scratch/case
    rm -rf "$t"
    cp -a "$scratch/pristine" "$t"
    mkdir -p "$t/obj"
    cp -rs "$objdir/." "$t/obj/"
}
# inject FILE TEXT: append TEXT to FILE of the tree, keeping its time (an
# include changes no object; a call is compiled by compile below).
inject() {
    local stamp
    stamp=$(stat -c %Y "$t/$1" 2>/dev/null || date +%s)
    mkdir -p "$(dirname "$t/$1")"
    printf '%s\n' "$2" >>"$t/$1"
    touch -d "@$stamp" "$t/$1"
}
# compile FILE: its object in the tree's object folder.
compile() {
    local o=$t/obj/${1#src/}
    case $1 in tests/unit/*) o=$t/obj/unit/${1#tests/unit/} ;; esac
    o=${o%.c}.o
    mkdir -p "$(dirname "$o")"
    rm -f "$o"
    (cd "$t" && $CC -std=c11 -D_GNU_SOURCE -Isrc -c -o "$o" "$1")
}
run_script() { (cd "$t" && bash scripts/check_layers.sh "${1:-obj}") >"$scratch/out" 2>&1; }
report() {  # report OK WHAT
    if [ "$1" = 1 ]; then
        echo "PASS: $2"; passed=$((passed + 1))
    else
        echo "FAIL: $2"; sed 's/^/    /' "$scratch/out" | head -n 8; failed=$((failed + 1))
    fi
}
# fails WHAT STATUS REGEX: the script exits STATUS, printing REGEX.
fails() {
    run_script "${objarg:-obj}"
    local rc=$?
    [ "$rc" -eq "$2" ] && grep -qE "$3" "$scratch/out" && ok=1 || ok=0
    report $ok "$1 (exit $rc, want $2)"
}
passes() {
    run_script obj
    local rc=$?
    [ "$rc" -eq 0 ] && grep -q 'every dependency points down' "$scratch/out" && ok=1 || ok=0
    report $ok "$1"
}
objarg=""
first_header() { find "src/$1" -maxdepth 1 -name '*.h' | sort | head -n 1 | sed 's|^src/||'; }
first_function() { nm --defined-only -g "$objdir/$1" | awk '$2 == "T" { print $3; exit }'; }
cli_h=$(first_header cli)

# The real tree, and rows for folders that do not exist yet.
fresh
passes "the tree as it is passes"
fresh
inject src/litmus/cond.c "/* #include \"$cli_h\"
#include \"$cli_h\" */"
passes "an include in a comment is no include"

# Hole 1: a folder may be allowed only some headers of another.
fresh
inject src/protocol/instance.c '#include "search/bfs.h"'
fails "protocol/ includes search/bfs.h (only search/nsi.h is allowed)" 1 \
    'instance\.c:[0-9]+: includes "search/bfs\.h": protocol/ may include only: base litmus search/nsi\.h'

# The drawings are a plugin: the commands include its table's header, not
# the drawing modules, and call them through the table only.
fresh
inject src/cli/graph_cmd.c '#include "draw/state_graph.h"'
fails "cli/ includes draw/state_graph.h (only the plugin's table, draw/plugin.h)" 1 \
    'graph_cmd\.c:[0-9]+: includes "draw/state_graph\.h": cli/ may include only: .*draw/plugin\.h draw/graph_input\.h'
fresh
printf 'void layers_probe(void);\nvoid state_graph_draw(void);\nvoid layers_probe(void) { state_graph_draw(); }\n' \
    >"$t/src/cli/layers_probe.c"
compile src/cli/layers_probe.c
fails "cli/ calls state_graph_draw of draw/ (no include): only through the plugin's table" 1 \
    'src/cli/layers_probe\.c uses state_graph_draw of src/draw/state_graph\.c: cli/ may use only: .*draw/plugin\.h draw/graph_input\.h'

# Hole 2: every form of #include that compiles.
n=0
for form in "#  include \"$cli_h\"" "  #include \"$cli_h\"" "#	include	\"$cli_h\"" \
    "# /* c */ include /* c */ \"$cli_h\"" "#include\"$cli_h\"" "%:include \"$cli_h\"" \
    "#inc\\
lude \"$cli_h\"" "#include \\
\"$cli_h\"" "/* a comment */ # include \"$cli_h\" // and one more"; do
    n=$((n + 1))
    fresh
    inject src/litmus/cond.c "$form"
    fails "litmus/ includes cli/ written as $(printf '%q' "$form")" 1 \
        "cond\\.c:[0-9]+: includes \"$cli_h\": litmus/ may include only: base\$"
done
fresh
inject src/litmus/cond.c '#define LAYERS_HEADER "cli/main.h"
#include LAYERS_HEADER'
fails "a computed #include" 1 'cond\.c:[0-9]+: #include LAYERS_HEADER: a computed include'

# Hole 3: <...> and relative paths resolve as the compiler resolves them.
fresh
inject src/litmus/cond.c '#include <protocol/protocol.h>'
fails "litmus/ includes <protocol/protocol.h>" 1 'includes "protocol/protocol\.h": litmus/ may include only'
fresh
inject src/litmus/cond.c '#include "../protocol/protocol.h"'
fails "litmus/ includes \"../protocol/protocol.h\"" 1 'includes "protocol/protocol\.h": litmus/ may include only'
fresh
inject src/protocol/instance.c '#include "protocol.h"'
fails "a header named without its folder" 1 'instance\.c:[0-9]+: includes "protocol\.h": write it as "protocol/protocol\.h"'

# Hole 4: internal.h belongs to its folder.
fresh
inject src/cli/main.c '#include "protocol/internal.h"'
fails "cli/ includes protocol/internal.h" 1 'main\.c:[0-9]+: includes "protocol/internal\.h": only the files of src/protocol/'
fresh
inject src/litmus/ptx.c '#include "litmus/opencl/internal.h"'
fails "litmus/ptx.c includes litmus/opencl/internal.h (only litmus/c/ is excepted)" 1 \
    'ptx\.c:[0-9]+: includes "litmus/opencl/internal\.h": only the files of src/litmus/opencl/ include it \(and of litmus/c\)'
fresh
inject tests/unit/protocol/test_protocol.c '#include "protocol/internal.h"'
fails "a unit test includes protocol/internal.h" 1 'test_protocol\.c:[0-9]+: includes "protocol/internal\.h": only the files'

# Hole 5: calls between folders obey the rows, at header granularity.
fresh
fn=$(first_function protocol/instance.o)
printf 'void layers_probe(void);\nvoid %s(void);\nvoid layers_probe(void) { %s(); }\n' "$fn" "$fn" >"$t/src/litmus/layers_probe.c"
compile src/litmus/layers_probe.c
fails "litmus/ calls $fn of protocol/ (no include)" 1 \
    "src/litmus/layers_probe\\.c uses $fn of src/protocol/instance\\.c: litmus/ may use only: base\$"
fresh
fn=$(first_function search/bfs.o)
printf 'void layers_probe(void);\nvoid %s(void);\nvoid layers_probe(void) { %s(); }\n' "$fn" "$fn" >"$t/src/protocol/layers_probe.c"
compile src/protocol/layers_probe.c
fails "protocol/ calls $fn of search/bfs.c (only search/nsi.h is allowed)" 1 \
    "src/protocol/layers_probe\\.c uses $fn of src/search/bfs\\.c: protocol/ may use only: base litmus search/nsi\\.h"

fresh
fn=$(first_function protocol/instance.o)
printf 'void layers_probe(void);\nvoid %s(void);\nvoid layers_probe(void) { %s(); }\n' "$fn" "$fn" >"$t/tests/unit/search/layers_probe.c"
compile tests/unit/search/layers_probe.c
fails "tests/unit/search/ calls $fn of protocol/ (no include)" 1 \
    "tests/unit/search/layers_probe\\.c uses $fn of src/protocol/instance\\.c: search/ may use only: base\$"

# Hole 6: no objects, one missing, one out of date: the script cannot check.
fresh
objarg=nowhere fails "no object folder" 2 'no object folder nowhere'
objarg=""
fresh
rm -rf "$t/obj/sim"
fails "no sim/ objects (built before scopesim was)" 2 'src/sim/main\.c has no object obj/sim/main\.o'
fresh
rm -f "$t/obj/sim/machine.o"
fails "sim/machine.o missing" 2 'src/sim/machine\.c has no object obj/sim/machine\.o'
fresh
touch "$t/src/report/report.c"
fails "report/report.o older than its source" 2 'obj/report/report\.o is older than src/report/report\.c'
fresh
mkdir -p "$t/src/newlayer"
printf 'int layers_new(void);\nint layers_new(void) { return 0; }\n' >"$t/src/newlayer/new.c"
touch -d @0 "$t/src/newlayer/new.c"
fails "a new folder without a row or objects" 2 "folder 'newlayer' has no row|src/newlayer/new\\.c has no object"

fresh
mkdir -p "$t/src/newlayer"
printf '/* x.h: nothing yet */\n' >"$t/src/newlayer/x.h"
fails "a new folder without a row (a header that includes nothing)" 1 "src/newlayer/x\\.h: folder 'newlayer' has no row"

# Hole 7: on a clean build, make check-layers builds every object of src/
# (sim/ included) and tests/unit/ before it runs the script.
mkdir -p "$scratch/clean"
cp -a Makefile src scripts "$scratch/clean/"
mkdir -p "$scratch/clean/tests" && cp -a tests/layers tests/unit "$scratch/clean/tests/"
make -n -C "$scratch/clean" check-layers >"$scratch/out" 2>&1
script_at=$(grep -n 'scripts/check_layers\.sh' "$scratch/out" | head -n 1 | cut -d: -f1)
missing=""
for c in $(cd "$scratch/clean" && find src tests/unit -name '*.c' | sort); do
    case $c in src/*) o=build/obj/${c#src/} ;; *) o=build/obj/unit/${c#tests/unit/} ;; esac
    at=$(grep -nF -- "-o ${o%.c}.o $c" "$scratch/out" | head -n 1 | cut -d: -f1)
    [ -n "$at" ] && [ -n "$script_at" ] && [ "$at" -lt "$script_at" ] || missing="$missing $c"
done
[ -n "$script_at" ] && [ -z "$missing" ] && ok=1 || ok=0
report $ok "make check-layers on a clean tree compiles every file of src/ and tests/unit/ first${missing:+ (not:$missing)}"

# Hole 8: unit tests obey their folder's row.
fresh
inject tests/unit/litmus/test_ops.c "#include \"$cli_h\""
fails "tests/unit/litmus/ includes cli/" 1 "test_ops\\.c:[0-9]+: includes \"$cli_h\": litmus/ may include only: base\$"
fresh
inject tests/unit/search/test_search.c '#include "protocol/protocol.h"'
fails "tests/unit/search/ includes protocol/" 1 'test_search\.c:[0-9]+: includes "protocol/protocol\.h": search/ may include only'
fresh
inject tests/unit/search/test_search.c '#include "../protocol/proto_bfs.h"'
fails "tests/unit/search/ includes another folder's helper" 1 'includes "\.\./protocol/proto_bfs\.h": a unit test includes only its own'
fresh
inject tests/unit/litmus/test_ops.c '#include "cat/cat.h"'
fails "tests/unit/litmus/test_ops.c includes cat/ (excepted only for other files)" 1 \
    'test_ops\.c:[0-9]+: includes "cat/cat\.h": litmus/ may include only'

echo "layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
