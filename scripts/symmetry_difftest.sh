#!/usr/bin/env bash
# symmetry_difftest.sh N SEED [BIN]: symmetry reduction against two other
# paths, on random tests made symmetric (docs/search.md, "Symmetry
# reduction").  `scopecheck gen` (seeded: the same N and SEED give the same
# tests) writes N small PTX tests; each gets a copy of every thread of P0's
# CTA on a fresh CTA, so that two CUs run identical programs.  Each copy is
# verified with --symmetry on and off:
#   sc_memory  --model sc --complete: the reduced search's outcomes (collected
#              over each final state's orbit) must equal the axiomatic SC
#              model's (the enumerator: no code shared with the search), and
#              agree with the unreduced search;
#   gpu_vi     --model ptx6: result and outcomes equal with and without.
# A run that could not finish (DIFFTEST_TIMEOUT seconds, default 60) is
# counted as skipped, never as agreement.  Prints each disagreement and a
# summary line; exit 1 if any, 2 on bad usage.
set -u
if [ $# -lt 2 ]; then
    echo "usage: symmetry_difftest.sh N SEED [PATH/TO/scopecheck]" >&2
    exit 2
fi
count=$1 seed=$2
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${3:-$root/bin/scopecheck}
limit=${DIFFTEST_TIMEOUT:-60}
command -v jq >/dev/null 2>&1 || { echo "symmetry_difftest.sh: jq is required" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" gen --seed "$seed" --count "$count" --ops 3 --threads 2 -o "$work" >/dev/null 2>&1 ||
    { echo "symmetry_difftest.sh: scopecheck gen failed" >&2; exit 2; }

# The test with every thread of P0's CTA copied onto a new CTA of its GPU
# (columns appended; the copies' register initialisations added).
duplicate() {
    awk '
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    !head && /@cta/ {
        line = $0; sub(/;[ \t]*$/, "", line)
        n = split(line, col, "|")
        for (i = 1; i <= n; i++) {
            col[i] = trim(col[i])
            split(col[i], f, /[@ ,]+/)          # P0 cta 0 gpu 0
            cta[i] = f[3]; gpu[i] = f[5]
            if (cta[i] + 0 > maxcta) maxcta = cta[i] + 0
        }
        nd = 0
        for (i = 1; i <= n; i++)
            if (cta[i] == cta[1] && gpu[i] == gpu[1]) { nd++; dup[nd] = i; copy[i - 1] = n + nd - 1 }
        for (j = 1; j <= npre; j++) {          # the lines before, with the copies initialised
            print pre[j]
            s = pre[j]
            while (match(s, /P[0-9]+:[A-Za-z0-9_]+=[^;]+;/)) {
                item = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
                t = substr(item, 2, index(item, ":") - 2) + 0
                if (t in copy) print "P" copy[t] substr(item, index(item, ":"))
            }
        }
        out = " " col[1]
        for (i = 2; i <= n; i++) out = out " | " col[i]
        for (k = 1; k <= nd; k++) out = out " | P" (n + k - 1) "@cta " (maxcta + 1) ",gpu " gpu[1]
        print out " ;"; head = 1; body = 1; next
    }
    !head { pre[++npre] = $0; next }
    body && /^[ \t]*(exists|forall|~|locations|filter)/ { body = 0 }
    body && /\|/ {
        line = $0; sub(/;[ \t]*$/, "", line)
        m = split(line, cell, "|")
        for (i = m + 1; i <= n; i++) cell[i] = ""
        out = trim(cell[1])
        for (i = 2; i <= n; i++) out = out " | " trim(cell[i])
        for (k = 1; k <= nd; k++) out = out " | " trim(cell[dup[k]])
        print out " ;"; next
    }
    { print }' "$1"
}

# One verification as "RESULT COMPLETE OUTCOMES USED", or nothing.
run() { # SYMMETRY PROTOCOL MODEL FILE [OPTION]
    timeout "$limit" "$bin" verify --json --no-progress --protocol "$2" --model "$3" ${5:+"$5"} --symmetry "$1" "$4" \
        2>/dev/null | jq -c '[.result, .complete, (.protocol_outcomes | sort), .symmetry.used]' 2>/dev/null
}

used=0 agree=0 differ=0 skipped=0 sc_equal=0
for f in "$work"/*.litmus; do
    duplicate "$f" >"$f.sym"
    for cfg in "sc_memory sc --complete" "gpu_vi ptx6"; do
        set -- $cfg
        off=$(run off "$1" "$2" "$f.sym" "${3:-}") on=$(run on "$1" "$2" "$f.sym" "${3:-}")
        if [ -z "$off" ] || [ -z "$on" ] || [[ $off != '["'*'",true,'* ]] || [[ $on != '["'*'",true,'* ]]; then
            skipped=$((skipped + 1))
            continue
        fi
        [[ $on == *',true]' ]] && used=$((used + 1))
        if [ "${off%,*}" = "${on%,*}" ]; then
            agree=$((agree + 1))
        else
            differ=$((differ + 1))
            echo "DISAGREE $(basename "$f") on $1: off $off, on $on"
            cp "$f.sym" "$root/symmetry-disagreement-$(basename "$f")" 2>/dev/null
        fi
        if [ "$1" = sc_memory ]; then
            if [[ $on == '["Pass",true,'* ]]; then
                sc_equal=$((sc_equal + 1))
            else
                differ=$((differ + 1))
                echo "DISAGREE $(basename "$f"): sc_memory (reduced) and the sc model: $on"
            fi
        fi
    done
done
echo "symmetry difftest: $count tests (seed $seed), $agree pairs agree, $differ disagreements, $skipped skipped;" \
     "symmetry used in $used runs; reduced sc_memory equals the sc model on $sc_equal"
[ "$differ" -eq 0 ]
