#!/bin/sh
# no_cluster/run.sh: does the cluster of two cost step 10 the M = 512 shapes?
# At 512 x 4096 x 4096 step 07 (pingpong, no cluster) reads 0.98 of cuBLAS and
# step 08 (the same tile in clusters of two sharing A) 0.95; step 10 reads 0.95
# and CUTLASS's step 05 peer (no cluster) 0.97 (README.md's table).
#
#   sh step10_autotune/experiments/no_cluster/run.sh BUILD OUT
#
# Builds BUILD/step10_nocluster: step 10's kernel.cu with CLUSTER_SIZE 1 (every
# configuration launched in clusters of one: each CTA loads its whole A and B
# boxes, the "multicast" goes to itself, and the release to a partner is left
# out), then alternates it with BUILD/step10_autotune (the tree's build), the
# same configuration and plan forced, 3 rounds, and checks it at odd shapes.
# PREBUILT=1 skips nvcc (the binaries were built from this tree).  Exits 3
# without a GPU after building.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
SRC=$BUILD/kernel_nocluster.cu
. "$(dirname "$0")/../variant.sh"
variant_no_cluster no_cluster step10_autotune/kernel.cu "$SRC"
REFERENCE=1 variant_build no_cluster "$SRC" "$BUILD/step10_nocluster"
variant_need_gpu no_cluster "$BUILD/step10_nocluster"
L=$OUT/no_cluster.txt
variant_checks "$BUILD/step10_nocluster" "$L" 128x128 128x256c
variant_rounds "$L" 3 "$BUILD" "512x4096x4096 512x4096x14336 512x14336x4096 1024x4096x4096 4096x4096x4096" \
  "step10_autotune --no-cache --config 128x128 --mode dp" "step10_nocluster --no-cache --config 128x128 --mode dp" \
  "step10_autotune --no-cache --config 128x256c --mode dp" "step10_nocluster --no-cache --config 128x256c --mode dp"
