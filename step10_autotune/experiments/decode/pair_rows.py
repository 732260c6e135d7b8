# pair_rows.py CHOOSER_H OUT_H: chooser.h with a pair's A counted whole, as between ef1c92a and session 20's
# pair cut: 64x64's rows cut to M (c36827a), a pair's halves whole.  Since the cut (kernel.cu's config_prepare),
# where M fits in rank 0's half of A, rank 0 asks for M's rows rounded up to 8 and rank 1 for none.  This
# script was written as the variant (the pair's cut counted) and pair_rows_shapes.txt drawn to judge it;
# decode/run.sh's pairrows part ran it, the variant won and landed in chooser_box_rows, and the script now
# rebuilds the model before it, so that the same part still compares the two.
import sys
s = open(sys.argv[1]).read()
def edit(old, new, count=1):
    global s
    if s.count(old) != count: sys.exit("pair_rows.py: chooser.h changed (%d places read %r)" % (s.count(old), old[:60]))
    s = s.replace(old, new)
edit("    if (c->tile_wgs == 1 && M <= c->bm / c->cluster) return (M + 7) / 8 * 8 / (double)c->cluster + c->bn;   /* A cut to M; B */\n",
     "    if (c->cluster == 1 && c->tile_wgs == 1 && M < c->bm) return (M + 7) / 8 * 8 + c->bn;   /* A cut to M; B */\n")
open(sys.argv[2], "w").write(s)
