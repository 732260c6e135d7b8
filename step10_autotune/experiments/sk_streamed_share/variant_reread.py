# sk_streamed_share/variant_reread.py IN OUT: variant.py's chooser (stream-K's price on the streamed k-tiles only)
# with sk_reread/variant.py's DRAM term beside it (session 26: textbook stream-K's tiles read their k-slices out of
# phase, and where the streamed panels outgrow the L2 each phase brings B again).  variant.py alone sends small-M
# shapes with a large B to 128x128/sk, where that re-read is what it costs (512 x 14336 x 4096: 0.930 of cuBLAS
# against 128x256c/dp's 0.995 in session 25's sweep).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import load, main


def patch(s):
    return load("sk_streamed_share/variant.py")(load("sk_reread/variant.py")(s))


if __name__ == "__main__":
    main(patch)
