#!/bin/sh
# deeper_ring/stages.sh BUILD OUT: how much does 64x128/dp at 512^3 and 1024^3 depend on the
# ring's depth?  The tree's build (BUILD/step10_autotune, `make step10 BUILD=...`) at 8, 4 and
# 2 stages, 3 rounds, one process per run; the harness's result line per run in OUT/stages.txt.
# Exits 3 without a GPU.  (run.sh asks the follow-up: 6, 7, 8 and a ninth stage.)
set -u
BUILD=${1:?usage: stages.sh BUILD OUT}; OUT=${2:?usage: stages.sh BUILD OUT}
nvidia-smi > /dev/null 2>&1 || { echo "stages: no GPU here"; exit 3; }
mkdir -p "$OUT"
S=$OUT/stages.txt; : > "$S"
for r in 1 2 3; do for sh in 512 1024; do for st in 8 4 2; do
  echo "r$r ${sh}^3 64x128/dp stages=$st: $("$BUILD"/step10_autotune --m $sh --n $sh --k $sh --no-cache --config 64x128 --mode dp --stages $st --no-check 2>&1 | grep ratio | sed 's/.*stages=/stages=/' | cut -c1-110)" >> "$S"
done; done; done
