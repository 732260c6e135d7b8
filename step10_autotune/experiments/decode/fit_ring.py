# decode/fit_ring.py: does a feed set by the ring fit the H200's runs better, refitted jointly with the
# model's other constants?  Session 21 (feed_load.sh) measured one CTA's feed in proportion to its ring's
# slots (58-66 GB/s with 4, 84-95 with 6, 102-113 with 8; twice the CTAs, the same): a CTA's loads wait
# on their round trip, which grows with the bytes in flight.  Little's law with a latency and a
# bandwidth: a k-tile past the first ring costs at least
#     SM_LATENCY_US / stages + box bytes / SM_GBS        (the tree: SM_LATENCY_US = 0)
# Dropped into the tree's model with the other constants as fitted, the ring's form picked worse
# (feed_variants.sh ring); this fits them together.
#   Data: every H200 tune log the experiments keep whose kernels are the tree's (judge_logs.py's rule,
#   h200_logs.py) and the --tune of the H200 bench at cb37229 (23 shapes); fitted on both.  The H100's
#   sweeps (logs/menu5c1/tune_fit, logs/shareb/tune_heldout) are judged only: another GPU, and their
#   stream-K kernels are session 16's (before the owner's batched wait).
#   Model: chooser.h compiled into fit_ring_model.c (beside this) with its constants as variables.
#   Search: fit_chooser.py's (log-time least squares on the contenders, the far ones one-sided; a random
#   walk, the lowest loss of RESTARTS seeds).
#   FREE: which constants move (comma list of NAMES, or "all"); the rest stay at chooser.h's values.
#   LATENCY: 1 fits the ring's latency too (FREE gets SM_LATENCY_US), 0 keeps the tree's form.
#   ITERS, RESTARTS, CUT (1.10), HINGE (1).
#   python3 step10_autotune/experiments/decode/fit_ring.py       (from the repository's root; no GPU)
import ctypes, glob, math, os, random, re, statistics as st, subprocess, sys, tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import h200_logs
NAMES = ['T0_US', 'L2_GBS', 'MISALIGNED', 'SK_SCATTER', 'POWER', 'POWER_GFLOP', 'KT_US_64x64', 'KT_US_64x128',
         'KT_US_128x128', 'KT_US_128x192', 'KT_US_128x256c', 'EPI_US_COOP', 'SM_GBS', 'DRAM_MMA', 'SM_LATENCY_US']
CFG = ['64x64', '64x128', '128x128', '128x192', '128x256c']
PLAN = ['dp', 'sk', 'sk_l2', 'sk_cap']
src = open(os.path.join(HERE, '..', '..', 'chooser.h')).read()
start = []
for i, n in enumerate(NAMES[:-1]):
    pat = r'#define CHOOSER_%s ([\d.]+)' % n
    start.append(float(re.search(pat, src).group(1)))
    src = re.sub(pat, '#define CHOOSER_%s chooser_th[%d]' % (n, i), src)
start.append(0.0)   # SM_LATENCY_US: the tree has none
at = '    const double feed_kt_us = chooser_box_rows(c, M) * 128.0 / (CHOOSER_SM_GBS * 1e3) *\n'
assert src.count(at) == 1, 'fit_ring: chooser.h changed; the feed line is not where it was'
src = src.replace(at, '    const double feed_kt_us = chooser_th[%d] / c->stages + chooser_box_rows(c, M) * 128.0 / (CHOOSER_SM_GBS * 1e3) *\n'
                  % (len(NAMES) - 1))
# FIXUP=tensor (or kt): the busiest owner's fixup, in k-tile times (sk_plan_fixup_kt), priced at the tile's
# tensor-core k-tile time (or at its k-tile time before one SM's feed) rather than at the fed k-tile's: a
# fixup moves partials, whose bytes grow with the tile's area as its tensor-core time does, not operands
FIXUP = os.environ.get('FIXUP', '')
if FIXUP:
    at2 = '    e.t_mma_us = (ring * e.kt_us + (e.busiest_kt - ring) * kt_fed) * e.power *\n'
    assert src.count(at2) == 1, 'fit_ring: chooser.h changed; the mainloop line is not where it was'
    fx = 'c->kt_us' if FIXUP == 'tensor' else 'e.kt_us'
    src = src.replace(at2, '    const long long fix_kt = sk_plan_fixup_kt(&e.plan) < e.busiest_kt - ring ? sk_plan_fixup_kt(&e.plan) : e.busiest_kt - ring;\n'
                      '    e.t_mma_us = (ring * e.kt_us + (e.busiest_kt - ring - fix_kt) * kt_fed + fix_kt * %s) * e.power *\n' % fx)
tmp = tempfile.mkdtemp()
open(os.path.join(tmp, 'chooser.h'), 'w').write(src)
so = os.path.join(tmp, 'model.so')
subprocess.run(['cc', '-O2', '-shared', '-fPIC', '-I', tmp, '-I', os.path.join(HERE, '..', '..', '..', 'common'),
                os.path.join(HERE, 'fit_ring_model.c'), '-o', so, '-lm'], check=True)
lib = ctypes.CDLL(so)
lib.loss.restype = ctypes.c_double
lib.judge.restype = ctypes.c_double
D20 = ctypes.c_double * 20


def slot(cand):
    c, p = cand.split('/')
    return CFG.index(c) * 4 + PLAN.index(p)


runs = []   # (set, shape, gpu 0 H200 / 1 H100, {candidate: us})
keep = lambda f, M: 'sweep_s21' in f or 'pair_rows' in f or M > 64   # judge_logs.py's rule
for (f, s), c in sorted(h200_logs.runs(keep).items()): runs.append(('h200', s, 0, c))


def tune_sections(path, pattern=None):
    """A log's --tune listings: (shape, {candidate: (ms, cuBLAS ms)}), first listing of each candidate.  A
    section starts at each line matching `pattern` (its groups: M, N, K); without one the whole file is one
    section, its shape from the file's name (tune_sweep.sh's logs)."""
    out, tu = [], {}
    cur = None if pattern else tuple(map(int, re.search(r'tune_(\d+)x(\d+)x(\d+)', path).groups()))
    for line in open(path, errors='replace'):
        m = re.match(pattern, line) if pattern else None
        if m:
            if cur and tu: out.append((cur, tu))
            cur, tu = tuple(map(int, m.groups())), {}
        t = re.match(r'tune: (\S+/\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms', line)
        if t and cur and t.group(1) not in tu: tu[t.group(1)] = (float(t.group(2)), float(t.group(3)))
    if cur and tu: out.append((cur, tu))
    return out


def scaled(tu, own=False):
    """A candidate's time scaled by cuBLAS's beside its configuration's dp plan (h200_logs.py's rule), or
    with own=True by cuBLAS's beside itself (the bench table's rule, ratios to cuBLAS): the H200's bench
    shapes past ~0.5 ms change clock within a process, not always downward (8192 x 4096 x 14336: cuBLAS
    1.26-1.73 ms in one process), and 128x256c/sk there read 11% faster than the best by the first rule."""
    clk = {k.split('/')[0]: c for k, (t, c) in tu.items() if k.endswith('/dp')}
    ref = sorted(clk.values())[len(clk) // 2]
    return {k: t * ref / (c if own else clk.get(k.split('/')[0], ref)) * 1e3 for k, (t, c) in tu.items()}


BENCH = 'plots/results/session_2026-11-28e/bench_step10_h200_cb37229.log'
for s, tu in tune_sections(BENCH, r'=== \S+ --m (\d+) --n (\d+) --k (\d+) .*--tune'): runs.append(('bench', s, 0, scaled(tu, own=True)))
E = 'step10_autotune/experiments/logs/'
for d, name in (('menu5c1', 'tune_fit'), ('shareb', 'tune_heldout')):
    for f in sorted(glob.glob(E + d + '/' + name + '/tune_*.log')):
        for s, tu in tune_sections(f): runs.append(('h100_' + name[5:], s, 1, scaled(tu)))
# ring_cut.sh's rounds (H200, session 22): per shape the tree's runs (64x64 at 8 slots, the model's pick)
# and the deep build's (64x64 at 13), one process each; a run's time scaled by cuBLAS's beside it to the
# shape's median cuBLAS time, a candidate's rounds by their median.  Two runs per shape, 64x64's ring 8 and 13.
RING = 'step10_autotune/experiments/decode/logs/ring_cut/rounds.txt'
stages64 = [8] * len(runs)
if os.path.exists(RING):
    got, last = {}, None
    for line in open(RING):
        m = re.match(r'r\d+ (\d+)x(\d+)x(\d+) (\S+).*?: stages=(\d+): ([\d.]+) ms .*cuBLAS ([\d.]+) ms', line)
        if m: last = m.groups(); continue
        c = re.match(r'\s+configuration: (\S+), plan (\S+),', line)
        if c and last:
            s, st_ = tuple(map(int, last[:3])), int(last[4])
            got.setdefault(s, []).append((st_, c.group(1) + '/' + c.group(2), float(last[5]), float(last[6]))); last = None
    for s, v in sorted(got.items()):
        ref = st.median(cb for _, _, _, cb in v)
        for depth in (8, 13):
            c = {}
            for d, k, t, cb in v:
                if d == depth: c.setdefault(k, []).append(t * ref / cb * 1e3)
            if c: runs.append(('ring', s, 0, {k: st.median(t) for k, t in c.items()})); stages64.append(depth)
# sweep_s22: decode/run.sh's sweep with 2fcab1c's binary (64x64 at up to 13 slots by chooser_ring, B cut to N)
for f in sorted(glob.glob('step10_autotune/experiments/decode/logs/sweep_s22/tune_decode/tune_*.log')):
    for s, tu in tune_sections(f): runs.append(('s22', s, 0, scaled(tu))); stages64.append(13)
lib.clear()
for (_, s, g, c), d in zip(runs, stages64):
    us = D20(*[0.0] * 20)
    for k, v in c.items(): us[slot(k)] = v
    lib.load(s[0], s[1], s[2], g, d, us)
FIT_SETS = os.environ.get('FIT_SETS', 'h200,bench').split(',')
use = (ctypes.c_int * len(runs))(*[r[0] in FIT_SETS for r in runs])
CUT, HINGE = float(os.environ.get('CUT', '1.10')), float(os.environ.get('HINGE', '1'))
N = len(NAMES)
loss = lambda th: lib.loss((ctypes.c_double * N)(*th), N, use, ctypes.c_double(CUT), ctypes.c_double(HINGE))


def judge(th, setname):
    per = {}
    for r, (sn, s, g, c) in enumerate(runs):
        if sn != setname: continue
        pk = ctypes.c_int()
        q = lib.judge((ctypes.c_double * N)(*th), N, r, ctypes.byref(pk))
        if q > 0: per.setdefault(s, []).append((q, CFG[pk.value // 4] + '/' + PLAN[pk.value % 4]))
    ok = sum(st.median(q for q, _ in v) >= 0.97 for v in per.values())
    miss = ['%dx%dx%d %s %.3f' % (s + (v[0][1], st.median(q for q, _ in v))) for s, v in sorted(per.items())
            if st.median(q for q, _ in v) < 0.97]
    return ok, len(per), miss


LAT = os.environ.get('LATENCY', '1') == '1'
FREE = os.environ.get('FREE', 'SM_GBS')
free = list(range(N - (0 if LAT else 1))) if FREE == 'all' else [NAMES.index(n) for n in FREE.split(',') if n]
if LAT and N - 1 not in free: free.append(N - 1)
th0 = list(start)
if LAT and th0[-1] == 0: th0[-1] = 0.5
print('runs: %s' % ', '.join('%s %d' % (n, sum(r[0] == n for r in runs)) for n in ('h200', 'bench', 'ring', 's22', 'h100_fit', 'h100_heldout')))
print('the tree:   loss %.4f' % loss(start), '  '.join('%s %d/%d' % ((n,) + judge(start, n)[:2]) for n in ('h200', 'bench', 'ring', 's22', 'h100_fit', 'h100_heldout')))
best_th, best = None, 1e18
for seed in range(1, int(os.environ.get('RESTARTS', '2')) + 1):
    random.seed(seed)
    th, l0 = list(th0), loss(th0)
    iters = int(os.environ.get('ITERS', '4000'))
    for it in range(iters):
        cand = [x * math.exp(random.gauss(0, 0.05) * (1 if it < iters // 2 else 0.3)) if i in free else x for i, x in enumerate(th)]
        l = loss(cand)
        if l < l0: l0, th = l, cand
    print('seed %d loss %.4f' % (seed, l0))
    if l0 < best: best, best_th = l0, th
th = best_th
print('fitted:     loss %.4f' % best, '  '.join('%s %d/%d' % ((n,) + judge(th, n)[:2]) for n in ('h200', 'bench', 'ring', 's22', 'h100_fit', 'h100_heldout')))
for i in free: print('  %-15s %10.4f  (tree %.4f)' % (NAMES[i], th[i], start[i]))
for n in ('h200', 'bench', 'ring', 's22', 'h100_fit', 'h100_heldout'):
    print('misses, %s:' % n); print('\n'.join('  ' + m for m in judge(th, n)[2]))
# SHOW=MxNxK[,MxNxK]: every candidate's measured and predicted time there, the tree's constants and the fit's
for want in filter(None, os.environ.get('SHOW', '').split(',')):
    ws = tuple(map(int, want.split('x')))
    for r, (sn, s, g, c) in enumerate(runs):
        if s != ws: continue
        print('== %s (%s)' % (want, sn))
        for name, t in (('tree', start), ('fit', th)):
            lib.loss((ctypes.c_double * N)(*t), N, (ctypes.c_int * len(runs))(*[0] * len(runs)), ctypes.c_double(CUT), ctypes.c_double(HINGE))
            pred = D20(); lib.price_run(r, pred)
            print('  %-5s' % name + ' '.join('%s %.1f/%.1f' % (k, c[k], pred[slot(k)]) for k in sorted(c, key=c.get) if pred[slot(k)] > 0))
# BIAS=1: per candidate class (configuration/plan), the median and spread of predicted / measured over the
# contenders (within CUT of the run's best) of the H200 sets, the tree's constants and the fit's
if os.environ.get('BIAS') == '1':
    for name, t in (('tree', start), ('fit', th)):
        lib.loss((ctypes.c_double * N)(*t), N, (ctypes.c_int * len(runs))(*[0] * len(runs)), ctypes.c_double(CUT), ctypes.c_double(HINGE))
        by = {}
        for r, (sn, s, g, c) in enumerate(runs):
            if sn not in ('h200', 'bench'): continue
            pred = D20(); lib.price_run(r, pred); b = min(c.values())
            for k, v in c.items():
                if v <= CUT * b and pred[slot(k)] > 0: by.setdefault(k, []).append(pred[slot(k)] / v)
        print('predicted / measured, contenders, %s:' % name)
        for k in sorted(by, key=lambda k: (CFG.index(k.split('/')[0]), PLAN.index(k.split('/')[1]))):
            v = sorted(by[k]); print('  %-15s %3d  median %.3f  p10 %.3f  p90 %.3f' % (k, len(v), st.median(v), v[len(v) // 10], v[9 * len(v) // 10]))
