#!/bin/bash
# ncu_variants.sh — what bounds step 06 and the 128 x 128 / 128 x 192 tiles
# of step 07 (ncu's speed-of-light, memory and compute sections, one launch
# each)?  Builds into build/v (no GPU), then runs ncu (GPU).  It printed the
# ncu_s06_*, ncu_p128x128_* and ncu_p128x192_* files (NOTES.md, item 2).
#   OUT=/tmp/out bash step07_pingpong/experiments/ncu_variants.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
mkdir -p build/common build/v
for c in common/*.c; do gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icommon -I/usr/local/cuda/include -c $c -o build/common/$(basename $c .c).o || exit 1; done
NV="nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV=\"dev\" -gencode=arch=compute_90a,code=sm_90a"
L="build/common/args.o build/common/csv.o build/common/tma.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl"
$NV step06_persistent/kernel.cu $L -o build/v/s06 &
$NV -DBN=192 step07_pingpong/kernel.cu $L -o build/v/p128x192 &
$NV -DBN=128 step07_pingpong/kernel.cu $L -o build/v/p128x128 &
wait
ncu --query-metrics 2>/dev/null | grep -i "gmma\|pipe_tensor" | head -20 > $OUT/metrics_avail.txt
for run in "s06 8192 8192 8192" "p128x128 8192 8192 8192" "p128x192 8192 8192 8192" "s06 4096 14336 4096" "p128x128 4096 14336 4096" "p128x128 4096 4096 4096"; do
  set -- $run
  echo "===== $run"
  timeout 200 ncu --kernel-name regex:"persistent_kernel|pingpong_kernel" --launch-skip 1 --launch-count 1 \
     --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
     build/v/$1 --m $2 --n $3 --k $4 --iters 1 --warmup 1 --no-check > $OUT/ncu_$1_$2_$3_$4.txt 2>&1
  grep -E "Duration|Memory Throughput|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|L2 Hit Rate|Mem Busy|Max Bandwidth|Mem Pipes Busy|Executed Ipc A|SM Frequency|Shared" $OUT/ncu_$1_$2_$3_$4.txt | head -20
done
cat $OUT/metrics_avail.txt
