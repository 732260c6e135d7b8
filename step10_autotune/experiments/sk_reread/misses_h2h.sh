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
: > "$OUT/rounds.txt"
while read -r sh best tree; do
  c=${best%/*}; m=${best#*/}
  [ "$m" = sk_l2 ] && { echo "$sh: the sweep's best $best is not forceable: skipped"; continue; }
  variant_rotated_rounds "$OUT/rounds.txt" 3 "$BUILD" "$sh" "step10_autotune --no-cache" "step10_autotune --config $c --mode $m --no-cache"
done < "$OUT/misses.txt"
variant_times_summary "$OUT/rounds.txt" > "$OUT/times.txt"
# per shape: the medians of the two runs' times, the model's pick over the sweep's best
awk -F'[|:]' '{ n = split($3, t, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && t[j] + 0 < t[j - 1] + 0; j--) { x = t[j]; t[j] = t[j - 1]; t[j - 1] = x }
               med = t[int((n + 1) / 2)]; sh = $1; gsub(/ /, "", sh)
               if ($2 ~ /--config/) b[sh] = med; else m[sh] = med }
     END { for (s in m) if (s in b) { r = m[s] / b[s]; printf "%-18s model %.4f  sweep best %.4f ms  model/best %.3f%s\n", s, m[s], b[s], r, (r > 1.03 ? "  (miss)" : ""); k++; ok += (r <= 1.03) }
           printf "head to head, the model within 3%% of the sweep'\''s best at %d of %d of the sweep'\''s misses\n", ok, k }' \
  "$OUT/times.txt" | sort | tee "$OUT/judge.txt"
