#!/bin/sh
# fixed_cost/run.sh: at M = 512 every CTA computes one 128 x 128 tile, and step 10 runs
# ~1.5 us longer than cuBLAS at 512x4096x4096 (../launch_gap) and ~2.5% longer than step 07.
# Is that a cost per launch (the start before the first load, the end after the last
# store) or a cost per k-tile?  Run time against K answers it: t(K) = a + b * K / 64,
# a the fixed cost, b the time per k-tile.
#
#   sh step10_autotune/experiments/fixed_cost/run.sh BUILD OUT
#
# Builds steps 07, 08 and 10 from the tree and steps 08 and 10 with clusters of one
# (variant_no_cluster, as ../m512_chain) as BUILD/stepNN_nocluster; then, at 512 x 4096 x K
# for K = 64, 256, 1024, 4096, one process of each under CUPTI (../launch_gap's
# kernel_times.c): the median run time of the step's kernel and of cuBLAS's in that
# process (OUT/runs.txt), and per binary the least-squares a and b (OUT/fit.txt).
# Step 10 is forced to 128x128/dp, step 09's data-parallel plan is not timed.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step07 step08 step10 BUILD="$BUILD" || exit 1
  for d in step08_cluster_multicast step10_autotune; do
    variant_no_cluster fixed_cost "$d/kernel.cu" "$BUILD/${d}_nocluster.cu"
    variant_build "${d%%_*}_nocluster" "$BUILD/${d}_nocluster.cu" "$BUILD/${d%%_*}_nocluster" -I"$d"
  done
fi
nvidia-smi > /dev/null 2>&1 || { echo "fixed_cost: built in $BUILD; no GPU here"; exit 3; }
cupti_sweep "$OUT" "$BUILD" step07_pingpong step08_cluster_multicast step08_nocluster \
  "step10_autotune --no-cache --config 128x128 --mode dp" "step10_nocluster --no-cache --config 128x128 --mode dp"
cupti_fit "$OUT"
