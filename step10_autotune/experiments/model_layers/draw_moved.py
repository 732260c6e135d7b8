# model_layers/draw_moved.py TREE_EXPLAIN VARIANT_EXPLAIN POOL SEED N: a list to judge a chooser variant on, drawn before any
# run: from POOL shapes of draw.py (seed SEED, M of 1-8192: the models' layers), those whose pick the variant moves,
# N of them at random (random.seed(SEED)); the shapes of shapes.txt and shapes_prefill.txt left out.  H200 numbers.
#   python3 step10_autotune/experiments/model_layers/draw_moved.py TREE VARIANT 4000 3 10 > LIST
import os, random, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from explain_picks import picks
tree, variant, pool, seed, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
drawn = subprocess.run([sys.executable, os.path.join(here, 'draw.py'), str(pool), str(seed)], capture_output=True,
                       text=True, check=True).stdout.splitlines()
earlier = set()
for f in ('shapes.txt', 'shapes_prefill.txt'):
    for l in open(os.path.join(here, f)):
        p = l.split('#')[0].split()
        if len(p) >= 3: earlier.add(tuple(map(int, p[:3])))
rows = {tuple(map(int, l.split()[:3])): l.split('#', 1)[1].strip() for l in drawn if l.strip() and not l.startswith('#')}
shapes = sorted(s for s in rows if s not in earlier)

pt, pv = picks(tree, shapes), picks(variant, shapes)
moved = [s for s in shapes if pt[s] != pv[s]]
random.seed(seed)
print('# model_layers/draw_moved.py %s: %d of %d drawn shapes moved; %d of them at random, before any run'
      % (' '.join(sys.argv[3:]), len(moved), len(shapes), min(n, len(moved))))
for s in sorted(random.sample(moved, min(n, len(moved)))):
    print('%-6d %-7d %-7d # %s; tree %s, variant %s' % (s + (rows[s], pt[s], pv[s])))
