#!/bin/sh
# fixed_cost/stamps.sh BUILD OUT: where a launch's fixed cost goes (run.sh measures it).
# Steps 07, 08 and 10 (and 10 with clusters of one, run.sh's build) with their timeline clock
# started at kernel entry instead of after the CTA or cluster sync, so that each role's
# first span holds the set-up; one traced launch each at 512 x 4096 x 64 (one k-tile: the
# whole launch is fixed cost) and 512 x 4096 x 4096, under CUPTI, then stamps.py per trace.
#
#   sh step10_autotune/experiments/fixed_cost/run.sh BUILD OUT      # builds step10_nocluster
#   sh step10_autotune/experiments/fixed_cost/stamps.sh BUILD OUT
#
# PREBUILT=1 skips nvcc.  Exits 3 without a GPU.
set -u
BUILD=${1:?usage: stamps.sh BUILD OUT}; OUT=${2:?usage: stamps.sh BUILD OUT}
HERE=$(dirname "$0")
. "$HERE/../variant.sh"
. "$HERE/cupti_fit.sh"
mkdir -p "$OUT" "$BUILD/stamps"
if [ "${PREBUILT:-0}" != 1 ]; then
  for s in step07_pingpong:step07_pingpong/kernel.cu step08_cluster_multicast:step08_cluster_multicast/kernel.cu \
           step10_autotune:step10_autotune/kernel.cu \
           step10_nocluster:$BUILD/step10_autotune_nocluster.cu; do
    name=${s%%:*}; src=${s#*:}; d=$(echo "$src" | sed -n 's|^\(step[0-9]*_[a-z_]*\)/.*|\1|p'); [ -n "$d" ] || d=step10_autotune
    # the clock's line moves to just after wg is known (the first line that uses it follows)
    python3 - "$src" "$BUILD/stamps/$name.cu" <<'PY' || exit 1
import sys
s = open(sys.argv[1]).read()
clock = "    /* Timeline: one writer per warpgroup. */\n    trace_clock clk = trace_clock_start(P->trace, wg, traced);\n"
wg = "    const int wg = __shfl_sync(0xffffffffu, (int)threadIdx.x / WG_THREADS, 0);\n"
if s.count(clock) != 1 or s.count(wg) != 1:
    sys.exit("stamps: %s changed; the clock patch no longer applies" % sys.argv[1])
s = s.replace(clock, "").replace(wg, wg + "    trace_clock clk = trace_clock_start(P->trace, wg, traced);   /* experiment: from entry */\n")
open(sys.argv[2], "w").write(s)
PY
    variant_build "${name}_stamps" "$BUILD/stamps/$name.cu" "$BUILD/stamps/$name" -I"$d"
  done
fi
nvidia-smi > /dev/null 2>&1 || { echo "stamps: built in $BUILD/stamps; no GPU here"; exit 3; }
cupti_lib "$OUT" || exit 1
S=$OUT/stamps.txt; : > "$S"
for k in 64 4096; do
  for run in step07_pingpong step08_cluster_multicast "step10_autotune --no-cache --config 128x128 --mode dp" \
             "step10_nocluster --no-cache --config 128x128 --mode dp"; do
    b=${run%% *}
    for rep in 1 2 3; do
      # shellcheck disable=SC2086  # run is a binary and its flags
      CUDA_INJECTION64_PATH="$OUT/kernel_times.so" KERNEL_TIMES_OUT="$OUT/k.csv" \
        "$BUILD/stamps"/$run --m 512 --n 4096 --k $k --no-check --trace "$OUT/trace_${b}_$k.csv" > "$OUT/one.log" 2>&1
      us=$(awk -F, '$2 ~ /traced/ { printf "%.2f", ($4 - $3) / 1000 }' "$OUT/k.csv")
      { echo "== $b 512x4096x$k rep $rep"; python3 "$HERE/stamps.py" "$OUT/trace_${b}_$k.csv" "${us:-0}"; } >> "$S"
    done
  done
done
rm -f "$OUT/k.csv" "$OUT/one.log" "$OUT/kernel_times.so"
cat "$S"
