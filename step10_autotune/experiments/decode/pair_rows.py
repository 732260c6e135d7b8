# pair_rows.py CHOOSER_H OUT_H: chooser.h with a pair's A counted as the kernel loads it since session 20
# (kernel.cu's config_prepare): where M fits in rank 0's half of A, rank 0 asks for M's rows rounded up
# to 8 and rank 1 for none, so a CTA of the pair loads half that on average, plus its B.  The variant
# decode/run.sh's pairrows part judges against the tree's model (../pair_rows_shapes.txt).
import sys
s = open(sys.argv[1]).read()
def edit(old, new, count=1):
    global s
    if s.count(old) != count: sys.exit("pair_rows.py: chooser.h changed (%d places read %r)" % (s.count(old), old[:60]))
    s = s.replace(old, new)
edit("    if (c->cluster == 1 && c->tile_wgs == 1 && M < c->bm) return (M + 7) / 8 * 8 + c->bn;   /* A cut to M; B */\n",
     "    if (c->tile_wgs == 1 && M <= c->bm / c->cluster) return (M + 7) / 8 * 8 / (double)c->cluster + c->bn;   /* A cut to M; B */\n")
open(sys.argv[2], "w").write(s)
