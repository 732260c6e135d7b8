#!/bin/bash
# power_6144.sh — step 06 against step 07 at 6144^3 and 4096 x 4096 x 14336
# with raster groups 4, 8 and 16, then ncu of both at 6144^3.  Builds into
# build/v (no GPU), then runs (GPU, ncu).  It printed power_6144.log,
# ncu_6144_step06.txt and ncu_6144_step07.txt (written as ncu6144_s06.txt and
# ncu6144_s07.txt) on the kernels of git 13c9783 (NOTES.md).
#   OUT=/tmp/out bash step07_pingpong/experiments/power_6144.sh
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
mkdir -p build/common build/v
for c in common/*.c; do gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icommon -I/usr/local/cuda/include -c $c -o build/common/$(basename $c .c).o || exit 1; done
NV="nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV=\"dev\" -gencode=arch=compute_90a,code=sm_90a"
L="build/common/args.o build/common/csv.o build/common/tma.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl"
$NV step06_persistent/kernel.cu $L -o build/v/s06 &
$NV step07_pingpong/kernel.cu $L -o build/v/s07 &
wait
for s in "6144 6144 6144" "4096 4096 14336"; do set -- $s
  for g in 4 8 16; do for B in s06 s07; do echo "$B $s g$g $(build/v/$B --m $1 --n $2 --k $3 --group $g --iters 30 --no-check 2>&1 | grep -v '^  timing:' | tail -1 | grep -o '[0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]*')"; done; done
done
for B in s06 s07; do
ncu --kernel-name regex:"persistent_kernel|pingpong_kernel" --launch-skip 1 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum build/v/$B --m 6144 --n 6144 --k 6144 --iters 1 --warmup 1 --no-check > $OUT/ncu6144_$B.txt 2>&1
grep -E "Duration|SM Frequency|DRAM Throughput|L2 Hit Rate|L2 Cache Throughput|Compute \(SM\)|gmma|Shared is" $OUT/ncu6144_$B.txt
done
