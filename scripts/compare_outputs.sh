#!/usr/bin/env bash
# compare_outputs.sh OLD_BIN NEW_BIN: runs both scopecheck binaries over every
# litmus file we have (our suites, tests/bad, ../shared/corpus when present)
# under every bundled model (herd block with --races, and --json), `verify`
# with every bundled and mutant protocol on litmus/protocol and the MP tests,
# and `graph`, then diffs the outputs with times, rates and memory figures
# masked.  For refactors that must keep behaviour byte-identical.
# Exit 0 when nothing differs.
set -u
[ $# -eq 2 ] || { echo "usage: compare_outputs.sh OLD_BIN NEW_BIN" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=$(ls litmus/*/*.litmus tests/bad/*/*.litmus 2>/dev/null; [ -d ../shared/corpus ] && find ../shared/corpus -name '*.litmus' | sort)

snapshot() {
    local bin=$1 out=$2
    mkdir -p "$out"
    for m in ptx6 ptx75 sc opencl opencl-rsp hrf-direct hrf-indirect; do
        for f in $files; do echo "## $f"; timeout 60 "$bin" litmus --model $m --races "$f" 2>&1; echo "rc=$?"; done >"$out/litmus_$m"
        for f in $files; do timeout 60 "$bin" litmus --model $m --json "$f" 2>&1; echo "rc=$?"; done >"$out/json_$m"
    done
    for p in models/*.proto models/mutants/*.proto; do
        for f in litmus/protocol/*.litmus litmus/ptx/MP*.litmus; do
            echo "## $p $f"; timeout 60 "$bin" verify --protocol "$p" "$f" 2>&1; echo "rc=$?"
        done
    done >"$out/verify"
    for f in litmus/protocol/*.litmus; do timeout 60 "$bin" verify --protocol gpu_vi --json "$f" 2>&1; echo "rc=$?"; done >"$out/verify_json"
    "$bin" graph --protocol gpu_vi "$(ls litmus/protocol/*.litmus | head -1)" -o "$out/g.dot" >/dev/null 2>&1
    "$bin" graph --protocol hmg_lite --tables -o "$out/t.html" >/dev/null 2>&1
}
mask() {
    sed -E -e 's/^(Time [^ ]+ )[0-9.]+/\1T/' \
        -e 's/"(seconds|time_us|states_per_s|peak_rss)": ?[0-9.e+-]+/"\1":X/g' \
        -e 's/^(seconds|states\/s|peak RSS MiB|store MiB|bytes\/state): .*/\1: X/' "$1"
}
snapshot "$(realpath "$1")" "$work/old" &
snapshot "$(realpath "$2")" "$work/new"
wait
status=0
for f in "$work"/old/*; do
    b=$(basename "$f")
    if ! diff -q <(mask "$f") <(mask "$work/new/$b") >/dev/null; then
        echo "== $b differs:"
        diff <(mask "$f") <(mask "$work/new/$b") | head -20
        status=1
    fi
done
[ $status -eq 0 ] && echo "compare_outputs: identical (times, rates and memory masked)"
exit $status
