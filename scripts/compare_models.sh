#!/usr/bin/env bash
# compare_models.sh [-b BIN] [-l LOG]... MODEL[,MODEL...] FILE|DIR...
# Runs `scopecheck litmus --model M` for each model on the tests, keeps each
# run's log in out/compare/ (or $SCOPECHECK_COMPARE_DIR), and prints them side by side with
# `scopecheck compare` (as herd's mcompare7 does with herd and litmus logs).
# -l LOG adds a log made elsewhere (herd7, legacy herd) as one more column.
# Extra arguments after -- go to `scopecheck compare` (--states, --diff).
# Exit status: compare's (0 agree, 1 some test differs or is missing from a log, 2 unusable input).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/bin/scopecheck                       # the build tree's
[ -x "$bin" ] || bin=$(command -v scopecheck)   # installed (PREFIX/share/scopecheck/scripts)
out=${SCOPECHECK_COMPARE_DIR:-out/compare}
logs=()
while getopts "b:l:" opt; do
    case $opt in
        b) bin=$OPTARG ;;
        l) logs+=("$OPTARG") ;;
        *) echo "usage: $0 [-b BIN] [-l LOG]... MODEL[,MODEL...] FILE|DIR... [-- COMPARE-OPTIONS]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
    echo "usage: $0 [-b BIN] [-l LOG]... MODEL[,MODEL...] FILE|DIR... [-- COMPARE-OPTIONS]" >&2
    exit 2
fi
models=$1
shift
tests=() extra=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; extra=("$@"); break; fi
    tests+=("$1"); shift
done
mkdir -p "$out"
runs=()
IFS=, read -r -a names <<<"$models"
for m in "${names[@]}"; do
    log="$out/$(basename "$m" .cat).log"
    "$bin" litmus -q --model "$m" "${tests[@]}" >"$log"
    rc=$?
    if [ "$rc" -eq 2 ]; then
        echo "compare_models: scopecheck litmus --model $m failed (exit 2)" >&2
        exit 2
    fi
    runs+=("$log")
done
exec "$bin" compare "${extra[@]}" "${runs[@]}" "${logs[@]}"
