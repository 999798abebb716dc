#!/usr/bin/env bash
# End-to-end checks of what litmus says when it cannot check every execution
# (issues 9 and 11): --timeout, --max-memory, executions past the enumerator's
# limits.  The verdict is Unknown unless what was found settles it, the JSON
# says "complete": false with the reason, and the exit status is 3.
# Usage: t_limits.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check, exits 0.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ring FILE QUANT PROP: 32 threads in 32 CTAs, each storing its flag and
# reading the next one's (2^32 combinations of traces); about 1.6 KB.
ring() {
    {
        echo "PTX Ring32"
        echo "{ }"
        for row in head st ld; do
            for i in $(seq 0 31); do
                case $row in
                head) cell="P$i@cta $i" ;;
                st) cell="st.relaxed.gpu x$i, 1" ;;
                ld) cell="ld.relaxed.gpu r0, x$(( (i + 1) % 32 ))" ;;
                esac
                printf '%s%s' "$([ "$i" = 0 ] && echo ' ' || echo ' | ')" "$cell"
            done
            echo " ;"
        done
        echo "$2 ($3)"
    } >"$1"
}

# --- --timeout: an enumeration that would take hours stops -------------------
ring "$tmp/ring-forall.litmus" forall 'P0:r0 == 0 \/ P0:r0 == 1'
size=$(wc -c <"$tmp/ring-forall.litmus")
check "the 32-thread ring is a small file (${size} bytes)" test "$size" -lt 2200
start=$(date +%s)
"$bin" litmus --timeout 2 "$tmp/ring-forall.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$? elapsed=$(( $(date +%s) - start ))
check "--timeout 2 stops the 32-thread ring (${elapsed}s)" test "$elapsed" -lt 30
check "a forall nothing violated before the timeout is Unknown" grep -qx Unknown "$tmp/out"
check "... with exit status 3" test "$rc" = 3
check "... and a Warning line for the time limit" grep -q '^Warning Ring32: time limit reached' "$tmp/out"
check "... and the statistics so far (Positive: N Negative: 0)" grep -qE '^Positive: [0-9]+ Negative: 0$' "$tmp/out"
"$bin" litmus --json --timeout 1 "$tmp/ring-forall.litmus" >"$tmp/json" 2>/dev/null
check "JSON: verdict Unknown, complete false, incomplete timeout" \
    jq -e '.verdict == "Unknown" and .complete == false and .incomplete == "timeout" and .positive > 0' "$tmp/json"
ring "$tmp/ring-exists.litmus" exists 'P0:r0 == 0'
"$bin" litmus --timeout 1 "$tmp/ring-exists.litmus" >"$tmp/out" 2>&1
rc=$?
check "an exists satisfied before the timeout is Ok, exit 0" sh -c "grep -qx Ok '$tmp/out' && [ $rc = 0 ]"
ring "$tmp/ring-notexists.litmus" '~exists' 'P0:r0 == 0'
"$bin" litmus --timeout 1 "$tmp/ring-notexists.litmus" >"$tmp/out" 2>&1
check "a ~exists violated before the timeout is No" grep -qx No "$tmp/out"

# --- --max-memory ------------------------------------------------------------
"$bin" litmus --json --max-memory 1K litmus/ptx/MP-weak.litmus >"$tmp/json" 2>/dev/null
rc=$?
check "--max-memory 1K: Unknown, incomplete max-memory, exit 3" \
    sh -c "jq -e '.verdict == \"Unknown\" and .incomplete == \"max-memory\"' '$tmp/json' >/dev/null && [ $rc = 3 ]"
"$bin" litmus --json --max-memory 512M litmus/ptx/MP-weak.litmus >"$tmp/json" 2>/dev/null
check "--max-memory 512M: MP-weak still Ok and complete" jq -e '.verdict == "Ok" and .complete == true' "$tmp/json"

# --- executions beyond the enumerator's limits --------------------------------
# MP with 4100 more locations: 4106 events, past the 4096 an execution may have.
{
    echo "PTX MP-too-wide"
    printf '{ x=0; y=0;'
    for i in $(seq 0 4099); do printf ' u%d=0;' "$i"; done
    echo ' }'
    echo ' P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;'
    echo ' st.weak x, 1   | ld.weak r0, y  ;'
    echo ' st.weak y, 1   | ld.weak r1, x  ;'
    echo 'exists (P1:r0 == 1 /\ P1:r1 == 0)'
} >"$tmp/wide.litmus"
"$bin" litmus "$tmp/wide.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "4106 events: Unknown, not No" grep -qx Unknown "$tmp/out"
check "4106 events: exit status 3" test "$rc" = 3
check "4106 events: a Warning line says what was skipped" grep -q 'more than 4096 events were skipped' "$tmp/out"
"$bin" litmus --json "$tmp/wide.litmus" >"$tmp/json" 2>/dev/null
check "4106 events: JSON complete false, incomplete too-many-events" \
    jq -e '.verdict == "Unknown" and .complete == false and .incomplete == "too-many-events"' "$tmp/json"
# a counted barrier with more arrivals than are ordered (nine threads)
{
    echo "PTX Bar9"
    echo "{ }"
    for row in 0 1 2; do
        for i in $(seq 0 8); do
            case $row in
            0) cell="P$i@cta 0,gpu 0" ;; 1) cell="bar.cta.sync 0, 0, 9" ;; 2) cell="st.relaxed.gpu x$i, 1" ;;
            esac
            printf '%s%s' "$([ "$i" = 0 ] && echo ' ' || echo ' | ')" "$cell"
        done
        echo " ;"
    done
    echo "exists (x0 == 1)"
} >"$tmp/bar9.litmus"
"$bin" litmus --json "$tmp/bar9.litmus" >"$tmp/json" 2>/dev/null
rc=$?
check "nine arrivals at a counted barrier: Unknown, exit 3" \
    sh -c "jq -e '.verdict == \"Unknown\" and .incomplete == \"too-many-events\"' '$tmp/json' >/dev/null && [ $rc = 3 ]"
"$bin" verify --protocol gpu_vi "$tmp/bar9.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "verify: the model's outcomes incomplete: Result Incomplete, exit 3, no violation" \
    sh -c "grep -q '^Result Incomplete' '$tmp/out' && ! grep -q '^Violation' '$tmp/out' && [ $rc = 3 ]"
check "verify: a warning says why" grep -q "warning: the model's outcomes are incomplete (too-many-events)" "$tmp/err"
# a whole run: one Unknown among established verdicts still exits 3; a bad file 2
"$bin" litmus litmus/ptx/MP-weak.litmus "$tmp/bar9.litmus" >/dev/null 2>&1
check "a run with one Unknown test exits 3" test $? = 3
printf 'PTX Bad\n{ x=0; }\n P0 ;\n frob x ;\nexists (x == 0)\n' >"$tmp/bad.litmus"
"$bin" litmus "$tmp/bar9.litmus" "$tmp/bad.litmus" >/dev/null 2>&1
check "an unusable file among them exits 2" test $? = 2

# --- option values ------------------------------------------------------------
# opt_error ARGS...: exit 2, nothing on stdout, one error line naming the option.
opt_error() {
    local what="$*"
    "$bin" litmus "$@" litmus/ptx/MP-weak.litmus >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && grep -q "^scopecheck litmus: error: ${1}" "$tmp/err"; then
        echo "PASS: litmus $what is refused"
    else
        echo "FAIL: litmus $what is refused (exit $rc, stderr: $(head -1 "$tmp/err"))"
    fi
}
for v in 0 -1 abc 1x nan inf 1e999 ''; do opt_error --timeout "$v"; done
for v in 0 -5 12X 1.5G '' G; do opt_error --max-memory "$v"; done
opt_error --max-memory 99999999999999G
check "99999999999999G is refused as too large" grep -q "too large" "$tmp/err"
"$bin" verify --protocol gpu_vi --max-memory 99999999999999G litmus/ptx/MP-weak.litmus >"$tmp/out" 2>"$tmp/err"
check "verify refuses --max-memory 99999999999999G too (exit 2, too large)" \
    sh -c "[ $? = 2 ] && grep -q 'too large' '$tmp/err'"
"$bin" verify --protocol gpu_vi --timeout nan litmus/ptx/MP-weak.litmus >/dev/null 2>&1
check "verify refuses --timeout nan" test $? = 2
"$bin" litmus --timeout 0.5 --max-memory 64M litmus/ptx/MP-weak.litmus >/dev/null 2>&1
check "fractional seconds and sizes with a suffix are accepted" test $? = 0
"$bin" litmus --help >"$tmp/out" 2>&1
check "--help names --timeout and --max-memory" sh -c "grep -q -- '--timeout' '$tmp/out' && grep -q -- '--max-memory' '$tmp/out'"

# verify over a test whose model outcomes are incomplete: two threads with
# five writes each to x (ten writes to one location, past the enumerator's
# eight): the model's outcomes are empty and incomplete, so the protocol's
# outcomes x=1 and x=2 (each thread's last write may come last) are not
# violations but unknown: Result Incomplete, exit 3, JSON "sound": null.
{
    echo "PTX W10"
    echo "{ x=0; }"
    echo " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;"
    for i in 1 2 3 4 5; do echo " st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 ;"; done
    echo "exists (x == 2)"
} >"$tmp/W10.litmus"
"$bin" verify --protocol gpu_vi --const MAXV=3 "$tmp/W10.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "verify with incomplete model outcomes: exit 3" test "$rc" = 3
check "verify with incomplete model outcomes: Result Incomplete, no unsound violation" \
    sh -c "grep -q '^Result Incomplete' '$tmp/out' && ! grep -q '^Violation' '$tmp/out'"
check "verify with incomplete model outcomes: both outcomes unknown" \
    sh -c "[ \$(grep -c '^Unknown outcome' '$tmp/out') = 2 ]"
"$bin" verify --json --protocol gpu_vi --const MAXV=3 "$tmp/W10.litmus" >"$tmp/json" 2>/dev/null
check "verify JSON: sound null, incomplete too-many-writes, no violations" \
    sh -c "grep -q '\"sound\":null' '$tmp/json' && grep -q '\"model_incomplete\":\"too-many-writes\"' '$tmp/json' && grep -q '\"violations\":\[\]' '$tmp/json'"

# --- verify --timeout bounds the model's enumeration too ---------------------
# A generated test (scopecheck gen --seed 3001, number 9326) whose ptx6
# enumeration takes minutes: RMW chains on x with a CTA barrier.  verify used
# to hand the model's enumeration no limit, so --timeout 1 ran for minutes.
cat >"$tmp/slowmodel.litmus" <<'LIT'
PTX SlowModel
{
x=0;
}
 P0@cta 1,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;
 atom.release.gpu.add r0, x, 1 | st.relaxed.gpu x, 1 | atom.release.gpu.add r0, x, 1 ;
 atom.acquire.gpu.add r1, x, 1 | bar.cta.sync 0 | atom.acquire.gpu.add r1, x, 1 ;
  | st.release.cta x, 2 | bar.cta.sync 0 ;
  | atom.acquire.gpu.cas r0, x, 1, 3 | atom.release.gpu.cas r2, x, 3, 4 ;
exists (P0:r0 == 4 /\ P2:r2 == 4 /\ x == 2)
LIT
start=$(date +%s.%N)
timeout 60 "$bin" verify --json --protocol gpu_vi --model ptx6 --const MAXV=15 --timeout 0.5 \
    "$tmp/slowmodel.litmus" >"$tmp/json" 2>"$tmp/err"
rc=$?
secs=$(echo "$(date +%s.%N) - $start" | bc)
check "verify --timeout 0.5 stops the model's enumeration (${secs} s, exit $rc)" \
    sh -c "[ $rc = 3 ] && echo '$secs < 10' | bc | grep -q 1"
check "verify --timeout: JSON says incomplete, the model's outcomes cut by the timeout, no violation" \
    sh -c "grep -q '\"result\":\"Incomplete\"' '$tmp/json' && grep -q '\"model_incomplete\":\"timeout\"' '$tmp/json' && grep -q '\"violations\":\[\]' '$tmp/json'"
timeout 60 "$bin" verify --write-atomicity --protocol gpu_vi --model ptx6 --const MAXV=15 --timeout 0.5 \
    "$tmp/slowmodel.litmus" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "verify --write-atomicity --timeout: the reference cut too, write atomicity unknown (exit $rc)" \
    sh -c "[ $rc = 3 ] && grep -q '^Write-atomic unknown (reference ptx6-mca: its outcomes are incomplete: timeout)' '$tmp/out'"
timeout 60 "$bin" verify --json --write-atomicity --protocol gpu_vi --model ptx6 --const MAXV=15 --timeout 0.5 \
    "$tmp/slowmodel.litmus" >"$tmp/json" 2>/dev/null
check "verify --write-atomicity JSON: write_atomic null with the reason" \
    sh -c "grep -q '\"write_atomic\":null,\"write_atomic_incomplete\":\"timeout\"' '$tmp/json'"

# --- verify --timeout and a signal bound the walk for the test's value range --
# Without a --const for the value constant, verify derives the range of
# values from the test's paths up to the loop bound; PriorSem-counter's
# endless waiter (P2) makes those paths exponentially many (the walk takes
# about two minutes), and it used to ignore --timeout and SIGTERM alike.
start=$(date +%s.%N)
timeout 60 "$bin" verify --model none --protocol sc_memory --timeout 1 litmus/sync/PriorSem-counter.litmus \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
secs=$(echo "$(date +%s.%N) - $start" | bc)
check "verify --timeout 1 stops the value-range walk (${secs} s, exit $rc)" \
    sh -c "[ $rc = 3 ] && echo '$secs < 10' | bc | grep -q 1"
check "... Result Incomplete, no violation" \
    sh -c "grep -q '^Result Incomplete' '$tmp/out' && ! grep -q '^Violation' '$tmp/out'"
check "... and a warning says the walk was stopped and how to set the range" \
    grep -q "warning: the walk for the values this test can compute was stopped (timeout).*--const" "$tmp/err"
"$bin" verify --model none --protocol sc_memory litmus/sync/PriorSem-counter.litmus >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 2 # past start-up (the handler is installed before the first file)
kill -TERM "$pid"
start=$(date +%s.%N)
wait "$pid"
rc=$?
secs=$(echo "$(date +%s.%N) - $start" | bc)
check "SIGTERM stops the value-range walk: exit 3 within 10 s (${secs} s, exit $rc)" \
    sh -c "[ $rc = 3 ] && echo '$secs < 10' | bc | grep -q 1"
check "... and says it was interrupted" grep -q "stopped (interrupted)" "$tmp/err"
