# Ran against the kernel of git 8082764 (clusters of 2): git checkout 8082764 -- step07_pingpong/kernel.cu common/cluster.cuh common/tile_scheduler.h first.
#!/bin/bash
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
mkdir -p build/common build/v
for c in common/*.c; do gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icommon -I/usr/local/cuda/include -c $c -o build/common/$(basename $c .c).o || exit 1; done
NV="nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV=\"dev\" -gencode=arch=compute_90a,code=sm_90a"
L="build/common/args.o build/common/csv.o build/common/tma.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl"
$NV step06_persistent/kernel.cu $L -o build/v/s06 &
$NV step07_pingpong/kernel.cu $L -o build/v/c2 &
$NV -DCLUSTER_M=1 step07_pingpong/kernel.cu $L -o build/v/c1 &
$NV -DCOURSE_DEBUG step07_pingpong/kernel.cu $L -o build/v/c2dbg &
wait
B=build/v/c2; echo "== c2 correctness"
for s in "1 1 8" "127 129 72" "1000 1000 1000" "300 4100 264" "4100 300 8" "200 264 136" "129 385 128" "256 512 512" "8192 8192 64" "4224 4352 136" "50816 128 64" "16896 256 128" "1000 1001 64" "3000 1000 72" "4096 4096 4096"; do
  set -- $s
  o=$(timeout 60 $B --m $1 --n $2 --k $3 --iters 2 --warmup 1 2>&1); rc=$?
  echo "$s rc=$rc $(echo "$o" | tail -2 | grep -o 'check.*\|FAIL.*\|error.*' | head -2 | tr '\n' ' ')"
done
for s in "127 129 72" "256 512 256" "2048 2048 256" "129 257 8"; do set -- $s; timeout 60 $B --m $1 --n $2 --k $3 --exact --iters 2 --warmup 1 2>&1 | tail -1 | grep -o "check.*\|FAIL.*"; done
timeout 60 $B --m 1000 --n 3000 --k 136 --group 1 --iters 2 | tail -1 | grep -o "check.*"
timeout 60 $B --m 1000 --n 3000 --k 136 --group 3 --stages 2 --iters 2 | tail -1 | grep -o "check.*"
for bug in 1 3 4; do echo "== bug $bug"; timeout 30 build/v/c2dbg --m 2048 --n 2048 --k 1024 --plant-bug $bug --iters 1 --warmup 0 2>&1 | grep -A3 "diagnosed" | head -4; done
echo "== timing"
for s in "4096 4096 4096" "8192 8192 8192" "4096 14336 4096" "4096 4096 14336" "2048 2048 2048" "1024 1024 14336" "6144 6144 6144"; do
  set -- $s
  for B in s06 c1 c2; do
    echo "$B $s $(timeout 60 build/v/$B --m $1 --n $2 --k $3 --iters 30 --no-check 2>&1 | tail -1 | grep -o '[0-9.]* ms [0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]*')"
  done
done
