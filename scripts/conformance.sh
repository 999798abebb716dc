#!/usr/bin/env bash
# conformance.sh DIR [MODEL...]: check scopecheck's verdicts against DIR/expected.tsv.
#
# DIR/expected.tsv has rows "path<TAB>model<TAB>Ok|No[<TAB>anything]" with path
# relative to DIR; blank lines and lines starting with '#' are skipped.  For each
# model (the MODEL arguments, or else every model the file names) the binary runs
# ONCE over all that model's files:
#     $SCOPECHECK litmus --json --model M FILE...
# and every verdict is compared.  One line per disagreement:
#     FAIL path model expected X got Y
#     FAIL path model error: <first diagnostic line>
# and a closing line "conformance: N passed, M failed".
# A model named BASE-race is the race verdict of model BASE: the binary runs
# with --model BASE --races, and the verdict is Ok exactly when no execution
# of the test has a race.  A model named BASE-live[-occN][-unfair] is the
# liveness verdict (Ok, No or Unknown) of model BASE: the binary runs with
# --model BASE --liveness --unroll 0 [--occupancy N] [--fairness none] and the
# verdict is the JSON "liveness" (which no loop bound changes; --unroll 0
# keeps the safety half of the run small).  A model name ending in -hw (ptx6-hw,
# ptx6-live-hw) runs as the name without it with --barriers hardware (the
# hardware's barrier reading, docs/liveness.md).  Exit 1 if any failed,
# 2 on bad usage.  The binary defaults to bin/scopecheck of this repository.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${SCOPECHECK:-$here/../bin/scopecheck}

if [ $# -lt 1 ]; then
    echo "usage: conformance.sh DIR [MODEL...]" >&2
    exit 2
fi
dir=${1%/}; shift
tsv=$dir/expected.tsv
if [ ! -r "$tsv" ]; then
    echo "conformance.sh: cannot read $tsv" >&2
    exit 2
fi
if [ ! -x "$bin" ]; then
    echo "conformance.sh: binary not found or not executable: $bin" >&2
    exit 2
fi
if ! command -v jq >/dev/null 2>&1; then
    echo "conformance.sh: jq is required" >&2
    exit 2
fi

if [ $# -gt 0 ]; then
    models=("$@")
else
    mapfile -t models < <(awk -F'\t' '$0 !~ /^[[:space:]]*(#|$)/ && NF >= 3 { print $2 }' "$tsv" | awk '!seen[$0]++')
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# canonical FILE: an absolute, normalised path used to match JSON "file" keys.
canon() { realpath -m -- "$1"; }

passed=0 failed=0
for m in "${models[@]}"; do
    paths=() verdicts=()
    while IFS=$'\t' read -r p mm v _; do
        case $p in ''|\#*) continue ;; esac
        [ "$mm" = "$m" ] || continue
        v=${v%%[[:space:]]*}
        paths+=("$p") verdicts+=("$v")
    done < "$tsv"
    [ ${#paths[@]} -gt 0 ] || { echo "conformance: no rows for model $m in $tsv" >&2; continue; }

    files=()
    for p in "${paths[@]}"; do files+=("$dir/$p"); done
    verdict='(.verdict // "?")'
    mb=${m%-hw}
    barriers=()
    [ "$mb" != "$m" ] && barriers=(--barriers hardware)
    args=(--model "$mb")
    if [ "${mb%-race}" != "$mb" ]; then
        args=(--races --model "${mb%-race}")
        verdict='(if (.races | length) == 0 then "Ok" else "No" end)'
    elif [[ $mb == *-live* ]]; then
        args=(--liveness --unroll 0 --model "${mb%%-live*}")
        opts=${mb#*-live}
        [[ $opts =~ -occ([0-9]+) ]] && args+=(--occupancy "${BASH_REMATCH[1]}")
        [[ $opts == *-unfair* ]] && args+=(--fairness none)
        verdict='(.liveness // "?")'
    fi
    args+=("${barriers[@]}")
    "$bin" litmus --json "${args[@]}" "${files[@]}" >"$tmp/out" 2>"$tmp/err"
    rc=$?

    # got[canonical path] = verdict of the (first) test reported for that file.
    declare -A got=()
    while IFS=$'\t' read -r f v; do
        [ -n "$f" ] || continue
        c=$(canon "$f")
        [ -n "${got[$c]+x}" ] || got[$c]=$v
    done < <(jq -r "select(type == \"object\") | [(.file // \"\"), $verdict] | @tsv" "$tmp/out" 2>/dev/null)

    for i in "${!paths[@]}"; do
        p=${paths[$i]} want=${verdicts[$i]}
        c=$(canon "$dir/$p")
        if [ -n "${got[$c]+x}" ]; then
            if [ "${got[$c]}" = "$want" ]; then
                passed=$((passed + 1))
            else
                echo "FAIL $p $m expected $want got ${got[$c]}"
                failed=$((failed + 1))
            fi
            continue
        fi
        # No verdict for this file: find its diagnostic.  If the batch run
        # died (signal, crash), rerun the file alone to get its own message.
        msg=$(grep -F -- "$dir/$p" "$tmp/err" | head -1)
        if [ -z "$msg" ]; then
            "$bin" litmus --json "${args[@]}" "$dir/$p" >"$tmp/out1" 2>"$tmp/err1"
            rc1=$?
            v1=$(jq -r "select(type == \"object\") | $verdict" "$tmp/out1" 2>/dev/null | head -1)
            if [ -n "$v1" ]; then
                if [ "$v1" = "$want" ]; then
                    echo "conformance: note: $p $m: no verdict from the batch run (status $rc), alone it gives $v1" >&2
                    passed=$((passed + 1))
                else
                    echo "FAIL $p $m expected $want got $v1"
                    failed=$((failed + 1))
                fi
                continue
            fi
            msg=$(head -1 "$tmp/err1")
            [ -n "$msg" ] || msg="no output (exit status $rc1)"
        fi
        echo "FAIL $p $m error: $msg"
        failed=$((failed + 1))
    done
    unset got
done

echo "conformance: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
