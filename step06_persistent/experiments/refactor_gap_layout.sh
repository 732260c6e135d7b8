#!/bin/sh
# refactor_gap_layout.sh OLD_DIR NEW_DIR OUT: is the guard's gap the kernel or where the
# harness puts D?  The refactor's old build (OLD_DIR, build/guard_old3) carries the
# harness of 2238c27: A and B of a set in one allocation, one D of the step's own.  This
# tree's harness puts each set's D in the set's allocation, right after B
# (common/gemm_impl.cuh, gemm_alloc_device), and under ncu the new build's L2 throughput
# read 72% against old's 55% for the same work (refactor_gap_mem.sh).
#
# Builds NEW_DIR/../sepd/step06_persistent and step08_cluster_multicast: this tree's
# kernels with a copy of common/ whose gemm_impl.cuh is patched so that each set's D is an
# allocation of its own (nothing else changes).  Then, on the GPU: ncu's memory sections
# for old, new and sepd (OUT/mem_summary.txt), and tests/refactor_guard.sh old against
# sepd and new against sepd, 5 processes each, at 4096^3 and 4096x14336x4096
# (OUT/old_vs_sepd/, OUT/new_vs_sepd/).  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
OLD=${1:?usage: refactor_gap_layout.sh OLD_DIR NEW_DIR OUT}; NEW=${2:?new dir}; OUT=${3:?out dir}
SEP=$NEW/../sepd
if [ "${PREBUILT:-0}" != 1 ]; then
  # the whole of common/, patched: a quoted #include looks in the including file's own
  # folder first, so an -I in front of common/ would not replace gemm_impl.cuh
  rm -rf "$SEP/common" && mkdir -p "$SEP" && cp -r common "$SEP/common"
  sed -e 's|^        CUDA_CHECK(cudaMalloc((void \*\*)&p, r->d_offset + r->bytes_d));$|        CUDA_CHECK(cudaMalloc((void **)\&p, bytes_ab));|' \
      -e 's|^        r->dd\[s\] = (__nv_bfloat16 \*)((char \*)p + r->d_offset);.*$|        CUDA_CHECK(cudaMalloc((void **)\&r->dd[s], r->bytes_d));   /* D alone (experiment) */|' \
      common/gemm_impl.cuh > "$SEP/common/gemm_impl.cuh.patched"
  mv "$SEP/common/gemm_impl.cuh.patched" "$SEP/common/gemm_impl.cuh"
  grep -q 'cudaMalloc((void \*\*)&p, bytes_ab));' "$SEP/common/gemm_impl.cuh" &&
    grep -q 'cudaMalloc((void \*\*)&r->dd\[s\], r->bytes_d));' "$SEP/common/gemm_impl.cuh" ||
    { echo "refactor_gap_layout: gemm_impl.cuh changed; the patch no longer applies"; exit 1; }
  make -s "$NEW/common/args.o" "$NEW/common/csv.o" "$NEW/common/tma.o" "$NEW/common/tune_cache.o" BUILD="$NEW" || exit 1
  for s in step06_persistent step08_cluster_multicast; do
    nvcc -O3 -std=c++17 -lineinfo -I"$SEP/common" -DGIT_REV='"sepd"' -gencode=arch=compute_90a,code=sm_90a \
         "$s/kernel.cu" "$NEW/common/args.o" "$NEW/common/csv.o" "$NEW/common/tma.o" "$NEW/common/tune_cache.o" \
         -lcublas -lcudart -ldl -o "$SEP/$s" || exit 1
  done
fi
nvidia-smi > /dev/null 2>&1 || { echo "refactor_gap_layout: built $SEP; no GPU here"; exit 3; }
command -v ncu > /dev/null || { echo "refactor_gap_layout: no ncu here"; exit 3; }
mkdir -p "$OUT"
for s in step06_persistent step08_cluster_multicast; do
  k=persistent_kernel; [ $s = step08_cluster_multicast ] && k=pingpong_kernel
  for w in old new sepd; do
    d=$OLD; [ $w = new ] && d=$NEW; [ $w = sepd ] && d=$SEP
    ncu --kernel-name "$k" --launch-skip 1 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
        "$d/$s" --m 4096 --n 14336 --k 4096 --no-check --iters 1 --warmup 1 > "$OUT/mem_${s}_$w.txt" 2>&1
    echo "$s $w rc=$?" >> "$OUT/mem_summary.txt"
    grep -E "Elapsed Cycles|L2 Cache Throughput|L2 Hit Rate|DRAM Throughput" "$OUT/mem_${s}_$w.txt" | sed 's/^ */  /' \
        >> "$OUT/mem_summary.txt"
  done
done
SH="4096,4096,4096 4096,14336,4096"
ROUNDS=5 sh tests/refactor_guard.sh "$OLD" "$SEP" "$OUT/old_vs_sepd" "step06_persistent step08_cluster_multicast" "$SH"
ROUNDS=5 sh tests/refactor_guard.sh "$NEW" "$SEP" "$OUT/new_vs_sepd" "step06_persistent step08_cluster_multicast" "$SH"
