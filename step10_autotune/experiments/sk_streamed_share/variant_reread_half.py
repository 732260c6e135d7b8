# sk_streamed_share/variant_reread_half.py IN OUT: variant_reread.py's chooser with the re-read charged where the
# streamed panels exceed HALF the L2, as sk_reread/variant_half.py charges it (session 26: ncu read B 2.2 times
# at 768 x 2048 x 8192, whose B fits in the L2; and at 512 x 14336 x 4096, 48 MB of streamed panels, 128x128/sk
# ran 7% behind 128x256c/dp).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import load, main


def patch(s):
    return "#define SK_REREAD_L2_SHARE 0.5   /* experiment: sk_streamed_share/variant_reread_half.py */\n" + load("sk_streamed_share/variant_reread.py")(s)


if __name__ == "__main__":
    main(patch)
