# sk_reread/variant.py IN OUT: chooser.h with a DRAM term for stream-K plans whose tiles read their k-slices out of
# phase (session 26).  A plan that streams S tiles over U' units gives each unit L = S x KT / U' k-tiles; tile w's
# k = 0 falls w x KT mod L into its unit's range, so the streamed tiles run in S / gcd(S, U') phases.  The raster
# puts up to 8 tiles that share a panel next to each other (a column of B for the pairs along N; the cooperative
# pair's rows of A): where those tiles run in different phases and the streamed panels do not fit in the L2, each
# phase brings the panel from DRAM again.  No fitted constant.  At 512 x 14336 x 8192 it prices 128x128/sk at 208 us
# and 128x192/sk at 236 us (measured 207.5 and 236.6; the tree's model 179.6 and 184.6; sk_scatter/logs).
# Exits 1 (naming the line) if chooser.h no longer matches.
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import before_estimate, edit, main


def patch(s):
    who = "sk_reread/variant.py"
    old = "    e.t_dram_us = chooser_dram_us(M, N, K, c, d, e.waves);\n"
    s = edit(s, old, old + "    e.t_dram_us += chooser_sk_reread_bytes(M, N, K, c, &e.plan, d) / (d->dram_gbs * 1e3);   /* experiment */\n", who)
    return before_estimate(s, """#ifndef SK_REREAD_L2_SHARE
#define SK_REREAD_L2_SHARE 1.0   /* experiment: the L2 share the streamed panels must fit in */
#endif
SCHED_FN double chooser_sk_reread_bytes(int M, int N, int K, const chooser_config *c, const sk_plan *p,
                                       const chooser_device *d)   /* experiment: sk_reread/variant.py */
{
    if (!p->sk_tiles || p->sk_units < 1) return 0;
    const int coop = c->tile_wgs > 1;   /* raster across N: consecutive tiles share the pair's rows of A */
    const int run = coop ? (N + c->bn - 1) / c->bn : (M + c->bm - 1) / c->bm;   /* tiles along the raster's run */
    const int g = run < 8 ? run : 8, phases = p->sk_tiles / sk_gcd(p->sk_tiles, p->sk_units);
    const int copies = g < phases ? g : phases;
    if (copies <= 1) return 0;
    const double panel = (coop ? (double)c->bm * c->cluster : (double)c->bn * c->cluster) * K * 2.0;
    const double whole = (coop ? (double)M : (double)N) * K * 2.0;
    double bytes = (double)((p->sk_tiles + g - 1) / g) * panel;
    bytes = bytes < whole ? bytes : whole;
    return bytes > d->l2_bytes * SK_REREAD_L2_SHARE ? (copies - 1) * bytes : 0;
}

""", who)


if __name__ == "__main__":
    main(patch)
