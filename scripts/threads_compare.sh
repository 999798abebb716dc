#!/usr/bin/env bash
# threads_compare.sh TABLE|DIR [THREADS...]: run every row of a verify table
# (the format scripts/verify_suite.sh reads: "#: columns", "#: verify",
# "#: protocols"; rows with cost slow only with VERIFY_SLOW=1) with
# `--threads 1` and with each of THREADS (default: 2 3), and compare the
# whole text report line by line, less the lines that measure time and
# memory (seconds, states/s, bytes/state, store MiB, peak RSS MiB, threads)
# and the time and memory of the liveness line, and the exit status.  The multi-threaded search must give the same
# verdicts, counts and traces as one thread (docs/search.md).
#
# One line per row and thread count, "PASS: ..." or "FAIL: ... (the first
# differing lines)", then "threads compare: N passed, M failed".  Exit 1 if
# any failed, 2 on bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${SCOPECHECK:-$here/../bin/scopecheck}
table=${1:-}
[ -d "$table" ] && table=${table%/}/verify.tsv
if [ $# -lt 1 ] || [ ! -r "$table" ]; then
    echo "usage: threads_compare.sh TABLE | DIR [THREADS...]" >&2
    exit 2
fi
shift
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(2 3)
dir=$(dirname "$table")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
columns=(file protocol options expected) flags=() pattern=%s
passed=0 failed=0

report() {    # THREADS FILE: the filtered report and exit status of one run
    local t=$1 f=$2 rc
    "$bin" verify --no-progress "${flags[@]}" --protocol "$proto" "${args[@]}" --threads "$t" "$f" >"$tmp/raw" 2>&1
    rc=$?
    grep -vE '^(seconds|states/s|bytes/state|store MiB|peak RSS MiB|threads): ' "$tmp/raw" |
        sed -E 's/^(liveness: .* edges), [0-9.]+ s, [0-9.]+ MiB/\1/' 
    echo "exit status: $rc"
}

run_row() {
    local -A row=()
    local i
    for i in "${!columns[@]}"; do row[${columns[$i]}]=${fields[$i]:-}; done
    [ "${row[cost]:-}" = slow ] && [ "${VERIFY_SLOW:-0}" != 1 ] && return
    local file=${row[file]} opts=${row[options]:--}
    local f=$dir/$file
    [ -f "$f" ] || f=$f.litmus
    proto=$(printf "$pattern" "${row[protocol]}")
    args=()
    case $opts in
        -) ;;
        --*) read -ra args <<<"$opts" ;;
        *) args=(--const "$opts") ;;
    esac
    report 1 "$f" >"$tmp/one"
    local t
    for t in "${counts[@]}"; do
        report "$t" "$f" >"$tmp/many"
        if cmp -s "$tmp/one" "$tmp/many"; then
            echo "PASS: $file on ${row[protocol]} ${args[*]}: --threads $t reports as --threads 1"
            passed=$((passed + 1))
        else
            echo "FAIL: $file on ${row[protocol]} ${args[*]}: --threads $t differs from --threads 1 ($(diff "$tmp/one" "$tmp/many" | grep -m 2 '^[<>]' | tr '\n' ' '))"
            failed=$((failed + 1))
        fi
    done
}

while IFS= read -r line; do
    case $line in
        '#: columns '*) read -ra columns <<<"${line#'#: columns '}" ;;
        '#: verify '*) read -ra flags <<<"${line#'#: verify '}" ;;
        '#: protocols '*) pattern=${line#'#: protocols '} ;;
        '' | '#'*) ;;
        *) IFS=$'\t' read -ra fields <<<"$line"; run_row ;;
    esac
done <"$table"
echo "threads compare: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
