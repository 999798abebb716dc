#!/usr/bin/env bash
# End-to-end checks of `make install` (README, "make install"): the installed
# programs, run from another directory with short names only, find the
# bundled models, protocols, mutants, simulator systems and workloads and
# the litmus suites under PREFIX/share/scopecheck; the plot script and the
# suites' expected verdicts are installed.  $1: the scopecheck binary (the
# tree's bin/ is what `make install` copies).
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v make >/dev/null || [ ! -x bin/scopecheck ] || [ ! -x bin/scopesim ]; then
    echo "PASS: make install skipped (no make, or bin/ not built)"; exit 0
fi
root=$PWD
# -o: install what bin/ holds, never rebuild it here (an ASan run of these
# tests must not start a build)
make -s -o bin/scopecheck -o bin/scopecheck-draw.so -o bin/scopesim install PREFIX="$tmp/prefix" >"$tmp/install.log" 2>&1
check "make install PREFIX=tmp: exit 0" test $? -eq 0
sc=$tmp/prefix/bin/scopecheck sim=$tmp/prefix/bin/scopesim
data=$tmp/prefix/share/scopecheck
check "make install: the plot script" test -x "$data/scripts/plot.sh"
check "make install: the litmus suites with their expected verdicts" test -r "$data/litmus/ptx/expected.tsv"
check "make install: the PTX suite's proxy tests" test -r "$data/litmus/ptx/proxy/Proxy-1T-gen-gen.litmus"

mkdir -p "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 2
unset SCOPECHECK_MODELS
# sc forbids MP's stale read (models/sc.cat: one total order): No.
"$sc" litmus --json --model sc litmus/ptx/MP-weak.litmus >out 2>err
check "installed litmus: a bundled test by its path in the tree" jq -e '.verdict == "No"' out
"$sc" litmus --json --model ptx6 ptx/proxy >out 2>err
check "installed litmus: a bundled suite by name (ptx/proxy: one line per test)" \
    test "$(wc -l <out)" -eq "$(ls "$data/litmus/ptx/proxy" | grep -c '\.litmus$')"
"$sc" verify --protocol gpu_vi protocol/MP-stale-seed.litmus >out 2>err
check "installed verify: protocol and test by short names (Result Pass)" grep -q '^Result Pass' out
# the mutant drops the acquire's invalidation: a stale read the model forbids
"$sc" verify --protocol gpu_vi_no_acquire_inval protocol/MP-stale-seed.litmus >out 2>err
check "installed verify: a mutant by name (Result Fail, exit 1)" test $? -eq 1 -a -n "$(grep '^Result Fail' out)"
"$sc" verify --protocol models/mutants/gpu_vi_no_acquire_inval.proto protocol/MP-stale-seed.litmus >out 2>err
check "installed verify: a mutant by its path in the tree (exit 1)" test $? -eq 1
"$sc" verify --protocol nosuch protocol/MP-stale-seed.litmus >out 2>err
check "installed verify: an unknown protocol's error lists the bundled ones" \
    grep -q "no protocol 'nosuch' (bundled protocols: .*gpu_vi, .*hmg_lite" err
"$sc" export --protocol gpu_vi protocol/MP-stale-seed.litmus -o gpu_vi.json >out 2>err
check "installed export: short names (exit 0)" test $? -eq 0
"$sim" --tables gpu_vi.json --system tiny --workload stream --quiet --json run.json >out 2>err
check "installed scopesim: --system tiny --workload stream (exit 0)" test $? -eq 0
check "installed scopesim: the record names the bundled system" jq -e '.system == "tiny"' run.json
"$sim" --tables gpu_vi.json --system nosuch --workload stream --quiet >out 2>err
check "installed scopesim: an unknown system is an error (exit 2)" test $? -eq 2
"$sc" graph --protocol gpu_vi protocol/MP-stale-seed.litmus -o g.dot >out 2>err
check "installed graph: a bundled test by its path under litmus/ (exit 0)" test $? -eq 0 -a -s g.dot
check "installed: the drawing plugin in PREFIX/lib/scopecheck, beside no program" \
    test -r "$tmp/prefix/lib/scopecheck/scopecheck-draw.so" -a ! -e "$tmp/prefix/bin/scopecheck-draw.so"
make -s -C "$root" uninstall PREFIX="$tmp/prefix" >"$tmp/uninstall.log" 2>&1
check "make uninstall: exit 0" test $? -eq 0
check "make uninstall: the programs, the plugin and the bundled files are gone" \
    test ! -e "$sc" -a ! -e "$sim" -a ! -e "$tmp/prefix/lib/scopecheck" -a ! -e "$data"
