# swap_width/rounds.py ROUNDS: run.sh's rounds part, one line per shape: the medians over the rounds of the
# tree's time at M x N x K, cuBLAS's beside it, and the swapped tile's time at N x M x K; the as-is ratio and
# the swapped time over cuBLAS's (the processes alternated, the order rotated round by round).  No GPU.
#   python3 step10_autotune/experiments/swap_width/rounds.py ROUNDS
import re, sys
t = {}
for line in open(sys.argv[1]):
    w = line.split()
    m = re.search(r': ([\d.]+) ms .*cuBLAS ([\d.]+) ms', line)
    if not m: continue
    t.setdefault((w[1], w[3].rstrip(':')), {}).setdefault(w[2], []).append((float(m.group(1)), float(m.group(2))))
med = lambda v: sorted(v)[len(v) // 2]
for (shape, c), d in t.items():
    if 'as_is' not in d or 'swapped' not in d: continue
    a, cb, s = med([x[0] for x in d['as_is']]), med([x[1] for x in d['as_is']]), med([x[0] for x in d['swapped']])
    print('%-16s as is %.4f ms, cuBLAS %.4f: %.3f | swapped %-9s %.4f ms: %.3f of cuBLAS  (%d rounds)'
          % (shape, a, cb, cb / a, c, s, cb / s, len(d['swapped'])))
