#!/usr/bin/env bash
# check_layers.sh [BUILD_DIR]: the dependency rules of docs/ARCHITECTURE.md.
#   1. a folder of src/ uses only what its row of `allowed` below names: by
#      #include, in every form that compiles (spaces or comments around the
#      '#', '%:', spliced lines, "..." and <...>, each resolved as the
#      compiler resolves it with -Isrc), and by calling a function or using
#      a variable that an object of another folder defines (nm over the
#      objects in BUILD_DIR, default build/obj, one per file of src/ and
#      tests/unit/, the latter in BUILD_DIR/unit/);
#   2. a project header is named by its path under src/ ("search/nsi.h",
#      not "nsi.h" or "../search/nsi.h"), so that rule 1 reads it;
#   3. DIR/internal.h is a contract between the files of DIR alone: nothing
#      else includes it, but for the exceptions of `internal_also`;
#   4. a unit-test folder tests/unit/F/ includes and calls only what F may,
#      F itself, its own helpers and tests/unit/*.h (but for `test_also`);
#   5. no circle between headers (#include), files (calls) or folders.
# Prints every breach and exits 1 if there is one; exits 2, saying why, when
# it cannot check (an object missing or older than its source).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
objdir=${1:-build/obj}
export LC_ALL=C

# Folder -> what it may use besides itself: a folder (all of it, subfolders
# included) or one header.  A function another folder's x.c defines counts
# as its header x.h.  Rows for folders not yet in src/ are plans: harmless.
declare -A allowed=(
    [base]=""
    [litmus]="base"
    [cat]="base"
    [enumerate]="base litmus cat"
    [search]="base"
    [schedule]="base search/nsi.h"
    [protocol]="base litmus search/nsi.h"
    [report]="base litmus cat enumerate"
    [verify]="base litmus cat enumerate search schedule protocol report"
    [draw]="base litmus cat enumerate search protocol verify report"
    [gen]="base litmus"
    [sim]="base"
    # draw/ is a plugin the program opens on demand (draw/plugin.h): the
    # commands reach it through the plugin's table alone
    [cli]="base litmus cat enumerate search schedule protocol report verify draw/plugin.h draw/graph_input.h gen"
)
# internal.h -> the other folders whose files may include it.  The C
# dialect compiles its thread bodies with the OpenCL front end's statement
# and expression modules, through two hooks of the OpenCL parser state.
declare -A internal_also=(
    [litmus/opencl/internal.h]="litmus/c"
)
# unit test -> what it may use beyond its folder's row (entries as in
# `allowed`, or another unit-test folder's helper by its path).
declare -A test_also=(
    # both check a front end's output by its outcomes: they run the
    # parsed test through the enumerator under a model
    [tests/unit/litmus/test_print.c]="cat enumerate"
    [tests/unit/litmus/test_litmus_c.c]="cat enumerate"
    # a generated or shrunk test must keep its verdict under sc.cat
    [tests/unit/gen/test_gen.c]="cat enumerate"
    # the synthetic next-state model of the back ends' tests drives the
    # scheduler wrapper's tests too, searched by those back ends
    [tests/unit/schedule/test_sched.c]="tests/unit/search/toy_model.h search/bfs.h search/fair_cycle.h"
)

status=0
breach() { echo "check_layers: $*"; status=1; }

# may_use FOLDER PATH: PATH (under src/) is FOLDER's own or on its row.
may_use() {
    local e
    [ -n "$1" ] || return 1
    [ "${2%%/*}" = "$1" ] && return 0
    for e in ${allowed[$1]-}; do
        case $2 in "$e" | "$e"/*) return 0 ;; esac
    done
    return 1
}

# test_may_use FILE PATH: FILE, a unit test, is excepted for PATH.
test_may_use() {
    local e
    for e in ${test_also[$1]-}; do
        case $2 in "$e" | "$e"/*) return 0 ;; esac
    done
    return 1
}

# normalize PATH: $resolved is PATH without "." and "x/.." steps.
normalize() {
    local IFS=/ part steps=()
    for part in $1; do
        case $part in
        '' | .) ;;
        ..) [ ${#steps[@]} -gt 0 ] && unset 'steps[${#steps[@]}-1]' ;;
        *) steps+=("$part") ;;
        esac
    done
    resolved="${steps[*]}"
}

# includes FILE...: "file<TAB>line<TAB>form<TAB>name" for every #include
# directive (form q: "name", a: <name>, m: a macro), after splicing lines
# and removing comments, as the preprocessor reads them.
includes() {
    awk '
    FNR == 1 { incomment = 0 }
    {
        at = FNR; line = $0
        while (line ~ /\\$/ && (getline more) > 0) line = substr(line, 1, length(line) - 1) more
        out = ""
        while (line != "") {
            if (incomment) {
                p = index(line, "*/")
                if (!p) { line = ""; break }
                line = substr(line, p + 2); incomment = 0; out = out " "; continue
            }
            if (!match(line, /\/\*|\/\/|"|\047/)) { out = out line; break }
            out = out substr(line, 1, RSTART - 1); tok = substr(line, RSTART, RLENGTH)
            line = substr(line, RSTART + RLENGTH)
            if (tok == "/*") { incomment = 1; out = out " "; continue }
            if (tok == "//") break
            lit = tok
            while (line != "") {
                c = substr(line, 1, 1); line = substr(line, 2); lit = lit c
                if (c == "\\") { lit = lit substr(line, 1, 1); line = substr(line, 2) }
                else if (c == tok) break
            }
            out = out lit
        }
        if (!match(out, /^[ \t\f\v]*(#|%:|\?\?=)[ \t\f\v]*(include_next|include|import)/)) next
        rest = substr(out, RLENGTH + 1)
        if (rest ~ /^[A-Za-z0-9_]/) next
        sub(/^[ \t\f\v]+/, "", rest)
        if (match(rest, /^"[^"]*"/)) print FILENAME "\t" at "\tq\t" substr(rest, 2, RLENGTH - 2)
        else if (match(rest, /^<[^>]*>/)) print FILENAME "\t" at "\ta\t" substr(rest, 2, RLENGTH - 2)
        else print FILENAME "\t" at "\tm\t" rest
    }' "$@"
}

# resolve FILE FORM NAME: $resolved is the file the compiler would open,
# relative to the root ("" for a system header).  A name under a folder of
# src/ that does not exist still counts as that folder's (it would not
# compile anyway).
resolve() {
    local file=$1 form=$2 name=$3 dirs=() d
    [ "$form" = q ] && dirs+=("${file%/*}")
    dirs+=(src)
    case $file in tests/unit/*) dirs+=(tests/unit) ;; esac
    for d in "${dirs[@]}"; do
        [ -f "$d/$name" ] && { normalize "$d/$name"; return; }
    done
    resolved=""
    case $name in */*) [ -d "src/${name%%/*}" ] && normalize "src/$name" ;; esac
}

folder_edges=$(mktemp); file_edges=$(mktemp); header_edges=$(mktemp)
trap 'rm -f "$folder_edges" "$file_edges" "$header_edges"' EXIT

# check_include FILE LINE FORM NAME FOLDER: rules 1 to 4 for one directive
# of FILE, a file of src/FOLDER or tests/unit/FOLDER.
check_include() {
    local f=$1 at=$2 form=$3 name=$4 from=$5 r p to written
    if [ "$form" = m ]; then
        breach "$f:$at: #include $name: a computed include; name the header"
        return
    fi
    [ "$form" = q ] && written="\"$name\"" || written="<$name>"
    resolve "$f" "$form" "$name"
    r=$resolved
    case $r in
    '') return ;;
    src/*) ;;
    tests/unit/*)
        case $f in tests/unit/*) ;; *) breach "$f:$at: includes $written, a unit test's header"; return ;; esac
        [ "${r%/*}" = tests/unit ] && return
        [ -n "$from" ] && case $r in tests/unit/"$from"/*) return ;; esac
        test_may_use "$f" "$r" && return
        breach "$f:$at: includes $written: a unit test includes only its own folder's helpers and tests/unit/*.h"
        return ;;
    *) breach "$f:$at: includes $written, $r, outside src/"; return ;;
    esac
    p=${r#src/}
    to=${p%%/*}
    [ "$form" = q ] && [ "$name" = "$p" ] ||
        breach "$f:$at: includes $written: write it as \"$p\", its path under src/"
    if [ "${p##*/}" = internal.h ]; then
        local owner=${p%/*} dir=${f%/*} ok=0 also
        [ "$dir" = "src/$owner" ] && ok=1
        for also in ${internal_also[$p]-}; do [ "$dir" = "src/$also" ] && ok=1; done
        [ $ok -eq 1 ] ||
            breach "$f:$at: includes \"$p\": only the files of src/$owner/ include it${internal_also[$p]+ (and of ${internal_also[$p]})}"
    fi
    case $f in
    src/*)
        echo "$r $f" >>"$header_edges"
        [ "$to" != "$from" ] && echo "$to $from" >>"$folder_edges" ;;
    esac
    may_use "$from" "$p" && return
    test_may_use "$f" "$p" && return
    if [ -n "$from" ]; then
        breach "$f:$at: includes \"$p\": $from/ may include only: ${allowed[$from]:-nothing}"
    else
        breach "$f:$at: includes \"$p\": tests/unit/ itself includes only its helpers"
    fi
}

# folder_of FILE: $from is the folder whose row FILE obeys, a folder of
# src/ for src/F/... and tests/unit/F/..., "" for tests/unit/*; fails if
# that folder has no row.
folder_of() {
    case $1 in
    src/*) from=${1#src/} ;;
    tests/unit/*/*) from=${1#tests/unit/} ;;
    *) from=""; return 0 ;;
    esac
    from=${from%%/*}
    [ -n "${allowed[$from]+set}" ]
}

# Every file of src/ and tests/unit/ is in a folder with a row.
mapfile -t sources < <(find src tests/unit -type f 2>/dev/null | sort)
declare -A no_row=()
for f in "${sources[@]}"; do
    folder_of "$f" && continue
    [ -n "${no_row[$from]-}" ] || breach "$f: folder '$from' has no row in scripts/check_layers.sh"
    no_row[$from]=1
done

# Rules 1 to 4: the includes of src/ and tests/unit/.
mapfile -t sources < <(find src tests/unit -name '*.[ch]' 2>/dev/null | sort)
while IFS=$'\t' read -r f at form name; do
    folder_of "$f" || continue
    check_include "$f" "$at" "$form" "$name" "$from"
done < <(includes "${sources[@]}")

# Rules 1 and 4 by calls: one object per file of src/ and tests/unit/, none
# older than its source.
cannot=0
mapfile -t csources < <(find src tests/unit -name '*.c' 2>/dev/null | sort)
if [ ! -d "$objdir" ]; then
    echo "check_layers: no object folder $objdir (build first: make check-layers does)"
    csources=()
fi
objects=()
for c in "${csources[@]}"; do
    case $c in
    src/*) o=$objdir/${c#src/} ;;
    *) o=$objdir/unit/${c#tests/unit/} ;;
    esac
    o=${o%.c}.o
    if [ ! -f "$o" ]; then
        echo "check_layers: $c has no object $o (build first: make check-layers does; is its folder in the Makefile?)"
        cannot=1
    elif [ "$c" -nt "$o" ]; then
        echo "check_layers: $o is older than $c (build first: make check-layers does)"
        cannot=1
    else
        objects+=("$o")
    fi
done
[ ${#objects[@]} -gt 0 ] || cannot=1
if [ $cannot -eq 0 ]; then
    # nm -A prints "OBJECT:ADDRESS TYPE SYMBOL", or "OBJECT:  U SYMBOL"
    nm_fields='{ i = index($0, ":"); n = split(substr($0, i + 1), w, " ")
                 if (kind == "U" || w[n - 1] ~ /^[TDBRVWGS]$/) print kind, substr($0, 1, i - 1), w[n] }'
    # "caller definer symbol" for every symbol an object uses from another
    while read -r caller definer sym; do
        case $definer in "$objdir"/unit/*) continue ;; esac    # tests call tests
        d=src/${definer#"$objdir"/}; d=${d%.o}.c
        dpath=${d#src/}
        to=${dpath%%/*}
        case $caller in
        "$objdir"/unit/*)
            c=tests/unit/${caller#"$objdir"/unit/}; c=${c%.o}.c
            folder_of "$c" || continue
            may_use "$from" "$dpath" || may_use "$from" "${dpath%.c}.h" ||
                test_may_use "$c" "$dpath" || test_may_use "$c" "${dpath%.c}.h" ||
                breach "$c uses $sym of $d: ${from:-tests/unit}/ may use only: ${from:+${allowed[$from]:-nothing}}"
            continue ;;
        esac
        c=src/${caller#"$objdir"/}; c=${c%.o}.c
        echo "$d $c" >>"$file_edges"
        folder_of "$c" || continue
        [ "$from" = "$to" ] && continue
        echo "$to $from" >>"$folder_edges"
        may_use "$from" "$dpath" || may_use "$from" "${dpath%.c}.h" ||
            breach "$c uses $sym of $d: $from/ may use only: ${allowed[$from]:-nothing}"
    done < <({ nm -A --defined-only -g "${objects[@]}" | awk -v kind=D "$nm_fields"
               nm -A -u "${objects[@]}" | awk -v kind=U "$nm_fields"; } |
             awk '$1 == "D" { if (!($3 in def)) def[$3] = $2; next }
                  ($3 in def) && def[$3] != $2 && !seen[$2 " " def[$3]]++ { print $2, def[$3], $3 }')
fi

for kind in folder header file; do
    edges_var=${kind}_edges
    if ! out=$(tsort "${!edges_var}" 2>&1 >/dev/null); then
        echo "check_layers: a circle between ${kind}s:"
        echo "$out" | grep -v "input contains a loop" | sed "s/^tsort: /  /"
        status=1
    fi
done
[ $cannot -eq 1 ] && { echo "check_layers: cannot check the calls between files; failing"; exit 2; }
[ $status -eq 0 ] && echo "check_layers: every dependency points down; no circles"
exit $status
