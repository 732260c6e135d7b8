#!/bin/sh
# sk_scatter/run.sh BUILD OUT [LIST VARIANT_PY]: --tune at variant_shapes.txt (drawn by draw.sh before any run,
# session 25), one process per shape with the tree's binary (BUILD/step10_autotune, PREBUILT), then judge.sh: the
# tree's chooser and variant.py's against tune's first round.  LIST and VARIANT_PY: another variant's list and
# patch (sk_reread/variant_scatter1_shapes.txt and variant_scatter1.py).  GPU for the tune part; exits 3 without one.
# A variant written against 52f4de6's chooser.h (sk_scatter's, sk_reread's, sk_streamed_share's): DRAW_BASE=52f4de6.
set -u
BUILD=${1:?usage: run.sh BUILD OUT [LIST VARIANT_PY]}; OUT=${2:?usage: run.sh BUILD OUT [LIST VARIANT_PY]}
HERE=$(dirname "$0")
LIST=${3:-$HERE/variant_shapes.txt}; VPY=${4:-$HERE/variant.py}
mkdir -p "$OUT"
. "$HERE/../variant.sh"
variant_need_gpu sk_scatter "$BUILD/step10_autotune"
for sh in $(grep -v '^#' "$LIST" | awk '{ print $1 }'); do variant_tune "$BUILD/step10_autotune" "$OUT/tune.txt" "$sh"; done
sh "$HERE/draw.sh" "$OUT/draw" "$VPY" > /dev/null && sh "$HERE/judge.sh" "$OUT/draw" "$OUT/tune.txt" | tee "$OUT/judge.txt"
