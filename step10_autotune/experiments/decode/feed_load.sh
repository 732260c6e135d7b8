#!/bin/sh
# decode/feed_load.sh BUILD OUT: what sets one SM's feed at a decode miss: its ring (bytes in flight),
# or how many CTAs stream from DRAM at once?  feed_trace.sh (beside this) found 64x64 and a 64x128 pair
# each drawing ~106 GB/s of the rows they request at 64 x 4096 x 14336 (64 and 32 CTAs), 64x128 alone
# 131, where the model's feed is 138.3 (fitted at K-heavy shapes with few tiles).  If a CTA's loads are
# bound by their latency, its rate grows with its ring (stages x stage bytes / latency); if DRAM's load
# sets the latency, it falls as more CTAs stream.  Runs 64x64/dp and 64x128/dp at 64 x 4096 x 14336
# and 128 x 4096 x 14336 (twice the CTAs: 128 and 64) with rings of 4, 6 and 8 slots, 2 rotated rounds,
# one process a run; feed_load.py turns each time into a CTA's rate past the fixed cost.
# BUILD holds step10_autotune (make step10 BUILD=...; PREBUILT=1 skips it).  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: feed_load.sh BUILD OUT}; OUT=${2:?usage: feed_load.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
variant_tree feed_load "$BUILD" "$OUT"
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 2 "$BUILD" "64x4096x14336 128x4096x14336" \
  "step10_autotune --no-cache --config 64x64 --mode dp --stages 4" "step10_autotune --no-cache --config 64x64 --mode dp --stages 6" \
  "step10_autotune --no-cache --config 64x64 --mode dp --stages 8" "step10_autotune --no-cache --config 64x128 --mode dp --stages 4" \
  "step10_autotune --no-cache --config 64x128 --mode dp --stages 6" "step10_autotune --no-cache --config 64x128 --mode dp --stages 8"
python3 "$HERE/feed_load.py" "$OUT/rounds.txt" | tee "$OUT/rates.txt"
