# tile_192/compare.py DIR [PICKS]: the 192x128 build's --tune logs (one process per shape: run.sh's tune and prefill parts), the menu's
# best candidate against 192x128's best, both as the sweep measured them beside cuBLAS (ratio), and the head to
# head of the best two; then at how many shapes 192x128's best is ahead of the menu's by more than 3%.
# With PICKS (lines "MxNxK CONFIG/PLAN": the tree's model, five configurations, from decode/explain.c), also the
# tree's pick against the menu's best as model_vs_sweep.py judges it (each time scaled by the cuBLAS time beside
# its configuration's dp), and its ratio to cuBLAS.
#   python3 step10_autotune/experiments/tile_192/compare.py DIR [PICKS]
#   grep -hv '^#' LIST | build/explain 132 62914560 4814.3 | grep -E '^==|<-' | paste - - |
#       awk '{print $2"x"$4"x"$6, $7}' > PICKS      # explain: decode/explain.c's header
import glob, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'decode'))
from h200_logs import scaled
picks = dict(l.split() for l in open(sys.argv[2])) if len(sys.argv) > 2 else {}
wins = n = near = ge95 = 0
def shape_of(f):   # tune_sweep.sh's tune_MxNxK.log, or the tune part's (variant_tune) step10_autotune_MxNxK.log
    return os.path.basename(f)[:-4].split('_')[-1]
logs = glob.glob(os.path.join(sys.argv[1], 'tune_*.log')) + glob.glob(os.path.join(sys.argv[1], 'step10_autotune_*.log'))
for f in sorted(logs, key=lambda f: int(shape_of(f).split('x')[0])):
    shape, r, h2h = shape_of(f), {}, ''
    for line in open(f):
        m = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms \| ratio ([\d.]+)', line)
        if m and m.group(1) not in r: r[m.group(1)] = tuple(float(m.group(i)) for i in (2, 3, 4))
        if 'head to head, median' in line: h2h = line.split('time: ')[1].strip()
    old = {k: v for k, v in r.items() if not k.startswith('192x128')}
    new = {k: v for k, v in r.items() if k.startswith('192x128')}
    if not old or not new: print('%s: no tune lines' % shape); continue
    bo, bn = max(old, key=lambda k: old[k][2]), max(new, key=lambda k: new[k][2])
    n += 1; wins += new[bn][2] > 1.03 * old[bo][2]
    line = '%-18s menu %-14s %.3f  192x128 %-14s %.3f  %+.1f%%' % (shape, bo, old[bo][2], bn, new[bn][2],
                                                                  100 * (new[bn][2] / old[bo][2] - 1))
    p = picks.get(shape)
    if p in old:
        norm = scaled(open(f), lambda k: not k.startswith('192x128'))   # model_vs_sweep.py's rule
        q = min(norm.values()) / norm[p]
        near += q >= 0.97; ge95 += old[p][2] >= 0.95
        line += '  | tree %-14s %.3f of cuBLAS, %.3f of the best' % (p, old[p][2], q)
    print(line + '  (head to head: %s)' % h2h)
print("192x128's best ahead of the menu's by more than 3%%: %d of %d" % (wins, n))
if picks: print("the tree's pick within 3%% of the menu's best: %d of %d; at >= 0.95 of cuBLAS: %d" % (near, n, ge95))
