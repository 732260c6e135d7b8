#!/bin/sh
# coop_epilogue/run.sh: how much of 128x256c's time is its exposed epilogue, and would
# storing D straight from the registers hide it?
#
# 128x256c is cooperative: both consumer warpgroups store their halves of the tile
# together while no wgmma runs (the model's CHOOSER_EPI_US_COOP, fitted at ~1 us per
# tile).  Each warpgroup stores four 64 x 64 sub-tiles through two shared D buffers;
# the third sub-tile waits until the TMA store of the first has read its buffer, and
# every sub-tile takes two named barriers.  A store from the registers (the masked
# path kernel.cu takes when N % 8 != 0) needs no buffer, no barrier and no wait: the
# warpgroup issues its stores and goes on to the next tile's wgmmas while they drain.
#
#   sh step10_autotune/experiments/coop_epilogue/run.sh BUILD OUT
#
# Builds BUILD/step10_regstore: kernel.cu with the TMA-store branch of epilogue_store
# taken by the pingpong tiles only (128x256c stores from its registers), and
# BUILD/step10_autotune (the tree's build).  Then:
#   1. a timeline of the tree's 128x256c/dp at 4096^3 (--trace): the epilogue's span
#      against the k-tiles' (OUT/trace_4096_128x256c.csv);
#   2. both binaries at odd shapes, checked (variant_checks);
#   3. the two alternated, 3 rounds, 128x256c/dp forced, at the shapes the model sends
#      to it (OUT/coop_epilogue.txt).
# PREBUILT=1 skips nvcc (the binaries were built from this tree).  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
SRC=$BUILD/kernel_regstore.cu
# (since the lean kernel, c477404, the condition also names cc->lean: whole tiles take the
# TMA path in that kernel, and the patch sends 128x256c's to the register stores there too)
sed -e 's/^    if (cc->lean || P->use_tma_store) {$/    if ((cc->lean || P->use_tma_store) \&\& TILE_WGS == 1) {/' step10_autotune/kernel.cu > "$SRC"
grep -q '^    if ((cc->lean || P->use_tma_store) && TILE_WGS == 1) {$' "$SRC" ||
  { echo "coop_epilogue: kernel.cu changed; the patch no longer applies"; exit 1; }
. "$(dirname "$0")/../variant.sh"
REFERENCE=1 variant_build regstore "$SRC" "$BUILD/step10_regstore"
variant_need_gpu coop_epilogue "$BUILD/step10_regstore"
L=$OUT/coop_epilogue.txt
"$BUILD/step10_autotune" --m 4096 --n 4096 --k 4096 --no-cache --no-check --config 128x256c --mode dp \
    --trace "$OUT/trace_4096_128x256c.csv" > "$OUT/trace_run.log" 2>&1
echo "trace rc=$?" >> "$L"
variant_checks "$BUILD/step10_regstore" "$L" 128x256c
variant_rounds "$L" 3 "$BUILD" \
  "4096x4096x4096 8192x4096x4096 6144x6144x6144 2048x4096x4096 4096x4096x14336 1024x4096x4096 8192x8192x8192" \
  "step10_autotune --no-cache --config 128x256c --mode dp" "step10_regstore --no-cache --config 128x256c --mode dp"
