#!/bin/sh
# model_layers/run.sh BUILD OUT [picks|sweep|swap|ncu|all]: the final kernel and chooser at shapes that real models run
# (shapes.txt: the projections of seven models' layers at token counts drawn from 1 to 8192 by draw.py,
# committed with the model's picks and my guesses before any of it ran).  PART (default all):
#   picks  the model's pick at every shape, as the bench runs it (--no-cache): three processes per shape,
#          the first checked against cuBLAS; picks.txt has one line per run, ratios.py the medians
#   sweep  tune_sweep.sh over the list (every candidate beside cuBLAS in one process per shape), then
#          model_vs_sweep.py: the model's pick against the best candidate measured in the same process
#   swap   (not in all) tune_sweep.sh over shapes_swapped.txt: the short prefill shapes where step 10 trails
#          cuBLAS, run as N x M x K (C^T = B A^T: the tokens along the tile's N, whose widths 64-256 include
#          192 and 256, where M's tile rows are 64 or 128; the output then lies transposed, which this run does
#          not fix: it times the mainloop's side of the swap); swap.py sets each beside its own orientation
#   ncu    (not in all) at the two shapes the sweep found farthest from cuBLAS, 571 x 8192 x 28672 and
#          407 x 57344 x 8192: which kernels cuBLAS runs there (name, grid, cluster), their time and DRAM
#          bytes, beside step 10's model pick and its 128x128/dp and /sk (ncu locks the clocks at base:
#          its times compare kernels with each other, not with the runs above); NCU_SHAPES="MxNxK ..." other
#          shapes, with the model's pick alone (tile_192/README.md: the short prefill shapes)
# BUILD holds step10_autotune built from this tree (make step10 BUILD=...; PREBUILT=1 skips it).
# Exits 3 without a GPU.  Logs in OUT.
set -u
HERE=$(dirname "$0")
LIST=${LIST:-$HERE/shapes.txt}   # LIST=FILE: another list (a remainder, when a call ran out of time)
. "$HERE/../variant.sh"
variant_start "run.sh BUILD OUT [picks|sweep|swap|ncu|all]" "$@"
variant_tree model_layers "$BUILD" "$OUT"
BIN=$BUILD/step10_autotune
if [ "$PART" = picks ] || [ "$PART" = all ]; then
  : > "$OUT/picks.txt"
  grep -v '^#' "$LIST" | while read -r M N K _; do
    for rep in 1 2 3; do
      chk=--no-check; [ $rep = 1 ] && chk=
      # shellcheck disable=SC2086  # chk is a flag or nothing
      out=$(timeout 120 "$BIN" --m "$M" --n "$N" --k "$K" --no-cache $chk 2>&1); rc=$?
      echo "$M $N $K rep $rep rc=$rc $(printf '%s\n' "$out" | grep -E '[|] ratio|configuration:' | tr '\n' ' ')" >> "$OUT/picks.txt"
    done
  done
  python3 "$HERE/ratios.py" "$OUT/picks.txt" > "$OUT/picks_summary.txt"
  cat "$OUT/picks_summary.txt"
fi
if [ "$PART" = sweep ] || [ "$PART" = all ]; then
  bash "$HERE/../tune_sweep.sh" "$LIST" "$OUT/tune" "$BIN" > "$OUT/tune_summary.txt"
  python3 "$HERE/../model_vs_sweep.py" "$OUT/tune" > "$OUT/model_vs_sweep.txt"
  cat "$OUT/model_vs_sweep.txt"
fi
if [ "$PART" = swap ]; then
  bash "$HERE/../tune_sweep.sh" "$HERE/shapes_swapped.txt" "$OUT/tune_swapped" "$BIN" > "$OUT/tune_swapped_summary.txt"
  python3 "$HERE/swap.py" "$OUT/tune_swapped" "$HERE/logs/tune" "$HERE/../tile_192/logs/prefill/tune_prefill" > "$OUT/swap.txt"
  cat "$OUT/swap.txt"
fi
if [ "$PART" = ncu ]; then
  if command -v ncu > /dev/null 2>&1; then
    MET=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,launch__grid_size,launch__cluster_dim_x,launch__cluster_dim_y,sm__cycles_active.avg
    for s in ${NCU_SHAPES:-571x8192x28672 407x57344x8192}; do
      set -- $(echo "$s" | tr x ' ')
      for run in "" "--config 128x128 --mode dp" "--config 128x128 --mode sk"; do
        [ -n "$run" ] && [ -n "${NCU_SHAPES:-}" ] && break   # other shapes: the model's pick alone
        for k in "regex:pingpong" "regex:nvjet|gemm|gemv|splitK|reduce|Kernel"; do
          echo "== $1x$2x$3 [$run] $k"
          # shellcheck disable=SC2086  # run is a list of flags
          timeout 120 ncu --metrics $MET --kernel-name-base function --kernel-name "$k" --launch-skip 2 --launch-count 2 \
            "$BIN" --m "$1" --n "$2" --k "$3" $run --no-check --no-cache --iters 2 --warmup 1 2>&1 |
            grep -E "^  [a-zA-Z_]|  (gpu__|sm__|dram__|lts__|launch__)|configuration:"
          [ -z "$run" ] || break   # cuBLAS's kernels once per shape
        done
      done
    done > "$OUT/ncu.txt" 2>&1
    echo "ncu: $(grep -c '^==' "$OUT/ncu.txt") runs"
  else
    echo "ncu: not on this machine" | tee "$OUT/ncu.txt"
  fi
fi
