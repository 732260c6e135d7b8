#!/bin/sh
# refactor_gap_mem.sh OLD_DIR NEW_DIR OUT: does the refactor's extra wait at the full
# barrier (refactor_gap_ncu.sh) come from the memory system: a different grid, more DRAM
# bytes, a lower L2 hit rate?  ncu's launch, speed-of-light and memory sections for one
# launch of steps 06 and 08, old and new, at 4096x14336x4096 (OUT/mem_STEP_WHICH.txt).
# OLD_DIR and NEW_DIR as in refactor_gap.sh.  Exits 3 without a GPU.
set -u
OLD=${1:?usage: refactor_gap_mem.sh OLD_DIR NEW_DIR OUT}; NEW=${2:?new dir}; OUT=${3:?out dir}
nvidia-smi > /dev/null 2>&1 || { echo "refactor_gap_mem: no GPU here"; exit 3; }
command -v ncu > /dev/null || { echo "refactor_gap_mem: no ncu here"; exit 3; }
mkdir -p "$OUT"
for s in step06_persistent step08_cluster_multicast; do
  k=persistent_kernel; [ $s = step08_cluster_multicast ] && k=pingpong_kernel
  for w in old new; do
    d=$OLD; [ $w = new ] && d=$NEW
    ncu --kernel-name "$k" --launch-skip 1 --launch-count 1 --section LaunchStats --section SpeedOfLight \
        --section MemoryWorkloadAnalysis --section Occupancy \
        "$d/$s" --m 4096 --n 14336 --k 4096 --no-check --iters 1 --warmup 1 > "$OUT/mem_${s}_$w.txt" 2>&1
    echo "$s $w rc=$?" >> "$OUT/mem_summary.txt"
    grep -E "Grid Size|Cluster Size|Duration|Elapsed Cycles|DRAM Throughput|L2 Hit Rate|L1/TEX Hit|Memory Throughput|Registers Per|Dynamic Shared" \
        "$OUT/mem_${s}_$w.txt" | sed 's/^ */  /' >> "$OUT/mem_summary.txt"
  done
done
cat "$OUT/mem_summary.txt"
