#!/usr/bin/env python3
"""pair_alone/summary.py TREE_DIR ALONE_DIR: one line per shape, the two builds' --tune logs side by side.

For each build: the model's pick and its ratio to cuBLAS (the first pass: each candidate interleaved with
cuBLAS in the one process), the best candidate and its ratio; then best(alone) / best(tree)."""
import glob, os, re, sys


def read(path):
    model, ratios = None, {}
    for line in open(path):
        m = re.match(r'explain:\s+(\S+)\s.*<- the model', line)
        if m: model = m.group(1)
        m = re.match(r'tune: (\S+/\S+)\s+([\d.]+) ms \| cuBLAS ([\d.]+) ms \| ratio ([\d.]+)', line)
        if m and m.group(1) not in ratios: ratios[m.group(1)] = float(m.group(4))
    return model, ratios


def main():
    tree, alone = sys.argv[1], sys.argv[2]
    shapes = sorted((os.path.basename(p)[5:-4] for p in glob.glob(os.path.join(tree, 'tune_*.log'))),
                    key=lambda s: tuple(map(int, s.split('x'))))
    print('%-16s | %-32s %-32s | %-32s %-32s | alone/tree' % ('shape', 'tree: model', 'tree: best',
                                                              'alone: model', 'alone: best'))
    gains = []
    for sh in shapes:
        cols, best = [], []
        for d in (tree, alone):
            p = os.path.join(d, 'tune_%s.log' % sh)
            if not os.path.exists(p): cols += ['(no log)', '']; best.append(None); continue
            model, r = read(p)
            if not r: cols += ['(no tune lines)', '']; best.append(None); continue
            b = max(r, key=r.get)
            cols += ['%s %.3f' % (model, r.get(model, float('nan'))), '%s %.3f' % (b, r[b])]
            best.append(r[b])
        g = best[1] / best[0] if None not in best else float('nan')
        gains.append(g)
        print('%-16s | %-32s %-32s | %-32s %-32s | %.3f' % (sh, cols[0], cols[1], cols[2], cols[3], g))


main()
