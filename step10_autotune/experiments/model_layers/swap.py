# model_layers/swap.py SWAPPED_DIR ORIGINAL_DIR...: each short prefill shape run with its operands swapped (N x M x
# K: run.sh swap) beside its own orientation (M x N x K, from an earlier sweep's logs, the first ORIGINAL_DIR that
# has it): the fastest candidate of each and its time; the swapped time over cuBLAS's in the shape's own
# orientation (the two from different processes: the clock under the power cap moves them by a few percent); and
# cuBLAS's own time swapped.  Swapped, N = the old M is not a multiple of 8 at any of these shapes: D's rows are
# not 16-byte aligned, step 10 stores from registers (no TMA store) and cuBLAS runs slower kernels, so the ratio
# to cuBLAS measured beside the swapped run says nothing about the swap.  192x128 candidates (tile_192's build)
# are left out.  No GPU.
#   python3 step10_autotune/experiments/model_layers/swap.py SWAPPED_DIR ORIGINAL_DIR...
import glob, os, re, sys

def fastest(f):   # (candidate, its time, cuBLAS's time beside it) of the fastest candidate in one tune log
    r = {}
    for line in open(f):
        m = re.match(r'tune: (\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms \| ratio ([\d.]+)', line)
        if m and m.group(1) not in r and not m.group(1).startswith('192x128'):
            r[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    k = min(r, key=lambda k: r[k][0])
    return (k,) + r[k]

faster = n = 0
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'tune_*.log')), key=lambda f: int(os.path.basename(f).split('x')[1])):
    n_, m_, k_ = os.path.basename(f)[5:-4].split('x')
    orig = [os.path.join(d, 'tune_%sx%sx%s.log' % (m_, n_, k_)) for d in sys.argv[2:]]
    orig = [o for o in orig if os.path.exists(o)]
    if not orig: print('%sx%sx%s: no log of its own orientation' % (m_, n_, k_)); continue
    o, s = fastest(orig[0]), fastest(f)
    n += 1; faster += s[1] < o[1] / 1.03
    print('%-16s as is %-14s %.4f ms, cuBLAS %.4f (%.3f) | swapped %-14s %.4f ms (%+.1f%%), over cuBLAS as is %.3f'
          ' | cuBLAS swapped %.4f' % ('%sx%sx%s' % (m_, n_, k_), o[0], o[1], o[2], o[2] / o[1], s[0], s[1],
                                      100 * (o[1] / s[1] - 1), o[2] / s[1], s[2]))
print('swapped faster than its own orientation by more than 3%%: %d of %d' % (faster, n))
