#!/bin/sh
# tests/refactor_guard.sh OLD_DIR NEW_DIR OUT_DIR [STEPS] [SHAPES]
# The GPU half of the refactor guard (tests/sass_compare.sh is the SASS
# half): each step's OLD binary (OLD_DIR) and NEW binary (NEW_DIR) run
# alternately, process by process, ROUNDS processes of each (default 3) at
# the given shapes, old first in odd rounds and new first in even ones
# (default shapes: the bench's quick GEMM shapes and the streamed
# 1024x1024x14336).  Every run is --no-check (the checked runs are the
# tests') and prints the harness's median over its timed launches,
# interleaved with cuBLAS in the same process.  OUT_DIR/ab_runs.txt has one
# line per process; the table (OUT_DIR/ab_table.txt, printed last) gives per
# step and shape the old and new ratio to cuBLAS (median [min, max] over the
# processes) and the time, and whether the new median ratio lies inside the
# old binary's [min, max]: the guard's criterion.  Both binaries must come
# from the same harness (the rule), so their ratios compare.
set -u
OLD=${1:?old binaries dir}
NEW=${2:?new binaries dir}
OUT=${3:?out dir}
STEPS=${4:-"step05_tma_wgmma step06_persistent step07_pingpong step08_cluster_multicast step09_stream_k"}
SHAPES=${5:-"4096,4096,4096 8192,8192,8192 4096,14336,4096 4096,4096,14336 1024,1024,14336"}
ROUNDS=${ROUNDS:-3}
mkdir -p "$OUT"
RAW="$OUT/ab_runs.txt"
: > "$RAW"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader \
    > "$OUT/gpu.txt" 2>&1
for r in $(seq 1 "$ROUNDS"); do
    for s in $STEPS; do
        for sh in $SHAPES; do
            set -- $(echo "$sh" | tr ',' ' ')
            # old first in odd rounds, new first in even ones: neither build
            # always runs on the card the other just warmed
            order="old new"; [ $((r % 2)) -eq 0 ] && order="new old"
            for which in $order; do
                if [ $which = old ]; then bin="$OLD/$s"; else bin="$NEW/$s"; fi
                [ -x "$bin" ] || { echo "$r $s ${1}x${2}x${3} $which NA NA missing" >> "$RAW"; continue; }
                line=$("$bin" --m "$1" --n "$2" --k "$3" --no-check 2>&1 | grep " ms " | head -n1)
                ms=$(echo "$line" | sed -n 's/.*stages=[0-9]*: \([0-9.]*\) ms.*/\1/p')
                ratio=$(echo "$line" | sed -n 's/.*| ratio \([0-9.]*\) |.*/\1/p')
                clk=$(echo "$line" | sed -n 's/.*SM clock \([0-9]*\) MHz.*/\1/p')
                echo "$r $s ${1}x${2}x${3} $which ${ms:-NA} ${ratio:-NA} ${clk:-NA}" >> "$RAW"
            done
        done
    done
done
awk '
{ key = $2 " " $3; i = ++n[key, $4]; t[key, $4, i] = $5; q[key, $4, i] = $6; keys[key] = 1 }
function med(a, k, w, m,   i, j, tmp, x) {
    for (i = 1; i <= m; ++i) x[i] = a[k, w, i]
    for (i = 1; i <= m; ++i) for (j = i + 1; j <= m; ++j) if (x[j] + 0 < x[i] + 0) { tmp = x[i]; x[i] = x[j]; x[j] = tmp }
    lo = x[1]; hi = x[m]
    return (m % 2) ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
}
END {
    for (k in keys) {
        split(k, p, " ")
        ro = med(q, k, "old", n[k, "old"]); lro = lo; hro = hi
        rn = med(q, k, "new", n[k, "new"]); lrn = lo; hrn = hi
        mo = med(t, k, "old", n[k, "old"]); mn = med(t, k, "new", n[k, "new"])
        ok = (rn >= lro && rn <= hro) ? "yes" : (rn > hro ? "no (faster)" : "no (slower)")
        printf "%-24s %-16s %.3f [%.3f,%.3f]   %.3f [%.3f,%.3f]   %.4f -> %.4f ms (%+.2f%%)   %s\n",
               p[1], p[2], ro, lro, hro, rn, lrn, hrn, mo, mn, (mn / mo - 1) * 100, ok
    }
}' "$RAW" | sort > "$OUT/ab_table.txt"
printf "%-24s %-16s %-25s %-25s %-32s %s\n" step shape "old ratio med [min,max]" "new ratio med [min,max]" \
    "median time old -> new" "new ratio median in old spread"
cat "$OUT/ab_table.txt"
