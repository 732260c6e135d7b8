# model_layers/ratios.py PICKS: run.sh's picks.txt (three processes per shape, the model's pick) as one line per
# shape: the configuration and plan the model chose, the median ratio to cuBLAS and the three, and whether
# the checked run passed; then how many shapes read >= 0.95 and >= 1.00 at the median.  No GPU.
import re, sys
rows, order = {}, []
for line in open(sys.argv[1]):
    w = line.split()
    shape = '%sx%sx%s' % tuple(w[:3])
    m = re.search(r'ratio ([\d.]+)', line)
    c = re.search(r'configuration: ([^,\s]+), plan ([^,\s]+)', line)
    if shape not in rows: rows[shape] = []; order.append(shape)
    rows[shape].append((float(m.group(1)) if m else None, c.group(1) + '/' + c.group(2) if c else '?',
                        'check ok' in line if w[4] == '1' else None))
n = a = b = 0
for shape in order:
    r = [x for x in rows[shape] if x[0] is not None]
    if not r: print('%-20s no ratio' % shape); continue
    q = sorted(x[0] for x in r)
    med = q[len(q) // 2]
    checked = [x[2] for x in rows[shape] if x[2] is not None]
    n += 1; a += med >= 0.95; b += med >= 1.00
    print('%-20s %-14s median %.3f  (%s)  check %s' % (shape, r[0][1], med, ' '.join('%.3f' % x for x in q),
          'ok' if checked and checked[0] else 'FAILED'))
print('median >= 0.95: %d of %d; >= 1.00: %d of %d' % (a, n, b, n))
