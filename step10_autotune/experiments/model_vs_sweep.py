# model_vs_sweep.py — is the model's pick, as the binary that ran printed it, within 3% of
# the best candidate the same process measured?  Reads tune_sweep.sh's logs (one per shape:
# the `explain:` table marks the model's choice, the `tune:` lines are every candidate's
# time), scales each candidate's time by cuBLAS's beside its configuration's dp plan as
# fit_chooser.py does (the clock moves during a process), and prints per shape the model's
# pick, the best, and best / pick; then how many are at 0.97 or above.  Unlike
# fit_chooser.py it fits nothing: it judges the constants the binary was built with.
#   python3 step10_autotune/experiments/model_vs_sweep.py LOG_DIR
import glob, os, re, sys
ok = n = 0
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'tune_*.log'))):
    pick, tu = None, {}
    for line in open(f):
        if "the model's choice" in line:
            m = re.match(r'explain:\s+(\S+)/(\S+)', line)
            pick = m.group(1) + '/' + m.group(2)
        m = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms \| ratio ([\d.]+)', line)
        if m and m.group(1) not in tu:   # the sweep's line, not the head-to-head rounds
            tu[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    if not pick or not tu:
        print("%s: no explain or tune lines" % os.path.basename(f)); continue
    clk = {k.split('/')[0]: c for k, (t, c) in tu.items() if k.endswith('/dp')}
    ref = sorted(clk.values())[len(clk) // 2]
    norm = {k: t * ref / clk.get(k.split('/')[0], ref) for k, (t, c) in tu.items()}
    best = min(norm, key=norm.get)
    q = norm[best] / norm[pick]
    n += 1; ok += q >= 0.97
    print("%-28s model %-14s best %-14s %.3f" % (os.path.basename(f), pick, best, q))
print("within 3%%: %d of %d" % (ok, n))
