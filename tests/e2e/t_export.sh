#!/usr/bin/env bash
# End-to-end checks of `scopecheck export`: the stamp is SHA-256 over the
# canonical text, recomputed here by a second path (jq's sorted, compact,
# ASCII output and sha256sum); rows are trees that match the source
# table row for row; every checked test is listed with verify's own state
# count; a failing, incomplete or unusable check writes nothing (not even
# a temporary file).  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tests=(litmus/protocol/MP-stale-seed.litmus litmus/protocol/MP-shared-cu-fill.litmus)

"$bin" export --protocol gpu_vi "${tests[@]}" -o "$tmp/gpu_vi.json" >"$tmp/out" 2>"$tmp/err"
check "export gpu_vi: exit 0" test $? -eq 0
check "export gpu_vi: one summary line per test" test "$(grep -c '^Checked .*: pass' "$tmp/out")" -eq 2
check "export gpu_vi: the file says its format and version" \
    jq -e '.format == "scopecheck-tables" and .version == 1' "$tmp/gpu_vi.json"

digest=$(jq -r .stamp.digest "$tmp/gpu_vi.json")
again=$(jq -acS 'del(.stamp)' "$tmp/gpu_vi.json" | tr -d '\n' | sha256sum | cut -d' ' -f1)
check "stamp: the digest is SHA-256 of the canonical text (jq + sha256sum agree)" test "$digest" = "$again"
l1=$(jq -acS '.content.controllers[] | select(.name == "L1")' "$tmp/gpu_vi.json" | tr -d '\n' | sha256sum | cut -d' ' -f1)
check "stamp: the section digest of controller L1 (jq + sha256sum agree)" \
    test "$l1" = "$(jq -r '.stamp.sections["content.controllers.L1"]' "$tmp/gpu_vi.json")"
grep -q "sha256 $digest" "$tmp/out"
check "export prints the digest it wrote" test $? -eq 0

# The rows are the source table's, one for one: count the row lines of
# models/gpu_vi.proto's `table L1` (lines between it and `end` that are
# neither comments nor blank).
src_rows=$(awk '/^table L1/{t=1; next} t && /^end/{t=0} t && !/^[[:space:]]*(#|$)/' models/gpu_vi.proto | wc -l)
check "rows: L1 has as many rows as models/gpu_vi.proto's table ($src_rows)" \
    jq -e --argjson n "$src_rows" '.content.controllers[0].rows | length == $n' "$tmp/gpu_vi.json"
check "rows: the acquire load is a tree (invalidate_all, send to the slice home, loads += 1, acq := 1, wait)" \
    jq -e '.content.controllers[0].rows[] | select(.event.kind == "load" and .event.order == "acquire")
           | [.actions[].op] == ["invalidate_all","send","assign","assign","wait"]
             and .actions[1].dest.expr.op == "home" and .guard.op == "&&" and .next == "I"' "$tmp/gpu_vi.json"
check "constants, homes, channels and memory are exported" \
    jq -e '.content.constants.NSLICE == 1 and .content.homes[0].name == "slice"
           and (.content.channels | map(.name)) == ["req","resp"] and .content.memory.home == "slice"' "$tmp/gpu_vi.json"

# Each test is listed with verify's own figures and its program.
for f in "${tests[@]}"; do
    n=$(basename "$f" .litmus)
    states=$("$bin" verify --protocol gpu_vi --json "$f" | jq .stats.states)
    check "verification lists $n with verify's $states states, every check passed" \
        jq -e --arg n "$n" --argjson s "$states" '.verification.checks[] | select(.test == $n)
            | .result == "pass" and .states == $s and ([.checks[]] | all(. == "pass")) and (.program.threads | length) >= 2' \
        "$tmp/gpu_vi.json"
done
check "verification: what the checks covered" \
    jq -e '.verification.covered == {"ncu":2,"ngpu":1,"naddr":2,"max_threads_per_cu":2,"maxops":3}' "$tmp/gpu_vi.json"

# A directory stands for its *.litmus files.
mkdir "$tmp/dir"
cp "${tests[@]}" "$tmp/dir/"
"$bin" export --protocol gpu_vi "$tmp/dir" -o "$tmp/dir.json" >/dev/null 2>&1
check "a directory argument: its two tests are checked" jq -e '.verification.checks | length == 2' "$tmp/dir.json"

# Nothing is written when a check fails, a constant is unknown, the
# search is cut or the output cannot be written.
nothing_written() { # STATUS WHAT ARGS...: export exits STATUS and leaves no file
    local want=$1 what=$2; shift 2
    rm -rf "$tmp/w" && mkdir "$tmp/w"
    "$bin" export "$@" -o "$tmp/w/x.json" >"$tmp/w.out" 2>"$tmp/w.err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then echo "FAIL: $what (exit $rc, want $want)"; return; fi
    if [ -n "$(ls -A "$tmp/w")" ]; then echo "FAIL: $what (left $(ls "$tmp/w"))"; return; fi
    echo "PASS: $what"
}
nothing_written 1 "a failing check (mutant): exit 1, nothing written" \
    --protocol models/mutants/gpu_vi_no_acquire_inval.proto litmus/protocol/MP-stale-seed.litmus
check "a failing check prints the violation as verify does" grep -q '^Violation unsound outcome: 1:r1=1; 1:r2=0;' "$tmp/w.out"
nothing_written 2 "an unknown constant: exit 2, nothing written" --protocol gpu_vi --const NOPE=1 "${tests[0]}"
nothing_written 3 "a search cut by --max-states: exit 3, nothing written" --protocol gpu_vi --max-states 10 "${tests[0]}"
nothing_written 2 "a litmus file that does not parse: exit 2, nothing written" --protocol gpu_vi $(ls tests/bad/ptx/*.litmus | head -n 1)
# A guard chain too deep for the tables' JSON: refused with the row's
# position (the variant's line 4), nothing written; a chain within the bound
# is written and scopesim reads it back.  The chains are `acq == 0 || ...`,
# an acquire load's own guard widened with terms that change nothing.
deep_variant() { # TERMS FILE
    python3 -c "import sys; n=int(sys.argv[1]); t=' || '.join(['acq == 0'] * n)
print('protocol deep extends \"$PWD/models/gpu_vi.proto\"\ntable L1\n- I | load.weak\n'
      '+ I | load.weak | (' + t + ') && acq == 0 | send req[slice(addr)] Load(addr); loads += 1; wait | -\nend')" "$1" >"$2"
}
deep_variant 5000 "$tmp/deep.proto"
nothing_written 2 "a guard chain 5,000 deep: exit 2, nothing written" --protocol "$tmp/deep.proto" "${tests[0]}"
check "a guard chain 5,000 deep: the row's file:line:col and the bound" \
    grep -q "^$tmp/deep.proto:4:[0-9]*: error: .* levels deep in the exported tables (at most 1000" "$tmp/w.err"
deep_variant 900 "$tmp/deep9.proto"
"$bin" export --protocol "$tmp/deep9.proto" "${tests[0]}" -o "$tmp/deep9.json" >/dev/null 2>&1
check "a guard chain 900 deep: exported" test $? -eq 0
if [ -x "$(dirname "$bin")/scopesim" ]; then
    "$(dirname "$bin")/scopesim" --tables "$tmp/deep9.json" --system models/sim/tiny.sys \
        --workload models/sim/litmus_mp.wl >/dev/null 2>"$tmp/err"
    check "a guard chain 900 deep: scopesim reads the tables" test $? -eq 0
fi
"$bin" export --protocol gpu_vi "${tests[0]}" -o "$tmp/none/x.json" >/dev/null 2>"$tmp/err"
check "an output that cannot be written: exit 2 with a message" grep -q "cannot write" "$tmp/err"
"$bin" export --protocol gpu_vi -o "$tmp/x.json" >/dev/null 2>"$tmp/err"
check "no test given: exit 2" test $? -eq 2

# --racy undefined (docs/rsp.md: MP_L2R_noremote is racy under opencl-rsp,
# "Ok (racy)"; verify --racy undefined passes it on brsp, 327 states)
"$bin" export --protocol models/brsp.proto --model opencl-rsp litmus/rsp/MP_L2R_noremote.litmus \
    -o "$tmp/racy-check.json" >/dev/null 2>&1
rc=$?
check "export of a racy test without --racy undefined: exit 1, nothing written" \
    sh -c "[ $rc = 1 ] && [ ! -e '$tmp/racy-check.json' ]"
"$bin" export --protocol models/brsp.proto --model opencl-rsp --racy undefined litmus/rsp/MP_L2R_noremote.litmus \
    -o "$tmp/racy.json" >/dev/null 2>&1
check "export --racy undefined: written, the configuration says racy undefined" \
    sh -c "jq -e '.verification.configuration.racy == \"undefined\"' '$tmp/racy.json' >/dev/null"
check "export --racy undefined: the test's check passed with 327 states" \
    sh -c "jq -e '.verification.checks[0].result == \"pass\" and .verification.checks[0].states == 327' '$tmp/racy.json' >/dev/null"
"$bin" export --protocol models/brsp.proto --model opencl-rsp --racy sometimes litmus/rsp/MP_L2R_noremote.litmus \
    -o "$tmp/racy2.json" >/dev/null 2>"$tmp/err"
rc=$?
check "export --racy sometimes: exit 2, a message" sh -c "[ $rc = 2 ] && grep -q 'takes check or undefined' '$tmp/err'"

# A test the protocol interpreter cannot run (a C read-modify-write,
# protocol/runnable.h) is refused before any test is verified: no report,
# no search, exit 2, the refusal as file:line:col.
"$bin" export --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus litmus/c11/CAS+MP.litmus \
    -o "$tmp/refused.json" >"$tmp/out" 2>"$tmp/err"
check "export: a test verify cannot run is refused (exit 2)" test $? -eq 2
check "export: ... before any test is verified (nothing on stdout)" test ! -s "$tmp/out"
check "export: ... named as file:line:col" grep -q '^litmus/c11/CAS+MP.litmus:[0-9]*:[0-9]*: error: ' "$tmp/err"
check "export: ... and nothing written" test ! -e "$tmp/refused.json"

# A failing export shows the failing test's report and one line for each
# passing test, not every report.  The mutant drops the acquire's L1
# invalidation (docs/counterexamples.md): MP-stale-seed's stale read
# follows; CoWR-miss has no acquire (one thread's write then read of one
# location), so the mutant runs it as gpu_vi does and it passes.
"$bin" export --protocol gpu_vi_no_acquire_inval litmus/protocol/CoWR-miss.litmus \
    litmus/protocol/MP-stale-seed.litmus -o "$tmp/mutant.json" >"$tmp/out" 2>"$tmp/err"
check "export of a mutant: a check fails (exit 1)" test $? -eq 1
check "export of a mutant: the passing test is one line" grep -q '^Checked CoWR-miss: pass ([0-9]* states)$' "$tmp/out"
check "export of a mutant: one report only, the failing test's" test "$(grep -c '^Result ' "$tmp/out")" -eq 1
check "export of a mutant: ... which says Fail" grep -q '^Result Fail' "$tmp/out"
