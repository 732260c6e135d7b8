#!/bin/sh
# picks_diff.sh REV [LIST...]: where does the tree's chooser.h pick differently from REV's?  No GPU:
# picks.c (sk_cap/) compiled against each chooser.h, run with the H200's and the H100's numbers over
# every shape of the lists (default: the bench's 23, the fit's, the held-out list and every list in
# experiments/), one line per shape whose pick moved, then the count.
#   sh step10_autotune/experiments/decode/picks_diff.sh 1bf5560
set -u
REV=${1:?usage: picks_diff.sh REV [LIST...]}; shift
S=step10_autotune
[ $# -gt 0 ] || set -- $S/experiments/fixup_writers/logs/final/bench_shapes.txt $S/chooser_fit.txt \
    $S/heldout_shapes.txt $S/experiments/*_shapes.txt
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
git show "$REV:$S/chooser.h" > "$T/chooser.h" || exit 2
# REV's menu and rings too (64x64 took 8 slots before session 22): picks.c includes "../menu_rings.h"
mkdir -p "$T/sk_cap" && cp $S/experiments/sk_cap/picks.c "$T/sk_cap/" && git show "$REV:$S/experiments/menu_rings.h" > "$T/menu_rings.h" || exit 2
nvcc -O2 -I"$T" -Icommon -I$S "$T/sk_cap/picks.c" -o "$T/old" && nvcc -O2 -Icommon -I$S $S/experiments/sk_cap/picks.c -o "$T/new" || exit 1
grep -hv '^#' "$@" | awk 'NF >= 3 { print $1, $2, $3 }' | sort -u -k1n -k2n -k3n > "$T/shapes"
for g in "H200 132 62914560 4814.3" "H100 132 52428800 3352.0"; do
  set -- $g; name=$1; shift
  "$T/old" "$@" < "$T/shapes" | awk 'NF >= 10 { print $1, $2, $3, $9, $10 }' > "$T/o"
  "$T/new" "$@" < "$T/shapes" | awk 'NF >= 10 { print $1, $2, $3, $9, $10 }' > "$T/n"
  echo "## $name ($*): $REV's pick -> the tree's, predicted us"
  paste -d' ' "$T/o" "$T/n" | awk '$4 != $9 { printf "%6d %6d %6d  %s %s -> %s %s\n", $1, $2, $3, $4, $5, $9, $10; n++ }
      END { printf "%d of %d picks moved\n", n, NR }'
done
