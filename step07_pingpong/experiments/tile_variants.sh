#!/bin/bash
# tile_variants.sh — which tile per consumer warpgroup (128 x 192, 128 x 128,
# 64 x 256), against step 06: correct on the edge shapes (exact mode too), a
# planted named-barrier hang diagnosed, and the ratio to cuBLAS at six shapes.
# Builds its variants into build/v (nvcc, no GPU) then runs them (GPU).
# It printed tile_variants.log on the kernel of git 7db4593 (NOTES.md, item 1).
#   OUT=/tmp/out bash step07_pingpong/experiments/tile_variants.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
mkdir -p build/common build/v
for c in common/*.c; do gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icommon -I/usr/local/cuda/include -c $c -o build/common/$(basename $c .c).o || exit 1; done
NV="nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV=\"dev\" -Xptxas -v -gencode=arch=compute_90a,code=sm_90a"
L="build/common/args.o build/common/csv.o build/common/tma.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl"
$NV step06_persistent/kernel.cu $L -o build/v/step06_persistent > $OUT/b6.log 2>&1 &
$NV -DBN=192 step07_pingpong/kernel.cu $L -o build/v/p128x192 > $OUT/b7a.log 2>&1 &
$NV -DBN=128 step07_pingpong/kernel.cu $L -o build/v/p128x128 > $OUT/b7b.log 2>&1 &
$NV -DWG_M_BLOCKS=1 -DBN=256 step07_pingpong/kernel.cu $L -o build/v/p64x256 > $OUT/b7c.log 2>&1 &
$NV -DCOURSE_DEBUG step07_pingpong/kernel.cu $L -o build/v/p_debug > $OUT/b7d.log 2>&1 &
wait
ls build/v/step06_persistent build/v/p128x192 build/v/p128x128 build/v/p64x256 build/v/p_debug || exit 1
for v in p128x192 p128x128 p64x256; do
  B=build/v/$v; echo "== $v correctness"
  for s in "1 1 8" "127 129 72" "1000 1000 1000" "300 4100 264" "200 264 136" "129 385 128" "2048 2048 2048" "640 4096 512" "4096 4096 4096"; do
    set -- $s
    o=$(timeout 60 $B --m $1 --n $2 --k $3 --iters 2 --warmup 1 2>&1); rc=$?
    echo "$s rc=$rc $(echo "$o" | grep -v '^  timing:' | tail -1 | grep -o 'ratio [0-9.]*\|check.*' | head -2 | tr '\n' ' ')"
  done
  timeout 60 $B --m 256 --n 512 --k 128 --exact --iters 2 --warmup 1 | grep -v '^  timing:' | tail -1 | grep -o "check.*"
  timeout 60 $B --m 1000 --n 1000 --k 256 --exact --iters 2 --warmup 1 | grep -v '^  timing:' | tail -1 | grep -o "check.*"
done
echo "== planted bug 4 (debug)"; timeout 60 build/v/p_debug --m 1000 --n 1000 --k 1000 --plant-bug 4 --iters 1 --warmup 0 2>&1 | tail -6
echo "== timing"
for s in "4096 4096 4096" "8192 8192 8192" "4096 14336 4096" "4096 4096 14336" "1024 1024 14336" "2048 2048 2048"; do
  set -- $s
  for B in build/v/step06_persistent build/v/p128x192 build/v/p128x128 build/v/p64x256; do
    echo "$(basename $B) $s $(timeout 60 $B --m $1 --n $2 --k $3 --iters 30 2>&1 | grep -v '^  timing:' | tail -1 | grep -o '[0-9.]* ms [0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]*')"
  done
done
grep -h "Used\|spill" $OUT/b7*.log | sort | uniq -c
