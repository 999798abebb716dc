#!/usr/bin/env bash
# verify_suite.sh TABLE | DIR: check `scopecheck verify` against a table of
# expected verdicts derived by hand (DIR means DIR/verify.tsv).  The one
# runner of every such table: litmus/protocol/verify.tsv, litmus/sync/,
# litmus/write-atomicity/, litmus/rsp/protocols.tsv and variants.tsv.
#
# Rows are tab-separated; blank lines and lines starting with '#' are
# skipped, except the table's settings, lines "#: KEY VALUE":
#   #: columns NAME...  the columns, in order (default: file protocol
#                       options expected).  Known names: file (the test, in
#                       the table's folder; ".litmus" may be left out),
#                       protocol, options, expected, states, transitions,
#                       cost; any other (why, length) is not read.
#   #: verify FLAG...   what every row adds to `verify --json` (default:
#                       nothing).
#   #: protocols PATTERN  the protocol column names PATTERN with %s
#                       replaced (default: the column as it is).
#   #: control PROTOCOL each row that expects a violation is run again on
#                       PROTOCOL with the same test and options, expecting
#                       Pass: the row's protocol fails where this one passes.
# options: "-" for none, flags ("--const MAXV=3 --liveness"), or one
# NAME=VALUE for --const.  expected: Pass (exit 0, nothing found, liveness
# Ok where checked); or what is found, joined by "+": unsound (Fail is the
# same), deadlock, cycle (a fair non-progress cycle; livelock is the same),
# exit 1, each with its trace; "+*" at the end: those at least, and the
# search may have been cut (a mutant that also deadlocks or leaves the value
# range); or atomic / not-atomic (write_atomic, exit 0 / 1).  Every other
# row's search must be complete; states and transitions, where given (not
# "-"), must be exactly the search's.  cost slow: run only with
# VERIFY_SLOW=1.
#
# One line per row, "PASS: ..." or "FAIL: ... (why)", then "verify suite:
# N passed, M failed".  Exit 1 if any failed, 2 on bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${SCOPECHECK:-$here/../bin/scopecheck}
table=${1:-}
[ -d "$table" ] && table=${table%/}/verify.tsv
if [ $# -ne 1 ] || [ ! -r "$table" ]; then
    echo "usage: verify_suite.sh TABLE | DIR (with DIR/verify.tsv)" >&2
    exit 2
fi
command -v jq >/dev/null 2>&1 || { echo "verify_suite.sh: jq is required" >&2; exit 2; }
dir=$(dirname "$table")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
columns=(file protocol options expected) flags=() pattern=%s control=""

# What the search found, from verify's JSON: "VERDICT<TAB>complete<TAB>
# traced<TAB>states<TAB>transitions", VERDICT as the expected column says it.
judge='
  def found: ([.violations[]?.kind] | unique)
             + (if ((.deadlocks // []) | length) > 0 then ["deadlock"] else [] end)
             + (if .liveness == "No" then ["cycle"] else [] end);
  (if $atomicity then (if .write_atomic == true then "atomic" elif .write_atomic == false then "not-atomic" else "?" end)
   elif (found | length) > 0 then found | join("+")
   elif .result == "Pass" and (.liveness == null or .liveness == "Ok") then "Pass"
   else "unknown(" + (.result // "?") + ", liveness " + (.liveness // "-") + ")" end),
  .complete,
  ([.violations[]? | select(.kind == "unsound") | .trace | length > 0]
   + [.deadlocks[]? | .trace | length > 0] + [.cycles[]? | .cycle | length > 0] | all),
  .stats.states, .stats.transitions
  | tostring'

# run_row PROTOCOL FILE OPTIONS WANT STATES TRANSITIONS: one verify run
# checked; sets $why to what disagrees ("" when none).
run_row() {
    local proto=$1 file=$2 opts=$3 want=$4 states=$5 transitions=$6 args=() rc got
    case $opts in
    - | '') ;;
    -*) read -r -a args <<<"$opts" ;;
    *) args=(--const "$opts") ;;
    esac
    "$bin" verify --json "${flags[@]}" --protocol "$proto" "${args[@]}" "$dir/$file" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    local atomicity=false
    case $want in atomic | not-atomic) atomicity=true ;; esac
    if ! mapfile -t got < <(jq -r --argjson atomicity "$atomicity" "$judge" "$tmp/out" 2>/dev/null) || [ ${#got[@]} -ne 5 ]; then
        why="no JSON (exit $rc): $(head -n 1 "$tmp/err")"
        return
    fi
    why=""
    case $want in
    *+\*)
        local part parts
        IFS=+ read -r -a parts <<<"${want%+\*}"
        for part in "${parts[@]}"; do
            case +${got[0]}+ in *+"$part"+*) ;; *) why="$why; found ${got[0]}" ;; esac
        done ;;
    *) [ "${got[0]}" = "$want" ] || why="$why; found ${got[0]}" ;;
    esac
    case $want in
    Pass | atomic) [ "$rc" -eq 0 ] || why="$why; exit $rc, want 0" ;;
    *) [ "$rc" -eq 1 ] || why="$why; exit $rc, want 1" ;;
    esac
    [ "${got[1]}" = true ] || [ "${want%+\*}" != "$want" ] || why="$why; the search was not complete"
    [ "${got[2]}" = true ] || why="$why; a violation without its trace"
    [ "$states" = - ] || [ "${got[3]}" = "$states" ] || why="$why; ${got[3]} states, want $states"
    [ "$transitions" = - ] || [ "${got[4]}" = "$transitions" ] || why="$why; ${got[4]} transitions, want $transitions"
    why=${why#; }
}

# report WHAT: one line for the row just run.
report() {
    if [ -z "$why" ]; then
        echo "PASS: $1"; passed=$((passed + 1))
    else
        echo "FAIL: $1 ($why)"; failed=$((failed + 1))
    fi
}

while IFS=$'\t' read -r -a cells; do
    case ${cells[0]-} in
    '#: '*)
        read -r -a words <<<"${cells[*]#'#: '}"
        case ${words[0]} in
        columns) columns=("${words[@]:1}") ;;
        verify) flags=("${words[@]:1}") ;;
        protocols) pattern=${words[1]} ;;
        control) control=${words[1]} ;;
        *) echo "verify_suite.sh: $table: unknown setting '${words[0]}'" >&2; exit 2 ;;
        esac
        continue ;;
    '' | \#*) continue ;;
    esac
    declare -A row=()
    for i in "${!columns[@]}"; do row[${columns[$i]}]=${cells[$i]-}; done
    file=${row[file]-} said=${row[expected]-}
    said=${said%%[[:space:]]*} want=$said
    case $want in Fail) want=unsound ;; livelock) want=cycle ;; esac
    case $file in *.litmus) ;; *) file=$file.litmus ;; esac
    opts=${row[options]:--}
    if [ "${row[cost]-}" = slow ] && [ "${VERIFY_SLOW:-0}" != 1 ]; then
        skipped=$((skipped + 1))
        continue
    fi
    proto=${pattern//%s/${row[protocol]-}}
    shown=""
    [ "$opts" = - ] || shown=" ($opts)"
    what="$table: ${row[protocol]-} on ${file%.litmus}$shown: $said"
    run_row "$proto" "$file" "$opts" "$want" "${row[states]:--}" "${row[transitions]:--}"
    report "$what"
    if [ -n "$control" ] && [ "$want" != Pass ]; then
        run_row "$control" "$file" "$opts" Pass - -
        ctl=${control##*/}
        report "$table: ${ctl%.proto} on ${file%.litmus}$shown: Pass (the control)"
    fi
    unset row
done <"$table"
note=""
[ "$skipped" -eq 0 ] || note=", $skipped slow rows not run (VERIFY_SLOW=1 runs them)"
echo "verify suite: $passed passed, $failed failed$note"
[ "$failed" -eq 0 ]
