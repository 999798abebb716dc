#!/usr/bin/env bash
# End-to-end check that SIGTERM and SIGINT stop a scopesim run with what
# it simulated so far (issue 28, item 8): the summary on stdout marked
# "(incomplete: interrupted)", the --json record with "complete": false and
# "incomplete": "interrupted", a line on stderr naming the signal, exit 3
# (cut, as by --max-cycles; docs/exit-status.md).  The run is one that
# takes minutes (100,000 kernels of reuse.wl on titanv.sys), signalled
# after half a second.
set -u
set -m      # job control: a background job keeps SIGINT (bash ignores it otherwise)
. "$(dirname "$0")/lib.sh"
bin=$1
sim=$(dirname "$bin")/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" export --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus litmus/protocol/MP-shared-cu-fill.litmus \
    -o "$tmp/vi.json" >/dev/null 2>&1 || echo "FAIL: export gpu_vi"

# env --default-signal=INT: a SIGINT ignored on entry (a suite started in
# the background without job control) would stay ignored, and the run go
# on for minutes; timeout -s KILL bounds a run that ignores the signal.
for sig in TERM INT; do
    env --default-signal=INT timeout -s KILL 120 "$sim" --tables "$tmp/vi.json" --system models/sim/titanv.sys --workload models/sim/reuse.wl \
        --work 'kernels 100000' --no-progress --json "$tmp/$sig.json" >"$tmp/$sig.out" 2>"$tmp/$sig.err" &
    pid=$!
    sleep 0.5
    kill -$sig $pid
    wait $pid
    rc=$?
    check "SIG$sig: exit 3" test $rc -eq 3
    check "SIG$sig: the summary is printed, marked interrupted" grep -q '(incomplete: interrupted)$' "$tmp/$sig.out"
    check "SIG$sig: one JSON record, incomplete: interrupted, with the cycles simulated" \
        jq -se 'length == 1 and .[0].complete == false and .[0].incomplete == "interrupted" and .[0].cycles > 0' \
        "$tmp/$sig.json"
    check "SIG$sig: stderr names the signal" grep -q "^scopesim: interrupted by SIG$sig at cycle [0-9]*" "$tmp/$sig.err"
done

# timeout(1) expiring sends SIGTERM twice within microseconds (to scopesim
# and to its process group): one request, not two, so the partial results
# still come out.  Three runs, so that a race shows.
for n in 1 2 3; do
    timeout --preserve-status 0.5 "$sim" --tables "$tmp/vi.json" --system models/sim/titanv.sys \
        --workload models/sim/reuse.wl --work 'kernels 100000' --no-progress >"$tmp/to.out" 2>"$tmp/to.err"
    rc=$?
    check "timeout(1) expiring, run $n: exit 3 with the summary marked interrupted (got $rc)" \
        bash -c "test $rc -eq 3 && grep -q '(incomplete: interrupted)\$' '$tmp/to.out'"
done
