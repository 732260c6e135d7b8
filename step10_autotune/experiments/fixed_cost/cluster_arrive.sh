#!/bin/sh
# fixed_cost/cluster_arrive.sh BUILD OUT: does the start-up cluster barrier cost the fixed time
# stamps.sh finds before the first load?  Until session 10 steps 08-10 started with a
# cluster barrier whose arrive had the default .release semantics, which ptxas compiles to
# MEMBAR.ALL.CTA, MEMBAR.ALL.GPU, ERRBAR and CGAERRBAR in front of UCGABAR_ARV in every
# thread.  The barrier init is already released to the cluster by
# fence.mbarrier_init.release.cluster (mbar_fence_init), the pairing the PTX ISA gives for
# barrier.cluster.arrive.relaxed, so the tree now arrives relaxed (cluster_sync_after_init).
# Builds step 10 with the release arrive back (BUILD/release/step10_autotune), then on the
# GPU, the tree's build (relaxed) against it:
#   - run.sh's fixed-cost fit (CUPTI, 512 x 4096 x K, K = 64 ... 4096) for both builds;
#   - the two builds alternated, 3 rounds, the order swapped each round, the model's pick at
#     eight shapes (OUT/rounds.txt);
#   - the tree's build checked at odd shapes, every configuration and plan (OUT/checks.txt).
# The log in logs/relaxed/ came from this script's first form, with the patch the other
# way (the tree then had the release arrive; "relaxed/" was the patched build).
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: cluster_arrive.sh BUILD OUT}; OUT=${2:?usage: cluster_arrive.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/release"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  sed 's/^    cluster_sync_after_init();$/    cluster_arrive();   \/* experiment: the release arrive of before session 10 *\/\n    cluster_wait();/' \
      step10_autotune/kernel.cu > "$BUILD/release/kernel.cu"
  grep -q '^    cluster_arrive();   /\* experiment' "$BUILD/release/kernel.cu" ||
    { echo "cluster_arrive: kernel.cu changed; the patch no longer applies"; exit 1; }
  variant_build release "$BUILD/release/kernel.cu" "$BUILD/release/step10_autotune"
fi
variant_need_gpu cluster_arrive "$BUILD/release/step10_autotune"
fixed_cost_ab "$OUT" "$BUILD" "512x512x512 1024x1024x1024 512x4096x4096 512x4096x14336 1024x4096x4096 2048x2048x2048 4096x4096x4096 1024x1024x14336" release
variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
grep -c "check ok" "$OUT/checks.txt" | sed 's/^/checks ok: /'
