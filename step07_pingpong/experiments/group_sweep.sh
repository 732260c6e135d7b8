#!/bin/bash
# group_sweep.sh — which raster group (4, 8, 16, 32 tiles) for step 06 and
# for step 07 at 128 x 128 and 128 x 192, at four shapes?  Builds into build/v
# (no GPU), then times each against cuBLAS (GPU).  It printed group_sweep.log
# (NOTES.md, item 3).
#   OUT=/tmp/out bash step07_pingpong/experiments/group_sweep.sh
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
for s in "8192 8192 8192" "4096 14336 4096" "4096 4096 14336" "4096 4096 4096"; do
  set -- $s
  for B in s06 p128x128 p128x192; do
    for g in 4 8 16 32; do
      echo "$B $s g$g $(timeout 60 build/v/$B --m $1 --n $2 --k $3 --group $g --iters 30 --no-check 2>&1 | grep -v '^  timing:' | tail -1 | grep -o '[0-9.]* ms [0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]*\|SM clock [0-9]* MHz' | tr '\n' ' ')"
    done
  done
done
