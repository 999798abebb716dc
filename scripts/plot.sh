#!/usr/bin/env bash
# plot.sh [--lines] [--title T] [--xlabel X] [--ylabel Y] TABLE.tsv OUT
# Draws a comparison with gnuplot (Debian package gnuplot-nox) as OUT.png
# and OUT.svg.  TABLE.tsv: a header line "label<TAB>series1<TAB>series2..."
# then one line per group ("label<TAB>value<TAB>value...").  Default:
# grouped bars, one group per line, one bar per series.  --lines: the
# labels are numbers (a sweep): one line per series.
set -eu
mode=bars title="" xlabel="" ylabel=""
while [ $# -gt 2 ]; do
    case $1 in
    --lines) mode=lines; shift ;;
    --title) title=$2; shift 2 ;;
    --xlabel) xlabel=$2; shift 2 ;;
    --ylabel) ylabel=$2; shift 2 ;;
    *) echo "plot.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ $# -ne 2 ]; then
    echo "usage: plot.sh [--lines] [--title T] [--xlabel X] [--ylabel Y] TABLE.tsv OUT" >&2
    exit 2
fi
table=$1 out=$2
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed (bash scripts/install-deps.sh)" >&2; exit 2; }
[ -r "$table" ] || { echo "plot.sh: cannot read $table" >&2; exit 2; }
series=$(head -n 1 "$table" | awk -F'\t' '{print NF - 1}')
[ "$series" -ge 1 ] || { echo "plot.sh: $table: the header needs a label column and at least one series" >&2; exit 2; }
quote() { printf '%s' "$1" | sed "s/'/''/g"; }
plot_cmd() {
    local i using=""
    for i in $(seq 2 $((series + 1))); do
        [ -n "$using" ] && using="$using, "
        if [ $mode = bars ]; then
            using="$using'$(quote "$table")' using $i:xtic(1) title columnheader($i)"
        else
            using="$using'$(quote "$table")' using 1:$i with linespoints lw 2 pt 7 title columnheader($i)"
        fi
    done
    printf 'plot %s\n' "$using"
}
script() { # TERMINAL OUTFILE
    cat <<GP
set terminal $1
set output '$(quote "$2")'
set datafile separator "\t"
set title '$(quote "$title")'
set xlabel '$(quote "$xlabel")'
set ylabel '$(quote "$ylabel")'
set key outside right top
set grid ytics
set yrange [0:*]
GP
    if [ $mode = bars ]; then
        printf 'set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\nset boxwidth 0.9\nset xtics rotate by -30\n'
    fi
    plot_cmd
}
script "pngcairo noenhanced size 900,500 font 'DejaVu Sans,10'" "$out.png" | gnuplot
script "svg noenhanced size 900,500 dynamic font 'DejaVu Sans,10'" "$out.svg" | gnuplot
echo "Wrote $out.png and $out.svg"
