# sk_reread/variant_half.py IN OUT: variant_scatter1.py's chooser (the re-read term, CHOOSER_SK_SCATTER 1.0) with
# the term charged where the streamed panels exceed HALF the L2, not all of it (session 26).  Why half: ncu read B
# 2.2 times at 768 x 2048 x 8192 (128x128/sk), where B (33.5 MB) fits in the 60 MiB L2 (logs/ncu_54fb874.txt), and
# chooser.h's sk_cap rule already counts half the L2 for units that read every k-offset at once (an SM's lines may
# be held in both halves).  And at 512 x 14336 x 4096 variant_scatter1's pick, 128x128/sk (48 MB of streamed
# panels: no term), ran 0.0971 ms in the sweep against 128x256c/dp's 0.0870 (coop128_alone/logs/tune.txt).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import load, main


def patch(s):
    return "#define SK_REREAD_L2_SHARE 0.5   /* experiment: sk_reread/variant_half.py */\n" + load("sk_reread/variant_scatter1.py")(s)


if __name__ == "__main__":
    main(patch)
