#!/usr/bin/env bash
# End-to-end checks of the C dialect (docs/litmus-c.md) and of herd7's own
# cat models loaded unmodified (docs/cat.md).
#   - without ../shared: every test of litmus/c11 parses and runs under our
#     SC model, with verdicts derived by hand below;
#   - with ../shared: herd7 run side by side on the suite
#     (scripts/herd7_compare.sh), and herd's habits (-I, --variant).  The
#     C corpus and the suite's expected verdicts are conformance runs
#     (tests/conformance_if_shared.sh).
# Usage: t_c_dialect.sh PATH/TO/scopecheck.  Prints PASS:/FAIL: per check.
set -u
bin=$1
cd "$(dirname "$0")/../.." || exit 0
. tests/e2e/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=$(ls litmus/c11/*.litmus | wc -l)
"$bin" litmus --model sc litmus/c11 >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(grep -c '^Test ' "$tmp/out")
# exit 3: Loop+spin's verdict holds only within the loop bound (herd7: Loop No)
if [ "$rc" -eq 3 ] && [ "$got" -eq "$n" ] && [ ! -s "$tmp/err" ]; then
    echo "PASS: all $n tests of litmus/c11 run under sc"
else
    echo "FAIL: litmus/c11 under sc: status $rc, $got of $n blocks, stderr $(head -n 1 "$tmp/err")"
fi
# Under SC (models/sc.cat: po | rf | co | fr acyclic, no races): SB's
# outcome needs both reads before both writes, a cycle (No); RMW+counter's
# forall holds in every interleaving (Ok); the weak compare-exchange may
# still fail spuriously (Ok: spurious failure is the instruction's, not the
# model's); 2+2W needs co against po on both locations (No).
verdict() { awk -v t="$1" '$1 == "Test" { name = $2 } name == t && /^(Ok|No|Undef)$/ { print; exit }' "$tmp/out"; }
check "SB+rlx is No under sc" test "$(verdict SB+rlx)" = No
check "RMW+counter is Ok under sc" test "$(verdict RMW+counter)" = Ok
check "CAS+weak is Ok under sc" test "$(verdict CAS+weak)" = Ok
check "CoWW+2W is No under sc" test "$(verdict CoWW+2W)" = No
check "RMW+ops is Ok under sc" test "$(verdict RMW+ops)" = Ok
# RMW+ops: one thread, so its one final state is fixed by arithmetic:
# 12-2 = 10, 10&6 = 2, 2^3 = 1 (C's fetch-ops return the old value).
check "RMW+ops has its one final state" grep -qx '0:r0=12; 0:r1=10; 0:r2=2; 0:r3=1; \[x\]=1;' "$tmp/out"
# -show draws a C read-modify-write as herd does, one event that reads and
# writes: x=12 initially, fetch_sub 2 reads 12 and writes 10.
"$bin" litmus --model sc -show all -o "$tmp/draw" litmus/c11/RMW+ops.litmus >/dev/null 2>&1
check "-show: a C read-modify-write is one event, read value -> written value" \
    grep -q 'RMW\[x\]=12->10' "$tmp/draw/RMW+ops.dot"

# Issue 28: accesses at a computed address, x + 1, arrays, locations only.
# Under SC (by hand): MP+rel+con-addr-reg reads x+1 when r0 = 1, which
# nothing writes and has no initial value, so only r0 = 0 runs (No);
# Offset+W's store is to x+1, so [x] stays 0 (No, the state [x]=0);
# Offset+WR reads P0's store to x+1, the only value there (Ok, one state).
check "x + r0 with r0 = 1 reads x+1 (no execution): No under sc" test "$(verdict MP+rel+con-addr-reg)" = No
check "a store to x + 1 leaves [x] alone: No under sc" test "$(verdict Offset+W)" = No
check "a store to x + 1 leaves [x] at 0" bash -c "'$bin' litmus --model sc litmus/c11/Offset+W.litmus | grep -qx '\[x\]=0;'"
check "x + 1 is read back by another thread: Ok under sc" test "$(verdict Offset+WR)" = Ok
# MP with only a locations clause: forall (true), the three SC outcomes.
check "locations only: forall (true), Always 3 0 under sc" \
    bash -c "'$bin' litmus --model sc litmus/c11/MP+observe.litmus | grep -qx 'Observation MP+observe Always 3 0'"
# Arrays in the init block (Dat3M's reading; herd7 refuses them): under SC
# r0 = 1 makes P0 write y[1] (Ok); d[r0] with r0 = 1 comes after the store
# of d[1] (No).
"$bin" litmus --model sc litmus/c11-dat3m >"$tmp/arr" 2>&1
check "an array of the init block: Array+index is Ok under sc" \
    grep -qx 'Observation Array+index Sometimes 1 1' "$tmp/arr"
check "an array of the init block: MP+rel+con-array is No under sc" \
    grep -qx 'Observation MP+rel+con-array Never 0 2' "$tmp/arr"

lib=../shared/bench/herd7/lib/herd
if [ ! -d "$lib" ]; then
    echo "PASS: herd7's models and corpus skipped ($lib not found; it is not ours to ship)"
    exit 0
fi
if [ -x ../shared/bench/herd7/herd7 ]; then
    out=$(SCOPECHECK=$bin bash scripts/herd7_compare.sh 2>&1)
    if grep -q 'herd7_compare: [0-9]* agree, [0-9]* known, [0-9]* known verdict differences, 0 differ' <<<"$out"; then
        echo "PASS: herd7 side by side: ${out##*$'\n'}"
    else
        echo "FAIL: herd7 side by side:"; echo "$out" | sed 's/^/  /'
    fi
fi
# A test with only a locations clause (diy7 -cond observe): herd7's whole
# block, line for line but Time, and the terms of a state, which herd7
# sorts (docs/litmus-c.md).
if [ -x ../shared/bench/herd7/herd7 ]; then
    block() { # the block without Time, each state's terms sorted (state lines end in ';')
        grep -v '^Time ' | while IFS= read -r l; do
            case $l in *\;) tr ';' '\n' <<<"$l" | sed 's/^ *//; /^$/d' | sort | tr '\n' ';'; echo ;; *) echo "$l" ;; esac
        done
    }
    for m in rc11 c11_simp; do
        exp=$(../shared/bench/herd7/herd7 -model $m.cat -macros c11.def litmus/c11/MP+observe.litmus 2>&1 | block)
        got=$("$bin" litmus -I "$lib" --model $m litmus/c11/MP+observe.litmus 2>&1 | block)
        check "locations only: herd7's block under $m" test -n "$exp" -a "$exp" = "$got"
    done
fi
# herd7's Hash= line: the digest of the test as written, the same as herd7's
# expected outputs of its C corpus and as herd7 run on litmus/c11.
hashes() { awk '/^Test /{n=$2} /^Hash=/{print n, $0}' | sort; }
corpus=../shared/corpus/c11-herd
if [ -d "$corpus" ]; then
    exp=$(cat "$corpus"/*.litmus.expected | hashes)
    got=$(for e in "$corpus"/*.litmus.expected; do "$bin" litmus -I "$lib" --model rc11 --variant S128 "${e%.expected}" 2>/dev/null; done | hashes)
    check "Hash= of herd7's C corpus as in herd7's expected outputs ($(wc -l <<<"$exp") tests)" \
        test -n "$exp" -a "$exp" = "$got"
fi
if [ -x ../shared/bench/herd7/herd7 ]; then
    exp=$(../shared/bench/herd7/herd7 -model rc11.cat -macros c11.def litmus/c11/*.litmus 2>/dev/null | hashes)
    got=$("$bin" litmus -I "$lib" --model rc11 litmus/c11 2>/dev/null | hashes)
    check "Hash= of litmus/c11 as herd7 prints it ($(wc -l <<<"$exp") tests)" test -n "$exp" -a "$exp" = "$got"
fi
# herd's habits: -I finds the model by name; an unknown variant changes nothing
check "-I finds rc11 by name" "$bin" litmus -I "$lib" --model rc11 litmus/c11/MP+rlx.litmus
"$bin" litmus -I "$lib" --model rc11 --variant NoSuchVariant litmus/c11/SB+sc.litmus >"$tmp/v" 2>&1
check "a variant the model does not test changes nothing" grep -qx No "$tmp/v"
"$bin" litmus -I "$lib" --model no-such-model litmus/c11/MP+rlx.litmus >/dev/null 2>"$tmp/e"
check "an unknown model is refused with status 2" test $? -eq 2
