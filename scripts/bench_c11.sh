#!/usr/bin/env bash
# bench_c11.sh [COPIES] [MODEL]: scopecheck and herd7 on the same C11 litmus
# files and the same herd7 model, one process each (a benchmark, not a test).
#
# The files: our suite litmus/c11 and herd7's C regression tests
# (../shared/corpus/c11-herd, those herd7 accepts), each in COPIES variants
# (default 10) that differ only by their name (NAME-k) and one unused
# location `bench_k = k` in the init block: herd7 skips a test whose name
# or hash it has already seen in the same run, so plain copies would
# measure nothing on its side.  They are
# written to a temporary directory, then both tools run once over all of
# them under /usr/bin/time:
#     scopecheck litmus -I LIBDIR --model MODEL --variant S128 FILE...
#     herd7 -model MODEL -macros c11.def -variant S128 FILE...
# (S128: herd's corpus runs so, c.cfg; herd7 refuses its 128-bit tests
# without it).
# and the script prints tests, wall and CPU seconds, tests per second and
# peak memory of each, and the numbers of tests each printed.  MODEL
# defaults to rc11.cat; SKIP=REGEX leaves out the tests whose file names
# match.  Needs ../shared/bench/herd7 (exits 0 with a message
# without it).  Keep the directory with KEEP=1 to time the two commands with
# another harness (the path is printed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
copies=${1:-10}
model=${2:-rc11.cat}
herd=${HERD7:-$root/../shared/bench/herd7/herd7}
bin=${SCOPECHECK:-$root/bin/scopecheck}
if [ ! -x "$herd" ]; then
    echo "bench_c11: skipped: no herd7 at $herd"
    exit 0
fi
lib=$(cd "$(dirname "$herd")" && pwd)/lib/herd
dir=$(mktemp -d)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
srcs=()
for f in "$root"/litmus/c11/*.litmus "$root"/../shared/corpus/c11-herd/*.litmus; do
    case $f in */c11-herd/*) [ -e "$f.expected" ] || continue ;; esac
    [ -n "${SKIP:-}" ] && [[ $(basename "$f") =~ $SKIP ]] && continue
    srcs+=("$f")
done
n=0
for ((k = 1; k <= copies; k++)); do
    for f in "${srcs[@]}"; do
        # the first '{' opens the init block: declare the extra location there
        awk -v k="$k" 'NR == 1 { $2 = $2 "-" k } !done && /\{/ { sub(/\{/, "{ bench_" k " = " k "; "); done = 1 } { print }' "$f" \
            >"$dir/$(basename "$f" .litmus)-$k.litmus"
        n=$((n + 1))
    done
done
files=("$dir"/*.litmus)
echo "bench_c11: $n files ($((n / copies)) tests x $copies variants), model $model, in $dir"
run() {
    local name=$1; shift
    /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err"
    read -r wall user sys rss <"$dir/time"
    local tests; tests=$(grep -c '^Test ' "$dir/out")
    awk -v n="$name" -v t="$tests" -v w="$wall" -v u="$user" -v s="$sys" -v m="$rss" 'BEGIN {
        printf "%-10s %5d tests  wall %6.2f s  cpu %6.2f s  %8.0f tests/s (wall)  %8.0f tests/s (cpu)  peak %.1f MiB\n",
               n, t, w, u + s, (w > 0 ? t / w : 0), (u + s > 0 ? t / (u + s) : 0), m / 1024 }'
}
run scopecheck "$bin" litmus -I "$lib" --model "$model" --variant S128 "${files[@]}"
run herd7 "$herd" -model "$model" -macros c11.def -variant S128 "${files[@]}"
