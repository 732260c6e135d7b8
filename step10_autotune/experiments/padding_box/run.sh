#!/bin/sh
# padding_box/run.sh BUILD OUT [PART...]: does a padding CTA that skips its own box lose the padding's cost?
#
# A pair along N at an odd count of tiles across N puts its last CTA on a padding tile (common/
# cluster_schedule.h: computed, not stored).  Session 23 measured such a pair slower than the same shape one
# tile wider (pair_alone/judge.sh padding: up to 1.60x the time for less work) and read it as TMA's zero fill
# of a B box wholly past N.  Since session 24 that CTA loads no B box and expects only the partner's share of
# A (producer_load_tile; the cooperative pair along M skips its A box past M the same way).  Builds, from
# this tree and from b732815 (the tree before the skip):
#   BUILD/base/   b732815, every pair a pair (-DCHOOSER_ALONE_TILES_N=0): padding CTAs zero-fill their box
#   BUILD/pairs/  the tree, every pair a pair: padding CTAs skip it
#   BUILD/a99/    the tree, every pair alone at any odd count (-DCHOOSER_ALONE_TILES_N=99)
#   BUILD/step10_autotune  the tree (alone up to CHOOSER_ALONE_TILES_N = 7, session 23)
# PARTs (default: all but checks-only ones named below):
#   padding    base against pairs, 64x128/dp and 128x128/dp forced, 2 rotated rounds, at session 23's
#              padding shapes (an odd count beside one tile wider); and b732815's model pick against the
#              tree's at 8192 x 14336 x 4096, the one bench shape whose pick has a padding column
#              (128x192/dp: 75 tiles across N)
#   threshold  pairs against a99, forced dp, 2 rotated rounds, at 1, 3, 5, 7 and 9 tiles across N
#              (64x128 and 128x128 at N = 128-1152; 128x192 at N = 192-1344): with the box skipped, where
#              does a pair's shared A beat computing a padding tile?
#   ncu        base and pairs, 64x128/dp at 8192 x 640 x 4096: duration, L2 and DRAM bytes, tensor pipe
#   checks     pairs (padding everywhere it can be) in dp, sk and cap at odd shapes, against cuBLAS
# PREBUILT=1 skips nvcc (the binaries were built here).  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [PART...]}; OUT=${2:?usage: run.sh BUILD OUT [PART...]}; shift 2
[ $# -gt 0 ] || set -- checks padding threshold ncu
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/base" "$BUILD/pairs" "$BUILD/a99"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  git show b732815:step10_autotune/kernel.cu > "$BUILD/base/kernel.cu" &&
    git show b732815:step10_autotune/chooser.h > "$BUILD/base/chooser.h" || exit 1
  variant_build base "$BUILD/base/kernel.cu" "$BUILD/base/step10_autotune" -DCHOOSER_ALONE_TILES_N=0
  cp step10_autotune/kernel.cu "$BUILD/pairs/kernel.cu" && cp step10_autotune/kernel.cu "$BUILD/a99/kernel.cu" || exit 1
  variant_build pairs "$BUILD/pairs/kernel.cu" "$BUILD/pairs/step10_autotune" -DCHOOSER_ALONE_TILES_N=0
  variant_build a99 "$BUILD/a99/kernel.cu" "$BUILD/a99/step10_autotune" -DCHOOSER_ALONE_TILES_N=99
fi
variant_need_gpu padding_box "$BUILD/pairs/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
for part in "$@"; do echo "== $part $(date +%T)"; case $part in
checks)
  variant_checks "$BUILD/pairs/step10_autotune" "$OUT/checks.txt" 64x128 128x128 128x192 128x256c
  variant_check_grid "$BUILD/pairs/step10_autotune" "$OUT/checks.txt" \
    "300x300x520 1100x1100x136 4100x400x72 1200x1200x1000 77x640x4096 640x129x8200" "dp sk cap" 64x128 128x128 128x192 128x256c
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")" ;;
padding)
  variant_rotated_rounds "$OUT/padding.txt" 2 "$BUILD" "8192x128x4096 8192x256x4096 8192x640x4096 8192x768x4096 16384x640x2048 16384x768x2048" \
    "base/step10_autotune --no-cache --config 64x128 --mode dp" "pairs/step10_autotune --no-cache --config 64x128 --mode dp" \
    "base/step10_autotune --no-cache --config 128x128 --mode dp" "pairs/step10_autotune --no-cache --config 128x128 --mode dp"
  variant_rotated_rounds "$OUT/padding.txt" 3 "$BUILD" "8192x14336x4096" "base/step10_autotune --no-cache" "step10_autotune --no-cache"
  variant_times_summary "$OUT/padding.txt" | tee "$OUT/padding_summary.txt" ;;
threshold)
  variant_rotated_rounds "$OUT/threshold.txt" 2 "$BUILD" "8192x128x4096 8192x384x4096 8192x640x4096 8192x896x4096 8192x1152x4096 16384x640x2048" \
    "pairs/step10_autotune --no-cache --config 64x128 --mode dp" "a99/step10_autotune --no-cache --config 64x128 --mode dp" \
    "pairs/step10_autotune --no-cache --config 128x128 --mode dp" "a99/step10_autotune --no-cache --config 128x128 --mode dp"
  variant_rotated_rounds "$OUT/threshold.txt" 2 "$BUILD" "8192x192x4096 8192x576x4096 8192x960x4096 8192x1344x4096" \
    "pairs/step10_autotune --no-cache --config 128x192 --mode dp" "a99/step10_autotune --no-cache --config 128x192 --mode dp"
  variant_times_summary "$OUT/threshold.txt" | tee "$OUT/threshold_summary.txt" ;;
ncu)
  command -v ncu > /dev/null 2>&1 || { echo "no ncu"; continue; }
  M=gpu__time_duration.sum,sm__cycles_active.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,launch__grid_size,launch__cluster_dim_x
  for b in base pairs; do
    echo "== $b 8192x640x4096 64x128/dp"
    timeout 120 ncu --metrics $M --kernel-name-base function --kernel-name regex:pingpong --launch-skip 3 --launch-count 1 \
      "$BUILD/$b/step10_autotune" --m 8192 --n 640 --k 4096 --no-check --no-cache --config 64x128 --mode dp --iters 3 --warmup 1 2>&1 |
      grep -E "^  [a-zA-Z_]|  (gpu__|sm__|lts__|dram__|launch__)"
  done > "$OUT/ncu.txt"; cat "$OUT/ncu.txt" | cut -c1-140 ;;
*) echo "run.sh: unknown part $part"; exit 2 ;;
esac; done
echo "== done $(date +%T)"
