#!/bin/sh
# render.sh — turn the recorded results into plots and README tables
# (README.md, "Results" and "How the numbers were measured"; plots/README.md
# says how rows are picked).  `make plots` runs it.
#
#   plots/render.sh [RESULTS_DIR]              everything (default plots/results)
#   plots/render.sh --timeline NN [RESULTS_DIR]  only plots/timeline_stepNN.png
#
# For every RESULTS_DIR/<gpu>.csv (rows with the same key step, variant, m, n,
# k, n_elems, work, stages: the last one wins; '#' lines ignored) it renders
#   <gpu>_progression.png   every step's ratio to its reference: 01-03 vs the
#                           D2D copy at the default work and stages, 04-07 vs
#                           cuBLAS at 4096^3 and 8192^3
#   <gpu>_gemm_tflops.png   TFLOP/s vs M=N=K per GEMM step, with cuBLAS
#   <gpu>_gemm_ratio.png    ratio to cuBLAS at 4096^3 and 8192^3 per step (and
#                           per raster group of a --group sweep)
#   <gpu>_stream_stages.png step 03 GB/s vs stages, copy and steps 01/02 lines
#   <gpu>_stream_work.png   time vs work for steps 01-03 and the copy
# and for every RESULTS_DIR/timeline_stepNN.csv a Gantt chart
# timeline_stepNN.png.  A plot without data is not drawn (and a stale PNG of
# that name is removed).  Then it rewrites the text between
#   <!-- BEGIN results KEY -->  and  <!-- END results KEY -->
# in README.md and step*/README.md; KEY is stream, gemm, stepNN, plots,
# progression (the course GPU's progression plot) or steps (the table of steps:
# plots/steps.tsv plus the course GPU's headline numbers).
# Which rows: always the latest in the file (the bench appends).  A GEMM row
# whose variant ends in _groupN (the steps add it for --group N other than the
# default) belongs to the --group sweep, never to a step's headline numbers.
# Running it twice gives the same files.  Needs sh, awk (POSIX: mawk is fine)
# and gnuplot with the pngcairo terminal (without gnuplot only the tables are
# written).
#
# Environment:
#   PLOTS_OUT    where the PNGs go (default: the plots/ folder of this script)
#   RESULTS_MD   space-separated Markdown files to update (default README.md
#                and step*/README.md of the repository; set it empty to update
#                none)
#   TIMELINE_US  width of the timeline window in µs from the first record of
#                the first traced CTA (default 30)
#   GNUPLOT      the gnuplot command (default gnuplot)
#   COURSE_GPU   the results file (name without .csv) whose rows the progression
#                and steps keys show (default NVIDIA_H100_80GB_HBM3; if it has no
#                rows: the file covering the most steps)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
TAB=$(printf '\t')

ONLY_TIMELINE=""
if [ "${1:-}" = "--timeline" ]; then
    [ $# -ge 2 ] || { echo "usage: $0 --timeline NN [RESULTS_DIR]" >&2; exit 2; }
    ONLY_TIMELINE=$2
    shift 2
fi
[ $# -le 1 ] || { echo "usage: $0 [--timeline NN] [RESULTS_DIR]" >&2; exit 2; }
RESULTS_DIR=${1:-$ROOT/plots/results}
PLOTS_OUT=${PLOTS_OUT:-$HERE}
TIMELINE_US=${TIMELINE_US:-30}
GNUPLOT=${GNUPLOT:-gnuplot}

if [ ! -d "$RESULTS_DIR" ]; then
    echo "render.sh: results directory '$RESULTS_DIR' does not exist" >&2
    exit 2
fi
RESULTS_DIR=$(cd "$RESULTS_DIR" && pwd)
mkdir -p "$PLOTS_OUT" || exit 2
PLOTS_OUT=$(cd "$PLOTS_OUT" && pwd)

# How the results folder is named in the tables' notes: relative to the
# repository when it is inside it.
case $RESULTS_DIR in
"$ROOT"/*) RESULTS_SHOWN=${RESULTS_DIR#"$ROOT"/} ;;
*) RESULTS_SHOWN=$RESULTS_DIR ;;
esac

HAVE_GNUPLOT=1
if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
    HAVE_GNUPLOT=0
    echo "render.sh: gnuplot not found: no PNGs rendered (install gnuplot-nox); tables only" >&2
fi

# The tile scheduler's default raster group (rows of a --group sweep carry
# _groupN in their variant; the default rows carry none).
DEFGROUP=$(sed -n 's/^#define GEMM_DEFAULT_GROUP \([0-9][0-9]*\).*/\1/p' "$ROOT/common/args.h" 2>/dev/null | head -n 1)

T=$(mktemp -d "${TMPDIR:-/tmp}/render.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
ERRORS=0

# ---------------------------------------------------------------------------
# dedup.awk: a results CSV -> its rows, last row of each key kept, as tab
# separated fields 1..20 of the CSV schema plus 21 = the row's line number.
cat >"$T/dedup.awk" <<'EOF'
BEGIN { FS = "," }
{ sub(/\r$/, "") }
/^[ \t]*#/ || /^[ \t]*$/ { next }
$1 == "step" { next }
NF < 20 {
    printf "render.sh: %s line %d: %d fields, expected 20; ignored\n", FILENAME, NR, NF > "/dev/stderr"
    next
}
{
    if ($1 ~ /^[0-9]$/) $1 = "0" $1
    key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6 SUBSEP $7 SUBSEP $8
    line = $1
    for (f = 2; f <= 20; f++) line = line "\t" $f
    row[key] = line
    at[key] = NR
}
END { for (key in row) print row[key] "\t" at[key] }
EOF

# ---------------------------------------------------------------------------
# analyze.awk: reads a deduplicated file, prints what -v what=... asks for.
# Defaults chosen from the data (nothing about the steps is hard-coded but
# their names):
#   GEMM step s: DST[s]  = its most common stages value among M=N=K rows
#   streaming:   W0      = the most common work among step 03 rows (its
#                          stages sweep runs at the default work)
#                NE0     = the most common n_elems at W0
#                SDST[s] = most common stages of step s; for step 03 the most
#                          common stages of its rows at work != W0 (the work sweep)
# Ties go to the value seen last in the file (the most recent run).
cat >"$T/analyze.awk" <<'EOF'
BEGIN { FS = "\t" }
{
    nrow++
    S[nrow] = $1; V[nrow] = $2; M[nrow] = $3; N[nrow] = $4; K[nrow] = $5
    NE[nrow] = $6; W[nrow] = $7; ST[nrow] = $8; MS[nrow] = $9; TF[nrow] = $10
    GB[nrow] = $11; RN[nrow] = $12; RV[nrow] = $13; RR[nrow] = $14; RE[nrow] = $15
    G[nrow] = $16; CLK[nrow] = $17; CU[nrow] = $18; REV[nrow] = $19; DT[nrow] = $20
    L[nrow] = $21 + 0
    # A variant label ending in _groupN (+exact) is a run at a non-default
    # raster group (the step appends it for --group N != its default): VG =
    # N, "" for the default configuration.  +exact rows are correctness runs.
    v = $2; EX[nrow] = sub(/\+exact$/, "", v)
    VG[nrow] = match(v, /_group[0-9]+$/) ? substr(v, RSTART + 6) + 0 : ""
}

function isgemm(i) { return M[i] != "" && N[i] != "" && K[i] != "" && TF[i] != "" && MS[i] != "" && !EX[i] }
# a GEMM row of the step's default configuration (not a --group sweep row)
function isgd(i) { return isgemm(i) && VG[i] == "" }
function isstream(i) { return !isgemm(i) && W[i] != "" && GB[i] != "" && MS[i] != "" }
function issq(i) { return M[i] == N[i] && N[i] == K[i] }

# --- most common value (ties: the one whose latest row is latest) ---
function mreset() { split("", mc); split("", ml) }
function madd(v, l) { mc[v]++; if (!(v in ml) || l > ml[v]) ml[v] = l }
function mget(   v, b) {
    b = ""
    for (v in mc)
        if (b == "" || mc[v] > mc[b] || (mc[v] == mc[b] && ml[v] > ml[b])) b = v
    return b
}

# --- small sorts (insertion sort; a few dozen items) ---
function sortnum(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
function sortstr(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] "" > t ""; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
# row order inside a table: squares by size, then other shapes by m, n, k;
# streaming rows by work then stages
function before(i, j) {
    if (isgemm(i)) {
        if (issq(i) != issq(j)) return issq(i)
        if (M[i] + 0 != M[j] + 0) return M[i] + 0 < M[j] + 0
        if (N[i] + 0 != N[j] + 0) return N[i] + 0 < N[j] + 0
        if (K[i] + 0 != K[j] + 0) return K[i] + 0 < K[j] + 0
        return ST[i] + 0 < ST[j] + 0
    }
    if (W[i] + 0 != W[j] + 0) return W[i] + 0 < W[j] + 0
    return ST[i] + 0 < ST[j] + 0
}
function sortrows(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && before(t, a[j]); j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}

# --- the defaults ---
function setup(   i, s, n, seen) {
    split("", seen); NGS = 0
    for (i = 1; i <= nrow; i++) if (isgemm(i) && !((S[i], "g") in seen)) { seen[S[i], "g"] = 1; GS[++NGS] = S[i] }
    sortstr(GS, NGS)
    NSS = 0
    for (i = 1; i <= nrow; i++) if (isstream(i) && !((S[i], "s") in seen)) { seen[S[i], "s"] = 1; SS[++NSS] = S[i] }
    sortstr(SS, NSS)
    for (n = 1; n <= NGS; n++) {
        s = GS[n]
        mreset()
        for (i = 1; i <= nrow; i++) if (S[i] == s && isgd(i) && issq(i)) madd(ST[i], L[i])
        DST[s] = mget()
        if (DST[s] == "") {
            mreset()
            for (i = 1; i <= nrow; i++) if (S[i] == s && isgd(i)) madd(ST[i], L[i])
            DST[s] = mget()
        }
    }
    mreset()
    for (i = 1; i <= nrow; i++) if (S[i] == "03" && isstream(i)) madd(W[i], L[i])
    W0 = mget()
    if (W0 == "") {
        mreset()
        for (i = 1; i <= nrow; i++) if (isstream(i)) madd(W[i], L[i])
        W0 = mget()
    }
    mreset()
    for (i = 1; i <= nrow; i++) if (isstream(i) && W[i] == W0) madd(NE[i], L[i])
    NE0 = mget()
    for (n = 1; n <= NSS; n++) {
        s = SS[n]
        mreset()
        for (i = 1; i <= nrow; i++) if (S[i] == s && isstream(i) && (s != "03" || W[i] != W0)) madd(ST[i], L[i])
        SDST[s] = mget()
        if (SDST[s] == "") {
            mreset()
            for (i = 1; i <= nrow; i++) if (S[i] == s && isstream(i)) madd(ST[i], L[i])
            if ("4" in mc) SDST[s] = "4"; else SDST[s] = mget()
        }
    }
    last = 0
    for (i = 1; i <= nrow; i++) if (!last || L[i] > L[last]) last = i
    GPU = last ? G[last] : ""
}

# latest GEMM row of step s's default configuration at m x n x k with stages
# st ("" = any)
function pickg(s, m, n, k, st,   i, b) {
    b = 0
    for (i = 1; i <= nrow; i++)
        if (S[i] == s && isgd(i) && M[i] + 0 == m && N[i] + 0 == n && K[i] + 0 == k && (st == "" || ST[i] == st) && (b == 0 || L[i] > L[b]))
            b = i
    return b
}
# latest GEMM row of step s at raster group g (a --group sweep row) at
# m x n x k, at the step's default stages if there is one
function pickgg(s, m, n, k, g,   i, b, pass) {
    for (pass = 1; pass <= 2; pass++) {
        b = 0
        for (i = 1; i <= nrow; i++)
            if (S[i] == s && isgemm(i) && VG[i] "" == g "" && M[i] + 0 == m && N[i] + 0 == n && K[i] + 0 == k && (pass == 2 || ST[i] == DST[s]) && (b == 0 || L[i] > L[b]))
                b = i
        if (b) return b
    }
    return 0
}
# the raster groups of step s's --group sweep rows, ascending, into a[]
function sgroups(s, a,   i, n, seen) {
    n = 0
    for (i = 1; i <= nrow; i++) if (S[i] == s && isgemm(i) && VG[i] != "" && !(VG[i] in seen)) { seen[VG[i]] = 1; a[++n] = VG[i] }
    sortnum(a, n)
    return n
}
function glabel(g) { return g == "" ? (defgroup == "" ? "default" : defgroup " (default)") : g }
# latest streaming row of step s at work w, stages st ("" = any), n_elems NE0 if there is one
function picks(s, w, st,   i, b, pass) {
    for (pass = 1; pass <= 2; pass++) {
        b = 0
        for (i = 1; i <= nrow; i++)
            if (S[i] == s && isstream(i) && W[i] == w && (st == "" || ST[i] == st) && (pass == 2 || NE[i] == NE0) && (b == 0 || L[i] > L[b]))
                b = i
        if (b) return b
    }
    return 0
}
# is row i the latest of its (step, shape or work, n_elems, stages, raster
# group)?  Rows that differ only by variant label (a renamed tile
# configuration) show once, the latest.
function latest(i,   j) {
    for (j = 1; j <= nrow; j++)
        if (S[j] == S[i] && VG[j] == VG[i] && ST[j] == ST[i] && M[j] == M[i] && N[j] == N[i] && K[j] == K[i] && W[j] == W[i] && NE[j] == NE[i] && L[j] > L[i])
            return 0
    return 1
}
function ratio(i) {
    if (RR[i] != "") return RR[i] + 0
    if (isgemm(i) && RV[i] + 0 > 0) return TF[i] / RV[i]
    if (RV[i] + 0 > 0) return GB[i] / RV[i]
    return ""
}

function stepname(s) {
    if (s == "01") return "sync hand-off"
    if (s == "02") return "async, 1 slot"
    if (s == "03") return "staged pipeline"
    if (s == "04") return "cp.async multistage"
    if (s == "05") return "TMA + WGMMA"
    if (s == "06") return "persistent"
    if (s == "07") return "pingpong"
    return ""
}
function steplabel(s,   n) { n = stepname(s); return n == "" ? "step " s : "step " s " " n }
function shape(m, n, k) { return (m == n && n == k) ? m "³" : m "×" n "×" k }
function f(v, fmt) { return v == "" ? "–" : sprintf(fmt, v) }
# times: 3 significant digits below 1 ms (a 512³ GEMM takes under a µs), else 3 decimals
function fms(v) { return v == "" ? "–" : (v + 0 >= 1 ? sprintf("%.3f", v) : (v + 0 >= 0.0001 ? sprintf("%#.3g", v) : sprintf("%.2e", v))) }
function dash(v) { return v == "" ? "–" : v }
function nan(v, fmt) { return v == "" ? "NaN" : sprintf(fmt, v) }

# --- provenance of the rows of one table ---
function ureset() { split("", used); split("", revs); DMIN = ""; DMAX = "" }
function use(i,   d) {
    used[i] = 1
    d = substr(DT[i], 1, 10)
    if (d != "") {
        if (DMIN == "" || d < DMIN) DMIN = d
        if (DMAX == "" || d > DMAX) DMAX = d
    }
    revs[REV[i] == "" ? "unknown" : REV[i]] = 1
}
function provenance(extra,   r, a, n, i, s, d) {
    n = 0
    for (r in revs) a[++n] = r
    sortstr(a, n)
    s = ""
    for (i = 1; i <= n; i++) s = s (i > 1 ? ", " : "") "`" a[i] "`"
    d = DMIN == DMAX ? DMIN : DMIN " to " DMAX
    if (d == "") d = "unknown"
    return "**" GPU "** · rows dated " d " · git rev " s (extra == "" ? "" : " · " extra)
}
function footer() { return "<sub>generated by make plots from " src "; do not edit</sub>" }

# --- Markdown tables: the rows are buffered so the provenance line goes first ---
function stream_row(i, label) {
    use(i)
    return "| " label " | " dash(ST[i]) " | " fms(MS[i]) " | " f(GB[i], "%.0f") " | " f(RV[i], "%.0f") " | " f(ratio(i), "%.2f") " |"
}
function md_stream(   n, s, i, b, t, out) {
    ureset(); out = ""
    for (n = 1; n <= NSS; n++) {
        s = SS[n]
        i = picks(s, W0, SDST[s])
        if (i) out = out stream_row(i, steplabel(s)) "\n"
    }
    b = 0
    for (i = 1; i <= nrow; i++)
        if (S[i] == "03" && isstream(i) && W[i] == W0 && NE[i] == NE0 && (b == 0 || GB[i] + 0 > GB[b] + 0)) b = i
    if (b) out = out stream_row(b, "step 03, best stages") "\n"
    if (out == "") return
    print provenance("work = " W0 " FMAs per element, n = " NE0 " floats")
    print ""
    print "| step | stages | ms | GB/s | copy GB/s | ratio to copy |"
    print "|---|---:|---:|---:|---:|---:|"
    printf "%s", out
    print ""
    print footer()
}
function gemm_row(i, withstep, suffix) {
    use(i)
    return "| " (withstep ? steplabel(S[i]) suffix " | " : "") shape(M[i], N[i], K[i]) " | " dash(ST[i]) " | " fms(MS[i]) " | " f(TF[i], "%.1f") " | " f(RV[i], "%.1f") " | " f(ratio(i), "%.3f") " |"
}
function md_gemm(   n, s, i, j, nsh, sh, out, p, ng, gl, g) {
    ureset(); out = ""
    nsh = split("4096x4096x4096 8192x8192x8192 1024x1024x14336 4096x14336x4096 4096x4096x14336", sh, " ")
    for (n = 1; n <= NGS; n++) {
        s = GS[n]
        for (j = 1; j <= nsh; j++) {
            split(sh[j], p, "x")
            i = pickg(s, p[1], p[2], p[3], DST[s])
            if (!i) i = pickg(s, p[1], p[2], p[3], "")
            if (i) out = out gemm_row(i, 1) "\n"
        }
        # the --group sweep: the same shapes at other raster group sizes
        ng = sgroups(s, gl)
        for (g = 1; g <= ng; g++)
            for (j = 1; j <= nsh; j++) {
                split(sh[j], p, "x")
                i = pickgg(s, p[1], p[2], p[3], gl[g])
                if (i) out = out gemm_row(i, 1, ", group " gl[g]) "\n"
            }
    }
    if (out == "") return
    print provenance("bf16 in, fp32 accumulate, D = A·Bᵀ (TN)")
    print ""
    print "| step | M×N×K | stages | ms | TFLOP/s | cuBLAS TFLOP/s | ratio |"
    print "|---|---|---:|---:|---:|---:|---:|"
    printf "%s", out
    print ""
    print footer()
}
function md_step(s,   i, n, a, out1, out2, out3, cnt, keyc, k, shp, nd, ng, gl, g, j, seen) {
    ureset(); out1 = ""; out2 = ""; out3 = ""
    if ((s, "g") in isg) {
        n = 0
        for (i = 1; i <= nrow; i++) if (S[i] == s && isgd(i) && ST[i] == DST[s] && latest(i)) a[++n] = i
        sortrows(a, n)
        for (i = 1; i <= n; i++) out1 = out1 gemm_row(a[i], 0) "\n"
        # shapes run at more than one stages value: the stages sweep
        split("", cnt)
        for (i = 1; i <= nrow; i++) if (S[i] == s && isgd(i)) { k = M[i] "x" N[i] "x" K[i]; if (!((k, ST[i]) in keyc)) { keyc[k, ST[i]] = 1; cnt[k]++ } }
        n = 0
        for (i = 1; i <= nrow; i++) if (S[i] == s && isgd(i) && cnt[M[i] "x" N[i] "x" K[i]] > 1 && latest(i)) a[++n] = i
        sortrows(a, n)
        for (i = 1; i <= n; i++) out2 = out2 gemm_row(a[i], 0) "\n"
        # the --group sweep: each shape it ran, at the default group and the others
        ng = sgroups(s, gl)
        n = 0
        for (i = 1; i <= nrow; i++) if (S[i] == s && isgemm(i) && VG[i] != "" && !((M[i], N[i], K[i]) in seen)) { seen[M[i], N[i], K[i]] = 1; a[++n] = i }
        sortrows(a, n)
        for (j = 1; j <= n; j++) {
            i = pickg(s, M[a[j]], N[a[j]], K[a[j]], DST[s])
            if (i) out3 = out3 group_row(i) "\n"
            for (g = 1; g <= ng; g++) {
                i = pickgg(s, M[a[j]], N[a[j]], K[a[j]], gl[g])
                if (i) out3 = out3 group_row(i) "\n"
            }
        }
        if (out1 == "" && out2 == "" && out3 == "") return
        print provenance("")
        if (out1 != "") {
            print ""
            print DST[s] == "" ? "Sizes:" : "Sizes at " DST[s] " stage" (DST[s] == 1 ? "" : "s") ":"
            print ""
            print "| M×N×K | stages | ms | TFLOP/s | cuBLAS TFLOP/s | ratio |"
            print "|---|---:|---:|---:|---:|---:|"
            printf "%s", out1
        }
        if (out2 != "") {
            print ""
            print "Stages sweep:"
            print ""
            print "| M×N×K | stages | ms | TFLOP/s | cuBLAS TFLOP/s | ratio |"
            print "|---|---:|---:|---:|---:|---:|"
            printf "%s", out2
        }
        if (out3 != "") {
            print ""
            print "Raster group sweep (`--group`, tiles per group of the tile scheduler):"
            print ""
            print "| M×N×K | group | stages | ms | TFLOP/s | cuBLAS TFLOP/s | ratio |"
            print "|---|---:|---:|---:|---:|---:|---:|"
            printf "%s", out3
        }
        print ""
        print footer()
        return
    }
    if (!((s, "s") in iss)) return
    n = 0
    for (i = 1; i <= nrow; i++) if (S[i] == s && isstream(i) && ST[i] == SDST[s] && NE[i] == NE0 && latest(i)) a[++n] = i
    sortrows(a, n)
    for (i = 1; i <= n; i++) out1 = out1 swork_row(a[i]) "\n"
    n = 0; split("", cnt)
    for (i = 1; i <= nrow; i++) if (S[i] == s && isstream(i) && W[i] == W0 && NE[i] == NE0 && latest(i)) { a[++n] = i; cnt[ST[i]] = 1 }
    nd = 0
    for (k in cnt) nd++
    if (nd > 1) {
        sortrows(a, n)
        for (i = 1; i <= n; i++) out2 = out2 swork_row(a[i]) "\n"
    }
    if (out1 == "" && out2 == "") return
    print provenance("n = " NE0 " floats")
    if (out1 != "") {
        print ""
        print SDST[s] == "" ? "Work sweep:" : "Work sweep at " SDST[s] " stage" (SDST[s] == 1 ? "" : "s") ":"
        print ""
        print "| work | stages | ms | GB/s | copy GB/s | ratio to copy | SM MHz |"
        print "|---:|---:|---:|---:|---:|---:|---:|"
        printf "%s", out1
    }
    if (out2 != "") {
        print ""
        print "Stages sweep at work = " W0 ":"
        print ""
        print "| work | stages | ms | GB/s | copy GB/s | ratio to copy | SM MHz |"
        print "|---:|---:|---:|---:|---:|---:|---:|"
        printf "%s", out2
    }
    print ""
    print footer()
}
function group_row(i) {
    use(i)
    return "| " shape(M[i], N[i], K[i]) " | " glabel(VG[i]) " | " dash(ST[i]) " | " fms(MS[i]) " | " f(TF[i], "%.1f") " | " f(RV[i], "%.1f") " | " f(ratio(i), "%.3f") " |"
}
function swork_row(i) {
    use(i)
    return "| " W[i] " | " dash(ST[i]) " | " fms(MS[i]) " | " f(GB[i], "%.0f") " | " f(RV[i], "%.0f") " | " f(ratio(i), "%.2f") " | " f(CLK[i], "%.0f") " |"
}

# --- plot data ---
function gemm_sizes(sz,   i, n, seen, g) {
    n = 0
    for (i = 1; i <= nrow; i++)
        if (isgd(i) && issq(i) && ST[i] == DST[S[i]] && !(M[i] in seen)) { seen[M[i]] = 1; sz[++n] = M[i] }
    sortnum(sz, n)
    return n
}
function gemm_plot_steps(   n, s, i, out) {
    out = ""
    for (n = 1; n <= NGS; n++) {
        s = GS[n]
        for (i = 1; i <= nrow; i++) if (S[i] == s && isgd(i) && issq(i) && ST[i] == DST[s]) { out = out (out == "" ? "" : " ") s; break }
    }
    return out
}
function gemm_tflops(   sz, nsz, st, nst, j, n, i, line, c, cn) {
    nst = split(gemm_plot_steps(), st, " ")
    nsz = gemm_sizes(sz)
    if (!nst || !nsz) return
    line = "size"
    for (j = 1; j <= nst; j++) line = line "\t" steplabel(st[j]) (DST[st[j]] == "" ? "" : " (" DST[st[j]] " stages)")
    print line "\tcuBLAS"
    for (n = 1; n <= nsz; n++) {
        line = sz[n]; c = 0; cn = 0
        for (j = 1; j <= nst; j++) {
            i = pickg(st[j], sz[n], sz[n], sz[n], DST[st[j]])
            line = line "\t" (i ? nan(TF[i], "%.2f") : "NaN")
            if (i && RV[i] != "") { c += RV[i]; cn++ }
        }
        print line "\t" (cn ? sprintf("%.2f", c / cn) : "NaN")
    }
}
function ratio_line(label, i4, i8, h4, h8,   r4, r8, line) {
    r4 = i4 ? ratio(i4) : ""; r8 = i8 ? ratio(i8) : ""
    line = label
    if (h4) line = line "\t" (r4 == "" ? "NaN" : sprintf("%.3f", r4))
    if (h8) line = line "\t" (r8 == "" ? "NaN" : sprintf("%.3f", r8))
    return line
}
# one bar group per step (its default configuration), then one per raster
# group of its --group sweep ("step 06, group 1")
function gemm_ratio(   n, s, i4, i8, h4, h8, ng, gl, g) {
    # only the sizes some step has a row at
    for (n = 1; n <= NGS; n++) {
        if (pickg(GS[n], 4096, 4096, 4096, DST[GS[n]])) h4 = 1
        if (pickg(GS[n], 8192, 8192, 8192, DST[GS[n]])) h8 = 1
    }
    if (!h4 && !h8) return
    print "step" (h4 ? "\t4096³" : "") (h8 ? "\t8192³" : "")
    for (n = 1; n <= NGS; n++) {
        s = GS[n]
        i4 = pickg(s, 4096, 4096, 4096, DST[s]); i8 = pickg(s, 8192, 8192, 8192, DST[s])
        if (i4 || i8) print ratio_line("step " s, i4, i8, h4, h8)
        ng = sgroups(s, gl)
        for (g = 1; g <= ng; g++) {
            i4 = h4 ? pickgg(s, 4096, 4096, 4096, gl[g]) : 0; i8 = h8 ? pickgg(s, 8192, 8192, 8192, gl[g]) : 0
            if (i4 || i8) print ratio_line("step " s ", group " gl[g], i4, i8, h4, h8)
        }
    }
}
function median(a, n) { sortnum(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
# step 03's stages sweep, then a meta line: W0 copyGB/s step01GB/s step02GB/s
function stream_stages(   i, a, n, r, nr, copy, i1, i2) {
    n = 0
    for (i = 1; i <= nrow; i++) if (S[i] == "03" && isstream(i) && W[i] == W0 && NE[i] == NE0 && latest(i)) a[++n] = i
    if (!n) return
    sortrows(a, n)
    nr = 0
    for (i = 1; i <= n; i++) { print ST[a[i]] "\t" GB[a[i]]; if (RV[a[i]] != "") r[++nr] = RV[a[i]] }
    copy = nr ? median(r, nr) : ""
    i1 = picks("01", W0, SDST["01"]); i2 = picks("02", W0, SDST["02"])
    print "#meta\t" W0 "\t" nan(copy, "%.1f") "\t" (i1 ? GB[i1] : "NaN") "\t" (i2 ? GB[i2] : "NaN") "\t" NE0
}
function stream_plot_steps(   n, s, i, out) {
    out = ""
    for (n = 1; n <= NSS; n++) {
        s = SS[n]
        for (i = 1; i <= nrow; i++) if (S[i] == s && isstream(i) && ST[i] == SDST[s] && NE[i] == NE0) { out = out (out == "" ? "" : " ") s; break }
    }
    return out
}
function stream_work(   st, nst, i, j, n, ws, nws, seen, line, c, cn) {
    nst = split(stream_plot_steps(), st, " ")
    if (!nst) return
    nws = 0
    for (j = 1; j <= nst; j++)
        for (i = 1; i <= nrow; i++)
            if (S[i] == st[j] && isstream(i) && ST[i] == SDST[st[j]] && NE[i] == NE0 && !(W[i] in seen)) { seen[W[i]] = 1; ws[++nws] = W[i] }
    sortnum(ws, nws)
    line = "work"
    for (j = 1; j <= nst; j++) line = line "\t" steplabel(st[j]) (st[j] == "03" && SDST["03"] != "" ? " (" SDST["03"] " stages)" : "")
    print line "\tD2D copy (same bytes)"
    for (n = 1; n <= nws; n++) {
        line = ws[n]; c = 0; cn = 0
        for (j = 1; j <= nst; j++) {
            i = picks(st[j], ws[n], SDST[st[j]])
            line = line "\t" (i ? MS[i] : "NaN")
            # the copy moves the same bytes: its time is ms * GB/s / copy GB/s
            if (i && RV[i] + 0 > 0 && GB[i] != "") { c += MS[i] * GB[i] / RV[i]; cn++ }
        }
        print line "\t" (cn ? sprintf("%.6f", c / cn) : "NaN")
    }
}

# --- the course in one picture and one table: each step's headline row ---
# streaming step s: its row at the default work and stages (as md_stream)
function head_s(s) { return picks(s, W0, SDST[s]) }
# the steps with a headline row, in order, into a[]; kind[s] = "s" or "g"
function head_steps(a, kind,   n, m, i4, i8) {
    m = 0
    for (n = 1; n <= NSS; n++) if (head_s(SS[n])) { a[++m] = SS[n]; kind[SS[n]] = "s" }
    for (n = 1; n <= NGS; n++) {
        if (GS[n] in kind) continue
        i4 = pickg(GS[n], 4096, 4096, 4096, DST[GS[n]]); i8 = pickg(GS[n], 8192, 8192, 8192, DST[GS[n]])
        if (i4 || i8) { a[++m] = GS[n]; kind[GS[n]] = "g" }
    }
    sortstr(a, m)
    return m
}
# progression plot data: "#gp " lines (gnuplot settings), then per step
# x, ratio to the copy (steps 01-03), ratio to cuBLAS at 4096^3, at 8192^3
# (4 decimals: the plot's labels round to 2, and rounding twice can differ
# from the tables by one in the last digit)
function progression(   a, kind, m, j, s, i, i4, i8, r, r4, r8, tics, mx, ns, ng, sep, h4, h8, st, w) {
    m = head_steps(a, kind)
    if (!m) return
    tics = ""; mx = 1; ns = 0; ng = 0; sep = ""; h4 = 0; h8 = 0; st = ""
    for (j = 1; j <= m; j++) {
        s = a[j]
        tics = tics (j > 1 ? ", " : "") "\"step " s "\\n" stepname(s) "\" " j
        if (j > 1 && kind[s] != kind[a[j - 1]]) sep = j - 0.5
        if (kind[s] == "s") {
            ns++
            i = head_s(s); r = ratio(i)
            if (r != "" && r > mx) mx = r
            st = st (st == "" ? "" : ", ") s ": " ST[i]
            printf "%d\t%s\tNaN\tNaN\n", j, (r == "" ? "NaN" : sprintf("%.4f", r))
        } else {
            ng++
            i4 = pickg(s, 4096, 4096, 4096, DST[s]); i8 = pickg(s, 8192, 8192, 8192, DST[s])
            r4 = i4 ? ratio(i4) : ""; r8 = i8 ? ratio(i8) : ""
            if (r4 != "") { h4 = 1; if (r4 > mx) mx = r4 }
            if (r8 != "") { h8 = 1; if (r8 > mx) mx = r8 }
            printf "%d\tNaN\t%s\t%s\n", j, (r4 == "" ? "NaN" : sprintf("%.4f", r4)), (r8 == "" ? "NaN" : sprintf("%.4f", r8))
        }
    }
    printf "#gp set xtics (%s)\n", tics
    printf "#gp nsteps = %d; nstream = %d; ngemm = %d; has4096 = %d; has8192 = %d\n", m, ns, ng, h4, h8
    printf "#gp sep = %s; ymax = %.3f\n", (sep == "" ? "NaN" : sep), mx
    w = W0 == "" ? "" : "work " W0 ", "
    printf "#gp streamnote = \"%sstages %s\"\n", w, st
}
# the steps table of the course's front page: every step folder (folders =
# "NN dir NN dir ...") and every step with rows; concept and hardware
# feature from the file meta ("NN<tab>concept<tab>feature" lines)
function md_steps(   a, kind, m, j, s, i, i4, i8, all, n, seen, dir, nf, fl, line, concept, hw, num, rat, k) {
    ureset()
    m = head_steps(a, kind)
    n = 0
    nf = split(folders, fl, " ")
    for (j = 1; j + 1 <= nf; j += 2) { dir[fl[j]] = fl[j + 1]; if (!(fl[j] in seen)) { seen[fl[j]] = 1; all[++n] = fl[j] } }
    for (j = 1; j <= m; j++) if (!(a[j] in seen)) { seen[a[j]] = 1; all[++n] = a[j] }
    sortstr(all, n)
    if (!n) return
    if (meta != "") {
        while ((getline line < meta) > 0) {
            if (line ~ /^#/ || line !~ /\t/) continue
            k = split(line, fl, "\t")
            concept[fl[1]] = fl[2]; hw[fl[1]] = (k >= 3 ? fl[3] : "")
        }
        close(meta)
    }
    print "| step | concept | hardware feature | measured | ratio to its reference |"
    print "|---|---|---|---:|---:|"
    for (j = 1; j <= n; j++) {
        s = all[j]
        line = "| " (s in dir ? "[" s " " substr(dir[s], 8) "](" rel dir[s] "/)" : s) " | " dash(concept[s]) " | " dash(hw[s]) " | "
        if (kind[s] == "s") {
            i = head_s(s); use(i)
            num = f(GB[i], "%.0f") " GB/s"; rat = f(ratio(i), "%.2f") " of the copy"
        } else if (kind[s] == "g") {
            i4 = pickg(s, 4096, 4096, 4096, DST[s]); i8 = pickg(s, 8192, 8192, 8192, DST[s])
            if (i4) use(i4)
            if (i8) use(i8)
            num = (i4 ? f(TF[i4], "%.0f") : "–") " · " (i8 ? f(TF[i8], "%.0f") : "–") " TFLOP/s"
            rat = (i4 ? f(ratio(i4), "%.2f") : "–") " · " (i8 ? f(ratio(i8), "%.2f") : "–") " of cuBLAS"
        } else {
            num = "not measured yet"; rat = "–"
        }
        print line num " | " rat " |"
    }
    print ""
    if (!m) { print "<sub>No recorded results yet: run `make bench` on a GPU.</sub>"; return }
    k = ""
    for (j = 1; j <= m; j++) if (kind[a[j]] == "s") { k = "streaming at work = " W0 " FMAs per element, n = " NE0 " floats"; break }
    for (j = 1; j <= m; j++) if (kind[a[j]] == "g") { k = k (k == "" ? "" : "; ") "GEMM at 4096³ · 8192³"; break }
    print "<sub>" provenance(k "; default stages") ". Each ratio: the medians of the step and of its reference (D2D copy or cuBLAS), timed interleaved launch by launch in the same run. Generated by make plots from " src "; do not edit.</sub>"
}

END {
    setup()
    for (n = 1; n <= NGS; n++) isg[GS[n], "g"] = 1
    for (n = 1; n <= NSS; n++) iss[SS[n], "s"] = 1
    if (what == "gpu") print GPU
    else if (what == "gemm_steps") print gemm_plot_steps()
    else if (what == "gemm_tflops") gemm_tflops()
    else if (what == "gemm_ratio") gemm_ratio()
    else if (what == "stream_steps") print stream_plot_steps()
    else if (what == "stream_stages") stream_stages()
    else if (what == "stream_work") stream_work()
    else if (what == "md_stream") md_stream()
    else if (what == "md_gemm") md_gemm()
    else if (what == "md_step") md_step(step)
    else if (what == "progression") progression()
    else if (what == "md_steps") md_steps()
}
EOF

# ---------------------------------------------------------------------------
# timeline.awk: a --trace CSV -> data for plots/timeline.gp (to stdout) and a
# gnuplot setup file (-v setup=FILE): y tics, ranges, phases present.
# Data columns: x centre (µs), row, half width, half height, phase id.
cat >"$T/timeline.awk" <<'EOF'
BEGIN {
    FS = ","
    np = split("producer_acquire producer_load consumer_wait consumer_compute consumer_release epilogue", pn, " ")
    for (p = 1; p <= np; p++) pid[pn[p]] = p - 1
}
{ sub(/\r$/, "") }
/^[ \t]*#/ || /^[ \t]*$/ || $1 == "cta" || NF < 7 { next }
$6 !~ /^[0-9]+$/ || $7 !~ /^[0-9]+$/ { next }
{
    n++; C[n] = $1 + 0; U[n] = $2 + 0; KIND[n] = $3; PH[n] = ($5 in pid) ? pid[$5] : np
    T0[n] = $6 + 0; T1[n] = $7 + 0
    if (!(C[n] in seenc)) { seenc[C[n]] = 1; cl[++nc] = C[n] }
    if (!((C[n], U[n]) in seenu)) { seenu[C[n], U[n]] = 1; kind[C[n], U[n]] = $3 }
}
function sortnum(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
END {
    if (!n) exit 1
    sortnum(cl, nc)
    c0 = cl[1]
    for (c = 1; c <= nc; c++) if (cl[c] == 0) c0 = 0
    start = -1; last = 0
    for (i = 1; i <= n; i++) {
        if (C[i] == c0 && (start < 0 || T0[i] < start)) start = T0[i]
    }
    wend = start + us * 1000
    for (i = 1; i <= n; i++) if (T1[i] > last) last = T1[i]
    if (last < wend) wend = last
    if (wend <= start) wend = start + 1000
    # rows: CTAs in order, units in order, one empty row between CTAs
    row = 0; tics = ""; seps = ""
    for (c = 1; c <= nc; c++) {
        nu = 0; split("", ul)
        for (k in seenu) { split(k, kk, SUBSEP); if (kk[1] + 0 == cl[c]) ul[++nu] = kk[2] + 0 }
        sortnum(ul, nu)
        if (c > 1) { seps = seps " " (row - 1); }
        for (u = 1; u <= nu; u++) {
            Y[cl[c], ul[u]] = row
            kd = kind[cl[c], ul[u]] == "warpgroup" ? "WG" : kind[cl[c], ul[u]]
            tics = tics (tics == "" ? "" : ", ") "\"CTA " cl[c] " " kd " " ul[u] "\" " row
            row++
        }
        row++
    }
    rows = row - 2      # the last unit's row (row ends one past the gap after it)
    minw = (wend - start) / 1000 / 3000
    for (i = 1; i <= n; i++) {
        a = T0[i]; b = T1[i]
        if (b < start || a > wend) continue
        if (a < start) a = start
        if (b > wend) b = wend
        hw = (b - a) / 2000
        if (hw < minw) hw = minw
        printf "%.4f\t%d\t%.4f\t0.38\t%d\n", (a + b) / 2000 - start / 1000, Y[C[i], U[i]], hw, PH[i]
        has[PH[i]] = 1
    }
    present = ""
    for (p = 0; p <= np; p++) if (p in has) present = present (present == "" ? "" : " ") p
    printf "set ytics (%s)\n", tics > setup
    printf "set yrange [%g:%g]\n", rows + 0.7, -0.7 > setup
    printf "set xrange [0:%g]\n", (wend - start) / 1000 > setup
    printf "rows = %d\n", rows + 1 > setup
    printf "window_us = %g\n", (wend - start) / 1000 > setup
    printf "separators = \"%s\"\n", seps > setup
    printf "present = \"%s\"\n", present > setup
    ctas = ""
    for (c = 1; c <= nc; c++) ctas = ctas (c > 1 ? (c == nc ? " and " : ", ") : "") cl[c]
    printf "ctas = \"%s\"\n", ctas > setup
    close(setup)
}
EOF

# ---------------------------------------------------------------------------
gp() { # gp SCRIPT ARGS...: one gnuplot run; a failure is counted, not fatal
    script=$1
    shift
    if ! "$GNUPLOT" -c "$HERE/$script" "$@" 2>"$T/gp.err"; then
        echo "render.sh: gnuplot $script failed:" >&2
        sed 's/^/    /' "$T/gp.err" >&2
        ERRORS=$((ERRORS + 1))
        return 1
    fi
    # gnuplot warnings are worth seeing, but not fatal
    [ -s "$T/gp.err" ] && sed 's/^/    gnuplot: /' "$T/gp.err" >&2
    return 0
}

render_timeline() { # render_timeline CSV: plots/timeline_stepNN.png
    tcsv=$1
    tname=$(basename "$tcsv" .csv)
    png=$PLOTS_OUT/$tname.png
    rm -f "$png"
    step=${tname#timeline_step}
    if ! awk -v us="$TIMELINE_US" -v setup="$T/$tname.gp" -f "$T/timeline.awk" "$tcsv" >"$T/$tname.dat"; then
        echo "  $tname: no records, skipped"
        return
    fi
    [ "$HAVE_GNUPLOT" = 1 ] || return
    name=$(printf '%s' "$step" | awk '{
        n["01"] = "sync hand-off"; n["02"] = "async, 1 slot"; n["03"] = "staged pipeline"; n["04"] = "cp.async multistage"
        n["05"] = "TMA + WGMMA"; n["06"] = "persistent"; n["07"] = "pingpong"; print ($1 in n) ? " (" n[$1] ")" : "" }')
    gp timeline.gp "$T/$tname.dat" "$T/$tname.gp" "$png" "Step $step$name timeline" &&
        echo "  $png"
}

# ---------------------------------------------------------------------------
if [ -n "$ONLY_TIMELINE" ]; then
    tcsv=$RESULTS_DIR/timeline_step$ONLY_TIMELINE.csv
    if [ ! -f "$tcsv" ]; then
        echo "render.sh: $tcsv not found (run the step with --trace $tcsv)" >&2
        exit 2
    fi
    [ "$HAVE_GNUPLOT" = 1 ] || exit 2
    render_timeline "$tcsv"
    [ "$ERRORS" -eq 0 ] || exit 1
    exit 0
fi

# ---- per-GPU results -------------------------------------------------------
GPUS=""
for csv in "$RESULTS_DIR"/*.csv; do
    [ -f "$csv" ] || continue
    base=$(basename "$csv" .csv)
    case $base in timeline_*) continue ;; esac
    case $base in *[!A-Za-z0-9._-]*)
        echo "render.sh: $csv: file name with odd characters, skipped (use <gpu>.csv with [A-Za-z0-9._-])" >&2
        continue
        ;;
    esac
    tsv=$T/$base.tsv
    awk -f "$T/dedup.awk" "$csv" | sort -t "$TAB" -k21,21n >"$tsv"
    # a plot this data cannot draw any more must not linger (only when we can redraw)
    if [ "$HAVE_GNUPLOT" = 1 ]; then
        for kind in progression gemm_tflops gemm_ratio stream_stages stream_work; do rm -f "$PLOTS_OUT/${base}_$kind.png"; done
    fi
    if [ ! -s "$tsv" ]; then
        echo "  $csv: no rows"
        continue
    fi
    GPUS="$GPUS $base"
    echo "$csv: $(wc -l <"$tsv" | tr -d ' ') rows"
    [ "$HAVE_GNUPLOT" = 1 ] || continue
    A() { awk -v what="$1" -v src="$RESULTS_SHOWN/$base.csv" -v defgroup="$DEFGROUP" -f "$T/analyze.awk" "$tsv"; }
    gpu=$(A gpu)
    [ -n "$gpu" ] || gpu=$base

    A progression >"$T/$base.progression"
    if [ -s "$T/$base.progression" ]; then
        sed -n 's/^#gp //p' "$T/$base.progression" >"$T/$base.progression.gp"
        grep -v '^#gp ' "$T/$base.progression" >"$T/$base.progression.dat"
        gp progression.gp "$T/$base.progression.dat" "$T/$base.progression.gp" \
            "$PLOTS_OUT/${base}_progression.png" "$gpu" &&
            echo "  $PLOTS_OUT/${base}_progression.png"
    fi

    A gemm_tflops >"$T/$base.gemm_tflops"
    if [ -s "$T/$base.gemm_tflops" ]; then
        gp gemm_tflops.gp "$T/$base.gemm_tflops" "$PLOTS_OUT/${base}_gemm_tflops.png" "$gpu" "$(A gemm_steps)" &&
            echo "  $PLOTS_OUT/${base}_gemm_tflops.png"
    fi
    A gemm_ratio >"$T/$base.gemm_ratio"
    if [ -s "$T/$base.gemm_ratio" ]; then
        gp gemm_ratio.gp "$T/$base.gemm_ratio" "$PLOTS_OUT/${base}_gemm_ratio.png" "$gpu" \
            "$(head -n 1 "$T/$base.gemm_ratio" | awk -F "$TAB" '{ print NF - 1 }')" &&
            echo "  $PLOTS_OUT/${base}_gemm_ratio.png"
    fi
    A stream_stages >"$T/$base.stream_stages"
    if [ -s "$T/$base.stream_stages" ]; then
        meta=$(grep '^#meta' "$T/$base.stream_stages")
        grep -v '^#meta' "$T/$base.stream_stages" >"$T/$base.stream_stages.dat"
        IFS=$TAB read -r _ w0 copy g1 g2 ne0 <<EOF
$meta
EOF
        gp stream_stages.gp "$T/$base.stream_stages.dat" "$PLOTS_OUT/${base}_stream_stages.png" "$gpu" \
            "$w0" "$copy" "$g1" "$g2" "$ne0" &&
            echo "  $PLOTS_OUT/${base}_stream_stages.png"
    fi
    A stream_work >"$T/$base.stream_work"
    if [ -s "$T/$base.stream_work" ]; then
        gp stream_work.gp "$T/$base.stream_work" "$PLOTS_OUT/${base}_stream_work.png" "$gpu" "$(A stream_steps)" &&
            echo "  $PLOTS_OUT/${base}_stream_work.png"
    fi
done

# ---- timelines ---------------------------------------------------------------
TIMELINES=""
for f in "$PLOTS_OUT"/timeline_step*.png; do
    [ -f "$f" ] && [ "$HAVE_GNUPLOT" = 1 ] || continue
    n=$(basename "$f" .png)
    [ -f "$RESULTS_DIR/$n.csv" ] || rm -f "$f" # its trace is gone: stale
done
for tcsv in "$RESULTS_DIR"/timeline_step*.csv; do
    [ -f "$tcsv" ] || continue
    TIMELINES="$TIMELINES $(basename "$tcsv" .csv)"
    [ "$HAVE_GNUPLOT" = 1 ] && render_timeline "$tcsv"
done

# ---- Markdown tables --------------------------------------------------------
NORESULT='No recorded results yet: run `make bench` on a GPU.'

# content KEY: the text for a results key (shared by every Markdown file)
content() {
    key=$1
    out=$T/key_$key.md
    [ -f "$out" ] && return 0
    case $key in
    stream) what=md_stream step="" ;;
    gemm) what=md_gemm step="" ;;
    step[0-9][0-9]) what=md_step step=${key#step} ;;
    *) return 1 ;;
    esac
    : >"$out"
    for base in $GPUS; do
        awk -v what="$what" -v step="$step" -v src="$RESULTS_SHOWN/$base.csv" -v defgroup="$DEFGROUP" \
            -f "$T/analyze.awk" "$T/$base.tsv" >"$T/section"
        if [ -s "$T/section" ]; then
            [ -s "$out" ] && echo >>"$out"
            cat "$T/section" >>"$out"
        fi
    done
    [ -s "$out" ] || echo "$NORESULT" >"$out"
    return 0
}

# relpath FROM_DIR TO_DIR: the relative path from one absolute folder to another
relpath() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        na = split(a, x, "/"); nb = split(b, y, "/")
        i = 1
        while (i <= na && i <= nb && x[i] == y[i]) i++
        r = ""
        for (j = i; j <= na; j++) if (x[j] != "") r = r "../"
        for (j = i; j <= nb; j++) if (y[j] != "") r = r y[j] "/"
        sub(/\/$/, "", r)
        print (r == "" ? "." : r)
    }'
}

# plots_md MDFILE: image links for one Markdown file.  A step's README gets
# its workload's plots and its own timeline; any other file gets all of them.
plots_md() {
    md=$1
    mddir=$(cd "$(dirname "$md")" && pwd)
    rel=$(relpath "$mddir" "$PLOTS_OUT")
    stepdir=$(basename "$mddir")
    only=""
    case $stepdir in
    step0[1-3]_*) only=stream ;;
    step[0-9][0-9]_*) only=gemm ;;
    esac
    sn=""
    case $stepdir in step[0-9][0-9]_*) sn=$(echo "$stepdir" | cut -c5-6) ;; esac
    for base in $GPUS; do
        gpu=$(awk -v what=gpu -f "$T/analyze.awk" "$T/$base.tsv")
        first=1
        for kind in gemm_tflops gemm_ratio stream_stages stream_work; do
            case $only:$kind in stream:gemm_* | gemm:stream_*) continue ;; esac
            [ -f "$PLOTS_OUT/${base}_$kind.png" ] || continue
            case $kind in
            gemm_tflops) alt="GEMM TFLOP/s per step vs size, with cuBLAS" ;;
            gemm_ratio) alt="each GEMM step's ratio to cuBLAS at 4096³ and 8192³" ;;
            stream_stages) alt="step 03 GB/s vs pipeline stages, with the D2D copy" ;;
            stream_work) alt="streaming time vs work per element, steps 01–03 and the copy" ;;
            esac
            if [ $first = 1 ]; then echo "**$gpu**"; echo; first=0; fi
            echo "![$gpu: $alt]($rel/${base}_$kind.png)"
            echo
        done
    done
    for t in $TIMELINES; do
        [ -f "$PLOTS_OUT/$t.png" ] || continue
        [ -z "$sn" ] || [ "$t" = "timeline_step$sn" ] || continue
        tn=${t#timeline_step}
        echo "![step $tn timeline: one row per warp or warpgroup, colour per pipeline phase]($rel/$t.png)"
        echo
    done
}

# The course GPU: the one whose results the front page's progression plot and
# steps table show.  COURSE_GPU (a results file name without .csv) when it has
# rows, else the GPU whose file covers the most steps (ties: the first).
COURSE_GPU=${COURSE_GPU:-NVIDIA_H100_80GB_HBM3}
REF=""
best=-1
for base in $GPUS; do
    if [ "$base" = "$COURSE_GPU" ]; then REF=$base; break; fi
    n=$(cut -f1 "$T/$base.tsv" | sort -u | wc -l)
    if [ "$n" -gt "$best" ]; then best=$n; REF=$base; fi
done

# progression_md MDFILE: the course GPU's progression plot, and links to the
# other GPUs' ones
progression_md() {
    md=$1
    mddir=$(cd "$(dirname "$md")" && pwd)
    rel=$(relpath "$mddir" "$PLOTS_OUT")
    [ -n "$REF" ] && [ -f "$PLOTS_OUT/${REF}_progression.png" ] || return 0
    gpu=$(awk -v what=gpu -f "$T/analyze.awk" "$T/$REF.tsv")
    echo "![$gpu: every step's speed as a fraction of its reference (steps 01–03: the D2D copy; steps 04–07: cuBLAS), measured interleaved in the same run]($rel/${REF}_progression.png)"
    echo
    others=""
    for base in $GPUS; do
        [ "$base" != "$REF" ] && [ -f "$PLOTS_OUT/${base}_progression.png" ] || continue
        g=$(awk -v what=gpu -f "$T/analyze.awk" "$T/$base.tsv")
        others="$others${others:+, }[$g]($rel/${base}_progression.png)"
    done
    [ -z "$others" ] || echo "<sub>The same plot on other GPUs: $others. Generated by make plots from $RESULTS_SHOWN/; do not edit.</sub>"
    [ -n "$others" ] || echo "<sub>Generated by make plots from $RESULTS_SHOWN/$REF.csv; do not edit.</sub>"
}

# steps_md MDFILE: the table of steps (plots/steps.tsv: concept, hardware
# feature) with the course GPU's headline numbers; links relative to MDFILE
steps_md() {
    md=$1
    mddir=$(cd "$(dirname "$md")" && pwd)
    rel=$(relpath "$mddir" "$ROOT")
    [ "$rel" = . ] && rel="" || rel="$rel/"
    folders=""
    for d in "$ROOT"/step[0-9][0-9]_*; do
        [ -f "$d/kernel.cu" ] || continue
        d=$(basename "$d")
        folders="$folders $(echo "$d" | cut -c5-6) $d"
    done
    data=/dev/null
    [ -z "$REF" ] || data=$T/$REF.tsv
    awk -v what=md_steps -v src="$RESULTS_SHOWN/$REF.csv" -v defgroup="$DEFGROUP" -v rel="$rel" \
        -v folders="$folders" -v meta="$HERE/steps.tsv" -f "$T/analyze.awk" "$data"
}

# update MDFILE: replace the text between every pair of markers
cat >"$T/replace.awk" <<'EOF'
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
{
    line = $0
    t = trim(line)
    if (!inblk && t ~ /^<!-- BEGIN results [A-Za-z0-9_-]+ -->$/) {
        key = t
        sub(/^<!-- BEGIN results /, "", key)
        sub(/ -->$/, "", key)
        file = (key == "plots" || key == "progression" || key == "steps") ? dir "/md_" key ".md" : dir "/key_" key ".md"
        if ((getline probe < file) < 0) {
            printf "render.sh: %s line %d: unknown results key '%s', left as it is\n", FILENAME, NR, key > "/dev/stderr"
            out[++n] = line
            next
        }
        close(file)
        # keep the file's line endings (CRLF files stay CRLF)
        cr = line ~ /\r$/ ? "\r" : ""
        out[++n] = line
        out[++n] = cr
        while ((getline x < file) > 0) out[++n] = x cr
        close(file)
        out[++n] = cr
        inblk = 1; endm = "<!-- END results " key " -->"; startnr = NR
        next
    }
    if (inblk) {
        if (t == endm) { out[++n] = line; inblk = 0 }
        else if (t ~ /^<!-- (BEGIN|END) results /) {
            printf "render.sh: %s line %d: %s inside the block opened line %d; file left as it is\n", FILENAME, NR, t, startnr > "/dev/stderr"
            bad = 1; exit
        }
        next
    }
    out[++n] = line
}
END {
    if (!bad && inblk) {
        printf "render.sh: %s: no '%s' after line %d; file left as it is\n", FILENAME, endm, startnr > "/dev/stderr"
        bad = 1
    }
    if (bad) exit 3
    for (i = 1; i <= n; i++) print out[i]
}
EOF

update_md() {
    md=$1
    keys=$(tr -d '\r' <"$md" | tr '\t' ' ' | sed -n 's/^ *<!-- BEGIN results \([A-Za-z0-9_-]*\) --> *$/\1/p' | sort -u)
    [ -n "$keys" ] || return 0
    for key in $keys; do
        case $key in
        plots | progression | steps) ;;   # text that depends on the file's folder (links)
        *) content "$key"; continue ;;
        esac
        # without the blank line after the last line
        "${key}_md" "$md" | awk 'NF { while (blank) { print ""; blank-- } print; next } { blank++ }' >"$T/md_$key.md"
        [ -s "$T/md_$key.md" ] || echo "$NORESULT" >"$T/md_$key.md"
    done
    if ! awk -v dir="$T" -f "$T/replace.awk" "$md" >"$T/md.new"; then
        ERRORS=$((ERRORS + 1))
        return 0
    fi
    if cmp -s "$T/md.new" "$md"; then
        echo "  $md: up to date"
    else
        cat "$T/md.new" >"$md" && echo "  $md: tables updated"
    fi
}

if [ "${RESULTS_MD+set}" = set ]; then
    MDS=$RESULTS_MD
else
    MDS=""
    for md in "$ROOT/README.md" "$ROOT"/step*/README.md; do [ -f "$md" ] && MDS="$MDS $md"; done
fi
for md in $MDS; do
    if [ ! -f "$md" ]; then
        echo "render.sh: $md not found, skipped" >&2
        continue
    fi
    grep -q '<!-- BEGIN results ' "$md" && update_md "$md"
done

if [ "$ERRORS" -gt 0 ]; then
    echo "render.sh: $ERRORS error(s)" >&2
    exit 1
fi
exit 0
