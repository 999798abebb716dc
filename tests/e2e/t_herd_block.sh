#!/usr/bin/env bash
# End-to-end checks of herd7's block (issue 10 item 5): the Test line's kind
# (Allowed, Forbidden, Required), the condition printed as herd7 prints it,
# locations as [x], Flag lines before Condition, Time and Hash= last.
# Reference: herd7 itself (../shared/bench/herd7), run side by side on C
# tests with the same condition as a PTX test; skipped, with a message,
# when ../shared is absent.  herd7's hashes of C tests are checked in
# tests/unit/litmus/test_hash.c.  $1: the scopecheck binary.
set -u
. "$(dirname "$0")/lib.sh"
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
herd=../shared/bench/herd7/herd7

ptx_test() { # COND -> a PTX test with P1:r0, P1:r1, x, y and that condition
    printf 'PTX T\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n%s\n' "$1"
}
c_test() { # COND -> the same program in herd's C
    printf 'C T\n{ x = 0; y = 0; }\nP0 (atomic_int* x, atomic_int* y) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n  atomic_store_explicit(y, 1, memory_order_relaxed);\n}\nP1 (atomic_int* x, atomic_int* y) {\n  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n  int r1 = atomic_load_explicit(x, memory_order_relaxed);\n}\n%s\n' "$1"
}

conditions=(
    '~exists (1:r0=1 /\ 1:r1=0)'
    'exists ((1:r0=1 /\ 1:r1=0) /\ x=1)'
    'exists (1:r0=1 /\ (1:r1=0 /\ x=1))'
    'exists (1:r0=1 \/ 1:r1=0 /\ x=1)'
    'exists ((1:r0=1 \/ 1:r1=0) /\ x=1)'
    'exists (1:r0=1 /\ (1:r1=0 \/ x=1))'
    'exists ~(1:r0=0 \/ 1:r1=1)'
    'exists (1:r0 != 0 /\ x=1)'
    'forall (1:r0=0 \/ 1:r1=1)'
    'exists (true)'
    'forall y=1'
)
for cond in "${conditions[@]}"; do
    ptx_test "$cond" >"$tmp/p.litmus"
    "$bin" litmus "$tmp/p.litmus" >"$tmp/p.out" 2>&1
    mine_kind=$(sed -n 's/^Test T //p' "$tmp/p.out")
    mine_cond=$(grep '^Condition ' "$tmp/p.out")
    if [ -x "$herd" ]; then
        c_test "$cond" >"$tmp/c.litmus"
        "$herd" -model rc11.cat "$tmp/c.litmus" >"$tmp/c.out" 2>&1
        check "as herd7: Test kind of '$cond'" test "$mine_kind" = "$(sed -n 's/^Test T //p' "$tmp/c.out")"
        check "as herd7: Condition line of '$cond'" test "$mine_cond" = "$(grep '^Condition ' "$tmp/c.out")"
    fi
done
[ -x "$herd" ] || echo "t_herd_block: ../shared/bench/herd7 not found; the side-by-side checks were skipped"

# Without herd7 too: the forms themselves (herd7 7.58's, recorded by hand
# from its output on the C tests above).
ptx_test '~exists (P1:r0 == 1 /\ P1:r1 == 0)' >"$tmp/f.litmus"
"$bin" litmus "$tmp/f.litmus" >"$tmp/f.out"
check "~exists is Forbidden" grep -qx 'Test T Forbidden' "$tmp/f.out"
check "~exists condition printed as herd7" grep -qx 'Condition ~exists (1:r0=1 /\\ 1:r1=0)' "$tmp/f.out"
ptx_test 'exists ((P1:r0 == 1 /\ P1:r1 == 0) /\ x == 1)' >"$tmp/a.litmus"
check "a /\\ b /\\ c is not re-parenthesised" grep -qx 'Condition exists (1:r0=1 /\\ 1:r1=0 /\\ \[x\]=1)' <("$bin" litmus "$tmp/a.litmus")
check "locations are [x] in states" grep -qE '^1:r0=[01]; 1:r1=[01]; \[x\]=1;$' <("$bin" litmus "$tmp/a.litmus")
check "Time and Hash= close the block" bash -c "'$bin' litmus '$tmp/a.litmus' | grep -v '^\$' | tail -2 | tr '\n' ' ' | grep -qE '^Time T [0-9]+\.[0-9]{2} Hash=[0-9a-f]{32} \$'"
"$bin" litmus --model hrf-direct --races litmus/ptx/MP-weak.litmus >"$tmp/u.out"
check "Flag lines come before Condition, as herd7's" \
    bash -c "grep -nE '^(Flag|Condition) ' '$tmp/u.out' | cut -d: -f2 | cut -d' ' -f1 | tr '\n' ' ' | grep -qx 'Flag Condition '"
check "the JSON has the hash and the kind" \
    bash -c "'$bin' litmus --json '$tmp/f.litmus' | jq -e '(.hash | test(\"^[0-9a-f]{32}\$\")) and .kind == \"Forbidden\"' | grep -qx true"
check "the hash does not depend on layout or the condition's order" \
    bash -c "'$bin' litmus '$tmp/f.litmus' | grep -q ^Hash= && diff <('$bin' litmus '$tmp/f.litmus' | grep ^Hash) <(sed 's/ld.weak r0, y/ld.weak   r0,y/; s/P1:r0 == 1 \/\\\\ P1:r1 == 0/P1:r1 == 0 \/\\\\ P1:r0 == 1/' '$tmp/f.litmus' > '$tmp/g.litmus'; '$bin' litmus '$tmp/g.litmus' | grep ^Hash)"
exit 0
