# model_layers/swap.py SWAPPED_DIR ORIGINAL_DIR...: each short prefill shape run with its operands swapped (N x M x
# K: run.sh swap) beside its own orientation (M x N x K, from an earlier sweep's logs, the first ORIGINAL_DIR that
# has it): the best candidate of each, its time and its ratio to cuBLAS measured in the same process, and cuBLAS's
# time in each orientation.  Candidates named 192x128 (tile_192's build) are left out.  No GPU.
#   python3 step10_autotune/experiments/model_layers/swap.py SWAPPED_DIR ORIGINAL_DIR...
import glob, os, re, sys

def best(f):   # (candidate, its time, cuBLAS beside it, ratio) of the highest ratio in one tune log
    r = {}
    for line in open(f):
        m = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms \| ratio ([\d.]+)', line)
        if m and m.group(1) not in r and not m.group(1).startswith('192x128'):
            r[m.group(1)] = (float(m.group(2)), float(m.group(3)), float(m.group(4)))
    k = max(r, key=lambda k: r[k][2])
    return (k,) + r[k]

ahead = n = 0
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'tune_*.log')), key=lambda f: int(os.path.basename(f).split('x')[1])):
    n_, m_, k_ = os.path.basename(f)[5:-4].split('x')
    orig = [os.path.join(d, 'tune_%sx%sx%s.log' % (m_, n_, k_)) for d in sys.argv[2:]]
    orig = [o for o in orig if os.path.exists(o)]
    if not orig: print('%sx%sx%s: no log of its own orientation' % (m_, n_, k_)); continue
    o, s = best(orig[0]), best(f)
    n += 1; ahead += s[3] > 1.03 * o[3]
    print('%sx%sx%s  as is: %-14s %.4f ms (cuBLAS %.4f) %.3f | swapped: %-14s %.4f ms (cuBLAS %.4f) %.3f  %+.1f%%'
          % (m_, n_, k_, o[0], o[1], o[2], o[3], s[0], s[1], s[2], s[3], 100 * (s[3] / o[3] - 1)))
print('swapped ahead of its own orientation by more than 3%% (ratios to cuBLAS): %d of %d' % (ahead, n))
