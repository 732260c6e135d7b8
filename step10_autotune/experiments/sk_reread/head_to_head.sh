#!/bin/sh
# sk_reread/head_to_head.sh BUILD OUT LIST VARIANT_PY: a better judge than one sweep's ratios for a chooser variant
# (session 26).  At every shape of LIST where VARIANT_PY's chooser picks another candidate than the tree's, the
# tree's binary (BUILD/step10_autotune, PREBUILT) runs the tree's pick (the model's choice) and the variant's
# (forced: --config and --mode), 3 rotated rounds, and the two TIMES are compared, so cuBLAS's own spread between
# processes does not enter.  The variant's picks must be dp, sk or cap (forceable); an sk_l2 pick is skipped.  The
# picks come from sk_scatter/draw.sh's two builds of picks.c (OUT/draw).  GPU; exits 3 without one.
# A variant written against 52f4de6's chooser.h (sk_scatter's, sk_reread's, sk_streamed_share's): DRAW_BASE=52f4de6.
set -u
BUILD=${1:?usage: head_to_head.sh BUILD OUT LIST VARIANT_PY}; OUT=${2:?usage}; LIST=${3:?usage}; VPY=${4:?usage}
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
sh "$HERE/../sk_scatter/draw.sh" "$OUT/draw" "$VPY" > /dev/null || exit 1
grep -v '^#' "$LIST" | awk '{ print $1 }' | tr x ' ' > "$OUT/shapes.txt"
"$OUT/draw/tree" 132 62914560 4814.3 < "$OUT/shapes.txt" | awk 'NF >= 10 { print $1 "x" $2 "x" $3, $9 }' > "$OUT/tree_picks.txt"
"$OUT/draw/variant" 132 62914560 4814.3 < "$OUT/shapes.txt" | awk 'NF >= 10 { print $1 "x" $2 "x" $3, $9 }' > "$OUT/variant_picks.txt"
join "$OUT/tree_picks.txt" "$OUT/variant_picks.txt" | awk '$2 != $3' > "$OUT/moved.txt"
cat "$OUT/moved.txt"
variant_need_gpu sk_reread "$BUILD/step10_autotune"
awk '{ print $1, $3 }' "$OUT/moved.txt" > "$OUT/pairs.txt"
: > "$OUT/rounds.txt"
variant_forced_rounds "$BUILD" "$OUT/rounds.txt" "$OUT/pairs.txt"
# per shape: the variant's median time over the tree's
variant_forced_medians "$OUT/rounds.txt" | awk '{ r = $3 / $2; printf "%-18s tree %.4f  variant %.4f ms  variant/tree %.3f\n", $1, $2, $3, r
                                                  k++; sum += r; w += (r < 0.99); l += (r > 1.01) }
     END { printf "variant/tree, mean %.3f over %d shapes; the variant faster by more than 1%% at %d, slower by more than 1%% at %d\n", sum / k, k, w, l }' |
  tee "$OUT/judge.txt"
