#!/bin/sh
# pair_alone/judge.sh BUILD OUT [PART...]: the alone rule (chooser_cluster, session 23) on the GPU.
#
# The rule: a pair along N whose N leaves it an odd number of tiles runs alone (its own kernels, CLUSTER_SIZE 1),
# up to CHOOSER_ALONE_TILES_N: 3 when checks, rounds and tune ran (b49313c), 7 since the threshold part.
# Builds the tree (BUILD/step10_autotune, copied to BUILD/tree), the tree before the rule (BUILD/base: b1b1ddf's kernel.cu and
# chooser.h) and the tree with the rule at any odd count (BUILD/a99: -DCHOOSER_ALONE_TILES_N=99).  PARTs
# (default all four):
#   checks     every pair configuration in dp, sk and cap at odd shapes where it runs alone (N of one or
#              three tiles, N % 8 != 0 among them) and at variant.sh's odd shapes
#   rounds     the model's pick of the tree against base's, 3 rotated rounds, at every shape of the lists
#              below whose pick the rule moved (decode/picks_diff.sh b1b1ddf: 17 of 302)
#   tune       --tune --explain of the tree at ../pair_alone_shapes.txt and ../pair_alone_heldout_shapes.txt
#              (drawn before this ran; model_vs_sweep.py judges them)
#   threshold  64x128 and 128x128 forced, dp, the tree (a pair) against a99 (alone) at five and seven tiles
#              across N, 3 rotated rounds: where does the pair's shared A beat the padding it computes?
#   even       the same against BUILD/all1 (every pingpong tile alone: chooser_cluster without its odd
#              test) at M >> N with an even count of tiles across N, where a pair computes no padding
#              (not in the default list: it ran after the others)
#   tie        the model's pick of the tree against base's, 3 rotated rounds, at ../pair_alone_tie_shapes.txt
#              (N <= 64, where 128x128 alone took 64x64's place on a predicted tie; not in the default list)
#   padding    base's pairs (b1b1ddf: a pair everywhere), 64x128/dp and 128x128/dp forced, 3 rotated rounds,
#              at N of an odd count of tiles (a padding partner) beside N one tile wider (no padding, more
#              work): if a padding tile cost no more than a real one, the narrower N would not be slower
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: judge.sh BUILD OUT [PART...]}; OUT=${2:?usage: judge.sh BUILD OUT [PART...]}; shift 2
[ $# -gt 0 ] || set -- checks rounds tune threshold
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/base"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  mkdir -p "$BUILD/tree" && cp "$BUILD/step10_autotune" "$BUILD/tree/" || exit 1
  git show b1b1ddf:step10_autotune/kernel.cu > "$BUILD/base/kernel.cu" &&
    git show b1b1ddf:step10_autotune/chooser.h > "$BUILD/base/chooser.h" || exit 1
  variant_build base "$BUILD/base/kernel.cu" "$BUILD/base/step10_autotune"   # "chooser.h" beside it comes first
  mkdir -p "$BUILD/a99" && cp step10_autotune/kernel.cu "$BUILD/a99/kernel.cu"
  variant_build a99 "$BUILD/a99/kernel.cu" "$BUILD/a99/step10_autotune" -DCHOOSER_ALONE_TILES_N=99
  variant_pairs_alone "$BUILD" all1
fi
variant_need_gpu pair_alone "$BUILD/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
for part in "$@"; do case $part in
checks)
  variant_checks "$BUILD/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192
  variant_check_grid "$BUILD/step10_autotune" "$OUT/checks.txt" \
    "3000x100x4096 8192x60x2048 4100x300x72 5000x136x264 2000x330x1000 640x129x8200" "dp sk cap" 64x128 128x128 128x192
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")" ;;
rounds)
  variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" \
    "2048x128x14336 2048x534x5120 8192x72x2048 8192x96x4096 8192x128x4096 11008x1x1024 11008x96x4096 14336x4x28672 14336x8x14336 14336x48x28672 14336x64x28672 16384x24x5120 16384x64x2048 16384x128x4096 16384x137x2048 16384x576x5120 32768x128x4096" \
    "base/step10_autotune --no-cache" "tree/step10_autotune --no-cache"
  python3 "$HERE/../decode/rounds_picks.py" "$OUT/rounds.txt" --new-over-old | tee "$OUT/rounds_summary.txt" ;;
tune)
  bash "$HERE/../tune_sweep.sh" "$HERE/../pair_alone_shapes.txt" "$OUT/tune" "$BUILD/step10_autotune"
  bash "$HERE/../tune_sweep.sh" "$HERE/../pair_alone_heldout_shapes.txt" "$OUT/tune_heldout" "$BUILD/step10_autotune"
  python3 "$HERE/../model_vs_sweep.py" "$OUT/tune" > "$OUT/model_vs_sweep.txt" 2>&1
  python3 "$HERE/../model_vs_sweep.py" "$OUT/tune_heldout" > "$OUT/model_vs_sweep_heldout.txt" 2>&1
  tail -n 3 "$OUT/model_vs_sweep.txt" "$OUT/model_vs_sweep_heldout.txt" ;;
threshold)
  variant_rotated_rounds "$OUT/threshold.txt" 3 "$BUILD" "8192x640x4096 4096x576x4096 8192x896x4096 16384x640x2048" \
    "step10_autotune --no-cache --config 64x128 --mode dp" "a99/step10_autotune --no-cache --config 64x128 --mode dp" \
    "step10_autotune --no-cache --config 128x128 --mode dp" "a99/step10_autotune --no-cache --config 128x128 --mode dp"
  variant_rounds_summary "$OUT/threshold.txt" "$OUT/threshold_summary.txt" ;;
even)
  variant_rotated_rounds "$OUT/even.txt" 3 "$BUILD" "8192x512x4096 16384x512x2048 8192x1024x4096 4096x1024x4096 4096x2048x4096" \
    "step10_autotune --no-cache --config 64x128 --mode dp" "all1/step10_autotune --no-cache --config 64x128 --mode dp" \
    "step10_autotune --no-cache --config 128x128 --mode dp" "all1/step10_autotune --no-cache --config 128x128 --mode dp"
  variant_rounds_summary "$OUT/even.txt" "$OUT/even_summary.txt" ;;
tie)
  variant_rotated_rounds "$OUT/tie.txt" 3 "$BUILD" \
    "$(grep -v '^#' "$HERE/../pair_alone_tie_shapes.txt" | awk '{ printf "%sx%sx%s ", $1, $2, $3 }')" \
    "base/step10_autotune --no-cache" "tree/step10_autotune --no-cache"
  python3 "$HERE/../decode/rounds_picks.py" "$OUT/tie.txt" --new-over-old | tee "$OUT/tie_summary.txt" ;;
padding)
  variant_rotated_rounds "$OUT/padding.txt" 3 "$BUILD" "8192x128x4096 8192x256x4096 8192x640x4096 8192x768x4096 16384x640x2048 16384x768x2048" \
    "base/step10_autotune --no-cache --config 64x128 --mode dp" "base/step10_autotune --no-cache --config 128x128 --mode dp"
  awk '/^r[0-9]/ { t = ""; for (i = 1; i <= NF; i++) if ($i == "ms" && t == "") t = $(i - 1); c = $0; sub(/.*--config /, "", c); sub(/ .*/, "", c)
                   k = $2 " " c; v[k] = v[k] " " t } END { for (k in v) print k ":" v[k] }' "$OUT/padding.txt" | sort | tee "$OUT/padding_summary.txt" ;;
*) echo "judge.sh: unknown part $part"; exit 2 ;;
esac; done
