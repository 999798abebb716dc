#!/usr/bin/env bash
# fuzz.sh SECONDS NAME...: a libFuzzer campaign of SECONDS per harness
# (build/fuzz/fuzz_NAME, made by `make fuzz`), one after the other.
#
# Each harness starts from the repository's seeds (scripts/fuzz_seeds.sh)
# and its committed corpus (tests/fuzz/corpus/NAME), both read only, and
# keeps what it finds in out/fuzz/corpus/NAME; crash, leak
# and timeout inputs go to out/fuzz/crashes/NAME/.  It runs with the
# grammar's dictionary, a 1 MiB stack (as the replay in `make test` does),
# inputs up to 16 KiB (FUZZ_MAX_LEN) and a 10 s timeout per input.  The last lines give,
# per harness, executions per second, coverage (edges, features) and the
# corpus size, the figures docs/fuzzing.md reports.
#
# Extra libFuzzer flags: FUZZ_FLAGS="-jobs=2 -workers=2".
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
secs=${1:?usage: fuzz.sh SECONDS NAME...}
shift
mkdir -p out/fuzz
summary=out/fuzz/summary.txt
: >"$summary"
dict_of() {
    case $1 in
        enumerate) cat tests/fuzz/dict/ptx.dict tests/fuzz/dict/opencl.dict ;;
        search) cat tests/fuzz/dict/protocol.dict tests/fuzz/dict/ptx.dict ;;
        *) cat "tests/fuzz/dict/$1.dict" ;;
    esac
}
status=0
for n in "$@"; do
    work=out/fuzz/corpus/$n crashes=out/fuzz/crashes/$n seeds=out/fuzz/seeds/$n
    rm -rf "$seeds"
    mkdir -p "$work" "$crashes" "$seeds"
    # libFuzzer reads seed folders, not lists: gather the repository's seeds
    for s in $(bash scripts/fuzz_seeds.sh "$n"); do
        if [ -d "$s" ]; then cp "$s"/* "$seeds"/ 2>/dev/null; else cp "$s" "$seeds"/; fi
    done
    if [ "$n" = search ]; then
        for p in models/*.proto; do
            for t in litmus/protocol/CoWR-miss.litmus litmus/protocol/MP-gpu-2gpu.litmus; do
                { cat "$p"; printf '\n%%%%\n'; cat "$t"; } >"$seeds/$(basename "$p" .proto)+$(basename "$t" .litmus)"
            done
        done
    fi
    dict_of "$n" >"out/fuzz/$n.dict"
    echo "== fuzz_$n: $secs s"
    start_cpu=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
    (
        ulimit -s 1024
        export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:suppressions=$root/tests/fuzz/asan.supp
        export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0
        export UBSAN_OPTIONS=print_stacktrace=1
        # shellcheck disable=SC2086
        committed=()
        [ -d "tests/fuzz/corpus/$n" ] && committed=("tests/fuzz/corpus/$n")
        "build/fuzz/fuzz_$n" "$work" "${committed[@]}" "$seeds" -dict="out/fuzz/$n.dict" \
            -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=${FUZZ_MAX_LEN:-16384} \
            -artifact_prefix="$crashes/" -print_final_stats=1 ${FUZZ_FLAGS:-} </dev/null
    ) >"out/fuzz/$n.log" 2>&1 || status=1
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "out/fuzz/$n.log" | tail -1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "out/fuzz/$n.log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "out/fuzz/$n.log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$done_line")
    ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' <<<"$done_line")
    corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$done_line")
    found=$(find "$crashes" -type f | wc -l)
    # CPU seconds the campaign used (children's user + system ticks): on a
    # shared machine, executions per CPU second is the figure to compare
    cpu=$(awk -v s="$start_cpu" -v hz="$(getconf CLK_TCK)" '{ printf "%.0f", ($14 + $15 + $16 + $17 - s) / hz }' /proc/$$/stat)
    per_cpu=$(awk -v e="${execs:-0}" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? e / c : 0) }')
    printf '%-10s %6s s  %10s execs  %6s exec/s  %6s exec/cpu-s  cov %6s  ft %6s  corpus %5s  findings %s\n' \
        "$n" "$secs" "${execs:-?}" "${rate:-?}" "$per_cpu" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found" | tee -a "$summary"
done
exit $status
