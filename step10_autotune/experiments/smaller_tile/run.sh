#!/bin/sh
# smaller_tile/run.sh: would a 64 x 64 tile (twice 64 x 128's tiles again)
# earn a place in the menu, i.e. win at least two bench shapes?
#
#   sh step10_autotune/experiments/smaller_tile/run.sh BUILD OUT
#
# Runs --tune of step 10 at small and mid shapes (every candidate against
# cuBLAS) and a forced 64x64 run of both plans at odd shapes (checked;
# --exact, bit for bit, where K <= 256).  Exits 3 without a GPU after
# building; PREBUILT=1 skips nvcc (../variant.sh, the build and checks these
# share).  Its runs, logs/tune_64x64.txt (session 9) and
# logs/tune_64x64_0215d23.txt, were taken when 64x64 was not yet on the menu
# (a patched copy of kernel.cu, its model constant a placeholder): 64x64/dp
# won 512^3 only (NOTES.md, "Small shapes").  Since the lean kernel it wins
# the shapes whose 64 x 128 tiles leave most SMs idle
# (../small_no_cluster/logs/lean/), and it is on the menu (session 15).
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
BIN=$BUILD/step10_autotune
. "$(dirname "$0")/../variant.sh"
[ "${PREBUILT:-0}" = 1 ] || make -s step10 BUILD="$BUILD" || exit 1
variant_need_gpu smaller_tile "$BIN"
variant_tune "$BIN" "$OUT/tune_64x64.txt" 512x512x512 768x768x768 1024x1024x1024 1024x1024x2048 \
  1024x1024x4096 512x4096x4096 256x4096x4096 192x8192x4096 2048x2048x2048 1536x1536x1536 1024x1024x14336 768x768x12288
variant_checks "$BIN" "$OUT/tune_64x64.txt" 64x64
