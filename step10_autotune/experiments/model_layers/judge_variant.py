# model_layers/judge_variant.py TREE_EXPLAIN VARIANT_EXPLAIN SOURCE...: the tree's chooser and a variant's, each as
# decode/explain.c built against it, judged on --tune logs of the final kernels: at how many shapes is each pick
# within 3% of the best candidate measured in the same process (model_vs_sweep.py's rule: each candidate's time
# scaled by the cuBLAS time beside its configuration's dp plan)?  A SOURCE is a folder of tune_MxNxK.log (tune_sweep.sh),
# a file of "== MxNxK" blocks (variant_tune), or a bench log, plain or .gz, of "=== ... --m M --n N --k K --tune"
# blocks.  Candidates outside the tree's menu of five (tile_192's, swap_width's) are left out.  Prints each shape where
# the two picks differ, then the counts per source.  H200 numbers (132 SMs, 60 MiB L2, 4814.3 GB/s).  No GPU.
#   python3 step10_autotune/experiments/model_layers/judge_variant.py TREE VARIANT SOURCE...
import glob, gzip, os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'decode'))
from explain_picks import picks
from h200_logs import scaled

MENU = ('64x64/', '64x128/', '128x128/', '128x192/', '128x256c/')


def blocks(src):   # {(M, N, K): [tune lines]} of one source
    out = {}
    if os.path.isdir(src):
        for f in glob.glob(os.path.join(src, 'tune_*.log')):
            m = re.search(r'tune_(\d+)x(\d+)x(\d+)\.log$', f)
            out[tuple(map(int, m.groups()))] = open(f, errors='replace').read().splitlines()
        return out
    text = (gzip.open(src, 'rt') if src.endswith('.gz') else open(src)).read().splitlines()
    cur = None
    for line in text:
        m = re.match(r'== (\d+)x(\d+)x(\d+) ', line) or re.match(r'=== .*--m (\d+) --n (\d+) --k (\d+) .*--tune', line)
        if m: cur = tuple(map(int, m.groups())); out[cur] = []; continue
        if line.startswith('==='): cur = None
        if cur: out[cur].append(line)
    return out


tree, variant = sys.argv[1], sys.argv[2]
for src in sys.argv[3:]:
    runs = {s: scaled(b, lambda k: k.startswith(MENU)) for s, b in blocks(src).items()}
    runs = {s: r for s, r in runs.items() if r}
    pt, pv = picks(tree, sorted(runs)), picks(variant, sorted(runs))
    nt = nv = 0
    for s in sorted(runs):
        r = runs[s]; best = min(r.values())
        qt = best / r[pt[s]] if pt[s] in r else 0.0
        qv = best / r[pv[s]] if pv[s] in r else 0.0
        nt += qt >= 0.97; nv += qv >= 0.97
        if pt[s] != pv[s]:
            print('  %-18s tree %-14s %.3f   variant %-14s %.3f   (best %s)' % ('%dx%dx%d' % s, pt[s], qt, pv[s], qv, min(r, key=r.get)))
    print('%s: within 3%% of the best: the tree %d of %d, the variant %d of %d' % (src, nt, len(runs), nv, len(runs)))
