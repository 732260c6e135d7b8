# sk_streamed_share/variant.py IN OUT: chooser.h with textbook stream-K's price, CHOOSER_SK_SCATTER (1.067),
# charged on the busiest unit's streamed k-tiles only, not on its whole mainloop.  In the tree a plan that
# streams pays 6.7% on every k-tile of its busiest unit, whole tiles included: at 8192^3, 128x256c/sk's
# busiest unit runs about 14 whole tiles and 1.5 waves' share of streamed k-tiles, and all of it is charged.
# Here the factor is 1 + (CHOOSER_SK_SCATTER - 1) x streamed / busiest: the same where every k-tile streams
# (fewer tiles than units, sk_cap), less where whole tiles come first.  Exits 1 (naming the line) if chooser.h
# no longer matches.
import sys
s = open(sys.argv[1]).read()
old = "(mode != SK_MODE_AUTO && e.plan.sk_tiles ? CHOOSER_SK_SCATTER : 1.0);"
fn = "SCHED_FN chooser_estimate chooser_estimate_with("
if s.count(old) != 1 or s.count(fn) != 1:
    sys.exit("variant.py: chooser.h changed; the patch no longer applies (%r)" % (old if s.count(old) != 1 else fn))
s = s.replace(old, "(mode != SK_MODE_AUTO && e.plan.sk_tiles ? chooser_scatter_streamed(&e.plan, e.busiest_kt) : 1.0);   /* experiment */")
s = s.replace(fn, """SCHED_FN double chooser_scatter_streamed(const sk_plan *p, long long busiest)   /* experiment: sk_streamed_share */
{
    const double streamed = (double)((p->sk_base + (p->sk_extra > 0)) * SK_RATE_PCT + 99) / 100;   /* sk_plan_time's */
    const double share = busiest > 0 && streamed < busiest ? streamed / busiest : 1.0;
    return 1.0 + (CHOOSER_SK_SCATTER - 1.0) * share;
}

""" + fn)
open(sys.argv[2], "w").write(s)
