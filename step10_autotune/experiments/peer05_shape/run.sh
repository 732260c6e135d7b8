#!/bin/sh
# peer05_shape/run.sh: at M = 512, does step 10 reach CUTLASS's step 05 peer (0.97 at
# 512x4096x4096) when it runs that peer's shape of work: both consumer warpgroups on one
# 128 x 128 tile, and no cluster?  ../coop128 tried the cooperative tile in clusters of
# two, ../no_cluster the pingpong tile without a cluster; this puts the two together.
#
#   sh step10_autotune/experiments/peer05_shape/run.sh BUILD OUT
#
# Builds BUILD/step10_peer05: kernel.cu with CLUSTER_SIZE 1 (../no_cluster's patch) and
# one more menu entry, 128x128c (../coop128's), and BUILD/step10_autotune and
# BUILD/step07_pingpong from the tree.  Checks 128x128c at odd shapes, then 3 rounds at
# 512x4096x4096 and 512x4096x14336: step 07; CUTLASS's step 05 peer (copy
# build/peers/cutlass_step05 into BUILD first: `make peers` builds it; without it its
# lines stay empty); the tree's 128x128/dp; the variant's 128x128/dp (pingpong, no
# cluster) and 128x128c/dp (cooperative, no cluster).
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
SRC=$BUILD/kernel_peer05.cu
. "$(dirname "$0")/../variant.sh"
variant_no_cluster peer05_shape step10_autotune/kernel.cu "$SRC"
sed -i -e 's/^\(    MENU_CONFIG("128x256c", 1, 256, 2, 1, CHOOSER_KT_US_128x256c),\)/    MENU_CONFIG("128x128c", 1, 128, 2, 1, 0.30),\n\1/' "$SRC"
grep -q 'MENU_CONFIG("128x128c", 1, 128, 2' "$SRC" ||
  { echo "peer05_shape: kernel.cu changed; the patch no longer applies"; exit 1; }
REFERENCE=1 variant_build peer05 "$SRC" "$BUILD/step10_peer05"
[ "${PREBUILT:-0}" = 1 ] || make -s step07 BUILD="$BUILD" || exit 1
variant_need_gpu peer05_shape "$BUILD/step10_peer05"
L=$OUT/peer05_shape.txt
variant_checks "$BUILD/step10_peer05" "$L" 128x128c
variant_rounds "$L" 3 "$BUILD" "512x4096x4096 512x4096x14336" "step07_pingpong" "cutlass_step05" \
  "step10_autotune --no-cache --config 128x128 --mode dp" "step10_peer05 --no-cache --config 128x128 --mode dp" \
  "step10_peer05 --no-cache --config 128x128c --mode dp"
