#!/usr/bin/env bash
# c11_herd_expected.sh [DIR]: herd7's own C regression tests (default
# ../shared/corpus/c11-herd) against the outputs herd7 expects.
#
# The directory holds FILE.litmus with FILE.litmus.expected (herd7's output
# block) or FILE.litmus.expected-failure (herd7 refuses the file), and the
# configuration c.cfg they run under (its `model` and `variant` lines).
# scopecheck runs each file with that model of herd7's library, unmodified
# (../shared/bench/herd7/lib/herd, through -I), and the variants:
#     scopecheck litmus -I LIBDIR --model MODEL --variant V FILE
# A file with an .expected output must give the same verdict, final states
# and flags (scripts/herd_normalise.awk); a file herd7 refuses must be
# refused (exit status 2, a diagnostic, no result).  Prints one line per
# disagreement and "c11_herd_expected: N passed, M failed"; exit 1 if any
# failed, 0 with a message when the corpus or herd's library is absent.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/../shared/corpus/c11-herd}
bin=${SCOPECHECK:-$root/bin/scopecheck}
lib=${HERD7_LIB:-$root/../shared/bench/herd7/lib/herd}
norm=$root/scripts/herd_normalise.awk
if [ ! -d "$dir" ] || [ ! -d "$lib" ]; then
    echo "c11_herd_expected: skipped: needs $dir and herd7's model library $lib"
    exit 0
fi
[ -x "$bin" ] || { echo "c11_herd_expected: no scopecheck at $bin" >&2; exit 2; }
cfg=$dir/c.cfg
model=rc11.cat
variants=()
if [ -r "$cfg" ]; then
    m=$(awk '$1 == "model" { print $2 }' "$cfg" | tail -1)
    [ -n "$m" ] && model=$(basename "$m")
    while read -r v; do variants+=(--variant "$v"); done < <(awk '$1 == "variant" { print $2 }' "$cfg")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
for f in "$dir"/*.litmus; do
    base=$(basename "$f")
    "$bin" litmus -I "$lib" --model "$model" "${variants[@]}" "$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ -e "$f.expected-failure" ]; then
        if [ "$rc" -eq 2 ] && [ -s "$tmp/err" ] && ! grep -q '^Test ' "$tmp/out"; then
            passed=$((passed + 1))
        else
            echo "FAIL $base: herd7 refuses it, scopecheck gives status $rc"
            failed=$((failed + 1))
        fi
        continue
    fi
    if [ ! -e "$f.expected" ]; then
        echo "FAIL $base: no $base.expected"
        failed=$((failed + 1))
        continue
    fi
    want=$(awk -f "$norm" "$f.expected")
    got=$(awk -f "$norm" "$tmp/out")
    if [ "$rc" -eq 0 ] && [ -n "$got" ] && [ "$want" = "$got" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL $base (status $rc): herd7 expects"
        echo "  $want"
        echo "  scopecheck: ${got:-$(head -1 "$tmp/err")}"
        failed=$((failed + 1))
    fi
done
echo "c11_herd_expected: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
