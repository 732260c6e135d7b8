# box_rows.py CHOOSER_H OUT_H: chooser.h with every box of A counted whole, as before session 20: 64x64's
# 64 rows where kernel.cu's config_prepare cuts them to M's rounded up to 8 (c36827a), and a pair's halves
# where M fits in rank 0's (session 20).  Session 19 wrote this script the other way round (the 64x64 cut
# as a variant of the tree) and committed box_rows_shapes.txt to judge it; session 20 ran it (decode/run.sh's
# boxrows part), the cut won and landed in chooser_box_rows, and the script now rebuilds the model before
# it, so that the same part still compares the two.  (pair_rows.py rebuilds the model between: 64x64 cut,
# pairs whole.)
import sys
s = open(sys.argv[1]).read()
def edit(old, new, count=1):
    global s
    if s.count(old) != count: sys.exit("box_rows.py: chooser.h changed (%d places read %r)" % (s.count(old), old[:60]))
    s = s.replace(old, new)
edit("    if (c->tile_wgs == 1 && M <= c->bm / c->cluster) return (M + 7) / 8 * 8 / (double)c->cluster + c->bn;   /* A cut to M; B */\n", "")
open(sys.argv[2], "w").write(s)
