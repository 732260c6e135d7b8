# sk_streamed_share/variant_reread.py IN OUT: variant.py's chooser (stream-K's price on the streamed k-tiles only)
# with sk_reread/variant.py's DRAM term beside it (session 26: textbook stream-K's tiles read their k-slices out of
# phase, and where the streamed panels outgrow the L2 each phase brings B again).  variant.py alone sends small-M
# shapes with a large B to 128x128/sk, where that re-read is what it costs (512 x 14336 x 4096: 0.930 of cuBLAS
# against 128x256c/dp's 0.995 in session 25's sweep).
import os, subprocess, sys, tempfile
here = os.path.dirname(os.path.abspath(__file__))
with tempfile.NamedTemporaryFile("w", suffix=".h", delete=False) as t:
    pass
subprocess.check_call([sys.executable, os.path.join(here, "..", "sk_reread", "variant.py"), sys.argv[1], t.name])
subprocess.check_call([sys.executable, os.path.join(here, "variant.py"), t.name, sys.argv[2]])
os.unlink(t.name)
