#!/bin/sh
# refactor_gap.sh OLD_DIR NEW_DIR OUT: where do the work-unit refactor's extra SM cycles
# go (issue 22's guard: +0.4% in step 06, +0.8% in step 08 under ncu at 4096x14336x4096;
# NOTES.md, "One work-unit interface (issue 22): the guard")?
#
#   sh step06_persistent/experiments/refactor_gap.sh build/guard_old3 build OUT
#
# OLD_DIR: the kernels of 585cb90 (before the refactor) built with today's harness, as
# the guard's; NEW_DIR: this tree's build.  For steps 06 and 08, old and new:
#   1. two timelines each at 4096^3 (--trace: CTA 0 and one more), summarized per phase
#      (mean span) and per tile (from one epilogue's start to the next) into
#      OUT/timeline_summary.txt;
#   2. tests/refactor_guard.sh at 4096^3 and 4096x14336x4096, ROUNDS (default 5)
#      processes each, alternated (OUT/guard/ab_table.txt).
# Exits 3 without a GPU.
set -u
OLD=${1:?usage: refactor_gap.sh OLD_DIR NEW_DIR OUT}; NEW=${2:?new dir}; OUT=${3:?out dir}
nvidia-smi > /dev/null 2>&1 || { echo "refactor_gap: no GPU here"; exit 3; }
mkdir -p "$OUT"
S=$OUT/timeline_summary.txt
: > "$S"
for s in step06_persistent step08_cluster_multicast; do
  for w in old new; do
    d=$OLD; [ $w = new ] && d=$NEW
    for r in 1 2; do
      t=$OUT/trace_${s}_${w}_$r.csv
      "$d/$s" --m 4096 --n 4096 --k 4096 --no-check --trace "$t" > "$OUT/trace_${s}_${w}_$r.log" 2>&1
      echo "== $s $w run $r rc=$?" >> "$S"
      awk -F, 'NR > 2 { d = $7 - $6; sum[$5] += d; n[$5]++
                        if ($5 == "epilogue") { k = $1 " " $2; if (k in last) { per += $6 - last[k]; np++ } last[k] = $6 } }
               END { for (p in sum) printf "  %-20s n=%5d mean %7.1f ns\n", p, n[p], sum[p] / n[p]
                     if (np) printf "  %-20s n=%5d mean %7.1f ns\n", "tile period", np, per / np }' "$t" | sort >> "$S"
    done
  done
done
ROUNDS=${ROUNDS:-5} sh tests/refactor_guard.sh "$OLD" "$NEW" "$OUT/guard" "step06_persistent step08_cluster_multicast" \
    "4096,4096,4096 4096,14336,4096"
