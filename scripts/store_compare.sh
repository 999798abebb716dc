#!/usr/bin/env bash
# store_compare.sh TABLE STORE: every row of a verify table (the format of
# scripts/verify_suite.sh: TABLE or DIR/verify.tsv) run twice, with the
# plain store and with `--store STORE`, and the two JSON reports compared
# whole, less what may differ by design: the timings and the store's own
# figures (and the option itself), and, for a probabilistic STORE (hash-compact, bitstate), the
# words that say whether the search was complete (result, complete,
# incomplete, sound, unobserved) and the exit status 0 (plain) against 3.
# Everything else (verdict, violations and their traces, deadlocks,
# outcomes, states, transitions, depth) must be identical.  The expected
# values are the plain store's: no value comes from the table.  Rows with
# --liveness are skipped for a probabilistic STORE (it refuses them).
# One line per row, "SAME: ..." or "DIFF: ...", then "store compare: N
# same, M differ, K skipped".  Exit 1 if any differ, 2 on bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${SCOPECHECK:-$here/../bin/scopecheck}
table=${1:-} store=${2:-}
[ -d "$table" ] && table=${table%/}/verify.tsv
if [ $# -ne 2 ] || [ ! -r "$table" ]; then
    echo "usage: store_compare.sh TABLE|DIR STORE" >&2
    exit 2
fi
command -v jq >/dev/null 2>&1 || { echo "store_compare.sh: jq is required" >&2; exit 2; }
dir=$(dirname "$table")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0 differ=0 skipped=0
columns=(file protocol options expected) flags=() pattern=%s
probabilistic=false
case $store in hash-compact | bitstate) probabilistic=true ;; esac
# .stats.threads: the plain store searches with every core, the others on
# one thread (bfs.h); the results are the same
strip='del(.stats.seconds, .stats.states_per_s, .stats.bytes_per_state, .stats.peak_rss, .stats.store,
           .stats.store_peak_bytes, .stats.probabilistic, .options.store, .stats.threads)'
if $probabilistic; then
    strip="$strip | del(.result, .complete, .incomplete, .sound, .unobserved)"
fi

# run STORE PROTOCOL FILE ARGS...: the normalised report in $tmp/STORE.json, exit status in $tmp/STORE.rc.
run() {
    local st=$1 proto=$2 file=$3
    shift 3
    "$bin" verify --json --no-progress --store "$st" "${flags[@]}" --protocol "$proto" "$@" "$dir/$file" \
        >"$tmp/$st.raw" 2>/dev/null
    echo $? >"$tmp/$st.rc"
    jq -S "$strip" "$tmp/$st.raw" >"$tmp/$st.json" 2>/dev/null || echo "no JSON" >"$tmp/$st.json"
}

while IFS=$'\t' read -r -a cells; do
    case ${cells[0]-} in
    '#: '*)
        read -r -a words <<<"${cells[*]#'#: '}"
        case ${words[0]} in
        columns) columns=("${words[@]:1}") ;;
        verify) flags=("${words[@]:1}") ;;
        protocols) pattern=${words[1]} ;;
        esac
        continue ;;
    '' | \#*) continue ;;
    esac
    declare -A row=()
    for i in "${!columns[@]}"; do row[${columns[$i]}]=${cells[$i]-}; done
    file=${row[file]-}
    case $file in *.litmus) ;; *) file=$file.litmus ;; esac
    opts=${row[options]:--} args=()
    case $opts in - | '') ;; -*) read -r -a args <<<"$opts" ;; *) args=(--const "$opts") ;; esac
    proto=${pattern//%s/${row[protocol]-}}
    what="$table: ${row[protocol]-} on ${file%.litmus} ($opts), plain vs $store"
    cost=${row[cost]-}
    unset row
    if [ "$cost" = slow ] && [ "${VERIFY_SLOW:-0}" != 1 ]; then
        skipped=$((skipped + 1)); continue
    fi
    if $probabilistic && [[ " ${flags[*]} ${args[*]} " == *" --liveness "* ]]; then
        echo "SKIP: $what (--liveness needs a lossless store)"; skipped=$((skipped + 1)); continue
    fi
    run plain "$proto" "$file" "${args[@]}"
    run "$store" "$proto" "$file" "${args[@]}"
    prc=$(cat "$tmp/plain.rc") src=$(cat "$tmp/$store.rc")
    want_rc=$prc
    $probabilistic && [ "$prc" = 0 ] && want_rc=3
    if [ "$src" = "$want_rc" ] && cmp -s "$tmp/plain.json" "$tmp/$store.json" && ! grep -q '^no JSON' "$tmp/plain.json"; then
        echo "SAME: $what (exit $prc/$src, $(jq -r '"\(.stats.states) states, \(.stats.transitions) transitions"' "$tmp/plain.raw"))"
        same=$((same + 1))
    else
        echo "DIFF: $what (exit $prc/$src)"
        diff "$tmp/plain.json" "$tmp/$store.json" | head -n 10
        differ=$((differ + 1))
    fi
done <"$table"
echo "store compare: $same same, $differ differ, $skipped skipped"
[ "$differ" -eq 0 ]
