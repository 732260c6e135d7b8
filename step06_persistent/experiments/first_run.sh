#!/bin/bash
# quick device check for step06: build, correctness on edge shapes, timing
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
mkdir -p build/common
for c in common/*.c; do gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icommon -I/usr/local/cuda/include -c $c -o build/common/$(basename $c .c).o || exit 1; done
for st in step05_tma_wgmma step06_persistent ${EXTRA_STEPS:-}; do
  nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV='"dev"' -Xptxas -v -gencode=arch=compute_90a,code=sm_90a $st/kernel.cu build/common/*.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl -o build/$st > $OUT/build_$st.log 2>&1 || { tail -30 $OUT/build_$st.log; exit 1; } &
done; wait
B=build/step06_persistent
for s in "1 1 8" "127 129 72" "1000 1000 1000" "300 4100 264" "200 264 136" "128 256 64" "129 257 128" "2048 2048 2048" "4096 4096 4096"; do
  set -- $s
  timeout 60 $B --m $1 --n $2 --k $3 --iters 2 --warmup 1 2>&1 | tail -2
  echo "rc=$?"
done
timeout 60 $B --m 256 --n 512 --k 128 --exact --iters 2 --warmup 1 | tail -1
timeout 60 $B --m 1000 --n 1000 --k 256 --exact --iters 2 --warmup 1 | tail -1
for g in 1 8; do timeout 60 $B --m 8192 --n 8192 --k 8192 --group $g 2>&1 | tail -1; done
timeout 60 build/step05_tma_wgmma --m 4096 --n 4096 --k 4096 | tail -1
timeout 60 $B --m 4096 --n 4096 --k 4096 | tail -1
timeout 60 $B --m 4096 --n 4096 --k 4096 --stages 3 | tail -1
timeout 60 build/step05_tma_wgmma --m 8192 --n 8192 --k 8192 | tail -1
timeout 60 $B --m 4096 --n 14336 --k 4096 | tail -1
timeout 60 $B --m 4096 --n 4096 --k 14336 | tail -1
timeout 60 $B --m 1024 --n 1024 --k 14336 | tail -1
cuobjdump -sass $B | grep -oE "USETMAXREG[A-Z.]*|UTMASTG[A-Z0-9.]*|HGMMA[A-Z0-9.x]*" | sort | uniq -c | head
