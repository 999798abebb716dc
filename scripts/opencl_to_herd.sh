#!/usr/bin/env bash
# opencl_to_herd.sh FILE: print the OpenCL litmus test FILE in legacy herd's
# format, so that herd (../shared/bench/herd-legacy) can run the same test:
#   - header "OPENCL name" becomes "OpenCL name";
#   - thread placements "P1@wg 1, dev 0 (...)" (also cta/gpu) are dropped and
#     a scopeTree line built from them goes before the final condition
#     (devices in increasing order, each with its work groups in increasing
#     order; a thread without placement is in work group 0 of device 0);
#   - a file that already has a scopeTree keeps it;
#   - an unlabelled barrier statement gets the label "Bk:" (k counts the
#     barriers of its thread from 0), since herd matches barriers by label
#     and scopecheck matches the k-th barrier of each work-item.
# Everything else is copied.  Exit 2 on bad usage or an unreadable file.
set -u
if [ $# -ne 1 ] || [ ! -r "$1" ]; then
    echo "usage: opencl_to_herd.sh FILE.litmus" >&2
    exit 2
fi
awk '
function flush_tree(   d, w, line, ds, ws, nd, nw, i, j, t) {
    if (has_tree || emitted) return
    emitted = 1
    # devices and work groups in increasing order
    nd = 0
    for (t = 0; t < nthreads; t++) if (!(dev[t] in seen_dev)) { seen_dev[dev[t]] = 1; ds[nd++] = dev[t] }
    for (i = 1; i < nd; i++) for (j = i; j > 0 && ds[j-1] > ds[j]; j--) { x = ds[j]; ds[j] = ds[j-1]; ds[j-1] = x }
    line = "scopeTree\n"
    for (i = 0; i < nd; i++) {
        d = ds[i]; nw = 0; delete seen_wg
        for (t = 0; t < nthreads; t++) if (dev[t] == d && !(wg[t] in seen_wg)) { seen_wg[wg[t]] = 1; ws[nw++] = wg[t] }
        for (a = 1; a < nw; a++) for (b = a; b > 0 && ws[b-1] > ws[b]; b--) { x = ws[b]; ws[b] = ws[b-1]; ws[b-1] = x }
        line = line "(device"
        for (j = 0; j < nw; j++) {
            line = line " (work_group"
            for (t = 0; t < nthreads; t++) if (dev[t] == d && wg[t] == ws[j]) line = line " P" t
            line = line ")"
        }
        line = line ")" (i < nd - 1 ? " " : "")
    }
    print line
}
NR == 1 { sub(/^OPENCL/, "OpenCL"); print; next }
/^[ \t]*scopeTree/ { has_tree = 1 }
/^P[0-9]+[ \t]*(@|\()/ {
    match($0, /^P[0-9]+/); t = substr($0, 2, RLENGTH - 1) + 0
    w = 0; d = 0
    if (match($0, /^P[0-9]+[ \t]*@[^(]*/)) {
        place = substr($0, RSTART, RLENGTH)
        if (match(place, /(wg|cta)[ \t]*[0-9]+/)) { s = substr(place, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); w = s + 0 }
        if (match(place, /(dev|gpu)[ \t]*[0-9]+/)) { s = substr(place, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); d = s + 0 }
        sub(/@[^(]*/, " ")
    }
    wg[t] = w; dev[t] = d; if (t + 1 > nthreads) nthreads = t + 1
    nbar = 0
    print; next
}
/^[ \t]*(barrier|work_group_barrier)[ \t]*\(/ {
    match($0, /^[ \t]*/)
    $0 = substr($0, 1, RLENGTH) "B" nbar++ ": " substr($0, RLENGTH + 1)
}
/^[ \t]*(exists|~[ \t]*exists|forall|locations)/ { flush_tree() }
{ print }
' "$1"
