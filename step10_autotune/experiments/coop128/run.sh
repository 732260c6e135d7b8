#!/bin/sh
# coop128/run.sh: would a cooperative 128 x 128 tile (both consumer warpgroups on
# one 128 x 128 tile, 64 rows each, as CUTLASS's step 05 peer and step 05 itself)
# earn a place in the menu?  At M = 512 the peer beats every configuration
# (512 x 4096 x {4096, 14336}: NOTES.md, "Results"), where 128x128 pingpong has
# one tile per CTA and so one warpgroup working, its partner idle.
#
#   sh step10_autotune/experiments/coop128/run.sh BUILD OUT
#
# Builds BUILD/step10_coop128: step 10's kernel.cu with one more menu entry,
# MENU_CONFIG("128x128c", 1, 128, 2, ...): TILE_WGS = 2, so its pair lies along
# M and shares B like 128x256c's.  Then --tune at the M = 512 shapes and their
# neighbours (every candidate against cuBLAS, interleaved), and forced runs of
# both plans at odd shapes (checked; --exact where K <= 256, bit for bit).  The
# model's constant for 128x128c is a placeholder: only --tune and --config are
# used.  Exits 3 without a GPU after building; PREBUILT=1 skips nvcc
# (../variant.sh, the build and checks the patched-kernel experiments share).
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
SRC=$BUILD/kernel_coop128.cu
sed -e 's/^\(    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),\)/    MENU_CONFIG("128x128c", 1, 128, 2, 2, 0.30),\n\1/' \
    step10_autotune/kernel.cu > "$SRC"
grep -q 'MENU_CONFIG("128x128c", 1, 128, 2' "$SRC" ||
  { echo "coop128: kernel.cu changed; the patch no longer applies"; exit 1; }
. "$(dirname "$0")/../variant.sh"
variant_build coop128 "$SRC" "$BUILD/step10_coop128"
variant_need_gpu coop128 "$BUILD/step10_coop128"
variant_tune "$BUILD/step10_coop128" "$OUT/tune_coop128.txt" 512x4096x4096 512x4096x14336 512x14336x4096 1024x4096x4096 \
  256x4096x4096 128x14336x4096 999x2048x4096 2048x2048x2048 1024x1024x1024 1536x1536x1536 4096x4096x4168
variant_checks "$BUILD/step10_coop128" "$OUT/tune_coop128.txt" 128x128c
