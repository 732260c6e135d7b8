# sk_scatter/variant.py IN OUT: chooser.h with textbook stream-K's k-tile priced per configuration instead of by
# CHOOSER_SK_SCATTER (1.067 for all five, fitted on the H100): for the pingpong tiles the medians estimate.sh read
# from session 25's 26 tune processes on the H200 (logs/estimate_7b77c04.txt), 64x64 1.28, 64x128 1.38, 128x128
# 1.03, 128x192 1.05.  128x256c keeps 1.067: its 0.94 there counts the cooperative epilogue the model prices
# apart (CHOOSER_EPI_US_COOP, per tile), and with 0.94 the model moved 10 of the 23 bench picks to 128x256c/sk.
# Exits 1 (naming the line) if chooser.h no longer matches.
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import before_estimate, main, sk_price


def patch(s):
    who = "sk_scatter/variant.py"
    return before_estimate(sk_price(s, "chooser_sk_scatter_of(c)", who), """SCHED_FN double chooser_sk_scatter_of(const chooser_config *c)   /* experiment: sk_scatter/variant.py */
{
    if (c->tile_wgs > 1) return CHOOSER_SK_SCATTER;   /* 128x256c: as the tree */
    if (c->bm == 64) return c->bn == 64 ? 1.28 : 1.38;   /* 64x64, 64x128 */
    return c->bn == 192 ? 1.05 : 1.03;                /* 128x192, 128x128 */
}

""", who)


if __name__ == "__main__":
    main(patch)
