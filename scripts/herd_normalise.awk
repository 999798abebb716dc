# herd_normalise.awk: herd7's (or scopecheck's herd-format) output blocks to
# one comparable line per test:
#     NAME<TAB>VERDICT<TAB>STATES<TAB>FLAGS<TAB>WITNESSES<TAB>OBSERVATION
# VERDICT is Ok, No or Undef, after herd's "Loop " when the loop bound cut
# executions (scopecheck prints it as herd7 does); STATES the
# final states, each with its terms sorted and written "t=v" in decimal
# (herd's hexadecimal and [x] brackets undone), the states sorted and joined
# by " | "; FLAGS the flag names, sorted, joined by ","; WITNESSES "P N" of
# the Witnesses line (herd7 counts the executions that validate the
# condition: ~exists swaps them); OBSERVATION "WORD P N".  Used by
# scripts/herd7_compare.sh and scripts/c11_herd_expected.sh.

function sort_array(a, n,    i, j, v) {
    for (i = 2; i <= n; i++) {
        v = a[i]
        for (j = i - 1; j >= 1 && a[j] > v; j--)
            a[j + 1] = a[j]
        a[j + 1] = v
    }
}

function hex_to_dec(s,    neg, v, i, c, d) {
    neg = substr(s, 1, 1) == "-"
    if (neg)
        s = substr(s, 2)
    if (s !~ /^0[xX]/)
        return (neg ? "-" : "") s
    v = 0
    for (i = 3; i <= length(s); i++) {
        c = tolower(substr(s, i, 1))
        d = index("0123456789abcdef", c) - 1
        v = v * 16 + d
    }
    return (neg ? "-" : "") sprintf("%.0f", v)
}

function canonical_state(line,    n, parts, i, t, eq, k, out) {
    delete terms
    gsub(/;[ \t]*$/, "", line)
    n = split(line, parts, /;[ \t]*/)
    k = 0
    for (i = 1; i <= n; i++) {
        t = parts[i]
        gsub(/^[ \t]+|[ \t]+$/, "", t)
        if (t == "")
            continue
        gsub(/[\[\]]/, "", t)
        eq = index(t, "=")
        terms[++k] = substr(t, 1, eq - 1) "=" hex_to_dec(substr(t, eq + 1))
    }
    sort_array(terms, k)
    out = ""
    for (i = 1; i <= k; i++)
        out = out (i > 1 ? " " : "") terms[i]
    return out
}

function flush(    i, s, f) {
    if (name == "")
        return
    sort_array(states, nstates)
    s = ""
    for (i = 1; i <= nstates; i++)
        s = s (i > 1 ? " | " : "") states[i]
    sort_array(flags, nflags)
    f = ""
    for (i = 1; i <= nflags; i++)
        f = f (i > 1 ? "," : "") flags[i]
    print name "\t" verdict "\t" s "\t" f "\t" witnesses "\t" observation
    name = ""
}

/^Test / { flush(); name = $2; nstates = 0; nflags = 0; left = 0; verdict = "?"; witnesses = observation = ""; next }
name == "" { next }
/^States [0-9]+$/ { left = $2; next }
left > 0 { states[++nstates] = canonical_state($0); left--; next }
/^(Loop )?(Ok|No|Undef|Unknown)$/ { verdict = $0; next }
/^Flag / { flags[++nflags] = $2; next }
/^Positive: [0-9]+ Negative: [0-9]+$/ { witnesses = $2 " " $4; next }
/^Observation / { observation = $3 " " $4 " " $5; next }
END { flush() }
