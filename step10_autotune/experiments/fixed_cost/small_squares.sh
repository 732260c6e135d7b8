#!/bin/sh
# fixed_cost/small_squares.sh: at 512^3 and 1024^3 the model picks 64x128/dp, and step 10
# reads 0.87 and 0.93 of cuBLAS.  Is the gap there a cost per launch or per k-tile?  The
# same fit as run.sh (t(K) = a + b * K / 64 under CUPTI, K = 64, 256, 1024, 4096), at
# 512 x 512 x K and 1024 x 1024 x K, for the tree's step 10 at 64x128/dp and 128x128/dp.
# cuBLAS's fit beside it mixes kernels: it picks its own per K (the k.csv names them).
#
#   sh step10_autotune/experiments/fixed_cost/small_squares.sh BUILD OUT
#
# OUT/<M>_<config>/fit.txt and runs.txt (one sweep per configuration: cupti_sweep names a
# run by its binary).  PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: small_squares.sh BUILD OUT}; OUT=${2:?usage: small_squares.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT" "$BUILD"
. "$HERE/cupti_fit.sh"
[ "${PREBUILT:-0}" = 1 ] || make -s step10 BUILD="$BUILD" || exit 1
nvidia-smi > /dev/null 2>&1 || { echo "fixed_cost: built in $BUILD; no GPU here"; exit 3; }
for mn in 512 1024; do
  for c in 64x128 128x128; do
    mkdir -p "$OUT/${mn}_$c"
    SWEEP_M=$mn SWEEP_N=$mn cupti_sweep "$OUT/${mn}_$c" "$BUILD" "step10_autotune --no-cache --config $c --mode dp"
    echo "== $mn x $mn x K, $c/dp"
    cupti_fit "$OUT/${mn}_$c"
  done
done
