# decode/pair_bias.py EXPLAIN: where the model weighs 64x64 (a CTA alone) against 64x128 (a pair), which way
# does it err, and by a cost per launch or per k-tile?  Session 21: the decode list's five misses were all
# the model's 64x128 against a measured best of 64x64, as were three of session 16's feed list.
# Reads every H200 tune log the experiments keep (the dirs below; a candidate's time scaled by cuBLAS's
# beside its configuration's dp plan, as model_vs_sweep.py does), keeps the runs whose kernels are the
# tree's for both tiles (logs before A's cuts only where M >= 64; box_rows', before the pair's cut, where
# M > 32), and prices every shape with the tree's chooser (EXPLAIN: decode/explain.c built, H200's numbers).
# Per shape: the best measured 64x64 over the best 64x128, the same for the model's times; then how far
# and which way the model errs, and the error in us against the time.  No GPU.
#   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/decode/explain.c -o build/explain
#   python3 step10_autotune/experiments/decode/pair_bias.py build/explain
import collections, os, statistics as st, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h200_logs
# the tree's kernels for both tiles: after both cuts; before them where M >= 64 (box_rows', before the pair's cut, M > 32)
runs = h200_logs.runs(lambda f, M: 'sweep_s21' in f or 'pair_rows' in f or ('box_rows' in f and M > 32) or M >= 64)
shapes = sorted({s for _, s in runs})
out = subprocess.run([sys.argv[1], '132', '62914560', '4814.3'], input=''.join('%d %d %d\n' % s for s in shapes),
                     capture_output=True, text=True, check=True).stdout
pred, cur = {}, None
for line in out.splitlines():
    p = line.split()
    if line.startswith('=='): cur = (int(p[1]), int(p[3]), int(p[5]))
    elif p and '/' in p[0]: pred[(cur, p[0])] = float(line.split('<-')[0].split()[-1])
per = collections.defaultdict(list)
for (f, s), c in runs.items():
    def best(tile, t):
        ks = [k for k in c if k.startswith(tile + '/') and (s, k) in pred]
        return min(ks, key=t) if ks else None
    a, b = best('64x64', lambda k: c[k]), best('64x128', lambda k: c[k])
    pa, pb = best('64x64', lambda k: pred[(s, k)]), best('64x128', lambda k: pred[(s, k)])
    if a and b and pa and pb:
        per[s].append((c[a] / c[b], pred[(s, pa)] / pred[(s, pb)], (pred[(s, pa)] - pred[(s, pb)]) - (c[a] - c[b]), c[b]))
rows = [(s, st.median(x[0] for x in v), v[0][1], st.median(x[2] for x in v), st.median(x[3] for x in v)) for s, v in per.items()]
n = len(rows)
bias = sorted(rp / rm for _, rm, rp, _, _ in rows)
print('%d shapes (%d runs); the model\'s 64x64/64x128 over the measured: median %.3f, p10 %.3f, p90 %.3f'
      % (n, sum(len(v) for v in per.values()), st.median(bias), bias[n // 10], bias[9 * n // 10]))
w1 = sorted(s for s, rm, rp, _, _ in rows if rp >= 1.0 and rm < 0.97)
w2 = sorted(s for s, rm, rp, _, _ in rows if rp < 1.0 and rm > 1.03)
print('the model puts 64x128 ahead or level, 64x64 measured > 3%% faster: %d' % len(w1))
for s in w1: print('  %dx%dx%d' % s)
print('the model puts 64x64 ahead, 64x128 measured > 3%% faster: %d' % len(w2))
for s in w2: print('  %dx%dx%d' % s)
print('the model\'s overprice of 64x64 against 64x128 (us), by 64x128\'s measured time:')
by = collections.defaultdict(list)
for _, _, _, over, t in rows: by[min(int(t // 20) * 20, 100)].append(over)
for k in sorted(by): print('  %3d us and up: %3d shapes, median %+.2f us' % (k, len(by[k]), st.median(by[k])))
