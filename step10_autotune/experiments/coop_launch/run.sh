#!/bin/sh
# coop_launch/run.sh BUILD OUT: what does the cooperative launch attribute cost a plan that streams?  Step 10
# launches a stream-K plan cooperatively (an owner spins on its writers' flags, so every CTA must be resident,
# or the launch fails) and whole tiles plainly.  Step 09's NOTES left the guess that a cooperative grid cannot
# start on the SMs the previous kernel leaves one by one (under the harness: the L2 flush) unmeasured.  Here the
# tree's binary (BUILD/step10_autotune) against the same kernels launched plainly
# (BUILD/noncoop/step10_autotune: ../variant.sh's variant_plain_launch), 3 rotated rounds, forced plans; the dp rows are
# the control (both binaries launch them plainly).  PREBUILT=1: both built where the tree was.  GPU; exits 3
# without one.  The guess, before the run: the plain launch is faster by 1-3 us at every streamed plan and
# level at dp, so the share is largest at the short shapes.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
[ "${PREBUILT:-0}" = 1 ] || { variant_plain_launch "$BUILD" noncoop; make -s step10 BUILD="$BUILD" || exit 1; }
variant_need_gpu coop_launch "$BUILD/noncoop/step10_autotune"
for f in "--config 128x128 --mode sk" "--config 128x128 --mode dp" "--config 64x128 --mode sk" "--config 128x256c --mode sk"; do
  variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "768x2048x8192 2048x2048x2048 1024x1024x4096 4096x4096x4096" \
    "step10_autotune $f --no-cache" "noncoop/step10_autotune $f --no-cache"
done
variant_times_summary "$OUT/rounds.txt" | tee "$OUT/rounds_times.txt"
