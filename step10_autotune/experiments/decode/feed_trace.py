# decode/feed_trace.py OUT: feed_trace.sh's traces: per CTA traced and consumer warpgroup, the times its
# k-tiles' waits end (a slot full), and the median interval between consecutive ones past the ring's
# first 8 k-tiles: how often a k-tile reaches that SM once the loads issued at the start are used up.
import csv, glob, os, statistics as st, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], 'trace_*.csv'))):
    ends = {}
    with open(f) as fh:
        rows = [r for r in csv.reader(l for l in fh if not l.startswith('#'))]
    head, rows = rows[0], rows[1:]
    ix = {k: i for i, k in enumerate(head)}
    for r in rows:
        if r[ix['phase']] == 'consumer_wait':
            ends.setdefault((r[ix['cta']], r[ix['unit']]), []).append((int(r[ix['index']]), int(r[ix['t_end_ns']])))
    out = []
    for key, v in sorted(ends.items()):
        v.sort()
        t = [b for _, b in v]
        if len(t) < 20: continue
        d = [(t[i + 1] - t[i]) / 1e3 for i in range(8, len(t) - 1)]
        out.append('cta %s wg %s: %d k-tiles, past the ring %.3f us a k-tile (median), first 8 in %.2f us' %
                   (key[0], key[1], len(t), st.median(d), (t[7] - t[0]) / 1e3))
    print(os.path.basename(f)); print('\n'.join('  ' + o for o in out) if out else '  no consumer waits with 20+ k-tiles')
