# box_rows.py CHOOSER_H OUT_H: chooser.h with a CTA alone's A rows cut to M as kernel.cu's config_prepare
# cuts them since c36827a (M < its 64 rows: M rounded up to 8), in chooser_box_rows and so in the L2
# feed, the SM's feed and bytes per MAC.  The variant a_box.sh's `boxrows` part builds and judges.
import sys
s = open(sys.argv[1]).read()
def edit(old, new, count=1):
    global s
    if s.count(old) != count: sys.exit("box_rows.py: chooser.h changed (%d places read %r)" % (s.count(old), old[:60]))
    s = s.replace(old, new)
edit("SCHED_FN double chooser_box_rows(const chooser_config *c)   /* rows of A and B one CTA loads per k-tile */\n{\n",
     "SCHED_FN double chooser_box_rows(const chooser_config *c, int M)   /* rows of A and B one CTA loads per k-tile */\n{\n"
     "    if (c->cluster == 1 && c->tile_wgs == 1 && M < c->bm) return (M + 7) / 8 * 8 + c->bn;   /* A cut to M (c36827a) */\n")
edit("chooser_box_rows(c) ", "chooser_box_rows(c, M) ", 3)
open(sys.argv[2], "w").write(s)
