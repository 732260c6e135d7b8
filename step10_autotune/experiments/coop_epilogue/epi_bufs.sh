#!/bin/sh
# coop_epilogue/epi_bufs.sh: is 128x256c's exposed epilogue the wait for its TMA stores
# to read the two D buffers, and would buffers enough for a warpgroup's whole half tile
# (four, no wait inside an epilogue) pay for the stage they cost?
#
#   sh step10_autotune/experiments/coop_epilogue/epi_bufs.sh BUILD OUT
#
# Builds BUILD/step10_epi4: kernel.cu unchanged, compiled with -DEPI_BUFS=4 (the knob
# kernel.cu has): 128x256c's epilogue buffers grow from 32 to 64 KiB, so its ring
# fits 3 stages of 48 KiB instead of 4.  Then, 128x256c/dp forced, 3 rounds alternated:
# the tree's build at its default 4 stages and at --stages 3, and step10_epi4 at 3;
# a timeline of step10_epi4 at 4096^3 (OUT/trace_4096_epi4.csv) beside run.sh's of the
# tree's build; checks of step10_epi4 at odd shapes.  PREBUILT=1 skips nvcc.  Exits 3
# without a GPU.
set -u
BUILD=${1:?usage: epi_bufs.sh BUILD OUT}; OUT=${2:?usage: epi_bufs.sh BUILD OUT}
mkdir -p "$OUT" "$BUILD"
. "$(dirname "$0")/../variant.sh"
REFERENCE=1 variant_build epi4 step10_autotune/kernel.cu "$BUILD/step10_epi4" -DEPI_BUFS=4
variant_need_gpu coop_epilogue "$BUILD/step10_epi4"
L=$OUT/epi_bufs.txt
"$BUILD/step10_epi4" --m 4096 --n 4096 --k 4096 --no-cache --no-check --config 128x256c --mode dp \
    --trace "$OUT/trace_4096_epi4.csv" > "$OUT/trace_epi4_run.log" 2>&1
echo "trace rc=$?" >> "$L"
variant_checks "$BUILD/step10_epi4" "$L" 128x256c
F="--no-cache --config 128x256c --mode dp"
variant_rounds "$L" 3 "$BUILD" "4096x4096x4096 8192x4096x4096 6144x6144x6144 2048x4096x4096 4096x4096x14336" \
  "step10_autotune $F" "step10_autotune $F --stages 3" "step10_epi4 $F --stages 3"
