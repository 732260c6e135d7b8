# old_picks.py — judges another chooser's picks on a tune_sweep.sh folder: for each "M N K PICK" line on
# stdin (PICK as configuration/plan, e.g. picks.c's column built against an older chooser.h), best / PICK
# from that shape's log, clock-scaled as model_vs_sweep.py does; then how many are at 0.97 or above.
#   python3 step10_autotune/experiments/decode/old_picks.py LOG_DIR < PICKS
import os, re, sys
ok = n = 0
for line in sys.stdin:
    f = line.split()
    if len(f) < 4 or f[0].startswith('#'): continue
    path = os.path.join(sys.argv[1], 'tune_%sx%sx%s.log' % tuple(f[:3]))
    if not os.path.exists(path): continue
    tu = {}
    for l in open(path):
        m = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms \| ratio ([\d.]+)', l)
        if m and m.group(1) not in tu: tu[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    if not tu: print('%s: no tune lines' % os.path.basename(path)); continue
    clk = {k.split('/')[0]: c for k, (t, c) in tu.items() if k.endswith('/dp')}
    ref = sorted(clk.values())[len(clk) // 2]
    norm = {k: t * ref / clk.get(k.split('/')[0], ref) for k, (t, c) in tu.items()}
    best = min(norm, key=norm.get)
    if f[3] not in norm: print('%s: %s not measured' % (os.path.basename(path), f[3])); continue
    q = norm[best] / norm[f[3]]
    n += 1; ok += q >= 0.97
    print("%-28s pick %-14s best %-14s %.3f" % (os.path.basename(path), f[3], best, q))
print("within 3%%: %d of %d" % (ok, n))
