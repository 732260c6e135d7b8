#!/bin/sh
# decode/ring_rule.sh OLD NEW OUT: the ring rule (chooser_ring: 64x64 past 8 slots for whole tiles, as
# deep as the busiest CTA's k-tiles, 13 at most) judged end to end: the model's pick of OLD's binary
# (b917ad0: 64x64 at 8 slots) and of NEW's, 3 rotated rounds, one process a run, at the shapes of
# ring_cut_shapes.txt (drawn before any run: 10 whose pick moves, 10 whose 64x64/dp pick now takes more
# than 8 slots) and five of ring_cut.sh's (the decode shapes where 13 slots moved most, 1 x 14336 x 4096
# where the model picks 64x128, and 512^3, whose 8 k-tiles keep 8).  OLD and NEW: folders holding a
# step10_autotune each, paths from the repository's root.  Exits 3 without a GPU.
set -u
OLD=${1:?usage: ring_rule.sh OLD NEW OUT}; NEW=${2:?usage: ring_rule.sh OLD NEW OUT}; OUT=${3:?usage: ring_rule.sh OLD NEW OUT}
HERE=$(dirname "$0")
mkdir -p "$OUT"
. "$HERE/../variant.sh"
variant_need_gpu ring_rule "$NEW/step10_autotune"
shapes=$(grep -v '^#' "$HERE/../ring_cut_shapes.txt" | awk '{ printf "%dx%dx%d ", $1, $2, $3 }')
shapes="$shapes 16x4096x4096 32x4096x14336 64x4096x4096 1x14336x4096 512x512x512"
: > "$OUT/rounds.txt"
variant_rotated_rounds "$OUT/rounds.txt" 3 . "$shapes" "$OLD/step10_autotune --no-cache" "$NEW/step10_autotune --no-cache"
# per shape: each binary's pick, its ring, median time and ratio; then new over old
python3 "$HERE/rounds_picks.py" "$OUT/rounds.txt" --new-over-old | tee "$OUT/summary.txt"
