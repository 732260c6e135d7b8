#!/bin/bash
# goal_shapes.sh — does step 08 reach its goals at the seven goal shapes, and
# is it faster than step 07 by more than the spread of repeats?  Steps 07 and
# 08 alternated, 3 processes each per shape (repeat 1 checks the result),
# step 06 once per shape; each process times its step against cuBLAS
# interleaved launch by launch (the ratio).  This is part 3 of final.sh,
# which printed goal_shapes_time.log and goal_shapes_steps06_07.csv at git
# d0d448e (README.md).
#
#   make step06 step07 step08
#   OUT=/tmp/out bash step08_cluster_multicast/experiments/goal_shapes.sh   (GPU)
#
# Writes $OUT/goal_shapes_time.log (one line per process pair: ratio, check),
# $OUT/goal_shapes_steps06_07.csv (steps 06-07's rows) and step 08's rows
# (--repeat 1..3, the bench's format) to $ROWS08, by default
# $OUT/goal_shapes_step08.csv; the course's rows went to
# plots/results/NVIDIA_H100_80GB_HBM3.csv (ROWS08=plots/results/<gpu>.csv).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=${BUILD:-build}
ROWS08=${ROWS08:-$OUT/goal_shapes_step08.csv}
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
GOAL="4096x4096x4096 6144x6144x6144 8192x8192x8192 4096x14336x4096 4096x4096x14336 8192x14336x4096 8192x4096x14336"
flags() { if [ "$1" -gt 1 ]; then echo "--repeat $1 --no-check"; else echo "--repeat $1"; fi; }
# the last line a step prints but its "  timing:" note: the result, or what failed
last() { grep -v '^  timing:' | tail -1; }
for r in 1 2 3; do
  for s in $GOAL; do
    IFS=x read -r m n k <<< "$s"
    o7=$(timeout 120 $B/step07_pingpong --m $m --n $n --k $k $(flags $r) --csv "$OUT/goal_shapes_steps06_07.csv" 2>&1 | last)
    o8=$(timeout 120 $B/step08_cluster_multicast --m $m --n $n --k $k $(flags $r) --csv "$ROWS08" 2>&1 | last)
    echo "r$r $s s07 $(echo "$o7" | grep -o 'ratio [0-9.]*\|check [a-zA-Z]*' | tr '\n' ' ')| s08 $(echo "$o8" | grep -o 'ratio [0-9.]*\|check [a-zA-Z]*' | tr '\n' ' ')" | tee -a "$OUT/goal_shapes_time.log"
  done
done
for s in $GOAL; do
  IFS=x read -r m n k <<< "$s"
  o6=$(timeout 120 $B/step06_persistent --m $m --n $n --k $k --no-check --csv "$OUT/goal_shapes_steps06_07.csv" 2>&1 | last)
  echo "s06 $s $(echo "$o6" | grep -o 'ratio [0-9.]*')" | tee -a "$OUT/goal_shapes_time.log"
done
