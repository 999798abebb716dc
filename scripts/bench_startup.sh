#!/usr/bin/env bash
# bench_startup.sh [DIR]: one process per test, as herd7's users script it
# (a benchmark, not a test).  Runs every DIR/*.litmus (default litmus/c11,
# our C tests) once per process through each of
#     scopecheck litmus -I LIBDIR FILE          (C tests: herd7's default model,
#                                                c11_partialSC.cat, from LIBDIR)
#     herd7 -set-libdir LIBDIR FILE             (its own default for C: the same model)
#     /bin/true FILE                            (the loop's own cost: fork, exec, the shell)
# ROUNDS times over (default 5: /usr/bin/time counts CPU in 10 ms ticks)
# under /usr/bin/time, REPEAT times each (default 5), and prints each
# command's median CPU and wall seconds for the whole loop, per process,
# and per process less the loop's own cost, and the ratio herd7/scopecheck.
# scopecheck runs twice: with its compiled-model cache warm (the default,
# cat/cache.h) and with SCOPECHECK_CACHE=off.  Needs ../shared/bench/herd7
# for the herd7 rows (skipped without it).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/litmus/c11}
repeat=${REPEAT:-5}
rounds=${ROUNDS:-5}
bin=${SCOPECHECK:-$root/bin/scopecheck}
herd=${HERD7:-$root/../shared/bench/herd7}
lib=$herd/lib/herd
files=("$dir"/*.litmus)
n=$((${#files[@]} * rounds))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCOPECHECK_BENCH_FILES="${files[*]}" SCOPECHECK_BENCH_ROUNDS=$rounds
# loop NAME CMD...: the command once per file, REPEAT times; "cpu wall" medians
loop() {
    local name=$1; shift
    local k
    for ((k = 0; k < repeat; k++)); do
        /usr/bin/time -f "%U %S %e" -o "$tmp/t" bash -c 'for ((r = 0; r < SCOPECHECK_BENCH_ROUNDS; r++)); do
                for f in $SCOPECHECK_BENCH_FILES; do "$@" "$f" >/dev/null 2>&1; done; done' _ "$@"
        awk '{ printf "%.4f %.4f\n", $1 + $2, $3 }' "$tmp/t"
    done | sort -n | awk -v name="$name" -v n="$n" -v r="$repeat" '
        { cpu[NR] = $1; wall[NR] = $2 }
        END { m = int((r + 1) / 2); printf "%s %.4f %.4f\n", name, cpu[m], wall[m] }' >>"$tmp/rows"
}
loop true /bin/true litmus
SCOPECHECK_CACHE=off loop scopecheck-nocache "$bin" litmus -I "$lib"
SCOPECHECK_CACHE=$tmp/cache "$bin" litmus -I "$lib" "${files[0]}" >/dev/null 2>&1   # warm the cache
SCOPECHECK_CACHE=$tmp/cache loop scopecheck "$bin" litmus -I "$lib"
[ -x "$herd/bin/herd7" ] && loop herd7 "$herd/bin/herd7" -set-libdir "$lib"
awk -v n="$n" '
    $1 == "true" { tc = $2; tw = $3 }
    { name[NR] = $1; cpu[NR] = $2; wall[NR] = $3 }
    END {
        printf "%d runs (files x rounds), one process each; medians of the whole loop, then per process (ms)\n", n
        printf "%-20s %8s %8s %10s %10s %14s\n", "command", "cpu s", "wall s", "cpu/proc", "wall/proc", "cpu/proc-loop"
        for (i = 1; i <= NR; i++) {
            printf "%-20s %8.3f %8.3f %10.3f %10.3f %14.3f\n", name[i], cpu[i], wall[i], 1000 * cpu[i] / n,
                   1000 * wall[i] / n, 1000 * (cpu[i] - tc) / n
            if (name[i] == "herd7") hc = cpu[i]
            if (name[i] == "scopecheck") sc = cpu[i]
        }
        if (hc > 0 && sc > 0)
            printf "herd7 / scopecheck, CPU per process: %.1fx (%.1fx less the loop)\n", hc / sc, (hc - tc) / (sc - tc)
    }' "$tmp/rows"
