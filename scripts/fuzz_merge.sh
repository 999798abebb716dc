#!/usr/bin/env bash
# fuzz_merge.sh NAME DIR...: adds to the committed corpus tests/fuzz/corpus/NAME
# the inputs of DIR... (a campaign's out/fuzz/corpus/NAME, say) that reach
# coverage the repository's seeds (scripts/fuzz_seeds.sh) and the committed
# corpus do not already reach.  libFuzzer's -merge=1 does the minimising;
# the seeds are merged first into a scratch folder so that only what a
# campaign found beyond them is committed (the seeds stay where they are).
# Needs the harness built with clang: `make build/fuzz/fuzz_NAME`.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
n=${1:?usage: fuzz_merge.sh NAME DIR...}
shift
[ $# -gt 0 ] || { echo "fuzz_merge.sh: no campaign folder given" >&2; exit 2; }
fuzzer=build/fuzz/fuzz_$n
[ -x "$fuzzer" ] || { echo "fuzz_merge.sh: $fuzzer missing (make $fuzzer)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/seeds" "$scratch/merged" "tests/fuzz/corpus/$n"
for s in $(bash scripts/fuzz_seeds.sh "$n"); do
    if [ -d "$s" ]; then cp "$s"/* "$scratch/seeds"/ 2>/dev/null; else cp "$s" "$scratch/seeds"/; fi
done
run() {
    (
        ulimit -s 1024
        export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:suppressions=$root/tests/fuzz/asan.supp
        "$fuzzer" -merge=1 -timeout=60 -rss_limit_mb=4096 -artifact_prefix="$scratch/" "$@" </dev/null
    ) >>"$scratch/log" 2>&1
}
run "$scratch/merged" "$scratch/seeds" "tests/fuzz/corpus/$n" || { tail -20 "$scratch/log" >&2; exit 1; }
ls "$scratch/merged" | sort >"$scratch/before"
run "$scratch/merged" "$@" || { tail -20 "$scratch/log" >&2; exit 1; }
added=0
for f in $(ls "$scratch/merged" | sort | comm -13 "$scratch/before" -); do
    cp "$scratch/merged/$f" "tests/fuzz/corpus/$n/$f"
    added=$((added + 1))
done
echo "fuzz_merge.sh: $n: $added inputs added to tests/fuzz/corpus/$n"
