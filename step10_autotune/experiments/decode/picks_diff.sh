#!/bin/sh
# picks_diff.sh REV[..REV2] [LIST...]: where does the chooser pick differently at REV2 (default: the tree) than
# at REV?  No GPU: picks.c (sk_cap/) compiled against each revision's chooser.h, its common/ (the plan model,
# stream_k_schedule.h) and its menu with the rings it fits, run with the H200's and the H100's numbers over every
# shape of the lists (default: the bench's 23, the fit's, the held-out list and every list in experiments/),
# one line per shape whose pick moved, then the count.  A range isolates one change: c50bfa9..e8e4254 is the
# DRAM floor's first fix alone, where c50bfa9 against the tree is every change since.
#   sh step10_autotune/experiments/decode/picks_diff.sh 1bf5560
#   sh step10_autotune/experiments/decode/picks_diff.sh c50bfa9..e8e4254
set -u
REV=${1:?usage: picks_diff.sh REV[..REV2] [LIST...]}; shift
NEW=
case $REV in *..*) NEW=${REV#*..}; REV=${REV%%..*} ;; esac
S=step10_autotune
[ $# -gt 0 ] || set -- $S/experiments/fixup_writers/logs/final/bench_shapes.txt $S/chooser_fit.txt \
    $S/heldout_shapes.txt $S/experiments/*_shapes.txt
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
# build R DIR: DIR/picks built from revision R's chooser.h, common/ and menu (the working tree's when R is empty).
# picks.c includes "../menu_rings.h"; before 3251b1d the menu sat in each tool, the same as that commit's first
# menu_rings.h (64x64's 8 slots until 101c629), so a revision without the file takes 3251b1d's.
build() {
    mkdir -p "$2/sk_cap" "$2/common" && cp $S/experiments/sk_cap/picks.c "$2/sk_cap/" || return 2
    if [ -z "$1" ]; then
        cp -r common/. "$2/common/" && cp $S/chooser.h $S/experiments/menu_rings.h "$2/" || return 2
    else
        git archive "$1" common | tar -x -C "$2" && git show "$1:$S/chooser.h" > "$2/chooser.h" || return 2
        git show "$1:$S/experiments/menu_rings.h" > "$2/menu_rings.h" 2>/dev/null ||
            git show "3251b1d:$S/experiments/menu_rings.h" > "$2/menu_rings.h" || return 2
    fi
    nvcc -O2 -I"$2" -I"$2/common" "$2/sk_cap/picks.c" -o "$2/picks" || return 1
}
build "$REV" "$T/a" || exit $?
build "$NEW" "$T/b" || exit $?
grep -hv '^#' "$@" | awk 'NF >= 3 { print $1, $2, $3 }' | sort -u -k1n -k2n -k3n > "$T/shapes"
for g in "H200 132 62914560 4814.3" "H100 132 52428800 3352.0"; do
  set -- $g; name=$1; shift
  "$T/a/picks" "$@" < "$T/shapes" | awk 'NF >= 10 { print $1, $2, $3, $9, $10 }' > "$T/o"
  "$T/b/picks" "$@" < "$T/shapes" | awk 'NF >= 10 { print $1, $2, $3, $9, $10 }' > "$T/n"
  echo "## $name ($*): $REV's pick -> ${NEW:-the tree}'s, predicted us"
  paste -d' ' "$T/o" "$T/n" | awk '$4 != $9 { printf "%6d %6d %6d  %s %s -> %s %s\n", $1, $2, $3, $4, $5, $9, $10; n++ }
      END { printf "%d of %d picks moved\n", n, NR }'
done
