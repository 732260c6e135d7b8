#!/bin/bash
# ncu_cycles.sh — is pingpong faster than the cooperative kernel at equal
# clocks?  ncu's "Elapsed Cycles" (SM clock domain) of steps 06 and 07 at
# 8192^3, 4096 x 4096 x 14336 and 4096 x 14336 x 4096, one launch each:
# cycles do not depend on the clock the power cap sets, so they compare
# where times at unequal clocks cannot.  This was the second part of
# ../../step03_staged_pipeline/experiments/one_slot.sh, which printed
# ncu_cycles/ at git 306208a (README.md).
#
#   make step06 step07
#   OUT=/tmp/out bash step07_pingpong/experiments/ncu_cycles.sh   (GPU, ncu)
#
# Writes $OUT/ncu_step06_M_N_K.txt, $OUT/ncu_step07_M_N_K.txt and the
# summary $OUT/ncu_cycles.log.
set -u
B=${BUILD:-build}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for s in "8192 8192 8192" "4096 4096 14336" "4096 14336 4096"; do
    set -- $s
    for b in step06_persistent step07_pingpong; do
        timeout 100 ncu --kernel-name regex:"persistent_kernel|pingpong_kernel" --launch-skip 1 --launch-count 1 \
            --section SpeedOfLight $B/$b --m $1 --n $2 --k $3 --iters 1 --warmup 1 --no-check \
            > "$OUT/ncu_${b%%_*}_$1_$2_$3.txt" 2>&1
        echo "$b $1x$2x$3: $(grep -E 'SM Frequency|Elapsed Cycles|Duration' "$OUT/ncu_${b%%_*}_$1_$2_$3.txt" |
            awk '{printf "%s %s %s; ", $1, $(NF-1), $NF}')" | tee -a "$OUT/ncu_cycles.log"
    done
done
