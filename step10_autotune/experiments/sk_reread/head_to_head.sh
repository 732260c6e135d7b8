#!/bin/sh
# sk_reread/head_to_head.sh BUILD OUT LIST VARIANT_PY: a better judge than one sweep's ratios for a chooser variant
# (session 26).  At every shape of LIST where VARIANT_PY's chooser picks another candidate than the tree's, the
# tree's binary (BUILD/step10_autotune, PREBUILT) runs the tree's pick (the model's choice) and the variant's
# (forced: --config and --mode), 3 rotated rounds, and the two TIMES are compared, so cuBLAS's own spread between
# processes does not enter.  The variant's picks must be dp, sk or cap (forceable); an sk_l2 pick is skipped.  The
# picks come from sk_scatter/draw.sh's two builds of picks.c (OUT/draw).  GPU; exits 3 without one.
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
: > "$OUT/rounds.txt"
while read -r sh tree var; do
  c=${var%/*}; m=${var#*/}
  [ "$m" = sk_l2 ] && { echo "$sh: the variant's $var is not forceable: skipped"; continue; }
  variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "$sh" "step10_autotune --no-cache" "step10_autotune --config $c --mode $m --no-cache"
done < "$OUT/moved.txt"
variant_times_summary "$OUT/rounds.txt" > "$OUT/times.txt"
# per shape: the medians of the two runs' times, the variant's over the tree's
awk -F'[|:]' '{ n = split($3, t, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && t[j] + 0 < t[j - 1] + 0; j--) { x = t[j]; t[j] = t[j - 1]; t[j - 1] = x }
               med = t[int((n + 1) / 2)]; sh = $1; gsub(/ /, "", sh)
               if ($2 ~ /--config/) v[sh] = med; else tr[sh] = med }
     END { for (s in tr) if (s in v) { r = v[s] / tr[s]; printf "%-18s tree %.4f  variant %.4f ms  variant/tree %.3f\n", s, tr[s], v[s], r; k++; sum += r; w += (r < 0.99); l += (r > 1.01) }
           printf "variant/tree, mean %.3f over %d shapes; the variant faster by more than 1%% at %d, slower by more than 1%% at %d\n", sum / k, k, w, l }' \
  "$OUT/times.txt" | sort | tee "$OUT/judge.txt"
