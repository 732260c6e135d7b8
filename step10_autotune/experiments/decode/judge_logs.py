# decode/judge_logs.py EXPLAIN...: at how many shapes of every H200 log the experiments keep is each
# chooser's pick within 3% of the best candidate measured?  EXPLAIN: decode/explain.c built against a
# chooser.h (the tree's, or a variant's through a -I before step10_autotune).  Runs kept: after both of
# A's cuts (sweep_s21, pair_rows) or M > 64, where no cut applies to any configuration, so every
# candidate's kernel is the tree's; a candidate's time scaled by cuBLAS's beside its configuration's
# dp plan (model_vs_sweep.py's rule), a shape's runs in several logs judged by their median.  No GPU.
# Session 21: feed_variants.sh (beside this) judges two other forms of one SM's feed with it.
import collections, os, statistics as st, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h200_logs
# after both cuts, or M > 64, where no cut applies to any configuration
runs = {f: (s, c) for (f, s), c in h200_logs.runs(lambda f, M: 'sweep_s21' in f or 'pair_rows' in f or M > 64).items()}
shapes = sorted({s for s, _ in runs.values()})
def picks(exe):
    out = subprocess.run([exe, '132', '62914560', '4814.3'], input=''.join('%d %d %d\n' % s for s in shapes),
                         capture_output=True, text=True, check=True).stdout
    pred, cur, pk = {}, None, {}
    for line in out.splitlines():
        p = line.split()
        if line.startswith('=='): cur = (int(p[1]), int(p[3]), int(p[5]))
        elif p and '/' in p[0]:
            pred[(cur, p[0])] = float(line.split('<-')[0].split()[-1])
            if '<-' in line: pk[cur] = p[0]
    return pk
for exe in sys.argv[1:]:
    pk = picks(exe); ok = n = 0; per = collections.defaultdict(list)
    for f, (s, c) in runs.items():
        if pk[s] not in c: continue
        q = min(c.values()) / c[pk[s]]; per[s].append(q)
    for s, v in per.items(): n += 1; ok += st.median(v) >= 0.97
    print('%-28s %d of %d shapes within 3%% of the best' % (exe, ok, n))
