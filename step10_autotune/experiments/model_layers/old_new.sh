#!/bin/sh
# model_layers/old_new.sh OLD_BIN NEW_BIN OUT SHAPE...: two builds of step 10 (e.g. before and after a chooser
# change), the model's pick of each at every shape (MxNxK): one checked run each, then 3 rounds alternated, the
# order rotated round by round (variant.sh's variant_rotated_rounds; --no-cache).  OUT/checks.txt, OUT/rounds.txt.
# Exits 3 without a GPU.
set -u
OLD=${1:?usage: old_new.sh OLD_BIN NEW_BIN OUT SHAPE...}; NEW=${2:?usage}; OUT=${3:?usage}; shift 3
HERE=$(dirname "$0")
. "$HERE/../variant.sh"
mkdir -p "$OUT/bins"
cp "$OLD" "$OUT/bins/old" && cp "$NEW" "$OUT/bins/new" || exit 1
variant_need_gpu old_new "$NEW"
: > "$OUT/checks.txt"
for sh in "$@"; do
  m=${sh%%x*}; rest=${sh#*x}; n=${rest%%x*}; k=${rest#*x}
  for b in old new; do
    echo "$sh $b: $("$OUT/bins/$b" --m "$m" --n "$n" --k "$k" --no-cache 2>&1 | grep -E '[|] ratio|configuration:' | tr '\n' ' ')" >> "$OUT/checks.txt"
  done
done
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 "$OUT/bins" "$*" "old --no-cache" "new --no-cache"
cat "$OUT/checks.txt"; cat "$OUT/rounds.txt"
