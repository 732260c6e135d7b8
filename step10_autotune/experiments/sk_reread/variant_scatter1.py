# sk_reread/variant_scatter1.py IN OUT: variant.py's re-read term, and CHOOSER_SK_SCATTER 1.0 (1.067 in the tree,
# fitted on the H100: textbook stream-K's k-tile against a whole tile's).  The reasoning (session 26): the lumped
# constant may have stood for the DRAM re-reads the term now prices by cause; on the H200 the streamed k-tiles of
# the 128-row tiles at large M cost what the model's busiest count already says (sk_scatter/estimate.sh: 1.03 for
# 128x128, 1.05 for 128x192, 0.94 for 128x256c).  In-sample, on the 38 tune processes of sessions 25 and 26, 32
# within 3% of tune against the tree's 31: too close to tell, hence a list drawn before its run (variant_shapes.txt).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from chooser_variant import edit, load, main


def patch(s):
    s = edit(s, "#define CHOOSER_SK_SCATTER 1.067",
             "#define CHOOSER_SK_SCATTER 1.0   /* experiment: sk_reread/variant_scatter1.py */", "sk_reread/variant_scatter1.py")
    return load("sk_reread/variant.py")(s)


if __name__ == "__main__":
    main(patch)
