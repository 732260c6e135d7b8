#!/bin/sh
# m512_chain/run.sh: at M = 512 step 07 reads 0.98 of cuBLAS and step 10's same pingpong
# tile 0.95, and without its cluster still 0.955 (../peer05_shape).  Which step's addition
# costs the rest: step 08's (the cluster and its walk), step 09's (stream-K's plumbing) or
# step 10's (the menu)?
#
#   sh step10_autotune/experiments/m512_chain/run.sh BUILD OUT
#
# Builds steps 07-10 from the tree, and steps 08, 09 and 10 again with CLUSTER_SIZE 1
# (../no_cluster's patch: clusters of one, no remote release) as BUILD/stepNN_nocluster.
# Then 3 rounds at 512x4096x4096 and 512x4096x14336, every binary once per round (steps
# 09 and 10 forced to the data-parallel plan, step 10 to 128x128), each against cuBLAS.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
. "$(dirname "$0")/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step07 step08 step09 step10 BUILD="$BUILD" || exit 1
  for d in step08_cluster_multicast step09_stream_k step10_autotune; do
    variant_no_cluster m512_chain "$d/kernel.cu" "$BUILD/${d}_nocluster.cu"
    variant_build "${d%%_*}_nocluster" "$BUILD/${d}_nocluster.cu" "$BUILD/${d%%_*}_nocluster" -I"$d"
  done
fi
nvidia-smi > /dev/null 2>&1 || { echo "m512_chain: built in $BUILD; no GPU here"; exit 3; }
L=$OUT/m512_chain.txt
variant_rounds "$L" 3 "$BUILD" "512x4096x4096 512x4096x14336" step07_pingpong step08_cluster_multicast \
  step08_nocluster "step09_stream_k --mode dp" "step09_nocluster --mode dp" \
  "step10_autotune --no-cache --config 128x128 --mode dp" "step10_nocluster --no-cache --config 128x128 --mode dp"
