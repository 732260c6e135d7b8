#!/bin/bash
# persistent_vs_step05.sh — is the persistent kernel correct on the edge
# shapes (exact mode too), and what does persistence buy over step 05?
# Builds steps 05 and 06 into build/v (nvcc, no GPU), then on the GPU:
# step 06 on nine edge shapes and two exact ones, 8192^3 with raster group 1
# and 8, steps 05 and 06 at 4096^3 and 8192^3, step 06 with 3 stages and at
# the LLM shapes, each against cuBLAS interleaved; last, the SASS counts of
# setmaxnreg, TMA stores and wgmma (cuobjdump, no GPU).  As first_run.sh it
# printed persistent_vs_step05.log (NOTES.md, "Measured"; the kernel of git
# 76da668 but for the epilogue's address arithmetic).
#   OUT=/tmp/out bash step06_persistent/experiments/persistent_vs_step05.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv,noheader
mkdir -p build/common build/v
for c in common/*.c; do gcc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Icommon -I/usr/local/cuda/include -c $c -o build/common/$(basename $c .c).o || exit 1; done
for st in step05_tma_wgmma step06_persistent ${EXTRA_STEPS:-}; do
  nvcc -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV='"dev"' -Xptxas -v -gencode=arch=compute_90a,code=sm_90a $st/kernel.cu build/common/*.o -L/usr/local/cuda/lib64 -lcublas -lcudart -ldl -o build/v/$st > $OUT/build_$st.log 2>&1 || { tail -30 $OUT/build_$st.log; exit 1; } &
done; wait
B=build/v/step06_persistent
S05=build/v/step05_tma_wgmma
# a step's last line but the harness's "  timing:" note: its result, or what failed
last() { grep -v '^  timing:' | tail -${1:-1}; }
for s in "1 1 8" "127 129 72" "1000 1000 1000" "300 4100 264" "200 264 136" "128 256 64" "129 257 128" "2048 2048 2048" "4096 4096 4096"; do
  set -- $s
  timeout 60 $B --m $1 --n $2 --k $3 --iters 2 --warmup 1 2>&1 | last 2
  echo "rc=${PIPESTATUS[0]}"
done
timeout 60 $B --m 256 --n 512 --k 128 --exact --iters 2 --warmup 1 | last
timeout 60 $B --m 1000 --n 1000 --k 256 --exact --iters 2 --warmup 1 | last
for g in 1 8; do timeout 60 $B --m 8192 --n 8192 --k 8192 --group $g 2>&1 | last; done
timeout 60 $S05 --m 4096 --n 4096 --k 4096 | last
timeout 60 $B --m 4096 --n 4096 --k 4096 | last
timeout 60 $B --m 4096 --n 4096 --k 4096 --stages 3 | last
timeout 60 $S05 --m 8192 --n 8192 --k 8192 | last
timeout 60 $B --m 4096 --n 14336 --k 4096 | last
timeout 60 $B --m 4096 --n 4096 --k 14336 | last
timeout 60 $B --m 1024 --n 1024 --k 14336 | last
# cuobjdump -sass runs nvdisasm: from the toolkit, or where make deps puts both
CUOBJ=$(command -v cuobjdump || find -L build/deps -name cuobjdump -type f 2>/dev/null | head -1)
ND=$(command -v nvdisasm || find -L build/deps -name nvdisasm -type f 2>/dev/null | head -1)
[ -n "$ND" ] && PATH="$(dirname "$ND"):$PATH"
"${CUOBJ:-cuobjdump}" -sass $B | grep -oE "USETMAXREG[A-Z.]*|UTMASTG[A-Z0-9.]*|HGMMA[A-Z0-9.x]*" | sort | uniq -c | head
