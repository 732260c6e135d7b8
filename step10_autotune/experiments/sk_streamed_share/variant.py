# sk_streamed_share/variant.py IN OUT: chooser.h with textbook stream-K's price, CHOOSER_SK_SCATTER (1.067),
# charged on the busiest unit's streamed k-tiles only, not on its whole mainloop.  In the tree a plan that
# streams pays 6.7% on every k-tile of its busiest unit, whole tiles included: at 8192^3, 128x256c/sk's
# busiest unit runs about 14 whole tiles and 1.5 waves' share of streamed k-tiles, and all of it is charged.
# Here the factor is 1 + (CHOOSER_SK_SCATTER - 1) x streamed / busiest: the same where every k-tile streams
# (fewer tiles than units, sk_cap), less where whole tiles come first.  Exits 1 (naming the line) if chooser.h
# no longer matches.
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import before_estimate, main, sk_price


def patch(s):
    who = "sk_streamed_share/variant.py"
    return before_estimate(sk_price(s, "chooser_scatter_streamed(&e.plan, e.busiest_kt)", who), """SCHED_FN double chooser_scatter_streamed(const sk_plan *p, long long busiest)   /* experiment: sk_streamed_share */
{
    const double streamed = (double)((p->sk_base + (p->sk_extra > 0)) * SK_RATE_PCT + 99) / 100;   /* sk_plan_time's */
    const double share = busiest > 0 && streamed < busiest ? streamed / busiest : 1.0;
    return 1.0 + (CHOOSER_SK_SCATTER - 1.0) * share;
}

""", who)


if __name__ == "__main__":
    main(patch)
