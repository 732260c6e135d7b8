#!/bin/sh
# coop128x64/run.sh: would cuBLAS's own tile at 1024^3 (nvjet 128x64, 1x2 clusters:
# experiments/small_ncu) earn a place in the menu?  At 1024^3 step 10's 64x128 and
# cuBLAS's kernel give every SM the same tensor work (128 CTAs, 16 k-tiles), and
# cuBLAS's SM is busy ~2,200 fewer cycles (NOTES.md, "Small shapes").  64x128
# pingpong has one tile per CTA there, so one consumer warpgroup works and its
# partner waits; a cooperative 128x64 puts both on the tile (64 x 64 each) and
# stores half the tile per warpgroup.
#
#   sh step10_autotune/experiments/coop128x64/run.sh BUILD OUT
#
# Builds two copies of step 10's kernel.cu with one more menu entry,
# MENU_CONFIG("128x64c", 1, 64, 2, ...) (the m64n64 wgmma of 64x64, on the menu
# since session 15; a wrapper of ../smaller_tile before):
#   BUILD/step10_c128x64a  its pair lies along N and shares A (64 + 64 box rows per
#                          k-tile per CTA, cuBLAS's 1x2); SHARE_B becomes
#                          "cooperative and BN > BM", so 128x256c still shares B;
#   BUILD/step10_c128x64b  kernel.cu's rule as it is: every cooperative pair shares B
#                          (128 + 32 rows).
# Then --tune at small and mid shapes (every candidate against cuBLAS, interleaved,
# the best two head to head) and forced runs of 128x64c, both plans, at odd shapes
# (checked; --exact where K <= 256).  The model's constant for 128x64c is a
# placeholder: only --tune and --config are used.  Exits 3 without a GPU after
# building; PREBUILT=1 skips nvcc (../variant.sh).
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
HERE=$(dirname "$0")
. "$HERE/../variant.sh"
for v in a b; do
  SRC=$BUILD/kernel_c128x64$v.cu
  rule='s/^#define SHARE_B (TILE_WGS == 2) /#define SHARE_B (TILE_WGS == 2 \&\& BN > BM) /'
  [ $v = b ] && rule='s/^$//'
  cp step10_autotune/kernel.cu "$SRC"
  sed -i -e 's/^\(    MENU_CONFIG("128x256c", 1, 256, 2, 2, CHOOSER_KT_US_128x256c),.*\)$/\1\n    MENU_CONFIG("128x64c", 1, 64, 2, 2, 0.15),/' \
      -e "$rule" "$SRC"
  grep -q 'MENU_CONFIG("128x64c", 1, 64, 2' "$SRC" ||
    { echo "coop128x64: kernel.cu changed; the patch no longer applies"; exit 1; }
  if [ $v = a ]; then grep -q '^#define SHARE_B (TILE_WGS == 2 && BN > BM) ' "$SRC" ||
    { echo "coop128x64: SHARE_B's line changed; the patch no longer applies"; exit 1; }; fi
done
variant_build c128x64a "$BUILD/kernel_c128x64a.cu" "$BUILD/step10_c128x64a"
variant_build c128x64b "$BUILD/kernel_c128x64b.cu" "$BUILD/step10_c128x64b"
variant_need_gpu coop128x64 "$BUILD/step10_c128x64a"
variant_tune "$BUILD/step10_c128x64a" "$OUT/tune_c128x64a.txt" 1024x1024x1024 768x768x768 512x512x512 \
     1024x1024x2048 1024x1024x4096 1024x1024x14336 512x4096x4096 512x4096x14336 1024x4096x4096 \
     256x4096x4096 192x8192x4096 1536x1536x1536 2048x2048x2048
variant_tune "$BUILD/step10_c128x64b" "$OUT/tune_c128x64b.txt" 1024x1024x1024 1024x1024x4096 512x4096x4096
variant_checks "$BUILD/step10_c128x64a" "$OUT/tune_c128x64a.txt" 128x64c
variant_checks "$BUILD/step10_c128x64b" "$OUT/tune_c128x64b.txt" 128x64c
