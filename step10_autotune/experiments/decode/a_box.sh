#!/bin/sh
# decode/a_box.sh BUILD OUT: does 64x64 lose its decode shapes to A's padding rows (session 19)?
#
# ncu (logs/ncu_dram_why.txt): at 8 x 8192 x 28672 64x64/dp reached 56% of DRAM's peak and took 177 us,
# at 64 x 8192 x 28672, eight times the rows of A, 84% and 118 us.  At M = 8 each k-tile's A box asked
# TMA for 64 rows of which 56 lie past M (zero-filled, counted in the transaction bytes).  A CTA alone
# (64x64: no multicast halves) can ask for fewer: rows rounded up to 8 (one 128-byte swizzle atom), the
# box's bytes announced at run time (kernel_params.stage_tx; since session 25 map_shared_edge and
# shared_edge_tx).  The tree does that since this experiment
# (kernel.cu, config_prepare); its first run patched the cut into the tree before it (logs/a_box/:
# "abox" there is the cut, "step10_autotune" the full box).  Since session 20 the tree cuts a pair's
# A too (pair_cut.sh); the full box here is the full box for every configuration.
#
# Builds the tree (BUILD/step10_autotune) and the tree with the full box again (BUILD/fullbox/), then
# checks 64x64 and 64x128 at odd shapes and 64x64 in every plan at M = 1, 8, 33 and 63 against cuBLAS
# with the tree's build, then 3 rotated rounds of both builds: 64x64 forced to dp, and the model's pick,
# at decode shapes.
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: a_box.sh BUILD OUT}; OUT=${2:?usage: a_box.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_patch_py "$BUILD" fullbox <<'PY'
edit("    const int half = SHARE_B ? B_HALF_ROWS : A_HALF_ROWS, shared_left = SHARE_B ? op->n % BN : op->m % BM;\n",
     "    const int half = SHARE_B ? B_HALF_ROWS : A_HALF_ROWS, shared_left = 0;   /* experiment: the full box, rows past M too */\n")
PY
fi
variant_need_gpu a_box "$BUILD/fullbox/step10_autotune"
variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x64 64x128
variant_check_grid "$BUILD/step10_autotune" "$OUT/checks.txt" "1x4096x4096 8x6144x1032 33x520x4096 63x300x8192" \
  "dp sk cap auto" 64x64
echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
: > "$OUT/rounds.txt"
S="8x8192x28672 32x8192x8192 16x4096x4096 8x6144x4096 1x14336x4096 32x4096x14336"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "$S" \
  "fullbox/step10_autotune --no-cache --config 64x64 --mode dp" "step10_autotune --no-cache --config 64x64 --mode dp" \
  "fullbox/step10_autotune --no-cache" "step10_autotune --no-cache"
variant_rounds_summary "$OUT/rounds.txt" "$OUT/summary.txt"
