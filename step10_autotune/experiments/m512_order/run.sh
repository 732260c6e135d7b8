#!/bin/sh
# m512_order/run.sh: at M = 512, do the raster group or the ring depth explain why step 10's
# 128x128/dp reads 0.95 where step 07 (the same tile, pingpong, no cluster) reads 0.98?
# Under ncu step 10's L2 read hit rate was 56% against step 07's 71% in one launch
# (../small_ncu), so the order in which tiles are walked is a suspect, and step 10 runs
# 6 stages where step 07 runs the most that fit.
#
#   sh step10_autotune/experiments/m512_order/run.sh BUILD OUT
#
# BUILD holds step10_autotune and step07_pingpong built from this tree (make step10
# step07 BUILD=...).  Two rounds; in each, at 512x4096x4096 and 512x4096x14336: step 07
# as it runs, then step 10 forced to 128x128/dp at --group 1, 2, 4, 8 (the default),
# 16 and at --stages 4 and 5.  Every run is interleaved with cuBLAS (its own ratio).
# Exits 3 without a GPU.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
nvidia-smi > /dev/null 2>&1 || { echo "m512_order: no GPU here"; exit 3; }
mkdir -p "$OUT"
L=$OUT/m512_order.txt
. "$(dirname "$0")/../variant.sh"
F="--no-cache --config 128x128 --mode dp"
variant_rounds "$L" 2 "$BUILD" "512x4096x4096 512x4096x14336" "step07_pingpong" \
  "step10_autotune $F --group 1" "step10_autotune $F --group 2" "step10_autotune $F --group 4" \
  "step10_autotune $F --group 8" "step10_autotune $F --group 16" \
  "step10_autotune $F --stages 4" "step10_autotune $F --stages 5"
