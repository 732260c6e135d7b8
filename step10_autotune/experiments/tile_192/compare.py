# tile_192/compare.py DIR: tune_sweep.sh's logs of the 192x128 build (one process per shape), the menu's best
# candidate against 192x128's best, both as the sweep measured them beside cuBLAS (ratio), and the head to
# head of the best two; then at how many shapes 192x128's best is ahead of the menu's by more than 3%.
#   python3 step10_autotune/experiments/tile_192/compare.py DIR
import glob, os, re, sys
wins = n = 0
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'tune_*.log')), key=lambda f: int(os.path.basename(f)[5:].split('x')[0])):
    r, h2h = {}, ''
    for line in open(f):
        m = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms \| ratio ([\d.]+)', line)
        if m and m.group(1) not in r: r[m.group(1)] = float(m.group(4))
        if 'head to head, median' in line: h2h = line.split('time: ')[1].strip()
    old = {k: v for k, v in r.items() if not k.startswith('192x128')}
    new = {k: v for k, v in r.items() if k.startswith('192x128')}
    if not old or not new: print('%s: no tune lines' % os.path.basename(f)); continue
    bo, bn = max(old, key=old.get), max(new, key=new.get)
    n += 1; wins += new[bn] > 1.03 * old[bo]
    print('%-22s menu %-14s %.3f  192x128 %-14s %.3f  %+.1f%%  (head to head: %s)' % (os.path.basename(f)[5:-4], bo,
          old[bo], bn, new[bn], 100 * (new[bn] / old[bo] - 1), h2h))
print("192x128's best ahead of the menu's by more than 3%%: %d of %d" % (wins, n))
