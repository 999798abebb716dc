#!/usr/bin/env bash
# herd7_compare.sh [-m MODEL]... [-u N] [FILE|DIR]...: herd7 and scopecheck
# side by side on the same C litmus files and the same, unmodified, cat
# model of herd7's library.
#
# For each model (default: rc11.cat and c11_simp.cat) both tools run once
# over all the files (default: litmus/c11):
#     herd7 -model MODEL -macros c11.def [-unroll N] FILE...
#     scopecheck litmus -I LIBDIR --model MODEL [--unroll N] FILE...
# and every test must agree on the verdict (Ok, No or Undef), the set of
# final states, and the flags (herd's "Flag *undef*" included).  Both
# outputs are normalised by scripts/herd_normalise.awk (herd prints C values
# in hexadecimal under some configurations, locations as [x], and terms in
# its own order).  A file one tool rejects must be rejected by the other.
# A difference listed in litmus/c11/herd7-known.tsv (model, test, why) is
# printed as KNOWN and not counted, but only while the verdicts and flags
# still agree: it may excuse final states and counts only.  A row with a
# fourth column "verdict: herd7" or "verdict: scopecheck" excuses a
# different verdict too, naming the tool that is right (derived by hand in
# docs/litmus-c.md); it is printed as KNOWN-VERDICT and counted apart.
# Prints one line per disagreement and "herd7_compare: N agree, K known,
# V known verdict differences, M differ".
# Exit 1 when some test differs, 2 on bad usage; 0 with a message when
# herd7 is absent (../shared/bench/herd7 is not ours to ship).
#   HERD7      herd7 to run (default ../shared/bench/herd7/herd7)
#   SCOPECHECK scopecheck to run (default bin/scopecheck)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
herd=${HERD7:-$root/../shared/bench/herd7/herd7}
bin=${SCOPECHECK:-$root/bin/scopecheck}
norm=$root/scripts/herd_normalise.awk
if [ ! -x "$herd" ]; then
    echo "herd7_compare: skipped: no herd7 at $herd (set HERD7)"
    exit 0
fi
lib=$(cd "$(dirname "$herd")" && pwd)/lib/herd
[ -d "$lib" ] || { echo "herd7_compare: no model library at $lib" >&2; exit 2; }
[ -x "$bin" ] || { echo "herd7_compare: no scopecheck at $bin" >&2; exit 2; }

models=() args=() unroll=()
while [ $# -gt 0 ]; do
    case $1 in
        -m|--model) [ $# -ge 2 ] || { echo "herd7_compare: $1 needs a model" >&2; exit 2; }
                    models+=("$2"); shift 2 ;;
        -u|--unroll) [ $# -ge 2 ] || { echo "herd7_compare: $1 needs a number" >&2; exit 2; }
                     unroll=("$2"); shift 2 ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        -*) echo "herd7_compare: unknown option $1" >&2; exit 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
[ ${#models[@]} -gt 0 ] || models=(rc11.cat c11_simp.cat)
[ ${#args[@]} -gt 0 ] || args=("$root/litmus/c11")

files=()
for a in "${args[@]}"; do
    if [ -d "$a" ]; then
        while IFS= read -r f; do files+=("$f"); done < <(find "$a" -name '*.litmus' | sort)
    elif [ -r "$a" ]; then
        files+=("$a")
    else
        echo "herd7_compare: cannot read $a" >&2
        exit 2
    fi
done
[ ${#files[@]} -gt 0 ] || { echo "herd7_compare: no .litmus files" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
known=$root/litmus/c11/herd7-known.tsv
[ -r "$known" ] || { known=$tmp/none; : >"$known"; }
agree=0 differ=0 knowns=0 kverdicts=0
for m in "${models[@]}"; do
    hu=() su=()
    if [ ${#unroll[@]} -gt 0 ]; then hu=(-unroll "${unroll[0]}"); su=(--unroll "${unroll[0]}"); fi
    "$herd" -model "$m" -macros c11.def "${hu[@]}" "${files[@]}" 2>"$tmp/herd.err" | awk -f "$norm" >"$tmp/herd"
    "$bin" litmus -I "$lib" --model "$m" "${su[@]}" "${files[@]}" 2>"$tmp/sc.err" | awk -f "$norm" >"$tmp/sc"
    result=$(awk -F'\t' -v model="$m" '
        FILENAME == known { if ($1 == model || $1 ".cat" == model) { why[$2] = $3; right[$2] = $4 }; next }
        FILENAME == herdfile { herd[$1] = $0; hv[$1] = $2 "\t" $4; next }
        { sc[$1] = $0; sv[$1] = $2 "\t" $4 }
        END {
            same = 0; diff = 0; excused = 0; verdicts = 0
            for (n in herd) {
                if (!(n in sc)) { print "DIFF " model " " n ": only herd7 gives a result: " herd[n]; diff++; continue }
                if (herd[n] == sc[n]) { same++; continue }
                if ((n in why) && hv[n] == sv[n]) { print "KNOWN " model " " n ": " why[n]; excused++; continue }
                if ((n in why) && right[n] ~ /^verdict: (herd7|scopecheck)$/) {
                    print "KNOWN-VERDICT " model " " n " (" right[n] " is right): " why[n]
                    verdicts++; continue
                }
                print "DIFF " model " " n ":\n  herd7:      " herd[n] "\n  scopecheck: " sc[n]
                diff++
            }
            for (n in sc)
                if (!(n in herd)) { print "DIFF " model " " n ": only scopecheck gives a result: " sc[n]; diff++ }
            print "COUNT " same " " diff " " excused " " verdicts
        }' known="$known" herdfile="$tmp/herd" "$known" "$tmp/herd" "$tmp/sc")
    printf '%s\n' "$result" | grep -v '^COUNT '
    read -r _ same diff excused verdicts < <(printf '%s\n' "$result" | grep '^COUNT ')
    agree=$((agree + same)) differ=$((differ + diff)) knowns=$((knowns + excused))
    kverdicts=$((kverdicts + verdicts))
    echo "herd7_compare: $m: $same agree, $excused known, $verdicts known verdict differences, $diff differ ($(wc -l <"$tmp/herd") results from herd7, $(wc -l <"$tmp/sc") from scopecheck)"
done
echo "herd7_compare: $agree agree, $knowns known, $kverdicts known verdict differences, $differ differ"
[ "$differ" -eq 0 ]
