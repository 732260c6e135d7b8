# decode/judge_logs.py EXPLAIN...: at how many shapes of every H200 log the experiments keep is each
# chooser's pick within 3% of the best candidate measured?  EXPLAIN: decode/explain.c built against a
# chooser.h (the tree's, or a variant's through a -I before step10_autotune).  Runs kept: after both of
# A's cuts (sweep_s21, pair_rows) or M > 64, where no cut applies to any configuration, so every
# candidate's kernel is the tree's; a candidate's time scaled by cuBLAS's beside its configuration's
# dp plan (model_vs_sweep.py's rule), a shape's runs in several logs judged by their median.  No GPU.
# Session 21: stage_feed.sh (beside this) judges the feed counting the stage an SM receives.
import collections, glob, re, statistics as st, subprocess, sys
E = 'step10_autotune/experiments/'
DIRS = ['decode/logs/tune_decode', 'decode/logs/sweep_s21', 'decode/logs/box_rows', 'decode/logs/pair_rows',
        'decode/logs/fixed', 'decode/logs/share', 'sk_cap/logs/rule', 'sk_cap/logs/first_offer',
        'sk_cap/logs/final', 'fixup_writers/logs/final']
runs = {}
for d in DIRS:
    for f in sorted(glob.glob(E + d + '/**/tune_*.log', recursive=True)):
        m = re.search(r'tune_(\d+)x(\d+)x(\d+)\.log$', f)
        tu = {}
        for line in open(f, errors='replace'):
            t = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms', line)
            if t and t.group(1) not in tu: tu[t.group(1)] = (float(t.group(2)), float(t.group(3)))
        clk = {k.split('/')[0]: c for k, (t, c) in tu.items() if k.endswith('/dp')}
        if not m or not clk: continue
        M = int(m.group(1))
        # after both cuts, or no cut applies to any configuration
        recent = 'sweep_s21' in f or 'pair_rows' in f
        if not (recent or M > 64): continue
        ref = sorted(clk.values())[len(clk) // 2]
        runs[f] = (tuple(map(int, m.groups())), {k: t * ref / clk.get(k.split('/')[0], ref) for k, (t, c) in tu.items()})
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
