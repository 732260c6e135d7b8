#!/bin/sh
# pair_alone/run.sh BUILD OUT: where N fits one tile of a pair's configuration, does that configuration
# run alone (a cluster of one) beat its pair?
#
# A pair sits along N and shares A (64x128, 128x128, 128x192).  Where N fits in one of its tiles, its
# second CTA walks a padding tile (common/cluster_schedule.h: computed, not stored): half the SMs hold
# MMAs nothing keeps, and the model counts those CTAs (11008 x 96 x 4096: the best candidate 0.54 of
# cuBLAS, decode/logs/share/).  64x64 runs alone and cuts B to N, but at N = 65-128 it covers N with two
# tiles.  Builds step 10 and BUILD/alone/step10_autotune, the same with every pingpong tile alone
# (CLUSTER_SIZE 1 unless TILE_WGS is 2; its B cut to N as 64x64's, and the chooser sees clusters of one),
# checks the alone build at odd shapes, then --tune --explain of both builds at the shapes of
# ../pair_alone_shapes.txt (drawn before this ran, with my guess): every candidate interleaved with
# cuBLAS in one process per shape and build.  summary.py puts the two builds side by side.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
[ "${PREBUILT:-0}" = 1 ] || make -s step10 BUILD="$BUILD" || exit 1
variant_patch_py "$BUILD" alone <<'PY'
edit('#define CLUSTER_SIZE (BM * BN > 64 * 64 ? 2 : 1)\n',
     '#define CLUSTER_SIZE (TILE_WGS == 2 ? 2 : 1)   /* experiment pair_alone: every pingpong tile alone */\n')
PY
variant_need_gpu pair_alone "$BUILD/alone/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
variant_checks "$BUILD/alone/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
bash "$HERE/../tune_sweep.sh" "$HERE/../pair_alone_shapes.txt" "$OUT/tree" "$BUILD/step10_autotune"
bash "$HERE/../tune_sweep.sh" "$HERE/../pair_alone_shapes.txt" "$OUT/alone" "$BUILD/alone/step10_autotune"
python3 "$HERE/summary.py" "$OUT/tree" "$OUT/alone" | tee "$OUT/summary.txt"
