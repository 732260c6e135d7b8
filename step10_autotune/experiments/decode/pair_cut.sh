#!/bin/sh
# decode/pair_cut.sh BUILD OUT [checks|rounds|level|immcount]: does a pair lose its decode shapes to A's padding rows, as 64x64 did
# (a_box.sh, session 19)?  Session 20.
#
# A pair along N shares its A box: each CTA loads half of BM's rows and multicasts them.  At M = 8 with
# 64x128, rank 0 asked for 32 rows of which 24 lie past M and rank 1 for 32 all past M; ncu read 67% of
# DRAM's peak at 8 x 4096 x 14336 against 78% at M = 64 (logs/ncu_dram_why.txt).  Since this experiment
# the tree (kernel.cu, config_prepare) has rank 0 ask for M's rows rounded up to 8 and rank 1 for none
# wherever M fits in rank 0's half (kernel_params.a_loaders, stage_tx).  This script builds the tree
# (BUILD/step10_autotune) and the tree with the pairs' halves whole again (BUILD/halfbox/: 64x64 still
# cut, as since c36827a), checks every pair configuration at shapes where the cut applies and where it
# just does not (M = 1, 8, 25, 32, 33, 63, 64; edges in N; one k-tile) and the odd shapes of
# variant_checks against cuBLAS with the tree's build, then 3 rotated rounds of both builds: 64x128 and
# 128x128 forced to dp, and the model's pick, at decode shapes.  With BEFORE=BIN (a build of the tree
# before the cut: ef1c92a), 3 rotated rounds of it and the tree at shapes the cut does not touch: the
# same speed is the claim there; it measured level or up to 0.8% behind (1024^3, 64 x 4096 x 4096;
# logs/pair_cut/final/level_summary.txt).  Is that the pair's transaction count, an immediate before
# and read from kernel_params since?  BUILD/immcount/ is the tree with a third producer loop for
# whole halves, the count an immediate again as in ef1c92a's (in its SASS 64x128's IMAD.MOV of 0x6000
# is back; the rest of the loop is scheduled a little differently); the immcount part (BEFORE=BIN
# too) times it beside the tree and BIN at four of those shapes (not yet run: session 20's device time
# was spent).
# A third argument runs that part alone (default: the first three).
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: pair_cut.sh BUILD OUT [checks|rounds|level|immcount]}; OUT=${2:?usage: pair_cut.sh BUILD OUT [checks|rounds|level|immcount]}
PART=${3:-all}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_patch_py "$BUILD" halfbox <<'PY'
edit("    const int cut = !SHARE_B && op->m <= A_HALF_ROWS, a_rows = cut ? (op->m + 7) / 8 * 8 : A_HALF_ROWS;\n",
     "    const int cut = CLUSTER_SIZE == 1 && op->m <= A_HALF_ROWS, a_rows = cut ? (op->m + 7) / 8 * 8 : A_HALF_ROWS;   /* experiment */\n")
PY
  variant_patch_py "$BUILD" immcount <<'PY'
edit("            mbar_arrive_expect_tx(bar, P->stage_tx);\n",
     "            mbar_arrive_expect_tx(bar, LOAD_A == 2 ? STAGE_BYTES : P->stage_tx);   /* experiment: 2, whole halves */\n")
edit("        if (load_a) producer_load_tile<WG_M_BLOCKS, BN, TILE_WGS, 1>(P, pc, &u);\n",
     "        if (load_a && P->stage_tx == STAGE_BYTES) producer_load_tile<WG_M_BLOCKS, BN, TILE_WGS, 2>(P, pc, &u);   /* experiment */\n"
     "        else if (load_a) producer_load_tile<WG_M_BLOCKS, BN, TILE_WGS, 1>(P, pc, &u);\n")
PY
fi
variant_need_gpu pair_cut "$BUILD/halfbox/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
if [ "$PART" = checks ] || [ "$PART" = all ]; then
  : > "$OUT/checks.txt"
  variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x64 64x128 128x128 128x192 128x256c
  variant_check_grid "$BUILD/step10_autotune" "$OUT/checks.txt" \
    "1x4097x4096 8x6144x1032 24x4100x264 25x520x64 32x1000x4096 33x4096x520 40x1001x136 63x300x8192 64x4104x136" \
    "dp sk cap auto" 64x128 128x128 128x192
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
fi
if [ "$PART" = rounds ] || [ "$PART" = all ]; then
  : > "$OUT/rounds.txt"
  S="1x14336x4096 8x28672x4096 8x4096x14336 16x65536x2048 24x6144x8192 32x11008x14336"
  variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "$S" \
    "halfbox/step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 64x128 --mode dp" \
    "halfbox/step10_autotune --no-cache --config 128x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp" \
    "halfbox/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_rounds_summary "$OUT/rounds.txt" "$OUT/summary.txt"
fi
if [ -n "${BEFORE:-}" ] && { [ "$PART" = level ] || [ "$PART" = all ]; }; then
  mkdir -p "$BUILD/before" && cp "$BEFORE" "$BUILD/before/step10_autotune" || exit 1
  : > "$OUT/level_rounds.txt"
  variant_rotated_rounds "$OUT/level_rounds.txt" 3 "$BUILD" "512x512x512 1024x1024x1024 2048x2048x2048 4096x4096x4096 512x4096x4096 64x4096x4096" \
    "before/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_rounds_summary "$OUT/level_rounds.txt" "$OUT/level_summary.txt"
fi
if [ -n "${BEFORE:-}" ] && [ "$PART" = immcount ]; then
  mkdir -p "$BUILD/before" && cp "$BEFORE" "$BUILD/before/step10_autotune" || exit 1
  : > "$OUT/immcount_rounds.txt"
  variant_rotated_rounds "$OUT/immcount_rounds.txt" 3 "$BUILD" "1024x1024x1024 2048x2048x2048 64x4096x4096 512x512x512" \
    "before/step10_autotune --no-cache" "step10_autotune --no-cache" "immcount/step10_autotune --no-cache"
  variant_rounds_summary "$OUT/immcount_rounds.txt" "$OUT/immcount_summary.txt"
fi
