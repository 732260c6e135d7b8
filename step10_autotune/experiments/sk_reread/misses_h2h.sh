#!/bin/sh
# sk_reread/misses_h2h.sh BUILD OUT JUDGE...: are the tree's misses in a judge.sh output (one sweep's ratios, each
# against its own cuBLAS run) misses head to head?  For every shape a JUDGE file marks "(miss)" for the tree, the
# tree's binary (BUILD/step10_autotune, PREBUILT) runs the model's pick and the sweep's best (forced: --config
# and --mode; an sk_l2 best is skipped), 3 rotated rounds, and the two times are compared (session 26).  GPU;
# exits 3 without one.
set -u
BUILD=${1:?usage: misses_h2h.sh BUILD OUT JUDGE...}; OUT=${2:?usage}; shift 2
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
cat "$@" | grep "tree [^ ]* *[0-9.]* (miss)" | awk '{ print $1, $3, $6 }' > "$OUT/misses.txt"
cat "$OUT/misses.txt"
variant_need_gpu sk_reread "$BUILD/step10_autotune"
awk '{ print $1, $2 }' "$OUT/misses.txt" > "$OUT/pairs.txt"
: > "$OUT/rounds.txt"
variant_forced_rounds "$BUILD" "$OUT/rounds.txt" "$OUT/pairs.txt"
# per shape: the model's pick's median time over the sweep's best's
variant_forced_medians "$OUT/rounds.txt" | awk '{ r = $2 / $3; printf "%-18s model %.4f  sweep best %.4f ms  model/best %.3f%s\n", $1, $2, $3, r, (r > 1.03 ? "  (miss)" : "")
                                                  k++; ok += (r <= 1.03) }
     END { printf "head to head, the model within 3%% of the sweep'\''s best at %d of %d of the sweep'\''s misses\n", ok, k }' |
  tee "$OUT/judge.txt"
