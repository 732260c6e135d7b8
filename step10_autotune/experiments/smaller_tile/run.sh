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
sed -e 's/static_assert(N_ACC == 64 || N_ACC == 96 || N_ACC == 128, "BN must be 128, 192 or 256 (wgmma.cuh)");/static_assert(N_ACC == 32 || N_ACC == 64 || N_ACC == 96 || N_ACC == 128, "BN: 64, 128, 192 or 256");/' \
    -e 's/    if constexpr (N_ACC == 64) wgmma_m64n128k16_bf16/    if constexpr (N_ACC == 32) wgmma_m64n64k16_bf16(acc, da, db, accumulate);\n    else if constexpr (N_ACC == 64) wgmma_m64n128k16_bf16/' \
    -e 's/^\(    MENU_CONFIG("64x128", 1, 128, 1, CHOOSER_KT_US_64x128),\)/    MENU_CONFIG("64x64", 1, 64, 1, 0.5),\n\1/' \
    -e 's/^#include "wgmma.cuh"$/#include "wgmma.cuh"\n#include "wgmma_m64n64.cuh"/' \
    step10_autotune/kernel.cu > "$SRC"
grep -q 'MENU_CONFIG("64x64"' "$SRC" && grep -q 'N_ACC == 32) wgmma_m64n64k16' "$SRC" &&
  grep -q '^#include "wgmma_m64n64.cuh"' "$SRC" ||
  { echo "smaller_tile: kernel.cu changed; the patch no longer applies"; exit 1; }
. "$(dirname "$0")/../variant.sh"
variant_build smaller_tile "$SRC" "$BUILD/step10_64x64" -I"$(dirname "$0")"
variant_need_gpu smaller_tile "$BUILD/step10_64x64"
for sh in 512x512x512 768x768x768 1024x1024x1024 1024x1024x2048 1024x1024x4096 512x4096x4096 256x4096x4096 \
          192x8192x4096 2048x2048x2048 1536x1536x1536 1024x1024x14336 768x768x12288; do
  m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
  "$BUILD/step10_64x64" --m $m --n $n --k $k --no-cache --tune > "$OUT/tune_$sh.log" 2>&1
  { echo "== $sh rc=$?"; grep -h "^tune:\|ratio" "$OUT/tune_$sh.log" | cut -c1-160; } >> "$OUT/tune_64x64.txt"
done
variant_checks "$BUILD/step10_64x64" "$OUT/tune_64x64.txt" 64x64
