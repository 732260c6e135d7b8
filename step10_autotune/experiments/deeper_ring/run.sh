#!/bin/sh
# deeper_ring/run.sh BUILD OUT: would a ninth stage help 64x128 at the small squares?
#
# At 1024^3 the model's 64x128/dp reads 0.81 of cuBLAS with 4 stages and 0.94 with 8 (stages.sh,
# logs/stages.txt; 8 is the most that fit: 8 x 24 KiB of ring + 16 KiB of D buffers), so its k-tiles wait on the
# loads: the ring's depth sets their rate.  A ninth stage fits if the epilogue keeps one D
# buffer instead of two (9 x 24 + 8 = 224 KiB of 227): with one tile per CTA (1024^3: 128
# tiles on 132 SMs) the epilogue overlaps nothing anyway, and its second 64x64 sub-tile only
# waits for the first one's store to have read the buffer.
# (Measured: that wait costs 1-2% at 768^3 and 1024^3, and the ninth stage gains nothing;
# ../../NOTES.md, "Session 13".)
#
# Builds step 10 with EPI_BUFS 1 and a ring of up to 10 stages (BUILD/ring/: variant.sh's
# variant_deeper_ring, -DSMEM_LAYOUT_MAX_STAGES=10; since session 22 the tree's cap is 16).  Then 3 rounds at 512^3, 768^3 and 1024^3 of 64x128/dp: the tree at 6, 7
# and 8 stages, the build at 8 (the cost of one D buffer) and 9; the checks at odd shapes.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_deeper_ring "$BUILD" ring 10 '#define EPI_BUFS 1                 /* experiment: one D buffer */'
fi
variant_need_gpu deeper_ring "$BUILD/ring/step10_autotune"
variant_checks "$BUILD/ring/step10_autotune" "$OUT/checks.txt" 64x128 128x256c
f="--no-cache --config 64x128 --mode dp"
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "512x512x512 768x768x768 1024x1024x1024" \
  "step10_autotune $f --stages 6" "step10_autotune $f --stages 7" "step10_autotune $f --stages 8" \
  "ring/step10_autotune $f --stages 8" "ring/step10_autotune $f --stages 9"
