#!/usr/bin/env bash
# verify_suite.sh DIR: check `scopecheck verify` verdicts against DIR/verify.tsv.
#
# Rows: "file<TAB>protocol<TAB>options<TAB>expected[<TAB># why]" (options "-": none); blank lines and
# lines starting with '#' are skipped.  Each row runs
#     $SCOPECHECK verify --json --model none --liveness --protocol PROTOCOL OPTIONS DIR/FILE
# and compares what it found: Pass (no violation), deadlock (some deadlock
# state), cycle (liveness No), or deadlock+cycle.  A row that expects
# atomic or not-atomic runs `verify --json --write-atomicity` instead (base
# model ptx6) and compares "write_atomic".  One line per disagreement,
# then "verify suite: N passed, M failed".  Exit 1 if any failed, 2 on bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${SCOPECHECK:-$here/../bin/scopecheck}
if [ $# -ne 1 ] || [ ! -r "$1/verify.tsv" ]; then
    echo "usage: verify_suite.sh DIR (with DIR/verify.tsv)" >&2
    exit 2
fi
command -v jq >/dev/null 2>&1 || { echo "verify_suite.sh: jq is required" >&2; exit 2; }
dir=${1%/}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
while IFS=$'\t' read -r file proto opts want _; do
    case $file in ''|\#*) continue ;; esac
    want=${want%%[[:space:]]*}
    [ "$opts" = "-" ] && opts=""
    case $want in
    atomic|not-atomic)
        # shellcheck disable=SC2086
        "$bin" verify --json --write-atomicity --protocol "$proto" $opts "$dir/$file" >"$tmp/out" 2>"$tmp/err"
        got=$(jq -r 'if .write_atomic == true then "atomic" elif .write_atomic == false then "not-atomic" else "?" end' \
              "$tmp/out" 2>/dev/null)
        [ -n "$got" ] || got="error: $(head -1 "$tmp/err")"
        if [ "$got" = "$want" ]; then passed=$((passed + 1)); else
            echo "FAIL $file $proto $opts: expected $want got $got"; failed=$((failed + 1)); fi
        continue ;;
    esac
    # shellcheck disable=SC2086
    "$bin" verify --json --model none --liveness --protocol "$proto" $opts "$dir/$file" >"$tmp/out" 2>"$tmp/err"
    got=$(jq -r 'if (.deadlocks | length) > 0 and .liveness == "No" then "deadlock+cycle"
                 elif (.deadlocks | length) > 0 then "deadlock"
                 elif .liveness == "No" then "cycle"
                 elif .liveness == "Ok" and (.violations | length) == 0 then "Pass"
                 else "unknown(" + (.liveness // "?") + ")" end' "$tmp/out" 2>/dev/null)
    [ -n "$got" ] || got="error: $(head -1 "$tmp/err")"
    if [ "$got" = "$want" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL $file $proto $opts: expected $want got $got"
        failed=$((failed + 1))
    fi
done < "$dir/verify.tsv"
echo "verify suite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
