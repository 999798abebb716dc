#!/usr/bin/env bash
# suite_summary.sh DIR MODEL: run `scopecheck litmus --json --model MODEL DIR`
# (every *.litmus below DIR) and print one line per test with its verdict
# and DIR/expected.tsv's, then a summary.  Expectations are matched by the
# test's path relative to DIR, as scripts/conformance.sh reads the file
# (proxy/A.litmus and A.litmus are different tests), and the summary counts
# every test run: "suite DIR, model MODEL: A of E expected verdicts agree;
# T tests run, N without an expected verdict for MODEL".  Exit 0 when every
# expected verdict agrees and every test ran, 1 otherwise, 2 on bad usage.
# The binary: $SCOPECHECK, else bin/scopecheck of this repository.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${SCOPECHECK:-$here/../bin/scopecheck}
if [ $# -ne 2 ] || [ ! -d "$1" ]; then
    echo "usage: suite_summary.sh DIR MODEL" >&2
    exit 2
fi
dir=${1%/} model=$2
expected=$dir/expected.tsv
[ -r "$expected" ] || expected=/dev/null
results=$("$bin" litmus --json --model "$model" "$dir")
printf '%-50s %-8s %-8s %-8s %s\n' TEST CONDITION VERDICT EXPECTED STATES
# the expectations of MODEL, by path relative to DIR
declare -A want=()
while IFS=$'\t' read -r path m verdict _; do
    case $path in '' | \#*) continue ;; esac
    [ "$m" = "$model" ] && want[$path]=$verdict
done <"$expected"
agree=0 total=0 tests=0 unexpected=0 failed=0
while IFS=$'\t' read -r file test cond verdict nstates; do
    tests=$((tests + 1))
    rel=${file#"$dir"/}
    w=${want[$rel]:-}
    mark=""
    if [ -z "$verdict" ]; then
        failed=$((failed + 1)) mark="  <-- not run"
    fi
    if [ -n "$w" ]; then
        total=$((total + 1))
        if [ "$w" = "$verdict" ]; then agree=$((agree + 1)); else mark="  <-- differs"; fi
    else
        unexpected=$((unexpected + 1))
    fi
    printf '%-50s %-8s %-8s %-8s %s%s\n' "$rel" "$cond" "$verdict" "${w:--}" "$nstates" "$mark"
done < <(jq -r '[.file, (.test // ""), (.condition // ""), (.verdict // ""), ((.states // [])|length)] | @tsv' <<<"$results")
echo "suite $dir, model $model: $agree of $total expected verdicts agree; $tests tests run, $unexpected without an expected verdict for $model"
[ "$agree" -eq "$total" ] && [ "$failed" -eq 0 ]
