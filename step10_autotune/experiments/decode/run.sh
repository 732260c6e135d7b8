#!/bin/sh
# decode/run.sh BUILD OUT [PART]: step 10 at decode shapes (session 19): a few rows of activations
# (M = the batch, 1-256) times a model's weights (N x K up to 128256 x 4096), where reading B once
# from DRAM bounds the time.  The list, ../decode_shapes.txt, was committed with the model's picks
# and my predictions before any of it ran (c50bfa9).  PART (default all):
#   sweep   tune_sweep.sh over the list (every candidate timed beside cuBLAS in one process per
#           shape), then model_vs_sweep.py: the model's pick against the best candidate
#   checks  the model's pick at every shape of the list, checked against cuBLAS; every configuration
#           in dp and forced cap at M = 1, 8 and 63 (a tile of 64 rows mostly past M)
#   ncu     step 10's kernel and cuBLAS's at three shapes: which kernels cuBLAS runs, their time, the
#           DRAM bytes read and DRAM's share of its peak, the grid
#   waves   tune_sweep.sh over ../dram_waves_shapes.txt (committed before the DRAM floor's fix ran,
#           990f34c), then model_vs_sweep.py; old_picks.py judges c50bfa9's picks on the same logs
#   share   the same over ../share_shapes.txt (committed before the mainloop's share above the floor
#           ran); old_picks.py judges e8e4254's picks on its logs
#   boxrows tune_sweep.sh over ../box_rows_shapes.txt with the tree's binary, model_vs_sweep.py (the
#           tree's model: a CTA alone's A rows counted as the kernel loads them, M's rounded to 8, since
#           session 20), and old_picks.py with the picks of box_rows.py's chooser.h (the model before
#           it, 64 rows): which model picks better
#   pairrows the same over ../pair_rows_shapes.txt: the tree's model (a pair's A counted as the kernel
#           loads it since session 20: rank 0's rows cut to M, rank 1's none) and pair_rows.py's (the
#           model before it, the pair's halves whole)
# ncu_dram.sh (beside this) looks at DRAM's share of its peak for 64x64 and 64x128 at two of the misses.
# BUILD holds step10_autotune built from this tree (make step10 BUILD=...; PREBUILT=1 skips it).
# Exits 3 without a GPU.  Logs in OUT.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [sweep|checks|ncu|waves|share|boxrows|pairrows|all]}; OUT=${2:?usage: run.sh BUILD OUT [sweep|checks|ncu|waves|share|boxrows|pairrows|all]}
PART=${3:-all}
HERE=$(dirname "$0")
LIST=$HERE/../decode_shapes.txt
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
variant_tree decode "$BUILD" "$OUT"
BIN=$BUILD/step10_autotune
# sweep PART NAME LIST: tune_sweep.sh over LIST into OUT/tune_NAME, the tree's model judged by model_vs_sweep.py
sweep() {
  bash "$HERE/../tune_sweep.sh" "$3" "$OUT/tune_$2" "$BIN" > "$OUT/tune_$2_summary.txt"
  python3 "$HERE/../model_vs_sweep.py" "$OUT/tune_$2" > "$OUT/model_vs_sweep_$2.txt"
  echo "$1: $(tail -n 1 "$OUT/model_vs_sweep_$2.txt")"
}
case $PART in sweep|all) sweep sweep decode "$LIST" ;; esac
if [ "$PART" = checks ] || [ "$PART" = all ]; then
  : > "$OUT/checks.txt"
  grep -v '^#' "$LIST" | while read -r m n k _; do
    [ -n "${k:-}" ] || continue
    out=$(timeout 120 "$BIN" --m "$m" --n "$n" --k "$k" --no-cache 2>&1)
    echo "check ${m}x${n}x${k} model rc=$? $(echo "$out" | grep -h 'check' | head -1 | sed 's/.*| check/check/')" >> "$OUT/checks.txt"
  done
  variant_check_grid "$BIN" "$OUT/checks.txt" "1x4096x4096 8x6144x1032 63x520x4096" "dp cap" \
    64x64 64x128 128x128 128x192 128x256c
  echo "checks ok: $(grep -c 'check ok' "$OUT/checks.txt") of $(grep -c '' "$OUT/checks.txt")"
fi
if [ "$PART" = ncu ] || [ "$PART" = all ]; then
  if command -v ncu > /dev/null 2>&1; then
    M=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,sm__cycles_active.avg
    for s in "1 14336 4096" "16 4096 4096" "64 4096 14336"; do
      set -- $s
      for k in "regex:pingpong" "regex:nvjet|gemm|gemv|splitK|reduce|Kernel"; do
        echo "== $1x$2x$3 $k"
        timeout 120 ncu --metrics $M --kernel-name-base function --kernel-name "$k" --launch-skip 3 --launch-count 3 \
          "$BIN" --m "$1" --n "$2" --k "$3" --no-check --no-cache --iters 3 --warmup 1 2>&1 |
          grep -E "^  [a-zA-Z_]|  (gpu__|sm__|dram__|launch__)"
      done
    done > "$OUT/ncu.txt" 2>&1
    echo "ncu: $(grep -c '^==' "$OUT/ncu.txt") runs"
  else
    echo "ncu: not on this machine" | tee "$OUT/ncu.txt"
  fi
fi
case $PART in waves|all) sweep waves dram_waves "$HERE/../dram_waves_shapes.txt" ;; esac
case $PART in share|all) sweep share share "$HERE/../share_shapes.txt" ;; esac
# against PART NAME LIST SCRIPT WHAT: tune_sweep.sh over LIST judged with the tree's model, and the
# picks of SCRIPT's chooser.h (the model before the tree's: WHAT) judged by old_picks.py on the same logs
against() {
  mkdir -p "$BUILD/$1"
  python3 "$HERE/$4" step10_autotune/chooser.h "$BUILD/$1/chooser.h" || exit 1
  nvcc -O2 -I"$BUILD/$1" -Icommon -Istep10_autotune "$HERE/../sk_cap/picks.c" -o "$BUILD/$1/picks" || exit 1
  sweep "$1, the tree's model" "$2" "$3"
  grep -v '^#' "$3" | awk 'NF >= 3 { print $1, $2, $3 }' |
    "$BUILD/$1/picks" $(cat "$OUT/devinfo.txt") | awk 'NF >= 10 { print $1, $2, $3, $9 }' |
    python3 "$HERE/old_picks.py" "$OUT/tune_$2" > "$OUT/old_picks_$2.txt"
  echo "$1, the model before it ($5): $(tail -n 1 "$OUT/old_picks_$2.txt")"
}
case $PART in boxrows|all) against boxrows box_rows "$HERE/../box_rows_shapes.txt" box_rows.py "64 rows" ;; esac
case $PART in pairrows|all) against pairrows pair_rows "$HERE/../pair_rows_shapes.txt" pair_rows.py "pairs whole" ;; esac
