#!/bin/sh
# sk_scatter/draw.sh OUT [VARIANT_PY]: the shapes to judge variant.py's chooser on (or VARIANT_PY's, another
# experiment's patch of chooser.h, IN OUT as variant.py takes them), drawn before any run (session 25).  No GPU.
# picks.c (sk_cap/) against the tree's chooser.h and against variant.py's, with the H200's numbers, over a
# grid of 352 shapes (M 256-6144, N 1024-14336, K 1024-8192; DRAW_M, DRAW_N, DRAW_K another); left out: the bench's, fit, held-out and every
# experiments/*_shapes.txt and tune_shapes.txt shape, and predictions past 3 ms.  Prints the moved picks
# (OUT/moved.txt) and, drawn with Python's random.seed(25), 10 moved and 2 unmoved shapes (OUT/list.txt).
# DRAW_SEED (default 25) and DRAW_EXCLUDE (more lists whose shapes to leave out) are for a later variant's own
# list; DRAW_M, DRAW_N, DRAW_K another grid (session 27: the default grid's moved shapes were all in earlier
# lists); DRAW_BASE a revision whose chooser.h the variant patches and the tree's side is (below).  With
# DRAW_BASE=52f4de6 the defaults draw session 25's variant_shapes.txt again.
set -u
OUT=${1:?usage: draw.sh OUT [VARIANT_PY]}
S=step10_autotune; D=$S/experiments/sk_scatter; VPY=${2:-$D/variant.py}
mkdir -p "$OUT/t/sk_cap" "$OUT/v/sk_cap"
# "the tree" is DRAW_BASE's chooser.h when set (a variant written against a revision the chooser has since left:
# sk_scatter's, sk_reread's and sk_streamed_share's against 52f4de6), else this tree's
if [ -n "${DRAW_BASE:-}" ]; then git show "$DRAW_BASE:$S/chooser.h" > "$OUT/t/chooser.h" || exit 1
else cp $S/chooser.h "$OUT/t/chooser.h"; fi
python3 "$VPY" "$OUT/t/chooser.h" "$OUT/v/chooser.h" || exit 1
for x in t v; do cp $S/experiments/sk_cap/picks.c "$OUT/$x/sk_cap/" && cp $S/experiments/menu_rings.h "$OUT/$x/" || exit 1; done
nvcc -O2 -I"$OUT/t" -Icommon -I$S "$OUT/t/sk_cap/picks.c" -o "$OUT/tree" &&
  nvcc -O2 -I"$OUT/v" -Icommon -I$S "$OUT/v/sk_cap/picks.c" -o "$OUT/variant" || exit 1
for m in ${DRAW_M:-256 384 512 768 1024 1536 2048 2100 3000 4096 6144}; do
  for n in ${DRAW_N:-1024 2048 3072 4096 6144 8192 11008 14336}; do
    for k in ${DRAW_K:-1024 2048 4096 8192}; do echo "$m $n $k"; done; done; done > "$OUT/grid.txt"
"$OUT/tree" 132 62914560 4814.3 < "$OUT/grid.txt" | awk 'NF >= 10 { print $1, $2, $3, $9, $10 }' > "$OUT/tree.txt"
"$OUT/variant" 132 62914560 4814.3 < "$OUT/grid.txt" | awk 'NF >= 10 { print $1, $2, $3, $9, $10 }' > "$OUT/variant.txt"
grep -hv '^#' $S/experiments/fixup_writers/logs/final/bench_shapes.txt $S/chooser_fit.txt $S/heldout_shapes.txt \
  $S/experiments/*_shapes.txt $S/experiments/shared_edge/tune_shapes.txt ${DRAW_EXCLUDE:-} | tr x ' ' | awk 'NF >= 3 { print $1, $2, $3 }' > "$OUT/earlier.txt"
python3 - "$OUT" "${DRAW_SEED:-25}" <<'PY'
import random, sys
o = sys.argv[1]
rd = lambda p: {tuple(map(int, l.split()[:3])): (l.split()[3], float(l.split()[4])) for l in open(p) if len(l.split()) >= 5}
tree, var = rd(o + "/tree.txt"), rd(o + "/variant.txt")
earlier = {tuple(map(int, l.split()[:3])) for l in open(o + "/earlier.txt") if len(l.split()) >= 3}
ok = lambda s: s not in earlier and tree[s][1] <= 3000
moved = sorted(s for s in tree if s in var and ok(s) and tree[s][0] != var[s][0])
unmoved = sorted(s for s in tree if s in var and ok(s) and tree[s][0] == var[s][0])
with open(o + "/moved.txt", "w") as f:
    for s in moved: f.write("%d %d %d  %s -> %s\n" % (s + (tree[s][0], var[s][0])))
seed = int(sys.argv[2])
random.seed(seed)
a = sorted(random.sample(moved, min(10, len(moved)))); b = sorted(random.sample(unmoved, 2))
with open(o + "/list.txt", "w") as f:
    f.write("# drawn by sk_scatter/draw.sh (random.seed(%d)): %d of %d grid shapes moved\n" % (seed, len(moved), len(tree)))
    for s in a: f.write("%dx%dx%d\t# moved: %s -> %s\n" % (s + (tree[s][0], var[s][0])))
    for s in b: f.write("%dx%dx%d\t# unmoved: %s\n" % (s + (tree[s][0],)))
print(open(o + "/list.txt").read(), end="")
PY
