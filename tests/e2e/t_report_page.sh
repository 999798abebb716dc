#!/usr/bin/env bash
# End-to-end checks of `verify --report FILE.html` (docs/counterexamples.md):
# the page is one self-contained file (no URL, no external script, style or
# font; one JSON blob that parses) of bounded size; its data says what the
# text trace says; opened in a real browser (Debian's chromium, headless:
# --dump-dom after the page's script ran, --screenshot), step K of the page
# (URL fragment #step=K) shows the line, the row and the changed fields that
# `verify --trace full` prints for step K, for every step of a known trace;
# the keys step; the search box finds states; a deadlock's last step shows
# why it is stuck; a page of several violations and one of --liveness's
# lassos hold one trace each; `litmus --report` draws what -show all
# -through invalid draws; bad output paths and checks with nothing to show
# write nothing and keep the check's exit status.  The expected values are the text trace's (a second printer
# of the same search: protocol/step.h's data through verify/trace_print.c),
# never the page's own.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mp=litmus/protocol/MP-stale-seed.litmus
mutant=models/mutants/gpu_vi_no_acquire_inval.proto
# The longest trace of the bundled variants (litmus/rsp/variants.tsv: 57 steps).
pa=(--model opencl-rsp --racy undefined --const PA=1 --protocol models/mutants/srsp_fixed_no_fp_no_f10.proto)
pa_test=litmus/rsp/PA_overflow.litmus

# The blob of page $1.
blob() { perl -0777 -ne 'print $1 if m{<script type="application/json" id="report-data">(.*?)</script>}s' "$1"; }
# The text of element #$2 in the dumped DOM $1, unescaped as HTML text.
dom_text() {
    perl -0777 -ne 'if (m{<(\w+)[^>]* id="'"$2"'"[^>]*>(.*?)</\1>}s) { $t = $2; $t =~ s/<[^>]*>//g;
        $t =~ s/&lt;/</g; $t =~ s/&gt;/>/g; $t =~ s/&nbsp;/ /g; $t =~ s/&amp;/&/g; print $t }' "$1"
}
# Step $2 of the first trace of `verify --trace full` output $1: the step
# line less "  ", then its row line and field lines less their indent.
text_step() {
    awk -v k="$2" '/^Trace$/ {t++; next} t != 1 {next} /^[A-Za-z]/ {exit}
        /^  [0-9]+: / {s = ($1 == k ":"); if (s) print substr($0, 3); next} s {print substr($0, 7)}' "$1"
}

# ---- the page, without a browser ------------------------------------------

"$bin" verify --trace full --protocol "$mutant" "$mp" >"$tmp/full" 2>/dev/null
want_rc=$?
"$bin" verify --protocol "$mutant" "$mp" >"$tmp/plain" 2>/dev/null
"$bin" verify --protocol "$mutant" --report "$tmp/mp.html" "$mp" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--report keeps the check's exit status ($rc, want $want_rc = 1)" test "$rc" -eq "$want_rc" -a "$rc" -eq 1
# (less the lines of time and memory: seconds, states/s, peak RSS)
check "--report leaves the text report as it is" \
    bash -c "diff <(grep -vE '^(seconds|states/s|peak RSS)' '$tmp/out') <(grep -vE '^(seconds|states/s|peak RSS)' '$tmp/plain')"
check "--report writes the page and nothing else beside it" \
    test "$(ls "$tmp" | grep -c '^mp\.html')" -eq 1 -a "$(ls "$tmp" | grep -c 'tmp-')" -eq 0
check "the page is HTML" grep -qx '<!DOCTYPE html>' "$tmp/mp.html"
check "the page names no URL (no http: or https:)" bash -c "! grep -qiE 'https?:' '$tmp/mp.html'"
check "the page loads nothing (no src=, <link, @import, url()" \
    bash -c "! grep -qiE ' src=|<link|@import|url\\(' '$tmp/mp.html'"
blob "$tmp/mp.html" >"$tmp/blob.json"
check "the page's data is one valid JSON blob" jq -e '.traces | length >= 1' "$tmp/blob.json"
nviol=$(grep -c '^Violation' "$tmp/plain")
check "one trace per violation ($nviol)" test "$(jq '.traces | length' "$tmp/blob.json")" -eq "$nviol"
nsteps=$(awk '/^Trace$/ {t++; next} t == 1 && /^[A-Za-z]/ {exit} t == 1 && /^  [0-9]+: / {n++} END {print n}' "$tmp/full")
check "the first trace has the text trace's $nsteps steps" \
    test "$(jq '.traces[0].steps | length' "$tmp/blob.json")" -eq "$nsteps"
bad=0
for ((k = 0; k < nsteps; k++)); do
    want=$(text_step "$tmp/full" "$k" | head -1)
    got="$k: $(jq -r ".traces[0].steps[$k].text" "$tmp/blob.json")"
    [ "$want" = "$got" ] || { bad=$((bad + 1)); echo "  step $k: page '$got', text '$want'" >&2; }
done
check "every step's line in the data is the text trace's ($bad differ)" test "$bad" -eq 0
# Step 1 of gpu_vi_no_acquire_inval on MP-stale-seed is P1's ld.weak of x
# (the seed); the row that fires is gpu_vi.proto's L1 row for I / load.weak,
# whose source line the page quotes.
row1=$(jq -r '.traces[0].steps[1].row' "$tmp/blob.json")
src1=$(jq -r '.traces[0].steps[1].source' "$tmp/blob.json")
check "a step's row is quoted from its file ($row1)" test "$(sed -n "${row1##*:}p" "${row1%:*}")" = "$src1"

"$bin" verify "${pa[@]}" --trace full "$pa_test" >"$tmp/pa_full" 2>/dev/null
"$bin" verify "${pa[@]}" --report "$tmp/pa.html" "$pa_test" >/dev/null 2>&1
size=$(wc -c <"$tmp/pa.html")
pa_steps=$(jq '.traces[0].steps | length - 1' <(blob "$tmp/pa.html"))
check "the 57-step deadlock's page has 57 steps (got $pa_steps)" test "$pa_steps" -eq 57
check "the 57-step page stays under 300 KB ($size bytes)" test "$size" -lt 300000

# Several violations (gpu_vi without its L1 row for StoreAck, as
# t_verify_unhandled.sh makes it: deadlocks and an unhandled event): one
# trace and one chart each, in the text report's order.
grep -v 'recv resp.StoreAck' models/gpu_vi.proto >"$tmp/cut.proto"
"$bin" verify --protocol "$tmp/cut.proto" "$mp" >"$tmp/cut.txt" 2>/dev/null
"$bin" verify --protocol "$tmp/cut.proto" --report "$tmp/cut.html" "$mp" >/dev/null 2>&1
want=$(grep '^Violation' "$tmp/cut.txt" | sed -E 's/^Violation (deadlock|unhandled).*/\1/' | tr '\n' ' ')
got=$(jq -r '[.traces[].kind] | join(" ")' <(blob "$tmp/cut.html"))
check "one trace per violation, in the text report's order ($got)" test "$got " = "$want"
check "one chart per violation, every one drawn" \
    bash -c "[ \$(grep -c '<div class=\"msc\" id=\"msc[0-9]*\" hidden><svg' '$tmp/cut.html') -eq $(wc -w <<<"$want") ]"

# A livelock (--liveness; litmus/rsp/variants.tsv: srsp_fixed_no_fp on
# PA_overflow, a 57-step stem and a 2-step cycle): one trace per
# non-progress cycle, the stem then the cycle, each step's line the text
# lasso's, and where the cycle begins.
live=(--model opencl-rsp --racy undefined --const PA=1 --liveness --protocol models/mutants/srsp_fixed_no_fp.proto)
"$bin" verify "${live[@]}" --trace full "$pa_test" >"$tmp/live_full" 2>/dev/null
"$bin" verify "${live[@]}" --report "$tmp/live.html" "$pa_test" >/dev/null 2>&1
blob "$tmp/live.html" >"$tmp/live.json"
ncyc=$(grep -c '^Violation non-progress cycle' "$tmp/live_full")
check "one trace per non-progress cycle ($ncyc)" \
    test "$(jq '[.traces[] | select(.kind == "livelock")] | length' "$tmp/live.json")" -eq "$ncyc" -a "$ncyc" -gt 0
lsteps=$(awk '/^Trace$/ {t++; next} t == 1 && /^[A-Za-z]/ {exit} t == 1 && /^  [0-9]+: / {n++} END {print n}' "$tmp/live_full")
stem=$(awk '/^Trace$/ {t++; next} t == 1 && /^[A-Za-z]/ {exit} t == 1 && /^  -- cycle/ {print n; exit} t == 1 && /^  [0-9]+: / {n++}' "$tmp/live_full")
check "the lasso's $lsteps steps, the cycle from step $stem" \
    test "$(jq '.traces[0].steps | length' "$tmp/live.json")" -eq "$lsteps" -a "$(jq '.traces[0].cycle_from' "$tmp/live.json")" -eq "$stem"
bad=0
for ((k = 0; k < lsteps; k++)); do
    [ "$(text_step "$tmp/live_full" "$k" | head -1)" = "$k: $(jq -r ".traces[0].steps[$k].text" "$tmp/live.json")" ] ||
        bad=$((bad + 1))
done
check "every step of the lasso is the text trace's ($bad differ)" test "$bad" -eq 0

# ---- bad output paths, nothing to show ------------------------------------

mkdir "$tmp/dir"
"$bin" verify --protocol "$mutant" --report "$tmp/dir" "$mp" >/dev/null 2>"$tmp/err"
rc=$?
check "--report to a directory: the check's status ($rc), a message" \
    bash -c "[ $rc -eq 1 ] && grep -q \"cannot write '$tmp/dir'\" '$tmp/err'"
check "--report to a directory writes nothing in it" test -z "$(ls -A "$tmp/dir")"
"$bin" verify --protocol "$mutant" --report "$tmp/none/r.html" "$mp" >/dev/null 2>"$tmp/err"
rc=$?
check "--report into a missing folder: the check's status ($rc), a message" \
    bash -c "[ $rc -eq 1 ] && grep -q 'No such file or directory' '$tmp/err'"
check "--report into a missing folder creates nothing" test ! -e "$tmp/none"
"$bin" verify --protocol gpu_vi --report "$tmp/pass.html" "$mp" >/dev/null 2>"$tmp/err"
rc=$?
check "--report of a passing check: status 0, no page, a message" \
    bash -c "[ $rc -eq 0 ] && [ ! -e '$tmp/pass.html' ] && grep -q 'no report written' '$tmp/err'"
"$bin" verify --protocol "$mutant" --report "$tmp/two.html" "$mp" "$mp" >/dev/null 2>"$tmp/err"
rc=$?
check "--report with two tests is refused (status $rc, want 2)" \
    bash -c "[ $rc -eq 2 ] && [ ! -e '$tmp/two.html' ] && grep -q 'one litmus test' '$tmp/err'"

# ---- litmus --report: the executions ---------------------------------------

# The page draws what -show all -through invalid -o DIR draws: as many
# executions, as many of them rejected (their label says "forbidden").
"$bin" litmus -show all -through invalid -o "$tmp/show" "$mp" >/dev/null 2>&1
"$bin" litmus --report "$tmp/exec.html" "$mp" >"$tmp/out" 2>"$tmp/err"
rc=$?
nsvg=$(ls "$tmp/show"/*.svg | wc -l)
nforb=$(grep -c '^  label=".*, forbidden' "$tmp/show"/*.dot)
check "litmus --report: status 0, the herd block on stdout" bash -c "[ $rc -eq 0 ] && grep -q '^Observation' '$tmp/out'"
check "litmus --report draws the $nsvg executions -show all -through invalid draws" \
    test "$(grep -c '<div class="exec"' "$tmp/exec.html")" -eq "$nsvg"
check "litmus --report marks the $nforb rejected ones" \
    test "$(grep -o '<button[^>]*class="forbidden"' "$tmp/exec.html" | wc -l)" -eq "$nforb" -a "$nforb" -gt 0
check "litmus --report: the failed check's relation is drawn (crimson)" grep -qi 'crimson' "$tmp/exec.html"
check "litmus --report: the page names no URL" bash -c "! grep -qiE 'https?:' '$tmp/exec.html'"
"$bin" litmus --report "$tmp/exec2.html" -o "$tmp/show2" "$mp" >/dev/null 2>"$tmp/err"
rc=$?
check "litmus --report with -o is refused (status $rc)" \
    bash -c "[ $rc -eq 2 ] && grep -q 'not with -o' '$tmp/err' && [ ! -e '$tmp/exec2.html' ]"
"$bin" litmus --report "$tmp/exec3.html" "$mp" "$mp" >/dev/null 2>"$tmp/err"
rc=$?
check "litmus --report with two tests is refused (status $rc)" \
    bash -c "[ $rc -eq 2 ] && grep -q 'one litmus test' '$tmp/err' && [ ! -e '$tmp/exec3.html' ]"

# ---- in a real browser ------------------------------------------------------

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
    echo "SKIP: chromium absent (scripts/install-deps.sh --test installs it): the browser checks of the report page"
    exit 0
fi
# The DOM of page $1 at fragment $2, after its script ran.
dump() {
    timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
        --dump-dom "file://$1$2" 2>/dev/null
}
bad=0
for ((k = 0; k < nsteps; k++)); do
    dump "$tmp/mp.html" "#step=$k" >"$tmp/dom"
    text_step "$tmp/full" "$k" >"$tmp/want"
    { dom_text "$tmp/dom" step-text; echo
      if [ "$k" -gt 0 ]; then dom_text "$tmp/dom" row-name; echo; fi
      dom_text "$tmp/dom" changed; echo; } | sed -E '/^$/d' >"$tmp/got"
    grep -q "data-step=\"$k\"" "$tmp/dom" && cmp -s "$tmp/want" "$tmp/got" ||
        { bad=$((bad + 1)); echo "  step $k differs:" >&2; diff "$tmp/want" "$tmp/got" >&2; }
done
check "in chromium, each of the $nsteps steps shows the text trace's line, row and changed fields ($bad differ)" \
    test "$bad" -eq 0

# The chart at step 5: exactly the elements of step 5 (the arrow of the
# message it takes, its row number; class s5 as graphviz wrote them) are
# highlighted.
dump "$tmp/mp.html" "#step=5" >"$tmp/dom"
want=$(grep -oE 'class="[^"]*\bs5\b[^"]*"' "$tmp/mp.html" | wc -l)
hl=$(grep -oE 'class="[^"]*\bhl\b[^"]*"' "$tmp/dom" | wc -l)
hl5=$(grep -oE 'class="[^"]*\bhl\b[^"]*"' "$tmp/dom" | grep -cE '\bs5\b')
check "step 5 highlights its $want chart elements and no other ($hl highlighted, $hl5 of step 5)" \
    test "$want" -gt 0 -a "$hl" -eq "$want" -a "$hl5" -eq "$want"

# The keys, through the page's own handler: right three times, left once.
sed 's|</body>|<script>["ArrowRight","ArrowRight","ArrowRight","ArrowLeft"].forEach(function (k) { document.dispatchEvent(new KeyboardEvent("keydown", {key: k})); });</script></body>|' \
    "$tmp/mp.html" >"$tmp/keys.html"
dump "$tmp/keys.html" "" >"$tmp/dom"
check "right, right, right, left from step 0 is step 2" grep -q 'data-step="2"' "$tmp/dom"
sed 's|</body>|<script>["End","ArrowRight"].forEach(function (k) { document.dispatchEvent(new KeyboardEvent("keydown", {key: k})); });</script></body>|' \
    "$tmp/mp.html" >"$tmp/keys.html"
dump "$tmp/keys.html" "#step=3" >"$tmp/dom"
check "end (then right) is the last step, $((nsteps - 1))" grep -q "data-step=\"$((nsteps - 1))\"" "$tmp/dom"

# The search box, through the page's own handler: "P1 r1=1" finds the
# steps whose state has P1's r1 = 1, read off the text trace's changes
# (the state at step K is step K-1's with step K's changed fields).
want=$(awk '/^Trace$/ {t++; next} t != 1 {next} /^[A-Za-z]/ {exit}
    /^  [0-9]+: / {k = $1; sub(":", "", k); if (k > 0 && v == "1") print "step " k - 1; next}
    /^      P1: / {if (match($0, /[:,] r1 = [0-9-]+/)) {s = substr($0, RSTART, RLENGTH); sub(/.* = /, "", s); v = s}}
    END {if (v == "1") print "step " k}' "$tmp/full")
sed 's|</body>|<script>var f = document.getElementById("find"); f.value = "P1 r1=1"; f.dispatchEvent(new Event("input"));</script></body>|' \
    "$tmp/mp.html" >"$tmp/find.html"
dump "$tmp/find.html" "" >"$tmp/dom"
got=$(perl -0777 -ne 'if (m{<ul id="found">(.*?)</ul>}s) { $u = $1; print "$1\n" while $u =~ m{<a [^>]*>(step \d+)</a>}g }' "$tmp/dom")
check "the search box finds the steps where P1's r1 is 1 ($(echo $want))" \
    bash -c "[ -n '$want' ] && [ '$(echo $want)' = '$(echo $got)' ]"

dump "$tmp/pa.html" "#step=57" >"$tmp/dom"
awk '/^Why stuck$/ {s=1; next} s && /^  / {print substr($0, 3); next} s {exit}' "$tmp/pa_full" >"$tmp/want"
perl -0777 -ne 'if (m{<ul id="stuck">(.*?)</ul>}s) { $u = $1; while ($u =~ m{<li>(.*?)</li>}gs) { $t = $1;
    $t =~ s/&lt;/</g; $t =~ s/&gt;/>/g; $t =~ s/&amp;/&/g; print "$t\n" } }' "$tmp/dom" >"$tmp/got"
check "the deadlock's last step shows the text report's reasons why it is stuck" \
    bash -c "[ -s '$tmp/want' ] && cmp -s '$tmp/want' '$tmp/got' && ! grep -q '<div id=\"stuck-box\" hidden' '$tmp/dom'"
check "the page's data-open-ms is set (the page ran to its end)" grep -qE 'data-open-ms="[0-9]+"' "$tmp/dom"

timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
    --hide-scrollbars --window-size=1280,800 --screenshot="$tmp/shot.png" "file://$tmp/pa.html#step=30" >/dev/null 2>&1
# PNG: the 8-byte signature, then IHDR with width and height (big-endian).
dims=$(od -An -tu1 -j16 -N8 "$tmp/shot.png" 2>/dev/null | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
check "the screenshot is a PNG" bash -c "[ \"\$(od -An -c -j1 -N3 '$tmp/shot.png' | tr -d ' ')\" = PNG ]"
check "the screenshot is 1280x800 ($dims)" test "$dims" = "1280x800"
# A blank page compresses to a few KB; the chart, tables and text do not.
dump "$tmp/exec.html" "#exec=2" >"$tmp/dom"
check "litmus page: #exec=2 shows execution 3 alone" \
    bash -c "grep -q 'data-exec=\"2\"' '$tmp/dom' && grep -q '<div class=\"exec\" id=\"exec2\">' '$tmp/dom' && \
             [ \$(grep -c '<div class=\"exec\" id=\"exec[0-9]*\" hidden' '$tmp/dom') -eq $((nsvg - 1)) ]"
check "the screenshot shows something (more than 20 KB: $(wc -c <"$tmp/shot.png") bytes)" \
    test "$(wc -c <"$tmp/shot.png")" -gt 20000
