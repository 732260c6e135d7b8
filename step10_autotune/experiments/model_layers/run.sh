#!/bin/sh
# model_layers/run.sh BUILD OUT [picks|sweep|all]: the final kernel and chooser at shapes that real models run
# (shapes.txt: the projections of seven models' layers at token counts drawn from 1 to 8192 by draw.py,
# committed with the model's picks and my guesses before any of it ran).  PART (default all):
#   picks  the model's pick at every shape, as the bench runs it (--no-cache): three processes per shape,
#          the first checked against cuBLAS; picks.txt has one line per run, ratios.py the medians
#   sweep  tune_sweep.sh over the list (every candidate beside cuBLAS in one process per shape), then
#          model_vs_sweep.py: the model's pick against the best candidate measured in the same process
# BUILD holds step10_autotune built from this tree (make step10 BUILD=...; PREBUILT=1 skips it).
# Exits 3 without a GPU.  Logs in OUT.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [picks|sweep|all]}; OUT=${2:?usage: run.sh BUILD OUT [picks|sweep|all]}
PART=${3:-all}
HERE=$(dirname "$0")
LIST=${LIST:-$HERE/shapes.txt}   # LIST=FILE: another list (a remainder, when a call ran out of time)
mkdir -p "$OUT" "$BUILD"
. "$HERE/../variant.sh"
[ "${PREBUILT:-0}" = 1 ] || make -s step10 BUILD="$BUILD" || exit 1
variant_need_gpu model_layers "$BUILD/step10_autotune"
variant_gpu_info "$BUILD" "$OUT"
BIN=$BUILD/step10_autotune
if [ "$PART" = picks ] || [ "$PART" = all ]; then
  : > "$OUT/picks.txt"
  grep -v '^#' "$LIST" | while read -r M N K _; do
    for rep in 1 2 3; do
      chk=--no-check; [ $rep = 1 ] && chk=
      # shellcheck disable=SC2086  # chk is a flag or nothing
      out=$(timeout 120 "$BIN" --m "$M" --n "$N" --k "$K" --no-cache $chk 2>&1); rc=$?
      echo "$M $N $K rep $rep rc=$rc $(printf '%s\n' "$out" | grep 'ratio' | tail -n 1)" >> "$OUT/picks.txt"
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
