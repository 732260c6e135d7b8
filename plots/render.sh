#!/bin/sh
# render.sh — the recorded results (plots/results/*.csv) turned into PNGs and
# the README tables.  `make plots` and `make bench` call it; it needs no GPU.
#
#   plots/render.sh [RESULTS_DIR]                every plot and table (default plots/results)
#   plots/render.sh --timeline NN [RESULTS_DIR]  only plots/timeline_stepNN.png
#
# Per <gpu>.csv, plots/report.awk writes the tables and the plots' data (it
# reads columns, never labels); gnuplot draws <gpu>_{progression,gemm_tflops,
# gemm_ratio,stream_stages,stream_work}.png from them, each into a temporary
# file that replaces the committed PNG only when it was drawn.  Per
# timeline_stepNN.csv, plots/timeline.awk and timeline.gp draw
# timeline_stepNN.png.  Then the blocks between
#   <!-- BEGIN results KEY -->  and  <!-- END results KEY -->
# in README.md and step*/README.md are replaced (plots/splice.awk); keys:
# stream, gemm, stepNN, stepNN_tune, plots, progression, steps
# (plots/README.md).  The progression plot and the steps table show one
# revision: the newest with rows of every step they show (report.awk).
# Installs nothing: without gnuplot only the tables are written.
#
# Environment: PLOTS_OUT (default plots/), RESULTS_MD (default README.md
# step*/README.md), GNUPLOT (default gnuplot), COURSE_GPU (the results file,
# without .csv, the steps and progression keys show; default
# NVIDIA_H100_80GB_HBM3), TIMELINE_US (default 30 µs; 65 for step 09), TABLE_SHAPES (the GEMM
# table's shapes, MxNxK; default the shapes the course's goals name).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TL=""
if [ "${1:-}" = "--timeline" ]; then TL=$(printf %02d "$(expr "${2:?usage: $0 --timeline NN [RESULTS_DIR]}" + 0)"); shift 2; fi   # expr: 08 and 09 are not octal
RES=${1:-$HERE/results}
OUT=${PLOTS_OUT:-$HERE}
MD=${RESULTS_MD-README.md $(ls step*/README.md 2>/dev/null | tr '\n' ' ')}
GNUPLOT=${GNUPLOT:-gnuplot}
COURSE_GPU=${COURSE_GPU:-NVIDIA_H100_80GB_HBM3}
TABLE_SHAPES=${TABLE_SHAPES:-"4096x4096x4096 6144x6144x6144 8192x8192x8192 4096x14336x4096 4096x4096x14336 8192x14336x4096 8192x4096x14336 1024x1024x14336 2048x2048x2048 512x4096x4096"}
[ -d "$RES" ] || { echo "render.sh: no results folder $RES" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/render.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
HAVE_GP=0
command -v "$GNUPLOT" >/dev/null 2>&1 && HAVE_GP=1
mkdir -p "$OUT"
FAILED=0

# gp SCRIPT PNG ARGS...: draw into a temporary file, then replace PNG
gp() {
    script=$1 png=$2; shift 2
    [ "$HAVE_GP" = 1 ] || return 0
    n=$#
    for a in "$@"; do [ "$a" = -- ] && a=$T/new.png; set -- "$@" "$a"; done   # -- : where the PNG goes
    shift "$n"
    if "$GNUPLOT" -c "$HERE/$script" "$@" 2>"$T/gp.err" >/dev/null && [ -s "$T/new.png" ]; then
        mv "$T/new.png" "$png" && echo "  $png"
    else
        echo "render.sh: gnuplot $script failed; $png left as it was:" >&2
        sed 's/^/    /' "$T/gp.err" >&2
        FAILED=1
    fi
}

timeline() { # timeline CSV
    t=$(basename "$1" .csv); s=${t#timeline_step}
    nm=$(awk -F'\t' -v s="$s" '$1 == s { print " (" $4 ")" }' "$HERE/steps.tsv")
    w=30; [ "$s" = 09 ] && w=65   # step 09: the whole kernel (fixup at the end), not just its mainloop
    if awk -v us="${TIMELINE_US:-$w}" -v setup="$T/$t.setup" -f "$HERE/timeline.awk" "$1" >"$T/$t.dat"; then
        gp timeline.gp "$OUT/$t.png" "$T/$t.dat" "$T/$t.setup" -- "Step $s$nm timeline"
    else
        echo "render.sh: $1 has no records" >&2
    fi
}
if [ -n "$TL" ]; then timeline "$RES/timeline_step$TL.csv"; exit $FAILED; fi

for csv in "$RES"/*.csv; do
    g=$(basename "$csv" .csv)
    case $g in timeline_*) continue ;; esac
    mkdir -p "$T/$g"
    awk -v out="$T/$g" -v csv="plots/results/$g.csv" -v steps="$HERE/steps.tsv" -v shapes="$TABLE_SHAPES" \
        -f "$HERE/report.awk" "$csv" || { echo "render.sh: $csv: report.awk failed" >&2; exit 1; }
    echo "$csv"
    G=$(awk -F, 'NR > 1 && NF > 16 { g = $16 } END { print g }' "$csv")
    d=$T/$g
    [ -f "$d/progression.dat" ] && gp progression.gp "$OUT/${g}_progression.png" "$d/progression.dat" "$d/progression.setup" -- "$G"
    [ -f "$d/gemm_tflops.dat" ] && gp gemm_tflops.gp "$OUT/${g}_gemm_tflops.png" "$d/gemm_tflops.dat" -- "$G" "$(cat "$d/gemm_tflops.args")"
    [ -f "$d/gemm_ratio.dat" ] && gp gemm_ratio.gp "$OUT/${g}_gemm_ratio.png" "$d/gemm_ratio.dat" -- "$G" $(cat "$d/gemm_ratio.args")
    # shellcheck disable=SC2046  # the arguments are words
    [ -f "$d/stream_stages.dat" ] && gp stream_stages.gp "$OUT/${g}_stream_stages.png" "$d/stream_stages.dat" -- "$G" $(cat "$d/stream_stages.args")
    [ -f "$d/stream_work.dat" ] && gp stream_work.gp "$OUT/${g}_stream_work.png" "$d/stream_work.dat" -- "$G" "$(cat "$d/stream_work.args")"
    for k in stream gemm $(cd "$d" && ls step??.md step??_*.md 2>/dev/null | sed 's/\.md$//'); do
        [ -f "$d/$k.md" ] || continue
        [ -s "$T/$k.md" ] && echo >>"$T/$k.md"
        cat "$d/$k.md" >>"$T/$k.md"
    done
done
for t in "$RES"/timeline_step*.csv; do [ -f "$t" ] && timeline "$t"; done

# steps: one row per step folder, the course GPU's headline numbers
d=$T/$COURSE_GPU
{
    echo "| step | concept | hardware feature | measured | ratio to its reference |"
    echo "|---|---|---|---:|---:|"
    for dir in step[0-9]*_*/; do
        dir=${dir%/}; s=${dir#step}; s=${s%%_*}
        awk -F'\t' -v s="$s" -v dir="$dir" -v num="$d/steps.tsv" '
            BEGIN { m = "not measured yet"; r = ""; while ((getline l < num) > 0) { split(l, a, "\t"); if (a[1] == s) { m = a[2]; r = a[3] } } }
            $1 == s { c = $2; h = $3 }
            END { n = dir; sub(/^step/, "", n); sub(/_/, " ", n); printf "| [%s](%s/) | %s | %s | %s | %s |\n", n, dir, c, h, m, r }' "$HERE/steps.tsv"
    done
    [ -f "$d/steps.stamp" ] && printf '\n<sub>%s · GEMM at 4096³ · 8192³, the configuration the step chose, the median of its runs. Generated by make plots from plots/results/%s.csv; do not edit.</sub>\n' "$(cat "$d/steps.stamp")" "$COURSE_GPU"
} >"$T/steps.md"

# progression: the course GPU's plot; plots: every PNG there is (a step's README: its workload's and its timeline)
plots_md() { # plots_md REL STEP
    for png in "$OUT"/*_gemm_tflops.png "$OUT"/*_gemm_ratio.png "$OUT"/*_stream_stages.png "$OUT"/*_stream_work.png "$OUT"/timeline_step*.png; do
        [ -f "$png" ] || continue
        b=$(basename "$png" .png)
        case $2:$b in
        :*) ;;
        0[123]:*_stream_* | 0[4-9]:*_gemm_* | *:timeline_step$2) ;;
        *) continue ;;
        esac
        echo "![$b]($1/$b.png)"; echo
    done
}
for f in $MD; do
    [ -f "$f" ] || continue
    dir=$(dirname "$f"); rel=plots; s=""
    case $dir in step[0-9]*) rel=../plots; s=${dir#step}; s=${s%%_*} ;; esac
    plots_md "$rel" "$s" >"$T/plots.md"
    {
        echo "![$(echo "$COURSE_GPU" | tr _ ' '): every step's speed as a fraction of its reference (the streaming steps: the D2D copy; the GEMM steps: cuBLAS), measured interleaved in the same run]($rel/${COURSE_GPU}_progression.png)"
        others=$(for p in "$OUT"/*_progression.png; do b=$(basename "$p" _progression.png); [ "$b" = "$COURSE_GPU" ] || printf '[%s](%s/%s_progression.png), ' "$(echo "$b" | tr _ ' ')" "$rel" "$b"; done)
        echo; echo "<sub>The same plot on other GPUs: ${others%, }. Generated by make plots from plots/results/; do not edit.</sub>"
    } >"$T/progression.md"
    if awk -v dir="$T" -f "$HERE/splice.awk" "$f" >"$T/spliced"; then
        cmp -s "$T/spliced" "$f" || { cp "$T/spliced" "$f"; echo "  $f: tables updated"; }
    else
        echo "render.sh: $f: a BEGIN marker without its END; left as it was" >&2; FAILED=1
    fi
done
exit $FAILED
