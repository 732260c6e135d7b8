#!/bin/sh
# decode/ncu_dram.sh BUILD OUT: at the decode shapes where the model picks 64x64/dp and 64x128/sk_l2 runs
# 1.2-1.4x faster (8 x 8192 x 28672, 32 x 8192 x 8192; NOTES.md, "Session 19"), what differs in DRAM?
# Both read B (470 and 134 MB) once in the model.  ncu, one launch after three, of step 10's kernel for
# 64x64 in dp and sk, and 64x128 in dp and in the plan the chooser picks for it (--config 64x128): its
# time, DRAM bytes read and share of peak, L2 hit rate, the grid, and its SMs' active cycles.
# Then two questions about 64x64/dp's lower share, dp only (ncu_dram_why.txt): is it A's box, 56 of
# whose 64 rows are padding at M = 8 (64 x 8192 x 28672: none are), or every CTA reading the same k at
# once from rows 57344 bytes apart, a multiple of 8 KiB (8 x 8192 x 28736: rows 57472 bytes apart)?
# BUILD holds step10_autotune.  Exits 3 without a GPU or ncu.
set -u
BUILD=${1:?usage: ncu_dram.sh BUILD OUT}; OUT=${2:?usage: ncu_dram.sh BUILD OUT}
mkdir -p "$OUT"
command -v ncu > /dev/null 2>&1 && nvidia-smi > /dev/null 2>&1 || { echo "ncu_dram: needs a GPU and ncu"; exit 3; }
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,launch__grid_size,launch__cluster_dim_x,sm__cycles_active.avg
# prof "M N K" FLAGS LINES: one launch of step 10's kernel after three under ncu, the lines matching LINES
prof() {
  set -- $1 "$2" "$3"
  echo "== $1x$2x$3 $4"
  # shellcheck disable=SC2086  # the flags are words
  timeout 120 ncu --metrics $M --kernel-name-base function --kernel-name regex:pingpong --launch-skip 3 --launch-count 1 \
    "$BUILD/step10_autotune" --m "$1" --n "$2" --k "$3" --no-check --no-cache --iters 3 --warmup 1 $4 2>&1 | grep -E "$5"
}
for s in "8 8192 28672" "32 8192 8192"; do
  for f in "--config 64x64 --mode dp" "--config 64x64 --mode sk" "--config 64x128 --mode dp" "--config 64x128"; do
    prof "$s" "$f" "configuration:|streamed|^  [a-zA-Z_]|  (gpu__|sm__|dram__|lts__|launch__)"
  done
done > "$OUT/ncu_dram.txt" 2>&1
cat "$OUT/ncu_dram.txt"
for s in "8 8192 28672" "64 8192 28672" "8 8192 28736"; do
  for f in "--config 64x64 --mode dp" "--config 64x128 --mode dp"; do
    prof "$s" "$f" "^  [a-zA-Z_]|  (gpu__|dram__)"
  done
done > "$OUT/ncu_dram_why.txt" 2>&1
cat "$OUT/ncu_dram_why.txt"
