#!/usr/bin/env bash
# End-to-end checks of `scopecheck litmus` on our suite litmus/ptx.
# Usage: t_litmus_cli.sh PATH/TO/scopecheck (run from the repository root by run.sh).
# Prints PASS:/FAIL: per check and exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
L=litmus/ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# verdict FILE MODEL: the Ok/No line of the herd block.
verdict() { "$bin" litmus --model "$2" "$1" 2>/dev/null | grep -xE 'Ok|No' | head -1; }
expect_verdict() {   # expect_verdict FILE MODEL WANT
    local got; got=$(verdict "$L/$1" "$2")
    if [ "$got" = "$3" ]; then echo "PASS: $1 under $2 is $3"
    else echo "FAIL: $1 under $2 is $3 (got '${got}')"; fi
}

# --- verdicts, ptx6 (the default model) and sc -------------------------------
expect_verdict MP-weak.litmus ptx6 Ok
expect_verdict MP-relacq-gpu.litmus ptx6 No
expect_verdict MP-relacq-cta-diffcta.litmus ptx6 Ok
expect_verdict SB-fence-sc-gpu.litmus ptx6 No
expect_verdict SB-fence-sc-cta-diffcta.litmus ptx6 Ok
expect_verdict CoRR-relaxed-gpu.litmus ptx6 No
expect_verdict RMW-add-gpu.litmus ptx6 Ok
expect_verdict RMW-add-cta-diffcta.litmus ptx6 Ok
expect_verdict Bar-sync-samecta.litmus ptx6 No
expect_verdict Bar-sync-diffcta.litmus ptx6 Ok
expect_verdict MP-weak.litmus sc No
expect_verdict SB-weak.litmus sc No
expect_verdict IRIW-relaxed.litmus sc No
expect_verdict Bar-arrive-nowait.litmus sc Ok
got=$("$bin" litmus "$L/MP-weak.litmus" 2>/dev/null | grep -xE 'Ok|No')
check "default model is ptx6 (MP-weak Ok without --model)" test "$got" = Ok

# --- herd block shape ---------------------------------------------------------
# block_shape FILE NAME KIND OBS: the block is, in order: Test NAME KIND / States N /
# N state lines / [Loop ]Ok|No (herd7's Loop prefix under a loop bound) / Witnesses / Positive: P Negative: N / [Flag F /]* Condition ... /
# Observation NAME OBS P N [/ Warning NAME: ...]* / Time NAME SECONDS / Hash=H, as herd7
# 7.58 prints them (locations as [x]), with P N consistent (these tests are
# not ~exists, whose Witnesses herd7 swaps), and nothing else.
block_shape() {
    "$bin" litmus "$1" 2>/dev/null | awk -v name="$2" -v kind="$3" -v obs="$4" '
        NF == 0 { next }
        { line[++n] = $0 }
        END {
            i = 1
            if (line[i++] != "Test " name " " kind) exit 1
            if (split(line[i++], s, " ") != 2 || s[1] != "States" || s[2] !~ /^[0-9]+$/ || s[2] < 1) exit 2
            for (k = 0; k < s[2]; k++)
                if (line[i++] !~ /^([0-9]+:[A-Za-z_][A-Za-z0-9_]*|\[[A-Za-z_][A-Za-z0-9_]*\])=-?[0-9]+;( [^ ]+=-?[0-9]+;)*$/) exit 3
            if (line[i] !~ /^(Loop )?(Ok|No)$/) exit 4
            i++
            if (line[i++] != "Witnesses") exit 5
            if (split(line[i++], w, " ") != 4 || w[1] != "Positive:" || w[3] != "Negative:" || w[2] !~ /^[0-9]+$/ || w[4] !~ /^[0-9]+$/) exit 6
            while (i <= n && line[i] ~ /^Flag /) i++
            if (line[i++] !~ /^Condition (exists|~exists|forall) \(.*\)$/) exit 7
            if (split(line[i++], o, " ") != 5 || o[1] != "Observation" || o[2] != name || o[3] != obs || o[4] != w[2] || o[5] != w[4]) exit 8
            while (i <= n && index(line[i], "Warning " name ": ") == 1) i++   # our warnings (loop bound, ...)
            if (line[i++] !~ ("^Time " name " [0-9]+\\.[0-9][0-9]$")) exit 9
            if (line[i] !~ /^Hash=[0-9a-f]+$/ || length(line[i]) != 37) exit 10
            i++
            if (i != n + 1) exit 11
        }'
}
check "herd block shape: MP-weak (exists, Allowed, Sometimes)" block_shape "$L/MP-weak.litmus" MP-weak Allowed Sometimes
check "herd block shape: MP-relacq-gpu (Never)" block_shape "$L/MP-relacq-gpu.litmus" MP-relacq-gpu Allowed Never
check "herd block shape: RMW-add-gpu (forall, Required, Always)" block_shape "$L/RMW-add-gpu.litmus" RMW-add-gpu Required Always
check "herd block shape: Spin-MP-relaxed (loop: Loop Ok, warnings allowed)" block_shape "$L/Spin-MP-relaxed.litmus" Spin-MP-relaxed Allowed Sometimes
check "herd block shape: IRIW-relaxed (4 threads)" block_shape "$L/IRIW-relaxed.litmus" IRIW-relaxed Allowed Sometimes
two=$("$bin" litmus "$L/MP-weak.litmus" "$L/SB-weak.litmus" 2>/dev/null | grep -c '^Test ')
check "two files give two blocks" test "$two" = 2
states=$("$bin" litmus "$L/MP-weak.litmus" 2>/dev/null | awk '/^States/ { print $2 }')
# MP-weak: (r0, r1) over {0,1}^2 are all reachable under ptx6.
check "MP-weak has 4 final states" test "$states" = 4
sc_states=$("$bin" litmus --model sc "$L/MP-weak.litmus" 2>/dev/null | awk '/^States/ { print $2 }')
check "MP-weak has 3 final states under sc" test "$sc_states" = 3
check "MP-weak Condition line names the condition" \
    bash -c "'$bin' litmus '$L/MP-weak.litmus' | grep -qE '^Condition exists \\(.*(P)?1:r0.*(P)?1:r1.*\\)'"

# --- --json -------------------------------------------------------------------
"$bin" litmus --json "$L/MP-weak.litmus" "$L/RMW-add-gpu.litmus" "$L/Spin-MP-acquire.litmus" "$L/CoWW.litmus" >"$tmp/j" 2>"$tmp/je"
rc=$?
# Spin-MP-acquire's No holds only within the loop bound (herd7: Loop No): exit 3
check "--json run with a loop-bound No exits 3" test "$rc" = 3
check "--json gives one line per test" test "$(grep -c . "$tmp/j")" = 4
check "--json every line is a JSON object" jq -e -s 'length == 4 and all(type == "object")' "$tmp/j"
check "--json keys present with the right types" jq -e -s 'all(
    (.test | type) == "string" and (.file | type) == "string" and (.model | type) == "string" and
    (.condition | IN("exists", "~exists", "forall")) and (.verdict | IN("Ok", "No")) and
    (.positive | type) == "number" and (.negative | type) == "number" and
    (.states | type) == "array" and all(.states[]; type == "object" and all(.[]; type == "number" and . == floor)) and
    (.time_us | type) == "number" and .time_us >= 0 and (.unroll_cut | type) == "boolean")' "$tmp/j"
check "--json MP-weak values" jq -e -s '.[0] | .test == "MP-weak" and .model == "ptx6" and .condition == "exists" and .verdict == "Ok" and .positive >= 1 and (.states | length) == 4 and any(.states[]; .["P1:r0"] == 1 and .["P1:r1"] == 0)' "$tmp/j"
check "--json file key names the file" jq -e -s --arg f "$L/MP-weak.litmus" '.[0].file | endswith("MP-weak.litmus")' "$tmp/j"
check "--json forall test" jq -e -s '.[1] | .test == "RMW-add-gpu" and .condition == "forall" and .verdict == "Ok" and .negative == 0 and all(.states[]; .x == 2)' "$tmp/j"
check "--json location-only condition: CoWW final x is 2" jq -e -s '.[3] | .verdict == "No" and all(.states[]; .x == 2)' "$tmp/j"
check "--json spin loop reports unroll_cut true, complete false" jq -e -s '.[2] | .test == "Spin-MP-acquire" and .unroll_cut == true and .verdict == "No" and .complete == false and .incomplete == "loop-bound"' "$tmp/j"
check "--json loop-free tests are complete" jq -e -s '[.[0], .[1], .[3]] | all(.complete == true)' "$tmp/j"
check "--json loop-free test reports unroll_cut false" jq -e -s '.[0].unroll_cut == false' "$tmp/j"
check "--json sc model named" bash -c "'$bin' litmus --json --model sc '$L/SB-weak.litmus' | jq -e '.model == \"sc\" and .verdict == \"No\"'"
check "--json ptx75 model" bash -c "'$bin' litmus --json --model ptx75 '$L/MP-relacq-gpu.litmus' | jq -e '.verdict == \"No\"'"
check "--unroll 3 accepted, spin verdict unchanged" bash -c "'$bin' litmus --json --unroll 3 '$L/Spin-MP-acquire.litmus' | jq -e '.verdict == \"No\"'"
check "--unroll 1 accepted, relaxed spin still Ok" bash -c "'$bin' litmus --json --unroll 1 '$L/Spin-MP-relaxed.litmus' | jq -e '.verdict == \"Ok\" and .unroll_cut == true'"

# --- directories --------------------------------------------------------------
n_files=$(find "$L" -name '*.litmus' | wc -l)
"$bin" litmus --json "$L" >"$tmp/d" 2>/dev/null
rc=$?
check "directory argument exits 3 (loop tests: verdicts within the loop bound)" test "$rc" = 3
check "directory argument: one JSON line per .litmus file ($n_files)" test "$(grep -c . "$tmp/d")" = "$n_files"
check "directory argument: each file once" test "$(jq -r .file "$tmp/d" | sort -u | wc -l)" = "$n_files"
mkdir -p "$tmp/tree/a/b" "$tmp/tree/c"
cp "$L/MP-weak.litmus" "$tmp/tree/a/b/"
cp "$L/SB-weak.litmus" "$tmp/tree/c/"
cp "$L/LB-weak.litmus" "$tmp/tree/"
echo "not a test" >"$tmp/tree/a/README.txt"
check "directory search is recursive and takes only *.litmus" \
    bash -c "'$bin' litmus --json '$tmp/tree' | jq -r .test | sort | tr '\n' ' ' | grep -qx 'LB-weak MP-weak SB-weak '"
check "file and directory arguments mix" \
    bash -c "test \$('$bin' litmus --json '$L/CoWW.litmus' '$tmp/tree/c' | grep -c .) = 2"

# --- --model PATH.cat ---------------------------------------------------------
cat_done=0
for name in ptx6 ptx75 sc; do
    f=models/$name.cat
    [ -r "$f" ] || continue
    cat_done=1
    "$bin" litmus --json --model "$name" "$L" 2>/dev/null | jq -r '[.file, .verdict] | @tsv' | sort >"$tmp/byname"
    "$bin" litmus --json --model "$f" "$L" 2>/dev/null | jq -r '[.file, .verdict] | @tsv' | sort >"$tmp/bypath"
    check "--model $f gives the same verdicts as --model $name" \
        bash -c "test -s '$tmp/byname' && cmp -s '$tmp/byname' '$tmp/bypath'"
    cp "$f" "$tmp/copy-of-$name.cat"
    check "--model with a .cat outside models/ ($name)" \
        bash -c "'$bin' litmus --model '$tmp/copy-of-$name.cat' '$L/MP-weak.litmus' | grep -xqE 'Ok|No'"
done
[ "$cat_done" = 1 ] || echo "FAIL: --model PATH.cat (no models/ptx6.cat, ptx75.cat or sc.cat to try)"

# --- bad arguments: exit 2, message on stderr, nothing on stdout ----------------
# bad NAME ARGS...: run with ARGS and check status 2, non-empty stderr, empty stdout.
bad() {
    local what=$1; shift
    "$bin" "$@" >"$tmp/bo" 2>"$tmp/be"
    local rc=$?
    if [ "$rc" = 2 ] && [ -s "$tmp/be" ] && [ ! -s "$tmp/bo" ]; then echo "PASS: $what gives exit 2 and a message"
    else echo "FAIL: $what gives exit 2 and a message (status $rc, stderr $(wc -c <"$tmp/be") bytes, stdout $(wc -c <"$tmp/bo") bytes)"; fi
}
bad "unknown model" litmus --model no-such-model "$L/MP-weak.litmus"
bad "missing .cat file" litmus --model "$tmp/absent.cat" "$L/MP-weak.litmus"
bad "unknown option" litmus --frobnicate "$L/MP-weak.litmus"
bad "missing file" litmus "$L/no-such-test.litmus"
bad "--unroll not a number" litmus --unroll many "$L/MP-weak.litmus"
bad "--unroll negative" litmus --unroll -1 "$L/MP-weak.litmus"
bad "--unroll without value" litmus --unroll
bad "--model without value" litmus --model
bad "no file argument" litmus
check "missing file: message names the file" grep -q 'no-such-test.litmus' <("$bin" litmus "$L/no-such-test.litmus" 2>&1 >/dev/null)

printf 'PTX Broken\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n st.bogus x, 1 ;\nexists (x == 1)\n' >"$tmp/broken.litmus"
bad "syntax error in a test" litmus "$tmp/broken.litmus"
check "syntax error: file:line:col: error: on stderr" \
    grep -qE "broken\.litmus:[0-9]+:[0-9]+: error: " <("$bin" litmus "$tmp/broken.litmus" 2>&1 >/dev/null)
"$bin" litmus --json "$L/MP-weak.litmus" "$tmp/broken.litmus" "$L/SB-weak.litmus" >"$tmp/mo" 2>"$tmp/me"
rc=$?
check "good and bad files: exit 2" test "$rc" = 2
check "good and bad files: the good ones are still reported" \
    bash -c "jq -r 'select(has(\"test\")) | .test' '$tmp/mo' | tr '\n' ' ' | grep -qx 'MP-weak SB-weak '"
check "good and bad files: the bad one is a JSON error object in its place" \
    bash -c "jq -r 'if has(\"error\") then \"E:\" + (.file | split(\"/\") | last) + \":\" + (.line|tostring) else .test end' '$tmp/mo' | tr '\n' ' ' | grep -qx 'MP-weak E:broken.litmus:6 SB-weak '"
check "good and bad files: the error names the bad file" grep -q 'broken.litmus' "$tmp/me"

# --- exit 0 on a good run -------------------------------------------------------
"$bin" litmus "$L/MP-weak.litmus" >/dev/null 2>"$tmp/ge"
rc=$?
check "good run exits 0" test "$rc" = 0
check "good run writes nothing on stderr" test ! -s "$tmp/ge"
"$bin" litmus --model sc --json "$L" >"$tmp/sc" 2>&1
rc=$?
# exit 3 exactly when some verdict is not established: here only by the
# loop bound (a No or a forall's Ok within it), never by another limit
check "whole suite under sc exits 3, only for loop-bound verdicts" \
    sh -c "[ $rc = 3 ] && jq -e -s '[.[] | select(.complete == false) | .incomplete] | length > 0 and all(. == \"loop-bound\")' '$tmp/sc' >/dev/null"
exit 0
