#!/bin/sh
# sk_reread/run.sh BUILD OUT: does textbook stream-K bring B from DRAM once per phase where its tiles read
# their k-slices out of phase and the streamed panels do not fit in the L2 (variant.py's term)?  ncu's DRAM
# bytes read and duration, forced candidates, one launch each; the predictions were committed first
# (predictions.txt).  ncu cannot launch a cooperative cluster kernel (LaunchFailed, session 26), so the
# binary is step 10 with every launch plain (BUILD/noncoop/step10_autotune; PREBUILT=1: built where the
# tree was): ncu runs one kernel at a time, so a plan's 132 CTAs are all resident anyway.  GPU; exits 3 without one.
set -u
BUILD=${1:?usage: run.sh BUILD OUT}; OUT=${2:?usage: run.sh BUILD OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
[ "${PREBUILT:-0}" = 1 ] || variant_plain_launch "$BUILD" noncoop
variant_need_gpu sk_reread "$BUILD/noncoop/step10_autotune"
command -v ncu > /dev/null 2>&1 || { echo "sk_reread: no ncu"; exit 3; }
M=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_op_read_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
grep -v '^#' "$HERE/predictions.txt" | while read -r sh cand rest; do
  m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
  echo "== $sh $cand"
  timeout 120 ncu --metrics $M --kernel-name-base function --kernel-name regex:pingpong --launch-skip 3 --launch-count 1 \
    "$BUILD/noncoop/step10_autotune" --m "$m" --n "$n" --k "$k" --no-check --no-cache --config "${cand%/*}" --mode "${cand#*/}" \
    --iters 3 --warmup 1 2>&1 | grep -E "configuration:|  (gpu__|lts__|dram__|sm__)"
done > "$OUT/ncu.txt"
cat "$OUT/ncu.txt"
