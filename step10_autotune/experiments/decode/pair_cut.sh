#!/bin/sh
# decode/pair_cut.sh BUILD OUT [checks|rounds|level|leancut]: does a pair lose its decode shapes to A's padding rows, as 64x64 did
# (a_box.sh, session 19)?  Session 20.
#
# A pair along N shares its A box: each CTA loads half of BM's rows and multicasts them.  At M = 8 with
# 64x128, rank 0 asked for 32 rows of which 24 lie past M and rank 1 for 32 all past M; ncu read 67% of
# DRAM's peak at 8 x 4096 x 14336 against 78% at M = 64 (logs/ncu_dram_why.txt).  Since this experiment
# the tree (kernel.cu, config_prepare) has rank 0 ask for M's rows rounded up to 8 and rank 1 for none
# wherever M fits in rank 0's half (kernel_params.a_loaders and stage_tx until session 25, whose
# map_shared_edge makes it the case of one tile row).  This script builds the tree
# (BUILD/step10_autotune) and the tree with the pairs' halves whole again (BUILD/halfbox/: 64x64 still
# cut, as since c36827a; since session 25 the pairs' shared box whole in every last tile row), checks every pair configuration at shapes where the cut applies and where it
# just does not (M = 1, 8, 25, 32, 33, 63, 64; edges in N; one k-tile) and the odd shapes of
# variant_checks against cuBLAS with the tree's build, then 3 rotated rounds of both builds: 64x128 and
# 128x128 forced to dp, and the model's pick, at decode shapes.  With BEFORE=BIN (a build of the tree
# before the cut: ef1c92a), 3 rotated rounds of it and the tree at shapes the cut does not touch: the
# same speed is the claim there; it measured level or up to 0.8% behind (1024^3, 64 x 4096 x 4096;
# logs/pair_cut/final/level_summary.txt).  Was that the pair's transaction count, an immediate before
# and read from kernel_params since?  Session 21 timed a third producer loop for whole halves with the
# count an immediate again (the immcount build, d66fade's tree patched): 1-2% slower still
# (logs/pair_cut/immcount/), so the loops' code, not the count.  Since then the lean kernel comes twice
# for a pair (kernel.cu's MENU_CONFIG, A_CUT; PAIR_CUT until session 25): halves whole, its code ef1c92a's instruction for
# instruction, and with both loops where rank 1 loads no A.  The leancut part (BEFORE=BIN and
# ONELEAN=BIN, a build of d66fade: one lean kernel with both loops) times BIN, ONELEAN's and the tree
# at four of those shapes, then ONELEAN and the tree with 64x128 and 128x128 forced to dp at two decode
# shapes where rank 1 loads no A, ROUNDS rounds each (default 3).
# A third argument runs that part alone (default: the first three).
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: pair_cut.sh BUILD OUT [checks|rounds|level|leancut]}; OUT=${2:?usage: pair_cut.sh BUILD OUT [checks|rounds|level|leancut]}
PART=${3:-all}
case $PART in checks|rounds|level|leancut|all) ;; *) echo "pair_cut.sh: unknown part $PART" >&2; exit 2 ;; esac
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_patch_py "$BUILD" halfbox <<'PY'
edit("    const int half = SHARE_B ? B_HALF_ROWS : A_HALF_ROWS, shared_left = SHARE_B ? op->n % BN : op->m % BM;\n",
     "    const int half = SHARE_B ? B_HALF_ROWS : A_HALF_ROWS, shared_left = CLUSTER_SIZE == 1 ? op->m % BM : 0;   /* experiment */\n")
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
if [ "$PART" = leancut ]; then
  [ -n "${BEFORE:-}" ] && [ -n "${ONELEAN:-}" ] || { echo "pair_cut.sh leancut: needs BEFORE=BIN and ONELEAN=BIN" >&2; exit 2; }
  mkdir -p "$BUILD/before" "$BUILD/onelean" && cp "$BEFORE" "$BUILD/before/step10_autotune" &&
    cp "$ONELEAN" "$BUILD/onelean/step10_autotune" || exit 1
  : > "$OUT/leancut_rounds.txt"
  variant_rotated_rounds "$OUT/leancut_rounds.txt" "${ROUNDS:-3}" "$BUILD" "1024x1024x1024 2048x2048x2048 64x4096x4096 512x512x512" \
    "before/step10_autotune --no-cache" "onelean/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_rounds_summary "$OUT/leancut_rounds.txt" "$OUT/leancut_summary.txt"
  : > "$OUT/leancut_decode_rounds.txt"   # the cut's kernel: ONELEAN's lean one, launched where rank 1 loads no A
  variant_rotated_rounds "$OUT/leancut_decode_rounds.txt" "${ROUNDS:-3}" "$BUILD" "1x14336x4096 32x11008x14336" \
    "onelean/step10_autotune --no-cache --config 64x128 --mode dp" "step10_autotune --no-cache --config 64x128 --mode dp" \
    "onelean/step10_autotune --no-cache --config 128x128 --mode dp" "step10_autotune --no-cache --config 128x128 --mode dp"
  variant_rounds_summary "$OUT/leancut_decode_rounds.txt" "$OUT/leancut_decode_summary.txt"
fi
