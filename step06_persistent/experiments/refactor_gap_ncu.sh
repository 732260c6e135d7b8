#!/bin/sh
# refactor_gap_ncu.sh OLD_DIR NEW_DIR OUT: where, instruction by instruction, do the
# refactor's extra cycles sit?  ncu's warp-stall sampling (SourceCounters) of one launch
# of steps 06 and 08, old and new, at 4096x14336x4096, printed per SASS instruction
# (OUT/src_STEP_WHICH.csv), with ncu's details page beside it.  OLD_DIR and NEW_DIR as in refactor_gap.sh.  Exits 3 without a GPU.
set -u
OLD=${1:?usage: refactor_gap_ncu.sh OLD_DIR NEW_DIR OUT}; NEW=${2:?new dir}; OUT=${3:?out dir}
nvidia-smi > /dev/null 2>&1 || { echo "refactor_gap_ncu: no GPU here"; exit 3; }
command -v ncu > /dev/null || { echo "refactor_gap_ncu: no ncu here"; exit 3; }
mkdir -p "$OUT"
ncu --version > "$OUT/ncu_version.txt" 2>&1
for s in step06_persistent step08_cluster_multicast; do
  k=persistent_kernel; [ $s = step08_cluster_multicast ] && k=pingpong_kernel
  for w in old new; do
    d=$OLD; [ $w = new ] && d=$NEW
    ncu --kernel-name "$k" --launch-skip 1 --launch-count 1 --section SourceCounters --section WarpStateStats \
        -f -o "$OUT/rep_${s}_$w" "$d/$s" --m 4096 --n 14336 --k 4096 --no-check --iters 1 --warmup 1 \
        > "$OUT/ncu_${s}_$w.log" 2>&1
    ncu --import "$OUT/rep_${s}_$w.ncu-rep" --page source --print-source sass --csv \
        > "$OUT/src_${s}_$w.csv" 2>> "$OUT/ncu_${s}_$w.log"
    ncu --import "$OUT/rep_${s}_$w.ncu-rep" --page details > "$OUT/details_${s}_$w.txt" 2>&1
    echo "$s $w rc=$? $(wc -l < "$OUT/src_${s}_$w.csv") source lines" >> "$OUT/regions.txt"
  done
done
