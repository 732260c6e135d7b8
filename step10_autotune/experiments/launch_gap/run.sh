#!/bin/sh
# launch_gap/run.sh: how long does each GEMM kernel run, and how long is the GPU
# idle before it, for step 10 and cuBLAS in the harness's own timed loop?
#
#   sh step10_autotune/experiments/launch_gap/run.sh BUILD OUT [BINARY...]
#
# BUILD: the build folder (make step10 BUILD=...); OUT: a folder for the
# logs.  BINARY: step-10 binaries to compare (default BUILD/step10_autotune):
# run.sh alternates them, three rounds, at each shape, and records each
# run's ratio to cuBLAS (ab.txt); then one run each under CUPTI
# (kernel_times.c as a CUDA injection library): per kind of kernel, the median
# time it ran and the median gap before it (cupti.txt, launch_gap.awk); and
# one --trace of each at 512^3.  Needs a GPU and CUPTI (libcupti in the
# toolkit's lib64): exits 3 without a GPU, as the steps do.
# The logs in logs/ (NOTES.md, "Small shapes") came from this script's
# first form with BINARY = the step before and after its walk starts moved
# into kernel_params.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [BINARY...]}; OUT=${2:?usage: run.sh BUILD OUT [BINARY...]}
shift 2
[ $# -gt 0 ] || set -- "$BUILD/step10_autotune"
HERE=$(dirname "$0")
nvidia-smi > /dev/null 2>&1 || { echo "launch_gap: no GPU here"; exit 3; }
mkdir -p "$OUT"
CUDA=$(dirname "$(dirname "$(command -v nvcc)")")
cc -O2 -shared -fPIC -I"$CUDA/include" "$HERE/kernel_times.c" -L"$CUDA/lib64" -lcupti \
   -o "$OUT/kernel_times.so" || exit 1
SHAPES=${SHAPES:-"512x512x512 1024x1024x1024 512x4096x4096 2048x2048x2048 4096x4096x4096"}
for rep in 1 2 3; do
  for sh in $SHAPES; do
    m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
    i=0
    for b in "$@"; do
      i=$((i + 1))
      echo "$rep bin$i $sh $("$b" --m $m --n $n --k $k --no-cache 2>&1 | grep -h 'ratio\|configuration:' | tr '\n' ' ')" >> "$OUT/ab.txt"
    done
  done
done
for sh in $SHAPES; do
  m=${sh%%x*}; r=${sh#*x}; n=${r%%x*}; k=${r#*x}
  i=0
  for b in "$@"; do
    i=$((i + 1))
    CUDA_INJECTION64_PATH="$OUT/kernel_times.so" KERNEL_TIMES_OUT="$OUT/k.csv" \
      "$b" --m $m --n $n --k $k --no-cache > "$OUT/cupti_run.log" 2>&1
    { echo "== bin$i $sh"; grep -h ratio "$OUT/cupti_run.log"; awk -F, -f "$HERE/launch_gap.awk" "$OUT/k.csv"; } >> "$OUT/cupti.txt"
  done
done
i=0
for b in "$@"; do
  i=$((i + 1))
  "$b" --m 512 --n 512 --k 512 --no-cache --trace "$OUT/trace_bin${i}_512.csv" > /dev/null 2>&1
done
rm -f "$OUT/k.csv" "$OUT/cupti_run.log"
echo "launch_gap: logs in $OUT (ab.txt, cupti.txt, trace_*.csv)"
