# decode/rounds_picks.py ROUNDS [--new-over-old]: variant_rounds' log (variant.sh) as one line per shape: for
# each binary, in the order it first ran, the pick it ran (configuration/plan@slots, from the harness's
# "configuration:" line), its median time and median ratio to cuBLAS, and the ratios of its rounds in order.
# --new-over-old (two binaries): the second's median ratio over the first's per shape, then their spread.
# Used by ring_rule.sh and b_cut.sh (beside this).  No GPU.
import re, statistics as st, sys
rows, order, last = {}, [], None
for l in open(sys.argv[1]):
    m = re.match(r'r\d+ (\S+) (\S+)/step10_autotune.*?: stages=(\d+): ([\d.]+) ms .*ratio ([\d.]+)', l)
    if m:
        last = m.groups()
        order += [last[1]] if last[1] not in order else []
        continue
    c = re.match(r'\s+configuration: (\S+), plan (\S+),', l)
    if c and last:
        rows.setdefault(last[0], {}).setdefault(last[1], []).append(
            (float(last[3]) * 1e3, float(last[4]), c.group(1) + '/' + c.group(2) + '@' + last[2]))
        last = None
ratio = lambda v: st.median(q for _, q, _ in v)
gain = []
for sh, v in rows.items():
    line = sh + ''.join(' | %s %s %.1f us %.3f (%s)' % (b.split('/')[-1], v[b][0][2], st.median(t for t, _, _ in v[b]),
                                                          ratio(v[b]), ' '.join('%.3f' % q for _, q, _ in v[b]))
                        for b in order if b in v)
    if '--new-over-old' in sys.argv:
        gain.append(ratio(v[order[1]]) / ratio(v[order[0]]))
        line += ' | new/old %.3f' % gain[-1]
    print(line)
if gain:
    print('new/old over %d shapes: median %.3f, min %.3f, max %.3f' % (len(gain), st.median(gain), min(gain), max(gain)))
