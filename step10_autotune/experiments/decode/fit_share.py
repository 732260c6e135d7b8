# fit_share.py — how much of the mainloop shows above the DRAM floor?  The chooser's t = T0 + max(mainloop,
# floor + G x mainloop) (chooser.h, CHOOSER_DRAM_MMA) for G on a grid, against every candidate that
# tune_sweep.sh measured in the folders given (clock-scaled as model_vs_sweep.py), with each candidate's
# mainloop and floor from explain.c (the tree's chooser.h; neither term depends on G): the rms and the
# mean of log(measured / predicted).  Session 19 fitted G on the decode and dram_waves sweeps (H200).
#   nvcc -O2 -Icommon -Istep10_autotune step10_autotune/experiments/decode/explain.c -o build/explain
#   python3 step10_autotune/experiments/decode/fit_share.py CTAS L2_BYTES DRAM_GBS LOG_DIR...
import glob, math, re, subprocess, sys
dev, dirs = sys.argv[1:4], sys.argv[4:]
rows = []   # (mainloop us, floor us, measured us)
for d in dirs:
    for f in sorted(glob.glob(d + '/tune_*.log')):
        M, N, K = re.search(r'tune_(\d+)x(\d+)x(\d+)', f).groups()
        tu = {}
        for l in open(f):
            m = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms', l)
            if m and m.group(1) not in tu: tu[m.group(1)] = (float(m.group(2)), float(m.group(3)))
        clk = {k.split('/')[0]: c for k, (t, c) in tu.items() if k.endswith('/dp')}
        ref = sorted(clk.values())[len(clk) // 2]
        table = subprocess.run(['build/explain'] + dev, input='%s %s %s\n' % (M, N, K),
                               capture_output=True, text=True, check=True).stdout.splitlines()[2:]
        for l in table:
            p = l.split()
            if p[0] in tu: rows.append((float(p[6]), float(p[7]), tu[p[0]][0] * 1e3 * ref / clk.get(p[0].split('/')[0], ref)))
T0 = 7.98   # CHOOSER_T0_US
for G in [0, 0.25, 0.4, 0.5, 0.6, 0.75, 1.0]:
    err = [math.log(t / (T0 + max(m, d + G * m))) for (m, d, t) in rows]
    print('G %.2f  rms log error %.3f  mean %+.3f  (%d candidates)' % (G, math.sqrt(sum(e * e for e in err) / len(err)),
                                                                    sum(err) / len(err), len(err)))
