# box_rows_edge/variant.py IN OUT: chooser.h with chooser_box_rows counting A's last tile row cut at M, as the
# kernel loads it since session 25 (map_shared_edge for a pingpong pair's shared A, map_edge for the cooperative
# pair's own), averaged over the tile rows; B still whole (session 22: counting its cut picked worse).  The
# tree counts the cut only where M fits in one row's half.  Exits 1 if chooser.h no longer matches.
import sys
s = open(sys.argv[1]).read()
old = """SCHED_FN double chooser_box_rows(const chooser_config *c, int M)
{
    if (c->tile_wgs == 1 && M <= c->bm / c->cluster) return (M + 7) / 8 * 8 / (double)c->cluster + c->bn;   /* A cut to M; B */
    return c->tile_wgs > 1 ? c->bm + (double)c->bn / c->cluster : (double)c->bm / c->cluster + c->bn;   /* B; A */
}"""
new = """SCHED_FN double chooser_box_rows(const chooser_config *c, int M)   /* experiment: box_rows_edge/variant.py */
{
    const int tm = (M + c->bm - 1) / c->bm, last = M - (tm - 1) * c->bm;   /* the last tile row's real rows */
    const int half = c->tile_wgs > 1 ? c->bm : c->bm / c->cluster;         /* A rows one CTA loads */
    double last_rows = 0;                                                  /* per CTA, in the last tile row */
    if (c->tile_wgs > 1) last_rows = (last + 7) / 8 * 8;                   /* the cooperative pair's own A */
    else {
        for (int r = 0; r < c->cluster; ++r) {
            const int rows = last - r * half > half ? half : last - r * half;
            if (rows > 0) last_rows += (rows + 7) / 8 * 8;
        }
        last_rows /= c->cluster;
    }
    const double a = ((tm - 1) * (double)half + last_rows) / tm;
    return c->tile_wgs > 1 ? a + (double)c->bn / c->cluster : a + c->bn;   /* A; B whole */
}"""
if s.count(old) != 1:
    sys.exit("box_rows_edge/variant.py: chooser.h changed; chooser_box_rows no longer reads as the patch expects")
open(sys.argv[2], "w").write(s.replace(old, new))
