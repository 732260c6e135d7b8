#!/bin/sh
# pair_alone/run.sh BUILD OUT: where N fits one tile of a pair's configuration, does that configuration
# run alone (a cluster of one) beat its pair?
#
# A pair sits along N and shares A (64x128, 128x128, 128x192).  Where N fits in one of its tiles, its
# second CTA walks a padding tile (common/cluster_schedule.h: computed, not stored): half the SMs hold
# MMAs nothing keeps, and the model counts those CTAs (11008 x 96 x 4096: the best candidate 0.54 of
# cuBLAS, decode/logs/share/).  64x64 runs alone and cuts B to N, but at N = 65-128 it covers N with two
# tiles.  Builds BUILD/pairs/step10_autotune, step 10 with every pair a pair (-DCHOOSER_ALONE_TILES_N=0:
# the tree before session 23's rule), and BUILD/alone/step10_autotune, every pingpong tile alone (variant.sh's
# variant_pairs_alone; its B cut to N as 64x64's, and the chooser sees clusters of one), checks the alone
# build at odd shapes, then --tune --explain of both builds at the shapes of ../pair_alone_shapes.txt
# (drawn before this ran, with my guess): every candidate interleaved with cuBLAS in one process per shape
# and build.  summary.py puts the two builds side by side.  (logs/first/ came from this script's first form,
# on b1b1ddf's tree, where CLUSTER_SIZE was a macro of the tile and the patch set it to 1 but for 128x256c.)
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/pairs"
. "$HERE/../variant.sh"
cp step10_autotune/kernel.cu "$BUILD/pairs/kernel.cu" || exit 1
variant_build pairs "$BUILD/pairs/kernel.cu" "$BUILD/pairs/step10_autotune" -DCHOOSER_ALONE_TILES_N=0
variant_pairs_alone "$BUILD" alone
variant_need_gpu pair_alone "$BUILD/alone/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
variant_checks "$BUILD/alone/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
bash "$HERE/../tune_sweep.sh" "$HERE/../pair_alone_shapes.txt" "$OUT/tree" "$BUILD/pairs/step10_autotune"
bash "$HERE/../tune_sweep.sh" "$HERE/../pair_alone_shapes.txt" "$OUT/alone" "$BUILD/alone/step10_autotune"
python3 "$HERE/summary.py" "$OUT/tree" "$OUT/alone" | tee "$OUT/summary.txt"
