#!/bin/sh
# sk_scatter/judge.sh DRAW_OUT TUNE_LOG...: the tree's chooser and variant.py's against --tune's first round.  No GPU.
# DRAW_OUT: draw.sh's folder (its tree and variant builds of picks.c).  TUNE_LOG: variant_tune's LOG ("== MxNxK
# rc=N" then that shape's tune: lines; experiments/variant.sh), e.g. run.sh's.  Per shape: each chooser's pick,
# that candidate's ratio to cuBLAS and tune's best ratio in the same process; then how many picks are within 3%.
set -u
O=${1:?usage: judge.sh DRAW_OUT TUNE_LOG...}; shift
cat "$@" | awk '/^== [0-9]+x[0-9]+x[0-9]+ / { sh = $2 } /^tune: [0-9a-z]+\/[a-z_0-9]+ / && sh { for (i = 1; i <= NF; i++) if ($i == "ratio") print sh, $2, $(i + 1) }' > "$O/measured.txt"
awk '{ print $1 }' "$O/measured.txt" | sort -u | tr x ' ' > "$O/judged_shapes.txt"
"$O/tree" 132 62914560 4814.3 < "$O/judged_shapes.txt" | awk 'NF >= 10 { print $1 "x" $2 "x" $3, $9 }' > "$O/tree_picks.txt"
"$O/variant" 132 62914560 4814.3 < "$O/judged_shapes.txt" | awk 'NF >= 10 { print $1 "x" $2 "x" $3, $9 }' > "$O/variant_picks.txt"
awk 'FILENAME ~ /measured/ { r[$1 " " $2] = $3; if ($3 > best[$1]) { best[$1] = $3; bc[$1] = $2 }; next }
     FILENAME ~ /tree_picks/ { t[$1] = $2; next }
     { v = $2; sh = $1; rt = r[sh " " t[sh]]; rv = r[sh " " v]
       okt = rt >= 0.97 * best[sh]; okv = rv >= 0.97 * best[sh]; nt += okt; nv += okv; n++
       printf "%-18s best %-13s %.3f  tree %-13s %.3f%s  variant %-13s %.3f%s\n", sh, bc[sh], best[sh], t[sh], rt, okt ? "" : " (miss)", v, rv, okv ? "" : " (miss)" }
     END { printf "within 3%% of tune'\''s best: the tree %d of %d, the variant %d of %d\n", nt, n, nv, n }' \
  "$O/measured.txt" "$O/tree_picks.txt" "$O/variant_picks.txt"
