#!/bin/sh
# small_no_cluster/run.sh: at 512^3 and 1024^3, the two bench shapes under 0.95 of cuBLAS,
# how far do more CTAs and no cluster take step 10's kernel?  cuBLAS runs 64 x 48 tiles in
# clusters of 8 at 512^3 (NOTES.md, "Small shapes"), three times step 10's CTAs; session 9's
# 64 x 64 tile (../smaller_tile) won 512^3 alone, and clusters of one (../no_cluster) cost
# nothing at M = 512 before the start-up barrier was made relaxed.  This puts the two
# together, measured against the tree in one call.
#
#   sh step10_autotune/experiments/small_no_cluster/run.sh BUILD OUT
#
# Builds BUILD/step10_64x64_nc (kernel.cu with ../no_cluster's clusters of one, every
# configuration), then: 3 rounds with the order rotated at four small shapes of the tree's
# model pick against the tree's 64x64/dp (clusters of two), 64x64/dp in clusters of one and
# 64x128/dp in clusters of one (OUT/rounds.txt); both configurations of the clusters-of-one
# build checked at odd shapes, both plans (OUT/checks.txt).  SHAPES="MxNxK ..." times other
# shapes.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
# Its logs: logs/ (session 11) and logs/lean/ (session 15, at 035a7ff with the lean kernel:
# small shapes the bench does not list) were taken before 64x64 was on the menu.  Then
# BUILD/step10_64x64 was kernel.cu with a 64x64 entry patched in (its model constant a
# placeholder, the m64n64 wgmma from ../smaller_tile), and the model picked 64x128/dp at
# every shape; the nc build was that copy with clusters of one.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_no_cluster small_no_cluster step10_autotune/kernel.cu "$BUILD/kernel_64x64_nc.cu"
  variant_build 64x64_nc "$BUILD/kernel_64x64_nc.cu" "$BUILD/step10_64x64_nc"
fi
variant_need_gpu small_no_cluster "$BUILD/step10_64x64_nc"
L=$OUT/rounds.txt; : > "$L"
variant_rotated_rounds "$L" 3 "$BUILD" "${SHAPES:-512x512x512 768x768x768 1024x1024x1024 256x4096x4096}" \
  "step10_autotune --no-cache" "step10_autotune --no-cache --config 64x64 --mode dp" \
  "step10_64x64_nc --no-cache --config 64x64 --mode dp" "step10_64x64_nc --no-cache --config 64x128 --mode dp"
variant_checks "$BUILD/step10_64x64_nc" "$OUT/checks.txt" 64x64 64x128
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(wc -l < "$OUT/checks.txt")"
