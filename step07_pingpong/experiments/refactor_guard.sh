#!/bin/sh
# step07_pingpong/experiments/refactor_guard.sh OLD_DIR NEW_BUILD OUT_DIR
# The GPU half of the issue-14 refactor guard (tests/sass_compare.sh is the
# SASS half): steps 05-07 before (OLD_DIR: binaries built from main at
# 8b2908b) and after (NEW_BUILD) alternated process by process, ROUNDS
# processes of each at the bench's quick GEMM shapes.  (The test runner and
# tests/sanitize.sh ran in the same GPU call, outside this script:
# refactor_guard_h100/tests.log and sanitize.*.)  Every run is --no-check
# (the checked runs are the tests'); each prints the harness's median of
# ITERS (20) launches, interleaved with cuBLAS (20 was the harness's default
# when the guard ran; the harness now picks a count itself unless told, and
# both binaries of an A/B must time alike).  Logs go to OUT_DIR; the last
# lines printed are the table: per step and shape, the old binary's
# median, min and max over its processes, the new binary's, and whether the
# new median lies inside [old min, old max].
set -u
OLD=${1:?old binaries}
NEW=${2:?new build dir}
OUT=${3:?out dir}
ROUNDS=${ROUNDS:-3}
ITERS=${ITERS:-20}
mkdir -p "$OUT"
RAW="$OUT/ab_runs.txt"
: > "$RAW"
SHAPES="4096,4096,4096 8192,8192,8192 4096,14336,4096 4096,4096,14336"
STEPS="step05_tma_wgmma step06_persistent step07_pingpong"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader > "$OUT/gpu.txt" 2>&1
for r in $(seq 1 "$ROUNDS"); do
    for s in $STEPS; do
        for sh in $SHAPES; do
            set -- $(echo "$sh" | tr ',' ' ')
            for which in old new; do
                if [ $which = old ]; then bin="$OLD/$s"; else bin="$NEW/$s"; fi
                line=$("$bin" --m "$1" --n "$2" --k "$3" --iters "$ITERS" --no-check 2>&1 | grep " ms " | head -n1)
                ms=$(echo "$line" | sed -n 's/.*stages=[0-9]*: \([0-9.]*\) ms.*/\1/p')
                ratio=$(echo "$line" | sed -n 's/.*ratio \([0-9.]*\).*/\1/p')
                echo "$r $s ${1}x${2}x${3} $which ${ms:-NA} ${ratio:-NA}" >> "$RAW"
            done
        done
    done
done
echo "== A/B (ms: median over processes [min, max]; each process: median of $ITERS launches)"
awk '
{ key = $2 " " $3; v[key, $4, ++n[key, $4]] = $5; r[key, $4, n[key, $4]] = $6; keys[key] = 1 }
function med(a, k, w, m,   i, j, t, x) {
    for (i = 1; i <= m; ++i) x[i] = a[k, w, i]
    for (i = 1; i <= m; ++i) for (j = i + 1; j <= m; ++j) if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
    lo = x[1]; hi = x[m]
    return (m % 2) ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
}
END {
    printf "%-18s %-16s %-30s %-30s %s\n", "step", "shape", "old ms med [min,max]", "new ms med [min,max]", "new med in old spread"
    for (k in keys) {
        split(k, p, " ")
        mo = med(v, k, "old", n[k, "old"]); lo_o = lo; hi_o = hi
        mn = med(v, k, "new", n[k, "new"]); lo_n = lo; hi_n = hi
        ok = (mn >= lo_o && mn <= hi_o) ? "yes" : (mn < lo_o ? "no (faster)" : "no (slower)")
        printf "%-18s %-16s %.4f [%.4f,%.4f]   %.4f [%.4f,%.4f]   %s (%+.2f%%)\n", p[1], p[2], mo, lo_o, hi_o, mn, lo_n, hi_n, ok, (mn / mo - 1) * 100
    }
}' "$RAW" | sort > "$OUT/ab_table.txt"
cat "$OUT/ab_table.txt"
