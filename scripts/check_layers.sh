#!/usr/bin/env bash
# check_layers.sh [BUILD_DIR]: the dependency rules of docs/ARCHITECTURE.md.
#   1. a folder of src/ includes only the folders its row below allows;
#   2. no circle between headers (#include), between files (a function one
#      object file calls that another defines, from the objects in BUILD_DIR,
#      default build/obj) or between folders.
# Prints every breach and exits 1 if there is one.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
objdir=${1:-build/obj}

# folder -> folders it may include (itself always)
declare -A allowed=(
    [base]=""
    [litmus]="base"
    [cat]="base"
    [enumerate]="base litmus cat"
    [search]="base"
    [protocol]="base litmus search"
    [report]="base litmus cat enumerate"
    [gen]="base litmus"
    [sim]="base"
    [verify]="base litmus cat enumerate search protocol report"
    [draw]="base litmus cat enumerate search protocol verify report"
    [cli]="base litmus cat enumerate search protocol report verify draw gen"
)
status=0
top_folder() { local p=${1#src/}; echo "${p%%/*}"; }

folder_edges=$(mktemp); file_edges=$(mktemp); header_edges=$(mktemp)
trap 'rm -f "$folder_edges" "$file_edges" "$header_edges"' EXIT

while IFS= read -r f; do
    from=$(top_folder "$f")
    if [ -z "${allowed[$from]+set}" ]; then
        echo "check_layers: $f: folder '$from' has no row in scripts/check_layers.sh"
        status=1
        continue
    fi
    while IFS= read -r inc; do
        to=${inc%%/*}
        [ "$inc" = "$to" ] && { echo "check_layers: $f includes \"$inc\" without its folder"; status=1; continue; }
        echo "src/$inc $f" >>"$header_edges"
        [ "$to" = "$from" ] && continue
        echo "$to $from" >>"$folder_edges"
        case " ${allowed[$from]} " in
            *" $to "*) ;;
            *) echo "check_layers: $f includes \"$inc\": $from/ may include only: ${allowed[$from]:-nothing}"; status=1 ;;
        esac
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done < <(find src -name '*.[ch]' | sort)

# Function-level dependencies between object files: a file that calls
# another's function depends on it.
if [ -d "$objdir" ]; then
    defs=$(mktemp)
    for o in $(find "$objdir" -name '*.o' -not -path "*/unit/*" | sort); do
        nm --defined-only -g "$o" | awk -v o="$o" '$2 ~ /[TDBR]/ { print $3, o }'
    done | sort >"$defs"
    for o in $(find "$objdir" -name '*.o' -not -path "*/unit/*" | sort); do
        nm -u "$o" | awk '{ print $2 }' | sort | join - "$defs" | awk -v o="$o" '$2 != o { print $2, o }'
    done | sort -u >"$file_edges"
    rm -f "$defs"
else
    echo "check_layers: $objdir not built; file-level check skipped"
fi

for kind in folder header file; do
    edges_var=${kind}_edges
    if ! out=$(tsort "${!edges_var}" 2>&1 >/dev/null); then
        echo "check_layers: a circle between ${kind}s:"
        echo "$out" | grep -v "input contains a loop" | sed "s/^tsort: /  /"
        status=1
    fi
done
[ $status -eq 0 ] && echo "check_layers: every dependency points down; no circles"
exit $status
