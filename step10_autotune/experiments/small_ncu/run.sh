#!/bin/sh
# small_ncu/run.sh: where do step 10's kernel and cuBLAS's spend a small GEMM?
# ncu (the clock it fixes), one launch each after three, at 512^3 and 1024^3
# (step 10's misses of 0.95) and 512 x 4096 x 4096 (where CUTLASS's step 05
# peer and step 07 are 2-3% ahead): duration and cycles, how many SMs were
# busy and for how long, the tensor pipe's active share, DRAM and L2 bytes,
# and the launch's grid, cluster and shared memory.  Step 07's kernel beside
# them at 512 x 4096 x 4096 (pingpong, no cluster).
#   sh step10_autotune/experiments/small_ncu/run.sh BUILD OUT
# BUILD: step10_autotune and step07_pingpong built from this tree.  Exit 3
# without a GPU or without ncu.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT"
command -v ncu > /dev/null 2>&1 && nvidia-smi > /dev/null 2>&1 || { echo "small_ncu: needs a GPU and ncu"; exit 3; }
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.avg,sm__cycles_active.max,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.max,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,launch__grid_size,launch__cluster_dim_x,launch__shared_mem_per_block_dynamic,launch__registers_per_thread
L=$OUT/small_ncu.log
one() {   # binary, kernel base name (regex), shape, extra flags
    b=$1; k=$2; set -- $3
    echo "== $(basename $b) $1x$2x$3 $k" >> "$L"
    timeout 120 ncu --metrics $M --kernel-name-base function --kernel-name "$k" --launch-skip 3 --launch-count 1 \
        "$b" --m $1 --n $2 --k $3 --no-check --iters 3 --warmup 1 $EXTRA 2>&1 |
        grep -E "^  [a-zA-Z_]|  (gpu__|sm__|lts__|dram__|launch__)" >> "$L"
}
for s in "512 512 512" "1024 1024 1024" "512 4096 4096"; do
    EXTRA=--no-cache one "$BUILD/step10_autotune" pingpong_kernel "$s"
    EXTRA=--no-cache one "$BUILD/step10_autotune" "regex:nvjet|gemm|xmma" "$s"
done
EXTRA= one "$BUILD/step07_pingpong" pingpong_kernel "512 4096 4096"
cat "$L" | cut -c1-150
# Then the scheduler's and the warps' view at 512 x 4096 x 4096, step 10 and step 07
# (logs/warp_state_512x4096x4096.log).
for b in "$BUILD/step10_autotune --no-cache" "$BUILD/step07_pingpong"; do
    echo "== $b"
    # shellcheck disable=SC2086  # $b is a binary and its flag
    timeout 120 ncu --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
        --kernel-name-base function --kernel-name pingpong_kernel --launch-skip 3 --launch-count 1 \
        $b --m 512 --n 4096 --k 4096 --no-check --iters 3 --warmup 1 2>&1 | grep -vE "^==PROF==|^  timing|^ *$|----"
done > "$OUT/warp_state_512x4096x4096.log"
