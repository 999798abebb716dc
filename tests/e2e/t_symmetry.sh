#!/usr/bin/env bash
# End-to-end checks of symmetry reduction (`verify --symmetry`,
# docs/search.md): the verdict, the outcome set, the kinds of violations
# and whether a deadlock was found are the same with --symmetry on and off,
# on every row of litmus/protocol/verify.tsv and on every protocol of
# models/ and models/mutants/ with tests whose readers are interchangeable;
# where the reduction applies the search stores fewer states, at least
# 1/|G| of them (an orbit has at most |G| states); traces of a reduced
# search are concrete (replayed) and end in a state with the outcome they
# witness; the refusals and the report's lines.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# What must not change: result, soundness, completeness, outcomes, the kinds
# of violations, whether some deadlock was found.
verdict='[.result, .sound, .complete, (.protocol_outcomes | sort), ([.violations[].kind] | unique),
          ((.deadlocks | length) > 0), .liveness]'

# same_verdict NAME PROTOCOL FILE [OPTION...]: runs both ways, compares.
same_verdict() {
    local name=$1 proto=$2 file=$3 rc_off rc_on
    shift 3
    "$bin" verify --json --no-progress --protocol "$proto" --symmetry off "$@" "$file" >"$tmp/off.json" 2>/dev/null
    rc_off=$?
    "$bin" verify --json --no-progress --protocol "$proto" --symmetry on "$@" "$file" >"$tmp/on.json" 2>/dev/null
    rc_on=$?
    if [ "$rc_off" -eq 2 ]; then     # a protocol that cannot run the test: both refuse
        check "$name: refused both ways" test "$rc_on" -eq 2
        return
    fi
    local a b
    a=$(jq -c "$verdict" "$tmp/off.json")
    b=$(jq -c "$verdict" "$tmp/on.json")
    check "$name: same verdict, outcomes and violations with and without symmetry (exit $rc_off)" \
        test "$rc_off" -eq "$rc_on" -a -n "$a" -a "$a" = "$b"
    if jq -e '.symmetry.used' "$tmp/on.json" >/dev/null; then
        local off on g
        off=$(jq .stats.states "$tmp/off.json") on=$(jq .stats.states "$tmp/on.json")
        g=$(jq .symmetry.permutations "$tmp/on.json")
        check "$name: $on canonical states of $off, at least 1/$g of them" \
            test "$on" -le "$off" -a $((on * g)) -ge "$off"
    fi
}

# Every row of the protocol table (its options; the mutants find their
# violations either way).
while IFS=$'\t' read -r file proto opts _; do
    case $file in '' | '#'*) continue ;; esac
    case $proto in */*) ;; *) proto=models/$proto.proto ;; esac
    [ "$opts" = "-" ] && opts=""
    # shellcheck disable=SC2086
    same_verdict "verify.tsv $file on $(basename "$proto" .proto)" "$proto" "litmus/protocol/$file.litmus" $opts
done <litmus/protocol/verify.tsv

# The synchronisation tests (two identical thread blocks) as safety checks:
# deadlocks (SpinSem-printed's assert_fail) and invariants, without the
# liveness their table adds (which turns symmetry off).
while IFS=$'\t' read -r file proto opts _; do
    case $file in '' | '#'*) continue ;; esac
    case $opts in *occupancy* | *preempt*) continue ;; esac
    [ "$opts" = "-" ] && opts=""
    # shellcheck disable=SC2086
    same_verdict "sync $file on $proto (safety)" "$proto" "litmus/sync/$file" --model none $opts
    if [ "$file" = SpinSem-printed.litmus ] && [ "$proto" = gpu_vi ]; then
        d_off=$(jq .stats.deadlock_states "$tmp/off.json") d_on=$(jq .stats.deadlock_states "$tmp/on.json")
        check "SpinSem-printed: $d_on canonical deadlock states of $d_off, at least half" \
            test "$d_on" -gt 0 -a "$d_on" -le "$d_off" -a $((2 * d_on)) -ge "$d_off"
    fi
done <litmus/sync/verify.tsv

# Every protocol and mutant on tests with interchangeable readers.
for proto in models/*.proto models/mutants/*.proto; do
    for f in tests/symmetry/MP-bcast-3.litmus tests/symmetry/IRIW-twin-readers.litmus; do
        same_verdict "$(basename "$proto" .proto) on $(basename "$f" .litmus)" "$proto" "$f"
    done
done
# IRIW on 6 CUs (P2 and P4 alike, P3 and P5: 4 permutations), 1.2 million states unreduced
same_verdict "gpu_vi on IRIW-acq-6" models/gpu_vi.proto litmus/protocol/IRIW-acq-6.litmus

# The reduction on MP-bcast-3 (CUs 1-3 interchangeable: 6 permutations),
# and what the report says.
"$bin" verify --json --protocol gpu_vi tests/symmetry/MP-bcast-3.litmus >"$tmp/b.json"
check "auto is the default and reduces MP-bcast-3 on gpu_vi" \
    jq -e '.options.symmetry == "auto" and .symmetry.used and .symmetry.permutations == 6
           and (.symmetry.note | test("CUs \\{1,2,3\\} \\(P1,P2,P3\\) interchangeable"))' "$tmp/b.json"
"$bin" verify --protocol gpu_vi tests/symmetry/MP-bcast-3.litmus >"$tmp/b.txt"
check "text report: the group and canonical counts" \
    sh -c "grep -q '^symmetry: CUs {1,2,3} (P1,P2,P3) interchangeable (6 permutations)$' '$tmp/b.txt' &&
           grep -q '^states: [0-9]* (canonical: one per symmetry orbit' '$tmp/b.txt'"
"$bin" verify --protocol gpu_vi --symmetry off tests/symmetry/MP-bcast-3.litmus >"$tmp/o.txt"
check "--symmetry off: said, plain counts" \
    sh -c "grep -q '^symmetry: off (--symmetry off)$' '$tmp/o.txt' && grep -q '^states: [0-9]*$' '$tmp/o.txt'"

# Refusals: a protocol that keeps CU ids (srsp's messages name the
# requester), liveness, the scheduler, write atomicity; no group.
"$bin" verify --json --protocol srsp --model none --symmetry on litmus/rsp/LOCK3.litmus >"$tmp/r.json" 2>/dev/null
check "srsp: refused, with the reason" \
    jq -e '(.symmetry.used | not) and (.symmetry.note | test("protocol srsp: message SelFlush carries a CU id"))' \
    "$tmp/r.json"
"$bin" verify --json --protocol gpu_vi --liveness --symmetry on tests/symmetry/MP-bcast-3.litmus >"$tmp/l.json"
check "--liveness: off" jq -e '(.symmetry.used | not) and .symmetry.note == "off (not with --liveness)"' "$tmp/l.json"
"$bin" verify --json --protocol gpu_vi --write-atomicity tests/symmetry/MP-bcast-3.litmus >"$tmp/w.json"
check "--write-atomicity: off" jq -e '.symmetry.note == "off (not with --write-atomicity)"' "$tmp/w.json"
"$bin" verify --json --protocol gpu_vi --occupancy 2 tests/symmetry/MP-bcast-3.litmus >"$tmp/c.json"
check "--occupancy: off" jq -e '.symmetry.note == "off (not with --occupancy or --preempt)"' "$tmp/c.json"
"$bin" verify --json --protocol gpu_vi litmus/protocol/MP-stale-seed.litmus >"$tmp/n.json"
check "no identical CUs: off, said" jq -e '.symmetry.note == "off (no two CUs run identical programs)"' "$tmp/n.json"
"$bin" verify --protocol gpu_vi --symmetry sometimes tests/symmetry/MP-bcast-3.litmus >/dev/null 2>"$tmp/e"
check "--symmetry takes on, off or auto" \
    sh -c "test $? -eq 2 && grep -q \"error: --symmetry takes on, off or auto, not 'sometimes'\" '$tmp/e'"

# Traces from a reduced search: an unsound outcome of a mutant is
# witnessed by a concrete trace whose last state has that outcome.  The
# mutant's acquire does not invalidate, so a reader that seeded its L1
# reads x stale; which reader it is (P1 or P3) is what the orbit permutes.
cat >"$tmp/seed.litmus" <<'EOF'
PTX MP-seed-bcast
"MP with three identical readers that first seed their L1 with x"
{
x=0; y=0;
}
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       | P2@cta 2,gpu 0       | P3@cta 3,gpu 0       ;
 st.weak x, 1        | ld.weak r2, x        | ld.weak r2, x        | ld.weak r2, x        ;
 st.release.gpu y, 1 | ld.acquire.gpu r0, y | ld.acquire.gpu r0, y | ld.acquire.gpu r0, y ;
                     | ld.weak r1, x        | ld.weak r1, x        | ld.weak r1, x        ;
exists (P3:r0 == 1 /\ P3:r1 == 0)
EOF
mut=models/mutants/gpu_vi_no_acquire_inval.proto
"$bin" verify --protocol $mut --trace full "$tmp/seed.litmus" >"$tmp/s.txt"
check "mutant unsound with symmetry on (exit 1)" test $? -eq 1
check "the reduction was used" grep -q '^symmetry: CUs {1,2,3} (P1,P2,P3) interchangeable (6 permutations)$' "$tmp/s.txt"
# the witness: P3's acquire load returns 1 and its last load 0 (the trace's
# last reg write of P3 is r1 := 0)
check "the witness trace ends with P3 reading x = 0 after its acquire read y = 1" \
    sh -c "awk '/^Violation unsound outcome: .*3:r0=1; 3:r1=0;/{f=1} f&&/^Trace/{t=1} t&&/^(Violation|Result|symmetry:)/&&!/^Trace/{exit} t' '$tmp/s.txt' >'$tmp/w.txt' &&
           grep -q 'P3' '$tmp/w.txt' && test \$(grep -c '^  [0-9]*: ' '$tmp/w.txt') -ge 5"
"$bin" verify --json --protocol $mut "$tmp/seed.litmus" >"$tmp/s.json"
check "JSON: the unsound outcome's trace ends with a step of P3" \
    jq -e '[.violations[] | select(.kind == "unsound" and .outcome["P3:r0"] == 1 and .outcome["P3:r1"] == 0)]
           | length == 1 and (.[0].trace | map(select(.thread == "P3")) | length) >= 3' "$tmp/s.json"

# Random tests made symmetric (a copy of P0's CTA on a fresh CTA), reduced
# against unreduced and against the axiomatic SC model (scripts/symmetry_difftest.sh).
check "symmetry difftest: 4 random tests with a copied CTA agree three ways" \
    bash scripts/symmetry_difftest.sh 4 11 "$bin"
