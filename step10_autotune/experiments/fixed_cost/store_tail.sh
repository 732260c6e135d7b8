#!/bin/sh
# fixed_cost/store_tail.sh BUILD OUT: must a CTA wait for its last TMA stores to LAND before
# it exits?  Steps 06-10 end each consumer's walk with `cp.async.bulk.wait_group 0`
# (tma_store_wait_all): the leader waits until D's last sub-tiles are written to global
# memory.  The shared memory only needs them READ (`wait_group.read 0`), which is how
# CUTLASS's epilogue ends (PipelineTmaStore::producer_tail, tma_store_wait<0>); the writes
# are the grid's, and the kernel's completion orders them before the next kernel in the
# stream.  At small shapes every CTA's last epilogue is on the critical path, so the wait
# for the write round trip would be part of the fixed cost per launch.
# Builds step 10 with the end wait `.read` (BUILD/st_read/), then on the GPU against the
# tree's build: the fixed-cost fit (CUPTI, 512 x 4096 x K), 3 rounds alternated with the
# order rotated at eight shapes, and the variant checked at odd shapes, every configuration
# and plan.  The log in logs/store_tail/ came from this script's first form, when the tree
# issued the tensor maps' prefetch at kernel entry: there "step10_autotune" and "st_read/"
# have it at entry, and "st_read_pf/" is st_read with it in the producer, where the tree has
# it since session 11.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: store_tail.sh BUILD OUT}; OUT=${2:?usage: store_tail.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/st_read"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  sed 's/^\(    if (cc->leader \&\& (cc->lean || P->use_tma_store)) \)tma_store_wait_all();$/\1tma_store_wait_read(0);   \/* experiment: read only *\//' \
      step10_autotune/kernel.cu > "$BUILD/st_read/kernel.cu"
  grep -q 'tma_store_wait_read(0);   /\* experiment: read only' "$BUILD/st_read/kernel.cu" ||
    { echo "store_tail: kernel.cu changed; the patch no longer applies"; exit 1; }
  variant_build st_read "$BUILD/st_read/kernel.cu" "$BUILD/st_read/step10_autotune"
fi
variant_need_gpu store_tail "$BUILD/st_read/step10_autotune"
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 768x768x768 512x4096x4096 1024x4096x4096 2048x2048x2048 4096x4096x4096 256x4096x4096" st_read
variant_checks "$BUILD/st_read/step10_autotune" "$OUT/checks_st_read.txt" 64x128 128x128 128x192 128x256c
echo "st_read checks ok: $(grep -c 'check ok' "$OUT/checks_st_read.txt") of $(wc -l < "$OUT/checks_st_read.txt")"
