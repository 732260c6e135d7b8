# model_layers/variant_fixup_us.py IN OUT: chooser.h with a fixed latency for a stream-K plan's fixup, in us.  The
# tree prices the busiest owner's fixup in k-tile times (SK_FIXUP_KT, 10: sk_plan_time), so a 64x64 fixup costs
# 0.6 us and a 128x128 one 3.1.  At three decode shapes of the model_layers list (48-56 tiles of 64x64) the model
# picked 64x64/sk_l2 for a predicted 0.3 us and measured 0.7-0.8 us lost to 64x64/dp (logs/model_vs_sweep.txt):
# a partial's write, the flag, the owner's wait and read take a round trip through L2 whatever the tile.  Here
# every plan with streamed tiles pays CHOOSER_FIXUP_US more (default 1.0; -D to try others).  Exits 1 (naming the
# line) if chooser.h no longer matches.  Judged by judge_variant.py (beside this); no GPU.  Adopted in session 29
# (chooser.h's CHOOSER_FIXUP_US), tied there to plans with a fixup (sk_plan_fixup_kt > 0) rather than to every plan
# with streamed tiles: the same picks at every shape judged (NOTES.md, "Session 29").  Patch e72f1e7's chooser.h,
# the one it was judged against (README.md says how).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import edit, main


def patch(s):
    who = "model_layers/variant_fixup_us.py"
    if "CHOOSER_FIXUP_US" in s:
        sys.exit("%s: this chooser.h has the term already (adopted in session 29): patch e72f1e7's" % who)
    s = edit(s, "#define CHOOSER_MAX_CANDIDATES 24\n", """#define CHOOSER_MAX_CANDIDATES 24
#ifndef CHOOSER_FIXUP_US
#define CHOOSER_FIXUP_US 1.0           /* experiment: a fixup's fixed latency, us (model_layers/variant_fixup_us.py) */
#endif
""", who)
    return edit(s, "    if (c->tile_wgs > 1) e.t_mma_us += (e.busiest_kt + kt - 1) / kt * CHOOSER_EPI_US_COOP;\n",
                """    if (c->tile_wgs > 1) e.t_mma_us += (e.busiest_kt + kt - 1) / kt * CHOOSER_EPI_US_COOP;
    if (e.plan.sk_tiles) e.t_mma_us += CHOOSER_FIXUP_US;   /* experiment */
""", who)


if __name__ == "__main__":
    main(patch)
