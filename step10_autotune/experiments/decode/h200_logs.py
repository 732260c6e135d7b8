# h200_logs.py: the H200 tune logs the experiments keep (tune_sweep.sh's, one per shape), read for
# pair_bias.py and judge_logs.py.  runs(keep) -> {(log file, (M, N, K)): {candidate: us}}, each
# candidate's time scaled by cuBLAS's beside its configuration's dp plan (model_vs_sweep.py's rule: the
# clock moves during a process); keep(file, M) says which logs' kernels the caller can use.
# scaled(lines, take) is that reading of one process's lines (model_layers/judge_variant.py's too).
import glob, re
E = 'step10_autotune/experiments/'
DIRS = ['decode/logs/tune_decode', 'decode/logs/sweep_s21', 'decode/logs/box_rows', 'decode/logs/pair_rows',
        'decode/logs/fixed', 'decode/logs/share', 'sk_cap/logs/rule', 'sk_cap/logs/first_offer',
        'sk_cap/logs/final', 'fixup_writers/logs/final']


def scaled(lines, take=lambda candidate: True):
    """{candidate: us} from one tune process's lines: each candidate's first (sweep) time, those take() keeps,
    scaled by the cuBLAS time beside its configuration's dp plan over their median; {} without a dp plan"""
    tu = {}
    for line in lines:
        t = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms', line)
        if t and t.group(1) not in tu and take(t.group(1)): tu[t.group(1)] = (float(t.group(2)), float(t.group(3)))
    clk = {k.split('/')[0]: c for k, (t, c) in tu.items() if k.endswith('/dp')}
    if not clk: return {}
    ref = sorted(clk.values())[len(clk) // 2]
    return {k: t * ref / clk.get(k.split('/')[0], ref) * 1e3 for k, (t, c) in tu.items()}


def runs(keep):
    out = {}
    for d in DIRS:
        for f in sorted(glob.glob(E + d + '/**/tune_*.log', recursive=True)):
            m = re.search(r'tune_(\d+)x(\d+)x(\d+)\.log$', f)
            if not m or not keep(f, int(m.group(1))): continue
            times = scaled(open(f, errors='replace'))
            if times: out[(f, tuple(map(int, m.groups())))] = times
    return out
