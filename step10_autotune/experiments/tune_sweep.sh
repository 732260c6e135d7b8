#!/bin/bash
# tune_sweep.sh — what does every (configuration, plan) candidate measure at
# each shape of a list, and what did the model predict for it?  The data the
# chooser's constants are fitted on (chooser_fit.txt) and judged against
# (heldout_shapes.txt): one process per shape runs --tune --explain
# --no-cache --no-check, which prints the model's table (explain:) and every
# candidate's time and ratio to cuBLAS interleaved (tune:), then the winner.
#   bash step10_autotune/experiments/tune_sweep.sh LIST OUT_DIR [BIN]
# Exit 3 without a GPU (the binary's own exit code, from the first shape).
set -u
LIST=${1:?shape list (M N K per line)}
OUT=${2:?output folder}
BIN=${3:-build/step10_autotune}
mkdir -p "$OUT"
grep -v '^#' "$LIST" | while read -r M N K _; do
    [ -n "${K:-}" ] || continue
    log="$OUT/tune_${M}x${N}x${K}.log"
    timeout 120 "$BIN" --m "$M" --n "$N" --k "$K" --tune --explain --no-cache --no-check > "$log" 2>&1
    rc=$?
    [ $rc -eq 3 ] && { tail -n 1 "$log"; exit 3; }
    echo "$M $N $K rc=$rc $(grep -c '^tune:' "$log") tune lines; $(grep 'winner' "$log")"
done
