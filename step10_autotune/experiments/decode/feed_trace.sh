#!/bin/sh
# decode/feed_trace.sh BUILD OUT: once a CTA's ring is drained, how often does a k-tile arrive into one SM,
# for 64x64 alone, 64x128 in a pair and 64x128 alone?  The model's feed term says box rows over one SM's
# feed (CHOOSER_SM_GBS, 138.3 GB/s): 0.118 us a k-tile for 64x64 at M = 64 (128 rows), 0.148 for a 64x128
# CTA (the 160 rows it requests) or 0.178 if the SM pays for the 192 rows its slot receives through the
# multicast.  The model errs toward 64x128 by more the longer the k loop (decode/pair_bias.py, session
# 21).  Builds the tree (BUILD/step10_autotune) and the tree in clusters of one (BUILD/alone/, ../variant.sh's
# variant_no_cluster), then at 64 x 4096 x 14336 and 64 x 4096 x 4096 (dp: one tile a CTA, 64 and 32
# CTAs): 3 rotated rounds of the three, and one traced run of each (--trace: CTA 0 and 1's timeline,
# every k-tile's consumer wait); feed_trace.py reads the traces: the interval between k-tiles past the
# ring.  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: feed_trace.sh BUILD OUT}; OUT=${2:?usage: feed_trace.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD/alone"
. "$HERE/../variant.sh"
if [ "${PREBUILT:-0}" != 1 ]; then
  make -s step10 BUILD="$BUILD" || exit 1
  variant_no_cluster feed_trace step10_autotune/kernel.cu "$BUILD/alone/kernel.cu"
  variant_build alone "$BUILD/alone/kernel.cu" "$BUILD/alone/step10_autotune"
fi
variant_need_gpu feed_trace "$BUILD/alone/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "64x4096x14336 64x4096x4096" \
  "step10_autotune --no-cache --config 64x64 --mode dp" "step10_autotune --no-cache --config 64x128 --mode dp" \
  "alone/step10_autotune --no-cache --config 64x128 --mode dp"
variant_rounds_summary "$OUT/rounds.txt" "$OUT/summary.txt"
for s in "64 4096 14336" "64 4096 4096"; do
  set -- $s
  for r in "step10_autotune 64x64 pair" "step10_autotune 64x128 pair" "alone/step10_autotune 64x128 alone"; do
    set -- $s $r
    "$BUILD/$4" --m "$1" --n "$2" --k "$3" --no-cache --no-check --config "$5" --mode dp \
      --trace "$OUT/trace_$1x$2x$3_$5_$6.csv" > "$OUT/trace_$1x$2x$3_$5_$6.log" 2>&1
  done
done
python3 "$HERE/feed_trace.py" "$OUT" | tee "$OUT/intervals.txt"
