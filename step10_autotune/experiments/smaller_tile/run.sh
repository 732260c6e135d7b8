#!/bin/sh
# smaller_tile/run.sh: would a 64 x 64 tile (twice 64 x 128's tiles again)
# earn a place in the menu, i.e. win at least two bench shapes?
#
#   sh step10_autotune/experiments/smaller_tile/run.sh BUILD OUT
#
# Builds BUILD/step10_64x64: step 10's kernel.cu with one more menu entry,
# MENU_CONFIG("64x64", 1, 64, ...), and its wgmma wrapper from this folder
# (wgmma_m64n64.cuh, included after common/wgmma.cuh),
# then runs --tune at small and mid shapes (every candidate against cuBLAS)
# and a forced 64x64 run of both plans at odd shapes (checked; --exact, bit
# for bit, where K <= 256).  The model's constant for 64x64 is a placeholder:
# only --tune and --config are used.  Exits 3 without a GPU after building;
# PREBUILT=1 skips nvcc (../variant.sh, the build and checks these share).
# Its one run is logs/tune_64x64.txt (NOTES.md, "Small shapes"): 64x64/dp
# won 512^3 only.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
SRC=$BUILD/kernel_64x64.cu
. "$(dirname "$0")/../variant.sh"
variant_wgmma_n64 smaller_tile step10_autotune/kernel.cu "$SRC"
sed -i -e 's/^\(    MENU_CONFIG("64x128", 1, 128, 1, CHOOSER_KT_US_64x128),\)/    MENU_CONFIG("64x64", 1, 64, 1, 0.5),\n\1/' "$SRC"
grep -q 'MENU_CONFIG("64x64"' "$SRC" || { echo "smaller_tile: kernel.cu changed; the patch no longer applies"; exit 1; }
variant_build smaller_tile "$SRC" "$BUILD/step10_64x64" -I"$(dirname "$0")"
variant_need_gpu smaller_tile "$BUILD/step10_64x64"
variant_tune "$BUILD/step10_64x64" "$OUT/tune_64x64.txt" 512x512x512 768x768x768 1024x1024x1024 1024x1024x2048 \
  1024x1024x4096 512x4096x4096 256x4096x4096 192x8192x4096 2048x2048x2048 1536x1536x1536 1024x1024x14336 768x768x12288
variant_checks "$BUILD/step10_64x64" "$OUT/tune_64x64.txt" 64x64
