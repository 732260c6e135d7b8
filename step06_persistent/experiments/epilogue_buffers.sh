#!/bin/bash
# epilogue_buffers.sh — would four epilogue buffers per warpgroup (no wait for
# a store's read inside a tile, one stage fewer) shorten the epilogue?  Steps
# 06 and 07 with EPI_BUFS 2 and 4, built into build/v (no GPU), timed at six
# shapes against cuBLAS, then the mean epilogue of step 06's timelines (GPU).
# It printed epilogue_buffers.log (NOTES.md, "Epilogue buffers").
#   OUT=/tmp/out bash step06_persistent/experiments/epilogue_buffers.sh
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
mkdir -p build/common build/v
for c in common/*.c; do gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icommon -I/usr/local/cuda/include -c $c -o build/common/$(basename $c .c).o || exit 1; done
NV="nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV=\"dev\" -gencode=arch=compute_90a,code=sm_90a"
L="build/common/args.o build/common/csv.o build/common/tma.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl"
$NV step06_persistent/kernel.cu $L -o build/v/s06b2 &
$NV -DEPI_BUFS=4 step06_persistent/kernel.cu $L -o build/v/s06b4 &
$NV step07_pingpong/kernel.cu $L -o build/v/s07b2 &
$NV -DEPI_BUFS=4 step07_pingpong/kernel.cu $L -o build/v/s07b4 &
wait
for s in "4096 4096 4096" "8192 8192 8192" "4096 14336 4096" "4096 4096 14336" "6144 6144 6144" "2048 2048 2048"; do set -- $s
for B in s06b2 s06b4 s07b2 s07b4; do echo "$B $s $(build/v/$B --m $1 --n $2 --k $3 --iters 30 2>&1 | grep -v '^  timing:' | tail -1 | grep -o 'stages=[0-9]*: [0-9.]* ms [0-9.]* TFLOP/s | cuBLAS [0-9.]* ms [0-9.]* TFLOP/s | ratio [0-9.]*\|check ok\|FAIL.*' | tr '\n' ' ')"; done; done
build/v/s06b4 --m 4096 --n 4096 --k 1024 --trace $OUT/t06b4.csv | tail -1
build/v/s06b2 --m 4096 --n 4096 --k 1024 --trace $OUT/t06b2.csv | tail -1
for t in t06b2 t06b4; do awk -F, '$5=="epilogue" {s+=($7-$6); n++} END {printf "%s epilogue mean %.2f us over %d\n", FILENAME, s/n/1000, n}' $OUT/$t.csv; done
