#!/usr/bin/env bash
# End-to-end checks of scopesim on the RSP protocols (docs/rsp.md): a run
# of bRSP's exported tables whose figures are derived by hand below (a
# remote rmw: the broadcast flush, its acknowledgment, the atomic at the
# L2, the invalidation); the three RSP protocols and the baseline on a
# small work-stealing run, each completing with every task taken once;
# errors for a workload the tables cannot run and for a bad parameter.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
sim=$(dirname "$bin")/scopesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/one.litmus" <<'LITMUS'
OPENCL RSP_one_remote
"One remote acquire-release add"
{
[x] = 0;
}

P0@wg 0, dev 0 (global atomic_int* x) {
  int r0 = atomic_fetch_add_explicit_remote(x, 1, memory_order_acq_rel, memory_scope_device);
}

exists (P0:r0 == 0)
LITMUS
"$bin" export --protocol models/brsp.proto --model opencl-rsp "$tmp/one.litmus" -o "$tmp/brsp.json" >/dev/null 2>&1 ||
    echo "FAIL: export brsp"
check "export: the remote add keeps its remote flag in the program" \
    jq -e '.verification.checks[0].program.threads[0].instrs[0].remote == true' "$tmp/brsp.json"
printf 'workload one\nkind litmus\ntest RSP_one_remote\niterations 1\n' >"$tmp/one.wl"

# tiny.sys with one CU (the test's one work-group): L1 2 cycles (fills
# too), L2 10, DRAM 50 plus 2 cycles a 128-byte line, links 3 cycles plus
# 1 to serialise.  brsp's rows (models/brsp.proto); the L1's internal
# events (flushed, drain) are offered after each of its steps.
#    0 rmw.acq_rel.gpu.remote, first row: Flu(x) to every L1 (itself),
#      acks := 1, rem := 1; neither done nor wait: offered again later.
#      Flu leaves 2, arrives 2+1+3 = 6
#    6 recv sel.Flu (its own): fq := 1, fa := x
#    7 the rmw is held (hold: fq == 1); `flushed` fires on x (its guard
#      pins addr == fa): FluAck leaves 9, arrives 13
#    8 the rmw: rem == 1 but acks == 1: waits
#   13 recv selack.FluAck: acks := 0
#   14 the rmw's second row: RAtom leaves 16, arrives 20
#   20 the L2 reads and writes memory: DRAM 50, RAtomResp leaves
#      20+10+50 = 80, arrives 84
#   84 recv RAtomResp: done at 86; Inv to every L1 leaves 86, arrives 90
#   86 the kernel's end fence (acq_rel.gpu) fires, done 88
#   90 recv sel.Inv (its own): nothing; 91 the internal events are
#      offered once more and none fires: the last event, 91.
# Messages: Flu, FluAck, RAtom, RAtomResp, Inv = 5; L1 events 8 (two rmw
# rows, Flu, flushed, FluAck, RAtomResp, the fence, Inv); DRAM 1.
"$sim" --tables "$tmp/brsp.json" --system models/sim/tiny.sys --sys 'cus_per_gpm 1' --workload "$tmp/one.wl" \
    --quiet --json "$tmp/r.json"
check "brsp remote rmw, hand-derived: 91 cycles, verified, complete" \
    jq -e '.cycles == 91 and .verified and .complete and .ops == 1' "$tmp/r.json"
check "brsp remote rmw, hand-derived: 5 messages (sel 2, selack 1, req 1, resp 1)" \
    jq -e '.messages == 5 and .channels.sel.messages == 2 and .channels.selack.messages == 1 and
           .channels.req.messages == 1 and .channels.resp.messages == 1' "$tmp/r.json"
check "brsp remote rmw, hand-derived: 8 L1 events, 1 DRAM access, held one cycle (7..8)" \
    jq -e '.controllers.L1.events == 8 and .controllers.L2.dram == 1 and .stalls.table_hold == 1' "$tmp/r.json"

# The exported RSP tables on a small work-stealing run (2 CUs of tiny.sys:
# one warp, one slot): every protocol finishes.  Each warp's rmws are its
# dequeues: it ends at its third empty one (its own queue, then
# steal_tries = 2 steals), and the 4 tasks (2 per queue) are each taken
# once if the protocol keeps the counters atomic: 2 x 3 + 4 = 10 rmws,
# whatever the timing (a lost or duplicated task would change it).
bash scripts/export_tables.sh "$tmp/tables" >/dev/null 2>"$tmp/export.err" || { echo "FAIL: export_tables.sh"; cat "$tmp/export.err"; }
printf 'kind worksteal\ntasks 2\ntask_lines 0\nimbalance 0\nsteal_tries 2\nowner_scope cta\nsteal_remote 1\n' >"$tmp/ws.wl"
for p in brsp srsp_fixed; do
    "$sim" --tables "$tmp/tables/$p.tables.json" --system models/sim/tiny.sys --workload "$tmp/ws.wl" --unverified \
        --quiet --json "$tmp/$p.json" 2>"$tmp/$p.err"
    check "$p runs work stealing with remote steals to the end: 10 rmws" jq -e '.complete and .rmws == 10' "$tmp/$p.json"
done
"$sim" --tables "$tmp/tables/gpu_wc.tables.json" --system models/sim/tiny.sys --workload "$tmp/ws.wl" \
    --quiet >/dev/null 2>"$tmp/err"
check "gpu_wc has no remote rows: the remote workload is refused (exit 2)" test $? -eq 2
check "gpu_wc: the message names the missing .remote form" grep -q 'rmw.acq_rel.gpu.remote' "$tmp/err"
"$sim" --tables "$tmp/tables/gpu_wc.tables.json" --system models/sim/tiny.sys --workload "$tmp/ws.wl" \
    --work 'steal_remote 0' --quiet --json "$tmp/wc.json" 2>/dev/null
check "gpu_wc runs the same workload without remote forms: 10 rmws" jq -e '.complete and .rmws == 10' "$tmp/wc.json"

# Bad parameters of the new workload settings.
"$sim" --tables "$tmp/brsp.json" --system models/sim/tiny.sys --workload "$tmp/ws.wl" --work 'steal_remote 2' \
    >"$tmp/out" 2>"$tmp/err"
check "steal_remote 2: exit 2" test $? -eq 2
check "steal_remote 2: a positioned error" grep -q 'error' "$tmp/err"
check "steal_remote 2: nothing on stdout" test ! -s "$tmp/out"
